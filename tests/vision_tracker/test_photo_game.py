"""A whole game filmed on a path-traced table, hands over the board, tracked like ``maamut track``.

The frames in ``data/photo_game/`` were rendered by ``sim/photo/game.py`` (Blender's
Cycles; regenerate with ``python -m sim.photo.game --out DIR --seed 2000009 --turns 6``):
the setup, then for every move one or two frames with a forearm and hand over the
board (sometimes pinching the hunter it moves) and one still frame of the new board,
held for eight camera frames with sensor noise. No Blender is needed here.
"""
import json
from pathlib import Path

import pytest

from sim.photo.game_bench import game_dirs, load_game, track_game

GAME = Path(__file__).parent / "data" / "photo_game"


def test_the_kept_game_is_short_and_small():
    manifest = load_game(GAME)
    shown = [f for f in manifest["frames"] if f["kind"] != "pass"]
    assert len(shown) <= 25
    assert sum((GAME / f["file"]).stat().st_size for f in shown) < 3_000_000
    kinds = {f["kind"] for f in manifest["frames"]}
    assert {"setup", "hand", "still"} <= kinds
    assert game_dirs(GAME) == [GAME]


@pytest.fixture(scope="module")
def tracked():
    return track_game(GAME)


def test_a_filmed_game_commits_nothing_that_was_not_played(tracked):
    run, result, _ = tracked
    assert run.reader is not None, json.dumps(run.result()["reports"])   # the setup was learnt
    assert result["false_commits"] == 0


def test_a_filmed_game_is_tracked_exactly(tracked):
    run, result, _ = tracked
    assert result["exact"], json.dumps(run.result()["reports"])

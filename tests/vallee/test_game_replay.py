"""``maamut vallee replay``: a journal told phase by phase, exactly as played, and refused
(exit 2) when a line cannot be replayed; ``maamut bench vallee`` gives its three figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from vallee.bench import run_vallee_bench
from vallee.game import entry_line, setup_line, undo_line
from vallee.replay import replay_file

from .conftest import MAAMUT, ROOT

EXAMPLE = str(ROOT / "docs" / "examples" / "vallee-game.jsonl")
SETUP = {"players": ["Ana", "Bo"], "map": "sample", "seed": 5, "random": "physical"}


def run(args) -> subprocess.CompletedProcess:
    exe = [str(MAAMUT)] if MAAMUT.exists() else [sys.executable, "-m", "maamut.cli"]
    return subprocess.run(
        exe + ["vallee", "replay", *args],
        capture_output=True,
        text=True,
        cwd=str(ROOT),
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        timeout=120,
    )


def write(tmp_path, *lines) -> str:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_the_story_in_french_has_a_heading_per_phase_and_ends_with_the_question():
    proc = run([EXAMPLE, "--lang", "fr"])
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0] == "[0] mise en place" and "[1] déplacement des animaux" in lines
    assert "  Dé 3 : les animaux vont vers l'ouest" in lines
    assert lines[-1].startswith("Maintenant : Bo")


def test_an_undone_entry_is_left_out_and_a_torn_last_line_ignored(tmp_path):
    path = write(
        tmp_path,
        setup_line(SETUP),
        entry_line({"kind": "lot", "player": "Ana"}),
        undo_line(),
        entry_line({"kind": "lot", "player": "Bo"}),
        '{"entry": {"kind": "place_ca',
    )
    game, phases = replay_file(path)
    assert [e["player"] for e in game.entries] == ["Bo"]
    assert phases[0]["lines"] == ["Bo sets up first"]


def test_a_line_that_cannot_be_replayed_is_refused_with_its_number(tmp_path):
    path = write(
        tmp_path,
        setup_line(SETUP),
        entry_line({"kind": "lot", "player": "Ana"}),
        entry_line({"kind": "place_camp", "cell": "0,0"}),
    )
    proc = run([path, "--json"])
    assert proc.returncode == 2
    error = json.loads(proc.stdout)["error"]
    assert error["field"] == "line 3" and "0,0" in error["message"]
    assert run([str(tmp_path / "missing.jsonl")]).returncode == 2
    assert run([write(tmp_path, '{"entry": {}}')]).returncode == 2


def test_the_bench_gives_its_three_figures():
    figures = run_vallee_bench(seconds=0.05, pin=False)
    assert {"animal_phases_per_s", "combat_odds_ms", "games_per_s"} <= set(figures)
    assert figures["units"] == 40 and all(
        figures[k] > 0 for k in ("animal_phases_per_s", "combat_odds_ms", "games_per_s")
    )

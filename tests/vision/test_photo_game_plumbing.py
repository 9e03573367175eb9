"""The plumbing of the path-traced games (sim/photo/game.py, sim/photo/game_bench.py),
without Blender: the manifest's script, the pieces' physical spots, the recording the
bench replays, and the ``maamut bench vision --photo-games`` flag."""
import json

import cv2
import numpy as np
import pytest

from sim.photo.game import PhysicalBoard, script_from_json, script_to_json
from sim.photo.game_bench import camera_frames, game_dirs, run_photo_games_bench
from sim.tracker_bench import Snapshot, script_game


@pytest.mark.parametrize("seed", [2_000_003, 2_000_009, 2_000_011])
def test_the_manifest_rebuilds_the_script_that_compare_needs(seed):
    script = script_game(seed, max_turns=8)
    back = script_from_json(json.loads(json.dumps(script_to_json(script))))
    assert back.players == script.players and back.tiles == script.tiles
    assert back.placements == script.placements and back.truth == script.truth
    assert back.actions == script.actions and back.winner == script.winner


def test_script_game_is_deterministic_so_a_seed_names_its_game():
    a, b = script_game(2_000_009, max_turns=6), script_game(2_000_009, max_turns=6)
    assert a.truth == b.truth and a.steps == b.steps


def test_pieces_that_stay_keep_their_physical_spot():
    board = PhysicalBoard(np.random.default_rng(1))
    first = Snapshot(18, (("c0", 3), ("c1", 32)))
    assert board.update(first) == {18, 3, 32}
    before = {p.owner or p.kind: (p.x, p.y) for p in board.placements()}
    # c0 walks from cell 3 to cell 4 and lays a trap on 10: only those cells change.
    changed = board.update(Snapshot(18, (("c0", 4), ("c1", 32)), ((10, "c0"),)))
    assert changed == {3, 4, 10}
    after = {p.owner if p.kind == "hunter" else p.kind: (p.x, p.y) for p in board.placements()}
    assert after["mammoth"] == before["mammoth"] and after["c1"] == before["c1"]
    assert after["c0"] != before["c0"]
    assert [p.owner for p in board.placements(without="c0") if p.kind == "hunter"] == ["c1"]


def _fake_game(folder, seed=2_000_009):
    """A game folder of flat grey frames: the manifest's shape, no board to read."""
    folder.mkdir()
    cv2.imwrite(str(folder / "000-setup.jpg"), np.full((48, 64, 3), 120, np.uint8))
    cv2.imwrite(str(folder / "001-hand.jpg"), np.full((48, 64, 3), 60, np.uint8))
    frames = [{"file": "000-setup.jpg", "step": 0, "kind": "setup", "hold": 3},
              {"file": "001-hand.jpg", "step": 1, "kind": "hand", "hold": 2},
              {"file": None, "step": 2, "kind": "pass", "hold": 0}]
    manifest = {"seed": seed, "script": script_to_json(script_game(seed, max_turns=6)), "frames": frames}
    (folder / "game.json").write_text(json.dumps(manifest))
    return manifest


def test_the_recording_holds_still_frames_with_sensor_noise_at_30_fps(tmp_path):
    manifest = _fake_game(tmp_path / "g1")
    recording = list(camera_frames(tmp_path / "g1", manifest, noise=2.0))
    kinds = [entry["kind"] for _, _, entry in recording]
    assert kinds == ["setup"] * 3 + ["hand"] * 2 + ["pass"]
    times = [t for t, _, _ in recording]
    assert np.allclose(np.diff(times[:5]), 1 / 30)
    held = [frame for _, frame, entry in recording if entry["kind"] == "setup"]
    assert not np.array_equal(held[0], held[1])          # not bit-identical...
    assert abs(float(held[0].mean()) - 120) < 2           # ...but the same picture
    assert recording[-1][1] is None                       # the pass is a button press


def test_a_game_whose_setup_is_never_seen_is_reported_failed(tmp_path):
    _fake_game(tmp_path / "g1")
    assert game_dirs(tmp_path) == [tmp_path / "g1"] and game_dirs(tmp_path / "g1") == [tmp_path / "g1"]
    result = run_photo_games_bench(tmp_path)
    assert result["photo_games"] == 1 and result["photo_games_tracked_exactly"] == 0
    assert result["photo_games_setup_failed"] == 1 and result["photo_games_failed"] == ["g1"]
    assert result["photo_games_false_commits"] == 0


def test_bench_flag_adds_only_the_photo_games_figures(tmp_path, capsys):
    from maamut.cli import main
    _fake_game(tmp_path / "g1")
    assert main(["bench", "vision", "--photo-games", str(tmp_path), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert sorted(figures) == sorted(["photo_games", "photo_games_tracked_exactly", "photo_games_false_commits",
                                      "photo_games_setup_failed", "photo_games_failed", "photo_games_ms_per_frame"])
    assert main(["bench", "vision", "--photo-games", str(tmp_path / "nothing-here")]) != 0


def test_hunters_sharing_a_cell_stand_apart_and_beside_the_mammoth():
    board = PhysicalBoard(np.random.default_rng(2))
    board.update(Snapshot(18, (("c0", 3), ("c1", 4))))
    board.update(Snapshot(18, (("c0", 4), ("c1", 4))))
    c0, c1 = (next(p for p in board.placements() if p.owner == label) for label in ("c0", "c1"))
    assert np.hypot(c0.x - c1.x, c0.y - c1.y) > 0.8        # two pawns' bases (0.3) side by side
    board.update(Snapshot(18, (("c0", 4), ("c1", 18))))
    mammoth = next(p for p in board.placements() if p.kind == "mammoth")
    c1 = next(p for p in board.placements() if p.owner == "c1")
    assert np.hypot(mammoth.x - c1.x, mammoth.y - c1.y) > 0.6

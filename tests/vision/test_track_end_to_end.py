"""End to end: rendered camera frames of a whole game, with hands passing over, tracked exactly.

The frames are drawn by the renderer with a random palette, token shapes, camera pose
and lighting; the tracker learns the set's colours from the setup in the recording,
reads every frame and must end with exactly the game that was played.
"""

import argparse
import json

import cv2
import numpy as np
import pytest

import engine
from sim import tracker_bench
from vision.calibration import learn
from vision.camera_cli import register_track

# A short game with a pass, a trap placed, a flight and the mammoth falling into the trap.
GAME_SEED = 346


@pytest.fixture(scope="module")
def recorded_game(tmp_path_factory):
    """The game rendered into a folder of JPEG frames, with the times the pass button was pressed."""
    script = tracker_bench.script_game(GAME_SEED, n_players=2, max_turns=6)
    kinds = [type(action).__name__ for action, _ in script.actions]
    assert {"Pass", "PlaceTrap", "Move"} <= set(kinds) and script.winner in script.players, kinds
    folder = tmp_path_factory.mktemp("frames")
    pass_times, index, last, still_of_step = [], 0, None, {}
    for timestamp, frame, step in tracker_bench.render_frames(script, seed=GAME_SEED, hold=5):
        if frame is None:
            pass_times.append(round(index / 30.0 - 1 / 60.0, 4))
            continue
        if frame is not last:  # held frames are the same picture: encode it once
            ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
            assert ok
            last = frame
        (folder / f"frame{index:05d}.jpg").write_bytes(data.tobytes())
        still_of_step[step] = folder / f"frame{index:05d}.jpg"  # the last frame: no hand
        index += 1
    setup_frames = [still_of_step[step] for step in range(len(script.players) + 1)]
    return script, folder, pass_times, setup_frames


def run_cli(argv, capsys):
    parser = argparse.ArgumentParser(prog="maamut")
    register_track(parser.add_subparsers())
    args = parser.parse_args(argv)
    code = args.handler(args)
    return code, capsys.readouterr().out


@pytest.mark.slow
def test_maamut_track_follows_a_rendered_game_exactly(recorded_game, capsys):
    script, folder, pass_times, _ = recorded_game
    code, out = run_cli(["track", str(folder), "--players", ",".join(script.players), "--json",
                         "--stable-frames", "3", "--pass-at", ",".join(map(str, pass_times))], capsys)
    assert code == 0
    result = json.loads(out)
    assert result["reports"] == []
    assert result["tiles"] == {engine.hexgrid.cell_name(i): t.value for i, t in enumerate(script.tiles)}
    played = [engine.action_to_json(action) for action, _ in script.actions]
    tracked = [entry["action"] for entry in result["actions"]]
    # A pass shows no card on the board: the tracker records it without one.
    assert [{k: v for k, v in a.items() if k != "card"} for a in played] == tracked
    assert engine.position_from_json(result["position"]) == script.truth[-1]
    assert result["winner"] == script.winner


@pytest.mark.slow
def test_without_the_pass_button_the_next_move_is_reported_not_guessed(recorded_game, capsys):
    script, folder, _, _ = recorded_game
    code, out = run_cli(["track", str(folder), "--players", ",".join(script.players), "--json",
                         "--stable-frames", "3"], capsys)
    result = json.loads(out)
    assert code == 0 and result["actions"] == []
    assert result["reports"][0]["type"] == "out_of_turn"
    assert result["reports"][0]["hunter"] == script.players[1]


def test_track_errors_are_clear_messages_not_tracebacks(tmp_path, capsys):
    code, out = run_cli(["track", str(tmp_path / "nothing"), "--players", "A,B", "--json"], capsys)
    assert code == 2 and "neither a folder of frames nor a video file" in json.loads(out)["error"]
    code, out = run_cli(["track", str(tmp_path), "--players", "A,B", "--json", "--variants", "{\"flee_target\": 1}"],
                        capsys)
    assert code == 2 and "flee_target" in json.loads(out)["error"]
    with pytest.raises(SystemExit):
        run_cli(["track", str(tmp_path), "--players", "A"], capsys)
    assert "2 to 4 player names" in capsys.readouterr().err


def test_a_recording_without_a_setup_says_so(tmp_path, capsys):
    cv2.imwrite(str(tmp_path / "0.png"), np.zeros((96, 128, 3), np.uint8))  # a dark frame: no board
    code, out = run_cli(["track", str(tmp_path), "--players", "A,B", "--json"], capsys)
    result = json.loads(out)
    assert code == 0 and result["actions"] == [] and result["position"] is None
    assert result["reports"][-1]["type"] == "setup_incomplete"


@pytest.mark.slow
def test_a_saved_calibration_can_be_used_instead_of_learning_the_setup(recorded_game, capsys, tmp_path):
    script, folder, pass_times, setup_frames = recorded_game
    calibration = learn([cv2.imread(str(path)) for path in setup_frames])
    calibration.save(tmp_path / "set.json")
    code, out = run_cli(["track", str(folder), "--players", ",".join(script.players), "--json",
                         "--stable-frames", "3", "--calibration", str(tmp_path / "set.json"),
                         "--pass-at", ",".join(map(str, pass_times))], capsys)
    result = json.loads(out)
    assert code == 0 and result["reports"] == []
    assert engine.position_from_json(result["position"]) == script.truth[-1]
    code, out = run_cli(["track", str(folder), "--players", "A,B", "--json",
                         "--calibration", str(tmp_path / "missing.json")], capsys)
    assert code == 2 and "cannot read calibration" in json.loads(out)["error"]


@pytest.mark.slow
def test_the_same_game_from_a_video_file_is_tracked_the_same(recorded_game, capsys, tmp_path):
    script, folder, pass_times, _ = recorded_game
    video = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, (1280, 960))
    for path in sorted(folder.iterdir()):
        writer.write(cv2.imread(str(path)))
    writer.release()
    code, out = run_cli(["track", str(video), "--players", ",".join(script.players), "--json",
                         "--stable-frames", "3", "--pass-at", ",".join(map(str, pass_times))], capsys)
    result = json.loads(out)
    assert code == 0 and result["reports"] == []
    assert engine.position_from_json(result["position"]) == script.truth[-1]
    assert result["winner"] == script.winner

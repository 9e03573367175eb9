"""``maamut serve``'s camera loop on a recorded game: frames → tracker → journaled table game."""

import threading

import cv2

from maamut.app import Companion
from maamut.config import Config

from sim.tracker_bench import render_frames, script_game


def _record(folder, script):
    for i, (_, frame, _) in enumerate(render_frames(script, seed=3, hold=5)):
        if frame is not None:
            cv2.imwrite(str(folder / f"frame{i:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])


def _companion(tmp_path, frames):
    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = [{"id": "Ada", "name": "Ada"}, {"id": "Bo", "name": "Bo"}]
    cfg.camera["source"] = str(frames)
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    return Companion(cfg)


def test_a_recorded_game_is_tracked_into_the_journal_and_resumed_after_a_restart(tmp_path):
    script = script_game(1, n_players=2, max_turns=4)
    assert all(step.kind == "board" for step in script.steps), "this seed has no pass"
    frames = tmp_path / "frames"
    frames.mkdir()
    _record(frames, script)

    companion = _companion(tmp_path, frames)
    stop = threading.Event()
    loop = companion.start_camera(stop)
    assert loop is not None
    loop.join(timeout=600)
    game = companion.table.game
    assert game is not None and game.turns_played() == len(script.truth)
    assert game.position.with_(hands=None) == script.truth[-1]
    assert (tmp_path / "var" / "calibration.json").exists(), "the learnt calibration is kept"
    companion.close()

    # a restart resumes the journal and the camera carries on from the same position
    again = _companion(tmp_path, frames)
    assert again.table.game.position == game.position
    loop = again.camera_loop(str(frames), threading.Event())
    assert loop.run_.tracker.phase in ("playing", "over")
    assert loop.run_.tracker.position == game.position.with_(hands=None)
    again.close()

"""The app around the table's session: configuration, buttons, LEDs, the demo."""

import json
import os
import subprocess
import sys
import threading

import pytest

import engine
from maamut.app import Companion
from maamut.config import Config, ConfigError, parse_config
from sim.demo import Demo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAYERS = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "<script>alert(1)</script>"}]


@pytest.mark.parametrize("text, message", [
    ("[web]\nport = 'eighty'", "[web] port"),
    ("[game]\nvariants = {flee_target = 'anywhere'}", "flee_target"),
    ("[lamp]\nx = 1", "unknown section [lamp]"),
    ("[web", "not valid TOML"),
])
def test_bad_configuration_says_which_key_and_why(text, message):
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_config(text)


def test_default_configuration_file_parses_to_the_defaults():
    from maamut.config import DEFAULT_TEXT

    cfg = parse_config(DEFAULT_TEXT)
    assert cfg.web == Config().web and len(cfg.players()) == 3


def place_all(table):
    """Place every hunter on the first free start cell, in seating order."""
    from engine.hexgrid import cell_name

    for player in table.game.players:
        table.place_hunter(player, cell_name(table.game.start_cells()[0]))


PASS_A = engine.Pass("A")


def _companion(tmp_path, **overrides) -> Companion:
    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = [{"id": "A", "name": "Ann", "colour": "#d62828"},
                           {"id": "B", "name": "<b>Bo</b>", "colour": "#1d4ed8"}]
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    for key, value in overrides.items():
        getattr(cfg, key).update(value)
    return Companion(cfg)


def test_demo_games_reach_the_page_and_the_led_mirror(tmp_path):
    companion = _companion(tmp_path)
    stats = Demo(companion, seed=5, turn_s=0, attract_s=0, vision=False, max_games=2).run()
    assert stats.games == 2 and stats.turns > 0 and stats.errors == 0, stats.messages
    client = companion.app.test_client()
    state = client.get("/api/state").get_json()
    assert state["position"]["players"] == ["A", "B"]
    assert companion.hub.state["leds"], "the simulated LEDs are mirrored to the page"
    companion.close()


@pytest.mark.slow
def test_demo_through_rendered_frames_reader_and_tracker(tmp_path):
    """A short game whose every move is drawn, read back by the camera path and tracked."""
    companion = _companion(tmp_path)
    stats = Demo(companion, seed=8, turn_s=0, attract_s=0, vision=True, max_games=1, max_turns=8, fps=None).run()
    assert stats.errors == 0, stats.messages
    assert stats.turns == 8 and stats.frames > 50
    # the turn limit ends the game; the next one is dealt on the same tiles
    assert companion.table.game.phase == "setup"
    companion.close()


def test_the_undo_button_takes_back_the_last_turn(tmp_path):
    companion = _companion(tmp_path)
    companion.table.new_game([{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}], seed=2)
    place_all(companion.table)
    companion.table.play(PASS_A)
    companion.handle_button("undo")
    assert companion.table.game.turns_played() == 0
    companion.handle_button("new_game")
    assert companion.table.game.phase == "setup"
    companion.close()


def test_the_done_button_passes_for_the_player_to_move(tmp_path):
    companion = _companion(tmp_path)
    companion.table.new_game(seed=2)
    place_all(companion.table)
    assert companion.handle_button("done") is True
    assert companion.table.game.entries()[-1]["action"] == {"type": "pass", "hunter": "A"}
    companion.close()


def test_with_a_camera_the_done_button_passes_only_when_the_board_agrees(tmp_path):
    from tests.vision.boards import board, layout

    companion = _companion(tmp_path, camera={"calibration": str(tmp_path / "none.json")})
    camera = companion.camera_loop("unused", threading.Event())  # fed by hand, not started
    tracker = camera.tracker
    tracker.observe(board(tiles=layout()))
    tracker.observe(board({"c0": "-3,0"}))
    tracker.observe(board({"c0": "-3,0", "c1": "3,0"}))
    tracker.observe(board({"c0": "-3,0", "c1": "3,0"}, mammoth="1,0"))  # the mammoth was knocked
    assert companion.handle_button("done") is False, "refused, and the presser is told so"
    assert companion.table.game.turns_played() == 0, "refused: the board shows a change"
    tracker.observe(board({"c0": "-3,0", "c1": "3,0"}))  # put back
    assert companion.handle_button("done") is True
    assert companion.table.game.entries()[-1]["action"]["type"] == "pass"
    companion.close()


def test_gpio_buttons_drive_the_game_through_gpiozero_mock_pins(tmp_path):
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from maamut.serve import ButtonLoop

    Device.pin_factory = MockFactory()
    companion = _companion(tmp_path, buttons={"pin_factory": "mock"})
    assert companion.buttons is not None
    companion.table.new_game([{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}], seed=2)
    place_all(companion.table)
    companion.table.play(PASS_A)
    stop = threading.Event()
    loop = ButtonLoop.start(companion, None, stop)
    pin = Device.pin_factory.pin(companion.cfg.buttons["undo_pin"])
    pin.drive_low()
    import time
    time.sleep(0.15)
    pin.drive_high()
    deadline = time.monotonic() + 5
    while companion.table.game.turns_played() and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    loop.join(timeout=5)
    assert companion.table.game.turns_played() == 0
    companion.close()


def test_maamut_demo_command_runs_and_reports(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "maamut.cli", "demo", "--games", "1", "--no-vision",
                           "--turn-seconds", "0", "--attract-seconds", "0", "--port", "0"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 games" in proc.stdout and "0 errors" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_maamut_config_prints_a_file_that_parses():
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-m", "maamut.cli", "config"], capture_output=True, text=True,
                         env=env, timeout=60).stdout
    assert parse_config(out).web["port"] == 8080
    assert json.dumps(parse_config(out).game["variants"]) == "{}"


def test_the_mammut_mode_is_on_the_same_page_and_needs_the_referee_to_change_its_game(tmp_path):
    companion = _companion(tmp_path, web={"pin": "112233"})
    client = companion.app.test_client()
    assert client.get("/mammut/").status_code == 200
    assert b'href="/mammut/"' in client.get("/").data, "the Mâamut page's menu leads to it"
    new = {"players": ["Ann", "Bob", "Cy"], "seed": 3}
    refused = client.post("/mammut/api/new", json=new, headers={"X-Mammut": "1"})
    assert refused.status_code == 401
    started = client.post("/mammut/api/new", json=new, headers={"X-Mammut": "1", "X-Referee-PIN": "112233"})
    assert started.status_code == 200, started.get_json()
    assert os.path.exists(tmp_path / "var" / "mammut-game.jsonl"), "its journal sits beside Mâamut's"
    companion.close()


def test_the_demo_resumes_the_game_in_progress_for_real(tmp_path):
    companion = _companion(tmp_path)
    companion.table.new_game(seed=6)
    place_all(companion.table)
    for _ in range(3):
        companion.table.play(companion.table.game.legal_actions()[0])
    played = companion.table.game.record_lines()
    companion.close()
    companion = _companion(tmp_path)  # the stand restarts
    assert companion.table.game.record_lines() == played
    stats = Demo(companion, seed=5, turn_s=0, attract_s=0, vision=False, max_games=1).run()
    assert stats.games == 1 and stats.errors == 0, stats.messages
    game = companion.table.game
    assert game.is_over or game.turns_played() >= 120, "the resumed game was played to its end"
    assert game.record_lines()[:len(played)] == played and game.turns_played() > 3
    companion.close()


def test_the_factory_builds_the_whole_page_and_nothing_changes_its_settings_afterwards(tmp_path):
    """Mammut's blueprint comes in through ``create_app`` with its referee guard; the live
    parts are in ``app.extensions`` and the settings hold only declared keys."""
    from flask import Flask

    from companion_web.config import declared_keys

    companion = _companion(tmp_path, web={"pin": "112233"})
    app = companion.app
    assert set(app.config) <= declared_keys() | set(Flask.default_config)
    assert app.extensions["maamut_game"].session is companion.table
    assert app.extensions["maamut_hub"] is companion.hub
    assert app.extensions["maamut_camera_relearn"] == companion.request_relearn
    client = app.test_client()
    new = {"players": ["Ann", "Bob"], "seed": 3}
    wrong = client.post("/mammut/api/new", json=new, headers={"X-Mammut": "1", "X-Referee-PIN": "000000"})
    assert wrong.status_code == 401 and wrong.get_json()["error"]["code"] == "referee_only"
    no_header = client.post("/mammut/api/new", json=new, headers={"X-Referee-PIN": "112233"})
    assert no_header.status_code == 403, "the referee passes, then Mammut's own guard wants X-Mammut"
    with client.session_transaction() as browser:
        browser["referee"] = True  # a referee login on this browser
    assert client.post("/mammut/api/new", json=new, headers={"X-Mammut": "1"}).status_code == 200
    assert client.get("/mammut/api/state").status_code == 200
    companion.close()


def test_a_camera_frame_reaches_the_page_as_a_small_jpeg_with_the_cell_confidences(tmp_path):
    """The camera loop hands the companion a full frame; the page gets it 640 px wide
    (``vision.preview``) with the reader's confidence per cell."""
    import cv2
    import numpy as np

    class Seen:
        cell_confidence = (0.5,) * 37

    companion = _companion(tmp_path)
    companion.show_camera(np.full((960, 1280, 3), 120, np.uint8), Seen())
    number, jpeg, content_type = companion.hub.frame()
    picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert number == 1 and content_type == "image/jpeg" and picture.shape[:2] == (480, 640)
    assert companion.hub.state["camera"]["confidence"]["0,0"] == 0.5
    companion.close()

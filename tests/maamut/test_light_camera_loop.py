"""``maamut serve``'s camera loop when the light changes under a game in progress:
frames rendered by the sim renderer go through ``CameraLoop.step`` (the path every
live frame takes), the table's session journals the game, the page is told."""

import json
import threading
import urllib.request

import numpy as np
import pytest

from maamut.app import Companion
from maamut.config import Config

from sim.tracker_bench import render_frames, script_game
from vision.calibration import Calibration

SEED = 12
PIN = "424242"
DAYLIGHT = {"ambient": (80, 70, 50)}


def _companion(tmp_path, players):
    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = [{"id": p, "name": p} for p in players]
    cfg.camera["source"] = "none"
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    cfg.web["pin"] = PIN
    return Companion(cfg)


def _journal_lines(tmp_path):
    return (tmp_path / "var" / "current-game.jsonl").read_text(encoding="utf-8").splitlines()


def _feed(script, loop, on_light=None):
    k = len(script.steps) // 2
    previous, previous_index, repeats = None, None, 0
    for t, frame, index in render_frames(script, SEED, hold=8, relight={k: DAYLIGHT}):
        if frame is None:
            loop.press_pass()
            continue
        same = previous is not None and np.array_equal(previous, frame)
        if on_light is not None and index == previous_index == k - 1 and repeats >= 3 and not same:
            on_light(t)
            on_light = None
        repeats = repeats + 1 if same else 0
        previous, previous_index = frame, index
        loop.step(t, frame)


@pytest.fixture(scope="module")
def script():
    return script_game(SEED, n_players=2, max_turns=8)


@pytest.mark.slow
def test_a_lamp_change_is_relearnt_automatically_and_the_journal_keeps_the_game(tmp_path, script):
    """The game goes on to its end in the same journal; the re-learnt colours are saved
    (same labels and tiles); no light entry reaches the journal; the page is told."""
    companion = _companion(tmp_path, script.players)
    loop = companion.camera_loop("none", threading.Event(), required=3)
    path = tmp_path / "var" / "calibration.json"
    kept = {}
    _feed(script, loop, on_light=lambda t: kept.update(lines=_journal_lines(tmp_path),
                                                     calibration=json.loads(path.read_text())))
    game = companion.table.game
    assert game.turns_played() == len(script.truth)
    assert game.position.with_(hands=None) == script.truth[-1]
    lines = _journal_lines(tmp_path)
    assert lines[:len(kept["lines"])] == kept["lines"], "the journal before the change is untouched"
    assert not any("light" in line for line in lines)
    saved = Calibration.load(path)
    assert saved.tiles == tuple(kept["calibration"]["tiles"])
    assert list(saved.hunters) == list(kept["calibration"]["hunters"])
    assert saved.to_json() != kept["calibration"], "the re-learnt colours were saved"
    light = companion.hub.state["camera"]["light"]
    assert light["relearn"]["by"] == "auto" and light["relearn"]["state"] == "done"
    companion.close()


def test_the_referees_button_relearns_over_http_and_tracking_goes_on(tmp_path, script):
    """With the automatic re-learn off, the referee's POST (PIN) re-learns the light on
    the next still board; the game is tracked to its end."""
    companion = _companion(tmp_path, script.players)
    server = companion.start_web(host="127.0.0.1", port=0)
    url = f"http://127.0.0.1:{int(server.server.effective_port)}"
    loop = companion.camera_loop("none", threading.Event(), required=3)
    loop.run_.light.auto = False
    answers = []

    def referee_presses(t):
        request = urllib.request.Request(url + "/api/camera/relearn", data=b"{}", method="POST",
                                         headers={"X-Referee-PIN": PIN, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            answers.append((response.status, json.loads(response.read())))
    _feed(script, loop, on_light=referee_presses)
    assert answers == [(202, {"ok": True, "relearn": "waiting"})]
    game = companion.table.game
    assert game.turns_played() == len(script.truth)
    assert game.position.with_(hands=None) == script.truth[-1]
    relearn = companion.hub.state["camera"]["light"]["relearn"]
    assert relearn["by"] == "button" and relearn["state"] == "done"
    companion.close()

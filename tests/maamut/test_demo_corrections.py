"""``maamut demo`` keeps playing through its camera loop while a referee takes turns back
and enters moves on the page over HTTP, as outside checks do; the loop is never reopened."""

import json
import threading
import time
import urllib.error
import urllib.request

import pytest

import engine
from maamut.app import Companion
from maamut.config import Config
from sim.demo import Demo

PIN = "424242"


def call(url: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url + path, data=json.dumps(body or {}).encode(), method="POST",
                                     headers={"X-Referee-PIN": PIN, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def wait_for(condition, timeout: float = 180.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def quiet_move(game) -> tuple | None:
    """A legal turn of the player to move that leaves the mammoth where it is."""
    for action, choices, outcome in engine.successors(game.position, game.variants):
        if isinstance(action, engine.Move) and outcome.position.mammoth == game.position.mammoth:
            return action, choices
    return None


@pytest.mark.slow
def test_the_demo_follows_referee_undos_and_page_moves_without_reopening_the_camera(tmp_path):
    cfg = Config(base_dir=str(tmp_path))
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    cfg.web["pin"] = PIN
    companion = Companion(cfg)
    server = companion.start_web(host="127.0.0.1", port=0)
    url = f"http://127.0.0.1:{int(server.server.effective_port)}"
    camera_turns = []
    companion.table.subscribe(lambda change, snapshot: camera_turns.append(change.kind)
                              if change.source == "camera" and change.kind == "played" else None)
    demo = Demo(companion, seed=11, turn_s=0.2, attract_s=0, vision=True, fps=None, max_turns=400)
    worker = threading.Thread(target=demo.run, daemon=True)
    worker.start()
    try:
        assert wait_for(lambda: len(camera_turns) >= 3), demo.stats.messages
        loop = companion.camera
        for _ in range(2):  # the referee takes a turn back, twice
            status, body = call(url, "/api/game/undo")
            assert status == 200 and body["undone"], body
            seen = len(camera_turns)
            assert wait_for(lambda: len(camera_turns) >= seen + 2), demo.stats.messages
        for _ in range(2):  # the referee enters a move on the page; the players move the pawn
            for attempt in range(50):
                turn = quiet_move(companion.table.game)
                status, body = call(url, "/api/game/play", {"action": engine.action_to_json(turn[0]),
                                                            "choices": engine.choices_to_json(turn[1])})
                if status == 200:
                    break
                time.sleep(0.1)  # the turn moved on meanwhile: try the new one
            assert status == 200, body
            seen = len(camera_turns)
            assert wait_for(lambda: len(camera_turns) >= seen + 2), demo.stats.messages
        assert companion.camera is loop and loop.is_alive() and loop.reopened == 0
        assert demo.stats.corrections >= 1, "the players put pieces right after the page's changes"
        assert demo.stats.errors == 0, demo.stats.messages
    finally:
        demo.stop.set()
        worker.join(timeout=30)
        companion.close()

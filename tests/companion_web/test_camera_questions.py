"""The camera's questions on the referee's side: ``/api/camera/questions`` (PIN, 400s
naming the field, stale and refused answers) through Flask's client, and the referee
page showing the question with the cell's crop, answered by a tap, in Debian's chromium.

The companion is the real one (``maamut.app.Companion``) with its camera loop; the
camera's readings are given as observations (an unsure trap cell), as the reader
would produce them, so the question is exactly the one the tests need.
"""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest

from engine.hexgrid import parse_cell
from maamut.app import Companion
from maamut.config import Config
from vision.questions import Contents, cell_crop_jpeg
from tests.vision.boards import board, layout
from web_fixtures import BROWSER_TESTS, log_in, PIN, expect, shot

PLAYERS = [{"id": "A", "name": "Ann", "colour": "#e0c020"}, {"id": "B", "name": "Bob", "colour": "#2050e0"}]
#: A puts a trap under his hunter on -2,0; the camera takes it, unsurely, for Bob's.
TRAP_READ_AS_BOBS = replace(board({"red": "-2,0", "blue": "2,0"}, traps={"-2,0": "blue"}),
                            unsure_cells=(parse_cell("-2,0"),))


def _companion(tmp_path):
    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = PLAYERS
    cfg.camera["source"] = "none"
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    cfg.web["pin"] = PIN
    return Companion(cfg)


class Table:
    """A companion whose camera loop has followed A's and B's first moves; A to move."""

    def __init__(self, tmp_path):
        self.companion = _companion(tmp_path)
        self.loop = self.companion.camera_loop("none", threading.Event(), required=3)
        self.tracker = self.loop.tracker
        self.time = 0.0
        self.tracker.observe(board(tiles=layout()))
        self.tracker.observe(board({"red": "-3,0"}))
        self.tracker.observe(board({"red": "-3,0", "blue": "3,0"}))
        self.settle(board({"red": "-2,0", "blue": "3,0"}))
        self.settle(board({"red": "-2,0", "blue": "2,0"}))
        assert len(self.tracker.actions) == 2

    def settle(self, observation):
        with self.loop._tracker_lock:
            for _ in range(4):
                self.time += 0.1
                self.tracker.feed(replace(observation, timestamp=self.time))
            question = self.tracker.question
            if question is not None and question.crop is None:
                # The camera's crop of the cell (TrackRun cuts it from the frame that settled it).
                frame = np.full((480, 640, 3), (40, 160, 60), np.uint8)
                question.crop = cell_crop_jpeg(frame, np.array([[20.0, 0, 320], [0, 20.0, 240], [0, 0, 1]]),
                                               question.cell)
            self.loop.show_question()

    def ask(self):
        self.settle(TRAP_READ_AS_BOBS)
        question = self.tracker.question
        assert question is not None
        return question


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path)
    yield table
    table.companion.close()


def test_the_question_reaches_the_live_state_with_player_ids_and_a_crop(table):
    question = table.ask()
    shown = table.companion.hub.state["camera_question"]
    assert shown["cell"] == "-2,0" and shown["crop"] is True
    assert shown["seen"] == {"mammoth": False, "hunters": ["A"], "trap": "B"}
    _, payload = table.companion.hub.latest()
    assert b'"camera_question": {"id": %d' % question.id in payload


def test_the_routes_need_the_referee_pin(table):
    question = table.ask()
    client = table.companion.app.test_client()
    assert client.get("/api/camera/questions").status_code == 401
    assert client.get(f"/api/camera/questions/{question.id}/crop.jpg").status_code == 401
    assert client.post(f"/api/camera/questions/{question.id}/answer", json={"answer": 1}).status_code == 401
    wrong = client.post(f"/api/camera/questions/{question.id}/answer", json={"answer": 1},
                        headers={"X-Referee-PIN": "000000"})
    assert wrong.status_code == 403 and len(table.tracker.actions) == 2


@pytest.mark.parametrize("body, field", [
    (b"{", "request"), (b"[1]", "request"), (b'{"answer": "1"}', "answer"), (b'{"answer": true}', "answer"),
    (b'{"answer": -1}', "answer"), (b'{}', "answer"), (b'{"answer": 1e400}', "answer"),
])
def test_a_bad_body_is_a_400_naming_the_field(table, body, field):
    question = table.ask()
    client = table.companion.app.test_client()
    answer = client.post(f"/api/camera/questions/{question.id}/answer", data=body,
                         headers={"X-Referee-PIN": PIN, "Content-Type": "application/json"})
    assert answer.status_code == 400 and answer.get_json()["error"]["field"] == field
    assert len(table.tracker.actions) == 2 and table.tracker.question is question


def test_the_referee_reads_the_question_and_its_crop_then_answers_it(table):
    question = table.ask()
    client = table.companion.app.test_client()
    referee = {"X-Referee-PIN": PIN}
    listed = client.get("/api/camera/questions", headers=referee).get_json()["question"]
    assert listed["id"] == question.id and {"mammoth": False, "hunters": ["A"], "trap": "A"} in listed["options"]
    crop = client.get(f"/api/camera/questions/{question.id}/crop.jpg", headers=referee)
    assert crop.status_code == 200 and crop.mimetype == "image/jpeg" and crop.data[:2] == b"\xff\xd8"
    refused = client.post(f"/api/camera/questions/{question.id}/answer", json={"answer": 0}, headers=referee)
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "answer_refused"
    index = question.options.index(Contents(hunters=("A",), trap="A"))
    answered = client.post(f"/api/camera/questions/{question.id}/answer", json={"answer": index}, headers=referee)
    assert answered.status_code == 200, answered.get_json()
    assert [e["action"] for e in answered.get_json()["committed"]] == [{"type": "place_trap", "hunter": "A"}]
    assert table.companion.table.game.entries()[-1]["action"] == {"type": "place_trap", "hunter": "A"}
    assert table.companion.hub.state["camera_question"] is None
    again = client.post(f"/api/camera/questions/{question.id}/answer", json={"answer": index}, headers=referee)
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "stale_question"
    assert client.get(f"/api/camera/questions/{question.id}/crop.jpg", headers=referee).status_code == 404


def test_without_a_camera_the_answer_says_so(client):
    answer = client.post("/api/camera/questions/1/answer", json={"answer": 0}, headers={"X-Referee-PIN": PIN})
    assert answer.status_code == 409 and answer.get_json()["error"]["code"] == "no_camera"
    assert client.get("/api/camera/questions", headers={"X-Referee-PIN": PIN}).get_json() == {"question": None}


@BROWSER_TESTS[0]
@BROWSER_TESTS[1]
def test_the_referee_page_asks_with_the_crop_and_a_tap_answers(browser, table):
    """The question is worded with the players' names in English and French, shows the
    cell's crop, and a tap on "It's Ann's hunter and Ann's trap" commits A's trap."""
    from companion_web.serve import BackgroundServer

    server = BackgroundServer(table.companion.app, threads=16).start()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        log_in(page, server.url + "/referee")
        page.wait_for_selector("#ref-board svg")
        page.evaluate("Maamut.setLang('en')")
        expect(page.locator("#camera-question")).to_be_hidden()
        question = table.ask()
        expect(page.locator("#camera-question-text")).to_have_text("Is that Ann's hunter and Bob's trap on -2,0?")
        crop = page.locator("#camera-question-crop")
        expect(crop).to_be_visible()
        # (Locator waits only: the page's CSP forbids the eval a polling wait_for_function uses.)
        expect(crop).to_have_js_property("naturalWidth", 160)
        answers = page.locator("#camera-question-answers button")
        expect(answers).to_have_count(len(question.options))
        expect(answers.nth(0)).to_have_text("Yes")
        page.evaluate("Maamut.setLang('fr')")
        expect(page.locator("#camera-question-text")).to_have_text(
            "Est-ce le chasseur de Ann et le piège de Bob sur -2,0 ?")
        expect(page.locator("#camera-question-title")).to_have_text("La caméra demande")
        page.evaluate("Maamut.setLang('en')")
        shot(page, "referee-camera-question")
        index = question.options.index(Contents(hunters=("A",), trap="A"))
        target = answers.nth(index)
        expect(target).to_have_text("It's Ann's hunter and Ann's trap")
        target.click()
        expect(page.locator("#camera-question")).to_be_hidden()
        assert table.companion.table.game.entries()[-1]["action"] == {"type": "place_trap", "hunter": "A"}
        assert errors == []
    finally:
        context.close()
        server.stop()


@BROWSER_TESTS[0]
@BROWSER_TESTS[1]
def test_a_question_asked_before_the_page_opens_shows_on_the_pages_one_stream(browser, table):
    """The referee page's board and its camera panel share one event stream (one
    connection a device), and a question already waiting when the page opens shows."""
    from companion_web.serve import BackgroundServer

    server = BackgroundServer(table.companion.app, threads=16).start()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    streams = []
    page.on("request", lambda request: streams.append(request.url) if request.url.endswith("/api/stream") else None)
    try:
        table.ask()
        log_in(page, server.url + "/referee")
        page.wait_for_selector("#ref-board svg")
        page.evaluate("Maamut.setLang('en')")
        expect(page.locator("#camera-question-text")).to_have_text("Is that Ann's hunter and Bob's trap on -2,0?")
        assert len(streams) == 1
    finally:
        context.close()
        server.stop()

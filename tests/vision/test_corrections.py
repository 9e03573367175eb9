"""Corrections at a camera table: the referee's undo, a move typed on the page, a new
game, a restart. The camera never dies of them: it marks where the board disagrees with
the table's game and follows again as soon as the board is put right."""

import os
import signal
import subprocess
import sys

import pytest

from companion_web import create_app
from session import Journal, TableSession
from vision.tracker import GameTracker

from .boards import board, layout

PIN = "135790"
REFEREE = {"X-Referee-PIN": PIN}
PLAYERS = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bob"}]
#: The driver runs as a module from the repository root, where ``tests`` is a package.
DRIVER = [sys.executable, "-m", "tests.vision.camera_crash_driver"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def table_and_page(tmp_path):
    """A journaled table, its page (Flask test client) and a camera tracker proposing to it,
    with A (red) on -3,0 and B (blue) on 3,0, A to move."""
    table = TableSession(Journal(str(tmp_path / "game.jsonl")), players=PLAYERS)
    client = create_app({"REFEREE_PIN": PIN}, session=table).test_client()
    tracker = GameTracker(tiles=layout(), table=table)
    tracker.observe(board({"c0": "-3,0"}))
    tracker.observe(board({"c0": "-3,0", "c1": "3,0"}))
    assert tracker.phase == "playing" and tracker.in_step
    yield table, client, tracker
    table.close()


def marked_cells(client) -> set:
    return {mark["cell"] for mark in client.get("/api/state").get_json()["illegal"]}


def test_after_the_referee_undoes_a_turn_the_camera_waits_for_the_board_then_follows(table_and_page):
    table, client, tracker = table_and_page
    tracker.observe(board({"c0": "-1,0", "c1": "3,0"}))  # the camera sees A walk E2
    assert table.game.turns_played() == 1
    assert client.post("/api/game/undo", headers=REFEREE).get_json()["undone"]
    for t in range(3):  # the board still shows the move: nothing is proposed, cells are marked
        tracker.observe(board({"c0": "-1,0", "c1": "3,0"}, t=t))
    assert table.game.turns_played() == 0 and not tracker.in_step
    assert marked_cells(client) == {"-3,0", "-1,0"}
    assert "put A's hunter back on -3,0" in tracker.reports[-1]["message"]
    tracker.observe(board({"c0": "-3,0", "c1": "3,0"}, t=4))  # put right
    assert tracker.in_step and marked_cells(client) == set()
    tracker.observe(board({"c0": "-2,0", "c1": "3,0"}, t=5))  # A plays again, E1 this time
    assert tracker.actions[-1]["action"] == {"type": "move", "hunter": "A", "direction": "E", "distance": 1}
    assert table.game.turns_played() == 1


def test_a_move_entered_on_the_page_is_followed_once_the_board_shows_it(table_and_page):
    table, client, tracker = table_and_page
    played = client.post("/api/game/play", json={"notation": "A:E1"}, headers=REFEREE)
    assert played.status_code == 200, played.get_json()
    tracker.observe(board({"c0": "-3,0", "c1": "3,0"}))  # the pawn was not moved yet
    assert marked_cells(client) == {"-3,0", "-2,0"} and table.game.turns_played() == 1
    tracker.observe(board({"c0": "-2,0", "c1": "3,0"}, t=1))
    assert tracker.in_step and marked_cells(client) == set()
    tracker.observe(board({"c0": "-2,0", "c1": "2,0"}, t=2))  # B's move, seen by the camera
    assert tracker.actions[-1]["action"] == {"type": "move", "hunter": "B", "direction": "W", "distance": 1}
    assert [a["time"] is None for a in tracker.actions] == [True, False]


def test_a_move_the_camera_could_not_read_is_entered_on_the_page_and_tracking_goes_on(table_and_page):
    table, client, tracker = table_and_page
    # A walks E1 but the hunter lies where the camera reads a different cell: reported.
    tracker.observe(board({"c0": "-2,1", "c1": "3,0"}))
    assert tracker.reports[-1]["type"] == "illegal_move" and table.game.turns_played() == 0
    assert client.post("/api/game/play", json={"notation": "A:E1"}, headers=REFEREE).status_code == 200
    tracker.observe(board({"c0": "-2,0", "c1": "3,0"}, t=1))  # the hunter set straight
    tracker.observe(board({"c0": "-2,0", "c1": "1,0"}, t=2))
    assert [a["action"]["hunter"] for a in tracker.actions] == ["A", "B"]


def test_a_new_game_started_on_the_page_is_followed_once_the_board_is_cleared(table_and_page):
    table, client, tracker = table_and_page
    tracker.observe(board({"c0": "-1,0", "c1": "3,0"}))
    started = client.post("/api/game/new", json={"players": PLAYERS}, headers=REFEREE)
    assert started.status_code == 200
    assert table.game.tiles == tuple(tracker.layout), "a new game keeps the tiles the camera knows"
    tracker.observe(board({"c0": "-1,0", "c1": "3,0"}, t=1))
    assert marked_cells(client) == {"-1,0", "3,0"} and tracker.placements == []
    tracker.observe(board({}, t=2))  # hunters taken off
    tracker.observe(board({"c0": "3,0"}, t=3))
    tracker.observe(board({"c0": "3,0", "c1": "-3,0"}, t=4))
    assert [(p["hunter"], p["cell"]) for p in tracker.placements] == [("A", "3,0"), ("B", "-3,0")]
    assert tracker.phase == "playing"


def test_a_restart_while_the_board_disagrees_loses_nothing_and_tracking_resumes(tmp_path):
    journal = str(tmp_path / "game.jsonl")
    proc = subprocess.Popen([*DRIVER, journal], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    committed = 0
    for line in proc.stdout:
        word = line.split()[0]
        if word == "COMMITTED":
            committed += 1
        if word == "DISAGREES":
            proc.send_signal(signal.SIGKILL)  # the power goes while the board disagrees
            break
    proc.wait(timeout=60)
    assert committed == 2
    table = TableSession.resume(Journal(journal), players=PLAYERS)
    assert table.game.turns_played() == 1, "the camera's move and the referee's undo both survive"
    tracker = GameTracker(table=table)
    tracker.observe(board({"c0": "-1,0", "c1": "2,0"}))  # the board still shows the undone move
    assert not tracker.in_step and table.game.turns_played() == 1
    assert {m["cell"] for m in table.marks()} == {"2,0", "3,0"}
    tracker.observe(board({"c0": "-1,0", "c1": "3,0"}, t=1))  # put right
    assert tracker.in_step and table.marks() == []
    tracker.observe(board({"c0": "-1,0", "c1": "1,0"}, t=2))  # B walks W2
    assert tracker.actions[-1]["action"] == {"type": "move", "hunter": "B", "direction": "W", "distance": 2}
    assert table.game.turns_played() == 2
    table.close()

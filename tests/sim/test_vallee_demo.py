"""``maamut demo --game vallee``: simulated players answer the table's La Vallée game at
their pace, through the table every device follows live; a new game is dealt when one
ends; the demo keeps its own journal."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

from maamut.app import Companion
from maamut.config import Config
from sim.vallee_demo import ValleeDemo, demo_setup
from vallee.live import ValleeTable

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _companion(tmp_path) -> Companion:
    cfg = Config(base_dir=str(tmp_path))
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    return Companion(cfg, vallee_journal="var/demo-vallee-game.jsonl")


def test_the_demo_plays_entries_through_the_live_table_and_every_page_follows(tmp_path):
    companion = _companion(tmp_path)
    hub = companion.app.extensions["vallee_hub"]
    seen = []
    companion.vallee.subscribe(lambda state: seen.append(state["etag"]))
    stats = ValleeDemo(companion.vallee, seed=11, step_s=0.001, attract_s=0, max_entries=25).run()
    assert stats.entries == 25 and stats.errors == 0 and stats.games == 1, stats.messages

    state = companion.app.test_client().get("/vallee/api/state").get_json()
    assert len(state["log"]) == 25, "every answer is kept in the table's history, in words"
    assert state["game"]["entries"] == 25 and state["game"]["players"] == ["red", "blue", "green"]
    assert state["game"]["pending"] is not None, "the game goes on: a question is asked"
    # the live stream published the new game and every answer (25 + the deal), each a new state
    assert len(seen) >= 26 and len(set(seen)) == len(seen)
    assert state["etag"].encode() in hub.latest()[1], "the stream's latest message is the state now"
    assert hub.latest()[0] >= 26
    companion.close()

    # the demo's journal is its own, and a restarted demo resumes its game where it was
    assert os.path.exists(tmp_path / "var" / "demo-vallee-game.jsonl")
    assert not os.path.exists(tmp_path / "var" / "vallee-game.jsonl"), "a table's own game is never touched"
    resumed = ValleeTable(tmp_path / "var" / "demo-vallee-game.jsonl")
    assert len(resumed.game.entries) == 25 and resumed.etag == state["etag"]


def test_a_game_played_to_its_end_is_followed_by_a_new_one(tmp_path):
    table = ValleeTable(tmp_path / "demo.jsonl")
    demo = ValleeDemo(table, seed=4, step_s=0, attract_s=0, max_games=1)
    stats = demo.run()
    assert stats.finished == 1 and stats.errors == 0, stats.messages
    assert table.game.over or table.game.turn > demo.max_turns
    # the next run deals again at once: the finished game is not played on
    more = ValleeDemo(table, seed=5, step_s=0, attract_s=0, max_entries=3).run()
    assert more.games == 1 and more.entries == 3 and len(table.game.entries) == 3


def test_the_demo_stops_at_once_when_told(tmp_path):
    table = ValleeTable(tmp_path / "demo.jsonl")
    stop = threading.Event()
    demo = ValleeDemo(table, seed=1, step_s=30, attract_s=30, stop=stop)
    runner = threading.Thread(target=demo.run)
    runner.start()
    stop.set()
    runner.join(timeout=5)
    assert not runner.is_alive(), "a human pace never keeps the demo from stopping"
    assert demo.stats.entries == 0 and table.game is not None and table.game.setup["json"]["map"] == "sample"


def test_the_demo_answers_what_the_page_asks_after_a_referee_changed_the_game(tmp_path):
    """The referee may undo or enter an answer on the page mid-demo: the bots answer the
    question asked then, never one they saw before."""
    table = ValleeTable(tmp_path / "demo.jsonl")
    table.start(demo_setup(9))
    demo = ValleeDemo(table, seed=2, step_s=0, attract_s=0, max_entries=5)
    demo.run()
    table.undo()
    table.undo()
    demo.max_entries = 10
    stats = demo.run()
    assert stats.entries == 10 and stats.errors == 0 and len(table.game.entries) == 8


def test_maamut_demo_game_vallee_runs_a_game_and_reports(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "maamut.cli", "demo", "--game", "vallee", "--games", "1",
                           "--step-seconds", "0", "--attract-seconds", "0", "--seed", "3", "--port", "0"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "/vallee/" in proc.stdout and "1 games" in proc.stdout and "0 errors" in proc.stdout
    assert "Traceback" not in out
    assert (tmp_path / "var" / "demo-vallee-game.jsonl").exists()


def test_maamut_demo_refuses_an_unknown_game(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "maamut.cli", "demo", "--game", "chess"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 2 and "--game" in proc.stderr and "vallee" in proc.stderr

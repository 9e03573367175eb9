"""``maamut replay`` says the players' names when the record has them (issue 22): what
people read uses names; the final position's notation keeps the ids."""

from __future__ import annotations

import subprocess
import sys

import engine
from session import TableSession


def _record(tmp_path, players):
    table = TableSession(deal=True)
    table.new_game(players, seed=10)
    table.place_hunter("A", "0,-3")
    table.place_hunter("B", "1,-3")
    table.play(engine.Move("A", "E", 1), ())
    path = tmp_path / "game.jsonl"
    path.write_text(table.record_text(), encoding="utf-8")
    return path


def _replay(path, *args) -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "maamut.cli", "replay", *args, str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_replay_names_the_players_in_both_languages_and_the_notation_keeps_the_ids(tmp_path):
    path = _record(tmp_path, [{"id": "A", "name": "Yellow"}, {"id": "B", "name": "Blue"}])
    lines = _replay(path)
    assert lines[0] == "Yellow places the hunter on 0,-3." and lines[2].startswith("Yellow moves 1 E")
    assert "A@1,-3" in lines[-1] and "Yellow" not in lines[-1]
    assert _replay(path, "--lang", "fr")[2].startswith("Yellow avance de 1")


def test_replay_without_names_says_the_ids(tmp_path):
    path = _record(tmp_path, [{"id": "A"}, {"id": "B"}])
    assert _replay(path)[0] == "A places the hunter on 0,-3."

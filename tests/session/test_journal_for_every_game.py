"""Every game's table keeps every confirmed action in the one journal (``rulekit.journal``).

Each test runs for Mâamut's :class:`session.TableSession` and for the Mammut page's
``MammutSession``: a power cut anywhere, damage inside the file, and a write that fails never
lose a confirmed action nor apply one that was not written.
"""

from __future__ import annotations

import copy
import errno
import os
import random

import pytest

import engine
from ostby_mammut.game import random_action
from ostby_mammut.web import MammutSession
from session import CommandError, Journal, JournalError, TableSession

PLAYERS = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}]


class Maamut:
    """Mâamut's table: two hunters placed (2 lines after the header), then passes."""

    refusal = CommandError

    def __init__(self, path):
        self.path = str(path)

    def start(self):
        table = TableSession(Journal(self.path))
        table.new_game(PLAYERS, seed=4)
        for player in ("A", "B"):
            table.place_hunter(player, table.game.start_cells()[0])
        return table

    def open(self):
        return TableSession.resume(Journal(self.path))

    def act(self, table):
        table.play(engine.Pass(table.game.position.to_move))

    def actions(self, table) -> int:
        return table.game.turns_played()

    def state(self, table):
        return table.game.record_lines()

    def notice(self, table):
        return table.resumed.notice()

    def damaged_copy(self, table):
        return table.resumed.damaged_copy

    def unstorable_new_game(self, table):
        table.new_game([{"id": "A", "name": "Ann\ud800"}, {"id": "B"}], seed=5)

    def close(self, table):
        table.close()


class Mammut:
    """The Mammut page's table, a simulated game (every action decided by a seeded bot)."""

    refusal = JournalError

    def __init__(self, path):
        self.path = str(path)

    def start(self):
        table = MammutSession(self.path)
        table.new_game({"players": ["A", "B", "C"], "mode": "sim", "seed": 7})
        return table

    def open(self):
        return MammutSession(self.path)

    def act(self, table):
        table.play(random_action(table.game, random.Random(len(table.game.actions))))

    def actions(self, table) -> int:
        return len(table.game.actions)

    def state(self, table):
        return copy.deepcopy((table.game.actions, table.game.points, table.game.sharing))

    def notice(self, table):
        return table.resumed.notice()

    def damaged_copy(self, table):
        return table.resumed.damaged_copy

    def unstorable_new_game(self, table):
        table.new_game({"players": ["A\ud800", "B", "C"], "mode": "sim", "seed": 8})

    def close(self, table):
        table.journal.close()


@pytest.fixture(params=[Maamut, Mammut], ids=["maamut", "mammut"])
def game(request, tmp_path):
    return request.param(tmp_path / "game.jsonl")


def played(game, actions: int):
    table = game.start()
    for _ in range(actions):
        game.act(table)
    game.close(table)
    return table


def file_bytes(game) -> bytes:
    with open(game.path, "rb") as fh:
        return fh.read()


def write_bytes(game, data: bytes) -> None:
    with open(game.path, "wb") as fh:
        fh.write(data)


def test_a_last_line_that_lost_its_newline_keeps_every_action_through_act_restart_act_restart(game):
    played(game, 3)
    data = file_bytes(game)
    assert data.endswith(b"\n")
    write_bytes(game, data[:-1])  # the power went off just before the newline byte
    table = game.open()
    assert game.actions(table) == 3 and game.notice(table) is None
    game.act(table)  # confirmed: the page shows it
    game.close(table)
    table = game.open()
    assert game.actions(table) == 4 and game.notice(table) is None
    game.act(table)
    game.close(table)
    table = game.open()
    assert game.actions(table) == 5 and game.notice(table) is None


def test_a_torn_last_line_was_never_confirmed_and_is_cut_off(game):
    played(game, 3)
    whole = file_bytes(game)
    write_bytes(game, whole + b'{"type": "action", "action": {"type": "ta')
    table = game.open()
    assert game.actions(table) == 3 and game.notice(table) is None
    assert file_bytes(game) == whole, "the torn line is gone, the file ends with a newline"
    game.act(table)
    game.close(table)
    assert game.actions(game.open()) == 4


@pytest.mark.parametrize("damage", [b"this is not a record", b'{"undo": tr\xff\xfeue}'],
                         ids=["garbage", "invalid_utf8"])
def test_damage_in_the_middle_keeps_the_valid_beginning_and_says_what_was_set_aside(game, damage):
    played(game, 4)
    lines = file_bytes(game).split(b"\n")
    lines[-3] = damage  # the third action of four is damaged; one follows it
    original = b"\n".join(lines)
    write_bytes(game, original)
    table = game.open()
    assert game.actions(table) == 2, "the actions before the damage are resumed"
    notice = game.notice(table)
    line = len(lines) - 2
    assert f"line {line}" in notice["en"] and f"line {line}" in notice["fr"]
    assert "2 line(s)" in notice["en"] and game.damaged_copy(table) in notice["en"]
    assert "-damaged-" in os.path.basename(game.damaged_copy(table))
    with open(game.damaged_copy(table), "rb") as fh:
        assert fh.read() == original, "the untouched file is kept, every action in it"
    game.act(table)  # the table goes on after its valid beginning
    game.close(table)
    again = game.open()
    assert game.actions(again) == 3 and game.notice(again) is None


def test_a_file_that_starts_no_game_is_set_aside_and_the_table_starts_empty(game):
    write_bytes(game, b"\x00\x00garbage\n{}\n")
    table = game.open()
    assert table.game is None
    assert "nothing could be resumed" in game.notice(table)["en"]
    assert not os.path.exists(game.path) and os.path.exists(game.damaged_copy(table))


def failing_write(*args):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_write_that_fails_applies_nothing_and_later_writes_work(game, monkeypatch):
    table = game.start()
    game.act(table)
    before, on_disk = game.state(table), file_bytes(game)
    monkeypatch.setattr(os, "write", failing_write)
    with pytest.raises(game.refusal) as refused:
        game.act(table)
    monkeypatch.undo()
    assert "No space left on device" in str(refused.value)
    assert game.state(table) == before and file_bytes(game) == on_disk
    game.act(table)
    game.close(table)
    assert game.actions(game.open()) == 2


def test_a_write_cut_half_way_is_taken_back_whole(game, monkeypatch):
    table = game.start()
    game.act(table)
    before, on_disk = game.state(table), file_bytes(game)
    real_write = os.write
    calls = []

    def half_then_full_disk(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[: len(data) // 2]))
        return failing_write()

    monkeypatch.setattr(os, "write", half_then_full_disk)
    with pytest.raises(game.refusal):
        game.act(table)
    monkeypatch.undo()
    assert file_bytes(game) == on_disk and game.state(table) == before
    game.act(table)
    game.close(table)
    assert game.actions(game.open()) == 2


def test_a_new_game_that_cannot_be_written_keeps_the_old_game_on_disk_and_in_memory(game, monkeypatch):
    table = game.start()
    game.act(table)
    before, on_disk = game.state(table), file_bytes(game)
    monkeypatch.setattr(os, "write", failing_write)
    with pytest.raises(game.refusal):
        table.new_game(*([PLAYERS] if isinstance(game, Maamut) else [{"players": ["X", "Y"], "mode": "sim"}]))
    monkeypatch.undo()
    assert game.state(table) == before and file_bytes(game) == on_disk
    assert sorted(os.listdir(os.path.dirname(game.path))) == ["game.jsonl"], "nothing half-written is left"
    game.close(table)
    assert game.actions(game.open()) == 1


def test_text_that_cannot_be_stored_is_refused_before_anything_changes(game):
    table = game.start()
    game.act(table)
    before, on_disk = game.state(table), file_bytes(game)
    with pytest.raises(game.refusal) as refused:
        game.unstorable_new_game(table)
    error = refused.value
    if isinstance(error, CommandError):
        assert error.code == "bad_request" and error.field == "players"
    else:
        assert error.unwritable
    assert game.state(table) == before and file_bytes(game) == on_disk
    game.act(table)
    game.close(table)
    assert game.actions(game.open()) == 2


def test_a_mammut_action_that_json_cannot_hold_is_a_bad_request_and_changes_nothing(tmp_path):
    """An integer of 5,000 digits passed in memory (not through HTTP, whose reader refuses
    it): refused, not applied (the action's own parser names the unknown key before the
    journal line would fail to be written)."""
    from ostby_mammut.core import BadRequest

    game = Mammut(tmp_path / "game.jsonl")
    table = game.start()
    before, on_disk = game.state(table), file_bytes(game)
    action = random_action(table.game, random.Random(0))
    with pytest.raises(BadRequest) as refused:
        table.play({**action, "note": 10 ** 5000})
    assert refused.value.field.startswith("action")
    assert game.state(table) == before and file_bytes(game) == on_disk
    table.play(action)
    assert len(table.game.actions) == 1

"""The journal never loses an acknowledged turn, whatever the power cut or the damage."""

import json
import os
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.game import Game
from session import Journal, JournalError, TableSession

PLAYERS = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}]


def started(path) -> TableSession:
    """A journaled table with both hunters placed and two turns played."""
    table = TableSession(Journal(str(path)))
    table.new_game(PLAYERS, seed=4)
    for player in ("A", "B"):
        table.place_hunter(player, table.game.start_cells()[0])
    table.play(engine.Pass("A"))
    table.play(engine.Pass("B"))
    table.close()
    return table


def test_a_torn_last_line_is_ignored_and_cut_off(tmp_path):
    table = started(tmp_path / "g.jsonl")
    with open(table.journal.path, "a", encoding="utf-8") as fh:
        fh.write('{"action": {"type": "pa')  # the power went off in the middle of this write
    resumed = TableSession.resume(Journal(table.journal.path))
    assert resumed.game.position == table.game.position and resumed.resumed.problem is None
    assert open(table.journal.path, encoding="utf-8").read().endswith("}\n")


def test_a_last_line_that_lost_only_its_newline_is_kept_and_the_next_turn_goes_on_a_new_line(tmp_path):
    table = started(tmp_path / "g.jsonl")
    with open(table.journal.path, "rb+") as fh:
        fh.seek(-1, os.SEEK_END)
        fh.truncate()  # the power went off just before the newline byte
    resumed = TableSession.resume(Journal(table.journal.path))
    assert resumed.game.turns_played() == 2
    resumed.play(engine.Pass("A"))  # acknowledged: shown on the page
    resumed.close()
    again = TableSession.resume(Journal(table.journal.path))
    assert again.game.turns_played() == 3, "both acknowledged turns survive the next restart"
    assert again.resumed.problem is None


def test_damage_before_the_end_keeps_the_valid_beginning_and_a_named_copy_of_the_file(tmp_path):
    table = started(tmp_path / "g.jsonl")
    lines = open(table.journal.path, encoding="utf-8").read().splitlines()
    lines[3] = '{"action": "garbage"}'  # the first pass is damaged; the second one follows it
    original = "\n".join(lines) + "\n"
    with open(table.journal.path, "w", encoding="utf-8") as fh:
        fh.write(original)
    resumed = TableSession.resume(Journal(table.journal.path))
    assert resumed.game.phase == "play" and resumed.game.turns_played() == 0
    loaded = resumed.resumed
    assert loaded.problem.startswith("line 4") and loaded.dropped_lines == 2
    assert "-damaged-" in os.path.basename(loaded.damaged_copy)
    assert open(loaded.damaged_copy, encoding="utf-8").read() == original
    assert len(Journal(table.journal.path).lines()) == 3  # the valid prefix, ready for new turns


def test_a_journal_with_invalid_utf8_resumes_its_valid_prefix(tmp_path):
    table = started(tmp_path / "g.jsonl")
    with open(table.journal.path, "ab") as fh:
        fh.write(b'{"undo": tr\xff\xfeue}\n{"undo": true}\n')
    resumed = TableSession.resume(Journal(table.journal.path))
    assert resumed.game.turns_played() == 2 and resumed.resumed.dropped_lines == 2


def test_an_unreadable_journal_is_set_aside_as_damaged_not_lost(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text("this is not a game record\n")
    table = TableSession.resume(Journal(str(path)))
    assert table.game is None
    kept = [name for name in os.listdir(tmp_path) if name != "g.jsonl"]
    assert len(kept) == 1 and "-damaged-" in kept[0]


def test_every_change_is_on_disk_before_any_subscriber_hears_of_it(tmp_path):
    journal = Journal(str(tmp_path / "g.jsonl"))
    table = TableSession(journal)
    seen = []
    table.subscribe(lambda change, snapshot: seen.append(
        len(journal.lines()) == table.game.record_length()))
    table.new_game(PLAYERS, seed=3)
    for player in ("A", "B"):
        table.place_hunter(player, table.game.start_cells()[0])
    table.play(engine.Pass("A"))
    table.undo()
    assert len(seen) == 5 and all(seen)
    assert TableSession.resume(Journal(journal.path)).game.position == table.game.position


def test_display_names_typed_at_setup_survive_a_restart(tmp_path):
    table = started(tmp_path / "g.jsonl")
    resumed = TableSession.resume(Journal(table.journal.path))
    assert resumed.players_info()["A"]["name"] == "Ann" and resumed.players_info()["B"]["name"] == "Bo"


def test_a_new_game_sets_the_previous_journal_aside(tmp_path):
    table = TableSession(Journal(str(tmp_path / "g.jsonl")))
    table.new_game(PLAYERS, seed=1)
    table.new_game(PLAYERS, seed=2)
    files = sorted(os.listdir(tmp_path))
    assert len(files) == 2 and "g.jsonl" in files and not any("damaged" in f for f in files)


def test_replaying_the_record_gives_the_same_game(tmp_path):
    table = started(tmp_path / "g.jsonl")
    assert Game.replay(Journal(table.journal.path).lines()).position == table.game.position


# The journal itself, with a toy game whose records add numbers: what any game gets.
def add_numbers(lines):
    """A toy game's replay function (``rulekit.journal``'s contract)."""
    total = 0
    for kept, line in enumerate(lines):
        record = json.loads(line)
        if not isinstance(record, dict) or not isinstance(record.get("add"), int):
            return total, f"line {kept + 1}: no number to add", kept
        total += record["add"]
    return total, None, len(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(numbers=st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=8), cut=st.integers(0, 10**4))
def test_a_power_cut_at_any_byte_keeps_every_line_written_whole_and_sets_nothing_aside(tmp_path, numbers, cut):
    folder = tempfile.mkdtemp(dir=tmp_path)
    journal = Journal(os.path.join(folder, "toy.jsonl"))
    journal.begin([json.dumps({"add": numbers[0]})])
    for number in numbers[1:]:
        journal.append(json.dumps({"add": number}))
    data = open(journal.path, "rb").read()
    cut %= len(data) + 1
    with open(journal.path, "wb") as fh:
        fh.write(data[:cut])
    line_ends = [i for i, byte in enumerate(data) if byte == ord("\n")]
    complete = sum(1 for end in line_ends if end <= cut)  # lines whose text is all there
    loaded = Journal(journal.path).load(add_numbers)
    if complete == 0:
        assert loaded.game is None
        return
    assert loaded.game == sum(numbers[:complete]) and loaded.problem is None
    assert os.listdir(folder) == ["toy.jsonl"], "a power cut is not damage: nothing is set aside"


def test_a_replay_that_breaks_on_a_damaged_record_never_stops_the_table(tmp_path):
    def fragile(lines):
        return sum(json.loads(line)["add"] for line in lines), None, len(lines)  # KeyError on damage

    path = tmp_path / "toy.jsonl"
    path.write_text('{"add": 1}\n{"sub": 2}\n')
    loaded = Journal(str(path)).load(fragile)
    assert loaded.game is None and "nothing could be resumed" in loaded.notice()["en"]
    assert open(loaded.damaged_copy).read() == '{"add": 1}\n{"sub": 2}\n'


def test_a_new_game_keeps_the_previous_one_aside_untouched(tmp_path):
    journal = Journal(str(tmp_path / "toy.jsonl"))
    assert journal.begin(['{"add": 1}']) is None
    journal.append('{"add": 2}')
    kept = journal.begin(['{"add": 5}'])
    assert open(kept).read() == '{"add": 1}\n{"add": 2}\n'
    journal.append('{"add": 6}')
    assert Journal(journal.path).load(add_numbers).game == 11


def test_text_that_is_not_unicode_is_refused_and_nothing_is_written(tmp_path):
    journal = Journal(str(tmp_path / "toy.jsonl"))
    journal.begin(['{"add": 1}'])
    with pytest.raises(JournalError) as refused:
        journal.append('{"add": 2}', json.dumps({"name": "\ud800"}, ensure_ascii=False))
    assert refused.value.unwritable and "Unicode" in refused.value.message and "Unicode" in refused.value.message_fr
    assert open(journal.path).read() == '{"add": 1}\n', "all or none: the good line was not written either"


def test_a_repair_the_disk_refused_at_start_is_made_before_the_next_write(tmp_path, monkeypatch):
    """A full disk at start: the table still starts on the valid beginning, the file is
    left as it was, and the repair is made before the next line is written after it."""
    path = tmp_path / "toy.jsonl"
    original = '{"add": 1}\n{"add": 2}\ngarbage\n{"add": 4}\n'
    path.write_text(original)

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    journal = Journal(str(path))
    monkeypatch.setattr(os, "write", full_disk)
    loaded = journal.load(add_numbers)
    with pytest.raises(JournalError):
        journal.append('{"add": 10}')
    monkeypatch.undo()
    assert loaded.game == 3 and loaded.problem == "line 3 is not JSON" and path.read_text() == original
    journal.append('{"add": 10}')
    assert Journal(str(path)).load(add_numbers).game == 13
    copies = [name for name in os.listdir(tmp_path) if "-damaged-" in name]
    assert len(copies) == 1 and (tmp_path / copies[0]).read_text() == original

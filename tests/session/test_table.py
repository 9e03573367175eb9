"""The table's session: every command is validated, journaled, then announced, in order."""

import random

import pytest

import engine
from engine.hexgrid import parse_cell
from session import CommandError, TableSession

TILES = "sgrs/gsggs/gggrrg/sssxggs/rsrrsg/ggggs/ggrg"


def flee_table(seed: int = 0) -> TableSession:
    """A table where the player to move has a turn whose flight asks for a flee choice."""
    rng = random.Random(seed)
    for attempt in range(200):
        table = TableSession(players=[{"id": "A"}, {"id": "B"}, {"id": "C"}])
        table.new_game(seed=attempt)
        for player in ("A", "B", "C"):
            table.place_hunter(player, rng.choice(table.game.start_cells()))
        for _ in range(40):
            if table.game.is_over:
                break
            if needs_a_choice(table) is not None:
                return table
            table.play(*next(iter(engine.successors(table.game.position, table.game.variants)))[:2])
    raise AssertionError("no flight with a flee choice found")


def needs_a_choice(table):
    for action in table.game.legal_actions():
        outcome = engine.apply_action(table.game.position, action, (), table.game.variants)
        if outcome.needs is not None:
            return action
    return None


def test_an_illegal_command_changes_nothing_and_says_why():
    table = flee_table()
    before, version = table.game.position, table.version
    not_to_move = next(p for p in table.game.players if p != table.game.position.to_move)
    with pytest.raises(CommandError) as refused:
        table.play(engine.PlaceTrap(not_to_move))
    assert refused.value.code == "illegal_move" and table.version == version
    assert table.game.position == before


def test_undo_while_a_flee_choice_waits_cancels_only_the_waiting_turn():
    table = flee_table()
    action = needs_a_choice(table)
    assert action is not None
    outcome = table.play(action)
    assert outcome.needs is not None and table.snapshot().needs is not None
    turns = table.game.turns_played()
    assert table.undo()
    assert table.snapshot().needs is None and table.game.turns_played() == turns


def test_a_flee_choice_completes_the_waiting_turn():
    table = flee_table()
    action = needs_a_choice(table)
    needs = table.play(action).needs
    turns = table.game.turns_played()
    table.choose_flee(needs.options[0])
    assert table.snapshot().needs is None and table.game.turns_played() == turns + 1
    with pytest.raises(CommandError):
        table.choose_flee(needs.options[0])


def test_subscribers_hear_each_change_once_in_order_with_who_proposed_it():
    table = TableSession(players=[{"id": "A"}, {"id": "B"}])
    heard = []
    table.subscribe(lambda change, snapshot: heard.append((change.kind, change.source, snapshot.phase)))
    table.new_game(seed=2, source="buttons")
    table.place_hunter("A", table.game.start_cells()[0], source="camera")
    table.place_hunter("B", table.game.start_cells()[0], source="page")
    table.mark_board([{"cell": "0,0", "reason": "?"}])
    table.mark_board([{"cell": "0,0", "reason": "?"}])  # the same marks again: no news
    assert heard == [("new_game", "buttons", "setup"), ("placed", "camera", "setup"),
                     ("placed", "page", "play"), ("marks", "camera", "play")]


def test_marks_do_not_count_as_a_change_of_the_game():
    table = TableSession(players=[{"id": "A"}, {"id": "B"}])
    table.new_game(seed=2)
    version = table.snapshot().version
    table.mark_board([{"cell": "1,0", "reason": "put it back"}])
    assert table.snapshot().version == version and table.version > version


def test_a_new_game_keeps_the_tiles_lying_on_the_table():
    table = TableSession(players=[{"id": "A"}, {"id": "B"}])
    tiles = engine.notation.tiles_from_text(TILES)
    table.set_layout(tiles)
    table.new_game()
    assert table.game.tiles == tiles
    table.new_game(seed=5)
    assert table.game.tiles == tiles and table.game.tiles[parse_cell("0,0")] is engine.Tile.CROSS


@pytest.mark.parametrize("players", [[{"id": "A"}], "A,B", [{"id": "A"}, {"id": "A"}],
                                     [{"id": "A", "colour": "red"}, {"id": "B"}]])
def test_bad_seats_are_refused_with_the_field_at_fault(players):
    with pytest.raises(CommandError) as refused:
        TableSession().new_game(players)
    assert refused.value.field.startswith("players")

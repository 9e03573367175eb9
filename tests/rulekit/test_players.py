"""Who may sit at the table is one rule, whichever way the players come in: the
configuration file, the page's setup (the session), a Mammut score request, the engine's
JSON and the LED scenes all accept and refuse the same ids and colours, because they all
ask :mod:`rulekit.players`."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.game import Game
from firmware_bridge.scenes import SceneError, parse_colour
from maamut.config import ConfigError, check_players
from ostby_mammut.api import score_request
from rulekit.players import (
    DEFAULT_COLOURS,
    MAX_DISPLAY_NAME,
    SeatError,
    is_colour,
    is_player_id,
    read_ids,
    read_seats,
)
from session import CommandError, clean_players

IDS = st.one_of(st.text(max_size=30), st.sampled_from(["A", "Ann", "x" * 24, "x" * 25, "A b", "a@b", "é", "{", ""]))
COLOURS = st.one_of(st.text(max_size=9), st.from_regex(r"#[0-9a-fA-F]{6}", fullmatch=True),
                    st.sampled_from(["#d7263d", "#D7263D", "#12345", "red", "#d7263d\n", " #d7263d"]))


def _config_accepts(players) -> bool:
    try:
        check_players(players)
    except ConfigError:
        return False
    return True


def _session_accepts(players) -> bool:
    try:
        clean_players(players)
    except CommandError:
        return False
    return True


def _mammut_accepts(ids) -> bool:
    code, out = score_request({"players": ids, "round": 1, "shaman": {"holder": ids[0], "arrow": "red"},
                               "tiles": {}})
    return not (code == 2 and out["error"]["field"].startswith("players"))


def _engine_accepts(ident) -> bool:
    position = engine.position_to_json(Game.new(["Amy", "Zed"], seed=1).position)
    position.update(players=[ident, "Zed"], hunters={}, to_move="Zed", hands=None)
    try:
        engine.position_from_json(json.loads(json.dumps(position)))
    except engine.BadRequest as exc:
        return not exc.field.startswith("position.players")
    return True


@settings(max_examples=150, deadline=None)
@given(IDS)
def test_every_way_in_accepts_the_same_player_ids(ident):
    expected = is_player_id(ident)
    players = [{"id": ident}, {"id": "Zed"}]
    assert _config_accepts(players) is expected
    assert _session_accepts(players) is expected
    assert _mammut_accepts([ident, "Zed"]) is expected


@pytest.mark.parametrize("ident", ["A", "Ann", "x" * 24, "x" * 25, "A b", "a@b", "a:b", "é"])
def test_the_engine_names_players_by_the_same_rule(ident):
    assert _engine_accepts(ident) is is_player_id(ident)


@settings(max_examples=150, deadline=None)
@given(COLOURS)
def test_every_way_in_accepts_the_same_colours(colour):
    expected = is_colour(colour) or colour == ""  # empty: the seat's default colour
    players = [{"id": "A", "colour": colour}, {"id": "B"}]
    assert _config_accepts(players) is expected
    assert _session_accepts(players) is expected
    if is_colour(colour):
        assert parse_colour(colour) == tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    elif colour.strip() == colour:
        with pytest.raises(SceneError):
            parse_colour(colour)


def test_a_seat_without_a_colour_or_a_name_gets_its_seat_colour_and_its_id():
    seats = read_seats([{"id": "A"}, {"id": "B", "colour": ""}, {"id": "C", "name": " Cy ", "colour": "#ABCDEF"}])
    assert [s.colour for s in seats] == [DEFAULT_COLOURS[0], DEFAULT_COLOURS[1], "#abcdef"]
    assert [s.name for s in seats] == ["A", "B", "Cy"]


@pytest.mark.parametrize("players, seat, key", [
    ("A, B", None, None),
    ([{"id": "A"}], None, None),
    ([{"id": "A"}] * 5, None, None),
    (["A", "B"], 0, None),
    ([{"name": "Ann"}, {"id": "B"}], 0, None),
    ([{"id": "A"}, {"id": "A"}], 1, "id"),
    ([{"id": "A", "name": ""}, {"id": "B"}], 0, "name"),
    ([{"id": "A", "name": "n" * (MAX_DISPLAY_NAME + 1)}, {"id": "B"}], 0, "name"),
    ([{"id": "A"}, {"id": "B", "colour": "#12345"}], 1, "colour"),
])
def test_a_seat_that_cannot_be_used_says_which_seat_and_which_key(players, seat, key):
    with pytest.raises(SeatError) as caught:
        read_seats(players)
    assert (caught.value.seat, caught.value.key) == (seat, key)


def test_unknown_keys_are_refused_only_where_asked():
    players = [{"id": "A", "color": "#ff0000"}, {"id": "B"}]
    assert len(read_seats(players)) == 2
    with pytest.raises(SeatError, match="unknown key"):
        read_seats(players, known_keys=("id", "name", "colour"))


def test_players_by_name_alone_are_different_and_in_range():
    assert read_ids(["Ana", "Bo"], least=2, most=5) == ("Ana", "Bo")
    with pytest.raises(SeatError, match="different") as caught:
        read_ids(["Ana", "Ana"], least=2, most=5)
    assert caught.value.seat is None
    with pytest.raises(SeatError, match="2 to 5"):
        read_ids(["Ana"] * 6, least=2, most=5)

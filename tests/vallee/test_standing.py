"""First player (camps, pawns, food, then a draw) and the victory check at the end of a turn."""

from __future__ import annotations

import json

import pytest

from vallee.standing import Standing, first_player, victory
from vallee.variants import Variants

from .conftest import run_cli

SEATS = ("Ana", "Bo", "Cy")


def test_turn_one_starts_with_the_first_to_set_up_and_goes_clockwise():
    assert first_player(SEATS, {}, 1, setup_first="Cy").order == ("Cy", "Ana", "Bo")


@pytest.mark.parametrize("standings, order, decided_by", [
    ({"Ana": (1, 9, 9), "Bo": (3, 2, 0), "Cy": (2, 9, 9)}, ("Bo", "Cy", "Ana"), "camps"),
    ({"Ana": (2, 9, 0), "Bo": (2, 7, 9), "Cy": (1, 9, 9)}, ("Ana", "Bo", "Cy"), "pawns"),
    ({"Ana": (2, 7, 3), "Bo": (2, 7, 5), "Cy": (1, 9, 9)}, ("Bo", "Cy", "Ana"), "food"),
])
def test_first_player_criteria_in_order(standings, order, decided_by):
    got = first_player(SEATS, {p: Standing(*s) for p, s in standings.items()}, 6)
    assert (got.order, got.decided_by) == (order, decided_by)


def test_a_full_tie_waits_for_a_draw_among_the_tied_only():
    standings = {p: Standing(2, 7, 3) for p in SEATS}
    assert first_player(SEATS, standings, 6).order == ()
    assert first_player(SEATS, standings, 6, drawn="Cy").order == ("Cy", "Ana", "Bo")


def test_four_camps_announced_then_kept_a_turn_wins():
    standings = {"Ana": Standing(4, 8, 0), "Bo": Standing(2, 5, 0), "Cy": Standing(4, 6, 0)}
    first = victory(SEATS, standings, announced_last_turn=())
    assert (first.announced, first.winners) == (("Ana", "Cy"), ())
    second = victory(SEATS, standings, announced_last_turn=("Ana",))
    assert (second.winners, second.reason) == (("Ana",), "four_camps")


def test_simultaneous_winners_most_camps_then_turn_order_or_shared():
    standings = {"Ana": Standing(4, 8, 0), "Bo": Standing(5, 5, 0), "Cy": Standing(4, 6, 0)}
    assert victory(SEATS, standings, SEATS).winners == ("Bo",)
    assert victory(SEATS, standings, SEATS, variants=Variants(simultaneous_win="shared")).winners == SEATS


def test_fire_rules_need_fire_at_both_checks_unless_the_variant():
    standings = {"Ana": Standing(4, 8, 0, fire=False), "Bo": Standing(1, 5, 0), "Cy": Standing(1, 6, 0)}
    assert victory(SEATS, standings, (), fire_rules=True).announced == ()
    lenient = victory(SEATS, standings, (), fire_rules=True, variants=Variants(fire_at_both_checks=False))
    assert lenient.announced == ("Ana",)
    with_fire = {**standings, "Ana": Standing(4, 8, 0, fire=True)}
    assert victory(SEATS, with_fire, ("Ana",), fire_rules=True).winners == ("Ana",)


def test_the_last_tribe_wins_once_no_return_is_possible_and_extinction_loses_all():
    standings = {"Ana": Standing(1, 3, 0), "Bo": Standing(0, 0, 0), "Cy": Standing(0, 0, 0)}
    assert victory(SEATS, standings, (), return_possible=True).winners == ()
    assert victory(SEATS, standings, ()).winners == ("Ana",)
    assert victory(SEATS, standings, (), variants=Variants(last_tribe_wins=False)).winners == ()
    assert victory(SEATS, {p: Standing(0, 0, 0) for p in SEATS}, ()).reason == "extinct"


REQUEST = {"turn": 8, "seats": ["Ana", "Bo", "Cy"],
           "tribes": {"Ana": {"camps": 4, "pawns": 8, "food": 2}, "Bo": {"camps": 4, "pawns": 8, "food": 5},
                      "Cy": {"camps": 1, "pawns": 3, "food": 0}},
           "announced_last_turn": ["Ana"]}


def test_standing_command_gives_the_order_and_the_verdict():
    code, out = run_cli(["standing"], json.dumps(REQUEST))
    assert code == 0 and out["first_player"]["order"] == ["Bo", "Cy", "Ana"]
    assert out["victory"]["announced"] == ["Bo", "Ana"] and out["victory"]["winners"] == ["Ana"]


@pytest.mark.parametrize("change, code, key, value", [
    ({"seats": ["Ana"]}, 2, "field", "seats"),
    ({"tribes": {"Ana": {"camps": 6, "pawns": 1, "food": 0}}}, 2, "field", "tribes.Ana.camps"),
    ({"announced_last_turn": ["Zed"]}, 2, "field", "announced_last_turn.0"),
    ({"drawn": "Cy"}, 1, "rule", "standing.first_player"),
])
def test_standing_command_errors(change, code, key, value):
    got, out = run_cli(["standing"], json.dumps({**REQUEST, **change}))
    assert got == code and out["error"][key] == value

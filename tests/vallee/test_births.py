"""The births phase: the die table with twins, the caps of ten warriors and six women,
the birth cards, waiting for dice, and the command line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from vallee.births import Camp, births_due, resolve_births
from vallee.variants import Variants

from .conftest import run_cli

VILLAGE, CAVE = Camp((0, 1), "village", 2), Camp((0, -2), "cave", 1)


def test_one_birth_per_woman_up_to_two_and_the_die_table():
    result = resolve_births([VILLAGE, CAVE], [1, 5, 3], warriors=0, women=3)
    assert [(b.camp, b.sex) for b in result.births] == [((0, 1), "woman"), ((0, 1), "warrior"), ((0, -2), "warrior")]
    assert (result.warriors, result.women) == (2, 4)
    assert births_due(Camp((0, 1), "village", 0), fertility=True) == 0


def test_twins_roll_two_more_dice_and_a_six_is_then_a_warrior():
    result = resolve_births([CAVE], [6, 6, 1], warriors=0, women=1)
    assert [(b.dice, b.sex) for b in result.births] == [((6, 6), "warrior"), ((6, 1), "woman")]


def test_fertility_herbs_add_a_birth_in_villages_only_unless_the_variant():
    assert births_due(VILLAGE, True) == 3 and births_due(CAVE, True) == 1
    assert births_due(CAVE, True, Variants(fertility_caves=True)) == 2


def test_good_herbs_choose_the_sex_without_dice():
    result = resolve_births([VILLAGE], [], warriors=0, women=2, chosen={(0, 1): "warrior"})
    assert [(b.dice, b.sex) for b in result.births] == [((), "warrior"), ((), "warrior")] and not result.awaiting


def test_births_wait_for_dice_and_a_twin_waits_for_both_of_its_dice():
    assert resolve_births([VILLAGE], [3], 0, 2).awaiting == {"camp": (0, 1)}
    half_twin = resolve_births([VILLAGE], [6, 2], 0, 2)
    assert half_twin.births == () and half_twin.awaiting == {"camp": (0, 1)}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=5), st.lists(st.integers(1, 6), max_size=30),
       st.integers(0, 10), st.integers(0, 6), st.booleans())
def test_caps_are_never_exceeded_and_pieces_only_grow(women_per_camp, dice, warriors, women, fertility):
    camps = [Camp((i, 0), "village" if i % 2 else "cave", f) for i, f in enumerate(women_per_camp)]
    result = resolve_births(camps, dice, warriors, women, fertility)
    assert warriors <= result.warriors <= 10 and women <= result.women <= 6
    born = sum(b.sex != "cancelled" for b in result.births)
    assert born == (result.warriors - warriors) + (result.women - women)
    if result.awaiting is None:
        due = sum(births_due(c, fertility) for c in camps)
        twin_entries = sum(1 for b in result.births if len(b.dice) == 2)
        assert len(result.births) - twin_entries // 2 == due  # a twin birth is two newborns


REQUEST = {"map": "sample", "turn": 5,
           "tribe": {"warriors": 9, "women": 5, "camps": [{"cell": "0,1", "women": 2}, {"cell": "0,-2", "women": 1}]},
           "rolls": [6, 2, 6, 4, 1]}


def test_births_command_gives_each_newborn_and_the_totals():
    code, out = run_cli(["births"], json.dumps(REQUEST))
    assert code == 0 and (out["warriors"], out["women"]) == (10, 6)
    assert [b["rule"] for b in out["births"]] == ["births.count", "births.count", "births.caps", "births.caps"]


@pytest.mark.parametrize("change, code, key, value", [
    ({"turn": 4}, 1, "rule", "phase.births"),
    ({"tribe": {**REQUEST["tribe"], "chosen": {"0,1": "woman"}}}, 1, "rule", "births.cards"),
    ({"tribe": {**REQUEST["tribe"], "women": 2}}, 2, "field", "tribe.women"),
    ({"rolls": [7]}, 2, "field", "rolls.0"),
    ({"tribe": {**REQUEST["tribe"], "camps": [{"cell": "0,0", "women": 1}]}}, 2, "field", "tribe.camps.0.cell"),
])
def test_births_command_errors(change, code, key, value):
    got, out = run_cli(["births"], json.dumps({**REQUEST, **change}))
    assert got == code and out["error"][key] == value

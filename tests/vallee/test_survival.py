"""The survival ledger on the sample valley: each income line, the cost in the cold, cards
and events, and that food never goes below zero with the fewest pawns starving."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from vallee.board import sample_valley
from vallee.survival import Situation, cost_of, survival_ledger
from vallee.variants import Variants

from .conftest import run_cli

V = sample_valley()
SUMMER = Situation(season="summer")
WINTER = Situation(season="winter")


def items(ledger):
    return [(l.item, l.cell, l.food, l.rule) for l in ledger.lines]


def test_a_forest_by_a_river_gives_fishing_and_gathering_in_summer_only_fishing_in_winter():
    cells = {(2, -1): (1, 0)}  # forest, river 2 on its edge
    assert items(survival_ledger(V, SUMMER, 5, cells, {}))[:2] == [
        ("fishing", (2, -1), 1, "survival.fishing"), ("gathering", (2, -1), 1, "survival.gathering")]
    assert [i[0] for i in items(survival_ledger(V, WINTER, 5, cells, {}))] == ["fishing", "cost"]
    roots = Situation(season="winter", cards=("racines",))
    assert [i[0] for i in items(survival_ledger(V, roots, 5, cells, {}))] == ["fishing", "gathering", "cost"]


def test_a_cell_counts_once_whatever_the_number_of_pawns():
    ledger = survival_ledger(V, SUMMER, 0, {(0, 1): (5, 2)}, {})  # plain by the lake
    assert items(ledger) == [("fishing", (0, 1), 1, "survival.fishing"), ("cost", None, -7, "survival.cost")]


def test_net_doubles_fishing_and_a_drought_stops_it():
    assert survival_ledger(V, Situation("summer", cards=("filet",)), 0, {(0, 1): (1, 0)}, {}).income == 2
    assert survival_ledger(V, Situation("summer", drought=True), 0, {(0, 1): (1, 0)}, {}).income == 0


@pytest.mark.parametrize("state, situation, variants, food", [
    ("intact", Situation("summer", harvest=True), Variants(), 8),
    ("damaged", Situation("summer", harvest=True), Variants(), 4),
    ("intact", Situation("summer", harvest=True, good_rains=True), Variants(), 12),
    ("damaged", Situation("summer", harvest=True, cards=("engrais_naturel",)), Variants(), 8),
    ("intact", Situation("summer", harvest=True, good_rains=True, cards=("engrais_naturel",)), Variants(), 12),
    ("intact", Situation("summer", harvest=True, good_rains=True, cards=("engrais_naturel",)),
     Variants(harvest_stack=True), 16),
])
def test_harvest_values(state, situation, variants, food):
    ledger = survival_ledger(V, situation, 0, {(-3, 0): (1, 0)}, {(-3, 0): state}, variants)
    assert [l.food for l in ledger.lines if l.item == "harvest"] == [food]


def test_no_harvest_outside_the_last_summer_turn_and_unoccupied_fields_give_nothing():
    assert survival_ledger(V, SUMMER, 0, {(-3, 0): (1, 0)}, {(-3, 0): "intact"}).income == 0
    harvest = Situation("summer", harvest=True)
    assert survival_ledger(V, harvest, 0, {(-3, 0): (1, 0)}, {(0, 2): "intact"}).income == 0


@pytest.mark.parametrize("situation, cost", [
    (Situation("winter", fire_rules=True), 4),                     # 3 pawns × 1.5 = 4.5 → 4
    (Situation("winter", fire_rules=True, has_fire=True), 3),
    (Situation("summer", fire_rules=True), 3),
    (Situation("winter"), 3),
    (Situation("winter", cold_snap=True), 4),
    (Situation("winter", fire_rules=True, has_fire=True, cold_snap=True), 4),
])
def test_the_cost_in_the_cold(situation, cost):
    assert survival_ledger(V, situation, 10, {(-3, 0): (2, 1)}, {}).cost == cost


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 20), st.dictionaries(st.sampled_from([c for c in V.cells if c not in V.lake]),
                                           st.tuples(st.integers(0, 3), st.integers(0, 2)), max_size=6),
       st.booleans(), st.booleans())
def test_food_never_goes_below_zero_and_the_fewest_pawns_starve(food, cells, cold, harvest):
    situation = Situation("winter" if cold else "summer", harvest=harvest and not cold, cold_snap=cold)
    ledger = survival_ledger(V, situation, food, cells, {c: "intact" for c in list(cells)[:2]})
    pawns = sum(w + f for w, f in cells.values())
    assert ledger.food_after >= 0 and 0 <= ledger.starve <= pawns
    if ledger.starve:
        assert cost_of(pawns - ledger.starve + 1, cold) > food + ledger.income
    else:
        assert ledger.food_after == food + ledger.balance


REQUEST = {"map": "sample", "turn": 8,
           "tribe": {"name": "red", "food": 0, "cells": [{"cell": "0,1", "warriors": 2, "women": 1},
                                                         {"cell": "-3,0", "warriors": 5, "women": 2}]},
           "fields": [{"cell": "0,1", "state": "damaged"}]}


def test_survival_command_gives_the_ledger_and_who_must_starve():
    code, out = run_cli(["survival"], json.dumps(REQUEST))
    assert code == 0 and out["harvest"] is True
    assert [(l["item"], l["cell"], l["food"]) for l in out["lines"]] == [
        ("fishing", "0,1", 1), ("harvest", "0,1", 4), ("cost", None, -10)]
    assert (out["income"], out["cost"], out["balance"], out["starve"], out["food_after"]) == (5, 10, -5, 5, 0)
    assert all(l["en"] and l["fr"] for l in out["lines"])


@pytest.mark.parametrize("change, code, key, value", [
    ({"turn": 0}, 2, "field", "turn"),
    ({"events": {"drought": True}, "turn": 4}, 1, "rule", "survival.drought"),
    ({"events": {"cold_snap": True}}, 1, "rule", "survival.cold"),
    ({"tribe": {"food": 1, "cells": [{"cell": "0,0", "warriors": 1}]}}, 1, "rule", "survival.fishing"),
    ({"tribe": {"food": 1, "cells": [{"cell": "0,1", "warriors": 6}, {"cell": "0,2", "warriors": 5}]}}, 1, "rule",
     "pieces.tribe"),
    ({"tribe": {"food": 1, "cells": [], "cards": ["silax"]}}, 2, "field", "tribe.cards.0"),
    ({"fields": [{"cell": "0,1"}, {"cell": "0,1"}]}, 2, "field", "fields.1.cell"),
])
def test_survival_command_errors(change, code, key, value):
    got, out = run_cli(["survival"], json.dumps({**REQUEST, **change}))
    assert got == code and out["error"][key] == value

"""Camps and fields on the sample valley: setup spacing and its river exception, founding
a camp, sowing, and the command line."""

from __future__ import annotations

import json

import pytest

from vallee.board import sample_valley
from vallee.camps import camp_kind, found_camp_problem, sowing_problem, start_camp_problem

from .conftest import run_cli

V = sample_valley()


def test_camp_kind_follows_the_terrain():
    assert [camp_kind(V, c) for c in ((0, 1), (1, 1), (0, -2), (1, -2), (0, 0))] == \
        ["village", "village", "cave", "cave", None]


@pytest.mark.parametrize("cell, camps, problem", [
    ((1, -1), {(0, -1): "blue"}, None),               # river 1 between them
    ((1, 0), {(2, 0): "blue"}, "camps.spacing"),
    ((1, 0), {(3, 0): "blue"}, None),                 # two cells apart
    ((0, 0), {}, "camps.free_cell"),                  # the lake
    ((2, 0), {(2, 0): "blue"}, "camps.free_cell"),
])
def test_setup_spacing_with_the_river_exception(cell, camps, problem):
    assert start_camp_problem(V, cell, camps) == problem


@pytest.mark.parametrize("args, problem", [
    ((1, 1, 0, False, 0, False), None),
    ((2, 0, 0, False, 0, False), "camps.couple"),
    ((2, 0, 0, False, 0, True), None),                # Pacs
    ((1, 1, 2, False, 0, False), "camps.free_cell"),  # opponents there
    ((1, 1, 0, True, 0, False), "camps.one_per_cell"),
    ((1, 1, 0, False, 5, False), "camps.markers"),
])
def test_founding_a_camp(args, problem):
    assert found_camp_problem(V, (0, 1), *args) == problem


@pytest.mark.parametrize("cell, own, field, used, food, terrace, problem", [
    ((0, 1), "village", False, 0, 1, False, None),
    ((1, 1), "village", False, 0, 1, False, "sowing.where"),   # a forest village
    ((0, -2), "cave", False, 0, 1, False, "sowing.where"),
    ((0, -2), "cave", False, 0, 1, True, None),                # Terrasse
    ((0, 1), None, False, 0, 1, False, "sowing.where"),
    ((0, 1), "village", True, 0, 1, False, "sowing.one_per_cell"),
    ((0, 1), "village", False, 9, 1, False, "sowing.markers"),
    ((0, 1), "village", False, 0, 0, False, "sowing.cost"),
])
def test_sowing(cell, own, field, used, food, terrace, problem):
    assert sowing_problem(V, cell, own, field, used, food, terrace) == problem


@pytest.mark.parametrize("request_, code, key, value", [
    ({"action": "setup", "cell": "1,-1", "camps": {"0,-1": "blue"}, "field": True}, 0, "kind", "village"),
    ({"action": "setup", "cell": "1,0", "camps": {"2,0": "blue"}}, 1, "rule", "camps.spacing"),
    ({"action": "setup", "cell": "1,1", "field": True}, 1, "rule", "sowing.where"),
    ({"action": "sow", "cell": "0,1", "turn": 4, "own_camp_here": True, "food": 3}, 1, "rule", "phase.sowing"),
    ({"action": "sow", "cell": "0,1", "turn": 5, "own_camp_here": True, "food": 3}, 0, "kind", "village"),
    ({"action": "found", "cell": "0,1", "warriors": 2, "cards": ["pacs"]}, 0, "kind", "village"),
    ({"action": "found", "cell": "0,1", "warriors": 2, "cards": ["terrasse"]}, 2, "field", "cards.0"),
    ({"action": "dance", "cell": "0,1"}, 2, "field", "action"),
])
def test_camp_command(request_, code, key, value):
    got, out = run_cli(["camp"], json.dumps({"map": "sample", **request_}))
    assert got == code and (out[key] if code == 0 else out["error"][key]) == value

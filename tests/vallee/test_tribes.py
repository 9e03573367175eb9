"""Tribe movement on the sample valley: each rule a group move can break, pass-through,
cards and events, and the command line."""

from __future__ import annotations

import json

import pytest

from vallee.animals import Conditions
from vallee.board import sample_valley
from vallee.core import IllegalRequest
from vallee.tribes import Board, Limits, Move, check_move

from .conftest import run_cli

V = sample_valley()
RED = {(0, 1): {"red": (3, 1)}}


def stops(path, board=Board(RED), start=(0, 1), w=3, f=0, leave=None, conditions=Conditions(), limits=Limits()):
    return check_move(V, board, Move("red", start, tuple(path), w, f, leave or {}), conditions, limits).stops


def rule_of(*args, **kwargs):
    with pytest.raises(IllegalRequest) as info:
        stops(*args, **kwargs)
    return info.value.rule


def test_one_or_two_cells_through_free_land():
    assert stops([(1, 1), (2, 1)]) == (((1, 1), "passed"), ((2, 1), "end"))
    assert rule_of([(1, 1), (2, 1), (2, 2)]) == "tribes.steps"
    assert rule_of([(2, 1)]) == "tribes.steps"  # not adjacent


@pytest.mark.parametrize("path, start, rule", [
    ([(0, 0)], (0, 1), "tribes.lake"),
    ([(1, -1)], (0, -1), "tribes.river"),
    ([(0, -2), (0, -3)], (0, -1), "tribes.mountain"),
])
def test_the_lake_rivers_and_mountains(path, start, rule):
    assert rule_of(path, Board({start: {"red": (3, 0)}}), start) == rule


def test_a_mountain_ends_the_move_and_summer_endurance_crosses_one():
    board = Board({(0, -1): {"red": (2, 0)}})
    assert stops([(0, -2)], board, (0, -1), 2) == (((0, -2), "mountain"),)
    long = Limits(cards=("endurance",))
    assert stops([(0, -2), (0, -3)], board, (0, -1), 2, limits=long)[-1] == ((0, -3), "mountain")
    assert rule_of([(0, -2), (0, -3)], board, (0, -1), 2, limits=Limits("winter", cards=("endurance",))) == \
        "tribes.mountain"


def test_a_bridge_crosses_one_river_and_ends_the_move():
    board = Board({(0, -1): {"red": (2, 0)}})
    bridge = Limits(cards=("pont",))
    assert stops([(1, -1)], board, (0, -1), 2, limits=bridge) == (((1, -1), "river"),)
    assert rule_of([(1, -1), (2, -1)], board, (0, -1), 2, limits=bridge) == "tribes.river"
    assert stops([(1, -1)], board, (0, -1), 2, conditions=Conditions(drought=True)) == (((1, -1), "end"),)


def test_contact_stops_unless_the_group_outnumbers_and_leaves_as_many():
    board = Board({**RED, (1, 1): {"blue": (1, 1)}})
    assert stops([(1, 1)], board) == (((1, 1), "contact"),)
    assert rule_of([(1, 1), (2, 1)], board) == "tribes.contact"
    assert rule_of([(1, 1), (2, 1)], board, leave={(1, 1): (1, 0)}) == "tribes.contact"  # 2 opponents
    assert stops([(1, 1), (2, 1)], board, leave={(1, 1): (2, 0)}) == (((1, 1), "passed"), ((2, 1), "end"))


def test_leaving_a_shared_cell_needs_more_pawns_and_leaves_as_many():
    board = Board({(0, 1): {"red": (3, 1)}}, animals={(0, 1): 2})
    assert rule_of([(1, 1)], board) == "tribes.pinned"           # all 3 go, 2 animals stay alone
    assert stops([(1, 1)], board, w=2) == (((1, 1), "end"),)     # 2 stay with the 2 animals


def test_closed_cells_frozen_pawns_and_the_weather():
    assert rule_of([(1, 1)], conditions=Conditions(burning=frozenset({(1, 1)}))) == "tribes.closed"
    assert rule_of([(1, 1)], limits=Limits(frozen=frozenset({(0, 1)}))) == "tribes.frozen"
    assert rule_of([(1, 1)], limits=Limits(max_cells=0)) == "event.blizzard"
    assert rule_of([(1, 1), (2, 1)], limits=Limits(max_cells=1)) == "tribes.steps"
    assert rule_of([(1, 1)], w=4) == "tribes.pieces"


def test_a_frozen_lake_is_crossed_but_not_a_place_to_stop():
    frozen = Conditions(frozen_rivers=frozenset({1}))
    board = Board({(1, 0): {"red": (2, 0)}})
    march = Limits("winter", cards=("marche_forcee",))
    assert stops([(0, 0), (-1, 0), (-2, 0)], board, (1, 0), 2, conditions=frozen, limits=march)[-1] == ((-2, 0), "end")
    assert rule_of([(0, 0), (-1, 0), (-2, 0)], board, (1, 0), 2, limits=march) == "tribes.lake"
    assert rule_of([(0, 0)], board, (1, 0), 2, conditions=frozen, limits=Limits("winter")) == "animals.frozen_lake"


def test_a_raft_crosses_the_lake_shore_to_shore_and_stops_there():
    raft = Limits(cards=("radeau",))
    assert stops([(0, 0), (-1, 0), (-2, 0)], limits=raft) == (((0, 0), "afloat"), ((-1, 0), "afloat"), ((-2, 0), "lake"))
    assert stops([(0, 0), (0, -1)], limits=raft)[-1] == ((0, -1), "lake")
    assert rule_of([(0, 0)], limits=raft) == "tribes.lake"                          # it lands on a shore
    assert rule_of([(0, 0), (0, -1), (-1, -1)], limits=raft) == "tribes.lake"       # and stops there
    assert rule_of([(0, 0), (-1, 0)]) == "tribes.lake"                              # no raft


REQUEST = {"map": "sample", "season": "summer",
           "pieces": {"0,1": {"red": {"warriors": 2, "women": 1}}, "1,1": {"blue": {"warriors": 1}}},
           "animals": {"2,1": 2},
           "move": {"tribe": "red", "from": "0,1", "path": ["1,1", "2,1"], "warriors": 2,
                    "leave": {"1,1": {"warriors": 1}}}}


def test_move_command_checks_a_pass_through():
    code, out = run_cli(["move"], json.dumps(REQUEST))
    assert code == 0 and out["end"] == "2,1"
    assert out["stops"] == [{"cell": "1,1", "stop": "passed"}, {"cell": "2,1", "stop": "contact"}]


@pytest.mark.parametrize("change, code, key, value", [
    ({"events": {"blizzard": True}}, 1, "rule", "event.blizzard"),
    ({"move": {**REQUEST["move"], "leave": {}}}, 1, "rule", "tribes.contact"),
    ({"move": {**REQUEST["move"], "leave": {"2,1": {"warriors": 1}}}}, 2, "field", "move.leave.2,1"),
    ({"move": {**REQUEST["move"], "path": ["1,1", "9,9"]}}, 2, "field", "move.path.1"),
    ({"cards": ["camouflage"]}, 2, "field", "cards.0"),
    ({"pieces": {"0,1": {"red team": {"warriors": 2}}}}, 2, "field", "pieces.0,1.red team"),
])
def test_move_command_errors(change, code, key, value):
    got, out = run_cli(["move"], json.dumps({**REQUEST, **change}))
    assert got == code and out["error"][key] == value

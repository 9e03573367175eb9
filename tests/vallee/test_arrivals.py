"""The arrivals phase on the sample valley: letters to cells, herds joined, blocked cells,
the epizootic, the seeded virtual bag, and the command line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from vallee.animals import Conditions, Unit
from vallee.arrivals import Token, draw, full_bag, place_arrivals
from vallee.board import sample_valley
from vallee.variants import Variants

from .conftest import run_cli

V = sample_valley()


def test_every_token_letter_names_an_edge_cell_its_species_may_stand_on():
    from vallee.core import MOUNTAIN, SPECIES, VOLCANO
    for token in full_bag():
        cell = V.cell_of_letter[token.letter]
        assert V.on_perimeter(cell)
        assert SPECIES[token.species].enters_mountains or V.terrain[cell] not in (MOUNTAIN, VOLCANO)


def test_a_blocked_entry_cell_sends_the_token_back_unless_placed_anyway():
    burning = Conditions(burning=frozenset({(3, 0)}))
    result = place_arrivals(V, [Token("rhino", "d")], [], burning)
    assert [p.outcome for p in result.placements] == ["back_to_bag"] and result.units == ()
    assert result.back_to_bag == (Token("rhino", "d"),)
    anyway = place_arrivals(V, [Token("rhino", "d")], [], burning, Variants(blocked_arrival="place_anyway"))
    assert [(u.cell, u.count) for u in anyway.units] == [((3, 0), 1)]


def test_the_epizootic_species_arrives_and_leaves_at_once():
    result = place_arrivals(V, [Token("bison", "a"), Token("rhino", "a")], [], Conditions(), epizootie="bison")
    assert [p.outcome for p in result.placements] == ["removed", "new"]


def test_two_tokens_of_one_species_on_one_letter_cell_make_a_herd():
    result = place_arrivals(V, [Token("bear", "A"), Token("tiger", "A"), Token("wolf", "A")], [Unit("w", "wolf", (0, -3))],
                            Conditions())
    assert sorted((u.species, u.count) for u in result.units) == [("bear", 1), ("tiger", 1), ("wolf", 2)]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 6))
def test_a_seeded_draw_is_repeatable_comes_from_the_bag_and_conserves_animals(seed, count):
    bag = full_bag()[::2]
    drawn = draw(bag, count, seed)
    assert drawn == draw(list(reversed(bag)), count, seed)
    assert len(set(drawn)) == len(drawn) == min(count, len(bag)) and set(drawn) <= set(bag)
    before = [Unit("b", "bison", (-1, -2), 2)]
    result = place_arrivals(V, drawn, before, Conditions())
    placed = sum(p.outcome in ("new", "joined") for p in result.placements)
    assert sum(u.count for u in result.units) == 2 + placed


REQUEST = {"map": "sample", "turn": 3, "units": [{"id": "old", "species": "bison", "cell": "-1,-2", "count": 2}],
           "drawn": [{"species": "bison", "letter": "a"}, {"species": "wolf", "letter": "A"}]}


def test_arrivals_command_places_the_drawn_tokens():
    code, out = run_cli(["arrivals"], json.dumps(REQUEST))
    assert code == 0 and out["expected"] == 2
    assert [(p["cell"], p["outcome"]) for p in out["placements"]] == [("-1,-2", "joined"), ("0,-3", "new")]


def test_arrivals_command_draws_from_a_virtual_bag_by_seed():
    request = {"map": "sample", "turn": 1, "players": 3, "seed": 42}
    code, out = run_cli(["arrivals"], json.dumps(request))
    again = run_cli(["arrivals"], json.dumps(request))[1]
    assert code == 0 and out == again and len(out["drawn"]) == out["expected"] == 6


@pytest.mark.parametrize("change, code, key, value", [
    ({"drawn": [{"species": "bison", "letter": "A"}]}, 1, "rule", "pieces.animals"),
    ({"drawn": [{"species": "bison", "letter": "a"}] * 2}, 1, "rule", "pieces.animals"),
    ({"drawn": [{"species": "bison", "letter": "a"}] * 3}, 1, "rule", "phase.arrivals"),
    ({"events": {"epizootie": "bison"}}, 1, "rule", "event.epizootie"),
    ({"events": {"viande_rare": True}}, 1, "rule", "phase.arrivals"),
    ({"seed": 3}, 2, "field", "drawn"),
    ({"drawn": [{"species": "bison"}]}, 2, "field", "drawn.0.letter"),
])
def test_arrivals_command_errors(change, code, key, value):
    got, out = run_cli(["arrivals"], json.dumps({**REQUEST, **change}))
    assert got == code and out["error"][key] == value

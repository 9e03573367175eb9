"""The 30 event cards as data and the cells each hits on the sample valley."""

from __future__ import annotations

import json

import pytest

from vallee.board import sample_valley
from vallee.events import CARDS, deck, target

from .conftest import run_cli

V = sample_valley()


def names(cells):
    return [f"{q},{r}" for q, r in cells]


def test_each_deck_holds_fifteen_cards_and_every_card_has_both_languages():
    assert len(deck("winter")) == len(deck("summer")) == 15
    assert deck("winter").count("fleuve_gele") == 2 and deck("summer").count("inondation") == 2
    assert sum(c.copies for c in CARDS.values() if c.fire_text) == 11  # italic fire text, 11 cards
    assert all(c.en and c.fr and c.en != c.fr for c in CARDS.values())


@pytest.mark.parametrize("card", [c for c in CARDS.values() if c.die and c.die.startswith("region:")], ids=str)
def test_every_region_die_face_hits_cells_of_that_terrain(card):
    kind = card.die.split(":")[1]
    for face in range(1, 7):
        hit = target(V, card, face, caves=[(0, -2), (2, -3), (1, -3), (3, -3), (-3, 2), (-3, 3)])
        assert hit.cells and not hit.reroll
        if card.id != "tremblement_de_terre":
            assert all({"mountain": ("mountain", "volcano")}.get(kind, (kind,)).count(V.terrain[c]) for c in hit.cells)


def test_a_flood_spares_mountain_banks_and_a_frozen_river_joining_the_lake_freezes_it():
    assert names(target(V, CARDS["inondation"], 1).cells) == ["0,-1", "1,-1"]
    assert target(V, CARDS["fleuve_gele"], 1).lake and not target(V, CARDS["fleuve_gele"], 3).lake
    assert target(V, CARDS["inondation"], 4).reroll


def test_an_earthquake_reaches_the_neighbours_and_an_eruption_every_volcano_and_its_lava():
    assert names(target(V, CARDS["tremblement_de_terre"], 3).cells) == ["1,-3", "2,-3", "3,-3", "1,-2", "2,-2"]
    assert names(target(V, CARDS["eruption"], None).cells) == ["1,-2", "2,-2", "2,-1", "-2,0", "-2,1"]
    assert len(target(V, CARDS["chutes_de_neige"], None).cells) == 10


def test_the_cave_bear_rolls_again_where_there_is_no_cave():
    assert names(target(V, CARDS["ours_des_cavernes"], 1, caves=[(0, -2)]).cells) == ["0,-2"]
    assert target(V, CARDS["ours_des_cavernes"], 2, caves=[(0, -2)]).reroll


@pytest.mark.parametrize("request_, code, key, value", [
    ({"card": "meteor"}, 2, "field", "card"),
    ({"card": "inondation"}, 2, "field", "die"),
    ({"card": "blizzard", "die": 2}, 2, "field", "die"),
    ({"card": "ours_des_cavernes", "die": 1, "caves": ["0,1"]}, 1, "rule", "camps.kind"),
])
def test_event_command_errors(request_, code, key, value):
    got, out = run_cli(["event"], json.dumps({"map": "sample", **request_}))
    assert got == code and out["error"][key] == value

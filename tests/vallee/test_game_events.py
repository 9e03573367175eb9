"""Golden scenes on the sample valley: every event card applied to a game (rules «Texte des
cartes événement»; gaps V7–V24 and the game-model rulings G1–G8 of docs/rulings-vallee.md)."""

from __future__ import annotations

import pytest

from vallee.core import IllegalRequest
from vallee.events import CARDS, deck

from .game_scenes import pawns, play, scene, types

RED_CAVE = {"pawns": {"0,-3": [2, 1]}, "camps": {"0,-3": "cave"}}
BLUE_VILLAGE = {"pawns": {"0,1": [3, 2]}, "camps": {"0,1": "village"}}


def winter(**kw):
    kw.setdefault("turn", 3)
    return scene({"red": kw.pop("red", RED_CAVE), "blue": kw.pop("blue", BLUE_VILLAGE)}, **kw)


def summer(**kw):
    kw.setdefault("turn", 6)
    return scene({"red": kw.pop("red", RED_CAVE), "blue": kw.pop("blue", BLUE_VILLAGE)}, **kw)


@pytest.mark.parametrize("card", sorted(CARDS))
def test_every_card_of_both_decks_does_something_to_the_game(card):
    game = (winter if card in deck("winter") else summer)(fire_rules=True, red={**RED_CAVE, "fire": True})
    before = game.to_json()
    events = play(game, {"kind": "card", "card": card})
    after = game.to_json()
    changed = [k for k in ("markers", "tribes", "held", "lasting", "animals") if before[k] != after[k]]
    assert changed or len(events) > 1 or game.pending()["step"] != "arrivals", card


def test_the_card_asked_is_the_season_deck_and_a_card_not_in_it_is_refused():
    game = winter()
    assert game.pending()["kind"] == "card" and game.pending()["deck"] == "winter"
    with pytest.raises(IllegalRequest) as refused:
        game.copy().apply({"kind": "card", "card": "bonnes_pluies"})
    assert refused.value.rule == "phase.events"


def test_avalanches_kill_the_region_animals_and_one_human_per_cell_picked_by_its_owner():
    game = winter(red={"pawns": {"0,-2": [2, 1]}}, animals=[("bear", "0,-2", 1), ("wolf", "0,-3", 2)])
    play(game, {"kind": "card", "card": "avalanches"}, {"kind": "roll", "dice": [1]})
    assert not game.animals and len(game.bag) == 54
    ask = game.pending()
    assert (ask["kind"], ask["player"], ask["cell"]) == ("lose", "red", "0,-2")
    play(game, {"kind": "lose", "pawn": "woman"})
    assert pawns(game, "red") == {"0,-2": (2, 0)}


def test_blizzard_stops_every_human_and_takes_fire_from_everyone():
    game = winter(fire_rules=True, red={**RED_CAVE, "fire": True})
    events = play(game, {"kind": "card", "card": "blizzard"})
    assert game.markers.move_limit == 0 and not game.tribes["red"].fire
    assert "fire" in types(events)


def test_snowfall_spares_cave_cells_closes_the_mountains_and_a_fire_holder_who_lost_a_pawn_rolls():
    game = winter(
        fire_rules=True, red={"pawns": {"0,-3": [2, 1], "0,-2": [2, 0]}, "camps": {"0,-3": "cave"}, "fire": True}
    )
    play(game, {"kind": "card", "card": "chutes_de_neige"})
    assert pawns(game, "red") == {"0,-3": (2, 1), "0,-2": (1, 0)}
    assert (0, -2) in game.markers.closed and (0, -2) in game.markers.frozen_cells
    assert game.pending()["step"] == "fire_roll"
    play(game, {"kind": "roll", "dice": [5]})
    assert not game.tribes["red"].fire


def test_an_eruption_burns_the_volcanoes_kills_on_the_lava_and_lets_fire_be_taken_there():
    game = winter(
        fire_rules=True,
        red={"pawns": {"0,-3": [2, 1], "1,-2": [1, 0], "2,-2": [1, 1]}, "camps": {"0,-3": "cave"}},
        animals=[("bear", "2,-1", 1)],
    )
    play(game, {"kind": "card", "card": "eruption"})
    assert (1, -2) in game.markers.burning and (2, -2) in game.markers.lava and (2, -2) not in game.closed_cells()
    assert not game.animals
    play(game, {"kind": "lose", "pawn": "warrior"})
    assert pawns(game, "red") == {"0,-3": (2, 1), "2,-2": (0, 1)}


def test_a_frozen_river_is_rerolled_until_a_river_is_picked_and_freezes_the_lake_it_joins():
    game = winter()
    events = play(game, {"kind": "card", "card": "fleuve_gele"}, {"kind": "roll", "dice": [5]})
    assert "reroll" in types(events) and game.pending()["step"] == "event_die"
    events = play(game, {"kind": "roll", "dice": [1]})
    assert game.markers.frozen_rivers == {1}
    assert [e for e in events if e["type"] == "river_frozen"][0]["lake"] is True
    assert game.lasting == [("fleuve_gele", "winter")]


def test_froidure_makes_everyone_eat_one_and_a_half():
    game = winter()
    play(game, {"kind": "card", "card": "froidure"})
    assert game.markers.cold_snap


def test_a_long_winter_holds_the_marker_and_moves_the_end_of_season_phases_to_the_extra_turn():
    game = winter(turn=5)
    assert [s["step"] for s in game.agenda if s["step"] in ("births_all", "sowing_all", "trick_draw")] == [
        "births_all",
        "sowing_all",
        "trick_draw",
    ]
    play(game, {"kind": "card", "card": "hiver_long"})
    assert game.held == [5] and not game.info.ends_season
    assert not [s for s in game.agenda if s["step"] in ("births_all", "sowing_all", "trick_draw")]


@pytest.mark.parametrize("card, wolves", [("horde_4", 4), ("horde_3", 3)])
def test_a_wolf_horde_arrives_on_the_cell_of_the_token_drawn_which_goes_back(card, wolves):
    game = winter()
    play(game, {"kind": "card", "card": card}, {"kind": "tokens", "tokens": [{"species": "bear", "letter": "D"}]})
    [horde] = game.animals.values()
    assert (horde.species, horde.cell, horde.count) == ("wolf", (3, -3), wolves)
    assert ("bear", "D") in game.bag and game.wolves_reserve == 8 - wolves


def test_a_horde_short_of_free_wolves_places_what_is_left():
    game = winter()
    game.wolves_reserve = 2
    play(game, {"kind": "card", "card": "horde_4"}, {"kind": "tokens", "tokens": [{"species": "bear", "letter": "D"}]})
    assert [a.count for a in game.animals.values()] == [2] and game.wolves_reserve == 0


def test_a_cave_bear_rerolls_a_region_without_a_cave_then_fights_without_the_cave_bonus():
    game = winter()
    play(game, {"kind": "card", "card": "ours_des_cavernes"}, {"kind": "roll", "dice": [3]})
    assert game.pending()["step"] == "event_die"
    play(game, {"kind": "roll", "dice": [1]})
    ask = game.pending()
    assert (ask["step"], ask["sides"]) == ("fight", ["red", "animals"])
    events = play(game, {"kind": "roll", "dice": [3, 4]})  # red 3+2 (no cave bonus) vs bear 4+1: tie
    assert game.pending()["kind"] == "roll"
    events = play(game, {"kind": "roll", "dice": [6, 1]})
    assert game.tribes["red"].food == 15 and not game.animals
    assert [e["winner"] for e in events if e["type"] == "fight"] == ["red"]


def test_the_solitaire_is_drawn_by_a_die_when_both_are_free_and_joins_the_first_tribe_it_meets():
    game = winter(blue={"pawns": {"1,1": [1, 0]}})
    play(
        game,
        {"kind": "card", "card": "solitaire"},
        {"kind": "roll", "dice": [2]},
        {"kind": "tokens", "tokens": [{"species": "rhino", "letter": "e"}]},
    )
    assert game.neutrals == [{"cell": (2, 1), "sex": "woman"}]
    play(game, {"kind": "tokens", "tokens": [{"species": "bison", "letter": "a"}]})  # arrivals
    play(game, {"kind": "roll", "dice": [3]})  # the animals and the solitaire go west: 2,1 → 1,1
    assert game.neutrals == [] and pawns(game, "blue") == {"1,1": (1, 1)}


def test_storms_limit_moves_to_one_cell_and_fire_holders_roll_to_keep_it():
    game = winter(fire_rules=True, red={**RED_CAVE, "fire": True})
    play(game, {"kind": "card", "card": "tempete"})
    assert game.markers.move_limit == 1
    play(game, {"kind": "roll", "dice": [3]})
    assert game.tribes["red"].fire
    game = winter(fire_rules=True, red={**RED_CAVE, "fire": True})
    play(game, {"kind": "card", "card": "tempete"}, {"kind": "roll", "dice": [4]})
    assert not game.tribes["red"].fire


def test_lean_meat_lasts_the_winter_and_rare_meat_stops_this_turns_arrivals():
    game = winter()
    play(game, {"kind": "card", "card": "viande_maigre"})
    assert game.markers.lean_meat and game.lasting == [("viande_maigre", "winter")]
    game = winter()
    events = play(game, {"kind": "card", "card": "viande_rare"})
    assert "no_arrivals" in types(events) and game.pending()["step"] == "animal_die"


def test_a_mild_autumn_holds_the_summer_marker():
    game = summer(turn=8)
    play(game, {"kind": "card", "card": "automne_clement"})
    assert game.held == [8] and not game.info.harvest


def test_good_rains_raise_this_years_harvest_and_end_a_drought():
    game = summer(turn=8, markers={"drought": True})
    game.lasting.append(("secheresse", "summer"))
    play(game, {"kind": "card", "card": "bonnes_pluies"})
    assert game.markers.good_rains and not game.markers.drought
    assert "secheresse" in game.discards["summer"]


def test_an_epidemic_takes_a_woman_from_every_tribe_on_the_cell_each_owner_picks():
    game = summer(red={"pawns": {"0,-3": [2, 1], "0,-2": [0, 1]}, "camps": {"0,-3": "cave"}})
    play(game, {"kind": "card", "card": "epidemie"}, {"kind": "roll", "dice": [2]})
    ask = game.pending()
    assert (ask["kind"], ask["player"], ask["options"]) == ("lose", "red", ["0,-3", "0,-2"])
    play(game, {"kind": "lose", "cell": "0,-2"})
    assert pawns(game, "red") == {"0,-3": (2, 1)} and pawns(game, "blue") == {"0,1": (3, 1)}


def test_an_epizootic_clears_the_species_drawn_and_its_arrivals_this_turn():
    game = summer(animals=[("bison", "2,0", 2), ("wolf", "3,0", 1)])
    play(
        game, {"kind": "card", "card": "epizootie"}, {"kind": "tokens", "tokens": [{"species": "bison", "letter": "k"}]}
    )
    assert [a.species for a in game.animals.values()] == ["wolf"]
    events = play(
        game,
        {
            "kind": "tokens",
            "tokens": [
                {"species": "bison", "letter": "a"},
                {"species": "tiger", "letter": "c"},
                {"species": "bear", "letter": "h"},
            ],
        },
    )
    refused = [e for e in events if e["type"] == "arrival_refused"]
    assert [(e["species"], e["why"]) for e in refused] == [("bison", "removed")]
    assert ("bison", "a") in game.bag


def test_a_forest_fire_burns_the_region_kills_every_piece_there_and_a_village_goes():
    game = summer(
        blue={"pawns": {"1,1": [2, 1], "0,1": [1, 1]}, "camps": {"1,1": "village"}}, animals=[("tiger", "2,1", 1)]
    )
    play(game, {"kind": "card", "card": "incendie_de_foret"}, {"kind": "roll", "dice": [4]})
    assert game.markers.burning == {(1, 0), (1, 1), (2, 1)}
    assert pawns(game, "blue") == {"0,1": (1, 1)} and not game.tribes["blue"].camps and not game.animals


def test_a_flood_closes_the_banks_destroys_villages_and_fields_and_a_swimmer_survives():
    game = summer(
        red={"pawns": {"-1,1": [2, 1], "-2,2": [1, 1]}, "camps": {"-1,1": "village"}},
        fields={"-1,1": "intact"},
        animals=[("bison", "-1,2", 1)],
        hands={"red": ["nage"]},
    )
    play(game, {"kind": "card", "card": "inondation"}, {"kind": "roll", "dice": [3]})
    assert game.markers.flooded == {(-1, 1), (-2, 2), (-1, 2), (-2, 3), (-1, 3)}
    assert not game.tribes["red"].camps and not game.fields and not game.animals
    ask = game.pending()
    assert (ask["kind"], ask["cell"]) == ("lose", "-1,1") and {"player": "red", "card": "nage"} in ask["tricks"]
    play(game, {"kind": "trick", "player": "red", "card": "nage"})
    assert game.pending()["cell"] == "-2,2"
    play(game, {"kind": "lose", "pawn": "woman"})
    assert pawns(game, "red") == {"-1,1": (2, 1), "-2,2": (1, 0)}
    assert (-1, 1) in game.markers.frozen_cells


def test_storms_in_summer_end_a_drought_and_let_tribes_without_fire_find_it():
    game = summer(fire_rules=True, red={**RED_CAVE, "fire": True}, markers={"drought": True})
    play(game, {"kind": "card", "card": "orages"})
    assert not game.markers.drought and game.markers.move_limit == 1
    play(game, {"kind": "roll", "dice": [3]}, {"kind": "roll", "dice": [2]})
    assert not game.tribes["red"].fire and game.tribes["blue"].fire


def test_rodents_eat_two_food_per_village_and_spare_caves():
    game = summer()
    play(game, {"kind": "card", "card": "rongeurs"})
    assert (game.tribes["red"].food, game.tribes["blue"].food) == (12, 10)


def test_locusts_damage_the_fields_of_the_region_and_halve_everyones_food():
    game = summer(fields={"0,1": "intact", "0,2": "damaged"}, red={**RED_CAVE, "food": 7})
    play(game, {"kind": "card", "card": "sauterelles"}, {"kind": "roll", "dice": [4]})
    assert game.fields == {(0, 1): {"state": "damaged", "palisade": False, "owner": "blue"}}
    assert (game.tribes["red"].food, game.tribes["blue"].food) == (4, 6)


def test_a_drought_damages_fields_and_stops_fishing_until_the_end_of_summer():
    game = summer(fields={"0,1": "intact"})
    play(game, {"kind": "card", "card": "secheresse"}, {"kind": "roll", "dice": [4]})
    assert game.markers.drought and game.fields[(0, 1)]["state"] == "damaged"
    assert game.lasting == [("secheresse", "summer")]


def test_an_earthquake_kills_animals_in_the_mountain_and_around_it_and_one_human_per_cell():
    game = summer(
        red={"pawns": {"0,-3": [2, 1], "-1,-1": [1, 0]}, "camps": {"0,-3": "cave"}},
        animals=[("bison", "-1,-1", 1), ("bear", "1,-3", 1), ("wolf", "3,0", 1)],
    )
    play(game, {"kind": "card", "card": "tremblement_de_terre"}, {"kind": "roll", "dice": [1]})
    assert [a.species for a in game.animals.values()] == ["wolf"]
    play(game, {"kind": "lose", "pawn": "woman"})
    assert pawns(game, "red") == {"0,-3": (2, 0)}


@pytest.mark.parametrize("card", ["eruption_ete", "solitaire_ete"])
def test_the_summer_copies_act_as_the_winter_ones(card):
    game = summer()
    events = play(game, {"kind": "card", "card": card})
    assert events[0]["card"] == card and game.pending()["step"] in ("solitaire_sex", "arrivals")


def test_an_empty_deck_is_remade_from_its_discards():
    game = winter()
    game.discards["winter"] = list(game.decks["winter"])
    game.decks["winter"] = []
    events = play(game, {"kind": "card", "card": "froidure"})
    assert "reshuffled" in types(events) and "froidure" not in game.decks["winter"]

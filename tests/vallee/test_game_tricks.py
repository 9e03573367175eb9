"""Golden scenes on the sample valley: each trick card played in a game at its moment
(rules «Texte des cartes astuces»; gaps V53, V64–V70; rulings G9–G12)."""

from __future__ import annotations

import pytest

from vallee.core import IllegalRequest

from .game_scenes import pawns, play, scene, types


def trick(player, card, **choices):
    return {"kind": "trick", "player": player, "card": card, **choices}


def offered(game, player, card) -> bool:
    return any(t["player"] == player and t["card"] == card for t in game.pending()["tricks"])


#: Blue far away, with less food than red: red plays first.
BLUE = {"pawns": {"-3,3": [1, 0]}, "food": 1}
#: Red's pawns elsewhere, so that red outnumbers blue and plays first.
RED_HOME = {"-3,0": [3, 0]}


def moving(red, blue=None, hands=None, **kw):
    """Red moves first (turn 3, winter unless ``turn`` says otherwise)."""
    return scene({"red": red, "blue": blue or BLUE}, stop="order", hands=hands or {}, **{"turn": 3, **kw})


def fighting(red, blue=None, hands=None, **kw):
    return scene({"red": red, "blue": blue or BLUE}, stop="combat", hands=hands or {}, **{"turn": 3, **kw})


def test_a_card_is_played_only_at_its_moment_by_a_player_who_holds_it():
    game = moving({"pawns": {"0,1": [2, 1]}}, hands={"red": ["filet", "pont"]})
    assert not offered(game, "red", "filet")
    with pytest.raises(IllegalRequest) as refused:
        game.copy().apply(trick("red", "filet"))
    assert refused.value.rule == "trick.filet"
    with pytest.raises(IllegalRequest):
        game.copy().apply({"kind": "move", "from": "0,1", "path": ["0,2"], "warriors": 1, "cards": ["radeau"]})


# -- movement ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["pont", "nage", "troncs_d_arbre", "radeau"])
def test_a_bridge_card_crosses_one_river_and_ends_the_move(card):
    game = moving({"pawns": {"-1,1": [2, 0]}}, hands={"red": [card]})
    with pytest.raises(IllegalRequest):
        game.copy().apply({"kind": "move", "from": "-1,1", "path": ["-2,2"], "warriors": 2})
    play(game, {"kind": "move", "from": "-1,1", "path": ["-2,2"], "warriors": 2, "cards": [card]})
    assert pawns(game, "red") == {"-2,2": (2, 0)} and game.tribes["red"].hand == []
    assert card in game.trick_discards


def test_the_raft_crosses_the_lake_to_another_shore():
    game = moving({"pawns": {"0,1": [1, 0]}}, hands={"red": ["radeau"]})
    play(game, {"kind": "move", "from": "0,1", "path": ["0,0", "0,-1"], "warriors": 1, "cards": ["radeau"]})
    assert pawns(game, "red") == {"0,-1": (1, 0)}


@pytest.mark.parametrize("card", ["endurance", "marche_forcee"])
def test_a_long_march_goes_three_cells(card):
    game = moving({"pawns": {"0,1": [1, 0]}}, hands={"red": [card]})
    play(game, {"kind": "move", "from": "0,1", "path": ["0,2", "0,3", "-1,3"], "warriors": 1, "cards": [card]})
    assert pawns(game, "red") == {"-1,3": (1, 0)}


def test_camouflage_passes_through_an_occupied_cell_and_fuite_leaves_a_pinned_cell():
    game = moving(
        {"pawns": {"0,1": [1, 0], **RED_HOME}}, blue={"pawns": {"0,2": [3, 0]}}, hands={"red": ["camouflage"]}
    )
    play(game, {"kind": "move", "from": "0,1", "path": ["0,2", "0,3"], "warriors": 1, "cards": ["camouflage"]})
    assert pawns(game, "red") == {"0,3": (1, 0), "-3,0": (3, 0)}
    game = moving({"pawns": {"2,0": [1, 0]}}, hands={"red": ["fuite"]}, animals=[("bison", "2,0", 2)])
    with pytest.raises(IllegalRequest):
        game.copy().apply({"kind": "move", "from": "2,0", "path": ["3,0"], "warriors": 1})
    play(game, {"kind": "move", "from": "2,0", "path": ["3,0"], "warriors": 1, "cards": ["fuite"]})
    assert pawns(game, "red") == {"3,0": (1, 0)}


def test_the_war_drum_pushes_the_animals_of_the_entered_cell_ahead():
    game = moving({"pawns": {"0,1": [2, 0]}}, hands={"red": ["tambour_de_guerre"]}, animals=[("bison", "1,1", 1)])
    play(game, {"kind": "move", "from": "0,1", "path": ["1,1"], "warriors": 2, "cards": ["tambour_de_guerre"]})
    assert [a.cell for a in game.animals.values()] == [(2, 1)] and pawns(game, "red") == {"1,1": (2, 0)}


def test_pacs_lets_two_warriors_found_a_camp_kept_until_the_next_turn():
    game = moving({"pawns": {"0,2": [2, 0], "0,-3": [1, 1]}, "camps": {"0,-3": "cave"}}, hands={"red": ["pacs"]})
    with pytest.raises(IllegalRequest):
        game.copy().apply({"kind": "found_camp", "cell": "0,2"})
    play(game, {"kind": "found_camp", "cell": "0,2", "card": "pacs"})
    assert game.tribes["red"].camps[(0, 2)] == "village" and (0, 2) in game.tribes["red"].pacs


def test_coup_de_foudre_takes_an_enemy_of_the_other_sex_from_next_door():
    game = moving(
        {"pawns": {"0,1": [1, 0], **RED_HOME}}, blue={"pawns": {"0,2": [1, 1]}}, hands={"red": ["coup_de_foudre"]}
    )
    play(game, trick("red", "coup_de_foudre", cell="0,1", target="0,2", **{"from": "blue"}, pawn="woman"))
    assert pawns(game, "red") == {"0,1": (1, 1), "-3,0": (3, 0)} and pawns(game, "blue") == {"0,2": (1, 0)}


@pytest.mark.parametrize("steal, fire_rules", [("food", False), ("fire", True)])
def test_vol_steals_four_food_or_the_fire_of_a_tribe_with_a_camp_next_door(steal, fire_rules):
    game = moving(
        {"pawns": {"0,1": [1, 0], "-3,0": [2, 1]}, "camps": {"-3,0": "village"}, "food": 2},
        fire_rules=fire_rules,
        blue={"pawns": {"0,2": [1, 1]}, "camps": {"0,2": "village"}, "food": 3, "fire": fire_rules},
        hands={"red": ["vol"]},
    )
    play(game, trick("red", "vol", cell="0,1", steal=steal, **{"from": "blue"}))
    if steal == "food":
        assert (game.tribes["red"].food, game.tribes["blue"].food) == (5, 0)
    else:
        assert not game.tribes["blue"].fire and game.tribes["red"].fire


def test_a_rockfall_buries_a_neighbouring_cell_and_an_arsonist_burns_a_forest_in_summer():
    game = moving(
        {"pawns": {"0,-2": [1, 0], **RED_HOME}},
        blue={"pawns": {"-1,-1": [2, 1]}},
        hands={"red": ["chute_de_pierre"]},
        animals=[("wolf", "-1,-1", 1)],
    )
    play(game, trick("red", "chute_de_pierre", cell="0,-2", target="-1,-1"))
    assert not game.tribes["blue"].pawns and not game.animals
    game = moving(
        {"pawns": {"0,1": [1, 0], **RED_HOME}}, blue={"pawns": {"1,1": [2, 1]}}, hands={"red": ["incendiaire"]}, turn=6
    )
    play(game, trick("red", "incendiaire", cell="0,1", target="1,1"))
    assert not game.tribes["blue"].pawns and (1, 1) in game.markers.burning


# -- after the animals, the animal phase -------------------------------------------------------------------


def after_animals(red, hands, **kw):
    return scene({"red": red, "blue": BLUE}, stop="after_animals", hands=hands, **{"turn": 3, **kw})


def test_the_moment_after_the_animals_is_asked_only_when_someone_holds_a_card_for_it():
    game = after_animals({"pawns": {"0,1": [1, 0]}}, {"red": ["filet"]})
    assert game.pending()["step"] == "movement"
    game = after_animals({"pawns": {"0,1": [1, 0]}}, {"red": ["louveteau"]})
    assert game.pending()["kind"] == "pass"
    play(game, {"kind": "pass"})
    assert game.pending()["step"] == "movement"


def test_a_wild_child_joins_a_forest_village_and_a_family_visits_on_a_drawn_token():
    game = after_animals(
        {"pawns": {"1,1": [1, 1]}, "camps": {"1,1": "village"}}, {"red": ["enfant_sauvage", "visite_de_famille"]}
    )
    play(game, trick("red", "enfant_sauvage", cell="1,1", pawn="woman"))
    play(game, trick("red", "visite_de_famille", tokens=[{"species": "mammoth", "letter": "f"}]))
    assert pawns(game, "red") == {"1,1": (1, 2), "1,2": (1, 1)} and ("mammoth", "f") in game.bag


def test_a_tamed_wolf_fights_with_its_tribe_and_goes_wild_when_left_alone():
    game = after_animals({"pawns": {"0,1": [1, 0]}}, {"red": ["louveteau"]}, animals=[("wolf", "0,1", 1)])
    play(game, trick("red", "louveteau", cell="0,1"))
    assert game.tribes["red"].wolf == (0, 1) and not game.animals
    play(game, {"kind": "move", "from": "0,1", "path": ["0,2"], "warriors": 1})  # no card left: no pause
    assert game.tribes["red"].wolf is None and [a.cell for a in game.animals.values()] == [(0, 1)]


def test_the_war_drum_after_the_animals_drives_them_one_cell_where_they_may_step():
    game = after_animals({"pawns": {"0,1": [1, 0]}}, {"red": ["tambour_de_guerre"]}, animals=[("bison", "0,1", 2)])
    with pytest.raises(IllegalRequest):
        game.copy().apply(trick("red", "tambour_de_guerre", cell="0,1", direction="NW"))  # the lake
    play(game, trick("red", "tambour_de_guerre", cell="0,1", direction="SE"))
    assert [(a.cell, a.count) for a in game.animals.values()] == [((0, 2), 2)]


def test_a_palisade_keeps_a_field_from_being_trampled():
    game = scene(
        {"red": {"pawns": {"0,-3": [1, 1]}, "camps": {"0,1": "village"}}, "blue": {"pawns": {"-3,3": [1, 0]}}},
        stop="animal_die",
        hands={"red": ["palissade"]},
        fields={"0,1": "intact"},
        animals=[("bison", "1,1", 1)],
    )
    play(game, trick("red", "palissade", cell="0,1"), {"kind": "roll", "dice": [3]})
    assert game.fields[(0, 1)] == {"state": "intact", "palisade": True, "owner": "red"}


# -- combat --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("card, bonus", [("pierre_taillee", 2), ("propulseur", 2), ("silax", 1)])
def test_a_combat_card_adds_to_every_roll(card, bonus):
    game = fighting({"pawns": {"2,0": [1, 0]}}, hands={"red": [card]}, animals=[("bison", "2,0", 1)])
    play(game, trick("red", card))
    events = play(game, {"kind": "roll", "dice": [3, 3]})
    fight = [e for e in events if e["type"] == "fight"][0]
    assert fight["rolls"][0]["bonus"]["red"] == 1 + bonus and fight["winner"] == "red"


def test_torches_need_fire_and_give_two_against_animals():
    game = fighting(
        {"pawns": {"2,0": [1, 0]}, "fire": True, "camps": {}},
        hands={"red": ["torches"]},
        animals=[("bison", "2,0", 1)],
        fire_rules=True,
    )
    assert offered(game, "red", "torches")
    play(game, trick("red", "torches"))
    events = play(game, {"kind": "roll", "dice": [3, 5]})
    assert [e for e in events if e["type"] == "fight"][0]["rolls"][0]["bonus"]["red"] == 1 + 1 + 2
    game = fighting(
        {"pawns": {"2,0": [1, 0]}}, hands={"red": ["torches"]}, animals=[("bison", "2,0", 1)], fire_rules=True
    )
    assert not offered(game, "red", "torches")


def test_traps_beat_the_animals_without_a_fight_and_give_their_food():
    game = fighting({"pawns": {"2,0": [1, 0]}, "food": 0}, hands={"red": ["pieges"]}, animals=[("bison", "2,0", 2)])
    play(game, trick("red", "pieges"))
    assert not game.animals and game.tribes["red"].food == 8 and pawns(game, "red") == {"2,0": (1, 0)}


def test_strong_heads_let_women_fight_as_warriors():
    game = fighting({"pawns": {"2,0": [0, 2]}}, hands={"red": ["fortes_tetes"]}, animals=[("bison", "2,0", 1)])
    play(game, trick("red", "fortes_tetes"))
    events = play(game, {"kind": "roll", "dice": [4, 3]})
    assert [e for e in events if e["type"] == "fight"][0]["rolls"][0]["bonus"]["red"] == 2
    assert pawns(game, "red") == {"2,0": (0, 2)}


def test_climbing_trees_hides_from_the_fight_and_the_village_there_is_lost():
    game = fighting(
        {"pawns": {"1,1": [1, 1]}, "camps": {"1,1": "village"}},
        hands={"red": ["grimper_aux_arbres"]},
        animals=[("tiger", "1,1", 3)],
    )
    play(game, trick("red", "grimper_aux_arbres"))
    assert pawns(game, "red") == {"1,1": (1, 1)} and not game.tribes["red"].camps
    assert game.animals["tiger@1,1"].count == 3 and game.pending()["step"] != "fight"


def test_fleeing_a_fight_against_a_tribe_and_winning_a_lone_warrior_over():
    game = fighting({"pawns": {"0,2": [1, 0]}}, blue={"pawns": {"0,2": [4, 0]}}, hands={"red": ["fuite"]})
    play(game, trick("red", "fuite", to="0,3"))
    assert pawns(game, "red") == {"0,3": (1, 0)} and pawns(game, "blue") == {"0,2": (4, 0)}
    game = fighting({"pawns": {"0,2": [2, 0]}}, blue={"pawns": {"0,2": [1, 0]}}, hands={"red": ["ami"]})
    play(game, trick("red", "ami"))
    assert pawns(game, "red") == {"0,2": (3, 0)} and not game.tribes["blue"].pawns


def test_a_lure_brings_one_animal_from_next_door_onto_the_group():
    game = fighting(
        {"pawns": {"2,0": [1, 0], "0,2": [1, 0]}},
        hands={"red": ["appeau"]},
        animals=[("bison", "2,0", 1), ("wolf", "1,2", 2)],
    )
    play(game, trick("red", "appeau", cell="0,2", species="wolf", **{"from": "1,2"}))
    assert {(a.cell, a.count) for a in game.animals.values()} == {((2, 0), 1), ((1, 2), 1), ((0, 2), 1)}


def test_cannibals_get_a_food_per_enemy_killed_and_scorched_earth_destroys_the_camp_just_taken():
    game = fighting(
        {"pawns": {"0,1": [3, 0]}, "food": 0},
        blue={
            "pawns": {"0,1": [1, 1], "-3,3": [1, 1]},
            "camps": {"0,1": "village", "-3,3": "cave"},
            "fire": True,
            "food": 0,
        },
        fire_rules=True,
        hands={"red": ["cannibales"], "blue": ["terre_brulee"]},
        fields={"0,1": "intact"},
    )
    play(game, trick("red", "cannibales"), {"kind": "roll", "dice": [6, 1]})
    assert game.tribes["red"].food == 1 and game.tribes["red"].fire  # a fire holder's camp gives fire
    assert offered(game, "blue", "terre_brulee")
    play(game, trick("blue", "terre_brulee"))
    assert pawns(game, "red") == {"0,1": (3, 0)} and not game.tribes["red"].camps and not game.fields


# -- survival, sowing, births --------------------------------------------------------------------------------------


def test_a_net_doubles_fishing_roots_gather_in_winter_and_manure_raises_the_harvest():
    game = scene(
        {"red": {"pawns": {"1,0": [1, 0]}, "food": 0}, "blue": {"pawns": {"-3,3": [1, 0]}}},
        stop="survival_all",
        hands={"red": ["filet", "racines"]},
    )
    play(game, trick("red", "filet"), trick("red", "racines"))  # no card left: survival runs on
    assert game.tribes["red"].food == 2 + 1 - 1
    game = scene(
        {"red": {"pawns": {"0,1": [1, 0]}, "camps": {}, "food": 0}, "blue": {"pawns": {"-3,3": [1, 0]}}},
        turn=8,
        stop="survival_all",
        hands={"red": ["engrais_naturel"]},
        fields={"0,1": "damaged"},
    )
    play(game, trick("red", "engrais_naturel"))
    assert game.tribes["red"].food == 1 + 8 - 1


def test_late_sowing_after_the_first_summer_survival_and_terraces_in_the_mountains():
    game = scene(
        {"red": {"pawns": {"0,1": [1, 1]}, "camps": {"0,1": "village"}}, "blue": {"pawns": {"-3,3": [1, 0]}}},
        turn=6,
        stop="late_sowing",
        hands={"red": ["semailles_tardives"]},
    )
    play(game, trick("red", "semailles_tardives", cell="0,1"))
    assert game.fields[(0, 1)]["owner"] == "red" and game.tribes["red"].food == 11
    game = scene(
        {"red": {"pawns": {"0,-3": [1, 1]}, "camps": {"0,-3": "cave"}}, "blue": {"pawns": {"-3,3": [1, 0]}}},
        turn=5,
        stop="sowing_all",
        hands={"red": ["terrasse"]},
    )
    assert game.pending()["options"] == []
    play(game, trick("red", "terrasse"))
    play(game, {"kind": "sow", "cells": ["0,-3"]})
    assert (0, -3) in game.fields


def test_birth_cards_more_births_in_villages_the_sex_chosen_a_birth_outside_a_camp_and_the_fever():
    game = scene(
        {
            "red": {"pawns": {"0,1": [1, 1], "0,2": [0, 1]}, "camps": {"0,1": "village"}},
            "blue": {"pawns": {"-3,3": [1, 2]}, "camps": {"-3,3": "cave"}},
        },
        turn=2,
        stop="births_all",
        hands={"red": ["herbes_de_fertilite", "comme_une_bete", "bonnes_herbes"], "blue": ["fievre_puerperale"]},
    )
    play(
        game,
        trick("red", "herbes_de_fertilite"),
        trick("red", "comme_une_bete", cell="0,2"),
        trick("red", "bonnes_herbes", cell="0,1", sex="woman"),
    )
    play(game, {"kind": "roll", "dice": [3]})
    assert pawns(game, "red") == {"0,1": (1, 3), "0,2": (1, 1)}
    play(game, {"kind": "roll", "dice": [1]}, {"kind": "roll", "dice": [1]})
    assert game.pending()["kind"] == "pass" and offered(game, "blue", "fievre_puerperale")
    play(
        game,
        trick(
            "blue", "fievre_puerperale", targets=[{"player": "red", "cell": "0,1"}, {"player": "red", "cell": "0,2"}]
        ),
    )
    assert pawns(game, "red") == {"0,1": (1, 2), "0,2": (1, 0)}


# -- any time ---------------------------------------------------------------------------------------------------


def test_silax_finds_fire_for_a_tribe_with_a_camp_and_spying_is_only_recorded():
    game = moving(
        {"pawns": {"0,-3": [1, 1]}, "camps": {"0,-3": "cave"}},
        fire_rules=True,
        hands={"red": ["silax", "espionnage", "intuition"]},
        random={"dice": "physical", "bag": "physical", "tricks": "physical", "events": "virtual"},
    )
    play(game, trick("red", "silax", use="fire"))
    assert game.tribes["red"].fire
    events = play(game, trick("red", "espionnage"), trick("red", "intuition"))
    assert types(events).count("trick") == 2 and "next_event" in types(events)

"""Golden scenes on the sample valley, phase by phase: setup, arrivals, the return, animals,
movement and camps, combat across cells, survival, births, sowing, the trick draw, the
end of turn and victory, the fire rules, undo and the journal."""

from __future__ import annotations

import os

import pytest

from vallee.core import BadRequest, IllegalRequest
from vallee.game import Game
from vallee.game_table import GameTable

from .game_scenes import pawns, play, scene, types


def physical(players=("red", "blue"), **kw):
    return Game.new({"players": list(players), "map": "sample", "random": "physical", **kw})


# -- setup ----------------------------------------------------------------------------------


def test_setup_draws_the_first_player_then_each_sets_up_clockwise_and_gets_five_cards():
    game = physical(("red", "blue", "green"))
    play(game, {"kind": "lot", "player": "blue"})
    assert game.pending()["player"] == "blue"
    play(game, {"kind": "place_camp", "cell": "0,1", "field": True})
    with pytest.raises(IllegalRequest) as refused:
        game.copy().apply({"kind": "place_camp", "cell": "1,1"})  # next to blue's camp, no river between
    assert refused.value.rule == "camps.spacing"
    play(game, {"kind": "place_camp", "cell": "0,-3"}, {"kind": "place_camp", "cell": "3,0"})
    assert pawns(game, "blue") == {"0,1": (5, 2)} and game.tribes["blue"].food == 11
    assert game.fields[(0, 1)]["state"] == "intact"
    assert [len(t.hand) for t in game.tribes.values()] == [5, 5, 5] and game.turn == 1
    assert game.tribes["red"].camps == {(3, 0): "village"} and game.tribes["green"].camps == {(0, -3): "cave"}


def test_five_players_get_four_cards_and_a_field_needs_a_plain():
    game = Game.new({"players": list("abcde"), "map": "sample", "seed": 3, "first": "a"})
    with pytest.raises(IllegalRequest):
        game.copy().apply({"kind": "place_camp", "cell": "1,1", "field": True})
    for cell in ("0,-3", "3,-3", "-3,0", "1,1", "-1,3"):
        play(game, {"kind": "place_camp", "cell": cell})
    assert {len(t.hand) for t in game.tribes.values()} == {4}


def test_a_virtual_roll_is_drawn_by_the_game_and_a_different_value_is_refused():
    game = Game.new({"players": ["red", "blue"], "map": "sample", "seed": 9})
    drawn = game.copy()
    drawn.apply({"kind": "lot"})
    other = "blue" if drawn.entries[-1]["player"] == "red" else "red"
    with pytest.raises(IllegalRequest) as refused:
        game.copy().apply({"kind": "lot", "player": other})
    assert refused.value.rule == "random.virtual"
    with pytest.raises(BadRequest):
        physical().apply({"kind": "lot"})


# -- arrivals, animals -----------------------------------------------------------------------


def test_arrivals_join_a_herd_of_their_species_and_a_closed_entry_cell_sends_the_token_back():
    game = scene(
        {"red": {"pawns": {"0,1": [2, 1]}}, "blue": {"pawns": {"0,-3": [2, 1]}}},
        turn=1,
        stop="arrivals",
        animals=[("bison", "-1,-2", 1)],
        markers={"flooded": {(3, 0)}},
    )
    assert game.pending()["count"] == 6
    events = play(
        game,
        {
            "kind": "tokens",
            "tokens": [
                {"species": "bison", "letter": "a"},
                {"species": "wolf", "letter": "A"},
                {"species": "rhino", "letter": "d"},
                {"species": "tiger", "letter": "c"},
                {"species": "bear", "letter": "h"},
                {"species": "mammoth", "letter": "b"},
            ],
        },
    )
    herd = [a for a in game.animals.values() if a.species == "bison"][0]
    assert (herd.cell, herd.count) == ((-1, -2), 2)
    assert [e["species"] for e in events if e["type"] == "arrival_refused"] == ["rhino"]
    assert ("rhino", "d") in game.bag


def test_a_token_the_bag_lacks_is_refused_unless_it_hides_in_a_herd_of_its_species():
    game = scene(
        {"red": {"pawns": {"0,1": [2, 1]}}, "blue": {"pawns": {"0,-3": [2, 1]}}},
        turn=3,
        stop="arrivals",
        animals=[("tiger", "2,0", 2)],
    )
    hidden = game.animals["tiger@2,0"].letters[0]
    play(game, {"kind": "tokens", "tokens": [{"species": "tiger", "letter": hidden}]})
    assert game.animals["tiger@2,0"].count == 2 and len([t for t in game.bag if t[0] == "tiger"]) == 6


def test_the_animal_die_moves_every_unit_forms_herds_and_tramples_fields():
    game = scene(
        {"red": {"pawns": {"-3,2": [2, 1]}}, "blue": {"pawns": {"3,-3": [2, 1]}}},
        turn=3,
        stop="animal_die",
        animals=[("wolf", "-1,2", 1), ("wolf", "0,2", 1), ("bison", "-1,1", 1)],
        fields={"0,1": "intact"},
    )
    events = play(game, {"kind": "roll", "dice": [4]})  # face 4: east on the sample's compass
    moved = [e for e in events if e["type"] == "animals_moved"][0]
    assert moved["direction"] == "E"
    assert [(m["from"], m["to"], m["stop"]) for m in moved["moves"]] == [
        ("-1,2", "1,2", "obstacle"),
        ("0,2", "1,2", "herd"),
        ("-1,1", "1,1", "range"),
    ]
    assert sorted((a.species, a.cell, a.count) for a in game.animals.values()) == [
        ("bison", (1, 1), 1),
        ("wolf", (1, 2), 2),
    ]
    assert game.fields[(0, 1)]["state"] == "damaged"


# -- movement, camps --------------------------------------------------------------------------


def movement_scene(**kw):
    return scene(
        {"red": {"pawns": {"0,1": [3, 2]}, "camps": {"0,1": "village"}}, "blue": {"pawns": {"2,0": [1, 0]}}},
        turn=3,
        stop="order",
        **kw,
    )


def test_a_player_moves_groups_founds_a_camp_and_says_done_in_turn_order():
    game = movement_scene()
    ask = game.pending()
    assert (ask["kind"], ask["player"], ask["options"]["groups"]) == ("move", "red", {"0,1": [3, 2]})
    play(game, {"kind": "move", "from": "0,1", "path": ["0,2"], "warriors": 1, "women": 1})
    assert game.pending()["options"]["camps"] == []  # the couple moved: no camp this turn (gap V40)
    assert game.pending()["options"]["groups"] == {"0,1": [2, 1]}
    play(game, {"kind": "done"})
    assert game.pending()["player"] == "blue"


def test_destinations_list_every_legal_end_of_a_group_with_its_shortest_path():
    game = movement_scene()
    reach = game.destinations("0,1", 1, 1)
    assert reach["0,2"] == ["0,2"] and reach["2,0"] == ["1,1", "2,0"]    # blue's warrior there: contact
    assert "0,0" not in reach and "3,0" not in reach                     # the lake; beyond the contact
    for end, path in reach.items():
        game.copy().apply({"kind": "move", "from": "0,1", "path": path, "warriors": 1, "women": 1})
    rafting = game.destinations("0,1", 1, 0, ["radeau"])
    assert rafting["0,-1"] == ["0,0", "0,-1"] and "0,-1" not in reach


def test_an_illegal_move_names_the_rule_and_changes_nothing():
    game = movement_scene()
    before = game.to_json()
    with pytest.raises(IllegalRequest) as refused:
        game.copy().apply({"kind": "move", "from": "0,1", "path": ["0,0"], "warriors": 1, "women": 0})
    assert refused.value.rule == "tribes.lake" and game.to_json() == before
    with pytest.raises(IllegalRequest) as refused:
        game.copy().apply({"kind": "move", "from": "0,1", "path": ["0,2", "0,3", "1,2"], "warriors": 1})
    assert refused.value.rule == "tribes.steps"


def test_a_couple_that_has_not_moved_founds_a_camp_on_a_free_cell():
    game = scene(
        {
            "red": {"pawns": {"0,1": [3, 2], "0,2": [1, 1]}, "camps": {"0,1": "village"}},
            "blue": {"pawns": {"-3,3": [1, 0]}},
        },
        turn=3,
        stop="order",
    )
    assert game.pending()["options"]["camps"] == ["0,2"]
    events = play(game, {"kind": "found_camp", "cell": "0,2"})
    assert game.tribes["red"].camps[(0, 2)] == "village" and "camp_founded" in types(events)
    with pytest.raises(IllegalRequest):
        game.copy().apply({"kind": "move", "from": "0,2", "path": ["0,3"], "warriors": 1, "women": 1})


def test_moving_the_last_woman_out_abandons_the_camp_with_a_warning():
    game = scene(
        {
            "red": {"pawns": {"0,1": [1, 1], "0,-3": [1, 0]}, "camps": {"0,1": "village"}},
            "blue": {"pawns": {"-3,3": [1, 0]}},
        },
        turn=3,
        stop="order",
    )
    events = play(game, {"kind": "move", "from": "0,1", "path": ["0,2"], "warriors": 0, "women": 1})
    assert "warning" in types(events) and not game.tribes["red"].camps


# -- combat --------------------------------------------------------------------------------------


def test_tribes_fight_first_the_loser_camp_is_taken_with_a_quarter_of_his_food_and_kept():
    game = scene(
        {
            "red": {"pawns": {"0,1": [1, 0]}, "food": 10},
            "blue": {"pawns": {"0,1": [1, 2], "0,-3": [1, 1]}, "camps": {"0,1": "village", "0,-3": "cave"}, "food": 9},
        },
        turn=3,
        stop="combat",
    )
    ask = game.pending()
    assert (ask["kind"], ask["sides"]) == ("roll", ["red", "blue"])
    play(game, {"kind": "roll", "dice": [6, 1]})  # red 6+1 against blue 1+1+1 (own village)
    ask = game.pending()
    assert (ask["kind"], ask["player"], ask["options"]) == ("camp_taken", "red", ["keep", "burn"])
    assert (game.tribes["red"].food, game.tribes["blue"].food) == (12, 7)
    play(game, {"kind": "camp_taken", "choice": "keep"})
    assert pawns(game, "red") == {"0,1": (1, 2)} and game.tribes["red"].camps == {(0, 1): "village"}


def test_women_alone_facing_warriors_are_captured_without_a_roll_and_the_last_camp_costs_half():
    game = scene(
        {
            "red": {"pawns": {"0,1": [2, 0]}, "food": 0},
            "blue": {"pawns": {"0,1": [0, 2]}, "camps": {"0,1": "village"}, "food": 9},
        },
        turn=3,
        stop="combat",
    )
    assert game.pending()["kind"] == "camp_taken"
    assert (game.tribes["red"].food, game.tribes["blue"].food) == (4, 5)
    play(game, {"kind": "camp_taken", "choice": "burn"})
    assert pawns(game, "red") == {"0,1": (2, 0)} and not game.tribes["blue"].pawns


def test_against_animals_the_player_picks_the_species_order_and_each_pawn_lost_and_gets_the_hunt():
    game = scene(
        {"red": {"pawns": {"2,0": [1, 1]}, "food": 0}, "blue": {"pawns": {"-3,3": [1, 0]}}},
        turn=3,
        stop="combat",
        animals=[("wolf", "2,0", 1), ("bison", "2,0", 1)],
    )
    ask = game.pending()
    assert (ask["kind"], ask["options"]) == ("species_order", ["bison", "wolf"])
    play(game, {"kind": "species_order", "order": ["wolf", "bison"]})
    play(game, {"kind": "roll", "dice": [1, 6]})
    assert game.pending()["kind"] == "lose"
    play(game, {"kind": "lose", "pawn": "woman"}, {"kind": "roll", "dice": [6, 1]})
    play(game, {"kind": "roll", "dice": [6, 1]})
    assert game.tribes["red"].food == 5 and not game.animals and pawns(game, "red") == {"2,0": (1, 0)}


def test_a_player_with_several_combats_picks_which_comes_first():
    game = scene(
        {"red": {"pawns": {"2,0": [1, 0], "-1,2": [1, 0]}}, "blue": {"pawns": {"-3,3": [1, 0]}}},
        turn=3,
        stop="combat",
        animals=[("wolf", "2,0", 1), ("bison", "-1,2", 1)],
    )
    ask = game.pending()
    assert (ask["kind"], ask["options"]) == ("combat_cell", ["2,0", "-1,2"])
    play(game, {"kind": "combat_cell", "cell": "-1,2"})
    assert game.pending()["cell"] == "-1,2"


# -- survival, births, sowing, tricks, end ------------------------------------------------------------


def test_survival_pays_the_ledger_and_a_short_tribe_picks_who_starves():
    game = scene(
        {"red": {"pawns": {"0,-3": [2, 1]}, "food": 1}, "blue": {"pawns": {"0,1": [1, 0]}, "food": 0}},
        turn=3,
        stop="survival_all",
    )
    ask = game.pending()
    assert (ask["kind"], ask["player"], ask["starve"]) == ("feed", "red", 1)  # fishing 1 + 1 in stock, 3 to feed
    with pytest.raises(IllegalRequest):
        game.copy().apply({"kind": "feed", "starve": [{"cell": "0,-3", "warriors": 2}]})
    play(game, {"kind": "feed", "starve": [{"cell": "0,-3", "warriors": 1}]})
    assert pawns(game, "red") == {"0,-3": (1, 1)} and game.tribes["red"].food == 0
    assert game.tribes["blue"].food == 0 and pawns(game, "blue") == {"0,1": (1, 0)}  # fishing pays for him


def test_births_roll_a_die_per_newborn_with_twins_and_the_caps():
    game = scene(
        {"red": {"pawns": {"0,-3": [9, 5]}, "camps": {"0,-3": "cave"}}, "blue": {"pawns": {"0,1": [1, 0]}}},
        turn=2,
        stop="births_all",
    )
    play(game, {"kind": "roll", "dice": [6]}, {"kind": "roll", "dice": [2]}, {"kind": "roll", "dice": [6]})
    ask = game.pending()
    assert ask["kind"] == "roll" and ask["camp"] == "0,-3"
    play(game, {"kind": "roll", "dice": [4]})
    assert pawns(game, "red") == {"0,-3": (10, 6)}


def test_sowing_at_the_end_of_winter_costs_a_food_per_field_next_to_a_plain_village():
    game = scene(
        {
            "red": {"pawns": {"0,1": [1, 1]}, "camps": {"0,1": "village"}},
            "blue": {"pawns": {"0,-3": [1, 1]}, "camps": {"0,-3": "cave"}},
        },
        turn=5,
        stop="sowing_all",
    )
    ask = game.pending()
    assert (ask["kind"], ask["player"], ask["options"]) == ("sow", "red", ["0,1"])
    play(game, {"kind": "sow", "cells": ["0,1"]})
    assert game.fields[(0, 1)]["owner"] == "red" and game.tribes["red"].food == 11


def test_the_trick_draw_gives_one_card_to_each_player_under_the_hand_limit():
    game = scene(
        {"red": {"pawns": {"0,1": [1, 1]}}, "blue": {"pawns": {"0,-3": [1, 1]}}},
        turn=2,
        stop="trick_draw",
        hands={"red": ["?"] * 5, "blue": ["?"] * 2},
    )
    assert len(game.tribes["red"].hand) == 5 and len(game.tribes["blue"].hand) == 3


def test_four_camps_are_announced_then_win_at_the_end_of_the_next_turn():
    four = {
        "pawns": {c: [1, 1] for c in ("0,1", "-1,-2", "3,-1", "-3,3")},
        "camps": {"0,1": "village", "-1,-2": "village", "3,-1": "village", "-3,3": "cave"},
    }
    game = scene({"red": four, "blue": {"pawns": {"0,-3": [1, 1]}}}, turn=3, stop="end")
    assert game.tribes["red"].announced and not game.over
    game.tribes["red"].announced = True
    game = scene({"red": four, "blue": {"pawns": {"0,-3": [1, 1]}}}, turn=4, stop="end")
    assert not game.over  # the scene starts fresh: nobody announced last turn
    game.agenda = [{"step": "end", "phase": "end"}]
    game.tribes["red"].announced = True
    game.order = ("red", "blue")
    game._run()
    assert game.over and game.winners == ("red",) and game.reason == "four_camps"


def test_a_tribe_wiped_out_in_the_first_year_comes_back_next_turn_on_a_free_edge_cell():
    game = scene(
        {"red": {"pawns": {}}, "blue": {"pawns": {"0,-3": [1, 1]}}, "green": {"pawns": {"3,0": [1, 0]}}},
        turn=2,
        stop="end",
    )
    assert game.turn == 3 and game.pending()["step"] == "event_draw"
    play(game, {"kind": "card", "card": "froidure"}, {"kind": "tokens", "tokens": [{"species": "bear", "letter": "A"}]})
    ask = game.pending()
    assert (ask["kind"], ask["player"]) == ("return", "red") and "0,-3" not in ask["options"]
    play(game, {"kind": "return", "cell": "3,-3"})
    assert pawns(game, "red") == {"3,-3": (3, 1)} and game.tribes["red"].food == 8
    assert len(game.tribes["red"].hand) == 3 and game.tribes["red"].returned


def test_the_last_tribe_standing_wins_once_no_return_is_possible_and_no_tribe_left_means_all_lose():
    game = scene({"red": {"pawns": {}}, "blue": {"pawns": {"0,-3": [1, 1]}}}, turn=6, stop="end")
    assert game.over and game.winners == ("blue",) and game.reason == "last_tribe"
    game = scene({"red": {"pawns": {}}, "blue": {"pawns": {}}}, turn=6, stop="end")
    assert game.over and game.winners == () and game.reason == "extinct"


# -- fire ------------------------------------------------------------------------------------------------


def test_fire_is_taken_on_a_volcano_by_a_pawn_that_stays_and_gives_plus_one_against_animals():
    game = scene(
        {
            "red": {"pawns": {"1,-2": [1, 1], "0,-3": [1, 1]}, "camps": {"0,-3": "cave"}},
            "blue": {"pawns": {"3,0": [1, 0]}},
        },
        turn=3,
        stop="order",
        fire_rules=True,
    )
    assert game.pending()["options"]["fire"] == ["1,-2"]
    play(game, {"kind": "take_fire", "cell": "1,-2"})
    assert game.tribes["red"].fire and game.pending()["options"]["groups"] == {"0,-3": [1, 1]}
    from vallee.game_combat import fighter

    step = {"cell": "0,-3", "cards": {}, "fortes": [], "bear": False}
    assert fighter(game, step, "red", True).fixed_bonus(True) == 2 + 1


def test_in_winter_tribes_without_fire_eat_one_and_a_half():
    game = scene(
        {
            "red": {"pawns": {"0,-3": [2, 2]}, "fire": True, "camps": {"0,-3": "cave"}},
            "blue": {"pawns": {"-3,3": [2, 2]}},
        },
        turn=3,
        stop="survival_all",
        fire_rules=True,
    )
    assert (game.tribes["red"].food, game.tribes["blue"].food) == (12 + 1 - 4, 12 - 6)  # red fishes by river 1


# -- undo and the journal ----------------------------------------------------------------------------------


def test_the_table_journals_each_entry_undo_rebuilds_and_a_torn_last_line_is_dropped(tmp_path):
    path = str(tmp_path / "vallee.jsonl")
    table = GameTable(path)
    table.new_game({"players": ["red", "blue"], "map": "sample", "seed": 8})
    for entry in (
        {"kind": "lot"},
        {"kind": "place_camp", "cell": "0,1"},
        {"kind": "place_camp", "cell": "0,-3"},
        {"kind": "tokens"},
    ):
        table.play(entry)
    with pytest.raises(IllegalRequest):
        table.play({"kind": "done"})
    table.undo()
    assert len(table.game.entries) == 3 and table.game.pending()["kind"] == "tokens"
    with open(path, "a") as fh:
        fh.write('{"entry": {"kind": "tok')
    again = GameTable(path)
    assert again.game.to_json() == table.game.to_json() and again.notice() is None
    assert os.path.getsize(path) > 0

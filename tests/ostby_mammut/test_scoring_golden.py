"""Golden tests: one per scoring rule and tie case of the Mammut evaluation."""

from __future__ import annotations

import pytest

from ostby_mammut.api import score_request

P3 = ["A", "B", "C"]
P4 = ["A", "B", "C", "D"]


def req(players=P3, round=2, holder="A", arrow="red", tiles=None, **more):
    body = {"players": players, "round": round, "shaman": {"holder": holder, "arrow": arrow}, "tiles": tiles or {}}
    body.update(more)
    return body


def score(**kw):
    code, out = score_request(req(**kw))
    assert code == 0, out
    return out


def items(out, item):
    return [(l["player"], l["points"]) for l in out["lines"] if l["item"] == item]


def test_tie_order_follows_the_arrow():
    assert score(players=P4, holder="B", arrow="red")["tie_order"] == ["B", "C", "D", "A"]  # rulebook example
    assert score(players=P4, holder="B", arrow="blue")["tie_order"] == ["B", "A", "D", "C"]


def test_axes_draw_cards_clockwise_from_the_shaman_even_with_a_blue_arrow():
    out = score(players=P4, holder="C", arrow="blue", tiles={"A": {"axe": 1}, "B": {"axe": 2}, "D": {"axe": 1}})
    assert out["draws"] == [{"player": "D", "cards": 1}, {"player": "A", "cards": 1}, {"player": "B", "cards": 2}]
    assert all(l["points"] == 0 for l in out["lines"] if l["item"] == "axe")


def test_last_round_axes_score_three_and_draw_nothing():
    out = score(round=5, tiles={"A": {"axe": 2}})
    assert out["draws"] == [] and ("A", 6) in items(out, "axe")


def test_axe_bonus_card_adds_two_per_axe_in_every_round():
    out = score(tiles={"A": {"axe": 1}, "B": {"axe": 2}}, cards=[{"card": "axes_bonus", "player": "C"}])
    assert items(out, "axe_bonus") == [("A", 2), ("B", 4)]
    out = score(round=5, tiles={"A": {"axe": 1}}, cards=[{"card": "axes_bonus", "player": "A"}])
    assert items(out, "axe") == [("A", 3)] and items(out, "axe_bonus") == [("A", 2)]


def test_empty_draw_pile_reshuffles_or_not():
    out = score(tiles={"A": {"axe": 2}, "B": {"axe": 2}}, draw_pile=3, discard_pile=4)
    assert out["draws"] == [{"player": "A", "cards": 2}, {"player": "B", "cards": 2}]
    assert (out["draw_pile"], out["discard_pile"]) == (3, 0)
    out = score(tiles={"A": {"axe": 2}, "B": {"axe": 2}}, draw_pile=3, discard_pile=4,
                variants={"empty_draw_pile": "no_card"})
    assert out["draws"][1] == {"player": "B", "cards": 1} and out["draw_pile"] == 0
    assert any(l["rule"] == "eval.draw_empty" for l in out["lines"])


def test_skins_track_most_and_least_by_round_number():
    out = score(round=4, skins_track={"A": 1, "B": 5, "C": 0}, tiles={"A": {"skin": 2}}, points={"C": 9})
    assert out["skins_track"] == {"A": 3, "B": 5, "C": 0}
    assert items(out, "skins_most") == [("B", 4)] and items(out, "skins_least") == [("C", -4)]  # rulebook example


def test_skins_ties_go_by_the_shaman_order():
    out = score(holder="B", points={"A": 5, "B": 5, "C": 5})
    # everyone on 0: B (holder) is furthest; C then A follow the red arrow, so A is last
    assert items(out, "skins_most") == [("B", 2)] and items(out, "skins_least") == [("A", -2)]
    out = score(holder="B", points={"A": 5, "B": 5, "C": 5}, variants={"penalty_ties": "all"})
    assert items(out, "skins_least") == [("A", -2), ("C", -2)]


def test_tusks_two_each():
    assert items(score(tiles={"B": {"tusk": 3}}), "tusk") == [("B", 6)]


@pytest.mark.parametrize("players, expected", [
    (["A", "B"], [8]),
    (["A", "B", "C"], [8, 5]),
    (["A", "B", "C", "D"], [8, 5, 2]),
    (["A", "B", "C", "D", "E"], [8, 5, 2]),
])
def test_meat_places_by_number_of_players(players, expected):
    tiles = {p: {"meat": 4 - i} for i, p in enumerate(players)}
    out = score(players=players, tiles=tiles)
    got = [l["points"] for l in out["lines"] if l["rule"] == "eval.meat"]
    assert got == expected


def test_meat_ties_by_shaman_and_players_without_meat_get_no_place():
    out = score(players=P4, holder="C", tiles={"A": {"meat": 2}, "B": {"meat": 2}})
    # order C, D, A, B: A beats B in the tie; C and D have no meat, so third place is not given
    assert [(l["player"], l["points"]) for l in out["lines"] if l["rule"] == "eval.meat"] == [("A", 8), ("B", 5)]
    assert sorted(p for p, _ in [(l["player"], 0) for l in out["lines"] if l["rule"] == "eval.meat_none"]) == ["C", "D"]


def test_fire_fewest_loses_five_and_ties():
    out = score(tiles={"A": {"fire": 1}, "B": {"fire": 2}, "C": {"fire": 1}}, points={"A": 10, "B": 10, "C": 10})
    assert items(out, "fire") == [("C", -5)]  # A and C tie, C is worse placed (A holds the shaman)
    out = score(tiles={"A": {"fire": 1}, "B": {"fire": 2}, "C": {"fire": 1}}, points={"A": 10, "B": 10, "C": 10},
                variants={"penalty_ties": "all"})
    assert items(out, "fire") == [("A", -5), ("C", -5)]


def test_two_players_fire_variant():
    out = score(players=["A", "B"], tiles={"A": {"fire": 1}, "B": {"fire": 3}}, points={"A": 10, "B": 0})
    assert items(out, "fire") == [("A", -5)] and items(out, "fire_two") == [("B", 3)]


def test_points_never_below_zero_each_item_or_round_end():
    body = dict(players=["A", "B"], holder="B", points={"A": 2, "B": 0}, round=4, tiles={"A": {"meat": 1, "fire": 1}})
    out = score(**body)
    # A: skins last −4 → 0 (clamped), meat +8 → 8, fire: B has fewest, A +1 per fire (two players)
    assert out["points"]["A"] == 9
    assert any(l.get("clamped") for l in out["lines"] if l["player"] == "A")
    out = score(**body, variants={"floor": "round_end"})
    assert out["points"]["A"] == 7


def test_animals_one_token_per_species():
    out = score(species={"A": ["bear"]}, tiles={"A": {"bear": 1, "wolf": 1}, "B": {"deer": 1}})
    assert out["species"] == {"A": ["bear", "wolf"], "B": ["deer"], "C": []}
    assert [l["en"] for l in out["lines"] if l["item"] == "animal" and l["player"] == "A"][0].endswith("nothing")


def test_animal_supply_exhausted_gives_nothing():
    out = score(config={"supply_per_species": 1}, species={"B": ["wolf"]}, tiles={"A": {"wolf": 1}})
    assert out["species"]["A"] == [] and any(l["rule"] == "eval.animal_supply" for l in out["lines"])


def test_evaluation_cards_skin_and_fire_values():
    out = score(tiles={"A": {"axe": 2}, "B": {"tusk": 1}, "C": {"fire": 1}},
                cards=[{"card": "skin", "player": "C"}, {"card": "axes_most_skin", "player": "B"},
                       {"card": "tusks_most_fire", "player": "A"}])
    assert out["skins_track"] == {"A": 1, "B": 0, "C": 1}
    assert [p for p, _ in items(out, "fire")] == ["A"]  # B and C have a fire each (B's from the card)
    assert [l["player"] for l in out["lines"] if l["item"] == "card_tusks_most_fire"] == ["B"]


def test_most_cards_need_one_tile_and_break_ties_by_shaman():
    out = score(cards=[{"card": "tusks_most_points", "player": "B"}])
    assert [l["rule"] for l in out["lines"] if l["item"] == "card_tusks_most_points"] == ["eval.most_needs_one"]
    out = score(holder="B", tiles={"A": {"skin": 1}, "C": {"skin": 1}},
                cards=[{"card": "skins_most_points", "player": "A"}])
    assert items(out, "card_skins_most_points") == [("C", 4)]  # order B, C, A


def test_skins_most_animal_and_exchange():
    out = score(tiles={"B": {"skin": 2}, "A": {"bear": 1}}, species={"A": ["bear"]},
                cards=[{"card": "skins_most_animal", "player": "C", "take": "ibex"},
                       {"card": "animal_exchange", "player": "A", "give": "bear", "take": "horse"}])
    assert out["species"]["B"] == ["ibex"] and out["species"]["A"] == ["bear", "horse"]


def test_final_species_bonus_and_winner_tie_break():
    out = score(players=["A", "B"], round=5, holder="A", points={"A": 20, "B": 28}, skins_track={"A": 3, "B": 2},
                species={"A": ["bear", "bison", "boar", "deer", "horse"], "B": ["bear", "bison", "boar"]},
                tiles={"A": {"meat": 1}, "B": {"meat": 1}})
    # A: +5 skins most (round 5), +8 meat, +15 species; B: −5, −5 fire (tie, worse placed), +4 species
    assert out["points"] == {"A": 48, "B": 22}
    assert out["final"]["winners"] == ["A"] and out["next_round"] is None
    out = score(players=["A", "B"], round=5, points={"A": 10, "B": 10}, skins_track={"A": 2, "B": 2},
                config={"skins_points": [0, 0, 0, 0, 0]}, tiles={"A": {"fire": 1}, "B": {"fire": 1}},
                variants={"penalty_ties": "all"})
    assert out["final"]["shared"] is True and out["final"]["winners"] == ["A", "B"]


@pytest.mark.parametrize("body, code, key, value", [
    (req(tiles={"A": {"question": 1}}), 1, "rule", "eval.reveal"),
    (req(cards=[{"card": "axes_bonus", "player": "A"}] * 2), 1, "rule", "card.count"),
    (req(players=P4, round=1), 1, "rule", "request.round"),
    (req(tiles={"A": {"bear": 2}}), 1, "rule", "request.tiles"),
    (req(tiles={"A": {"gold": 1}}), 2, "field", "tiles.A.gold"),
    (req(points={"A": -1}), 2, "field", "points.A"),
    (req(holder="Z"), 2, "field", "shaman.holder"),
    (req(cards=[{"card": "flip", "player": "A"}]), 2, "field", "cards.0.card"),
    ({"players": P3}, 2, "field", "round"),
])
def test_errors(body, code, key, value):
    got, out = score_request(body)
    assert got == code and out["ok"] is False and out["error"][key] == value


@pytest.mark.parametrize("card, field", [
    ({"card": "animal_exchange", "player": "A", "give": "bear"}, "cards.0.take"),
    ({"card": "animal_exchange", "player": "A", "take": "horse"}, "cards.0.give"),
])
def test_a_half_filled_exchange_card_is_malformed_and_names_the_missing_half(card, field):
    code, out = score_request(req(tiles={"A": {"bear": 1}}, cards=[card]))
    assert code == 2 and out["error"]["field"] == field and out["error"]["rule"] == "request.format"


def test_an_exchange_card_left_empty_is_a_card_not_used():
    out = score(cards=[{"card": "animal_exchange", "player": "A"}])
    assert [l["en"] for l in out["lines"] if l["item"] == "card_animal_exchange"] == ["Exchange card not used"]


def test_revealed_tiles_must_fit_the_set_as_a_whole_not_kind_by_kind():
    # 11 meat and 8 fire fit kind by kind (11 tiles carry meat, 8 fire), but only 15 tiles carry either.
    body = req(tiles={"A": {"meat": 6, "fire": 4}, "B": {"meat": 5, "fire": 4}})
    code, out = score_request(body)
    assert code == 1 and out["error"]["rule"] == "request.tiles"
    assert out["error"]["message"] == "8 fire and 11 meat tiles revealed, but only 15 tiles of the set carry any of them"
    assert score_request(req(tiles={"A": {"meat": 6, "fire": 4}, "B": {"meat": 5}}))[0] == 0


def test_the_last_animal_token_goes_by_the_shaman_order_not_the_order_of_the_cards():
    # One horse token left. B holds the shaman; C's card is listed first, yet B is better placed.
    out = score(holder="B", config={"supply_per_species": 1}, tiles={"B": {"bear": 1}, "C": {"wolf": 1}},
                cards=[{"card": "animal_exchange", "player": "C", "give": "wolf", "take": "horse"},
                       {"card": "animal_exchange", "player": "B", "give": "bear", "take": "horse"}])
    assert out["species"]["B"] == ["horse"] and out["species"]["C"] == []
    assert [(l["player"], l["rule"]) for l in out["lines"] if l["item"] == "card_animal_exchange"] == [
        ("B", "eval.card.animal_exchange"), ("C", "eval.animal_supply")]


def test_a_better_placed_animal_tile_beats_a_worse_placed_exchange_for_the_last_token():
    out = score(holder="A", config={"supply_per_species": 1}, tiles={"A": {"horse": 1}, "B": {"bear": 1}},
                cards=[{"card": "animal_exchange", "player": "B", "give": "bear", "take": "horse"}])
    assert out["species"]["A"] == ["horse"] and out["species"]["B"] == []


def test_two_players_tied_on_fire_who_both_pay_gain_nothing_per_fire():
    """penalty_ties all: both pay −5; the +1 per fire goes to «the other player», and there is none."""
    out = score(players=["A", "B"], points={"A": 10, "B": 10}, tiles={"A": {"fire": 2}, "B": {"fire": 2}},
                variants={"penalty_ties": "all"})
    assert items(out, "fire") == [("A", -5), ("B", -5)]
    assert items(out, "fire_two") == [("A", 0), ("B", 0)]
    assert {l["rule"] for l in out["lines"] if l["item"] == "fire_two"} == {"eval.fire_two_tied"}
    shaman = score(players=["A", "B"], points={"A": 10, "B": 10}, tiles={"A": {"fire": 2}, "B": {"fire": 2}})
    assert items(shaman, "fire") == [("B", -5)] and items(shaman, "fire_two") == [("A", 2)]


def test_a_tie_is_named_on_the_line_with_how_it_was_settled():
    """Bob, Cat and Dan all on 0 skins: the line of the one who pays names the two others
    and says the shaman's order decided (issue 22: 'ties are not explained')."""
    out = score(players=["Ann", "Bob", "Cat", "Dan"], holder="Ann", tiles={"Ann": {"skin": 2}})
    (line,) = [l for l in out["lines"] if l["item"] == "skins_least"]
    assert line["player"] == "Dan"
    assert "(0): −2 — tied with Bob and Cat, the shaman's order decides" in line["en"]
    assert "(0) : −2 — à égalité avec Bob et Cat, l'ordre du chamane départage" in line["fr"]
    out = score(players=["Ann", "Bob", "Cat", "Dan"], holder="Ann", tiles={"Ann": {"skin": 2}},
                variants={"penalty_ties": "all"})
    paying = {l["player"]: l["en"] for l in out["lines"] if l["item"] == "skins_least"}
    assert set(paying) == {"Bob", "Cat", "Dan"}
    assert "— tied with Cat and Dan: all of them pay" in paying["Bob"]


def test_a_line_without_a_tie_says_nothing_of_one():
    out = score(tiles={"A": {"skin": 2}, "B": {"skin": 1}})
    assert not any("tied" in l["en"] for l in out["lines"] if l["item"] in ("skins_most", "skins_least"))

"""The sharing-phase referee: golden cases, each illegal action with its rule."""

from __future__ import annotations

import pytest

from ostby_mammut.core import IllegalAction
from ostby_mammut.sharing import Flip, PlayCard, Steal, Take, apply, new_sharing, options
from ostby_mammut.variants import Variants

POOL = {"meat": 4, "fire": 3, "skin": 2, "tusk": 1, "shaman": 1}


def play(state, *actions):
    for a in actions:
        state = apply(state, a).state
    return state


def illegal(state, action, rule):
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert info.value.rule == rule, info.value
    return info.value


def test_turn_order_skips_players_with_loot_and_robbed_player_plays_again():
    s = new_sharing(("A", "B", "C", "D"), "B", POOL)
    s = play(s, Take("B", {"meat": 2}), Take("C", {"fire": 2}))
    assert s.to_move == "D"
    s = play(s, Steal("D", "B", {"meat": 1}))
    assert s.to_move == "A" and s.lots["B"] == ()
    s = play(s, Take("A", {"skin": 1}))
    assert s.to_move == "B"  # C and D have loot: skipped; the robbed B plays again


def test_start_player_first_move_and_not_your_turn():
    s = new_sharing(("A", "B", "C"), "A", POOL)
    illegal(s, Take("B", {"meat": 1}), "share.not_your_turn")
    s2 = play(s, Take("A", {"meat": 2}), Take("B", {"meat": 2}))
    assert s2.to_move == "C"


def test_take_some_and_only_what_is_there():
    s = new_sharing(("A", "B", "C"), "A", POOL)
    illegal(s, Take("A", {}), "share.take_some")
    illegal(s, Take("A", {"axe": 1}), "share.take")


def test_last_player_must_take_everything_and_ends_the_phase():
    s = play(new_sharing(("A", "B", "C"), "A", POOL), Take("A", {"meat": 2}), Take("B", {"fire": 1}))
    err = illegal(s, Take("C", {"meat": 1}), "share.last_takes_all")
    assert "doit prendre" in err.fr
    out = apply(s, Take("C", dict(s.pool)))
    assert out.state.over and out.state.ended_by == "C" and out.state.holder() == "C"
    assert out.events[-1]["rule"] == "share.end"
    illegal(out.state, Take("A", {"meat": 1}), "share.phase_over")


def test_steal_rules_and_variants():
    s = play(new_sharing(("A", "B", "C"), "A", POOL), Take("A", {"meat": 3}))
    illegal(s, Steal("B", "A", {}), "share.steal")
    illegal(s, Steal("B", "A", {"meat": 3}), "share.steal")
    illegal(s, Steal("B", "B", {"meat": 1}), "share.steal")
    illegal(s, Steal("B", "C", {"meat": 1}), "share.steal")
    after = play(s, Steal("B", "A", {"meat": 2}))
    assert after.lots["B"] == ({"meat": 1},) and after.pool["meat"] == 3
    strict = s.with_(variants=Variants(steal_return="exactly_one"))
    illegal(strict, Steal("B", "A", {"meat": 2}), "share.steal_return")


def test_single_tile_steal_forbidden_by_default_allowed_by_variant():
    s = play(new_sharing(("A", "B", "C"), "A", POOL), Take("A", {"meat": 1}))
    illegal(s, Steal("B", "A", {"meat": 1}), "share.steal_single")
    loose = s.with_(variants=Variants(single_tile_steal="allowed"))
    after = play(loose, Steal("B", "A", {"meat": 1}))
    assert after.lots["A"] == () and after.lots["B"] == () and after.to_move == "C"


def test_cards_before_taking_flip_shaman_recall_and_hands():
    s = new_sharing(("A", "B", "C"), "A", POOL, hands={"A": ("flip", "skin"), "B": ("recall",), "C": ()})
    illegal(s, PlayCard("A", "peek"), "card.in_hand")
    s = play(s, PlayCard("A", "flip", flips=(Flip("middle", "shaman", "shaman"),)))
    assert s.arrow == "blue" and s.to_move == "A" and s.hands["A"] == ("skin",)
    illegal(s, PlayCard("A", "skin").__class__("A", "flip", flips=(Flip("middle", "bear", "meat"),)), "card.in_hand")
    s = play(s, PlayCard("A", "skin"), Take("A", {"meat": 2}))
    s = play(s, PlayCard("B", "recall", targets=(("A", None),)))
    assert s.lots["A"] == () and s.pool["meat"] == 4
    assert [c for _, c in s.played] == ["flip", "skin", "recall"]


def test_flip_cannot_turn_animals():
    s = new_sharing(("A", "B", "C"), "A", {"bear": 1, "meat": 6})
    illegal(s, PlayCard("A", "flip", flips=(Flip("middle", "bear", "meat"),)), "card.flip")


def test_two_player_lots():
    s = new_sharing(("A", "B"), "A", {"meat": 6, "fire": 4})
    s = play(s, Take("A", {"meat": 3}))
    assert s.to_move == "B"
    s = play(s, Take("B", {"fire": 2}))
    assert s.to_move == "A"  # A has one lot of two
    s = play(s, Steal("A", "B", {"fire": 1}))
    assert s.lots["A"] == ({"meat": 3}, {"fire": 1}) and s.lots["B"] == ()
    s = play(s, Take("B", {"meat": 1}))
    illegal(s, Take("B", {"meat": 1}), "share.last_takes_all")
    assert play(s, Take("B", {"meat": 2, "fire": 3})).over


def test_two_players_nowhere_to_act():
    s = play(new_sharing(("A", "B"), "A", {"meat": 8}), Take("A", {"meat": 7}), Take("B", {"meat": 1}))
    assert s.to_move == "A" and s.pool == {}
    assert options(s)["steals"] == [{"victim": "B", "lot": 0, "size": 1, "give_back_min": 0, "give_back_max": 0}]
    illegal(s, Steal("A", "B", {"meat": 1}), "share.two_stuck")
    s = play(s, Steal("A", "B", {}))
    assert s.lots["A"] == ({"meat": 7}, {"meat": 1}) and s.to_move == "B"

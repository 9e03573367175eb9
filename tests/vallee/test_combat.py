"""Combat odds (exact Markov chains) and fights played roll by roll, checked against an
independent recursion, against each other, and through the command line."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import lru_cache
from itertools import product

import pytest
from hypothesis import given, settings, strategies as st

from vallee.combat import Tribe, cell_odds, tribe_stage
from vallee.combat_play import play_cell
from vallee.odds import decisive, duel, melee
from vallee.variants import Variants

from .conftest import run_cli


def test_the_chance_to_win_one_roll_matches_the_reference_table():
    table = {0: Fraction(1, 2), 1: Fraction(21, 31), 2: Fraction(13, 16), 3: Fraction(10, 11), 4: Fraction(33, 34),
             5: Fraction(1), 7: Fraction(1)}
    assert {k: decisive(k)[0] for k in table} == table
    assert all(decisive(-k)[0] == 1 - decisive(k)[0] for k in range(8))


def reference_win(a, b, fixed_a, fixed_b):
    """P(a,b) = p·P(a,b−1) + (1−p)·P(a−1,b), written independently of vallee.odds."""
    @lru_cache(maxsize=None)
    def p_win(x, y):
        if y == 0:
            return Fraction(1)
        if x == 0:
            return Fraction(0)
        lead = (x + fixed_a) - (y + fixed_b)
        wins = sum(1 for i, j in product(range(1, 7), repeat=2) if i + lead > j)
        losses = sum(1 for i, j in product(range(1, 7), repeat=2) if i + lead < j)
        p = Fraction(wins, wins + losses)
        return p * p_win(x, y - 1) + (1 - p) * p_win(x - 1, y)
    return p_win(a, b)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 4), st.integers(0, 4))
def test_duel_odds_equal_the_textbook_recursion(a, b, fa, fb):
    d = duel((a,), (b,), lambda s: s[0] + fa, lambda s: s[0] + fb, lambda s: (s[0] - 1,), lambda s: (s[0] - 1,))
    assert d.win == reference_win(a, b, fa, fb)
    assert sum(d.ends.values()) == 1
    assert all(bool(ea[0]) != bool(eb[0]) for ea, eb in d.ends)


def test_three_equal_tribes_of_one_warrior_each_win_a_third_each():
    m = melee((1, 1, 1), (0, 0, 0))
    assert sorted(m.ends.values()) == [Fraction(1, 3)] * 3


@settings(max_examples=20, deadline=None)
@given(st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)), st.tuples(*[st.integers(0, 2)] * 3))
def test_three_tribe_odds_equal_a_direct_recursion(pawns, fixed):
    @lru_cache(maxsize=None)
    def win(state):
        fighting = [i for i, n in enumerate(state) if n]
        if len(fighting) == 1:
            return tuple(Fraction(int(i == fighting[0])) for i in range(3))
        counts, decided = {}, 0
        for dice in product(range(1, 7), repeat=len(fighting)):
            totals = [d + state[i] + fixed[i] for d, i in zip(dice, fighting)]
            losers = tuple(i for i, t in zip(fighting, totals) if t < max(totals))
            if losers:
                counts[losers] = counts.get(losers, 0) + 1
                decided += 1
        out = [Fraction(0)] * 3
        for losers, n in counts.items():
            nxt = tuple(s - (i in losers) for i, s in enumerate(state))
            out = [o + Fraction(n, decided) * w for o, w in zip(out, win(nxt))]
        return tuple(out)
    m = melee(pawns, fixed)
    ours = [sum((q for end, q in m.ends.items() if end[i]), Fraction(0)) for i in range(3)]
    assert tuple(ours) == win(pawns)


def test_losing_women_first_keeps_the_bonus_and_wins_more_often():
    odds = cell_odds([Tribe("red", 2, 2)], {"bison": 3})
    assert odds.by_policy["women_first"]["red"] > odds.by_policy["warriors_first"]["red"]
    assert sum(odds.holder.values()) == 1


def test_tribes_fight_first_then_the_winner_with_captured_women_faces_the_animals():
    red, blue = Tribe("red", 3, 1), Tribe("blue", 1, 2)
    stage = tribe_stage([red, blue])
    assert stage.kind == "warriors" and stage.fighters == ("red", "blue")
    assert all(state[1] == (3 if name == "red" else 3) for name, states in stage.ends.items() for state in states)
    odds = cell_odds([red, blue], {"wolf": 1})
    assert set(odds.holder) == {"red", "blue", "animals"} and sum(odds.holder.values()) == 1
    assert odds.holder["red"] > odds.holder["blue"]


def test_women_alone_facing_warriors_are_captured_without_a_fight_within_the_reserve():
    stage = tribe_stage([Tribe("red", 2, 5, women_in_reserve=1), Tribe("blue", 0, 3)])
    assert stage.kind == "none" and stage.ends == {"red": {(2, 6): 1}}


def test_women_of_two_tribes_fight_with_camp_bonus_only_and_the_losers_die():
    stage = tribe_stage([Tribe("red", 0, 2, camp="cave"), Tribe("blue", 0, 2)])
    assert stage.kind == "women"
    assert stage.ends["red"] and all(w == 0 and f >= 1 for (w, f) in stage.ends["red"])
    assert sum(q for states in stage.ends.values() for q in states.values()) == 1


def test_hunting_food_goes_to_the_winner_only_unless_per_kill():
    lost = play_cell([Tribe("red", 1, 0)], {"mammoth": 2}, ["mammoth"], [[6, 1], [1, 6]])
    assert (lost.holder, lost.food) == ("animals", {"red": 0})
    kept = play_cell([Tribe("red", 1, 0)], {"mammoth": 2}, ["mammoth"], [[6, 1], [1, 6]],
                     variants=Variants(hunt_food="per_kill"))
    assert kept.food == {"red": 6}
    lean = play_cell([Tribe("red", 2, 0)], {"mammoth": 1}, ["mammoth"], [[6, 1]], lean=True)
    assert lean.food == {"red": 4}


def test_a_played_fight_waits_for_dice_and_for_the_loss_choice():
    waiting = play_cell([Tribe("red", 1, 1)], {"bear": 1}, ["bear"], [[1, 6]])
    assert waiting.awaiting == {"kind": "loss", "stage": "bear", "side": "red", "choices": ["warrior", "woman"]}
    more = play_cell([Tribe("red", 1, 1)], {"bear": 1}, ["bear"], [[1, 6]], ["woman"])
    assert more.awaiting == {"kind": "roll", "stage": "bear", "sides": ["red", "animals"]}
    tie = play_cell([Tribe("red", 1, 0)], {"bear": 1}, ["bear"], [[3, 3], [6, 1]])
    assert [r["tie"] for r in tie.rolls] == [True, False] and tie.holder == "red"


def test_three_tribes_roll_together_and_everyone_below_the_top_loses():
    log = play_cell([Tribe("a", 2), Tribe("b", 2), Tribe("c", 2)], {}, [], [[6, 2, 6]])
    assert log.rolls[0]["losers"] == [{"side": "b", "pawn": "warrior"}]
    log = play_cell([Tribe("a", 2), Tribe("b", 2), Tribe("c", 2)], {}, [], [[4, 4, 4]])
    assert log.rolls[0]["tie"] and log.awaiting["kind"] == "roll"


@st.composite
def cells(draw):
    tribes = [Tribe(n, draw(st.integers(0, 3)), draw(st.integers(0, 2)), fire=draw(st.booleans()))
              for n in ("a", "b", "c")[:draw(st.integers(1, 3))]]
    animals = {s: draw(st.integers(1, 2)) for s in draw(st.sets(st.sampled_from(["wolf", "bear", "bison"]), max_size=2))}
    if not any(t.pawns for t in tribes) or sum(1 for t in tribes if t.pawns) + bool(animals) < 2:
        tribes = [Tribe("a", 1, 1)]
        animals = animals or {"wolf": 1}
    return tribes, animals


@settings(max_examples=60, deadline=None)
@given(cells(), st.lists(st.integers(1, 6), min_size=300, max_size=300), st.sampled_from(["women_first",
                                                                                          "warriors_first"]))
def test_every_played_out_fight_ends_in_an_outcome_the_odds_give_a_chance(cell, dice, policy):
    """Fed die by die, and losing pawns by a policy, as it asks, a fight ends in an outcome
    whose chance the odds under that policy say is positive; warriors only go down."""
    tribes, animals = cell
    order = list(animals)
    stream, rolls, losses = iter(dice), [], []
    for _ in range(120):
        log = play_cell(tribes, animals, order, rolls, losses)
        if log.done:
            break
        if log.awaiting["kind"] == "roll":
            rolls.append([next(stream) for _ in log.awaiting["sides"]])
        else:
            losses.append("woman" if policy == "women_first" else "warrior")
    else:
        return
    odds = cell_odds(tribes, animals, order, policy)
    assert odds.holder[log.holder] > 0
    if log.holder != "animals":
        assert odds.survivors[(log.holder,) + log.state[log.holder]] > 0
    for t in tribes:
        assert log.state[t.name][0] <= t.warriors


def test_combat_command_plays_a_fight_and_offers_the_odds_of_each_loss_choice():
    request = {"tribes": [{"name": "red", "warriors": 1, "women": 1}], "animals": {"bear": 1}, "rolls": [[1, 6]]}
    code, out = run_cli(["combat"], json.dumps(request))
    assert code == 0 and out["play"]["awaiting"]["kind"] == "loss"
    nl = out["play"]["next_loss"]
    assert nl["woman"]["percent"] > nl["warrior"]["percent"] and nl["warrior"]["exact"] == "10/31" and nl["woman"]["exact"] == "1/2"


@pytest.mark.parametrize("request_, code, key, value", [
    ({"tribes": [{"name": "red", "warriors": 1}]}, 1, "rule", "combat.none"),
    ({"tribes": [{"name": "red", "warriors": 11}], "animals": {"wolf": 1}}, 2, "field", "tribes.0.warriors"),
    ({"tribes": [{"name": "red", "warriors": 1, "cards": ["torches"]}], "animals": {"wolf": 1}}, 1, "rule",
     "combat.cards"),
    ({"tribes": [{"name": "red", "warriors": 1, "camp": "cave"}, {"name": "b", "warriors": 1, "camp": "village"}]},
     1, "rule", "camps.one_per_cell"),
    ({"tribes": [{"name": "red", "warriors": 1}], "animals": {"wolf": 1}, "rolls": [[1, 7]]}, 2, "field", "rolls.0.1"),
    ({"tribes": [{"name": "red", "warriors": 1}], "animals": {"wolf": 1}, "species_order": ["bear"]}, 2, "field",
     "species_order"),
    ({"tribes": [{"name": "animals", "warriors": 1}], "animals": {"wolf": 1}}, 2, "field", "tribes.0.name"),
])
def test_combat_command_errors(request_, code, key, value):
    got, out = run_cli(["combat"], json.dumps(request_))
    assert got == code and out["error"][key] == value


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 6), st.integers(0, 6)), min_size=2, max_size=3))
def test_after_the_tribes_fight_the_winner_never_has_more_than_six_women(sides):
    """Women change sides only while the winner has pieces of his colour left (cap of six),
    warriors only go down, and one tribe is left whenever two had warriors."""
    tribes = [Tribe(f"t{i}", w, f, women_in_reserve=min(r, 6 - f)) for i, (w, f, r) in enumerate(sides)]
    stage = tribe_stage(tribes)
    if stage.kind == "none" and not stage.ends:
        return
    assert sum(q for states in stage.ends.values() for q in states.values()) == 1
    for name, states in stage.ends.items():
        tribe = next(t for t in tribes if t.name == name)
        for (w, f) in states:
            assert w <= tribe.warriors and f <= 6
            if stage.kind == "warriors":
                assert f <= tribe.women + tribe.reserve()

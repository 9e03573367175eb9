"""Whole games played to their end by a seeded random player, with the rules' invariants
checked after every entry: pieces and food move only through the events that say so,
food never below 0, at most ten warriors and six women a tribe, every animal token in
the bag, its reserve or on the board, and the game ends (a winner, or every tribe gone)
within a turn limit. Replaying the kept entries gives the same game, and so does an undo
followed by the same entry."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vallee.autoplay import answer, play_game
from vallee.core import IllegalRequest, parse_cell
from vallee.game import Game
from vallee.rulebook import RULES
from vallee.tokens import DEFAULT_TOKENS, UNLETTERED_WOLVES

TURN_LIMIT = 120
ALL_TOKENS = sum(len(v) for v in DEFAULT_TOKENS.values()) + UNLETTERED_WOLVES


class Ledger:
    """What the events say changed, checked against what the state shows."""

    def __init__(self, game):
        self.food = {p: t.food for p, t in game.tribes.items()}
        self.pawns = {p: {c: tuple(v) for c, v in t.pawns.items()} for p, t in game.tribes.items()}

    def check(self, game, events):
        for e in events:
            assert e["rule"] in RULES, e   # every event cites a rule of `maamut vallee rules`
            if e["type"] == "food":
                self.food[e["player"]] += e["delta"]
            elif e["type"] == "pawns":
                cell = parse_cell(e["cell"], "cell")
                w, f = self.pawns[e["player"]].get(cell, (0, 0))
                self.pawns[e["player"]][cell] = (w + e["warriors"], f + e["women"])
        for name, tribe in game.tribes.items():
            assert tribe.food == self.food[name] >= 0
            shown = {c: tuple(v) for c, v in tribe.pawns.items()}
            said = {c: v for c, v in self.pawns[name].items() if v != (0, 0)}
            assert shown == said, (name, shown, said)
            assert tribe.warriors <= 10 and tribe.women <= 6
            assert all(w >= 0 and f >= 0 and w + f > 0 for w, f in tribe.pawns.values())
            assert len(tribe.camps) <= 5
            for cell in tribe.camps:
                assert tribe.at(cell)[1] > 0 or cell in tribe.pacs, (name, cell)
            assert not (set(tribe.pawns) & game.valley.lake) or game.markers.frozen_rivers
        camps = [c for t in game.tribes.values() for c in t.camps]
        assert len(camps) == len(set(camps))
        on_board = sum(a.count for a in game.animals.values())
        tamed = sum(1 for t in game.tribes.values() if t.wolf is not None)
        assert on_board + len(game.bag) + game.wolves_reserve + tamed == ALL_TOKENS
        assert len(game.fields) <= 9
        units = [(a.species, a.cell) for a in game.animals.values()]
        assert len(units) == len(set(units)), "two units of one species on a cell are one herd"


def play_checked(setup, seed):
    game = Game.new(setup)
    ledger = Ledger(game)
    return play_game(game, random.Random(seed), max_turns=TURN_LIMIT, check=ledger.check)


SETUPS = [
    ({"players": ["red", "blue"], "map": "sample"}, 1),
    ({"players": ["red", "blue", "green"], "map": "sample", "fire_rules": True}, 2),
    ({"players": ["a", "b", "c", "d"], "map": "sample"}, 3),
    ({"players": ["a", "b", "c", "d", "e"], "map": "sample", "fire_rules": True}, 4),
    ({"players": ["a", "b", "c", "d", "e", "f"], "map": "sample", "random": "physical"}, 5),
    (
        {
            "players": ["red", "blue", "green"],
            "map": "sample",
            "random": {"bag": "physical", "tricks": "physical"},
            "variants": {
                "herd_order": "rear_first",
                "food_timing": "at_survival",
                "hunt_food": "per_kill",
                "solitaire_moves": "before_animals",
                "locator_token": "arrives",
            },
        },
        6,
    ),
]


@pytest.mark.parametrize("setup, seed", SETUPS, ids=lambda v: str(v)[:40])
def test_random_games_end_and_keep_every_invariant(setup, seed):
    for k in range(3):
        game = play_checked({**setup, "seed": seed * 10 + k}, seed * 10 + k)
        assert game.over and game.turn <= TURN_LIMIT
        assert game.reason in ("four_camps", "last_tribe", "extinct")
        if game.reason == "extinct":
            assert game.winners == () and not game.on_board()
        else:
            assert len(game.winners) >= 1


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.booleans())
def test_any_seed_keeps_the_invariants(seed, players, fire):
    setup = {"players": [f"p{i}" for i in range(players)], "map": "sample", "seed": seed, "fire_rules": fire}
    game = play_checked(setup, seed)
    assert game.over


def test_replaying_the_kept_entries_gives_the_same_game():
    game = play_checked({"players": ["red", "blue", "green"], "map": "sample", "seed": 11}, 11)
    again = Game.replay(game.setup["json"], game.entries)
    assert again.to_json() == game.to_json()


def test_undo_then_the_same_virtual_entry_draws_the_same_values():
    game = Game.new({"players": ["red", "blue"], "map": "sample", "seed": 21})
    rng = random.Random(21)
    while game.turn < 4:
        entry = answer(game, rng)
        try:
            game.apply(entry)
        except IllegalRequest:
            continue
        if entry["kind"] in ("roll", "tokens", "card"):
            kept = game.entries[-1]
            back = game.undone()
            back.apply(entry)
            assert back.entries[-1] == kept
            assert back.to_json() == game.to_json()

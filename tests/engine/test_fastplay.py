"""The playout kernel and the referee agree: the same random games played through both
give the same legal actions (in the same order), the same flee questions, the same
position, hands, deck and winner after every action.

The kernel plays the default rules; the variants it accepts are the ones that only
change the setup (``start_cells``, ``first_player``) or the deck (``reshuffle``), and
each of their readings is played here.
"""

import random

import pytest
from hypothesis import given, settings, strategies as st

from engine.fastplay import PlayoutState, action_of, play_random_game
from engine.game import Game
from engine.hexgrid import CELL_NAMES
from engine.playout import random_game
from engine.variants import CHOICES, Variants

#: The variants the kernel plays, each with every reading (the others stay at their default).
KERNEL_VARIANTS = ("start_cells", "first_player", "reshuffle")


def _new_game(rng: random.Random, players: int, variants: Variants) -> Game:
    game = Game.new("ABCD"[:players], seed=rng.randrange(2**31), variants=variants)
    for name in game.players:
        game.place_hunter(name, rng.choice(game.start_cells()))
    return game


def _kernel_of(game: Game, flee_rng: random.Random, asked: list) -> PlayoutState:
    """The kernel on a copy of ``game``'s deck, its shuffles drawn as the deck's own."""
    deck_rng = random.Random()
    deck_rng.setstate(game.deck.rng.getstate())

    def flee(state, seat, options):
        cell = flee_rng.choice(options)
        asked.append((state.names[seat], tuple(options), cell))
        return cell

    pos = game.position
    return PlayoutState.from_position(pos, pos.hands, game.deck.draw_pile, game.deck.discard_pile,
                                      deck_rng, flee, game.variants.reshuffle)


def _referee_turn(game: Game, action, asked: list):
    """Play ``action`` on the referee, answering each flee question as the kernel did,
    and check that it asks exactly the kernel's questions, in the same order."""
    choices = ()
    while (outcome := game.play(action, choices)).needs is not None:
        needs = outcome.needs
        assert len(choices) < len(asked), f"the referee asks {needs}, the kernel did not"
        hunter, options, cell = asked[len(choices)]
        assert (needs.hunter, needs.options) == (hunter, options)
        choices += ((hunter, cell),)
    assert len(choices) == len(asked), "the kernel asked a question the referee did not"
    return outcome


def _assert_same_state(state: PlayoutState, game: Game):
    pos = game.position
    names = state.names
    assert state.mammoth == pos.mammoth
    assert {names[s]: c for s, c in enumerate(state.at) if c >= 0} == pos.hunters
    assert {c: names[s] for c, s in enumerate(state.traps) if s >= 0} == pos.traps
    assert {names[s] for s, c in enumerate(state.at) if c < 0} == set(pos.eliminated)
    assert {names[s]: tuple(h) for s, h in enumerate(state.hands)} == pos.hands
    assert (state.pile, state.disc) == (game.deck.draw_pile, game.deck.discard_pile)
    assert state.winner_name() == game.winner
    assert state.turns == game.turns_played()
    if game.winner is None:
        assert names[state.me] == pos.to_move


def play_both(seed: int, players: int, variants: Variants, max_turns: int = 300) -> Game:
    """One random game, each action checked through the referee and the kernel."""
    rng = random.Random(seed)
    game = _new_game(rng, players, variants)
    asked: list = []
    state = _kernel_of(game, rng, asked)
    while not game.is_over and game.turns_played() < max_turns:
        codes = state.legal()
        assert [action_of(game.position, c) for c in codes] == game.legal_actions()
        code = rng.choice(codes)
        asked.clear()
        state.play(code)
        outcome = _referee_turn(game, action_of(game.position, code), asked)
        fled = [(e["hunter"], e["to"]) for e in outcome.events
                if e["type"] == "hunter_fled" and len(e["options"]) > 1]
        assert fled == [(hunter, CELL_NAMES[cell]) for hunter, _, cell in asked]
        _assert_same_state(state, game)
    return game


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from((2, 3, 4)),
       readings=st.tuples(*(st.sampled_from(CHOICES[name]) for name in KERNEL_VARIANTS)))
def test_kernel_and_referee_agree_after_every_action(seed, players, readings):
    play_both(seed, players, Variants(**dict(zip(KERNEL_VARIANTS, readings))))


@pytest.mark.parametrize("name,reading", [(name, reading) for name in KERNEL_VARIANTS
                                          for reading in CHOICES[name]])
def test_kernel_and_referee_agree_under_each_reading_of_the_kernel_variants(name, reading):
    games = [play_both(seed, 2 + seed % 3, Variants(**{name: reading})) for seed in range(15)]
    assert any(game.is_over for game in games)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_of_the_kernel_are_the_reference_engines(players):
    """play_random_game consumes its generator as engine.playout.random_game does."""
    for seed in range(40):
        reference = random_game(random.Random(seed), players=players, max_turns=400)
        fast = play_random_game(random.Random(seed), players=players, max_turns=400)
        pos = reference.position
        assert fast.turns == reference.turns_played(), seed
        assert fast.winner == reference.winner, seed
        assert fast.mammoth == pos.mammoth, seed
        assert fast.hunters == pos.hunters, seed
        assert fast.traps == pos.traps, seed
        assert set(fast.eliminated) == set(pos.eliminated), seed
        assert fast.hands == pos.hands, seed

"""The playout kernel and the referee agree: the same random games played through both,
under every reading of every variant, give the same legal actions (in the same order),
the same flee questions, the same flees, the same position, hands, deck and winner
after every action."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from engine.core import Move, Position, Tile
from engine.fastplay import PLACE, PlayoutState, action_of, code_of, play_random_game
from engine.game import Game
from engine.hexgrid import CELL_NAMES, CENTRE, NUM_CELLS, parse_cell
from engine.rules import apply_action
from engine.playout import random_game
from engine.variants import CHOICES, Variants

#: Every reading of every variant; stall_limit's free values are a few turn counts.
READINGS = {name: CHOICES[name] + ((2, 5, 12) if name == "stall_limit" else ()) for name in CHOICES}


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
                                      deck_rng, flee, game.variants)


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


def play_both(seed: int, players: int, variants: Variants, max_turns: int = 300, trap_bias: float = 0.0) -> Game:
    """One random game, each action checked through the referee and the kernel;
    ``trap_bias`` sets a trap that often when one may be set (traps in every flight's way)."""
    rng = random.Random(seed)
    game = _new_game(rng, players, variants)
    asked: list = []
    state = _kernel_of(game, rng, asked)
    while not game.is_over and game.turns_played() < max_turns:
        codes = state.legal()
        assert [action_of(game.position, c) for c in codes] == game.legal_actions()
        code = PLACE if PLACE in codes and rng.random() < trap_bias else rng.choice(codes)
        asked.clear()
        state.play(code)
        outcome = _referee_turn(game, action_of(game.position, code), asked)
        fled = [(e["hunter"], e["to"]) for e in outcome.events
                if e["type"] == "hunter_fled" and len(e["options"]) > 1]
        assert fled == [(hunter, CELL_NAMES[cell]) for hunter, _, cell in asked]
        _assert_same_state(state, game)
    return game


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from((2, 3, 4)),
       variants=st.builds(Variants, **{name: st.sampled_from(values) for name, values in READINGS.items()}),
       trap_bias=st.sampled_from((0.0, 0.5, 0.9)))
def test_kernel_and_referee_agree_after_every_action_under_any_variants(seed, players, variants, trap_bias):
    play_both(seed, players, variants, trap_bias=trap_bias)


@pytest.mark.parametrize("name,reading", [(name, reading) for name, values in READINGS.items()
                                          for reading in values])
def test_kernel_and_referee_agree_under_each_reading_of_each_variant(name, reading):
    """Seeded games, one variant changed at a time (the defaults' games included)."""
    games = [play_both(seed, 2 + seed % 3, Variants(**{name: reading}), trap_bias=(0.0, 0.6)[seed % 2])
             for seed in range(30)]
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


def _board(rocks=()):
    tiles = [Tile.GRASS] * NUM_CELLS
    tiles[CENTRE] = Tile.CROSS
    for name in rocks:
        tiles[parse_cell(name)] = Tile.ROCK
    return tuple(tiles)


def _one_action_both(pos: Position, action, variants: Variants):
    """``action`` through the referee and the kernel: the kernel's state after it, and the referee's outcome."""
    outcome = apply_action(pos, action, (), variants)
    assert outcome.needs is None
    state = PlayoutState.from_position(pos, pos.hands, (), (), random.Random(0), None, variants)
    state.play(code_of(action))
    after = outcome.position
    names = pos.players
    assert state.mammoth == after.mammoth
    assert {names[s]: c for s, c in enumerate(state.at) if c >= 0} == after.hunters
    assert {c: names[s] for c, s in enumerate(state.traps) if s >= 0} == after.traps
    assert state.winner_name() == outcome.winner
    return state, outcome


@pytest.mark.parametrize("reading,winner,stops", [("keep_live", "C", "1,0"), ("keep_inert", None, "2,0")])
def test_an_eliminated_players_trap_catches_the_mammoth_or_not_as_the_variant_says(reading, winner, stops):
    """eliminated_traps: C is out; his trap on 1,0 lies in the mammoth's flight east."""
    pos = Position(_board(), CENTRE, ("A", "B", "C"), {"A": parse_cell("-2,0"), "B": parse_cell("0,3")},
                   {parse_cell("1,0"): "C"}, "A", ("C",), {"A": (2,), "B": (1,), "C": ()})
    state, outcome = _one_action_both(pos, Move("A", "E", 2), Variants(eliminated_traps=reading))
    assert (outcome.winner, CELL_NAMES[outcome.position.mammoth]) == (winner, stops)


def test_a_flight_ends_on_the_trap_it_was_heading_for_even_when_its_owner_went_out_on_the_way():
    """B, frightened on 1,0 with nowhere to go (rocks around, his own trap on 2,0 and
    flee_target "empty"), is eliminated and his trap removed: the flight still ends on 2,0."""
    rocks = ("1,1", "0,1", "1,-1", "2,-1")
    pos = Position(_board(rocks), CENTRE, ("A", "B"), {"A": parse_cell("-3,0"), "B": parse_cell("1,0")},
                   {parse_cell("2,0"): "B"}, "A", (), {"A": (3,), "B": (1,)})
    state, outcome = _one_action_both(pos, Move("A", "E", 3), Variants(flee_target="empty"))
    assert [e["type"] for e in outcome.events][:3] == ["hunter_moved", "mammoth_fled", "hunter_eliminated"]
    assert CELL_NAMES[outcome.position.mammoth] == "2,0" and outcome.position.traps == {}

"""Random playouts: whole games played by uniformly random choices (bots, tests, benchmarks).

>>> import random
>>> game = random_game(random.Random(5), players=3)
>>> game.is_over or game.turns_played() == 400
True
"""

from __future__ import annotations

import random

from .core import Move, PlaceTrap
from .game import Game
from .rules import apply_action


def choose_turn(game: Game, rng: random.Random, trap_bias: float = 0.0):
    """A random legal action with random flee choices; ``trap_bias`` favours setting traps."""
    actions = game.legal_actions()
    if trap_bias and rng.random() < trap_bias:
        traps = [a for a in actions if isinstance(a, PlaceTrap)]
        if traps:
            actions = traps
    action = rng.choice(actions)
    choices: tuple = ()
    if isinstance(action, Move):
        while True:
            outcome = apply_action(game.position, action, choices, game.variants)
            if outcome.needs is None:
                break
            choices = choices + ((outcome.needs.hunter, rng.choice(outcome.needs.options)),)
    return action, choices


def random_game(rng: random.Random, players: int = 4, max_turns: int = 400, variants=None,
                trap_bias: float = 0.0) -> Game:
    """Deal, place hunters at random, then play random turns until the end or ``max_turns``."""
    names = "ABCD"[:players]
    kwargs = {} if variants is None else {"variants": variants}
    game = Game.new(names, seed=rng.randrange(2**31), **kwargs)
    for name in names:
        game.place_hunter(name, rng.choice(game.start_cells()))
    while not game.is_over and game.turns_played() < max_turns:
        action, choices = choose_turn(game, rng, trap_bias)
        game.play(action, choices)
    return game

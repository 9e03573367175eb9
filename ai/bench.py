"""``maamut bench ai``: the search player against other hunters, seats rotated.

One AI seat plays dealt games (a real deck, hidden hands) against ``players - 1``
opponents; game ``g`` puts the AI in seat ``g % players``. Flee choices are made by
each frightened hunter's owner: the AI searches its own; an opponent flees where it
chose when it was the mover, otherwise at random (as the demo's players do on the
page). ``baseline`` is an opponent's win rate in the AI's seat over the same deals,
the figure the AI is to beat; the fair share is ``1 / players``.

Opponents are classes with ``choose_start(game)`` and ``choose_turn(game) -> (action,
choices)``, built from a ``random.Random``: a bot plugged in under the entry-point group
``maamut.bots`` by its name (the default, ``demo``, is the demo's bot: the simulation
plugs it in, so this package depends on the engine only), any ``module:Class``, or
``random`` for uniformly random hunters. The figures name the opponent by the
``module:Class`` it was loaded from.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from importlib.metadata import entry_points

from engine.game import Game
from engine.playout import choose_turn

from .search import Level, SearchPlayer, observe

#: Entry-point group of the opponents that other parts plug in, by name.
BOTS_GROUP = "maamut.bots"
#: The opponent ``maamut bench ai`` plays by default: the demo's bot.
DEMO_BOT = "demo"


class RandomHunter:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose_start(self, game):
        return self.rng.choice(game.start_cells())

    def choose_turn(self, game):
        return choose_turn(game, self.rng)


def opponent_source(spec: str) -> str:
    """``random``, or the ``module:Class`` a plugged-in bot's name or ``spec`` itself names.

    >>> opponent_source("random"), opponent_source("my.bots:Cautious")
    ('random', 'my.bots:Cautious')
    """
    plugged = {point.name: point.value for point in entry_points(group=BOTS_GROUP)}
    if spec in plugged:
        return plugged[spec]
    if spec == "random" or ":" in spec:
        return spec
    raise ValueError(f"no opponent {spec!r}: name one of {sorted(plugged) + ['random']} or give module:Class")


def opponent_factory(source: str):
    """The class :func:`opponent_source` named."""
    if source == "random":
        return RandomHunter
    module, _, name = source.partition(":")
    return getattr(importlib.import_module(module), name)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def play_game(seed: int, players: int, ai_seat: int | None, level: Level, opponent, max_turns: int = 300,
              timing: list | None = None):
    """One dealt game; ``ai_seat`` None plays opponents only. Returns the winner's seat
    (-1 for the mammoth or no winner)."""
    names = "ABCD"[:players]
    rng = random.Random(seed)
    game = Game.new(names, seed=seed)
    ai_name = names[ai_seat] if ai_seat is not None else None
    seats = {p: opponent(random.Random(rng.randrange(2**31))) for p in names}
    ai = SearchPlayer(level, random.Random(rng.randrange(2**31)), clock=time.process_time)
    for p in names:
        game.place_hunter(p, seats[p].choose_start(game))  # the AI places like the demo bot
    while not game.is_over and game.turns_played() < max_turns:
        mover = game.position.to_move
        before = observe(game, ai_name) if ai_name else None
        if mover == ai_name:
            t = time.process_time()
            decision = ai.decide(before)
            if timing is not None:
                timing.append(time.process_time() - t)
            action, preferred = decision.action, ()
        else:
            action, preferred = seats[mover].choose_turn(game)
        wanted = dict(preferred)
        choices: tuple = ()
        while True:
            outcome = game.play(action, choices)
            if outcome.needs is None:
                break
            hunter, options = outcome.needs.hunter, outcome.needs.options
            if hunter == ai_name:
                t = time.process_time()
                cell, _ = ai.choose_flee(before, action, choices, outcome.needs)
                if timing is not None:
                    timing.append(time.process_time() - t)
            elif hunter == mover and hunter in wanted and wanted[hunter] in options:
                cell = wanted[hunter]
            else:
                cell = rng.choice(options)
            choices += ((hunter, cell),)
    if game.winner is None or game.winner not in names:
        return -1
    return names.index(game.winner)


def run_ai_bench(games: int = 400, players: int = 4, level: Level = Level(iterations=300, time_ms=1000),
                 opponent: str = DEMO_BOT, seed: int = 20261124, baseline: bool = True, progress=None) -> dict:
    opponent = opponent_source(opponent)
    factory = opponent_factory(opponent)
    wins = base_wins = 0
    timing: list = []
    start = time.time()
    for g in range(games):
        seat = g % players
        s = seed + g
        wins += play_game(s, players, seat, level, factory, timing=timing) == seat
        if baseline:
            base_wins += play_game(s, players, None, level, factory) == seat
        if progress:
            progress(g + 1, wins)
    return {
        "games": games,
        "players": players,
        "opponent": opponent,
        "ai_win_rate": round(wins / games, 4) if games else 0.0,
        "ci95": list(wilson(wins, games)),
        "baseline": round(base_wins / games, 4) if baseline and games else None,
        "fair_share": round(1 / players, 4),
        "ms_per_move": round(1000 * sum(timing) / len(timing), 1) if timing else 0.0,
        "max_ms_per_move": round(1000 * max(timing), 1) if timing else 0.0,
        "level": {"iterations": level.iterations, "time_ms": level.time_ms},
        "wall_s": round(time.time() - start, 1),
    }

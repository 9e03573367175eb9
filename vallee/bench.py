"""``maamut bench vallee``: the referee's speed on one core.

Figures: ``animal_phases_per_s``, whole animal phases (:func:`vallee.animals.move_animals`)
with 40 units on the sample valley, herds searched (target: one phase in 5 ms or less,
200 a second); ``combat_odds_ms``, the exact odds of 10 warriors against 10 wolves
(:func:`vallee.combat.cell_odds`, both loss policies; target 50 ms or less; only the
six-sided roll tables stay cached between runs); ``games_per_s``, whole random games (:mod:`vallee.autoplay`) from setup
to their end, through :class:`vallee.game.Game`. Times are CPU time of this process:
what a single free core gives, even on a busy machine.
"""

from __future__ import annotations

import random
import time

_clock = time.process_time


def forty_units(seed: int = 40):
    """40 animal units on the sample valley where each species may stand, seeded."""
    from .animals import Unit
    from .board import sample_valley
    from .core import MOUNTAIN, SPECIES, VOLCANO

    valley = sample_valley()
    rng = random.Random(seed)
    units, taken = [], set()
    land = [c for c in valley.cells if c not in valley.lake]
    while len(units) < 40:
        species = rng.choice(list(SPECIES))
        cell = rng.choice(land)
        if (species, cell) in taken or (
            valley.terrain[cell] in (MOUNTAIN, VOLCANO) and not SPECIES[species].enters_mountains
        ):
            continue
        taken.add((species, cell))
        units.append(Unit(f"u{len(units)}", species, cell, 1))
    humans = frozenset(rng.sample(land, 4))
    return valley, units, humans


def _rate(fn, seconds: float) -> float:
    done, start = 0, _clock()
    while True:
        fn()
        done += 1
        now = _clock()
        if now - start >= seconds:
            return done / (now - start)


def pin_to_one_core() -> int | None:
    """Run this process on one core (Linux); the core, or None where affinity is unknown."""
    import os

    if not hasattr(os, "sched_setaffinity"):
        return None
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


def run_vallee_bench(seconds: float = 2.0, seed: int = 20011, pin: bool = True) -> dict:
    """The figures; ``pin``: run on one core (the command does; a caller may not want it)."""
    from fractions import Fraction

    from .animals import Conditions, move_animals
    from .autoplay import play_game
    from .combat import Tribe, cell_odds
    from .game import Game

    core = pin_to_one_core() if pin else None
    valley, units, humans = forty_units()
    conditions = Conditions(humans=humans)
    faces = iter(range(10**9))
    phases = _rate(lambda: move_animals(valley, conditions, next(faces) % 6 + 1, units), seconds)

    def odds():
        result = cell_odds([Tribe("red", warriors=10)], {"wolf": 10})
        assert Fraction(0) < result.holder["red"] < 1

    per_odds = 1 / _rate(odds, seconds)

    seeds = iter(range(seed, seed + 10**9))

    def game():
        s = next(seeds)
        g = Game.new({"players": ["red", "blue", "green", "ochre"][: 2 + s % 3], "map": "sample", "seed": s})
        play_game(g, random.Random(s), max_turns=200)

    games = _rate(game, seconds)
    return {
        "animal_phases_per_s": round(phases, 1),
        "combat_odds_ms": round(per_odds * 1000, 2),
        "games_per_s": round(games, 2),
        "animal_phase_ms": round(1000 / phases, 3),
        "units": len(units),
        "seconds_per_figure": seconds,
        "core": core,
    }

"""``maamut bench engine``: throughput of the referee on one core.

Figures: flight resolutions, legal-action generations and complete random games per
second, and JSON-lines requests per second through the ``resolve`` request handler.
"""

from __future__ import annotations

import json
import random
import time

from .api import resolve_request
from .core import Move
from .hexgrid import DIRECTIONS, NEIGHBOURS, RAYS
from .jsonio import position_to_json
from .playout import random_game
from .rules import apply_action, legal_actions


def _flight_cases(rng: random.Random, count: int):
    """Positions from random games where the player to move can make the mammoth flee."""
    cases = []
    while len(cases) < count:
        game = random_game(rng, players=rng.choice((2, 3, 4)), max_turns=rng.randrange(0, 30))
        if game.is_over:
            continue
        pos = game.position
        cell = pos.hunters[pos.to_move]
        for d in range(6):
            for k in (1, 2, 3):
                path = RAYS[cell][d][:k]
                if pos.mammoth in path and len(path) == k and all(pos.tiles[c].walkable for c in path):
                    cases.append((pos.with_(hands=None), Move(pos.to_move, DIRECTIONS[d], k)))
    return cases


def _rate(fn, items, seconds: float) -> float:
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for item in items:
            fn(item)
        done += len(items)
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def run_engine_bench(seconds: float = 2.0, seed: int = 20261122) -> dict:
    rng = random.Random(seed)
    flights = _flight_cases(rng, 500)
    # choices are resolved with the first option so that every case runs to its end
    def flight(case):
        pos, move = case
        out = apply_action(pos, move)
        choices = ()
        while out.needs is not None:
            choices += ((out.needs.hunter, out.needs.options[0]),)
            out = apply_action(pos, move, choices)

    positions = [case[0] for case in flights]
    lines = [json.dumps({"position": position_to_json(p), "action": {"type": "move", "hunter": m.hunter,
                                                                     "direction": m.direction,
                                                                     "distance": m.distance}})
             for p, m in flights[:200]]

    figures = {
        "flights_per_s": round(_rate(flight, flights, seconds)),
        "legal_per_s": round(_rate(legal_actions, positions, seconds)),
    }
    games = 0
    turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = random_game(rng, players=rng.choice((2, 3, 4)), max_turns=2000)
        games += 1
        turns += game.turns_played()
    elapsed = time.perf_counter() - start
    figures["games_per_s"] = round(games / elapsed, 1)
    figures["turns_per_s"] = round(turns / elapsed)
    figures["mean_turns_per_game"] = round(turns / games, 1)
    figures["resolve_lines_per_s"] = round(_rate(lambda line: json.dumps(resolve_request(json.loads(line))[1]),
                                                 lines, seconds))
    return figures

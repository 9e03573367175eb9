"""``maamut bench engine``: throughput of the referee on one core.

Figures (per second of CPU time on one core): ``flights_per_s``, mammoth flights
resolved by the playout kernel (direction, blocking, trap, frightened hunters: what
bots and proofs use); ``referee_flights_per_s``, whole moves that make the mammoth
flee through the referee, with events and the explanation trace;
``legal_per_s``, legal-action generations; ``games_per_s``, complete uniformly random
games in the playout kernel (:mod:`engine.fastplay`), and ``reference_games_per_s`` the
same games through :class:`engine.game.Game` with records; ``resolve_lines_per_s``,
JSON-lines requests through the ``resolve`` handler (parse, resolve, serialise).
"""

from __future__ import annotations

import json
import random
import time

from .api import resolve_request
from .core import Move
from .hexgrid import DIRECTION_INDEX, DIRECTIONS, RAYS
from .jsonio import position_to_json
from .fastplay import PlayoutState, play_random_game
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


# CPU time of this process: the figure a single free core would give, even while other
# programs share the machine.
_clock = time.process_time


def _rate(fn, items, seconds: float) -> float:
    done = 0
    start = _clock()
    deadline = start + seconds
    while True:
        for item in items:
            fn(item)
        done += len(items)
        now = _clock()
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

    first = (lambda state, seat, options: options[0])
    kernel_cases = []
    for pos, move in flights:
        state = PlayoutState.from_position(pos, {}, (), flee=first)
        kernel_cases.append((state, list(state.at), list(state.occ), pos.mammoth,
                             DIRECTION_INDEX[move.direction], move.distance))

    def kernel_flight(case):
        # the flight alone, on the kernel's flat state, restored before each run
        state, at, occ, mammoth, d, k = case
        state.at[:] = at
        state.occ[:] = occ
        state.alive = len(at)
        state.flight(mammoth, d, k)

    figures = {
        "flights_per_s": round(_rate(kernel_flight, kernel_cases, seconds)),
        "referee_flights_per_s": round(_rate(flight, flights, seconds)),
        "legal_per_s": round(_rate(legal_actions, positions, seconds)),
    }
    games = turns = 0
    start = _clock()
    while _clock() - start < seconds:
        result = play_random_game(rng, players=rng.choice((2, 3, 4)), max_turns=2000)
        games += 1
        turns += result.turns
    elapsed = _clock() - start
    figures["games_per_s"] = round(games / elapsed, 1)
    figures["turns_per_s"] = round(turns / elapsed)
    figures["mean_turns_per_game"] = round(turns / games, 1)
    games = 0
    start = _clock()
    while _clock() - start < seconds:
        random_game(rng, players=rng.choice((2, 3, 4)), max_turns=2000)
        games += 1
    figures["reference_games_per_s"] = round(games / (_clock() - start), 1)
    figures["resolve_lines_per_s"] = round(_rate(lambda line: json.dumps(resolve_request(json.loads(line))[1]),
                                                 lines, seconds))
    return figures

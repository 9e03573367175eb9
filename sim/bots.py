"""Simple hunters for the demo: one look ahead, a taste for traps, no suicide.

>>> import random
>>> from engine.game import Game
>>> game = Game.new(["A", "B"], seed=2)
>>> bot = Bot(random.Random(1))
>>> for p in ("A", "B"):
...     game.place_hunter(p, bot.choose_start(game))
>>> action, choices = bot.choose_turn(game)
>>> action in game.legal_actions()
True
"""

from __future__ import annotations

import random

from engine import MAMMOTH, Move, PlaceTrap, RemoveTrap, successors
from engine.hexgrid import distance
from engine.game import Game


class Bot:
    """Scores every complete outcome of every legal action and picks among the best."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose_start(self, game: Game) -> int:
        return self.rng.choice(game.start_cells())

    def choose_turn(self, game: Game):
        me = game.position.to_move
        scored = []
        for action, choices, outcome in successors(game.position, game.variants):
            scored.append((self._score(me, action, outcome) + self.rng.random(), action, choices))
        scored.sort(key=lambda item: item[0], reverse=True)
        _, action, choices = scored[0]
        return action, choices

    @staticmethod
    def _score(me: str, action, outcome) -> float:
        pos = outcome.position
        if outcome.winner == me:
            return 1000.0
        if outcome.winner == MAMMOTH or outcome.winner is not None:
            return -500.0
        if me not in pos.hunters:
            return -300.0
        score = 0.0
        mine = [c for c, o in pos.traps.items() if o == me]
        if isinstance(action, PlaceTrap):
            score += 6.0 - len(mine)
        if isinstance(action, RemoveTrap):
            owner = next((e["owner"] for e in outcome.events if e["type"] == "trap_removed"), me)
            score += 3.0 if owner != me else -4.0
        if isinstance(action, Move):
            score += 1.0
            if any(e["type"] == "mammoth_fled" for e in outcome.events) and mine:
                # chase: a mammoth closer to my traps is worth more
                score += 3.0 - min(distance(pos.mammoth, c) for c in mine)
        return score

"""Hints and analysis: every legal action of a position with its estimated win chance.

>>> from engine.game import Game
>>> game = Game.new("AB", seed=4)
>>> for p in "AB":
...     game.place_hunter(p, game.start_cells()[0 if p == "A" else -1])
>>> rows = hints(game.position.with_(hands=None), "A", hand=game.position.hands["A"], iterations=80, seed=1)
>>> sorted(rows[0]) == ["action", "notation", "visits", "win_chance"]
True
"""

from __future__ import annotations

import random

from engine.cards import CARD_VALUES
from engine.core import HAND_SIZE
from engine.jsonio import action_to_json
from engine.variants import DEFAULT, Variants

from .search import LEVELS, Level, InfoSetObservation, SearchPlayer


def hints(position, player: str, hand=None, discard=(), iterations: int = 800, time_ms: float = 1500,
          seed=None, variants: Variants = DEFAULT) -> list[dict]:
    """Each legal action of ``player`` (who must be to move) with its win chance, best first.

    ``hand``: the player's cards when known (``None``: any card value may be played, as
    at a cardboard table the companion cannot see). Rows are JSON-ready:
    ``{"action": {...}, "notation": "A NE2", "win_chance": 0.41 | None, "visits": n}``.
    """
    if position.to_move != player:
        return []
    if hand is None:
        hand = CARD_VALUES
    sizes = tuple((p, HAND_SIZE if p in position.hunters else 0) for p in position.players if p != player)
    obs = InfoSetObservation(position.with_(hands=None), player, tuple(hand), tuple(discard), sizes, variants)
    ai = SearchPlayer(Level(iterations=iterations, time_ms=time_ms), random.Random(seed))
    decision = ai.decide(obs)
    return [{"action": action_to_json(row["action"]), "notation": row["notation"],
             "win_chance": None if row["win_chance"] is None else round(row["win_chance"], 3),
             "visits": row["visits"]} for row in decision.analysis]


def hints_for_page(position, player, hand=None) -> list[dict]:
    """The page's hints and the sandbox's analysis: every legal action with its win
    chance, searched three times as long as a ``normal`` AI seat (about a second)."""
    return hints(position, player, hand=hand, iterations=LEVELS["normal"].iterations * 3, time_ms=1500)

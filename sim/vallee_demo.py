"""``maamut demo --game vallee``: La Vallée des Mammouths played by simulated players,
for convention stands.

The demo is the product with simulated people: the companion's server runs as at a real
table, with the table's one La Vallée game (:class:`vallee.live.ValleeTable`: validated
on a copy, journaled, then kept) and the page's live updates on ``/vallee/``. The
players are the game model's seeded random player (:func:`vallee.autoplay.answer`): each
question the game asks (a die to roll, a camp to place, a move, a pawn to lose…) is
answered at a human pace, through the same table the page writes to, so every device
watching ``/vallee/`` sees the game unfold. When a game ends (or drags on past
``max_turns``) a new one is dealt on the sample valley after ``attract_s`` seconds.

A trick card the random player picks with choices the rules refuse is simply not played
(the table refuses it and nothing changes), as at a real table; any other refusal is an
error of the demo and is counted.

>>> import tempfile, os
>>> from vallee.live import ValleeTable
>>> table = ValleeTable(os.path.join(tempfile.mkdtemp(), "demo.jsonl"))
>>> stats = ValleeDemo(table, seed=3, step_s=0, attract_s=0, max_entries=30).run()
>>> stats.entries, stats.errors, len(table.game.entries)
(30, 0, 30)
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

from rulekit.journal import JournalError
from vallee.autoplay import answer
from vallee.core import BadRequest, IllegalRequest

#: The players of the demo's games: three tribes, as at most stands' tables.
DEMO_PLAYERS = ("red", "blue", "green")


@dataclass
class ValleeStats:
    games: int = 0          # games dealt
    finished: int = 0       # games played to their end
    entries: int = 0        # answers kept by the table
    refused_cards: int = 0  # trick cards the table refused (not played, as at a table)
    errors: int = 0
    winners: dict = field(default_factory=dict)
    messages: list = field(default_factory=list)

    def error(self, message: str) -> None:
        self.errors += 1
        if len(self.messages) < 20:  # keep memory flat over hours
            self.messages.append(message)


def demo_setup(seed: int, players=DEMO_PLAYERS) -> dict:
    """A game on the sample valley where the companion draws every die, card and token."""
    return {"players": list(players), "map": "sample", "seed": seed, "random": "virtual"}


class ValleeDemo:
    """Bots answer every question of the table's La Vallée game (see the module docstring).

    ``table`` is the companion's :class:`vallee.live.ValleeTable`; ``step_s`` the pause
    before each answer (the human pace), ``attract_s`` the pause between two games.
    ``max_games`` stops after that many games have ended, ``max_entries`` after that many
    answers (``None``: run until ``stop``).
    """

    def __init__(self, table, seed: int | None = None, step_s: float = 1.5, attract_s: float = 8.0,
                 max_games: int | None = None, max_entries: int | None = None, max_turns: int = 60,
                 players=DEMO_PLAYERS, stop: threading.Event | None = None):
        self.table = table
        self.rng = random.Random(seed)
        self.step_s = step_s
        self.attract_s = attract_s
        self.max_games = max_games
        self.max_entries = max_entries
        self.max_turns = max_turns
        self.players = tuple(players)
        self.stop = stop or threading.Event()
        self.stats = ValleeStats()

    def run(self) -> ValleeStats:
        """Play until ``max_games`` games ended, ``max_entries`` answers, or ``stop``."""
        game = self.table.game
        if game is None or game.over:
            self._deal(pause=False)
        while not self.stop.is_set() and not self._enough():
            game = self.table.game
            if game.over or game.turn > self.max_turns:
                self._game_ended(game)
                if self._enough():
                    break
                self._deal(pause=True)
                continue
            if self.stop.wait(self.step_s):
                break
            self._answer()
        return self.stats

    def _enough(self) -> bool:
        return ((self.max_games is not None and self.stats.finished >= self.max_games)
                or (self.max_entries is not None and self.stats.entries >= self.max_entries))

    def _deal(self, pause: bool) -> None:
        if pause and self.stop.wait(self.attract_s):
            return
        self.table.start(demo_setup(self.rng.randrange(2**31), self.players))
        self.stats.games += 1

    def _game_ended(self, game) -> None:
        self.stats.finished += 1
        for winner in game.winners:
            self.stats.winners[winner] = self.stats.winners.get(winner, 0) + 1

    def _answer(self) -> None:
        """One answer to the question asked now, kept by the table (or refused)."""
        with self.table.lock:  # the page may have changed the game meanwhile: answer what it asks now
            game = self.table.game
            if game is None or game.over:
                return
            entry = answer(game, self.rng)
            try:
                self.table.play(entry)
            except (IllegalRequest, BadRequest) as exc:
                if entry["kind"] == "trick":
                    self.stats.refused_cards += 1
                    return
                self.stats.error(f"turn {game.turn}: {entry} refused: {exc}")
                return
            except JournalError as exc:  # a full disk: said, and the demo carries on asking
                self.stats.error(f"turn {game.turn}: not journaled: {exc.message}")
                return
        self.stats.entries += 1


__all__ = ["ValleeDemo", "ValleeStats", "demo_setup", "DEMO_PLAYERS"]

"""One table's live game and its crash-safe journal (the shared :mod:`rulekit.journal`).

Every change is *validated on a copy → journaled → kept*: :meth:`GameTable.play` applies
the entry to a copy of the game, writes the completed entry (dice, cards and tokens
drawn included) to the journal, and only then keeps the copy; an illegal entry or a
failing disk changes nothing. :meth:`GameTable.undo` writes ``{"undo": true}`` and
rebuilds the game from the journal's entries without the last one: nothing is drawn
again. On start the journal is replayed (:func:`vallee.game.replay_prefix`), a torn
last line dropped, a damaged one set aside.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "vallee.jsonl")
>>> table = GameTable(path)
>>> table.new_game({"players": ["red", "blue"], "map": "sample", "seed": 4})
>>> _ = table.play({"kind": "lot"})
>>> first = table.game.entries[-1]["player"]
>>> table.undo(); _ = table.play({"kind": "lot"})
>>> table.game.entries[-1]["player"] == first          # the same draw, never a new one
True
>>> GameTable(path).game.entries == table.game.entries  # resumed from the journal
True
"""

from __future__ import annotations

from rulekit.journal import Journal

from .core import BadRequest, IllegalRequest
from .game import Game, entry_line, replay_prefix, setup_line, undo_line


class GameTable:
    def __init__(self, journal_path: str):
        self.journal = Journal(journal_path)
        #: What the journal set aside at this start, if anything (``Loaded.notice()``).
        self.resumed = self.journal.load(replay_prefix)
        self.game: Game | None = self.resumed.game

    def new_game(self, setup: dict) -> None:
        game = Game.new(setup)  # checked before anything is written
        self.journal.begin([_line(setup_line, game.setup["json"], "setup")])
        self.game = game

    def play(self, entry: dict) -> list:
        """Apply one entry; its events. Nothing changes when it is refused."""
        if self.game is None:
            raise IllegalRequest("no game: start one first", "pas de partie : commencez-en une", "request.format")
        following = self.game.copy()
        events = following.apply(entry)
        self.journal.append(_line(entry_line, following.entries[-1], "entry"))
        self.game = following
        return events

    def undo(self) -> None:
        if self.game is None:
            raise IllegalRequest("no game", "pas de partie", "request.format")
        previous = self.game.undone()
        self.journal.append(undo_line())
        self.game = previous

    def notice(self) -> dict | None:
        return self.resumed.notice()


def _line(make, value, field: str) -> str:
    try:
        return make(value)
    except (TypeError, ValueError, RecursionError):
        raise BadRequest(field, "cannot be stored in the journal") from None

"""The game at the table: the web's live game, made crash-safe and wired to the LEDs.

:class:`TableGame` is :class:`companion_web.LiveGame` (referee commands, publishing to
every open page) with two guarantees added at the one place every change passes
through, :meth:`publish`:

* the journal first: every new record line is written and fsync-ed before anything
  shows the change (page, LEDs);
* then the listeners (LED scenes, the tracker) get the new state and events.

After a power cut, :meth:`TableGame.resume` replays the journal to the exact game.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from companion_web import LiveGame
from engine.game import Game, RecordError

from .journal import Journal

log = logging.getLogger(__name__)

Listener = Callable[["TableGame", list], None]


class TableGame(LiveGame):
    DEAL_CARDS = False  # cardboard cards in the players' hands

    def __init__(self, hub, journal: Journal, players_info=None):
        self.journal = journal
        self._journaled_game: Game | None = None
        self._journaled_lines = 0
        self._journal_lock = threading.Lock()
        self.listeners: list[Listener] = []
        self._seen_history = 0
        super().__init__(hub, None, players_info)

    @classmethod
    def resume(cls, hub, journal: Journal, players_info=None) -> "TableGame":
        """The game in the journal, or no game; a damaged journal is set aside, not lost."""
        table = cls(hub, journal, players_info)
        try:
            game = journal.resume()
        except RecordError as exc:
            kept = journal.archive()
            log.error("the journal could not be replayed (%s); kept as %s", exc, kept)
            game = None
        if game is not None:
            game.on_record = None  # publish() journals every new line, exactly once
            table.game = game
            table._journaled_game = game
            table._journaled_lines = game.record_length()
            table._seen_history = len(game.history)
            table.publish()
        return table

    def _sync_journal(self) -> None:
        game = self.game
        if game is None:
            return
        with self._journal_lock:
            if game is not self._journaled_game:
                if self._journaled_game is not None or self.journal.lines():
                    self.journal.archive()
                self._journaled_game = game
                self._journaled_lines = 0
                self._seen_history = 0
            for line in game.record_lines(self._journaled_lines):
                self.journal.append(line)
            self._journaled_lines = game.record_length()

    def publish(self) -> int:
        with self._lock:
            self._sync_journal()
            version = super().publish()
            events = self._new_events()
        for listener in list(self.listeners):
            try:
                listener(self, events)
            except Exception:  # a broken LED cable must not stop the game
                log.exception("listener %r failed", listener)
        return version

    def _new_events(self) -> list:
        game = self.game
        if game is None:
            return []
        history = game.history
        if len(history) < self._seen_history:  # an undo
            self._seen_history = len(history)
            return [{"type": "undo"}]
        events = [e for entry in history[self._seen_history:] for e in entry.get("events", [])]
        self._seen_history = len(history)
        return events

"""The page's side of the table: its commands go to the table's one live game, and every
change of that game is published to every open page.

The web never owns a game. :class:`WebTable` wraps a :class:`session.TableSession`
(the owner): the referee endpoints turn JSON into engine values once and propose them
to the session, and a subscription republishes the session's state to the hub after
each change.

>>> from companion_web.hub import GameHub
>>> from session import TableSession
>>> hub = GameHub()
>>> web = WebTable(TableSession(deal=True), hub)
>>> web.session.new_game([{"id": "A", "name": "Ann"}, {"id": "B", "name": "<b>Bo</b>"}], seed=1)
>>> hub.state["phase"], hub.state["next_to_place"]
('setup', 'A')
"""

from __future__ import annotations

import engine
from session import CommandError, TableSession

#: The name the web's error handlers and older callers know the session's refusals by.
GameControlError = CommandError


def parse_turn(action_json, choices_json=None) -> tuple:
    """A turn's JSON (the contract's ``action`` and ``choices``) as engine values."""
    try:
        return engine.action_from_json(action_json), engine.choices_from_json(choices_json)
    except engine.BadRequest as exc:
        raise CommandError(exc.message, field=exc.field) from None


def turn_response(session: TableSession, outcome: engine.Outcome) -> dict:
    """The contract's response to a played turn (``needs`` set while a choice waits)."""
    return {"ok": True, "position": engine.position_to_json(session.game.position),
            "events": engine.events.to_json(outcome.events), "winner": outcome.winner, "needs": engine.needs_to_json(outcome.needs)}


class WebTable:
    """The page's adapter around the table's session (see the module docstring)."""

    def __init__(self, session: TableSession, hub):
        self.session = session
        self.hub = hub
        self._unsubscribe = session.subscribe(lambda change, snapshot: self.publish())
        if session.game is not None:
            self.publish()

    def publish(self) -> int:
        state = self.session.state_json()
        # While a frightened hunter's owner chooses, the page draws the waiting turn
        # (the move and the mammoth's path) from its events.
        state["pending_events"] = self._pending_events()
        return self.hub.update(**state)

    def _pending_events(self) -> list | None:
        pending = self.session.pending_turn()
        game = self.session.game
        if not pending or game is None:
            return None
        try:
            outcome = engine.apply_action(game.position, pending["action"], pending["choices"], game.variants)
        except engine.IllegalAction:
            return None
        return engine.events.to_json(outcome.events)

    # The referee endpoints' commands, from JSON.
    def new_game(self, players, seed=None, variants=None, tiles=None) -> None:
        self.session.new_game(players, seed=seed, variants=variants, tiles=tiles, source="page")

    def place_hunter(self, player, cell) -> None:
        if isinstance(cell, int):  # the JSON API names cells "q,r" only
            raise CommandError("cell: give \"q,r\"", field="cell")
        self.session.place_hunter(player, cell, source="page")

    def play(self, action_json, choices_json=None) -> dict:
        action, choices = parse_turn(action_json, choices_json)
        return turn_response(self.session, self.session.play(action, choices, source="page"))

    def choose_flee(self, cell) -> dict:
        if isinstance(cell, int):
            raise CommandError("cell: give \"q,r\"", field="cell")
        return turn_response(self.session, self.session.choose_flee(cell, source="page"))

    def undo(self) -> bool:
        return self.session.undo(source="page")

    def import_record(self, text: str) -> None:
        self.session.import_record(text, source="page")

    def record_text(self) -> str:
        return self.session.record_text()

    def close(self) -> None:
        self._unsubscribe()


__all__ = ["WebTable", "GameControlError", "parse_turn", "turn_response"]

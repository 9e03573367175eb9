"""The page's side of the table: its commands go to the table's one live game, and every
change of that game is published to every open page.

The web never owns a game. :class:`PageAdapter` wraps a :class:`session.TableSession`
(the owner): the referee endpoints turn JSON into engine values once and propose them
to the session, and a subscription republishes the session's state to the hub after
each change.

>>> from companion_web.hub import GameHub
>>> from session import TableSession
>>> hub = GameHub()
>>> web = PageAdapter(TableSession(deal=True), hub)
>>> web.session.new_game([{"id": "A", "name": "Ann"}, {"id": "B", "name": "<b>Bo</b>"}], seed=1)
>>> hub.state["phase"], hub.state["next_to_place"]
('setup', 'A')
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import engine
from session import CommandError, TableSession

from .view import named_notation, turn_in_words

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


def game_tag(session: TableSession) -> str:
    """The live game's entity tag: the number of entries (placements and turns), then a
    digest of the record and of a turn waiting for a flee choice. Every committed action
    changes it (an undo too); it names the game's content, so it stays right across a
    restart of the app. Call it with the session still (``session.locked()``).

    >>> table = TableSession(deal=True)
    >>> game_tag(table)
    '0-none'
    >>> table.new_game([{"id": "A"}, {"id": "B"}], seed=1)
    >>> tag = game_tag(table); tag.startswith("0-"), len(tag)
    (True, 14)
    """
    game = session.game
    if game is None:
        return "0-none"
    digest = hashlib.sha1("\n".join(game.record_lines()).encode())
    pending = session.pending_turn()
    if pending:
        digest.update(repr((pending["action"], pending["choices"])).encode())
    return f"{len(game.entries())}-{digest.hexdigest()[:12]}"


def entries_of_tag(tag: str) -> int | None:
    """How many entries the game had when ``tag`` was read (``None``: not one of ours).

    >>> entries_of_tag("12-0123456789ab"), entries_of_tag("junk")
    (12, None)
    """
    head, _, _ = tag.partition("-")
    return int(head) if head.isdigit() and len(head) < 7 else None


#: What the referee's page did, as every page words it (see ``PageAdapter.publish``).
_CORRECTIONS = {"undo": "taken_back", "played": "entered"}  # placing hunters is setting up, not a correction


class PageAdapter:
    """The page's adapter around the table's session (see the module docstring)."""

    def __init__(self, session: TableSession, hub):
        self.session = session
        self.hub = hub
        self._log: list = []
        self._correction: dict | None = None
        self._unsubscribe = session.subscribe(self._changed)
        if session.game is not None:
            self.publish()

    def _changed(self, change, snapshot) -> None:
        """Every page is told when the referee's page takes a turn back or enters one;
        the notice stays until the next change of the game."""
        if change.kind != "marks":
            self._correction = None
        before = self._log
        state = self.session.state_json()
        log = state.get("log") or []
        kind = _CORRECTIONS.get(change.kind) if change.source == "page" else None
        if kind == "taken_back" and len(log) < len(before):
            self._correction = self._notice(kind, before[-1], state)
        elif kind == "entered" and len(log) > len(before):
            self._correction = self._notice(kind, log[-1], state)
        self.publish(state)

    def _notice(self, kind: str, entry: Mapping, state: Mapping) -> dict:
        return {"kind": kind, **_said(entry, _names(state))}

    def publish(self, state: dict | None = None) -> int:
        state = self.session.state_json() if state is None else state
        self._log = list(state.get("log") or [])
        # While a frightened hunter's owner chooses, the page draws the waiting turn
        # (the move and the mammoth's path) from its events.
        state["pending_events"] = self._pending_events()
        state["etag"] = game_tag(self.session)
        state["correction"] = self._correction
        return self.hub.update(**state)

    def tag(self) -> str:
        return game_tag(self.session)

    def landed_since(self, tag: str) -> dict:
        """What changed since a page read ``tag``: the turns entered since (each in words
        and as notation), or how many were taken back."""
        state = self.session.state_json()
        log = state.get("log") or []
        seen = entries_of_tag(tag)
        names = _names(state)
        landed = [_said(e, names) for e in (log[seen:] if seen is not None and seen < len(log) else log[-1:])]
        taken_back = seen - len(log) if seen is not None and seen > len(log) else 0
        return {"landed": landed, "taken_back": taken_back}

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

    def last_entry(self) -> dict | None:
        """The entry an undo would take back, in words and as notation; while a flee
        choice waits, that waiting turn."""
        pending = self.session.pending_turn()
        state = self.session.state_json()
        if pending:
            events = state.get("pending_events") or self._pending_events() or []
            notation = engine.notation.turn_to_text(pending["action"], pending["choices"])
            return _said({"notation": notation, "events": events}, _names(state))
        log = state.get("log") or []
        return _said(log[-1], _names(state)) if log else None

    def undo(self) -> bool:
        return self.session.undo(source="page")

    def import_record(self, text: str) -> None:
        self.session.import_record(text, source="page")

    def record_text(self) -> str:
        return self.session.record_text()

    def close(self) -> None:
        self._unsubscribe()


def _said(entry: Mapping, names: Mapping) -> dict:
    """An entry named for people: its notation (ids), with names, and in words."""
    notation = str(entry.get("notation", ""))
    return {"notation": notation, "named": named_notation(notation, names),
            **turn_in_words(entry.get("events"), names)}


def _names(state: Mapping) -> dict:
    players = state.get("players") if isinstance(state.get("players"), Mapping) else {}
    return {p: str(i.get("name") or p) for p, i in players.items() if isinstance(i, Mapping)}


__all__ = ["PageAdapter", "GameControlError", "parse_turn", "turn_response", "game_tag"]

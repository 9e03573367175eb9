"""AI seats at a cardboard table: the search player's turns, shown for a person to play.

:class:`AiSeats` is subscribed to the table's session. When a seat the configuration
gives to the AI (``ai = "normal"``) is to move, it thinks in a background thread and
publishes its move: the page shows it (``/api/ai``) and the LEDs pulse where its hunter
goes; a person moves the AI's pawn and the camera confirms it through the normal
tracker, exactly like anybody's move. When the AI's hunter is frightened, it publishes
its flee choice the same way.

The AI's hand is real cardboard from the shared deck: someone taps its cards on the
page (:meth:`set_hand`), referee only. The hand stays here, in memory, never in the
journal nor in the page's public state (only how many cards it holds). After the AI
played a card the page asks for the one drawn in its place. Until its hand is known the
AI waits (``waiting_for`` = ``"hand"``). It never sees the other players' cards: the
table does not know them either.

>>> from session import TableSession
>>> table = TableSession(players=[{"id": "A"}, {"id": "B"}])
>>> seats = AiSeats(table, {"B": "easy"}, background=False)
>>> table.new_game(seed=1); table.place_hunter("A", "0,-3"); table.place_hunter("B", "0,3")
>>> table.play(engine.Pass("A"))  # doctest: +ELLIPSIS
Outcome(...)
>>> seats.public()["B"]["waiting_for"]
'hand'
>>> seats.set_hand("B", [1, 2, 2])
>>> move = seats.public()["B"]["move"]
>>> move["player"], engine.action_from_json(move["action"]) in table.game.legal_actions()
('B', True)
"""

from __future__ import annotations

import logging
import random
import threading
import time

import engine
from engine.cards import CARD_VALUES
from engine.core import HAND_SIZE
from engine.hexgrid import CELL_NAMES, DIRECTION_INDEX, RAYS
from engine.variants import DEFAULT

from .search import LEVELS, InfoSetObservation, SearchPlayer, public_discards

log = logging.getLogger(__name__)


class AiSeats:
    """The AI seats of one table (see the module docstring)."""

    def __init__(self, table, seats: dict, on_move=None, seed=None, background: bool = True):
        self.table = table
        self.levels = {p: level for p, level in seats.items() if level}
        self.players = {p: SearchPlayer(LEVELS[level], random.Random(None if seed is None else f"{seed}:{p}"))
                        for p, level in self.levels.items()}
        #: Called with (player, move dict) when a move or flee choice is ready (the LEDs).
        self.on_move = on_move
        self.background = background
        self._lock = threading.RLock()
        self._hands: dict = {}        # player -> list of card values (cardboard, entered on the page)
        self._moves: dict = {}        # player -> the published move of the current game version
        self._pending_pass: dict = {}  # player -> the card an advised pass discards
        self._version = None
        self._thinking: set = set()
        table.subscribe(self._changed)
        self._consider(table.snapshot())  # a resumed game may wait for an AI already

    # -- hands ---------------------------------------------------------------------
    def set_hand(self, player: str, cards) -> None:
        """The AI's cards as tapped on the page (1 to 3 values of 1-3); thinks again."""
        if player not in self.levels:
            raise ValueError(f"{player!r} is not an AI seat")
        cards = list(cards)
        if not 1 <= len(cards) <= HAND_SIZE or any(c not in CARD_VALUES for c in cards):
            raise ValueError("give 1 to 3 cards, each 1, 2 or 3")
        with self._lock:
            self._hands[player] = sorted(cards)
            self._moves.pop(player, None)
        self._consider(self.table.snapshot())

    def hand(self, player: str) -> tuple:
        with self._lock:
            return tuple(self._hands.get(player, ()))

    # -- what the page shows -------------------------------------------------------------
    def public(self) -> dict:
        """Per AI seat: level, cards held (how many, not which), the move to play (or
        ``None``) and what it waits for (``hand``, ``turn``, ``thinking``)."""
        snap = self.table.snapshot()
        out = {}
        with self._lock:
            for player, level in self.levels.items():
                move = self._moves.get(player)
                if player in self._thinking:
                    waiting = "thinking"
                elif move is not None:
                    waiting = None
                elif self._needs_hand(player, snap):
                    waiting = "hand"
                else:
                    waiting = "turn"
                out[player] = {"level": level, "cards": len(self._hands.get(player, ())), "move": move,
                               "waiting_for": waiting}
        return out

    def _needs_hand(self, player: str, snap) -> bool:
        if snap.position is not None and snap.position.hands is not None:
            return False  # a dealt game (the sandbox's): the engine holds the AI's own cards
        return len(self._hands.get(player, ())) < HAND_SIZE and player in getattr(snap.position, "hunters", {})

    # -- the table's changes --------------------------------------------------------------
    def _changed(self, change, snapshot) -> None:
        if change.kind == "marks":
            return
        with self._lock:
            if change.kind == "played":
                self._spent(change.events)
            if change.kind in ("new_game", "imported"):
                self._hands.clear()
            self._moves.clear()
            self._version = snapshot.version
        self._consider(snapshot)

    def _spent(self, events) -> None:
        """Take the card an AI seat just played out of its hand."""
        for event in events:
            kind = event.get("type")
            if kind == "hunter_moved" and not event.get("continued") and event.get("hunter") in self._hands:
                self._drop(event["hunter"], event.get("distance"))
            elif kind == "passed" and event.get("hunter") in self._hands:
                card = event.get("card") or self._pending_pass.pop(event["hunter"], None)
                self._drop(event["hunter"], card)
            elif kind == "hunter_eliminated" and event.get("hunter") in self._hands:
                self._hands[event["hunter"]] = []

    def _drop(self, player: str, card) -> None:
        hand = self._hands.get(player, [])
        if card in hand:
            hand.remove(card)
        elif hand:
            hand.pop()  # we do not know which: ask for the whole hand again
            hand.clear()

    def _consider(self, snap) -> None:
        if snap.phase != "play" or snap.position is None:
            return
        if snap.needs is not None:
            player, kind = snap.needs.hunter, "flee"
        else:
            player, kind = snap.to_move, "turn"
        if player not in self.levels:
            return
        with self._lock:
            if player in self._moves or player in self._thinking:
                return
            if kind == "turn" and self._needs_hand(player, snap):
                return
            self._thinking.add(player)
            pending = self.table.pending_turn()  # the turn waiting for a flee choice
            obs = self._observation(snap, player)
        args = (snap, player, kind, dict(pending) if pending else None, obs)
        if self.background:
            threading.Thread(target=self._think, args=args, daemon=True, name=f"ai-{player}").start()
        else:
            self._think(*args)

    def _observation(self, snap, player: str) -> InfoSetObservation:
        """What the AI seat may know: the public position, the face-up discards (counted
        from the turns played), its own cards."""
        pos = snap.position.with_(hands=None)
        game = self.table.game
        try:
            discard = public_discards(game) if game is not None and not game.deal else ()
        except Exception:  # the game changed under us: the move will be dropped anyway
            discard = ()
        sizes = tuple((p, HAND_SIZE if p in pos.hunters else 0) for p in pos.players if p != player)
        if snap.position.hands is not None:
            hand = tuple(snap.position.hands.get(player, ()))  # its own cards only
        else:
            hand = tuple(self._hands.get(player) or CARD_VALUES)
        return InfoSetObservation(pos, player, hand, discard, sizes, game.variants if game is not None else DEFAULT)

    def _think(self, snap, player: str, kind: str, pending, obs: InfoSetObservation) -> None:
        started = time.monotonic()
        try:
            ai = self.players[player]
            if kind == "flee":
                move = self._flee(ai, obs, snap, pending)
            else:
                move = self._turn(ai, obs, snap)
        except Exception:
            log.exception("the AI of %s could not decide", player)
            move = None
        finally:
            with self._lock:
                self._thinking.discard(player)
        if move is None:
            return
        move["seconds"] = round(time.monotonic() - started, 2)
        with self._lock:
            if self._version is not None and snap.version != self._version:
                return  # the game moved on while we thought
            self._moves[player] = move
        if self.on_move is not None:
            try:
                self.on_move(player, move)
            except Exception:
                log.exception("showing the AI's move failed")

    def _turn(self, ai: SearchPlayer, obs: InfoSetObservation, snap) -> dict:
        decision = ai.decide(obs)
        action = decision.action
        discard = None
        if isinstance(action, engine.Pass):
            discard = action.card
            with self._lock:
                self._pending_pass[obs.me] = action.card
            if snap.position.hands is None:
                action = engine.Pass(obs.me)  # the done button's pass: the card goes face up, unnamed
        cells = []
        if isinstance(action, engine.Move):
            start = snap.position.hunters[obs.me]
            cells = [CELL_NAMES[c] for c in RAYS[start][DIRECTION_INDEX[action.direction]][:action.distance]]
        best = decision.analysis[0]["win_chance"] if decision.analysis else None
        return {"kind": "turn", "player": obs.me, "action": engine.action_to_json(action),
                "notation": engine.notation.turn_to_text(action), "cells": cells, "discard": discard,
                "win_chance": None if best is None else round(best, 3), "iterations": decision.iterations}

    def _flee(self, ai: SearchPlayer, obs: InfoSetObservation, snap, pending) -> dict | None:
        needs = snap.needs
        if pending is None:
            cell = needs.options[0]
        else:
            before = InfoSetObservation(obs.position, obs.me, obs.hand, obs.discard, obs.hand_sizes, obs.variants)
            cell, _ = ai.choose_flee(before, pending["action"], pending["choices"], needs)
        return {"kind": "flee", "player": obs.me, "hunter": needs.hunter, "cell": CELL_NAMES[cell],
                "cells": [CELL_NAMES[cell]], "notation": f"{needs.hunter}>{CELL_NAMES[cell]}"}


__all__ = ["AiSeats"]

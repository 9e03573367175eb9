"""The game the table is playing, held for the web: referee controls act on it and every
change is published to the hub (and from there to every open page).

The app loop may use this same object (the camera tracker calls :meth:`LiveGame.play`,
the LED driver calls ``hub.update(leds=...)``), or hand ``create_app`` its own object
with these methods.

>>> from companion_web.hub import GameHub
>>> live = LiveGame(GameHub())
>>> live.new_game([{"id": "A", "name": "Ann"}, {"id": "B", "name": "<b>Bo</b>"}], seed=1)
>>> live.state()["phase"], live.state()["next_to_place"]
('setup', 'A')
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping

import engine
from engine.game import Game, RecordError

from .board_svg import DEFAULT_COLOURS, is_colour

MAX_DISPLAY_NAME = 40


class GameControlError(ValueError):
    """A referee command that cannot be carried out; ``code`` is ``illegal_move`` or
    ``bad_request`` as in the command-line contract."""

    def __init__(self, message: str, code: str = "bad_request", rule: str = "", field: str = ""):
        super().__init__(message)
        self.code, self.message, self.rule, self.field = code, message, rule, field

    def to_json(self) -> dict:
        out = {"code": self.code, "message": self.message, "rule": self.rule}
        if self.field:
            out["field"] = self.field
        return out


def _clean_players(players) -> tuple[list[str], dict]:
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise GameControlError("players: give 2 to 4 players", field="players")
    ids, info = [], {}
    for i, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise GameControlError(f"players[{i}]: must be an object", field=f"players[{i}]")
        pid = player.get("id")
        if not isinstance(pid, str) or not engine.core.PLAYER_NAME.match(pid):
            raise GameControlError(f"players[{i}].id: 1-24 characters without spaces or @;:!,/>[]{{}}\"",
                                   field=f"players[{i}].id")
        if pid in ids:
            raise GameControlError(f"players[{i}].id: {pid!r} is used twice", field=f"players[{i}].id")
        name = player.get("name", pid)
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_DISPLAY_NAME:
            raise GameControlError(f"players[{i}].name: 1-{MAX_DISPLAY_NAME} characters", field=f"players[{i}].name")
        colour = player.get("colour") or DEFAULT_COLOURS[i]
        if not is_colour(colour):
            raise GameControlError(f"players[{i}].colour: must be #rrggbb", field=f"players[{i}].colour")
        ids.append(pid)
        # Names are stored as typed; escaping happens where they are shown.
        info[pid] = {"name": name.strip(), "colour": colour.lower()}
    return ids, info


class LiveGame:
    #: False at a real table: the players hold cardboard cards the engine cannot see,
    #: so any card value may be played (``engine.game.Game(deal=False)``).
    DEAL_CARDS = True

    def __init__(self, hub, game: Game | None = None, players_info: Mapping | None = None):
        self.hub = hub
        self.game = game
        self.players_info = dict(players_info or {})
        self.pending: dict | None = None  # a turn waiting for a flee choice
        self.illegal: list = []
        self._lock = threading.RLock()
        if game is not None:
            self.publish()

    # -- reading -----------------------------------------------------------------
    def _log(self) -> list[dict]:
        entries = []
        for line in self.game.record_lines()[1:]:
            entry = json.loads(line)
            if entry.get("undo"):
                if entries:
                    entries.pop()
            else:
                entries.append(entry)
        log = []
        for entry, applied in zip(entries, self.game.history):
            notation = entry.get("turn") or f"{entry.get('place')}@{entry.get('cell')}"
            log.append({"notation": notation, "events": applied.get("events", [])})
        return log

    def state(self) -> dict:
        """The game's part of the hub state (see ``companion_web.hub`` for its keys);
        LEDs and camera are published by their own parts and left as they are."""
        with self._lock:
            if self.game is None:
                return {"phase": "no_game"}
            return {
                "position": engine.position_to_json(self.game.position),
                "players": self.players_info,
                "phase": self.game.phase,
                "next_to_place": self.game.next_to_place(),
                "log": self._log(),
                "winner": self.game.winner,
                "needs": self.pending["needs"] if self.pending else None,
                "illegal": self.illegal,
            }

    def publish(self) -> int:
        with self._lock:
            return self.hub.update(**self.state())

    def record_text(self) -> str:
        with self._lock:
            if self.game is None:
                raise GameControlError("no game is being played")
            return "\n".join(self.game.record_lines()) + "\n"

    # -- referee commands --------------------------------------------------------
    def new_game(self, players, seed=None, variants=None, tiles=None) -> None:
        ids, info = _clean_players(players)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
            raise GameControlError("seed: must be a non-negative integer", field="seed")
        try:
            chosen = engine.Variants.from_json(variants)
        except (ValueError, TypeError) as exc:
            raise GameControlError(str(exc), field="variants") from None
        layout = None
        if tiles is not None:
            if not isinstance(tiles, str):
                raise GameControlError("tiles: give the tiles field of the text notation", field="tiles")
            try:
                layout = engine.notation.tiles_from_text(tiles.strip())
            except engine.BadRequest as exc:
                raise GameControlError(exc.message, field="tiles") from None
        try:
            game = Game.new(ids, seed=seed, variants=chosen, tiles=layout, deal=self.DEAL_CARDS)
        except ValueError as exc:
            raise GameControlError(str(exc), field="tiles" if layout else "players") from None
        with self._lock:
            self.game, self.players_info, self.pending, self.illegal = game, info, None, []
            self.publish()

    def _require_game(self) -> Game:
        if self.game is None:
            raise GameControlError("no game yet: start one in the setup wizard")
        return self.game

    def place_hunter(self, player, cell) -> None:
        with self._lock:
            game = self._require_game()
            if player not in game.players:
                raise GameControlError(f"player: {player!r} is not in this game", field="player")
            try:
                game.place_hunter(player, engine.hexgrid.parse_cell(cell))
            except ValueError as exc:
                raise GameControlError(f"cell: {exc}", field="cell") from None
            except engine.IllegalAction as exc:
                raise GameControlError(exc.message, "illegal_move", exc.rule) from None
            self.publish()

    def play(self, action_json, choices_json=None) -> dict:
        """Play one turn; returns the contract's response (``needs`` set when a frightened
        hunter's owner must choose, in which case nothing changes until he does)."""
        try:
            action = engine.action_from_json(action_json)
            choices = engine.choices_from_json(choices_json)
        except engine.BadRequest as exc:
            raise GameControlError(exc.message, field=exc.field) from None
        with self._lock:
            game = self._require_game()
            try:
                outcome = game.play(action, choices)
            except engine.IllegalAction as exc:
                raise GameControlError(exc.message, "illegal_move", exc.rule) from None
            needs = engine.needs_to_json(outcome.needs)
            self.pending = {"action": action_json, "choices": choices_json or [], "needs": needs} if needs else None
            if not needs:
                self.illegal = []
            self.publish()
            return {"ok": True, "position": engine.position_to_json(game.position), "events": outcome.events,
                    "winner": outcome.winner, "needs": needs}

    def choose_flee(self, cell) -> dict:
        """Complete the turn waiting for a flee choice: the frightened hunter goes to
        ``cell`` (one of the options shown on every page)."""
        with self._lock:
            if not self.pending:
                raise GameControlError("no hunter is waiting to flee", field="cell")
            needs = self.pending["needs"]
            if cell not in needs["options"]:
                raise GameControlError(f"cell: {needs['hunter']} may flee to {', '.join(needs['options'])}",
                                       "illegal_move", needs.get("rule", ""), "cell")
            choices = list(self.pending["choices"]) + [{"hunter": needs["hunter"], "to": cell}]
            return self.play(self.pending["action"], choices)

    def undo(self) -> bool:
        with self._lock:
            done = self._require_game().undo()
            self.pending = None
            self.publish()
            return done

    def mark_illegal(self, marks) -> None:
        """Cross out cells whose observed change is illegal (from the camera tracker)."""
        with self._lock:
            self.illegal = [{"cell": str(m.get("cell")), "reason": str(m.get("reason", ""))}
                            for m in marks if isinstance(m, Mapping)]
            self.publish()

    def import_record(self, text: str) -> None:
        try:
            game = Game.replay(text.splitlines())
        except RecordError as exc:
            raise GameControlError(f"record: {exc}", field="record") from None
        with self._lock:
            self.game, self.pending, self.illegal = game, None, []
            self.players_info = {}  # a record holds no display names: the ids are shown
            self.publish()

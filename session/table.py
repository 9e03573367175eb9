"""The table's one live game: every change goes validate → journal → notify.

A :class:`TableSession` is the only owner of the game being played at a table. The
camera tracker, the web page, the buttons and the LED director never hold a game of
their own: they read :meth:`TableSession.snapshot` and *propose* changes through its
commands (``new_game``, ``place_hunter``, ``play``, ``choose_flee``, ``pass_turn``,
``undo``, ``import_record``). Each command

1. is validated by the engine (an illegal one raises :class:`CommandError` and
   changes nothing),
2. is written to the crash-safe journal and fsync-ed (:mod:`rulekit.journal`): the
   change is worked out on a copy of the game, and applied to the live game only once
   the copy's record lines are on disk — when the write fails, the command raises
   :class:`CommandError` and nothing changed, in memory or on disk,
3. is announced to every subscriber as a :class:`Change`, in order.

>>> from engine import Move
>>> table = TableSession(players=[{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}])
>>> seen = []
>>> unsubscribe = table.subscribe(lambda change, snapshot: seen.append(change.kind))
>>> table.new_game(seed=1, source="page")
>>> table.place_hunter("A", "0,-3"); table.place_hunter("B", "0,3")
>>> table.snapshot().phase, table.snapshot().to_move
('play', 'A')
>>> result = table.play(Move("A", "SE", 1), source="camera")
>>> table.undo(source="page")
True
>>> seen
['new_game', 'placed', 'placed', 'played', 'undo']
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import engine
from engine.game import Game, RecordError
from engine.hexgrid import CELL_NAMES, parse_cell
from rulekit.players import SeatError, default_colour, is_colour, read_seats

from rulekit.journal import Journal, JournalError

log = logging.getLogger(__name__)



class CommandError(ValueError):
    """A command the table refuses; ``code`` is ``illegal_move`` or ``bad_request`` as in
    the command-line contract (or ``journal_failed`` when the journal could not be
    written), ``rule`` the rule section, ``field`` the part at fault."""

    def __init__(self, message: str, code: str = "bad_request", rule: str = "", field: str = ""):
        super().__init__(message)
        self.code, self.message, self.rule, self.field = code, message, rule, field

    def to_json(self) -> dict:
        out = {"code": self.code, "message": self.message, "rule": self.rule}
        if self.field:
            out["field"] = self.field
        return out


@dataclass(frozen=True)
class Change:
    """One change of the table, as subscribers receive it.

    ``kind`` is ``new_game``, ``placed``, ``played``, ``flee_needed``, ``undo``,
    ``imported``, ``resumed`` or ``marks`` (the board disagrees with the game, or
    agrees again); ``source`` says who proposed it (``camera``, ``page``, ``buttons``,
    ``journal``, ...); ``events`` are the engine's events of that change.
    """

    version: int
    kind: str
    source: str
    events: tuple = ()


@dataclass(frozen=True)
class Snapshot:
    """What the table holds at one version, read in one piece (safe across threads)."""

    #: Counts the changes of the game (not the marks): equal versions, same game.
    version: int
    #: ``no_game``, ``setup``, ``play`` or ``over``
    phase: str
    players: tuple = ()
    tiles: tuple | None = None
    #: The engine position; cards in hand are unknown at a cardboard table (``None``).
    position: engine.Position | None = None
    variants: engine.Variants = field(default_factory=engine.Variants)
    next_to_place: str | None = None
    winner: str | None = None
    #: The flee choice a turn is waiting for (``engine.FleeRequest``), if any.
    needs: engine.FleeRequest | None = None
    #: How many placements and turns the game has (undo makes it shrink).
    entries: int = 0

    @property
    def to_move(self) -> str | None:
        return self.position.to_move if self.position is not None and self.phase == "play" else None


Subscriber = Callable[[Change, Snapshot], None]


def clean_players(players) -> tuple[list[str], dict]:
    """Seats in order and their display info, or :class:`CommandError` naming the fault
    (the checks are :func:`rulekit.players.read_seats`).

    >>> clean_players([{"id": "A"}, {"id": "B", "name": " Bo ", "colour": "#00FF00"}])[1]["B"]
    {'name': 'Bo', 'colour': '#00ff00'}
    >>> clean_players([{"id": "A"}, {"id": "A"}])
    Traceback (most recent call last):
    ...
    session.table.CommandError: players[1].id: 'A' is already an earlier seat's id; each player needs his own
    """
    try:
        seats = read_seats(players)
    except SeatError as exc:
        where = "players" if exc.seat is None else f"players[{exc.seat}]" + (f".{exc.key}" if exc.key else "")
        raise CommandError(f"{where}: {exc.reason}", field=where) from None
    return [s.id for s in seats], {s.id: {"name": s.name, "colour": s.colour} for s in seats}


def _cell(value, name: str = "cell") -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < len(CELL_NAMES):
            return value
        raise CommandError(f"{name}: no cell {value}", field=name)
    try:
        return parse_cell(value)
    except (ValueError, TypeError) as exc:
        raise CommandError(f"{name}: {exc}", field=name) from None


class TableSession:
    """The one live game of a table (see the module docstring).

    ``journal=None`` keeps the game in memory only (the referee's sandbox, the
    ``maamut track`` command, tests). ``players`` are the seats used when a new game is
    started without naming them (from the configuration, or the last game's).
    ``deal=False`` (the default) is a cardboard table: the players hold real cards the
    engine cannot see, so any card value may be played.
    """

    def __init__(self, journal: Journal | None = None, players=None, variants: engine.Variants | None = None,
                 deal: bool = False):
        self.journal = journal
        self.deal = deal
        self.variants = variants or engine.Variants()
        self.seats: list[dict] = [dict(p) for p in players] if players else []
        self._game: Game | None = None
        self._players_info: dict = {}
        self._pending: dict | None = None  # a turn waiting for a flee choice
        self._marks: list = []
        self._layout: tuple | None = None
        self._version = 0  # every change, marks included
        self._game_version = 0  # changes of the game only: what a snapshot is "of"
        self._journaled = 0  # record lines of the current game already in the journal
        self._subscribers: list[Subscriber] = []
        self._lock = threading.RLock()

    # -- starting ----------------------------------------------------------------
    @classmethod
    def resume(cls, journal: Journal, players=None, variants=None, deal: bool = False) -> "TableSession":
        """The table with the journal's game (or none); see ``Journal.load`` for damage."""
        table = cls(journal, players, variants, deal)
        loaded = journal.load(Game.replay_prefix)
        #: What the journal set aside at this start (``Loaded.notice()`` tells it).
        table.resumed = loaded
        game = loaded.game
        if game is not None:
            table._game = game
            table._journaled = game.record_length()
            table._players_info = _info_of(game)
            table._layout = tuple(game.tiles)
            table.variants = game.variants
            table._notify("resumed", "journal")
        return table

    # -- reading -----------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The live game itself: read it, never change it (use the commands)."""
        return self._game

    @property
    def version(self) -> int:
        """Counts every change (marks on the board included)."""
        return self._version

    @property
    def layout(self) -> tuple | None:
        """The tiles lying on the table, as far as anyone has said (camera or game)."""
        return self._layout

    def snapshot(self) -> Snapshot:
        with self._lock:
            return self._snapshot()

    def _snapshot(self) -> Snapshot:
        game = self._game
        if game is None:
            return Snapshot(self._game_version, "no_game", variants=self.variants)
        phase = "over" if game.winner else ("setup" if game.phase == "setup" else "play")
        pending = self._pending["needs"] if self._pending else None
        return Snapshot(self._game_version, phase, tuple(game.players), tuple(game.tiles), game.position,
                        game.variants, game.next_to_place(), game.winner, pending, len(game.entries()))

    def game_copy(self) -> Game | None:
        """A copy of the live game, taken in one piece: for readers that take their time
        (a bot thinking) while the table may change."""
        with self._lock:
            if self._game is None:
                return None
            return Game.replay(self._game.record_lines())

    def pending_turn(self) -> dict | None:
        """The turn waiting for a flee choice: ``{"action", "choices", "needs"}`` (engine
        values), or ``None``."""
        with self._lock:
            return dict(self._pending) if self._pending else None

    def players_info(self) -> dict:
        with self._lock:
            return {p: dict(i) for p, i in self._players_info.items()}

    def marks(self) -> list:
        with self._lock:
            return [dict(m) for m in self._marks]

    def locked(self) -> threading.RLock:
        """Hold the table still: ``with table.locked(): ...`` sees no change land until
        it ends, and may itself call the commands (a check, then an act on the same game:
        the page's ``If-Match``)."""
        return self._lock

    def state_json(self) -> dict:
        """The game's part of the page state (keys documented in ``companion_web.hub``)."""
        with self._lock:
            game = self._game
            if game is None:
                return {"phase": "no_game", "illegal": list(self._marks)}
            return {
                "position": engine.position_to_json(game.position),
                "players": self.players_info(),
                "phase": game.phase,
                "next_to_place": game.next_to_place(),
                "log": self._log(game),
                "winner": game.winner,
                "needs": engine.needs_to_json(self._pending["needs"]) if self._pending else None,
                "illegal": [dict(m) for m in self._marks],
            }

    @staticmethod
    def _log(game: Game) -> list[dict]:
        out = []
        for entry, applied in zip(game.entries(), game.history):
            notation = entry.get("turn") or f"{entry.get('place')}@{entry.get('cell')}"
            out.append({"notation": notation, "events": engine.events.to_json(applied.get("events", []))})
        return out

    def record_text(self) -> str:
        with self._lock:
            if self._game is None:
                raise CommandError("no game is being played")
            return "\n".join(self._game.record_lines()) + "\n"

    # -- subscribers -------------------------------------------------------------
    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber(change, snapshot)`` after every change; returns the unsubscribe."""
        with self._lock:
            self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            with self._lock:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)
        return unsubscribe

    def _notify(self, kind: str, source: str, events=()) -> None:
        # Called with the lock held: subscribers see changes one at a time, in order.
        self._version += 1
        if kind != "marks":
            self._game_version += 1
        change = Change(self._version, kind, source, tuple(events))
        snapshot = self._snapshot()
        for subscriber in list(self._subscribers):
            try:
                subscriber(change, snapshot)
            except Exception:  # a broken LED cable or a closed page must not stop the game
                log.exception("subscriber %r failed on %s", subscriber, kind)

    # -- the journal: validate on a copy → journal → apply --------------------------
    def _change(self, change, field: str):
        """Validate → journal → apply: ``change(game)`` runs on a copy of the live game
        first (an illegal change raises there and nothing happened), the copy's new
        record lines are journaled, and only then is the same change applied to the live
        game. Returns what ``change`` returned."""
        game = self._require_game()
        trial = copy.deepcopy(game)
        try:
            result = change(trial)
        except engine.IllegalAction as exc:
            raise CommandError(exc.message, "illegal_move", exc.rule) from None
        if trial.record_length() == game.record_length():
            return result  # nothing to record: a turn waiting for a flee choice, no undo
        if self.journal is not None:
            try:
                self.journal.append(*trial.record_lines(self._journaled))
            except JournalError as exc:
                raise _refused(exc, field) from None
        result = change(game)  # the same change as on the copy: it cannot fail now
        self._journaled = game.record_length()
        return result

    def _replace_game(self, game: Game, field: str) -> None:
        if self.journal is not None:
            try:
                self.journal.begin(game.record_lines())
            except JournalError as exc:
                raise _refused(exc, field) from None
        self._game, self._journaled, self._pending, self._marks = game, game.record_length(), None, []
        self._layout = tuple(game.tiles)

    def _require_game(self) -> Game:
        if self._game is None:
            raise CommandError("no game yet: start one in the setup wizard")
        return self._game

    # -- commands ----------------------------------------------------------------
    def new_game(self, players=None, seed=None, variants=None, tiles=None, source: str = "page") -> None:
        """Deal a new game (setup phase). Without ``players`` the table's seats play;
        without ``tiles`` the layout lying on the table is kept when one is known
        (a camera table), else a random one is laid."""
        ids, info = clean_players(players if players is not None else self.seats)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
            raise CommandError("seed: must be a non-negative integer", field="seed")
        if variants is None:
            chosen = self.variants
        elif isinstance(variants, engine.Variants):
            chosen = variants
        else:
            try:
                chosen = engine.Variants.from_json(variants)
            except (ValueError, TypeError) as exc:
                raise CommandError(str(exc), field="variants") from None
        layout = None
        if isinstance(tiles, str):
            try:
                layout = engine.notation.tiles_from_text(tiles.strip())
            except engine.BadRequest as exc:
                raise CommandError(exc.message, field="tiles") from None
        elif tiles is not None:
            try:
                layout = tuple(engine.Tile(t) for t in tiles)
            except (ValueError, TypeError):
                raise CommandError("tiles: give the tiles field of the text notation", field="tiles") from None
        with self._lock:
            if layout is None:
                layout = self._layout
            try:
                game = Game.new(ids, seed=seed, variants=chosen, tiles=layout, deal=self.deal,
                                table={"players": info})
            except ValueError as exc:
                raise CommandError(str(exc), field="tiles" if layout else "players") from None
            self._replace_game(game, "players")
            self._players_info = info
            self.seats = [{"id": p, **info[p]} for p in ids]
            self.variants = chosen
            self._notify("new_game", source)

    def place_hunter(self, player, cell, source: str = "page") -> None:
        with self._lock:
            game = self._require_game()
            if player not in game.players:
                raise CommandError(f"player: {player!r} is not in this game", field="player")
            where = _cell(cell)
            self._change(lambda g: g.place_hunter(player, where), "player")
            self._notify("placed", source, game.history[-1]["events"])

    def play(self, action: engine.Action, choices=(), source: str = "page") -> engine.Outcome:
        """Play one turn. When a frightened hunter's owner must choose, the outcome's
        ``needs`` is set, nothing changes yet and every page shows the options; the turn
        completes with :meth:`choose_flee` (or is dropped by :meth:`undo`)."""
        choices = tuple(choices)
        with self._lock:
            outcome = self._change(lambda g: g.play(action, choices), "action")
            if outcome.needs is not None:
                self._pending = {"action": action, "choices": choices, "needs": outcome.needs}
                self._notify("flee_needed", source, outcome.events)
                return outcome
            self._pending, self._marks = None, []
            self._notify("played", source, outcome.events)
            return outcome

    def choose_flee(self, cell, source: str = "page") -> engine.Outcome:
        """Complete the turn waiting for a flee choice: the frightened hunter goes to ``cell``."""
        with self._lock:
            if not self._pending:
                raise CommandError("no hunter is waiting to flee", field="cell")
            needs = self._pending["needs"]
            try:
                where = _cell(cell)
            except CommandError:
                where = None
            if where not in needs.options:
                options = ", ".join(CELL_NAMES[o] for o in needs.options)
                raise CommandError(f"cell: {needs.hunter} may flee to {options}", "illegal_move",
                                   "flight.frighten", "cell")
            choices = self._pending["choices"] + ((needs.hunter, where),)
            return self.play(self._pending["action"], choices, source)

    def pass_turn(self, card: int | None = None, source: str = "buttons") -> engine.Outcome:
        """The player to move discards a card and passes (the *done* button)."""
        with self._lock:
            game = self._require_game()
            if game.phase != "play":
                raise CommandError("no turn to pass: the game is not being played")
            return self.play(engine.Pass(game.position.to_move, card), (), source)

    def undo(self, source: str = "page") -> bool:
        """Take back a waiting flee choice's turn if there is one, else the last
        placement or turn. False when there was nothing to take back."""
        with self._lock:
            self._require_game()
            if self._pending:
                # The waiting turn was never committed: only it is dropped.
                self._pending = None
                self._notify("undo", source)
                return True
            done = self._change(lambda g: g.undo(), "undo")
            if done:
                self._marks = []
                self._notify("undo", source)
            return done

    def import_record(self, text: str, source: str = "page") -> None:
        try:
            game = Game.replay(text.splitlines())
        except RecordError as exc:
            raise CommandError(f"record: {exc}", field="record") from None
        with self._lock:
            self._replace_game(game, "record")
            self._players_info = _info_of(game)
            self.variants = game.variants
            self._notify("imported", source)

    def mark_board(self, marks, source: str = "camera") -> None:
        """Show the cells where the board disagrees with the game (``[]``: it agrees again).

        Marks are ``{"cell": "q,r", "reason": "..."}``; they are not part of the game,
        so they are not journaled.
        """
        clean = [{"cell": str(m.get("cell")), "reason": str(m.get("reason", ""))}
                 for m in marks if isinstance(m, Mapping)]
        with self._lock:
            if clean == self._marks:
                return
            self._marks = clean
            self._notify("marks", source)

    def set_layout(self, tiles) -> None:
        """The tiles the camera sees on the table: new games are laid with them."""
        with self._lock:
            self._layout = tuple(engine.Tile(t) for t in tiles)

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()


def _refused(exc: JournalError, field: str) -> CommandError:
    """The table's answer to a change the journal could not take (nothing was applied)."""
    if exc.unwritable:
        return CommandError(f"{field}: {exc.message}", "bad_request", "request.format", field)
    return CommandError(exc.message, "journal_failed")


def _info_of(game: Game) -> dict:
    """Display names and colours kept in the record's header (ids when there are none)."""
    stored = game.table.get("players") if isinstance(game.table, dict) else None
    info = {}
    for i, player in enumerate(game.players):
        entry = stored.get(player) if isinstance(stored, dict) else None
        name = entry.get("name") if isinstance(entry, dict) else None
        colour = entry.get("colour") if isinstance(entry, dict) else None
        info[player] = {"name": name if isinstance(name, str) and name.strip() else player,
                        "colour": colour if is_colour(colour) else default_colour(i)}
    return info


__all__ = ["TableSession", "Snapshot", "Change", "CommandError", "clean_players"]

"""The game tracker: from stable camera observations to validated engine actions.

The tracker holds the one true game state and only ever changes it through the
engine. Each stable board the camera commits is compared with what the engine says
can follow:

* at setup, the tiles are read once, checked against the box's counts and locked;
  then hunters appear one at a time, the i-th colour seen belonging to the i-th
  player in seating order;
* in play, ``engine.successors`` lists every complete resolution of every legal
  action; the board that matches one of them *is* that action (a move's card value is
  its distance). A pass leaves the board unchanged, so it is confirmed by a button or
  the web page through :meth:`GameTracker.confirm_pass`;
* a board that is on its way to one of them (the hunter moved, the mammoth and the
  frightened hunters not yet put where the flight sends them) is waited for quietly;
* anything else is reported with the cells involved, and the tracker waits for the
  board to be put right. The game state is never changed by a report.

What a camera cannot see is never guessed at: tokens stacked on one cell hide one
another (:meth:`BoardView.explains` says which hiding is physically possible), a
change on an unreadable cell is not committed, a hunter that vanishes counts as
eliminated only if he was seen walking into it (otherwise he is in a player's hand),
and stacked boards that two different games would explain are reported, not chosen.

Cells are engine cell ids; hunters and traps in observations carry the calibration's
colour labels, mapped to players as they are placed.
"""

from __future__ import annotations

from dataclasses import dataclass

import engine
from engine.game import Game
from engine.hexgrid import CELL_NAMES, CENTRE, DIRECTIONS, NUM_CELLS, RAYS

from .observation import Observation
from .stability import StabilityFilter


@dataclass(frozen=True)
class BoardView:
    """The tokens a camera can see: where the mammoth, each hunter and each trap is.

    Hunters and trap owners are player names (or ``"?label"`` for a colour that
    belongs to nobody yet). ``mammoth`` is ``None`` while the token is off the board.
    """

    mammoth: int | None
    hunters: frozenset  # of (player, cell)
    traps: frozenset  # of (cell, owner)

    @classmethod
    def of_position(cls, pos: engine.Position) -> "BoardView":
        return cls(pos.mammoth, frozenset(pos.hunters.items()), frozenset(pos.traps.items()))

    def masked(self, cells) -> "BoardView":
        """This board as a camera shows it with ``cells`` unreadable: their tokens left out.

        >>> BoardView(18, frozenset({("A", 7), ("B", 9)}), frozenset({(7, "A")})).masked({7, 18})
        BoardView(mammoth=None, hunters=frozenset({('B', 9)}), traps=frozenset())
        """
        if not cells:
            return self
        return BoardView(None if self.mammoth in cells else self.mammoth,
                         frozenset(h for h in self.hunters if h[1] not in cells),
                         frozenset(t for t in self.traps if t[0] not in cells))

    def explains(self, seen: "BoardView", on_top=frozenset()) -> bool:
        """True if a camera looking at this board could report ``seen``.

        Tokens can stack: hunters share cells (moves ignore other hunters) and the
        mammoth can stand on a trap or a hunter. The camera then sees only the top
        token, so a hunter may be missing from ``seen`` if its cell shows another
        hunter or the mammoth, a trap if the mammoth stands on it, and the mammoth if
        a hunter stands on it (then it also hides any trap under it). Nothing seen may be
        somewhere this board does not have it.
        A hunter standing on a trap may be read as the trap alone (a reader's blind
        spot when both share a colour). Hunters in ``on_top`` were put down during the
        action, on top of any hunter already there, so one of them can only be hidden
        by another one of them or by the mammoth: a hunter lifted off the board is never
        mistaken for one that arrived under something.

        >>> board = BoardView(18, frozenset({("A", 7), ("B", 7)}), frozenset({(18, "A")}))
        >>> board.explains(BoardView(18, frozenset({("A", 7)}), frozenset()))
        True
        >>> board.explains(BoardView(18, frozenset({("B", 7)}), frozenset({(18, "A")})))
        True
        >>> board.explains(BoardView(18, frozenset({("A", 7)}), frozenset({(5, "A")})))
        False
        >>> board.explains(BoardView(18, frozenset({("A", 7)}), frozenset({(18, "A")})), on_top={"B"})
        False
        """
        if not (seen.hunters <= self.hunters and seen.traps <= self.traps):
            return False
        seen_cells = {cell for _, cell in seen.hunters}
        trap_cells = {cell for cell, _ in seen.traps}
        if seen.mammoth != self.mammoth:
            # Hidden under a hunter, the mammoth still covers any trap below it: a trap
            # seen on that cell proves the mammoth is not there.
            if not (seen.mammoth is None and self.mammoth in seen_cells and self.mammoth not in trap_cells):
                return False
        shown_at = {cell: player for player, cell in seen.hunters}
        for player, cell in self.hunters - seen.hunters:
            if cell == self.mammoth:
                continue
            if player not in on_top and cell in trap_cells:
                continue  # standing still on a trap, read as the trap alone
            if cell not in shown_at or (player in on_top and shown_at[cell] not in on_top):
                return False
        return all(cell == self.mammoth for cell, _ in self.traps - seen.traps)

    def hunter_cells(self) -> dict[str, int]:
        return dict(self.hunters)

    def changed_cells(self, other: "BoardView") -> list[int]:
        """Cells whose tokens differ between the two views, sorted.

        >>> a = BoardView(18, frozenset({("A", 0)}), frozenset())
        >>> b = BoardView(18, frozenset({("A", 2)}), frozenset({(5, "A")}))
        >>> a.changed_cells(b)
        [0, 2, 5]
        """
        cells = set()
        if self.mammoth != other.mammoth:
            cells.update(c for c in (self.mammoth, other.mammoth) if c is not None)
        cells.update(cell for _, cell in self.hunters ^ other.hunters)
        cells.update(cell for cell, _ in self.traps ^ other.traps)
        return sorted(cells)


def _names(cells) -> list[str]:
    return [CELL_NAMES[c] for c in sorted(set(cells))]


def straight_move(start: int, end: int) -> tuple[str, int] | None:
    """Direction and distance of a straight line from ``start`` to ``end``, if there is one.

    >>> from engine.hexgrid import parse_cell
    >>> straight_move(parse_cell("-2,2"), parse_cell("0,2"))
    ('E', 2)
    >>> straight_move(parse_cell("-2,2"), parse_cell("0,1")) is None
    True
    """
    for d, ray in enumerate(RAYS[start]):
        if end in ray:
            return DIRECTIONS[d], ray.index(end) + 1
    return None


@dataclass
class Candidate:
    """One complete resolution of a legal action, as ``engine.successors`` gives it."""

    action: object
    choices: tuple
    outcome: engine.Outcome
    view: BoardView
    #: cells the mover may stand on while the rest of the board catches up
    mover_path: frozenset
    #: hunters this resolution puts down on a new cell (they end up on top of a stack)
    arrived: frozenset = frozenset()
    #: cells whose tokens this resolution changes: they must be readable to commit it
    changed: frozenset = frozenset()

    def allows_progress(self, before: BoardView, seen: BoardView, hidden=frozenset()) -> bool:
        """True if ``seen`` lies between ``before`` and this candidate's result.

        Every token must be where it was, where it ends up, or (hunters and the
        mammoth) off the board in someone's hand; the mover may also stand anywhere
        on the path he walked, e.g. on the mammoth's cell before the flight is shown.
        Traps may be half removed (an eliminated player's) but nothing new may appear.
        """
        if seen.mammoth not in (before.mammoth, self.view.mammoth, None):
            return False
        old, new = before.hunter_cells(), self.view.hunter_cells()
        mover = getattr(self.action, "hunter", None)
        for player, cell in seen.hunters:
            allowed = {old.get(player), new.get(player)}
            if player == mover:
                allowed |= self.mover_path
            if cell not in allowed:
                return False
        # A trap under the mammoth, or on an unreadable cell, is not seen.
        common = {t for t in before.traps & self.view.traps if t[0] != seen.mammoth and t[0] not in hidden}
        return common <= seen.traps <= (before.traps | self.view.traps)


def _malformed(observation) -> str | None:
    """Why an observation cannot be matched at all (cells off the board, wrong types)."""
    if not isinstance(observation, Observation):
        return f"expected an Observation, got {type(observation).__name__}"
    cells = list(observation.hunters.values()) + list(observation.traps)
    if observation.mammoth is not None:
        cells.append(observation.mammoth)
    bad = [c for c in cells if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < NUM_CELLS]
    if bad:
        return f"cell ids must be 0..{NUM_CELLS - 1}, got {bad}"
    if observation.tiles is not None and len(observation.tiles) != NUM_CELLS:
        return f"{NUM_CELLS} tiles expected, got {len(observation.tiles)}"
    return None


class TrackerError(Exception):
    """A request the tracker cannot honour now (e.g. a pass in the middle of a move)."""


class GameTracker:
    """Follows one game from the empty board to its end (see the module docstring).

    ``observe`` takes a *stable* observation (from a :class:`StabilityFilter`);
    ``feed`` takes every camera observation and filters it first.

    >>> from engine.notation import tiles_from_text
    >>> from vision.observation import Observation
    >>> tiles = tiles_from_text("sgrs/gsggs/gggrrg/sssxggs/rsrrsg/ggggs/ggrg")
    >>> tracker = GameTracker(["A", "B"])
    >>> def board(hunters, mammoth=CENTRE, traps=None, with_tiles=False):
    ...     return Observation(0.0, True, False, tuple(t.value for t in tiles) if with_tiles else None,
    ...                        None, mammoth, hunters, traps or {}, (1.0,) * 37)
    >>> tracker.observe(board({}, with_tiles=True)); tracker.phase
    'placing'
    >>> tracker.observe(board({"c0": 0})); tracker.observe(board({"c0": 0, "c1": 36})); tracker.phase
    'playing'
    >>> tracker.observe(board({"c0": 5, "c1": 36}))  # A walks 1 step SE: 0,-3 -> 0,-2
    >>> tracker.actions[-1]["action"]
    {'type': 'move', 'hunter': 'A', 'direction': 'SE', 'distance': 1}
    >>> tracker.observe(board({"c0": 5, "c1": 30}))  # B cannot jump 0,3 -> -1,2
    >>> tracker.reports[-1]["type"], tracker.reports[-1]["cells"]
    ('illegal_move', ['-1,2', '0,3'])
    """

    def __init__(self, players, variants: engine.Variants | None = None, tiles=None,
                 stability: StabilityFilter | None = None):
        self.players = tuple(players)
        self.variants = variants or engine.Variants()
        self.stability = stability or StabilityFilter()
        self.label_to_player: dict[str, str] = {}
        self.tiles: tuple[engine.Tile, ...] | None = None
        self._game: Game | None = None
        self.position: engine.Position | None = None
        self.placements: list[dict] = []
        self.actions: list[dict] = []
        self.history: list[engine.Position] = []  # the position before each action, for undo
        self.reports: list[dict] = []
        self.winner: str | None = None
        self.phase = "layout"
        self._last_observation: Observation | None = None
        self._last_time = 0.0
        self._pending: list[Candidate] = []
        self._mover_trail: set[int] = set()  # cells the player to move was seen on during his move
        self._candidates: list[Candidate] | None = None
        self._last_reported: tuple | None = None
        if not 2 <= len(self.players) <= 4:
            raise ValueError("Mâamut is played by 2 to 4 players")
        if tiles is not None:
            self._lock_tiles(tuple(engine.Tile(t) for t in tiles), timestamp=0.0)
        self.stability.include_tiles = self.phase == "layout"

    @property
    def last_observation(self) -> Observation | None:
        """The stable observation the tracker acted on last (for the camera view on the page)."""
        return self._last_observation

    # -- feeding -------------------------------------------------------------------
    def feed(self, observation: Observation) -> bool:
        """Take one camera observation; True if it completed a stable board."""
        if not isinstance(observation, Observation):
            self._report("bad_observation", f"expected an Observation, got {type(observation).__name__}", [],
                         self._last_time)
            return False
        stable = self.stability.feed(observation)
        if stable is None:
            return False
        self.observe(stable)
        return True

    def observe(self, observation: Observation) -> None:
        """Act on one stable observation.

        Whatever goes wrong while matching (a malformed observation, an engine error)
        becomes a report: the game state is only ever replaced by an engine outcome.
        """
        problem = _malformed(observation)
        if problem:
            self._report("bad_observation", problem, [], getattr(observation, "timestamp", self._last_time))
            return
        try:
            self._observe(observation)
        except Exception as exc:  # noqa: BLE001 - the table must keep its game whatever happens
            self._report("internal_error", f"{type(exc).__name__}: {exc}", [], observation.timestamp)

    def _observe(self, observation: Observation) -> None:
        self._last_time = observation.timestamp
        if self.phase == "layout":
            self._observe_layout(observation)
            self.stability.include_tiles = self.phase == "layout"
            return
        self._last_observation = observation
        seen = self._view_of(observation)
        hidden = frozenset(observation.occluded_cells)
        if self.phase == "placing":
            self._observe_placing(seen, observation.timestamp, hidden)
        elif self.phase == "playing":
            self._observe_playing(seen, observation.timestamp, hidden)

    def _view_of(self, observation: Observation) -> BoardView:
        def owner(label):
            return self.label_to_player.get(label, f"?{label}")
        return BoardView(
            observation.mammoth,
            frozenset((owner(label), cell) for label, cell in observation.hunters.items()),
            frozenset((cell, owner(label)) for cell, label in observation.traps.items()),
        )

    # -- reports -------------------------------------------------------------------
    def _report(self, kind: str, message: str, cells, timestamp: float, **extra) -> None:
        key = (kind, message, tuple(sorted(set(cells))))
        if key == self._last_reported:
            return  # the same wrong board seen again after a hand passed: said once
        self._last_reported = key
        report = {"type": kind, "time": round(timestamp, 3), "cells": _names(cells), "message": message}
        report.update(extra)
        self.reports.append(report)

    def _board_is_right(self) -> None:
        self._last_reported = None

    # -- setup: tiles ----------------------------------------------------------------
    def _observe_layout(self, observation: Observation) -> None:
        if observation.tiles is None:
            return
        try:
            tiles = tuple(engine.Tile(name) for name in observation.tiles)
        except ValueError as exc:
            self._report("unreadable_layout", str(exc), [], observation.timestamp)
            return
        tokens = ([c for c in observation.hunters.values()] + list(observation.traps)
                  + ([observation.mammoth] if observation.mammoth not in (None, CENTRE) else []))
        if tokens or observation.mammoth is None:
            self._report("setup_not_empty", "setup starts with an empty board and the mammoth on the cross",
                         tokens, observation.timestamp)
            return
        self._lock_tiles(tiles, observation.timestamp)

    def _lock_tiles(self, tiles: tuple, timestamp: float) -> None:
        try:
            game = Game.new(self.players, seed=0, variants=self.variants, tiles=tiles)
        except ValueError as exc:
            bad = [c for c in range(len(tiles)) if tiles[c] is engine.Tile.CROSS and c != CENTRE]
            if tiles and tiles[CENTRE] is not engine.Tile.CROSS:
                bad.append(CENTRE)
            self._report("invalid_layout", str(exc), bad, timestamp)
            return
        self._game = game
        self.tiles = tiles
        self.phase = "placing"
        self._board_is_right()

    def resume(self, game: Game) -> None:
        """Carry on with a game the companion already holds (after a restart or a power cut).

        The tiles are locked as the game has them, colour label ``c{i}`` is the i-th player
        in seating order (the order the calibration learnt them), and the tracker waits for
        the board to show the game's position.

        >>> game = Game.new(["A", "B"], seed=3)
        >>> game.place_hunter("A", game.start_cells()[0])
        >>> tracker = GameTracker(["A", "B"])
        >>> tracker.resume(game)
        >>> tracker.phase, tracker.label_to_player
        ('placing', {'c0': 'A', 'c1': 'B'})
        """
        if tuple(game.players) != self.players:
            raise TrackerError(f"the game is played by {', '.join(game.players)}, not {', '.join(self.players)}")
        self._lock_tiles(tuple(game.tiles), 0.0)
        self.label_to_player = {f"c{i}": player for i, player in enumerate(self.players)}
        self.placements = []
        for player in self.players:
            cell = game.position.hunters.get(player) if game.phase == "setup" else None
            if game.phase != "setup":
                continue
            if cell is not None:
                self._game.place_hunter(player, cell)
                self.placements.append({"hunter": player, "cell": CELL_NAMES[cell], "label": f"c{self.players.index(player)}"})
        if game.phase != "setup":
            self.position = game.position.with_(hands=None)
            self.winner = game.winner
            self.phase = "over" if game.winner else "playing"
        self.history, self.actions, self._pending, self._candidates = [], [], [], None
        self.stability.include_tiles = False

    # -- setup: hunters ----------------------------------------------------------------
    def _observe_placing(self, seen: BoardView, timestamp: float, hidden=frozenset()) -> None:
        game = self._game
        placed = BoardView.of_position(game.position).masked(hidden)
        if seen == placed:
            self._board_is_right()
            return
        new = [(label[1:], cell) for label, cell in seen.hunters if label.startswith("?")]
        rest = BoardView(seen.mammoth, frozenset(h for h in seen.hunters if not h[0].startswith("?")), seen.traps)
        if len(new) == 1 and rest == placed:
            label, cell = new[0]
            player = game.next_to_place()
            try:
                game.place_hunter(player, cell)
            except engine.IllegalAction as exc:
                self._report("illegal_placement", exc.message, [cell], timestamp, hunter=player)
                return
            self.label_to_player[label] = player
            self.placements.append({"hunter": player, "cell": CELL_NAMES[cell], "label": label})
            self._board_is_right()
            if game.phase == "play":
                # Cards in hand are unseen: the engine then allows any card value.
                self.position = game.position.with_(hands=None)
                self.phase = "playing"
            return
        self._report("unrecognised_change",
                     f"expected {game.next_to_place()}'s hunter to be placed on an outer cell, nothing else",
                     placed.changed_cells(seen), timestamp)

    # -- play -------------------------------------------------------------------------
    def candidates(self) -> list[Candidate]:
        """Every complete resolution of every legal action from the current position."""
        if self._candidates is None:
            found = []
            for action, choices, outcome in self._successors():
                path = frozenset()
                if isinstance(action, engine.Move):
                    start = self.position.hunters[action.hunter]
                    path = frozenset(RAYS[start][engine.hexgrid.DIRECTION_INDEX[action.direction]][:action.distance])
                view = BoardView.of_position(outcome.position)
                arrived = frozenset(p for p, cell in view.hunters if self.position.hunters.get(p) != cell)
                changed = frozenset(BoardView.of_position(self.position).changed_cells(view))
                found.append(Candidate(action, tuple(choices), outcome, view, path, arrived, changed))
            self._candidates = found
        return self._candidates

    def _successors(self):
        """``engine.successors``, or the same walk one action at a time if it fails.

        An engine error on one action (a bug, a variant it cannot resolve) must not cost
        the game: the other actions are still recognised and the failure is reported.
        """
        try:
            return list(engine.successors(self.position, self.variants))
        except engine.EngineError:
            pass
        found = []
        for action in engine.legal_actions(self.position, self.variants):
            stack = [()]
            while stack:
                choices = stack.pop()
                try:
                    outcome = engine.apply_action(self.position, action, choices, self.variants)
                except engine.EngineError as exc:
                    self._report("engine_error", f"{engine.notation.action_to_text(action)}: {exc.message}",
                                 [], self._last_time)
                    continue
                if outcome.needs is None:
                    found.append((action, choices, outcome))
                else:
                    stack.extend(choices + ((outcome.needs.hunter, option),) for option in outcome.needs.options)
        return found

    def _observe_playing(self, seen: BoardView, timestamp: float, hidden=frozenset()) -> None:
        """Match a stable board; tokens on ``hidden`` (unreadable) cells are unknown.

        A resolution is only committed when every cell it changes is readable.
        """
        before = BoardView.of_position(self.position).masked(hidden)
        if seen == before:
            self._pending, self._mover_trail = [], set()
            self._board_is_right()
            return
        mover = self.position.to_move
        at = seen.hunter_cells().get(mover)
        if at is not None and at != self.position.hunters.get(mover):
            self._mover_trail.add(at)
        candidates = self.candidates()
        # A mover who vanishes was eliminated on his way only if he was seen on it:
        # a hunter simply picked up (the player thinking, hand away) looks the same.
        readable = [c for c in candidates if not c.changed & hidden and self._mover_evidenced(c)]
        exact = [c for c in readable if c.view.masked(hidden) == seen]
        if not exact and before.explains(seen):
            # Nothing changed but a hunter now hidden in a stack (or lifted from it):
            # keep his trail, he may be in the player's hand on his way somewhere.
            self._pending = []
            self._board_is_right()
            return
        if not exact:
            # Stacked tokens hide one another: accept a hidden token only when every
            # resolution that fits leads to the same game, else ask for a clearer board.
            exact = [c for c in readable if c.view.masked(hidden).explains(seen, on_top=c.arrived)]
            if len({c.outcome.position for c in exact}) > 1:
                cells = sorted({cell for c in exact for cell in c.view.changed_cells(seen)})
                self._report("ambiguous_board", "tokens stacked on one cell hide which action this was: "
                             "set the hidden token beside the other one", cells, timestamp)
                return
        if exact and self._hunter_maybe_in_hand(exact, candidates, before, seen, hidden):
            self._pending = [c for c in candidates if c.allows_progress(before, seen, hidden)]
            self._board_is_right()
            return
        if exact:
            # Several resolutions can leave the same board (a mover eliminated whatever
            # his card): prefer one the board was already seen heading to.
            preferred = [c for c in exact if any(c.action == p.action for p in self._pending)]
            self._commit((preferred or exact)[0], timestamp)
            return
        progress = [c for c in candidates if c.allows_progress(before, seen, hidden)]
        if progress:
            self._pending = progress
            self._board_is_right()
            return
        self._report_unexplained(before, seen, timestamp)

    @staticmethod
    def _hunter_maybe_in_hand(exact, candidates, before: BoardView, seen: BoardView, hidden) -> bool:
        """True if a hunter these resolutions eliminate may just be on his way to a flee cell.

        A frightened hunter taken off the board is either eliminated or in his owner's
        hand while he chooses where to flee. When another resolution of the turn keeps
        him on the board and the board is still on its way to it, wait for the board.
        """
        gone = {p for p, _ in before.hunters} - {p for c in exact for p, _ in c.view.hunters}
        gone -= {getattr(c.action, "hunter", None) for c in exact}
        if not gone:
            return False
        positions = {c.outcome.position for c in exact}
        return any(c.outcome.position not in positions and gone & {p for p, _ in c.view.hunters}
                   and c.allows_progress(before, seen, hidden) for c in candidates)

    def _mover_evidenced(self, candidate: Candidate) -> bool:
        mover = getattr(candidate.action, "hunter", None)
        if mover is None or mover in candidate.view.hunter_cells():
            return True
        return bool(self._mover_trail & candidate.mover_path)

    def _commit(self, candidate: Candidate, timestamp: float) -> None:
        outcome = candidate.outcome
        self._mover_trail = set()
        self.history.append(self.position)
        self.actions.append({
            "action": engine.action_to_json(candidate.action),
            "choices": engine.choices_to_json(candidate.choices),
            "events": outcome.events,
            "time": round(timestamp, 3),
        })
        self.position = outcome.position
        self._candidates = None
        self._pending = []
        self._board_is_right()
        if outcome.winner is not None:
            self.winner = outcome.winner
            self.phase = "over"

    def _report_unexplained(self, before: BoardView, seen: BoardView, timestamp: float) -> None:
        reference = before
        if self._pending:
            # Mid-flight, say what is wrong against the nearest board the flight allows.
            reference = min((c.view for c in self._pending), key=lambda v: len(v.changed_cells(seen)))
        cells = reference.changed_cells(seen)
        old, new = before.hunter_cells(), seen.hunter_cells()
        moved = [p for p in old if p in new and new[p] != old[p]]
        only_one_hunter_moved = (len(moved) == 1 and seen.mammoth == before.mammoth
                                 and seen.traps == before.traps and set(new) == set(old))
        if only_one_hunter_moved:
            player = moved[0]
            if player != self.position.to_move:
                self._report("out_of_turn", f"{player} moved but it is {self.position.to_move}'s turn "
                             f"(confirm a pass if {self.position.to_move} passed)", cells, timestamp,
                             hunter=player)
                return
            line = straight_move(old[player], new[player])
            if line is None:
                message = f"{CELL_NAMES[old[player]]} to {CELL_NAMES[new[player]]} is not a straight line"
                rule = "move.straight"
            else:
                try:
                    engine.check_action(self.position, engine.Move(player, *line), self.variants)
                    message, rule = "this move is legal but the board does not show its result", ""
                except engine.IllegalAction as exc:
                    message, rule = exc.message, exc.rule
            self._report("illegal_move", message, cells, timestamp, hunter=player, rule=rule)
            return
        self._report("unrecognised_change", "the board shows a change no legal action explains",
                     cells, timestamp)

    # -- buttons ------------------------------------------------------------------------
    def confirm_pass(self, card: int | None = None) -> dict:
        """The player to move discards and passes (button or web page); returns the action.

        Refused (``TrackerError``) outside play, while a move is on its way, and while
        the board shows a change that neither the pass nor a move after it explains; if
        the board already shows the next player's move, it is matched at once.
        """
        if self.phase != "playing":
            raise TrackerError(f"no pass can be confirmed now: the tracker is in its {self.phase} phase")
        if self._pending:
            raise TrackerError(f"{self.position.to_move} has started a move: finish it or put it back first")
        action = engine.Pass(self.position.to_move, card)
        try:
            outcome = engine.apply_action(self.position, action, (), self.variants)
        except engine.IllegalAction as exc:
            raise TrackerError(exc.message) from exc
        reported_before = self._last_reported
        self._commit(Candidate(action, (), outcome, BoardView.of_position(outcome.position), frozenset()),
                     self._last_time)
        passed = self.actions[-1]
        if self.phase == "playing" and self._last_observation is not None:
            # The board may already show the next player's move (pass pressed late).
            reports = len(self.reports)
            self._observe_playing(self._view_of(self._last_observation), self._last_time,
                                  frozenset(self._last_observation.occluded_cells))
            if self._last_reported is not None and self.actions[-1] is passed:
                # Neither the pass nor a move after it explains the board: the camera
                # may not have seen this player's own move yet. A pass on top of that
                # would be a wrong commit, so take it back and ask for the board first.
                del self.reports[reports:]
                self.undo()
                self._last_reported = reported_before
                raise TrackerError("the board shows a change the game cannot explain yet: "
                                   "put it right (or let the camera see the move), then confirm the pass")
        return passed

    def undo(self) -> dict | None:
        """Take back the last committed action (a wrong commit, or a pass pressed by mistake).

        The board must then be put back as it was; returns the action taken back.
        """
        if not self.history:
            return None
        self.position = self.history.pop()
        self.winner = None
        self.phase = "playing"
        self._candidates = None
        self._pending, self._mover_trail = [], set()
        self._board_is_right()
        return self.actions.pop()

    # -- status -------------------------------------------------------------------------
    def waiting_for(self) -> dict | None:
        """What the board must still show to finish the move under way (for LEDs / page)."""
        if not self._pending:
            return None
        mammoth = sorted({c.view.mammoth for c in self._pending})
        hunters: dict[str, set] = {}
        for c in self._pending:
            for player, cell in c.view.hunters:
                hunters.setdefault(player, set()).add(cell)
        return {"mammoth": _names(mammoth),
                "hunters": {p: _names(cells) for p, cells in hunters.items()}}

    def to_json(self) -> dict:
        tiles = None
        if self.tiles is not None:
            tiles = {CELL_NAMES[i]: t.value for i, t in enumerate(self.tiles)}
        return {
            "tiles": tiles,
            "placements": list(self.placements),
            "actions": list(self.actions),
            "position": engine.position_to_json(self.position) if self.position is not None else None,
            "winner": self.winner,
            "phase": self.phase,
            "reports": list(self.reports),
        }

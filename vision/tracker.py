"""The game tracker: from stable camera observations to actions proposed to the table.

The tracker keeps no game of its own. The table's one live game is a
:class:`session.TableSession`; the tracker reads its position, matches each stable
board the camera commits against what the engine says can follow, and *proposes* the
action it sees. The table decides (and journals it). When the table changes in a way
the tracker did not propose (an undo, a move entered on the page, a new game, a resume
after a restart), the tracker re-synchronises: it proposes nothing until the board
shows the table's position again, and meanwhile marks on the table the cells where the
board disagrees ("put the mammoth back on 1,-2"). The camera loop never dies of it.

Matching a stable board:

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
  board to be put right. A report never changes the game.

What a camera cannot see is never guessed at: tokens stacked on one cell hide one
another (:meth:`BoardView.explains` says which hiding is physically possible), a
change on an unreadable cell is not committed, a hunter that vanishes counts as
eliminated only if he was seen walking into it (otherwise he is in a player's hand),
and stacked boards that two different games would explain are reported, not chosen.

Cells are engine cell ids; hunters and traps in observations carry the calibration's
colour labels, mapped to players as they are placed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

import engine
from engine.hexgrid import CELL_NAMES, CENTRE, DIRECTIONS, NUM_CELLS, RAYS, parse_cell
from session import CommandError, Snapshot, TableSession

from .observation import Observation
from .questions import CellQuestions, Contents, Question, contents_of_view
from .stability import CHANGE_AT_REST, CHANGE_SHOWN, BoardChanges, ChangeEvidence, StabilityFilter


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
        >>> stack = BoardView(18, frozenset({("A", 7), ("B", 7)}), frozenset({(7, "B")}))
        >>> stack.explains(BoardView(18, frozenset({("A", 7), ("B", 7)}), frozenset()))   # the trap under both
        True
        >>> BoardView(18, frozenset({("A", 7)}), frozenset({(7, "A")})).explains(
        ...     BoardView(18, frozenset({("A", 7)}), frozenset()))   # one hunter does not cover it
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
        # A trap is covered by the mammoth, or by a stack of hunters seen standing on it
        # (two pieces cover a token whole: sim.flatart development game 3,600,008).
        stacked = {cell for cell in shown_at if sum(at == cell for _, at in self.hunters) >= 2}
        return all(cell == self.mammoth or cell in stacked for cell, _ in self.traps - seen.traps)

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


#: Each cell's neighbours.
NEIGHBOURS = tuple(frozenset(n for n in range(NUM_CELLS) if engine.hexgrid.distance(n, c) == 1)
                   for c in range(NUM_CELLS))


def _pieces(contents) -> int:
    """How much a cell's contents cover, roughly: a hunter or a trap one, the mammoth two."""
    return len(contents.hunters) + (contents.trap is not None) + 2 * contents.mammoth


def _arrivals(before: "BoardView", candidate) -> list[int]:
    """The cells ``candidate`` leaves more pieces on than ``before`` has there."""
    return [x for x in candidate.changed
            if _pieces(contents_of_view(candidate.view, x)) > _pieces(contents_of_view(before, x))]


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


#: A resolution the cells' changes show by this much (shares of a hunter's size: the
#: least change where it puts or takes a piece, less the most change elsewhere) is
#: proposed when no other fits within CHANGES_MARGIN of it; several that fit are asked.
CHANGES_FIT = 0.2
CHANGES_MARGIN = 0.3
#: A piece put down shows at least this much on its cell, even on another piece.
CHANGES_ARRIVAL = 0.1
#: Resolutions that fit by this much are asked about when none is clear.
CHANGES_ASK = 0.1
#: The reader's match is not proposed when a cell it changes shows less than this, or a
#: cell it leaves alone more than CHANGES_LEAK (a misreading the changes contradict).
CHANGES_DENY = 0.15
CHANGES_LEAK = 0.6
#: A trap put down or taken up under the hunter who stays on it shows only where he
#: does not cover it: as much change as a cell at rest never shows (a piece nudged in
#: place stays under CHANGE_AT_REST) is enough for that turn when nothing else on the
#: board changed that much (sim.tabletop development game 5,520,005: a ring around a
#: standing black pawn, a third of a pawn's change, every other resolution far behind).
TRAP_TURN_SHOWN = CHANGE_AT_REST
#: A change elsewhere leaves a resolution that puts no piece on an empty cell
#: unexplained only when it is at least this share of the resolution's own change:
#: one cell's print flickering a little over the line (an empty edge cell at 0.6 of a
#: piece beside a trap put down under its hunter at 4.5, sim.flatart development game
#: 3,200,007) is no piece gained or lost ...
UNEXPLAINED_SHARE = 0.25
#: ... but a change of this much (three quarters of a hunter's size) always is: a piece
#: put down elsewhere stays unexplained beside however wide a trap.
UNEXPLAINED_ALWAYS = 0.75
#: A move whose cells show less than this (shares of a hunter's size) is not taken from
#: the changes alone while the reader, sure or not, reads the mover still on his cell
#: over a new trap of his (:meth:`GameTracker._mover_read_setting_trap`).
MOVE_SHOWN_ALONE = 1.0
#: Most resolutions offered in one question.
MAX_ASKED = 4
#: A hand lifting hunters off a cell takes away at most this many times their size
#: (as learnt at setup: a tall piece leans, shadows move); more is a trap taken up.
LIFT_MARGIN = 1.4
#: The most a small hunter's step counts over its change (:meth:`GameTracker._mover_scale`):
#: a piece a fifth of the others' size counts as half of one at most, so the sensor's
#: noise on his cells is never taken for his step.
MOVER_SCALE_MAX = 2.5

#: The tracker's phases, by the phase of the table's game.
PHASES = {"no_game": "layout", "setup": "placing", "play": "playing", "over": "over"}


def build_candidates(position: engine.Position, variants: engine.Variants, on_error=None) -> list[Candidate]:
    """Every complete resolution of every legal action from ``position``.

    An engine error on one action (a bug, a variant it cannot resolve) must not cost
    the game: the other actions are still listed and ``on_error(message)`` is told.
    """
    found = []
    for action, choices, outcome in _successors(position, variants, on_error):
        path = frozenset()
        if isinstance(action, engine.Move):
            start = position.hunters[action.hunter]
            path = frozenset(RAYS[start][engine.hexgrid.DIRECTION_INDEX[action.direction]][:action.distance])
        view = BoardView.of_position(outcome.position)
        arrived = frozenset(p for p, cell in view.hunters if position.hunters.get(p) != cell)
        changed = frozenset(BoardView.of_position(position).changed_cells(view))
        found.append(Candidate(action, tuple(choices), outcome, view, path, arrived, changed))
    return found


def _successors(position, variants, on_error):
    try:
        return list(engine.successors(position, variants))
    except engine.EngineError:
        pass
    found = []
    for action in engine.legal_actions(position, variants):
        stack = [()]
        while stack:
            choices = stack.pop()
            try:
                outcome = engine.apply_action(position, action, choices, variants)
            except engine.EngineError as exc:
                if on_error is not None:
                    on_error(f"{engine.notation.action_to_text(action)}: {exc.message}")
                continue
            if outcome.needs is None:
                found.append((action, choices, outcome))
            else:
                stack.extend(choices + ((outcome.needs.hunter, option),) for option in outcome.needs.options)
    return found


def disagreement_marks(expected: BoardView, seen: BoardView) -> list[dict]:
    """What to put right, cell by cell, for the board to show the game's position.

    >>> from engine.hexgrid import parse_cell as c
    >>> game = BoardView(c("1,-2"), frozenset({("A", c("0,-3"))}), frozenset({(c("2,0"), "B")}))
    >>> board = BoardView(c("0,0"), frozenset({("A", c("0,-2"))}), frozenset())
    >>> [(m["cell"], m["reason"]) for m in disagreement_marks(game, board)]  # doctest: +NORMALIZE_WHITESPACE
    [('1,-2', 'put the mammoth back on 1,-2'), ('0,0', 'the mammoth belongs on 1,-2'),
     ('0,-3', "put A's hunter back on 0,-3"), ('0,-2', "A's hunter belongs on 0,-3"),
     ('2,0', "put B's trap back on 2,0")]
    """
    marks = []

    def mark(cell, reason):
        marks.append({"cell": CELL_NAMES[cell], "reason": reason})

    if expected.mammoth != seen.mammoth:
        if expected.mammoth is not None:
            mark(expected.mammoth, f"put the mammoth back on {CELL_NAMES[expected.mammoth]}")
        if seen.mammoth is not None:
            where = CELL_NAMES[expected.mammoth] if expected.mammoth is not None else "nowhere"
            mark(seen.mammoth, f"the mammoth belongs on {where}")
    want, have = expected.hunter_cells(), seen.hunter_cells()
    for player in sorted(set(want) | set(have), key=lambda p: (p.startswith("?"), p)):
        at, seen_at = want.get(player), have.get(player)
        if at == seen_at:
            continue
        name = f"{player}'s hunter" if not player.startswith("?") else "this hunter"
        if at is not None:
            mark(at, f"put {name} back on {CELL_NAMES[at]}")
        if seen_at is not None:
            mark(seen_at, f"{name} belongs on {CELL_NAMES[at]}" if at is not None else f"take {name} off the board")
    for cell, owner in sorted(expected.traps - seen.traps):
        if cell != seen.mammoth:
            mark(cell, f"put {owner}'s trap back on {CELL_NAMES[cell]}")
    for cell, owner in sorted(seen.traps - expected.traps):
        mark(cell, f"take the trap off {CELL_NAMES[cell]}")
    return marks


def _not_sure_of(observation: Observation) -> frozenset:
    """The cells the reader does not read surely: covered, or read unsure."""
    return frozenset(observation.occluded_cells) | frozenset(observation.unsure_cells)


def _changed_off_cross(strength: np.ndarray) -> set[int]:
    """The cells whose change (:meth:`ChangeEvidence.strength`) is past
    :data:`CHANGE_AT_REST`, the cross left out (the mammoth's noise is his own)."""
    return {int(x) for x in np.flatnonzero(np.abs(strength) >= CHANGE_AT_REST)} - {CENTRE}


def _shaded_by_arrivals(candidate: Candidate, beside, seen: BoardView | None,
                        observation: Observation | None) -> dict[int, int]:
    """The empty cells beside a hunter ``candidate`` brings, each with the cell he
    arrives on, where his shadow or lean may fall: the reader reads him where he
    arrives (surely or not) and no hunter, nor the mammoth, on the cell beside, none
    of it covered. (A trap read there may be that shadow: none is ever put down
    where no hunter stands.) :meth:`vision.stability.ChangeEvidence.fit` forgives part
    of a gain there."""
    if seen is None or not candidate.arrived:
        return {}
    standing = {cell for _, cell in seen.hunters} | {seen.mammoth} | set(observation.occluded_cells)
    shaded = {}
    for player, cell in candidate.view.hunters:
        if player in candidate.arrived and (player, cell) in seen.hunters and cell not in observation.occluded_cells:
            shaded.update({n: cell for n in NEIGHBOURS[cell] & beside if n not in standing})
    return shaded


class GameTracker:
    """Follows the table's game on camera (see the module docstring).

    ``observe`` takes a *stable* observation (from a :class:`StabilityFilter`);
    ``feed`` takes every camera observation and filters it first. ``table`` is the
    table's :class:`session.TableSession`; without one the tracker proposes to a table
    of its own kept in memory (``maamut track``, tests).

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

    The referee takes A's move back on the page: the board must show it undone before
    the camera proposes anything again.

    >>> tracker.table.undo(source="page")
    True
    >>> tracker.observe(board({"c0": 5, "c1": 36}))
    >>> tracker.reports[-1]["type"], tracker.table.marks()[0]
    ('board_differs', {'cell': '0,-3', 'reason': "put A's hunter back on 0,-3"})
    >>> tracker.observe(board({"c0": 0, "c1": 36})); tracker.table.marks()
    []
    """

    def __init__(self, players=None, variants: engine.Variants | None = None, tiles=None,
                 stability: StabilityFilter | None = None, table: TableSession | None = None):
        if table is None:
            if not players:
                raise ValueError("a tracker without a table needs the players")
            table = TableSession(players=[{"id": p} for p in players], variants=variants)
        self.table = table
        snap = table.snapshot()
        self.players = tuple(players) if players else (snap.players or tuple(s["id"] for s in table.seats))
        if not 2 <= len(self.players) <= 4:
            raise ValueError("Mâamut is played by 2 to 4 players")
        self.stability = stability or StabilityFilter()
        self.label_to_player: dict[str, str] = {}
        #: The tiles the camera saw laid out at setup (``None`` until it has).
        self.layout: tuple | None = None
        self.reports: list[dict] = []
        self._times: dict[int, float] = {}  # entry index -> camera time it was committed at
        self._version: int | None = None  # the table's version the matching state belongs to
        self._in_step = True
        self._marked = False
        self._last_observation: Observation | None = None
        self._last_time = 0.0
        self._pending: list[Candidate] = []
        self._mover_trail: set[int] = set()  # cells the player to move was seen on during his move
        self._candidates: tuple | None = None  # (position, variants, list)
        self._last_reported: tuple | None = None
        #: Unsure cells that matter are asked, never guessed (:mod:`vision.questions`).
        self.questions = CellQuestions()
        #: What changed on each cell since the game's board was last seen
        #: (:class:`vision.stability.BoardChanges`, given by the camera pipeline once the
        #: setup was seen): the rules pick the one action those changes show.
        self.board_changes: BoardChanges | None = None
        self._evidence: ChangeEvidence | None = None
        #: A still board since the last commit showed a change nothing was committed for
        #: (asked about, reported): turns may have gone by unseen since, so none is
        #: inferred (:meth:`_propose_hidden_then_next`).
        self._change_left = False
        #: The cells a change left unmatched had changed, when it showed a piece put down.
        self._left_cells: frozenset | None = None
        #: A still board since the last commit showed a hunter lifted and was left to wait
        #: for him: a hunter that arrives next may be a rival's, on a turn played since
        #: (the lifted one hidden in a stack), so a misnamed arrival decides nothing.
        self._lift_left = False
        #: The first turns of a board read surely ahead on cells at rest, asked about
        #: (:meth:`_ask_when_ahead_at_rest`): hidden turns may be inferred from them on.
        self._read_ahead: frozenset = frozenset()
        self._answering = False
        #: (table version, position) of resolutions the referee said the board does not show.
        self._refuted: set[tuple] = set()
        #: (table version, position) of resolutions the cells showed clearly and the reader
        #: read against (:meth:`_read_against`): only the referee commits them.
        self._doubted: set[tuple] = set()
        #: Traps the reader kept reading where the game has none, since its last entry:
        #: (the game's entries, {cell: frames read}) (:meth:`_note_traps_read`).
        self._traps_read: tuple[int, dict[int, int]] = (-1, {})
        if tiles is not None:
            self._start_game(tuple(engine.Tile(t) for t in tiles), 0.0)
        self.stability.include_tiles = self.phase == "layout"

    # -- the table, as the tracker sees it ------------------------------------------
    @property
    def phase(self) -> str:
        """``layout``, ``placing``, ``playing`` or ``over``: the table's game phase."""
        return PHASES[self.table.snapshot().phase]

    @property
    def in_step(self) -> bool:
        """False while the board has not yet shown a change made elsewhere (page, undo)."""
        return self._in_step

    @property
    def tiles(self) -> tuple | None:
        return self.table.snapshot().tiles

    @property
    def position(self) -> engine.Position | None:
        """The table's position with the cards in hand left out (a camera cannot see them)."""
        snap = self.table.snapshot()
        return snap.position.with_(hands=None) if snap.phase in ("play", "over") else None

    @property
    def winner(self) -> str | None:
        return self.table.snapshot().winner

    @property
    def last_observation(self) -> Observation | None:
        """The stable observation the tracker acted on last (for the camera view on the page)."""
        return self._last_observation

    def label_of(self, player: str) -> str:
        """The calibration's colour label of a player's pieces (``c0``... in seat order)."""
        return self._label_of(player)

    def _label_of(self, player: str) -> str:
        return next((label for label, p in self.label_to_player.items() if p == player),
                    f"c{self.players.index(player)}" if player in self.players else "?")

    @property
    def placements(self) -> list[dict]:
        game = self.table.game
        if game is None:
            return []
        return [{"hunter": e["place"], "cell": e["cell"], "label": self._label_of(e["place"])}
                for e in game.entries() if "place" in e]

    @property
    def actions(self) -> list[dict]:
        """The table's turns: the contract's action and choices, the engine's events, and
        the camera time the tracker saw each (``None`` for a turn entered elsewhere)."""
        game = self.table.game
        if game is None:
            return []
        out = []
        for index, (entry, applied) in enumerate(zip(game.entries(), game.history)):
            if "action" in entry:
                out.append({"action": entry["action"], "choices": entry.get("choices", []),
                            "events": engine.events.to_json(applied.get("events", [])),
                            "time": self._times.get(index)})
        return out

    def _sync(self) -> Snapshot:
        """The table's snapshot; a change the tracker did not propose puts it out of step."""
        snap = self.table.snapshot()
        if snap.version != self._version:
            self._version = snap.version
            self._pending, self._mover_trail = [], set()
            self._forget_left_change()   # the game changed elsewhere: the board it measured is gone
            self._in_step = snap.phase == "no_game"
            self._last_reported = None
            self._times = {i: t for i, t in self._times.items() if i < snap.entries}
            for i, player in enumerate(snap.players):
                if player not in self.label_to_player.values():
                    # after a restart the colours are those the calibration learnt, in seat order
                    self.label_to_player.setdefault(f"c{i}", player)
        return snap

    def _proposed(self) -> None:
        """The table took the tracker's own proposal: it is in step with the board."""
        self._version = self.table.snapshot().version
        self._in_step = True

    # -- feeding -------------------------------------------------------------------
    def feed(self, observation: Observation, changes: ChangeEvidence | None = None) -> bool:
        """Take one camera observation; True if it completed a stable board.

        ``changes`` (from :class:`vision.stability.BoardChanges`) is what changed on each
        cell since the game's board was last seen, on a board held still: when it shows
        one legal action clearly, that action is proposed whatever the reader makes of
        the pieces; when it shows several, the referee is asked which.
        """
        if not isinstance(observation, Observation):
            self._report("bad_observation", f"expected an Observation, got {type(observation).__name__}", [],
                         self._last_time)
            return False
        self._evidence = changes
        observation = self._hunters_read_as_their_traps(observation)
        self._note_traps_read(observation)
        asked = self.questions.current
        if asked is not None and self.table.snapshot().version != asked.version:
            self.questions.current = None  # the game changed elsewhere: the question is stale
        start = self._progress()
        pending = self.questions.current
        if changes is not None and changes.settled and pending is not None:
            # The board settled anew: look again (the piece asked about may have been
            # put down since, or the next player moved on: the cells' changes may now
            # tell the turn); the question stands if nothing clearer comes of it.
            self.questions.current = None
        if changes is not None and (changes.settled or changes.waited) and self.questions.current is None:
            self._last_time = observation.timestamp
            if self._observe_changes(changes, observation):
                self.stability.reset(forget_committed=True)
                return True
            if pending is not None and self.questions.current is None and self.table.snapshot().version == pending.version:
                self.questions.current = pending
        prepared = self.questions.prepare(observation, self)
        stable = self.stability.feed(prepared)
        if stable is None:
            return False
        before = self._progress()
        if before != start:
            return True   # the changes were matched on this frame already
        self.observe(stable)
        self.questions.forget_sure_cells(observation)
        self.questions.consider(self, committed=self._progress() != before)
        return True

    def _progress(self) -> tuple:
        snap = self.table.snapshot()
        return snap.phase, snap.entries

    def observe(self, observation: Observation) -> None:
        """Act on one stable observation.

        Whatever goes wrong while matching (a malformed observation, an engine error, a
        refusal by the table) becomes a report: the game is only ever changed by the
        table accepting a proposal.
        """
        problem = _malformed(observation)
        if problem:
            self._report("bad_observation", problem, [], getattr(observation, "timestamp", self._last_time))
            return
        try:
            self._observe(observation)
        except Exception as exc:  # noqa: BLE001 - the table must keep its game whatever happens
            self._report("internal_error", f"{type(exc).__name__}: {exc}", [], observation.timestamp)
        self.stability.include_tiles = self.phase == "layout"

    def _observe(self, observation: Observation) -> None:
        self._last_time = observation.timestamp
        snap = self._sync()
        if snap.phase == "no_game":
            self._observe_layout(observation)
            return
        seen = self._view_of(observation)
        hidden = frozenset(observation.occluded_cells)
        if not self._misread_at_rest(snap, seen, hidden):
            self._last_observation = observation
        if not self._in_step:
            expected = BoardView.of_position(snap.position).masked(hidden)
            if seen != expected and not expected.explains(seen):
                self._report_disagreement(expected, seen, observation.timestamp)
                return
            self._in_step = True
            self._board_is_right()
            if self.board_changes is not None:
                self.board_changes.rest()
        if snap.phase == "setup":
            self._observe_placing(snap, seen, observation.timestamp, hidden)
        elif snap.phase == "play":
            self._observe_playing(snap, seen, observation.timestamp, hidden, reading=observation)

    def _hunters_read_as_their_traps(self, observation: Observation) -> Observation:
        """``observation`` with each trap that cannot be where it is read taken for its
        owner's hunter, read unsure: a trap of a player the reader reads nowhere, on a
        cell where the game has no trap and does not have him (his one such trap read).
        No turn puts a trap where its owner never stood since the game's last entry; his
        own piece, just stepped there, read as his trap, is the reader's commonest
        misreading of a move (sim.tabletop development game 5,800,015 and sim.flatart
        3,800,002 and 3,800,006: the step refused or asked about, and the game stalled)."""
        snap = self.table.snapshot()
        if snap.phase != "play" or not observation.traps:
            return observation
        position = snap.position
        seen = self._view_of(observation)
        read = {player for player, _ in seen.hunters}
        astray = {}
        for cell, owner in seen.traps:
            if owner not in read and owner in position.hunters and position.hunters[owner] != cell \
                    and cell not in position.traps:
                astray.setdefault(owner, []).append(cell)
        moved = {observation.traps[cells[0]]: cells[0] for cells in astray.values() if len(cells) == 1}
        if not moved:
            return observation
        return replace(observation, hunters={**observation.hunters, **moved},
                       traps={c: label for c, label in observation.traps.items() if c not in moved.values()},
                       unsure_cells=tuple(sorted({*observation.unsure_cells, *moved.values()})))

    def _view_of(self, observation: Observation) -> BoardView:
        def owner(label):
            return self.label_to_player.get(label, f"?{label}")
        return BoardView(
            observation.mammoth,
            frozenset((owner(label), cell) for label, cell in observation.hunters.items()),
            frozenset((cell, owner(label)) for cell, label in observation.traps.items()),
        )

    # -- reports -------------------------------------------------------------------
    def _report(self, kind: str, message: str, cells, timestamp: float, marks=None, **extra) -> None:
        key = (kind, message, tuple(sorted(set(cells))))
        if key == self._last_reported:
            return  # the same wrong board seen again after a hand passed: said once
        self._last_reported = key
        report = {"type": kind, "time": round(timestamp, 3), "cells": _names(cells), "message": message}
        report.update(extra)
        self.reports.append(report)
        if len(self.reports) > 1000:  # hours at a stand: keep memory flat
            del self.reports[:500]
        if marks is None:
            marks = [{"cell": name, "reason": message} for name in report["cells"]]
        if marks:
            self.table.mark_board(marks, source="camera")
            self._marked = True

    def _report_disagreement(self, expected: BoardView, seen: BoardView, timestamp: float) -> None:
        marks = disagreement_marks(expected, seen)
        cells = sorted({parse_cell(m["cell"]) for m in marks})
        reasons = "; ".join(dict.fromkeys(m["reason"] for m in marks))
        self._report("board_differs", f"the board differs from the game: {reasons}", cells, timestamp, marks=marks)

    def _board_is_right(self) -> None:
        self._last_reported = None
        if self._marked:
            self._marked = False
            self.table.mark_board([], source="camera")

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
        self._start_game(tiles, observation.timestamp)

    def _start_game(self, tiles: tuple, timestamp: float) -> None:
        """The empty board is laid out: propose a new game with these tiles to the table."""
        players = None if self.table.seats else [{"id": p} for p in self.players]
        try:
            self.table.new_game(players, tiles=tiles, source="camera")
        except CommandError as exc:
            bad = [c for c in range(len(tiles)) if tiles[c] is engine.Tile.CROSS and c != CENTRE]
            if tiles and tiles[CENTRE] is not engine.Tile.CROSS:
                bad.append(CENTRE)
            self._report("invalid_layout", exc.message, bad, timestamp)
            return
        self.layout = tiles
        self._proposed()
        self._board_is_right()

    # -- setup: hunters ----------------------------------------------------------------
    def _observe_placing(self, snap: Snapshot, seen: BoardView, timestamp: float, hidden=frozenset()) -> None:
        placed = BoardView.of_position(snap.position).masked(hidden)
        if seen == placed:
            self._board_is_right()
            return
        player = snap.next_to_place
        arrived = [(who, cell) for who, cell in seen.hunters - placed.hunters
                   if who.startswith("?") or who == player]
        rest = BoardView(seen.mammoth, seen.hunters - frozenset(arrived), seen.traps)
        if len(arrived) == 1 and rest == placed:
            who, cell = arrived[0]
            try:
                self.table.place_hunter(player, cell, source="camera")
            except CommandError as exc:
                self._report("illegal_placement", exc.message, [cell], timestamp, hunter=player)
                return
            if who.startswith("?"):
                self.label_to_player[who[1:]] = player
            self._proposed()
            self._board_is_right()
            return
        self._report("unrecognised_change",
                     f"expected {player}'s hunter to be placed on an outer cell, nothing else",
                     placed.changed_cells(seen), timestamp)

    # -- play -------------------------------------------------------------------------
    def candidates(self) -> list[Candidate]:
        """Every complete resolution of every legal action from the table's position."""
        snap = self.table.snapshot()
        position = snap.position.with_(hands=None)
        if self._candidates is None or self._candidates[:2] != (position, snap.variants):
            def on_error(message):
                self._report("engine_error", message, [], self._last_time)
            self._candidates = (position, snap.variants, build_candidates(position, snap.variants, on_error))
        return self._candidates[2]

    def _observe_playing(self, snap: Snapshot, seen: BoardView, timestamp: float, hidden=frozenset(),
                         reading: Observation | None = None) -> None:
        """Match a stable board; tokens on ``hidden`` (unreadable) cells are unknown.

        A resolution is only proposed when every cell it changes is readable; one the
        cells' changes deny is asked about (``reading``: the settled board read).
        """
        position = snap.position
        before = BoardView.of_position(position).masked(hidden)
        if seen == before:
            self._pending, self._mover_trail = [], set()
            self._board_is_right()
            return
        mover = position.to_move
        at = seen.hunter_cells().get(mover)
        if at is not None and at != position.hunters.get(mover):
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
            chosen = (preferred or exact)[0]
            if self._moved_on_from_left(chosen):
                return  # a turn was shown and left unanswered: the table has moved on since
            if self._changes_deny(position, chosen):
                self._ask_after_denial(snap, chosen, timestamp, reading)
                return
            self._propose(snap, chosen, timestamp)
            return
        progress = [c for c in candidates if c.allows_progress(before, seen, hidden)]
        if progress:
            self._pending = progress
            self._board_is_right()
            return
        if self._ask_when_ahead_at_rest(snap, seen, readable, timestamp, reading, hidden):
            return
        self._report_unexplained(snap, before, seen, timestamp)

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

    # -- the cells' changes (vision.stability.BoardChanges) ---------------------------------
    def _scored_by_changes(self, position: engine.Position, evidence: ChangeEvidence, candidates=None,
                           spill_on_mammoth: bool = False, observation: Observation | None = None) -> list:
        """Every legal resolution (or ``candidates``, their ``changed`` cells counted from
        ``position``) with how well the cells' changes show it, best first:
        ``[(fit, strength, leak, candidate)]`` (see :meth:`ChangeEvidence.fit`).

        With ``spill_on_mammoth`` (the reader surely sees the mammoth's cell as it was),
        a resolution that leaves him there is not blamed for his cell's change: a piece
        coming or going beside a standing figure changes his cell too (sim.tabletop
        development game 5,520,015: half a piece's worth), a figure nudged or turned in
        place does (5,800,002: 1.7 pieces' worth, the mammoth a cell away from the step),
        and no hunter ends on his cell without his flight. With ``observation`` (the
        reader's), a tall hunter's shadow beside the cell he reached is no leak
        (:func:`_shaded_by_arrivals`)."""
        before = BoardView.of_position(position)
        seen = None if observation is None else self._view_of(observation)
        mammoth = position.mammoth
        spilt = evidence
        if spill_on_mammoth and mammoth is not None:
            change = evidence.change.copy()
            change[mammoth] = 0.0
            spilt = replace(evidence, change=change)
        scored = []
        for c in self.candidates() if candidates is None else candidates:
            ways, shown = {}, []
            for x in c.changed:
                was, now = contents_of_view(before, x), contents_of_view(c.view, x)
                ways[x] = int(np.sign(_pieces(now) - _pieces(was)))
                # A piece put down on an empty cell or taken off it shows; a trap put
                # down under a hunter, a hunter joining another, may hide under what
                # was there.
                if was.empty != now.empty and not (was.mammoth and now.mammoth):
                    shown.append(x)   # (beside the mammoth, a hunter is lost in its own noise)
            # Only a trap spills round the hunter over it: a hunter leaving or joining a
            # stack does not, and a neighbour's change is then another turn's or a
            # hand's (sim.flatart development game 3,600,008: A's step onto B's cell
            # took in a hand beside it and A's own longer step, fitting perfectly).
            spills = not shown and not isinstance(c.action, engine.Move)
            near = {n for x in c.changed for n in NEIGHBOURS[x]} if spills else ()
            # Empty cells beside a piece put down or taken off: a tall piece overhangs them.
            beside = {n for x in shown for n in NEIGHBOURS[x]
                      if contents_of_view(before, n).empty and contents_of_view(c.view, n).empty}
            scale = self._mover_scale(c, evidence)
            judged = spilt if c.view.mammoth == mammoth and mammoth not in c.changed else evidence
            shaded = _shaded_by_arrivals(c, beside, seen, observation)
            scored.append((*judged.fit(mammoth, ways, shown, near, beside, scale, shaded), c))
        scored.sort(key=lambda item: -item[0])
        return scored

    def _mover_scale(self, candidate: Candidate, evidence: ChangeEvidence) -> float:
        """How much a move's cells' change counts: the hunters' median size over the
        mover's own, as setup learnt them (at least 1, at most MOVER_SCALE_MAX). A
        small piece changes its cells less than the others do (sim.tabletop development
        games 5,510,019 and 5,520,012: hunters a fifth and a half of the others' size
        stepped, and each step, clearly the best fit, showed under a piece's worth).
        Other turns (a trap put down or taken up) change by a trap's size, not learnt."""
        if not isinstance(candidate.action, engine.Move):
            return 1.0
        size = self._setup_size(candidate.action.hunter)
        return 1.0 if not size or size <= 0 else float(np.clip(evidence.size / size, 1.0, MOVER_SCALE_MAX))

    def _small_mover_stepped(self, position: engine.Position, evidence: ChangeEvidence) -> bool:
        """Whether the player to move, a piece smaller than the hunters' median as setup
        learnt it, shows a step of his at his own size (:meth:`_mover_scale`) while the
        board is at rest at the common measure: a green pawn on grass changed his two
        cells by a sixth of the others' size, two fifths of his (sim.tabletop development
        game 5,510,007 saw no change at all, and the next turns piled up unasked)."""
        size = self._setup_size(position.to_move) if position.to_move else None
        if not size or evidence.size <= size:
            return False
        steps = [c for c in self.candidates() if isinstance(c.action, engine.Move)]
        return any(fit >= CHANGES_FIT and strength >= CHANGE_AT_REST
                   for fit, strength, _, _ in self._scored_by_changes(position, evidence, steps))

    def _setup_size(self, player: str) -> float | None:
        """How many grid points ``player``'s hunter changed when put down at setup, if
        the tracker saw the setup (:attr:`BoardChanges.hunter_sizes`, seat order)."""
        sizes = self.board_changes.hunter_sizes if self.board_changes is not None else ()
        seat = self.players.index(player) if player in self.players else len(sizes)
        return sizes[seat] if seat < len(sizes) else None

    def _observe_changes(self, evidence: ChangeEvidence, observation: Observation) -> bool:
        """Match a still board by what changed on its cells; True when a turn was proposed
        or a question asked. One legal resolution clearly shown is proposed; of several that
        fit about as well, the one the reader sees (every cell it reads surely), else the
        referee is asked; a change on its way (a flight) is waited for."""
        timestamp = observation.timestamp
        snap = self._sync()
        if snap.phase != "play" or not self._in_step:
            return False
        position = snap.position.with_(hands=None)
        if evidence.at_rest(position.mammoth) and not self._small_mover_stepped(position, evidence):
            return False
        if self._moved_on_since_left(position, evidence):
            if not self._read_ahead or not observation.board_found:
                return False
            alone = max((fit for fit, _, _, _ in self._scored_by_changes(position, evidence)), default=0.0)
            return self._propose_hidden_then_next(snap, position, evidence, observation, alone, first=self._read_ahead)
        if self._misplaces_still_hunters(position, evidence, observation):
            observation = replace(observation, unsure_cells=tuple(range(NUM_CELLS)))
        # A mover who vanishes was eliminated on his way only if he was seen on it.
        scored = [item for item in self._scored_by_changes(
            position, evidence, spill_on_mammoth=self._mammoth_read_in_place(position, observation),
            observation=observation)
            if self._mover_evidenced(item[3])]
        if not scored:
            return False
        fit, strength, leak, best = scored[0]
        # Pieces only taken off, with nothing put down where they go, may be in a
        # player's hand on their way: wait, and ask if the board stays so.
        lifted = (self._lifted(position, evidence) and not self._arrived(position, evidence, best)
                  and not self._still_standing(position, evidence, observation))
        # ... unless another resolution that fits shows its piece put down: then the best
        # hides its own arrival, and only the reader can tell the two apart.
        arrived_elsewhere = lifted and self._arrived_as_fitted(position, evidence, scored)
        lifted = lifted and not arrived_elsewhere
        if lifted and not evidence.waited:
            self._lift_left = True
            return False
        # A rival that leaves a piece-sized change unexplained, where the best leaves
        # none, is no rival (sim.flatart development game 3,210,003: a small piece's
        # two-cell step, against a step onto another hunter's cell that leaves the cell
        # reached unexplained).
        rivals = [item for item in scored[1:] if item[3].outcome.position != best.outcome.position
                  and not (item[2] >= CHANGE_SHOWN and leak < CHANGE_AT_REST)]
        clear = (not lifted and not arrived_elsewhere and fit >= CHANGES_FIT
                 and strength >= self._shown_bar(position, best, leak, observation)
                 and (not rivals or rivals[0][0] <= fit - CHANGES_MARGIN))
        read_against = clear and self._read_against(position, evidence, best, scored, observation)
        if read_against:
            # (Only this turn's are ever looked up: a long game keeps no older ones.)
            self._doubted = {k for k in self._doubted if k[0] == snap.version} | {(snap.version, best.outcome.position)}
        if (clear and not read_against
                and self._stays_seen(position, best, observation)
                and not self._arrival_unexplained(position, evidence, best)
                and not self._trap_seen_left_out(best, observation)
                and not (strength < MOVE_SHOWN_ALONE and self._mover_read_setting_trap(position, best, observation))
                and ((leak < CHANGES_LEAK and not self._leaves_stack(position, best))
                     or (self._arrivals_seen(position, best, observation)
                         and self._leak_read_in_place(position, evidence, best, observation)))):
            return self._propose_seen(snap, best, timestamp)
        # Short of that, of the resolutions that fit well, the one the reader reads on
        # every cell involved (see _reader_agrees); of those that fit at all, the referee
        # is asked.
        fitting = [c for f, _, _, c in scored if f >= CHANGES_FIT]
        hidden = _not_sure_of(observation)
        outweighed = self._outweighed(scored)
        # A trap put down under the mover shows faintly round him: fitting less, it is
        # still one the reader may read surely (sim.tabletop development game 5,500,004).
        # Not one taken up: a trap under a hunter is the reader's commonest miss, so its
        # sure word that none is left there is no witness.
        faint = [c for f, _, _, c in scored if CHANGES_ASK <= f < CHANGES_FIT]
        under_mover = [c for c in faint if isinstance(c.action, engine.PlaceTrap)]
        considered, seen = fitting + under_mover, self._view_of(observation)
        # A step that shows faintly on one of its cells (a pale piece on a pale tile) fits
        # less too: still one when the reader reads the board as it leaves it, every cell
        # it is sure of (sim.flatart development game 3,600,023: C's step onto snow showed
        # a fifth of a piece there, a later one off snow a sixth; both were asked about
        # with nobody to answer).
        considered += [c for c in faint
                       if isinstance(c.action, engine.Move) and c.view.masked(hidden) == seen.masked(hidden)]
        read = [c for c in considered if self._reader_agrees(c, considered, seen, hidden) and id(c) not in outweighed]
        if not lifted and observation.board_found and len({c.outcome.position for c in read}) == 1:
            return self._propose_seen(snap, read[0], timestamp)
        # None fits for a change elsewhere, but one resolution's own cells show it clearly,
        # the reader reads it surely, and reads every other cell that changed as the game
        # has it (a piece nudged or relit in place: a change the game already explains).
        strong = [c for _, s, _, c in scored if s >= CHANGE_SHOWN]
        agreed = [c for c in strong if self._reader_agrees(c, strong, seen, hidden) and id(c) not in outweighed
                  and self._changed_elsewhere_in_place(position, evidence, c, seen, hidden)]
        if (not lifted and observation.board_found and len({c.outcome.position for c in agreed}) == 1
                and self._stays_seen(position, agreed[0], observation)):
            return self._propose_seen(snap, agreed[0], timestamp)
        if not lifted and observation.board_found and self._propose_hidden_then_next(
                snap, position, evidence, observation, scored[0][0], alone_leak=scored[0][2]):
            return True
        strengths = np.abs(evidence.strength(position.mammoth))
        changed = {int(c) for c in np.flatnonzero(strengths >= CHANGE_SHOWN)}
        if self._mammoth_read_in_place(position, observation):
            # His figure turned or nudged where he stands, read surely as the game has
            # him: no turn shows there (sim.tabletop game 6,100,004).
            changed.discard(position.mammoth)
        # Every cell that changed is one a legal resolution changes (the player to move's
        # own cells, where he may go): which one is unclear, so it is asked.
        reachable = changed <= {x for _, _, _, c in scored for x in c.changed}
        waiting = self._flight_under_way(position, scored) and not evidence.waited
        # A resolution whose own cells all show it clearly, while a cell it does not
        # explain changed too (a piece knocked, the lamp's light moved by a hand left the
        # game's board looking otherwise): the referee can tell, so he is asked rather
        # than told of a change nobody can answer (the demo, seed 11, stalled so).
        shown = any(s >= CHANGE_SHOWN for _, s, _, _ in scored)
        if scored[0][0] >= CHANGES_ASK or (changed and (reachable or shown) and not waiting):
            loosely = (self._read_loosely(position, evidence, fitting, outweighed, observation)
                       or self._read_mover(position, evidence, fitting, outweighed, observation)
                       or self._trap_set_askew(position, evidence, scored, observation))
            if not lifted and loosely is not None:
                return self._propose_seen(snap, loosely, timestamp)
            # The alternatives offered: those that fit, then the next best ones, and what
            # the player may do on his own cell (a trap put down or taken up).
            offered = [c for _, _, _, c in scored[:2 * MAX_ASKED]]
            offered += [c for _, _, _, c in scored[2 * MAX_ASKED:] if len(c.changed) == 1]
            self._leave_change(position, evidence, observation)
            return self._ask_between(offered, BoardView.of_position(position), timestamp, reading=observation)
        if changed and not waiting and not lifted and self._propose_unshown_then_next(snap, position, evidence,
                                                                                     observation):
            return True
        if changed and not waiting:
            # Nothing legal fits: said as the reader sees it when it can (a hunter moved
            # out of turn, or not in a straight line), else with the cells that changed.
            self._leave_change(position, evidence, observation)
            self._report_unexplained(snap, BoardView.of_position(snap.position).masked(hidden),
                                     self._view_of(observation).masked(hidden), timestamp, sorted(changed))
        return False  # too faint to tell, or a flight on its way: wait

    def _mammoth_read_in_place(self, position: engine.Position, observation: Observation) -> bool:
        """Whether the reader surely reads the mammoth's cell holding just what the game
        has there (no hand over it)."""
        mammoth = position.mammoth
        return (mammoth is not None and observation.mammoth == mammoth and mammoth not in _not_sure_of(observation)
                and mammoth not in observation.occluded_cells
                and contents_of_view(self._view_of(observation), mammoth)
                == contents_of_view(BoardView.of_position(position), mammoth))

    def _read_loosely(self, position: engine.Position, evidence: ChangeEvidence, fitting, outweighed,
                      observation: Observation) -> Candidate | None:
        """The one resolution the changes fit that the reader reads on every cell deciding
        between them and every other cell that changed clearly, though it may be unsure of
        them (none covered by a hand): the changes and the reading, two independent
        witnesses, name the same turn. (The reader marks unsure every cell its last stage
        changed; on the 120 development games, of the 57 turns asked about with nobody
        answering, this named the right turn in 12 and a wrong one in none. Taken from the
        resolutions that fit less too, down to CHANGES_ASK, it made a false commit.)"""
        if not observation.board_found:
            return None
        seen, covered = self._view_of(observation), frozenset(observation.occluded_cells)
        read = [c for c in fitting if id(c) not in outweighed and self._reader_agrees(c, fitting, seen, covered)
                and self._changed_elsewhere_in_place(position, evidence, c, seen, covered)]
        return read[0] if len({c.outcome.position for c in read}) == 1 else None

    def _read_mover(self, position: engine.Position, evidence: ChangeEvidence, fitting, outweighed,
                    observation: Observation) -> Candidate | None:
        """Of moves by one hunter that the changes fit alike (one onto a bare cell, one
        joining another hunter, whose arrival that one hides), the one ending where the
        reader reads the mover, sure of that cell or not (none covered by a hand), when
        every other cell that changed clearly is read as the game has it. The reader may
        misread what else stands there (a trap under a rival, a phantom beside him); where
        it sees the mover decides. (Of the development games' first questions of this
        kind, it named the right move in three, a wrong one in none; in the others the
        reader read the mover nowhere.)"""
        moves = [c for c in fitting if id(c) not in outweighed]
        if (not observation.board_found or len({c.outcome.position for c in moves}) < 2
                or not all(isinstance(c.action, engine.Move) for c in moves)
                or len({c.action.hunter for c in moves}) != 1):
            return None
        mover = moves[0].action.hunter
        seen, covered = self._view_of(observation), frozenset(observation.occluded_cells)
        read_on = {cell for who, cell in seen.hunters if who == mover}
        if len(read_on) != 1 or read_on & covered:
            return None
        ends = [c for c in moves if c.view.hunter_cells().get(mover) in read_on]
        if len({c.outcome.position for c in ends}) != 1:
            return None
        # The reader names players by likeness, and may swap two: the hunter he would
        # join, read where another of the moves would end, says the names are not to be
        # trusted (sim.tabletop development game 5,520,008 with a referee: B's long step
        # taken for one onto A's cell, A read on the long step's end and B on A's cell).
        (end,) = read_on
        joined = {who for who, at in ends[0].view.hunter_cells().items() if at == end and who != mover}
        deciding = {x for c in moves if c.outcome.position != ends[0].outcome.position
                    for x in c.view.changed_cells(ends[0].view)}
        if any(who in joined and at in deciding and at != end for who, at in seen.hunters):
            return None
        return ends[0] if self._changed_elsewhere_in_place(position, evidence, ends[0], seen, covered) else None

    def _trap_set_askew(self, position: engine.Position, evidence: ChangeEvidence, scored,
                        observation: Observation) -> Candidate | None:
        """The mover's trap put down under him, when the reader reads exactly the board it
        leaves (him and his trap on his cell, sure of it or not; every other cell surely
        as the game has it) and the cells changed only as he, lifted for it and set back
        askew, changes them: his own cell and those beside it, no farther, while no move
        of his fits. A piece wider than its trap hides it, and its overhang moves with it
        (sim.flatart development game 3,600,016: a magenta disc put back half over two
        neighbours, the trap read under it, asked with nobody to answer; 3,600,009: an
        olive disc set back over a snow cell, which it left read unsure). Set back
        squarely, his cell changing only faintly, he is still asked about when the
        reader is unsure of it."""
        mover = position.to_move
        start = position.hunters.get(mover)
        placed = [c for _, _, _, c in scored if isinstance(c.action, engine.PlaceTrap) and c.action.hunter == mover]
        if start is None or len(placed) != 1 or not observation.board_found or observation.occluded_cells:
            return None
        if any(fit >= CHANGES_FIT for fit, _, _, c in scored if isinstance(c.action, engine.Move)):
            return None
        seen = self._view_of(observation)
        if seen != placed[0].view:
            return None
        strength = evidence.strength(position.mammoth)
        changed = _changed_off_cross(strength)
        # Askew: his cell lost some of him, a cell beside it gained (a faint change on his
        # cell alone, read unsure, is still asked).
        gained = {n for n in NEIGHBOURS[start] if strength[n] >= CHANGE_AT_REST}
        askew = strength[start] <= -CHANGE_AT_REST and bool(gained)
        # (A cell his overhang now reaches may be read unsure, as long as it is read empty.)
        unsure = _not_sure_of(observation) - {start} - gained
        return placed[0] if askew and changed <= NEIGHBOURS[start] | {start} and not unsure else None

    def _leave_change(self, position: engine.Position, evidence: ChangeEvidence, observation: Observation) -> None:
        """Note a change left unmatched (asked about, reported): turns may go by unseen from
        now on (:attr:`_change_left`), unless it is only a trap put down under the player
        to move, or only his trap taken up from under him (then only the next player's
        move may follow it: :meth:`_trap_taken_up_quietly`). When it already showed a
        whole turn (a piece put down somewhere, or the mover's trap taken up from under
        him), the cells it changed are kept (:meth:`_moved_on_since_left`)."""
        if self._only_under_mover(position, evidence, observation):
            return
        quietly = self._trap_taken_up_quietly(position, evidence, observation)
        if quietly is not None:
            # Only the mover's own turn can follow from here: the next player's move after
            # it (:meth:`_propose_hidden_then_next`), never a move of his onto another cell.
            self._left_cells = frozenset({quietly})
            self._read_ahead = frozenset({engine.RemoveTrap(position.to_move)})
            return
        self._change_left = True
        strength = evidence.strength(position.mammoth)
        arrived = any(strength[c] >= CHANGE_SHOWN for c in range(NUM_CELLS) if c != CENTRE)
        taken_up = self._trap_taken_up_under_mover(position, evidence, observation)
        if (arrived or taken_up is not None) and self._left_cells is None:
            kept = {int(c) for c in np.flatnonzero(np.abs(strength) >= CHANGE_AT_REST)}
            self._left_cells = frozenset(kept | ({taken_up} if taken_up is not None else set()))

    def _trap_taken_up_under_mover(self, position: engine.Position, evidence: ChangeEvidence,
                                   observation: Observation) -> int | None:
        """The mover's cell, when the game has his own trap under him and the board shows
        it taken up: the cell lost something and the reader surely reads him still there
        with no trap. That is a whole turn too, however faint (sim.flatart development game
        3,210,007: B's ring under his large star, asked about and left; his step east two
        turns later, from the game's board, looked like his one move)."""
        mover = position.to_move
        cell = position.hunters.get(mover)
        if cell is None or position.traps.get(cell) != mover or cell in _not_sure_of(observation):
            return None
        seen = self._view_of(observation)
        if seen.hunter_cells().get(mover) != cell or contents_of_view(seen, cell).trap is not None:
            return None
        return cell if evidence.strength(position.mammoth)[cell] < 0 else None

    def _trap_taken_up_quietly(self, position: engine.Position, evidence: ChangeEvidence,
                               observation: Observation) -> int | None:
        """The mover's cell, when the game has his own trap under him and the board changed
        only as that trap taken up shows: his cell lost, nothing gained, nothing changed
        but there and beside him, and the reader reads him still there (surely or not,
        even where his tall figure passes for a hand: a hunter lifted is no trap taken
        up) and no trap there surely. Asked about and left, it is a turn the next
        player's move may follow (sim.tabletop development game 5,900,003: A's trap under
        a tall figure taken up, asked, then B's plain step east; the game stalled there)."""
        mover = position.to_move
        cell = position.hunters.get(mover)
        if cell is None or position.traps.get(cell) != mover:
            return None
        seen = self._view_of(observation)
        trap_read = contents_of_view(seen, cell).trap is not None and cell not in _not_sure_of(observation)
        if (mover, cell) not in seen.hunters or trap_read:
            return None
        strength = evidence.strength(position.mammoth)
        near = NEIGHBOURS[cell] | {cell}
        lost_alone = all(x in near and strength[x] < 0 for x in _changed_off_cross(strength))
        return cell if strength[cell] <= -CHANGE_AT_REST and lost_alone else None

    def _moved_on_since_left(self, position: engine.Position, evidence: ChangeEvidence) -> bool:
        """Whether a change left unmatched had shown a piece put down (a whole turn, only
        not told apart), and a cell at rest then now shows a piece's change: the table
        made another turn since, and the board is two turns from the game's. Nothing is
        matched from its changes then; the question stands (sim.tabletop development
        game 5,520,022: A's two-cell step onto B's cell, asked about and left; B then
        stepped back west, and from the game's board the two looked like one step of A's,
        committed). A hunter only lifted when asked about (nothing put down) still
        completes his turn when put down."""
        if self._left_cells is None:
            return False
        strength = np.abs(evidence.strength(position.mammoth))
        return any(c not in self._left_cells and c != CENTRE for c in np.flatnonzero(strength >= CHANGE_SHOWN))

    def _forget_left_change(self) -> None:
        """What a change left unmatched kept (its cells, a lift waited on, turns read ahead)."""
        self._left_cells, self._lift_left, self._read_ahead = None, False, frozenset()

    def _moved_on_from_left(self, candidate: Candidate) -> bool:
        """The reader's counterpart of :meth:`_moved_on_since_left`: ``candidate`` changes a
        cell the change left unmatched did not keep. Not while the referee answers (his word
        decides), nor once the cells' changes are no longer followed (the light re-learnt:
        what they kept was measured under the old light)."""
        return (not self._answering and self.board_changes is not None and self._left_cells is not None
                and not candidate.changed <= self._left_cells)

    @staticmethod
    def _outweighed(scored) -> set[int]:
        """The resolutions (``id`` of each candidate in ``scored``, best first) the reader's
        sure word may not choose: each leaves a piece's worth of change unexplained
        (CHANGE_AT_REST) where the best, which fits, leaves next to none. The reader and
        the changes then disagree, and the referee is asked (sim.tabletop development
        game 5,500,003, answered: C left his trap to join A; his trap read as him, the
        reader chose his taking it up, which leaves the cell C joined unexplained)."""
        fit, _, leak, _ = scored[0]
        if fit < CHANGES_FIT or leak >= CHANGE_AT_REST:
            return set()
        return {id(c) for _, _, other, c in scored[1:] if other >= CHANGE_AT_REST}

    def _misplaces_still_hunters(self, position: engine.Position, evidence: ChangeEvidence,
                                 observation: Observation) -> bool:
        """Whether the reader surely reads a hunter of a player not to move where the
        game has none of his, on a cell whose look did not change since the game's board
        was seen. It then tells this table's players apart wrongly (their colours learnt
        from a shaded side; sim.tabletop development game 5,500,005: three players read on
        one of their cells, the fourth on the cell of the player to move), and its sure
        readings of the cells that did change are worth no more: the board's changes
        alone decide, every cell taken as unsure. A hunter read on an empty cell beside
        his own is no such sign: a tall figure leaning over it (sim.tabletop development
        game 5,500,007 with a referee: B so read, C's and D's readings were dropped, and C
        stepping onto D's cell, then D stepping off, was committed as one step of C's)."""
        strength = np.abs(evidence.strength(position.mammoth))
        unsure = _not_sure_of(observation)
        game = BoardView.of_position(position)
        seen = self._view_of(observation)
        occupied = {at for _, at in game.hunters}
        # (The player to move may have gone anywhere, a cell he joined barely changing.)
        for player, cell in seen.hunters:
            leaning = cell not in occupied and cell in NEIGHBOURS[position.hunters.get(player, cell)]
            if (player != position.to_move and cell not in unsure and cell != position.mammoth and not leaning
                    and strength[cell] < CHANGE_AT_REST and (player, cell) not in game.hunters):
                return True
        return False

    def _propose_hidden_then_next(self, snap: Snapshot, position: engine.Position, evidence: ChangeEvidence,
                                  observation: Observation, alone_fit: float, first=None,
                                  alone_leak: float = 0.0) -> bool:
        """Propose turns the board did not show, then the move it shows: the player to
        move set (or took up) the trap under his own hunter, hidden by him, and so, maybe,
        did the players after him, and the next player then moved, which the board
        shows. Passes are only ever confirmed (the *done* button, ``--pass-at``), so a
        turn the board does not show is one of those two, and when only one of them is
        legal for a player it is that one (sim.tabletop development game 5,500,001: a trap
        under a tall figure, then the next player's move reported as out of turn; 5,500,003:
        two traps so, one per player, then a move).

        Proposed only when the move after the fewest such turns fits the cells clearly
        (CHANGES_FIT, a piece shown put down or taken off, no rival within CHANGES_MARGIN,
        a move after more hidden turns among the rivals) and clearly better than anything
        the player to move alone could have done (by CHANGES_MARGIN, ``alone_fit`` being
        the best of those, or its change leaves none unexplained where the best of those,
        ``alone_leak``, leaves a piece's worth: sim.flatart development game 3,200,005, C's
        trap under him then D's step onto C, where C's trap alone fit better for the two
        pieces arriving on its cell), the reader reads (surely or not) what it leaves on every cell
        it changes, and the hunter of each hidden turn still on his cell; and never after a
        still board showed a change nothing was committed for (a move asked about, then
        undone by the next turns: sim.flatart development game 3,210,005, where A went two
        cells and came back, B's move between was taken for A's trap and B's move), unless
        that change lay only under the player to move (:meth:`_only_under_mover`).
        ``first``: the turns a chain must begin with (a board read ahead, asked about:
        sim.flatart development game 3,200,010, A's and B's traps taken up under them)."""
        if self._change_left:
            return False
        before = BoardView.of_position(position)
        following, chains = [], {}
        for chain in self._hidden_turns(position, snap.variants):
            if first is not None and chain[0].action not in first:
                continue
            after = chain[-1].outcome.position.with_(hands=None)
            for c in build_candidates(after, snap.variants):
                if isinstance(c.action, engine.Move) and c.changed:
                    following.append(replace(c, changed=frozenset(before.changed_cells(c.view))))
                    chains[id(following[-1])] = chain
        scored = self._scored_by_changes(position, evidence, following, observation=observation,
                                         spill_on_mammoth=self._mammoth_read_in_place(position, observation))
        if not scored:
            return False
        fit, strength, leak, best = scored[0]
        rivals = [item for item in scored[1:] if item[3].outcome.position != best.outcome.position]
        explains_more = leak < CHANGE_AT_REST and alone_leak >= CHANGE_SHOWN
        if (fit < CHANGES_FIT or strength < CHANGE_SHOWN or (fit < alone_fit + CHANGES_MARGIN and not explains_more)
                or (rivals and rivals[0][0] > fit - CHANGES_MARGIN)):
            return False
        chain = chains[id(best)]
        seen = self._view_of(observation)
        # (The hidden traps' own cells: their hunters, not the traps under them, show.)
        trap_cells = {c.outcome.position.hunters[c.action.hunter] for c in chain}
        next_only = replace(best, changed=best.changed - trap_cells)
        # The move's cells read as it leaves them, surely or not: an arrival read unsure
        # (his own phantom trap under him) that the changes show clearly is still read
        # (sim.tabletop development game 5,520,020).
        if (not all(self._stayed(c, seen, evidence, position) for c in chain)
                or not self._reader_agrees(next_only, [], self._without_own_trap_under(next_only, seen),
                                           frozenset(observation.occluded_cells))):
            return False
        return self._propose_turns([*chain, best], observation.timestamp)

    def _propose_unshown_then_next(self, snap: Snapshot, position: engine.Position, evidence: ChangeEvidence,
                                   observation: Observation) -> bool:
        """Propose a turn whose cells show no change, then the next player's turn that the
        cells show clearly, when the reader surely reads both turns' cells as the two leave
        them and no other such pair is read so. A hunter walking off his own trap onto
        another hunter's cell leaves both cells looking as before (a trap stays on one, a
        hunter on the other): only the next turn shows, and it alone is no legal
        resolution (sim.tabletop development game 5,520,004: A's step onto B, then B's
        three-cell move, reported as a change nothing legal explains). Never once a change
        went uncommitted (as :meth:`_propose_hidden_then_next`)."""
        if self._change_left or not observation.board_found:
            return False
        strength = evidence.strength(position.mammoth)
        sure = frozenset(range(NUM_CELLS)) - _not_sure_of(observation)
        seen, before = self._view_of(observation), BoardView.of_position(position)
        chains = []
        for first in self.candidates():
            after = first.outcome.position
            if (not first.changed or any(abs(strength[x]) >= CHANGE_AT_REST for x in first.changed)
                    or after is None or after.to_move in (None, position.to_move)):
                continue
            following = [replace(c, changed=frozenset(before.changed_cells(c.view)))
                         for c in build_candidates(after.with_(hands=None), snap.variants) if c.changed]
            for fit, shown, _, then in self._scored_by_changes(position, evidence, following):
                cells = first.changed | then.changed
                if (fit >= CHANGES_FIT and shown >= CHANGE_SHOWN and cells <= sure
                        and all(contents_of_view(seen, x) == contents_of_view(then.view, x) for x in cells)):
                    chains.append((first, then))
        if len({then.outcome.position for _, then in chains}) != 1:
            return False
        return self._propose_turns(list(chains[0]), observation.timestamp)

    def _propose_turns(self, turns: list[Candidate], timestamp: float) -> bool:
        """Propose ``turns`` in order, each as the game then offers it; True once the
        first was committed (the board is then the one the last leaves, when all were)."""
        for turn in turns:
            now = next((c for c in self.candidates() if c.action == turn.action and c.choices == turn.choices), None)
            if now is None or not self._propose(self._sync(), now, timestamp):
                return turn is not turns[0]
        self._last_observation = self._observation_of(turns[-1].view, timestamp)
        return True

    @staticmethod
    def _without_own_trap_under(candidate: Candidate, seen: BoardView) -> BoardView:
        """``seen`` without a trap read under a hunter ``candidate`` puts on a cell it
        leaves with no trap, when the trap read is his own colour: his base read again as
        his trap (a phantom the game rules out: he cannot have set it there yet;
        sim.tabletop development game 5,510,004, C's two-cell step read with his trap under
        him)."""
        on_bare = {cell: player for player, cell in candidate.view.hunters
                   if contents_of_view(candidate.view, cell).trap is None}
        phantoms = {(cell, owner) for cell, owner in seen.traps
                    if on_bare.get(cell) == owner and (owner, cell) in seen.hunters}
        return replace(seen, traps=seen.traps - phantoms) if phantoms else seen

    @staticmethod
    def _stayed(hidden_turn: Candidate, seen: BoardView, evidence: ChangeEvidence, position: engine.Position) -> bool:
        """Whether the hunter of a turn the board did not show (a trap set or taken up
        under him) is still on his cell: read there, or read nowhere while his cell shows
        no piece taken off (a tall figure on his own trap is often read as nothing at all:
        sim.tabletop development game 5,510,004, A's and B's traps under them, then C's
        move reported as a change nothing legal explains)."""
        hunter = hidden_turn.action.hunter
        cell = hidden_turn.outcome.position.hunters[hunter]
        read_at = seen.hunter_cells().get(hunter)
        if read_at is not None:
            return read_at == cell
        return evidence.strength(position.mammoth)[cell] > -CHANGE_AT_REST

    def _only_under_mover(self, position: engine.Position, evidence: ChangeEvidence,
                          observation: Observation) -> bool:
        """Whether the board changed only as a trap put down under the player to move
        shows: his own cell gained, and nothing changed but there and beside him (a trap
        wider than his hunter). Such a change, asked about and left, is no move the next
        turns may undo: the turns after it may still be inferred (sim.tabletop development
        game 5,520,036: B's trap showed at a third of a piece, asked, then C moved).
        A trap put down may also leave his cell a little less changed (it lifts his piece
        or hides its shadow): a faint loss there, under :data:`CHANGE_SHOWN`, with nothing
        changed but there and beside him, is one too where he may put a trap down and the
        reader still reads him there, surely or not (sim.flatart development games
        3,900,020 and 3,900,023: a quarter to a third of a piece lost, asked, and the
        games stalled at their first turn)."""
        strength = evidence.strength(position.mammoth)
        cell = position.hunters.get(position.to_move)
        if cell is None:
            return False
        near = NEIGHBOURS[cell] | {cell}
        changed = _changed_off_cross(strength)
        if strength[cell] >= CHANGE_AT_REST:
            return all(x in near and strength[x] > 0 for x in changed)
        return (-CHANGE_SHOWN < strength[cell] <= -CHANGE_AT_REST and cell not in position.traps
                and all(x in near for x in changed)
                and (position.to_move, cell) in self._view_of(observation).hunters)

    def _hidden_turns(self, position: engine.Position, variants) -> list[list[Candidate]]:
        """The runs of turns the board may not show from ``position``: the player to move
        setting or taking up the trap under his own hunter when that is the one such thing
        legal for him, then the next player so, and so on, short of a whole round (each
        run one turn longer than the one before)."""
        runs, chain, at = [], [], position
        for _ in range(len(self.players) - 1):
            mover = at.to_move
            hidden = [c for c in build_candidates(at, variants)
                      if isinstance(c.action, (engine.PlaceTrap, engine.RemoveTrap)) and c.action.hunter == mover]
            if len(hidden) != 1 or hidden[0].outcome.position.to_move in (None, mover):
                break
            chain = [*chain, hidden[0]]
            runs.append(chain)
            at = hidden[0].outcome.position.with_(hands=None)
        return runs

    def _stays_seen(self, position: engine.Position, candidate: Candidate, observation: Observation) -> bool:
        """Whether the reader surely sees the hunters ``candidate`` leaves on each cell whose
        change may hide under them (a trap put down or taken up under a hunter, a hunter
        joining or leaving a stack): there the cells' change only says that something
        changed, so the hunters staying must be seen. (Where a piece is put on an empty
        cell or taken off one, the change shows it and the reader may miss a small piece;
        a hunter seen more, where one left his own trap, may be that trap's print.)
        A cell the reader surely sees empty, or with another player's hunter, is no trap
        put down under a hunter: the referee is asked rather than that being committed
        (a cell it is unsure of says nothing either way, nor does his own trap read alone
        there: a hunter on a trap of his own colour is often read so). Nor is a cell the
        reader surely sees holding another piece (another player's trap or hunter) one a
        hunter walked onto: the change there may be that piece's, or a tall neighbour's
        leaning over it (sim.tabletop development game 5,510,028)."""
        before = BoardView.of_position(position)
        seen = self._view_of(observation)
        unsure = _not_sure_of(observation)
        for x in candidate.changed:
            was, now = contents_of_view(before, x), contents_of_view(candidate.view, x)
            read = contents_of_view(seen, x)
            missing = set(now.hunters) - set(read.hunters)
            # An unsure cell may hide a trap put under the hunter staying (of his very
            # colour), or a hunter stepping back onto his own trap (sim.flatart development
            # game 3,600,012: an olive star onto his olive ring on grass), never a hunter
            # joining others: that must be seen (sim.tabletop development game 5,500,008:
            # a hunter's short step taken for one joining another on a cell read unsure).
            arrivals = set(now.hunters) - set(was.hunters)
            onto_own_trap = not was.hunters and not was.mammoth and arrivals == {was.trap}
            joined = bool(arrivals) and not was.empty and not onto_own_trap
            if (x in unsure and not joined) or not missing:
                continue
            if was.empty != now.empty and not (was.mammoth and now.mammoth) and read.empty:
                continue   # shown by the change itself: the reader may miss a small piece
            # A hunter on a trap of his own colour may be read as that trap alone; and a
            # trap read where the mover puts his down can only be his, whoever the reader
            # names (sim.tabletop development game 5,510,006: B's trap under him read as A's).
            put_down = was.trap is None and now.trap is not None
            if (read.trap is not None and (missing <= {read.trap} or put_down)
                    and set(read.hunters) <= set(now.hunters)):
                continue
            if not self._change_left and not self._lift_left and self._arrived_misnamed(was, now, read):
                continue
            # A hunter joining another, read surely as that cell was: a tall piece hides
            # the one behind it (sim.tabletop development games 5,510,013, 5,510,028), or
            # the newcomer hides the one he joined (:meth:`_hides_one_behind`), which the
            # reader may see unsure too: the newcomer read there is the witness the
            # changes lack (development games 3,210,010, 5,500,012). The changes show him
            # coming, clearly the best fit; a cell read unsure without him (5,500,008: a
            # short step elsewhere), or read with a piece the game does not put there,
            # still tells against him.
            if not self._change_left and joined and len(missing) == 1 and (
                    (read == was and x not in unsure) or self._hides_one_behind(was, now, read)):
                continue
            return False
        return True

    @staticmethod
    def _hides_one_behind(was: Contents, now: Contents, read: Contents) -> bool:
        """Whether a cell a hunter joined is read with him there and nothing the game does
        not put there: the one he joined (and any trap under them) hidden behind him
        (sim.tabletop development game 5,500,013: C's standee joining A on A's trap, read
        as C alone)."""
        arrivals = set(now.hunters) - set(was.hunters)
        return (bool(arrivals) and arrivals <= set(read.hunters) <= set(now.hunters)
                and read.trap in (None, now.trap) and read.mammoth == now.mammoth)

    @staticmethod
    def _arrived_misnamed(was: Contents, now: Contents, read: Contents) -> bool:
        """Whether a cell that was bare, where the resolution puts a hunter alone, is read
        holding other players' hunters only: the piece that came is a hunter, and only
        the player to move moves, so it is his whoever the reader names (on sim.tabletop
        development games 5,500,005, 5,510,011 and 5,520,000 a step onto a bare cell,
        shown clearly by the changes, was asked about because the reader took the walker
        for a rival of a colour it confuses with his). A bare cell read with a trap or
        the mammoth still tells against the step, and so does any reading once a change
        was left unmatched since the last commit (asked about, unanswered): the table may
        be turns ahead, and a step from the game's old board may land where a later one
        did (development game 5,510,028: A's step, asked about, then B's and C's turns;
        A's step from where he had been taken for the turn two false commits)."""
        return (was.empty and not now.mammoth and now.trap is None and len(now.hunters) == 1
                and bool(read.hunters) and read.trap is None and not read.mammoth)

    def _trap_seen_left_out(self, candidate: Candidate, observation: Observation) -> bool:
        """Whether the reader surely sees a trap on a cell ``candidate`` changes and leaves
        bare (no piece at all). A hunter who walks off a cell leaving a trap behind set it there
        on a turn the board did not show (a trap under a hunter wider than it): his walk
        is not the turn to commit (sim.tabletop held-out game 8,500,007: A's trap, then B's
        and C's, all hidden under their cylinders, then A's move; the move was committed as
        A's turn and the game went on a turn off). The mover's own trap read alone where
        his move leaves a bare cell counts even read unsure (sim.flatart game 3,900,010:
        A's trap and B's, both unseen, then A's step off his, read so)."""
        seen = self._view_of(observation)
        unsure = _not_sure_of(observation)
        mover = candidate.action.hunter if isinstance(candidate.action, engine.Move) else None

        def left_out(read: Contents, cell: int) -> bool:
            # (Whose trap is not asked of a sure cell: the reader often takes one player's
            # trap for another's; nor on a cell a hunter keeps: one on his own trap is
            # often read as that trap.)
            return read.trap is not None and (cell not in unsure or (read.trap == mover and not read.hunters))

        return any(contents_of_view(candidate.view, x).empty and left_out(contents_of_view(seen, x), x)
                   for x in candidate.changed)

    def _reader_denies_mover(self, position: engine.Position, evidence: ChangeEvidence, candidate: Candidate,
                             observation: Observation) -> bool:
        """Whether the reader, surely or not, reads ``candidate``'s move as another turn:
        the mover still on the cell he would leave and, where he would arrive, another
        player's hunter only, one the game does not have there or on a cell that lost
        rather than gained. The changes then only say that one cell lost a piece and
        another changed; who moved is the reader's word, and it names the mover's trap
        taken up under him, then maybe the next player's step (sim.tabletop game
        5,800,020: B took his trap up and C, a glass bead learnt alike to B, stepped
        beside him; 5,900,017: B took his trap up and C's cell lost a little). Over 176
        development games, these and one more (:meth:`_trap_seen_left_out`) were the
        wrong commits of their kind, and none right was like them. A hunter read as his
        cell was where the mover joined him, on a cell that gained, may hide the mover
        behind him: that is no denial."""
        if not isinstance(candidate.action, engine.Move):
            return False
        mover = candidate.action.hunter
        start, end = position.hunters.get(mover), candidate.view.hunter_cells().get(mover)
        if start is None or end is None or start == end:
            return False
        seen = self._view_of(observation)
        at_start, at_end = contents_of_view(seen, start), contents_of_view(seen, end)
        others = set(at_end.hunters) - {mover}
        if mover not in at_start.hunters or mover in at_end.hunters or not others:
            return False
        newcomers = others - set(contents_of_view(BoardView.of_position(position), end).hunters)
        return bool(newcomers) or evidence.strength(position.mammoth)[end] <= -CHANGE_AT_REST

    def _mover_read_at_another_end(self, position: engine.Position, evidence: ChangeEvidence, candidate: Candidate,
                                   scored, observation: Observation) -> bool:
        """Whether the reader reads ``candidate``'s mover, surely or not, on the end of
        another of his moves (``scored``), and either the cell this one ends on barely
        gained (under :data:`CHANGE_SHOWN` as measured, however a small mover's scale
        lifts it) or the reader reads another player's hunter there, one the game does not
        have there. The direction then rests on a faint change the reader contradicts
        (sim.flatart fresh game 4,000,002: B, a small pawn, left his cell plainly; the cell
        south-west gained 0.2 of a piece, the one south-east, where the reader read him,
        0.1; "B south-west" was committed), or two turns look like one (sim.tabletop fresh
        game 6,100,011: A joined B, hidden behind him, then B stepped off west onto the
        cell A's one step north-west would reach; "A north-west 2" was committed, the
        reader reading A where B had stood and B where A would be)."""
        if not isinstance(candidate.action, engine.Move):
            return False
        mover = candidate.action.hunter
        start, end = position.hunters.get(mover), candidate.view.hunter_cells().get(mover)
        seen = self._view_of(observation)
        read_at = seen.hunter_cells().get(mover)
        if read_at in (None, start, end) or not any(
                isinstance(c.action, engine.Move) and c.action.hunter == mover
                and c.view.hunter_cells().get(mover) == read_at for _, _, _, c in scored):
            return False
        newcomers = (set(contents_of_view(seen, end).hunters) - {mover}
                     - set(contents_of_view(BoardView.of_position(position), end).hunters))
        return evidence.strength(position.mammoth)[end] < CHANGE_SHOWN or bool(newcomers)

    def _arrival_read_as_anothers_piece(self, position: engine.Position, candidate: Candidate,
                                        observation: Observation) -> bool:
        """Whether a move ends on a cell the game has bare that the reader reads (surely
        or not, even under what it takes for a hand) holding another player's piece and
        not the mover: another's trap and no hunter (no turn puts a trap there, and the
        mover read as another's trap is no reading of him), or another player's hunter
        while the mover is read on another cell. Two turns, the mover's step hidden
        behind the next player's hunter and that player's step onto this cell, look like
        this one step (sim.tabletop fresh game 6,100,011: A onto B's cell, then B west
        two; "A north-west 2" was committed once with B's trap read there, once, the
        light judged against setup's, with B read there and A on C's cell)."""
        if not isinstance(candidate.action, engine.Move) or not observation.board_found:
            return False
        mover = candidate.action.hunter
        end = candidate.view.hunter_cells().get(mover)
        if end is None or not contents_of_view(BoardView.of_position(position), end).empty:
            return False
        seen = self._view_of(observation)
        read = contents_of_view(seen, end)
        if read.hunters:
            # (Read nowhere else, the mover may be the one misnamed there: a colour the
            # reader confuses with his, sim.tabletop development game 5,500,005.)
            return mover not in read.hunters and mover in seen.hunter_cells()
        return read.trap is not None and read.trap != mover

    def _note_traps_read(self, observation: Observation) -> None:
        """Count, frame by frame, each trap the reader surely reads where the game has none,
        but not under a hunter the game does not have there (sim.tabletop development game
        5,600,020: A's step read as A with a trap under him, the step refused for hiding
        it). The count survives the trap being hidden by hunters standing on it (a stack
        hides what lies under it) and ends when its cell is seen bare, or the game takes
        an entry."""
        snap = self.table.snapshot()
        entries, counts = self._traps_read
        if snap.phase != "play":
            self._traps_read = (snap.entries, {})
            return
        if entries != snap.entries:
            counts = {}
        unsure = _not_sure_of(observation)
        standing = set(observation.hunters.values())
        # (Not under a hunter read where the game has none: his own piece may read as a
        # trap under him, and the turn that brought him is the one to see.)
        newcomers = {c for _, c in self._view_of(observation).hunters - BoardView.of_position(snap.position).hunters}
        read = {c for c in observation.traps if c not in unsure and c not in snap.position.traps and c not in newcomers}
        counts = {c: n + (c in read) for c, n in counts.items() if c in read or c in standing or c in unsure}
        counts.update({c: 1 for c in read if c not in counts})
        self._traps_read = (snap.entries, counts)

    def _hides_trap_read(self, candidate: Candidate) -> bool:
        """Whether ``candidate`` brings hunters onto a cell where the reader read a trap
        for a whole stable board since the game's last entry, and leaves no trap there.
        The trap then lies under them, unseen: a turn the board showed was not committed
        (sim.flatart development game 3,600,008: B's trap, read for eight frames, then
        hidden as A joined him; "A west 2" explained the board and skipped two turns)."""
        held = self.stability.frames
        return any(n >= held and contents_of_view(candidate.view, x).trap is None
                   and contents_of_view(candidate.view, x).hunters
                   for x, n in self._traps_read[1].items() if x in candidate.changed)

    def _arrivals_seen(self, position: engine.Position, candidate: Candidate, observation: Observation) -> bool:
        """Whether the reader surely sees each hunter ``candidate`` puts on a cell there.
        Asked of a resolution the changes show while another cell changed as a piece
        moving does (CHANGES_LEAK; less is the light drifting over the board):
        tall pieces leaning over their neighbours then make a cell beside the one reached
        look like it (sim.tabletop development game 5,500,007, one step north-east
        committed for one north-west with the reader unsure of both cells)."""
        seen = self._view_of(observation)
        unsure = _not_sure_of(observation)
        arrived = {cell: player for player, cell in candidate.view.hunters if position.hunters.get(player) != cell}
        return all(cell not in unsure and (player, cell) in seen.hunters for cell, player in arrived.items())

    def _leak_read_in_place(self, position: engine.Position, evidence: ChangeEvidence, candidate: Candidate,
                            observation: Observation) -> bool:
        """Whether every cell ``candidate`` leaves alone that changed as a piece moving
        does (CHANGES_LEAK) is read, where the reader is sure of it, holding what the game
        has there: a tall piece's lean or a shadow, not a piece come or gone. A trap put
        down under the mover has no arrival to see, so a step of the next player's, beside
        it, would otherwise pass as its noise (sim.flatart development game 3,200,005: C's
        trap committed with D's step onto C's cell, the step lost)."""
        strength = evidence.strength(position.mammoth)
        seen, unsure = self._view_of(observation), _not_sure_of(observation)
        game = BoardView.of_position(position)
        return all(x in unsure or contents_of_view(seen, x) == contents_of_view(game, x)
                   for x in map(int, np.flatnonzero(np.abs(strength) >= CHANGES_LEAK))
                   if x not in candidate.changed)

    def _mover_read_setting_trap(self, position: engine.Position, candidate: Candidate,
                                 observation: Observation) -> bool:
        """Whether ``candidate`` is a move whose hunter the reader reads, surely or not,
        still on the cell he would have left, over a trap of his the game does not have
        there yet, and not on the cell he would reach: the board his trap put down under
        him leaves. A hunter lifted for that and set back askew changes his cell and the
        next one by half a piece each, as a faint step would (sim.flatart development
        game 3,210,012: B's trap, a white disc under a white pawn on snow, committed as
        his step east)."""
        if not isinstance(candidate.action, engine.Move):
            return False
        mover = candidate.action.hunter
        seen = self._view_of(observation)
        read_on = {cell for who, cell in seen.hunters if who == mover}
        start, end = position.hunters.get(mover), candidate.view.hunter_cells().get(mover)
        return (start in read_on and end not in read_on and start not in position.traps
                and (start, mover) in seen.traps)

    def _mover_read_where_he_was(self, position: engine.Position, evidence: ChangeEvidence, candidate: Candidate,
                                 observation: Observation) -> bool:
        """Whether ``candidate`` moves a hunter off a cell that keeps a piece (his trap, or
        hunters he shared it with) and shows no loss, where the reader surely reads him
        still, with that cell otherwise changed. The cell reached then carries the move
        alone, and the reader reads another turn on the cell he would have left
        (sim.flatart held-out game 7,500,003: A took his trap up from under his disc,
        nudged aside; the cell his disc had overhung changed by a piece's worth, his own
        gained a little, and "A west 1" was committed). A reader that reads the cell as
        it was only missed the move, and a cell that lost a piece shows him leaving."""
        if not isinstance(candidate.action, engine.Move):
            return False
        mover = candidate.action.hunter
        start = position.hunters.get(mover)
        if (start is None or start in _not_sure_of(observation) or start in observation.occluded_cells
                or evidence.strength(position.mammoth)[start] <= -CHANGE_AT_REST):
            return False
        kept, read = contents_of_view(candidate.view, start), contents_of_view(self._view_of(observation), start)
        return (not kept.empty and not kept.mammoth and mover not in kept.hunters and mover in read.hunters
                and read != contents_of_view(BoardView.of_position(position), start))

    def _mover_read_staying(self, position: engine.Position, evidence: ChangeEvidence, candidate: Candidate,
                            observation: Observation) -> bool:
        """Whether ``candidate``'s move shows on the cell it reaches alone, by less than
        :data:`MOVE_SHOWN_ALONE` (the cell he leaves keeps his trap or a companion and
        lost nothing), while the reader surely reads him still on that cell and nobody
        where he would arrive: two readings against one faint gain (sim.flatart fresh game
        4,100,000: a change that came with D's step, 0.68 of a piece on a bare cell, was
        then committed as A stepping off his trap onto it; he had stayed)."""
        if not isinstance(candidate.action, engine.Move):
            return False
        mover = candidate.action.hunter
        start, end = position.hunters.get(mover), candidate.view.hunter_cells().get(mover)
        unsure = _not_sure_of(observation)
        if start is None or end is None or start in unsure or end in unsure:
            return False
        strength = evidence.strength(position.mammoth)
        if strength[start] <= -CHANGE_AT_REST or strength[end] >= MOVE_SHOWN_ALONE:
            return False
        seen = self._view_of(observation)
        return mover in contents_of_view(seen, start).hunters and not contents_of_view(seen, end).hunters

    @staticmethod
    def _leaves_stack(position: engine.Position, candidate: Candidate) -> bool:
        """Whether ``candidate`` moves a hunter off a cell he shared with another: the
        cells' changes cannot tell him lifted from the pile nudged (two tall figures
        on one cell, one leaning over the next cell: sim.tabletop development game
        5,510,003, A taken to have stepped off C's cell onto the cell C leant over), so
        the reader must see him arrive (:meth:`_arrivals_seen`)."""
        mover = getattr(candidate.action, "hunter", None)
        start = position.hunters.get(mover)
        return (isinstance(candidate.action, engine.Move) and start is not None
                and any(cell == start for player, cell in position.hunters.items() if player != mover))

    @staticmethod
    def _arrival_unexplained(position: engine.Position, evidence: ChangeEvidence, candidate: Candidate) -> bool:
        """Whether ``candidate`` shows no piece put down on an empty cell (its change may
        hide under the pieces there: a trap under a hunter, a hunter joining a stack, a
        trap taken up) while a cell away from its own clearly gained or lost a piece, which
        it does not explain (a hunter who walked on was taken for one joining a trap's cell
        in development game 5,500,004 of sim.tabletop, and for a trap put down under him in
        5,500,011)."""
        before = BoardView.of_position(position)
        for x in candidate.changed:
            was, now = contents_of_view(before, x), contents_of_view(candidate.view, x)
            if was.empty and not now.empty:
                return False
        strength = evidence.strength(position.mammoth)
        own = max((abs(strength[x]) for x in candidate.changed if x != CENTRE), default=0.0)
        line = max(CHANGE_SHOWN, min(UNEXPLAINED_SHARE * own, UNEXPLAINED_ALWAYS))
        around = set(candidate.changed).union(*(NEIGHBOURS[x] for x in candidate.changed))
        # (An empty cell that now looks more like its bare tile lost no piece: the
        # settled board before had a shade or a hand's shadow there, not a game event.)
        return any(abs(strength[c]) >= line for c in range(NUM_CELLS) if c not in around and c != CENTRE
                   and not (strength[c] < 0 and contents_of_view(before, c).empty))

    @staticmethod
    def _changed_elsewhere_in_place(position: engine.Position, evidence: ChangeEvidence, candidate: Candidate,
                                    seen: BoardView, hidden) -> bool:
        """Whether every cell away from ``candidate``'s own (and their neighbours) that
        changed clearly is read surely holding what the game has there: the pieces on it
        stayed (nudged, turned, lit otherwise), none came or went."""
        strength = evidence.strength(position.mammoth)
        around = set(candidate.changed).union(*(NEIGHBOURS[x] for x in candidate.changed))
        game = BoardView.of_position(position)
        return all(x not in hidden and contents_of_view(seen, x) == contents_of_view(game, x)
                   for x in map(int, np.flatnonzero(np.abs(strength) >= CHANGE_SHOWN)) if x not in around)

    @staticmethod
    def _reader_agrees(candidate: Candidate, fitting, seen: BoardView, hidden) -> bool:
        """Whether the reader reads, surely, what ``candidate`` leaves on every cell it
        changes and on every cell where another resolution the changes fit would leave
        something else: the cells that decide between them. (A cell left unsure would
        match any of them; a misreading elsewhere on the board decides nothing.)"""
        cells = set(candidate.changed)
        for other in fitting:
            if other.outcome.position != candidate.outcome.position:
                cells.update(other.view.changed_cells(candidate.view))
        return not cells & hidden and all(contents_of_view(seen, x) == contents_of_view(candidate.view, x)
                                          for x in cells)

    def _read_against(self, position: engine.Position, evidence: ChangeEvidence, best: Candidate, scored: list,
                      observation: Observation) -> bool:
        """Whether the reader reads the board against the one resolution the cells show
        clearly: the mover elsewhere, or another piece where he arrives."""
        return (self._reader_denies_mover(position, evidence, best, observation)
                or self._mover_read_at_another_end(position, evidence, best, scored, observation)
                or self._arrival_read_as_anothers_piece(position, best, observation)
                or self._mover_read_staying(position, evidence, best, observation)
                or self._mover_read_where_he_was(position, evidence, best, observation))

    def _propose_seen(self, snap: Snapshot, candidate: Candidate, timestamp: float) -> bool:
        """Propose a resolution the cells' changes showed; the board is then the one it
        leaves (what a pass pressed next is checked against). Not one that changes a cell
        a change left unmatched did not keep, as :meth:`_observe_playing` does not: the
        table moved on since, by a change fainter than a piece's (sim.tabletop development
        game 5,600,011: A's trap taken up under him, asked about and left; B's step from
        his trap then changed two cells by under half a piece each, and with A's cell it
        looked like A stepping onto B's trap, committed). Nor, unless the referee answers,
        one the reader once read against while the cells showed it clearly: its reading
        flickering the other way later is no new evidence (sim.tabletop fresh game
        6,100,011: A's step onto B's cell and B's step off looked like one step of A's;
        read against and asked, then, two boards later, the two hunters read swapped
        surely, and committed)."""
        if not self._answering and (snap.version, candidate.outcome.position) in self._doubted:
            return False
        if self._moved_on_from_left(candidate) or not self._propose(snap, candidate, timestamp):
            return False
        self._last_observation = self._observation_of(candidate.view, timestamp)
        return True

    def _lifted(self, position: engine.Position, evidence: ChangeEvidence) -> bool:
        """Whether every cell that changed only lost a piece the game has there (a hunter
        or the mammoth lifted, in a hand): nothing was put down yet. A hunter's cell that
        lost clearly more than its hunters could take away (each one's size as the setup
        learnt it) lost its trap too: no hand holds that, it is a trap taken up."""
        strength = evidence.strength(position.mammoth)
        cells = np.flatnonzero(np.abs(strength) >= CHANGE_SHOWN)
        occupied = set(position.hunters.values()) | {position.mammoth}
        return bool(len(cells)) and all(strength[c] < 0 and c in occupied and c != CENTRE
                                        and not self._lost_more_than_hunters(position, evidence, c)
                                        for c in cells)

    def _still_standing(self, position: engine.Position, evidence: ChangeEvidence, observation: Observation) -> bool:
        """Whether every hunter the game has on the cells that lost a piece is still read
        there, surely: what was taken off was a trap under them, not a hunter in a hand
        (sim.tabletop development game 5,520,038: a trap taken up under a standing
        figure, the game's last turn, waited for as a hunter on his way until the end)."""
        strength = evidence.strength(position.mammoth)
        lost = {int(c) for c in np.flatnonzero(strength <= -CHANGE_SHOWN)}
        standing = {(p, c) for p, c in position.hunters.items() if c in lost}
        return bool(standing) and not lost & _not_sure_of(observation) and standing <= self._view_of(observation).hunters

    def _shown_bar(self, position: engine.Position, candidate: Candidate, leak: float,
                   observation: Observation) -> float:
        """How much change ``candidate``'s own cells must show to be proposed on the
        changes alone: a hunter's worth, or TRAP_TURN_SHOWN for a trap put down or taken
        up under its hunter, whom the reader surely reads standing there, while the rest
        of the board stayed at rest. (A cell the reader is unsure of may hold a piece
        nudged or half lifted: asked.)"""
        action = candidate.action
        if not isinstance(action, (engine.PlaceTrap, engine.RemoveTrap)) or leak >= CHANGE_AT_REST:
            return CHANGE_SHOWN
        cell = position.hunters.get(action.hunter)
        standing = cell not in _not_sure_of(observation) and (action.hunter, cell) in self._view_of(observation).hunters
        return TRAP_TURN_SHOWN if standing else CHANGE_SHOWN

    def _lost_more_than_hunters(self, position: engine.Position, evidence: ChangeEvidence, cell: int) -> bool:
        """Whether ``cell`` (the mammoth not on it, a trap under its hunters) lost more
        than LIFT_MARGIN times the size of every hunter standing there."""
        standing = [p for p, c in position.hunters.items() if c == cell]
        if cell == position.mammoth or cell not in position.traps or not standing:
            return False
        sizes = [self._setup_size(p) for p in standing]
        if None in sizes:
            return False
        could = sum(sizes) / evidence.size
        return -evidence.strength(position.mammoth)[cell] > LIFT_MARGIN * could

    @staticmethod
    def _arrived_as_fitted(position: engine.Position, evidence: ChangeEvidence, scored) -> bool:
        """Whether a resolution the changes fit, not the best, puts a piece down where its
        cells show one arriving, at rest's measure at least: the best may hide its own
        arrival (a hunter joining another), and a piece put down elsewhere is in no hand
        (sim.flatart development game 3,600,007: C's step onto a bare cell showed a third
        of a piece there, fitting about as well as a step onto D's cell, and was waited
        for as a hunter in a hand, then asked with nobody to answer)."""
        strength = evidence.strength(position.mammoth)
        before = BoardView.of_position(position)
        return any(strength[x] >= CHANGE_AT_REST for fit, _, _, c in scored[1:] if fit >= CHANGES_FIT
                   for x in _arrivals(before, c) if x != CENTRE)

    @staticmethod
    def _arrived(position: engine.Position, evidence: ChangeEvidence, candidate: Candidate) -> bool:
        """Whether the cells ``candidate`` puts pieces down on show some piece arriving."""
        strength = evidence.strength(position.mammoth)
        return any(abs(strength[x]) >= CHANGES_ARRIVAL if x == CENTRE else strength[x] >= CHANGES_ARRIVAL
                   for x in _arrivals(BoardView.of_position(position), candidate))

    @staticmethod
    def _flight_under_way(position: engine.Position, scored) -> bool:
        """Whether the board may be on its way to a resolution that moves more than the
        mover (the mammoth's flight, frightened hunters): every cell that changed is one
        that resolution changes."""
        return any(leak < CHANGE_SHOWN and (c.view.mammoth != position.mammoth or len(c.changed) > 2)
                   for _, _, leak, c in scored)

    def _misread_at_rest(self, snap: Snapshot, seen: BoardView, hidden) -> bool:
        """Whether the reader's board differs from the game's while the cells show no
        change since the game's board (a misreading: the board the game was last seen
        on stays the one a pass is checked against)."""
        evidence = self._evidence
        if self.board_changes is None or evidence is None or snap.phase != "play":
            return False
        return (evidence.at_rest(snap.position.mammoth)
                and seen != BoardView.of_position(snap.position).masked(hidden))

    def _changes_deny(self, position: engine.Position, candidate: Candidate) -> bool:
        """Whether the cells' changes, on a still board, contradict a resolution the reader
        matched: a cell it puts a piece on or takes one off shows no change, or a cell it
        leaves alone changed as a piece moving does."""
        if self._answering or self._evidence is None or self.board_changes is None:
            return False
        for fit, strength, leak, c in self._scored_by_changes(position, self._evidence):
            if c is candidate:
                return strength < CHANGES_DENY or leak >= CHANGES_LEAK
        return False

    def _ask_after_denial(self, snap: Snapshot, chosen: Candidate, timestamp: float,
                          reading: Observation | None) -> None:
        """The reader sees ``chosen`` exactly but the cells did not change as it would, and
        their changes showed no action of their own (else it was matched before): ask
        the referee whether it is on the board rather than wait without a word. A trap
        put down or taken up under its hunter changes little that shows (all nine such
        denials on the development games were right readings). Once the referee says it
        is not, it is not asked again for this turn."""
        if (snap.version, chosen.outcome.position) in self._refuted:
            return
        self._ask_between([chosen], BoardView.of_position(snap.position), timestamp, reading=reading)

    def _ask_when_ahead_at_rest(self, snap: Snapshot, seen: BoardView, candidates: list, timestamp: float,
                                reading: Observation | None, hidden) -> bool:
        """Whether a question was asked about a board no resolution explains, read surely
        while the cells show no change at all: it may be turns ahead, made by pieces that
        hide what they did (a trap put down under a hunter wider than it). Set aside as
        a misreading, those turns could be taken back unseen and a later move committed
        turns late (sim.flatart development game 3,210,016: A's and B's traps under their
        pawns, read once, then both taken up; A's next move was committed as the first
        turn, four false commits). The resolutions the reader reads surely on every cell
        they change are asked about; a misreading costs a question the referee says no to."""
        if reading is None or self.questions.current is not None or not self._misread_at_rest(snap, seen, hidden):
            return False
        unsure = _not_sure_of(reading)
        shown = [c for c in candidates if not c.changed & unsure
                 and all(contents_of_view(seen, x) == contents_of_view(c.view, x) for x in c.changed)
                 and (snap.version, c.outcome.position) not in self._refuted]
        if not shown or not self._ask_between(shown, BoardView.of_position(snap.position), timestamp, reading=reading):
            return False
        # Whole turns may stand unseen on the board: a piece's change elsewhere from now
        # on is the table moving on, not a turn to match from the game's board, unless it
        # follows the very turns the reader read (:meth:`_propose_hidden_then_next`).
        if self._left_cells is None:
            self._left_cells = frozenset(x for c in shown for x in c.changed)
            self._read_ahead = frozenset(c.action for c in shown)
        return True

    def _changes_unexplained(self, position: engine.Position) -> bool:
        """Whether the still board's cells changed in a way no legal resolution shows
        (the reader's unexplained board is then worth a report, not a misreading)."""
        evidence = self._evidence
        if evidence is None or evidence.at_rest(position.mammoth):
            return False
        scored = self._scored_by_changes(position.with_(hands=None), evidence)
        return not any(leak < CHANGE_SHOWN for _, _, leak, _ in scored)

    def _ask_between(self, candidates: list, game: BoardView, timestamp: float, reading: Observation | None = None,
                     confirmed=frozenset()) -> bool:
        """Ask the referee which of the resolutions the board shows (the best fit first),
        or that it still shows the game's board, about the cell that tells them apart:
        its contents in each.

        An option must stand for one board: when the contents it names are those of
        several resolutions (or of one and the game's board), answering it commits
        nothing and the resolutions it leaves open are asked about next. The cell asked
        tells most contents apart (then the best fit's alone, then most options alone);
        ``confirmed`` cells were answered already. ``reading``: the reader's settled
        board, which must show (or the referee confirm) every other cell a resolution
        changes before an answer naming it commits it (see :meth:`answer_question`)."""
        distinct = {}
        for c in candidates:
            distinct.setdefault(c.outcome.position, c)
        resolutions = list(distinct.values())
        views = [c.view for c in resolutions] + [game]
        cells = sorted({x for v in views[:-1] for x in v.changed_cells(game)} - set(confirmed))
        if not cells:
            return False

        def groups(x):
            grouped = {}
            for i, view in enumerate(views):
                grouped.setdefault(contents_of_view(view, x), []).append(i)
            return grouped

        def telling(x):
            grouped = groups(x)
            alone = sum(len(g) == 1 for g in grouped.values())
            return (len(grouped), grouped[contents_of_view(views[0], x)] == [0], alone, -x)

        cell = max(cells, key=telling)
        grouped = groups(cell)
        if len(grouped) < 2:
            return False
        game_key = contents_of_view(game, cell)
        # The best fits first, the game's board last.
        kept = [k for k in grouped if k != game_key][:MAX_ASKED - 1] + [game_key]
        boards, narrowed, chosen = [], [], []
        for key in kept:
            members = grouped[key]
            alone = len(members) == 1
            boards.append(self._observation_of(views[members[0]] if alone else game, timestamp))
            narrowed.append(None if alone else [resolutions[i] for i in members if i < len(resolutions)])
            chosen.append(resolutions[members[0]] if alone and members[0] < len(resolutions) else None)
        contents = tuple(kept)
        snap = self.table.snapshot()
        self.questions.asked += 1
        raw = self.contents_for_reader(contents[0])
        self.questions.current = Question(self.questions.asked, cell, contents[0], contents, snap.version,
                                          timestamp, raw, boards[0], boards=tuple(boards),
                                          narrowed=tuple(narrowed), chosen=tuple(chosen), reading=reading,
                                          confirmed=frozenset(confirmed) | {cell})
        return True

    def _unseen_cells(self, candidate: Candidate, reading: Observation | None, confirmed) -> list[int]:
        """The cells ``candidate`` changes that the referee has not answered for and the
        reader does not surely read as it leaves them (all of them without a reading)."""
        cells = sorted(set(candidate.changed) - set(confirmed))
        if reading is None:
            return cells
        seen = self._view_of(reading)
        unsure = set(reading.occluded_cells) | set(reading.unsure_cells)
        return [x for x in cells
                if x in unsure or contents_of_view(seen, x) != contents_of_view(candidate.view, x)]

    def _observation_of(self, view: BoardView, timestamp: float) -> Observation:
        """A board the tracker would read as ``view`` (owners as colour labels)."""
        return Observation(timestamp, True, False, None, None, view.mammoth,
                           {self._label_of(p): cell for p, cell in view.hunters},
                           {cell: self._label_of(p) for cell, p in view.traps}, (1.0,) * NUM_CELLS)

    def _mover_evidenced(self, candidate: Candidate) -> bool:
        mover = getattr(candidate.action, "hunter", None)
        if mover is None or mover in candidate.view.hunter_cells():
            return True
        return bool(self._mover_trail & candidate.mover_path)

    def _propose(self, snap: Snapshot, candidate: Candidate, timestamp: float) -> bool:
        """Propose a turn to the table (engine values, validated there once). Not one
        that hides a trap read where the game has none (:meth:`_hides_trap_read`), unless
        the referee's answer chose it: the board is waited on, the question open stays."""
        if not self._answering and self._hides_trap_read(candidate):
            return False
        index = snap.entries
        try:
            self.table.play(candidate.action, candidate.choices, source="camera")
        except CommandError as exc:
            self._report("refused", exc.message, sorted(candidate.changed), timestamp, rule=exc.rule)
            return False
        self._times[index] = round(timestamp, 3)
        self._proposed()
        self._mover_trail = set()
        self._pending = []
        self._change_left = False
        self._forget_left_change()
        self._board_is_right()
        if self.board_changes is not None:
            self.board_changes.rest(keep=self._next_turn_shown(candidate))
        return True

    def _next_turn_shown(self, committed: Candidate) -> frozenset:
        """The cells where the still board already shows the next turn, ``committed``
        just proposed: a legal resolution from the new position that the cells' changes
        away from ``committed``'s own (and its neighbours') show well, a piece put down on
        an empty cell among them (which one need not be clear yet: the cells of each that
        does are kept). Their reference is kept, so that turn is still seen as a change
        (the next player moved before the camera saw this turn's board still; sim.tabletop
        development game 5,500,000 lost every later turn so)."""
        evidence, snap = self._evidence, self.table.snapshot()
        if evidence is None or snap.phase != "play" or self.board_changes is None:
            return frozenset()
        done = set(committed.changed).union(*(NEIGHBOURS[x] for x in committed.changed))
        change = evidence.change.copy()
        change[sorted(done)] = 0.0
        rest = replace(evidence, change=change)
        position = snap.position.with_(hands=None)
        if rest.at_rest(position.mammoth):
            return frozenset()
        before = BoardView.of_position(position)
        # Only a piece put down on an empty cell says so: a change under a standing piece
        # (a trap put down under the next player) looks like his pawn nudged while this
        # turn was made, and is left to this turn's board (sim.tabletop 5,500,004).
        shown = [c for fit, strength, _, c in self._scored_by_changes(position, rest)
                 if fit >= CHANGES_FIT and strength >= CHANGE_SHOWN
                 and any(contents_of_view(before, x).empty and not contents_of_view(c.view, x).empty
                         for x in c.changed)]
        return frozenset().union(*(c.changed for c in shown)) - done

    def _report_unexplained(self, snap: Snapshot, before: BoardView, seen: BoardView, timestamp: float,
                            changed=None) -> None:
        """Say why the board is not matched (``changed``: the cells that changed, when the
        cells' changes are known, for a change the reader does not see as one hunter's)."""
        position = snap.position
        if self.board_changes is not None and not self._changes_unexplained(position):
            return  # a misreading: the cells show no change, or one a legal action explains
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
            if player != position.to_move:
                self._report("out_of_turn", f"{player} moved but it is {position.to_move}'s turn "
                             f"(confirm a pass if {position.to_move} passed)", cells, timestamp,
                             hunter=player)
                return
            line = straight_move(old[player], new[player])
            if line is None:
                message = f"{CELL_NAMES[old[player]]} to {CELL_NAMES[new[player]]} is not a straight line"
                rule = "move.straight"
            else:
                try:
                    engine.check_action(position.with_(hands=None), engine.Move(player, *line), snap.variants)
                    message, rule = "this move is legal but the board does not show its result", ""
                except engine.IllegalAction as exc:
                    message, rule = exc.message, exc.rule
            self._report("illegal_move", message, cells, timestamp, hunter=player, rule=rule)
            return
        self._report("unrecognised_change", "the board shows a change no legal action explains",
                     cells if changed is None else changed, timestamp)

    def _explained_after(self, position: engine.Position, variants, observation: Observation) -> bool:
        """Would the board seen last be explained from ``position`` (the game after a pass)?"""
        seen = self._view_of(observation)
        hidden = frozenset(observation.occluded_cells)
        before = BoardView.of_position(position).masked(hidden)
        if seen == before or before.explains(seen):
            return True
        for c in build_candidates(position, variants):
            view = c.view.masked(hidden)
            if view == seen or view.explains(seen, on_top=c.arrived) or c.allows_progress(before, seen, hidden):
                return True
        return False

    # -- buttons ------------------------------------------------------------------------
    def confirm_pass(self, card: int | None = None) -> dict:
        """The player to move discards and passes (button or web page); returns the action.

        Refused (``TrackerError``) outside play, while the board disagrees with the game,
        while a move is on its way, and while the board shows a change that neither the
        pass nor a move after it explains; if the board already shows the next player's
        move, it is matched at once.
        """
        snap = self._sync()
        if snap.phase != "play":
            raise TrackerError(f"no pass can be confirmed now: the tracker is in its {PHASES[snap.phase]} phase")
        if not self._in_step:
            raise TrackerError("the board differs from the game: put it right first, then confirm the pass")
        position = snap.position.with_(hands=None)
        if self._pending:
            raise TrackerError(f"{position.to_move} has started a move: finish it or put it back first")
        action = engine.Pass(position.to_move, card)
        try:
            outcome = engine.apply_action(position, action, (), snap.variants)
        except engine.IllegalAction as exc:
            raise TrackerError(exc.message) from exc
        observation = self._last_observation
        if observation is not None and not self._explained_after(outcome.position, snap.variants, observation):
            # The camera may not have seen this player's own move yet: a pass on top of
            # it would be a wrong commit.
            raise TrackerError("the board shows a change the game cannot explain yet: "
                               "put it right (or let the camera see the move), then confirm the pass")
        index = snap.entries
        try:
            self.table.play(action, (), source="buttons")
        except CommandError as exc:
            raise TrackerError(exc.message) from None
        self._times[index] = round(self._last_time, 3)
        self._proposed()
        passed = self.actions[-1]
        after = self.table.snapshot()
        if after.phase == "play" and observation is not None:
            # The board may already show the next player's move (pass pressed late).
            self._observe_playing(after, self._view_of(observation), self._last_time,
                                  frozenset(observation.occluded_cells))
        return passed

    def undo(self) -> dict | None:
        """Ask the table to take back its last turn (a wrong commit, a pass pressed by
        mistake); the board must then be put back before tracking goes on. Returns the
        turn taken back, or ``None`` when there is none."""
        actions = self.actions
        if not actions or self.table.game is None:
            return None
        entries = self.table.game.entries()
        if "action" not in entries[-1]:
            return None
        self.table.undo(source="camera")
        return actions[-1]

    # -- questions (vision.questions) -------------------------------------------------
    @property
    def question(self):
        """The question about an unsure cell the tracker waits on, or ``None``."""
        return self.questions.current

    def answer_question(self, question_id: int, option: int) -> dict:
        """The referee's answer to the current question (``option``: index into its
        options). Refused (``QuestionRefused``) when stale or when the board it implies
        is one no legal action explains; else taught for the cell, and the settled board
        read with it is matched at once (a move is proposed to the table as usual).
        Returns ``{"committed": [turns or placements the table took], "reports": [...]}``."""
        question = self.questions.current
        board, explained = self.questions.answer(self, question_id, option)
        chosen = question.chosen[option] if question.chosen else None
        if question.chosen:
            if question.options[option] == contents_of_view(self.game_view(), question.cell):
                # The referee says the game's board: no turn was left there.
                self._left_cells, self._read_ahead = None, frozenset()
            self._refuted = {k for k in self._refuted if k[0] == question.version}
            self._refuted.update((question.version, c.outcome.position)
                                 for i, c in enumerate(question.chosen) if c is not None and i != option)
        if chosen is not None and self._unseen_cells(chosen, question.reading, question.confirmed):
            # One cell of this resolution is confirmed; the others the reader does not
            # see as it leaves them are asked in turn before anything is committed.
            self._ask_between([chosen], self.game_view(), question.time, question.reading, question.confirmed)
            return {"committed": [], "reports": []}
        entries, reports = self.table.snapshot().entries, len(self.reports)
        self._answering = True
        try:
            if explained:
                self.observe(board)
            chain = self.answered_chain(board, question.cell) if self.table.snapshot().entries == entries else None
            if chain is not None:
                self._propose_turns(chain, question.time)
        finally:
            self._answering = False
        # The next settled board carries the taught reading: it is the board just matched.
        self.stability.reset(forget_committed=True)
        self.questions.teach(self, question, self.contents_for_reader(question.options[option]))
        still_open = question.narrowed[option] if question.narrowed else None
        if still_open and self.table.snapshot().version == question.version:
            # The answer names what several resolutions leave there: ask between those.
            self._ask_between(still_open, self.game_view(), question.time, question.reading, question.confirmed)
        game = self.table.game
        done = game.entries()[entries:] if game is not None else []
        return {"committed": list(done), "reports": self.reports[reports:]}

    def game_view(self) -> BoardView:
        """The tokens the table's game has on the board (owners by player id)."""
        snap = self.table.snapshot()
        if snap.position is None:
            return BoardView(None, frozenset(), frozenset())
        return BoardView.of_position(snap.position)

    def contents_for_page(self, contents: Contents) -> Contents:
        """Colour labels as player ids (a colour nobody owns yet stays ``"?label"``)."""
        def owner(label):
            return self.label_to_player.get(label, f"?{label}")
        return Contents(contents.mammoth, tuple(sorted(owner(h) for h in contents.hunters)),
                        None if contents.trap is None else owner(contents.trap))

    def contents_for_reader(self, contents: Contents) -> Contents:
        """Player ids as the calibration's colour labels."""
        def label(owner):
            return owner[1:] if owner.startswith("?") else self._label_of(owner)
        return Contents(contents.mammoth, tuple(sorted(label(h) for h in contents.hunters)),
                        None if contents.trap is None else label(contents.trap))

    def readings_that_matter(self, raw: Observation, unsure, cell: int) -> tuple:
        """The contents of ``cell`` (owners by player id) between which the move under
        way depends, or ``()`` when the cell does not matter now.

        It matters when the reader sees there something other than the game has, or
        when a legal resolution that fits the rest of the board changes it.
        """
        snap = self.table.snapshot()
        hidden = frozenset(raw.occluded_cells) | frozenset(unsure)
        seen_rest = self._view_of(raw).masked(hidden)
        game = self.game_view()
        guess = self.contents_for_page(Contents(raw.mammoth == cell,
                                                tuple(sorted(k for k, c in raw.hunters.items() if c == cell)),
                                                raw.traps.get(cell)))
        options = [contents_of_view(game, cell)]
        if snap.phase == "play":
            for c in self.candidates():
                if cell in c.changed and not (c.changed & (hidden - {cell})) and c.view.masked(hidden) == seen_rest:
                    options.append(contents_of_view(c.view, cell))
        elif snap.phase == "setup" and snap.next_to_place and not guess.empty:
            options.append(Contents(hunters=(snap.next_to_place,)))
        if guess == options[0] and len(options) == 1:
            return ()
        options.append(Contents())
        return tuple(dict.fromkeys(options))

    def board_explained(self, observation: Observation) -> bool:
        """Would this settled board be matched (the game's position, a legal turn or
        placement, or on its way to one)? The check an answer must pass."""
        snap = self.table.snapshot()
        hidden = frozenset(observation.occluded_cells)
        seen = self._view_of(observation)
        if snap.phase == "setup":
            placed = BoardView.of_position(snap.position).masked(hidden)
            arrived = [(who, c) for who, c in seen.hunters - placed.hunters
                       if who.startswith("?") or who == snap.next_to_place]
            return (seen == placed or (len(arrived) == 1
                    and BoardView(seen.mammoth, seen.hunters - frozenset(arrived), seen.traps) == placed))
        if snap.phase == "play":
            return self._explained_after(snap.position.with_(hands=None), snap.variants, observation)
        return False

    def answered_chain(self, observation: Observation, cell: int) -> list[Candidate] | None:
        """The turn the board did not show on ``cell`` (the player to move setting or
        taking up the trap under his own hunter, the one such thing legal for him), then
        the next player's turn, that together leave this settled board, when exactly one
        such pair does. A referee's answer about that cell confirms the first; the board
        shows the second (sim.flatart development game 3,600,010: B's trap taken up under
        him, unseen, then C's step; the answer saying so was refused, no single turn
        leaving that board)."""
        snap = self.table.snapshot()
        if snap.phase != "play":
            return None
        runs = self._hidden_turns(snap.position.with_(hands=None), snap.variants)
        if not runs or cell not in runs[0][0].changed:
            return None
        first = runs[0][0]
        seen = self._view_of(observation)
        hidden = frozenset(observation.occluded_cells)
        found = {}
        for then in build_candidates(first.outcome.position.with_(hands=None), snap.variants):
            view = then.view.masked(hidden)
            if then.changed and (view == seen or view.explains(seen, on_top=then.arrived)):
                found.setdefault(then.outcome.position, [first, then])
        return next(iter(found.values())) if len(found) == 1 else None

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
        snap = self.table.snapshot()
        tiles = None
        if snap.tiles is not None:
            tiles = {CELL_NAMES[i]: t.value for i, t in enumerate(snap.tiles)}
        position = snap.position.with_(hands=None) if snap.phase in ("play", "over") else None
        return {
            "tiles": tiles,
            "placements": self.placements,
            "actions": self.actions,
            "position": engine.position_to_json(position) if position is not None else None,
            "winner": snap.winner,
            "phase": PHASES[snap.phase],
            "reports": list(self.reports),
        }

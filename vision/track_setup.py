"""Learning the set's colours from the start of a live game, as the players set up.

``maamut track`` receives frames that start with the setup itself: the empty board with
the mammoth on the cross, then each hunter put down in seating order. The
:class:`SetupLearner` picks out those setup boards by what *changes* on each cell, never
by the colour classes a set may not fit, and calibrates from them once the last hunter
is down, so nobody has to run ``maamut calibrate`` first:

1. every frame is sampled on each cell's dense grid (:func:`vision.changes.sample_grid`)
   and compared with the frame before it (:func:`vision.calibration.moved_between`, each
   cell's light divided out): a run of ``required`` frames in which nothing moved is a
   *settled* board. A hand passing, a piece on its way down, never settles;
2. the first settled board on which the layout and the mammoth on the cross can be
   learnt *is* the empty board: the reference every cell is judged against from then
   on, speckles, texture and print included (a speckled rock or a textured grass is its
   own reference, not a colour class to fit);
3. each later settled board that differs from the last step on one cell, clearly more
   than anywhere else (:func:`new_piece_cell`), shows the next hunter put down there,
   whatever his size, shape or colour (a pawn close to its tile's colour changes few
   points, but no other cell changes as many). The light drifting between two steps is
   divided out; a piece learnt before that was nudged changes a fraction of his own
   points, far less than a piece put down;
4. after the last hunter the calibration is learnt from those frames
   (``calibration.learn``): the model that reads every setup frame back as it was put
   down is kept (the kit's or the figures', else the pieces' changes);
5. optionally (``traps=True``, ``maamut track --trap-step``), each player then puts one of
   his traps down on a free grass cell, in seating order: each settled board is learnt
   from (``learn(..., trap_frames=...)``) and must read back one trap of each player so
   far, that player's new one included. The players then take the traps off;
   setup is done once the board shows the hunters alone again (a trap left lying would
   otherwise be taken for the first move).

The learner never raises on a bad frame: it waits for the next one.
"""

from __future__ import annotations

import cv2
import numpy as np

import engine
from engine.hexgrid import CENTRE, NUM_CELLS, RADIUS, distance, ring_of

from .calibration import (MIN_PIECE_POINTS, Calibration, CalibrationError, learn, locate_with_mirror, moved_between,
                          piece_changed)
from .changes import changed_counts, faint_changed_counts, sample_grid
from .geometry import BoardLocator, mirror_frame
from .observation import Observation
from .reader import BoardReader

#: ... and this many times more than any free cell that is not its neighbour (a hand
#: changes many cells at once; a piece's overhang or shadow reaches its neighbours only).
PIECE_CLEAR = 2.0
#: A taken cell's neighbours may show this share of its change (a figure overhanging them).
SPILL = 0.5
#: Hunters are put down on the outer ring at setup (the rules' placement), before the
#: layout is known.
OUTER = frozenset(c for c in range(NUM_CELLS) if ring_of(c) == RADIUS)


def layout_start_cells(tiles, variants: engine.Variants) -> frozenset:
    """The cells of the layout ``tiles`` (tile names) a hunter may be put down on at setup:
    the engine's rule (RULINGS "Setup" 4: the outer ring by default, never rock), so
    a standing figure leaning over the rock beside his cell is not taken for a hunter
    put down there (sim.tabletop development games 5,500,010 and 5,520,028).

    >>> from engine.notation import tiles_from_text
    >>> tiles = [t.value for t in tiles_from_text("sgrs/gsggs/gggrrg/sssxggs/rsrrsg/ggggs/ggrg")]
    >>> cells = layout_start_cells(tiles, engine.Variants())
    >>> cells < OUTER, len(OUTER) - len(cells)   # three of the outer tiles are rock
    (True, 3)
    """
    layout = tuple(engine.Tile(name) for name in tiles)
    empty = engine.Position(layout, CENTRE, ("c0",), {}, {}, "c0")
    return frozenset(engine.start_cells(empty, variants))


def new_piece_cell(gain: np.ndarray, taken, allowed=None, covered=None) -> int | None:
    """The cell a piece was just put down on, from each cell's change since the last
    step (``gain``, grid points), or ``None`` when no one cell stands out: nothing new,
    or a change spread over the board (a hand, the board nudged).

    Cells already ``taken`` by hunters learnt before are not candidates: each may have
    been nudged or turned (its points change, a fraction of what a piece put down
    changes, so less than the new one), and the mammoth's cross is ignored (a token
    turned on it changes as much as a small pawn put down). A taken cell's neighbours
    may show half its change (a standing figure overhanging them) as far as his cover of
    his own cell changed, the new cell's neighbours some of his (his overhang, his
    shadow). ``allowed``: the cells the rules let the piece be put down on (hunters on
    the outer ring), all by default.
    ``covered``: how much more or less of each cell differs from the empty board than at
    the last step. A hunter learnt before whose look changed without leaving (a tall
    figure seen from a camera moved between two steps, a piece turned) covers his cell as
    before: only a taken cell that changed that way too can outweigh the new piece.

    >>> gain = np.zeros(37); gain[5] = 60; gain[6] = 25; gain[20] = 12; gain[18] = 70
    >>> new_piece_cell(gain, taken={18})
    5
    >>> gain[30] = 40
    >>> new_piece_cell(gain, taken={18}) is None
    True
    """
    taken = set(taken) | {CENTRE}
    # A taken cell's overhang moves with what covers it: one covered as before (a figure
    # relit, or overhung by the newcomer beside it) spills nothing new.
    source = gain if covered is None else np.minimum(gain, np.abs(covered))
    spill = np.array([max([source[t] for t in taken if distance(t, c) == 1], default=0.0) for c in range(NUM_CELLS)])
    own = np.maximum(gain - SPILL * spill, 0.0)
    free = np.array([c not in taken and (allowed is None or c in allowed) for c in range(NUM_CELLS)])
    if not free.any():
        return None
    cell = int(np.argmax(np.where(free, own, -np.inf)))
    if own[cell] < MIN_PIECE_POINTS:
        return None
    # (Where a piece may go: the mammoth, a figure turned on its cross, reaches the
    # inner rings.)
    elsewhere = [own[c] for c in range(NUM_CELLS) if c not in taken and c != cell and distance(c, cell) > 1
                 and (allowed is None or c in allowed)]
    if elsewhere and own[cell] < PIECE_CLEAR * max(elsewhere):
        return None
    change = gain if covered is None else np.minimum(gain, np.abs(covered))
    if any(change[c] >= own[cell] for c in taken if c != CENTRE):
        return None
    return cell


class SetupLearner:
    """Feeds on frames until the empty board and ``n_hunters`` placements are learnt."""

    def __init__(self, n_hunters: int, required: int = 5, traps: bool = False,
                 variants: engine.Variants | None = None):
        if not 1 <= n_hunters <= 4:
            raise ValueError("between 1 and 4 hunters are learnt at setup")
        self.n_hunters = n_hunters
        self.required = required
        self.traps = traps
        self.variants = variants or engine.Variants()
        #: Where the rules let a hunter be put down, once the empty board showed the layout.
        self.start_cells = OUTER
        self.frames: list[np.ndarray] = []  # accepted setup frames: empty board, then one per hunter
        #: Where each hunter was put down (cell ids, seat order), as the changes showed.
        self.cells: list[int] = []
        #: How many grid points each hunter changed when put down (his size, as seen).
        self.sizes: list[float] = []
        self.mammoth_noise = 0.0
        #: Each accepted frame's grids (:func:`vision.changes.sample_grid`): the first is
        #: the empty board, every cell's own reference.
        self.grids: list[np.ndarray] = []
        self.trap_frames: list[np.ndarray] = []  # the optional step: one more trap per frame
        self.trap_grids: list[np.ndarray] = []
        self.trap_cells: list[int] = []
        self._trap_sizes: list[float] = []
        self._traps_cleared = False
        self.calibration: Calibration | None = None
        self._locator = BoardLocator()
        self._mirrored: bool | None = None
        self._previous: np.ndarray | None = None   # the last frame's grids
        self._still = 0                            # frames in a row nothing moved
        self._tried = False                        # this settled board was looked at
        self._looked_at: np.ndarray | None = None  # ... and its grids
        self._pieces: str | None = None   # the pieces' model, once the setup showed which holds
        self._hunters_seen: dict = {}

    @property
    def hunters_done(self) -> bool:
        return len(self.frames) == self.n_hunters + 1

    @property
    def done(self) -> bool:
        return self.hunters_done and self.calibration is not None and (not self.traps or self._traps_cleared)

    @property
    def hunters_learnt(self) -> int:
        return max(0, len(self.frames) - 1)

    def feed(self, frame: np.ndarray, timestamp: float) -> bool:
        """Look at one frame; True when it completed a setup step."""
        if self.done or not isinstance(frame, np.ndarray) or frame.ndim != 3:
            return False
        grid = self._grid(frame)
        if grid is None:
            self._previous, self._still = None, 0
            return False
        moved = self._previous is None or bool(moved_between(self._previous, grid))
        self._previous = grid
        # (A faint piece put down between two frames shows no frame moving: sim.tabletop
        # development game 5,520,021, a glass bead of 17 grid points never looked at,
        # so the setup stopped one hunter short.)
        if moved or (self._tried and piece_changed(self._looked_at, grid)):
            self._still, self._tried = 1, False
        else:
            self._still += 1
        if self._still < self.required or self._tried:
            return False
        self._tried = True    # one look per settled board: it is the same board until it moves
        self._looked_at = grid
        if not self.frames:
            return self._try_empty_board(frame, grid)
        if self.hunters_done and self.calibration is not None:
            return self._try_trap(frame, grid)
        return self._try_placement(frame, grid)

    def _grid(self, frame: np.ndarray) -> np.ndarray | None:
        """The frame's cell grids, or ``None`` when the board is not in view."""
        if self._mirrored is None:
            geometry, mirrored = locate_with_mirror(frame, self._locator)
            if geometry is None:
                return None
            self._mirrored = mirrored
        if self._mirrored:
            frame = mirror_frame(frame)
        geometry = self._locator.fit(self._locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)))
        return None if geometry is None else sample_grid(frame, geometry.homography)

    # -- step 1: the empty board, the reference ------------------------------------------
    def _try_empty_board(self, frame, grid) -> bool:
        try:
            # The layout, and the mammoth on the cross (the changes' model needs it).
            layout = learn([frame], pieces="changes")
        except CalibrationError:
            return False
        self.start_cells = layout_start_cells(layout.tiles, self.variants)
        self.frames.append(frame)
        self.grids.append(grid)
        return True

    # -- step 2: each hunter ----------------------------------------------------------------
    def _try_placement(self, frame, grid) -> bool:
        # What changed since the last step, each cell's light divided out.
        gain = changed_counts(self.grids[-1], grid).astype(float)
        covered = (changed_counts(self.grids[0], grid).astype(float)
                   - changed_counts(self.grids[0], self.grids[-1]).astype(float))
        taken = {CENTRE, *self.cells}
        cell = new_piece_cell(gain, taken, self.start_cells, covered)
        if cell is None and self.start_cells != OUTER:
            # The empty board's tiles may be misread (snow burnt white under a lamp
            # passes for rock): a piece clearly put down on the outer ring is his,
            # whatever tile was read there (sim.tabletop development game 5,600,023:
            # two hunters on glaring snow learnt only turns later, under other moves).
            cell = new_piece_cell(gain, taken, OUTER, covered)
        if cell is None:
            # A piece close to its tile's colour moves its whole cell a little: it is
            # looked for so when nothing stands out by the common measure. (His size
            # stays that measure's, what his moves will change, though no less than a
            # piece's least: sim.tabletop development game 5,600,020, an olive cube on
            # grass, 4 points so, 258 faintly.)
            faint = faint_changed_counts(self.grids[-1], grid).astype(float)
            cell = new_piece_cell(faint, taken, self.start_cells, covered)
            if cell is None:
                return False
        self.frames.append(frame)
        self.grids.append(grid)
        self.cells.append(cell)
        self.sizes.append(max(float(gain[cell]), MIN_PIECE_POINTS))
        # The mammoth's token put back or turned on its cross between steps: how much a
        # still mammoth may change, which no piece moving there should be taken for.
        self.mammoth_noise = max(self.mammoth_noise, float(gain[CENTRE]))
        if self.hunters_done:
            self._learn()
        return True

    def _learn(self) -> None:
        """The calibration from the setup frames: the set's own model (the kit's or the
        figures') when it reads each setup frame back as it was put down and holds from
        one step to the next, else the pieces' changes, else whichever reads most back."""
        best = None
        for pieces in (None, "changes"):
            try:
                calibration = learn(self.frames, pieces=pieces, hunter_cells=self.cells)
            except CalibrationError:
                continue
            score = self._read_back(calibration)
            if calibration.pieces != "changes" and not self._holds_between_steps(calibration.pieces):
                score -= 0.5
            if best is None or score > best[0]:
                best = (score, calibration)
            if score == len(self.frames):
                break
        if best is None:
            # Frames that teach no calibration: wait for the setup to be shown again.
            self.frames, self.grids, self.cells, self.sizes = self.frames[:1], self.grids[:1], [], []
            return
        self.calibration = best[1]
        self._pieces = self.calibration.pieces
        self._hunters_seen = {f"c{i}": cell for i, cell in enumerate(self.cells)}

    def _holds_between_steps(self, pieces: str) -> bool:
        """Whether the model learnt up to each step still reads the hunters learnt so far
        where they stand in the next step's frame. A model that fits its own frames but
        not the next one (the light drifted a little, a token turned) will not hold
        through a game; the pieces' changes, each cell against its own empty look, do."""
        for step in range(2, len(self.frames)):
            try:
                calibration = learn(self.frames[:step], pieces=pieces)
            except CalibrationError:
                return False
            seen = BoardReader(calibration, lock_tiles=True).read(self.frames[step], 0.0)
            if any(seen.hunters.get(f"c{i}") != self.cells[i] for i in range(step - 1)):
                return False
        return True

    def _read_back(self, calibration: Calibration) -> int:
        """How many setup frames ``calibration`` reads as they were put down."""
        reader = BoardReader(calibration, lock_tiles=True)
        right = 0
        for index, frame in enumerate(self.frames):
            seen = reader.read(frame, 0.0)
            right += (seen.board_found and not seen.occluded_cells and seen.mammoth == CENTRE and not seen.traps
                      and seen.hunters == {f"c{i}": self.cells[i] for i in range(index)})
        return right

    def observations(self, timestamp: float) -> list[Observation]:
        """The setup boards as the changes showed them, for the tracker: the layout with
        the mammoth on the cross, then one hunter more each (labels ``c0``... in seat order)."""
        tiles = tuple(self.calibration.tiles)
        boards = []
        for index in range(len(self.frames)):
            hunters = {f"c{i}": self.cells[i] for i in range(index)}
            boards.append(Observation(timestamp, True, False, tiles, None, CENTRE, hunters, {},
                                      (1.0,) * NUM_CELLS))
        return boards

    # -- step 3 (optional): one trap per player, then the traps taken off ---------------
    def _try_trap(self, frame, grid) -> bool:
        # Compared with the last step (the last hunter, or the last trap put down).
        last = self.trap_grids[-1] if self.trap_grids else self.grids[-1]
        if len(self.trap_frames) == self.n_hunters:
            # Every trap learnt: setup ends when the board shows the hunters alone again.
            # (Each trap's cell as on the empty board, and nothing new elsewhere but
            # where the hunters stand, who may have been nudged meanwhile.)
            traps = changed_counts(self.grids[0], grid)[self.trap_cells]
            gain = changed_counts(self.grids[-1], grid)
            near = [c for c in range(NUM_CELLS) if c == CENTRE or min(distance(c, h) for h in self.cells) <= 1]
            gain[near] = 0
            # (Half what a trap changed when put down: re-rendered noise is no trap.)
            line = 0.5 * min(self._trap_sizes)
            self._traps_cleared = bool(traps.max() < line and gain.max() < line)
            return self._traps_cleared
        taken = {CENTRE, *self.cells, *self.trap_cells}
        gain = changed_counts(last, grid).astype(float)
        cell = new_piece_cell(gain, taken)
        if cell is None:
            return False
        try:
            calibration = learn(self.frames, pieces=self._pieces, trap_frames=self.trap_frames + [frame])
        except CalibrationError:
            return False
        # The new trap must read back as this player's, beside the ones learnt before.
        check = BoardReader(calibration, lock_tiles=True).read(frame, 0.0)
        owners = sorted(check.traps.values())
        if (owners != [f"c{k}" for k in range(len(self.trap_frames) + 1)] or check.occluded_cells
                or check.hunters != self._hunters_seen):
            return False
        self.trap_frames.append(frame)
        self.trap_grids.append(grid)
        self.trap_cells.append(cell)
        self._trap_sizes.append(float(gain[cell]))
        self.calibration = calibration
        return True

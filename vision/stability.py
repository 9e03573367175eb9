"""Commit only a stable board: a run of clean, agreeing observations.

A single frame is never trusted. A hand reaching over the board, the shadow of a
leaning player or a lamp switched on can each make a frame read wrong; what they
cannot do is make several consecutive *clean* frames (board found, nothing foreign
over it, every cell read confidently) agree on the wrong board, and still leave it
that way. So the filter commits a board once ``frames`` consecutive clean
observations agree on it for at least ``min_seconds``, and only when it differs
from the board committed last. Any unclean frame restarts the count, so the board
must settle again after every disturbance.

>>> from vision.observation import Observation
>>> def seen(t, mammoth, occluded=False):
...     return Observation(t, True, occluded, None, None, mammoth, {}, {}, (1.0,) * 37)
>>> stable = StabilityFilter(frames=3)
>>> [stable.feed(seen(t, 18)) is not None for t in range(4)]
[False, False, True, False]
>>> stable.feed(seen(4, 5, occluded=True)), stable.status
(None, 'disturbed')
>>> [stable.feed(seen(t, 5)) is not None for t in range(5, 8)]
[False, False, True]
>>> stable.committed.mammoth
5
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from engine.hexgrid import CENTRE, distance

from .calibration import moved_between, piece_changed
from .changes import changed_counts, light_strays
from .observation import Observation


def board_key(observation: Observation, include_tiles: bool = False) -> tuple:
    """What two observations must share to show the same board (timestamps aside).

    >>> from vision.observation import Observation
    >>> a = Observation(0.0, True, False, None, None, 18, {"c0": 3}, {}, (1.0,) * 37)
    >>> b = Observation(9.0, True, False, None, None, 18, {"c0": 3}, {}, (0.8,) * 37)
    >>> board_key(a) == board_key(b)
    True
    """
    key = (
        observation.mammoth,
        tuple(sorted(observation.hunters.items())),
        tuple(sorted(observation.traps.items())),
        tuple(sorted(observation.occluded_cells)),
    )
    if include_tiles:
        key += (observation.tiles,)
    return key


def unclean_reason(observation: Observation, min_confidence: float, need_tiles: bool = False,
                   max_hidden_cells: int = 0) -> str | None:
    """Why this frame must not count towards a stable board, or ``None`` if it may."""
    if not observation.board_found:
        return "board not found"
    hidden = len(observation.occluded_cells)
    if observation.occluded and not (0 < hidden <= max_hidden_cells):
        return "something is over the board"
    if hidden > max_hidden_cells:
        return f"{hidden} cells hidden"
    if getattr(observation, "unsure_cells", ()):
        # Too close to a line to tell (a faint trap, a piece half its size): wait.
        return "a cell is read with low confidence"
    confidences = observation.cell_confidence
    if confidences is None or len(confidences) == 0:
        return "no token reading"
    readable = [c for i, c in enumerate(confidences) if i not in observation.occluded_cells]
    if readable and min(readable) < min_confidence:
        return "a cell is read with low confidence"
    if need_tiles and observation.tiles is None:
        return "tiles not read"
    return None


class StabilityFilter:
    """Turns a stream of per-frame observations into a few committed boards.

    ``feed`` returns the observation that completes a stable run of a *new* board,
    else ``None``. ``include_tiles`` makes the tile reading part of the agreement
    (used at setup, before the tiles are locked); afterwards only tokens matter, so a
    flickering tile guess cannot hold up a move.

    ``max_hidden_cells`` lets a board with that many unreadable cells (and nothing
    else amiss) count: a speck of glare or a token the reader cannot place must not
    hold the game up for good. The unreadable cells are part of the agreement, and the
    tracker commits no change on them. A hand covers more cells than that.

    ``min_confidence`` (off by default) also rejects frames with a weakly read cell.
    It stays off because a reading that is consistently unsure (a hunter standing on
    a trap of its own colour) would otherwise hold the game up for good; agreement over
    several frames and the tracker's legality check guard against misreadings instead.
    """

    def __init__(self, frames: int = 5, min_seconds: float = 0.0, min_confidence: float = 0.0,
                 include_tiles: bool = False, max_hidden_cells: int = 0):
        if frames < 1:
            raise ValueError("a stable board needs at least one frame")
        if min_seconds < 0:
            raise ValueError("min_seconds must not be negative")
        self.frames = int(frames)
        self.min_seconds = float(min_seconds)
        self.min_confidence = float(min_confidence)
        self.include_tiles = include_tiles
        self.max_hidden_cells = int(max_hidden_cells)
        self.committed: Observation | None = None
        self.status = "waiting"
        self.reason: str | None = None
        self._committed_key = None
        self._run_key = None
        self._run_length = 0
        self._run_start = 0.0

    def reset(self, forget_committed: bool = False):
        """Start counting afresh (and, if asked, let the same board be committed again)."""
        self._run_key = None
        self._run_length = 0
        if forget_committed:
            self._committed_key = None
            self.committed = None

    def feed(self, observation: Observation) -> Observation | None:
        reason = unclean_reason(observation, self.min_confidence, self.include_tiles, self.max_hidden_cells)
        if reason is not None:
            self.status, self.reason = "disturbed", reason
            self.reset()
            return None
        key = board_key(observation, self.include_tiles)
        if key != self._run_key:
            self._run_key = key
            self._run_length = 0
            self._run_start = observation.timestamp
        self._run_length += 1
        settled = (self._run_length >= self.frames
                   and observation.timestamp - self._run_start >= self.min_seconds)
        if not settled:
            self.status, self.reason = "settling", None
            return None
        self.status, self.reason = "stable", None
        if key == self._committed_key:
            return None
        self._committed_key = key
        self.committed = observation
        return observation


# -- what changed on each cell, whatever the reader makes of it -------------------------

#: A cell whose tokens changed shows at least this share of a hunter's size in grid
#: points changed against the empty board; one whose tokens did not, less (a piece nudged
#: or turned, another's overhang or shadow). Shares of the hunters' median size.
CHANGE_SHOWN = 0.45
CHANGE_AT_REST = 0.25
#: A bare cell beside a tall piece just put down gains the piece's shadow or lean: up to
#: this share of what the piece's own cell gained (sim.tabletop development game
#: 5,800,011: 0.77 of a piece beside a figure's 1.09, under a low desk lamp).
SHADE_SHARE = 0.8
#: A board still this many times the run a stable board needs: a piece lifted is not
#: just in a hand on its way any more, the camera asks.
WAITED = 4


@dataclass
class ChangeEvidence:
    """How much each cell changed since the board the game was last seen on (``change``,
    37 signed counts of grid points: more unlike the empty board, or less), on a board
    held still for the run of frames the stability filter asks for (``settled``: the
    first frame of that run)."""

    change: np.ndarray
    size: float
    mammoth_noise: float
    settled: bool
    #: The board has now been still for WAITED times as long (once, on that frame).
    waited: bool = False

    def strength(self, mammoth: int | None) -> np.ndarray:
        """Each cell's signed change as a share of a hunter's size; on the cell the game
        has the mammoth on, less what its token turned in place changed at setup."""
        change = self.change.copy()
        if mammoth is not None:
            change[mammoth] = np.sign(change[mammoth]) * max(0.0, abs(change[mammoth]) - 1.2 * self.mammoth_noise)
        return change / self.size

    def at_rest(self, mammoth: int | None) -> bool:
        """Nothing changed that a piece moving would change."""
        return bool(np.abs(self.strength(mammoth)).max() < CHANGE_AT_REST)

    def fit(self, mammoth: int | None, changed: dict, shown, near=(), beside=(),
            scale: float = 1.0, shaded=()) -> tuple[float, float, float]:
        """``(fit, strength, leak)`` of a change on the cells ``changed`` (cell: +1 when
        pieces are put down there, -1 when taken off, 0 either), the game having the
        mammoth on ``mammoth``. The cells ``shown`` must show it (a piece put down on an
        empty cell or taken off it; a trap put down under a hunter may hide under him).
        ``strength``: the least change the right way on those cells (else the most on the
        others changed); ``leak``: the most change anywhere else. Above zero, the change
        explains the board better than any cell left out of it. The cross cell's
        reference is the mammoth on it, so there only how much it changed counts.

        ``near``: cells a change that shows on none of its own may spill onto (a trap put
        down under a hunter, wider than him, shows around him), as long as its own cells
        did not lose a piece instead. A spill goes the way of the change it comes from: a
        piece taken off a cell can only leave its neighbours more like their empty tiles,
        a piece put down less; a neighbour that changed the other way is no spill of it.

        >>> seen = ChangeEvidence(np.r_[-90.0, 80.0, 10.0, np.zeros(34)], 100.0, 0.0, True)
        >>> [round(v, 2) for v in seen.fit(None, {0: -1, 1: 1}, {0, 1})]
        [0.7, 0.8, 0.1]
        >>> round(seen.fit(None, {0: 1}, ())[0], 2)   # a trap put down there: it shrank
        -0.8
        >>> arrived = ChangeEvidence(np.r_[0.0, 100.0, np.zeros(35)], 100.0, 0.0, True)
        >>> near_0 = {c for c in range(37) if distance(c, 0) == 1}
        >>> [round(v, 2) for v in arrived.fit(None, {0: 1}, (), near_0)]  # a trap put under him, wide
        [1.0, 1.0, 0.0]
        >>> round(arrived.fit(None, {0: -1}, (), near_0)[0], 2)   # a trap taken up: no spill of that
        -1.0

        ``beside``: empty cells next to the change's own (empty before and after it). A tall
        piece taken off a shown cell overhung them: one that lost as that cell did, by no
        more, is that piece's overhang, no leak (an empty cell cannot lose a piece of its
        own). A gain there is no such thing: it may be a piece put down beside, and the
        cell taken for its overhang another resolution's (sim.tabletop development game
        5,500,014: a two-step move committed as three).

        ``shaded``: empty cells beside a hunter put down, each with the cell he was put
        down on (``{cell: his cell}``), where the reader reads him: a gain there of at
        most :data:`SHADE_SHARE` of his own cell's is his shadow or lean, no leak (a
        figure under a low lamp). A gain as large as his own may be another piece.

        >>> lamp = ChangeEvidence(np.r_[-75.0, 77.0, 110.0, np.zeros(34)], 100.0, 0.0, True)
        >>> [round(v, 2) for v in lamp.fit(None, {0: -1, 2: 1}, {0, 2}, beside={1})]
        [-0.02, 0.75, 0.77]
        >>> [round(v, 2) for v in lamp.fit(None, {0: -1, 2: 1}, {0, 2}, beside={1}, shaded={1: 2})]
        [0.75, 0.75, 0.0]

        ``scale``: how many of a hunter's sizes (:attr:`size`) the piece that moved on the
        change's own cells is worth; their change counts that many times over (a pawn's
        head a third of the others' size shows a third as much where it goes), up to one
        piece's worth.

        >>> small = ChangeEvidence(np.r_[-30.0, 32.0, 2.0, np.zeros(34)], 100.0, 0.0, True)
        >>> [round(v, 2) for v in small.fit(None, {0: -1, 1: 1}, {0, 1}, scale=2.5)]
        [0.73, 0.75, 0.02]
        >>> large = ChangeEvidence(np.r_[-200.0, np.zeros(36)], 100.0, 0.0, True)
        >>> round(large.fit(None, {0: -1}, {0}, scale=2.5)[1], 2)   # more than his own: as measured
        2.0

        >>> tall = ChangeEvidence(np.r_[-100.0, -90.0, 95.0, np.zeros(34)], 100.0, 0.0, True)
        >>> [round(v, 2) for v in tall.fit(None, {0: -1, 2: 1}, {0, 2})]       # cell 1 unexplained
        [0.05, 0.95, 0.9]
        >>> [round(v, 2) for v in tall.fit(None, {0: -1, 2: 1}, {0, 2}, beside={1})]
        [0.95, 0.95, 0.0]
        >>> put_down = ChangeEvidence(np.r_[-100.0, 0.0, 95.0, 90.0, np.zeros(33)], 100.0, 0.0, True)
        >>> [round(v, 2) for v in put_down.fit(None, {0: -1, 2: 1}, {0, 2}, beside={3})]   # no overhang
        [0.05, 0.95, 0.9]
        """
        strength = self.strength(mammoth)

        def way(cell):
            sign = changed.get(cell, 0)
            return abs(strength[cell]) if sign == 0 or cell == CENTRE else max(0.0, sign * strength[cell])

        def spill_of(cell):
            """How much ``cell`` changed the way a changed neighbour did (``None``: the other way)."""
            ways = {changed[c] for c in changed if distance(c, cell) == 1}
            if 0 in ways or not ways:
                return abs(strength[cell])
            going = [max(0.0, sign * strength[cell]) for sign in ways]
            return max(going) if max(going) > 0 or abs(strength[cell]) < CHANGE_AT_REST else None

        inside = [way(c) for c in shown]
        spilt = set()
        if not inside:
            inside = [max((way(c) for c in changed), default=0.0)]
            lost = any(changed.get(c, 0) > 0 and strength[c] < -CHANGE_AT_REST for c in changed)
            if near and not lost:
                spills = {c: spill_of(c) for c in set(near) - set(changed)}
                spilt = {c for c, value in spills.items() if value is not None}
                inside = [max([inside[0]] + [spills[c] for c in spilt])]
        overhang = {n for n in set(beside) - set(changed)
                    if strength[n] < 0 and any(distance(x, n) == 1 and strength[n] >= strength[x] for x in shown)}
        overhang |= {n for n, x in dict(shaded).items() if n not in changed and changed.get(x, 0) > 0
                     and 0 < strength[n] <= SHADE_SHARE * strength[x]}
        outside = np.abs(np.delete(strength, sorted(set(changed) | spilt | overhang)))
        # A small mover's change is lifted to a whole piece's worth at most: a change
        # already that large is not his alone (a trap taken up under him), and lifting it
        # further would outweigh the turn that explains it at the common measure
        # (sim.flatart development game 3,200,019: C took his trap up, committed as his
        # three-cell move onto a trap's cell that showed nothing).
        raw = float(min(inside))
        least = max(raw, min(raw * scale, 1.0))
        leak = float(outside.max()) if outside.size else 0.0
        return least - leak, least, leak


class BoardChanges:
    """Each frame's cells against the empty board seen at setup and against the board the
    game was last seen on (:meth:`rest`): which cells a move changed, told by the tiles
    themselves, so a set the reader misreads is still followed by the rules.

    ``empty`` is the empty board's grids (:func:`vision.changes.sample_grid`), ``size``
    a hunter's size in grid points (the median of what each one changed when put down;
    ``hunter_sizes`` each one's, in seat order),
    ``mammoth_noise`` how much the still mammoth's cell changed between setup steps.
    """

    def __init__(self, empty: np.ndarray, size: float, mammoth_noise: float = 0.0, frames: int = 5,
                 hunter_sizes=()):
        self.empty = empty
        self.size = max(float(size), 1.0)
        #: What each hunter (seat order) changed when put down at setup, in grid points.
        self.hunter_sizes = tuple(float(s) for s in hunter_sizes)
        self.mammoth_noise = float(mammoth_noise)
        self.frames = frames
        self.evidence: ChangeEvidence | None = None   # the still board's, while it holds
        self._previous: np.ndarray | None = None
        self._still = 0
        # The still run's last grids: a faint piece near the line between "changed" and
        # "the tile" may flicker in one frame's count with the sensor's noise, never in
        # the run's median.
        self._run: list[np.ndarray] = []
        self._reference: np.ndarray | None = None   # grids of the board the game was last seen on
        self._rest_pending = False
        self._kept: tuple = ()   # cells whose reference the next rest keeps (see rest)
        #: The still board the evidence was taken on: a faint piece put down since, that no
        #: frame showed moving, makes it a new board (:func:`vision.calibration.piece_changed`).
        self._looked_at: np.ndarray | None = None

    def occupancy(self, grid: np.ndarray, strays: np.ndarray | None = None) -> np.ndarray:
        """(37,) grid points of each cell unlike the empty board (its light divided out;
        ``strays``: cells lit as their neighbours, :func:`vision.changes.cell_light`)."""
        return changed_counts(self.empty, grid, strays).astype(float)

    def start(self, grid: np.ndarray) -> None:
        """The game starts on this board (the last setup step's grids)."""
        self._reference, self._rest_pending, self.evidence, self._kept = grid, False, None, ()

    def rest(self, keep=()) -> None:
        """The board shows the game's position: it is the reference from the next still
        frame on (this one, when the board is still). The cells ``keep`` keep their
        reference: they already show what comes next (the next turn made before this one
        was seen), which must still count as changed."""
        self._kept = tuple(int(c) for c in keep)
        if self._still > 1 and self._previous is not None:
            self._reference = self._rebased(self._previous)
            self._rest_pending = False
        else:
            self._rest_pending = True
        self.evidence = None

    def _rebased(self, grid: np.ndarray) -> np.ndarray:
        """``grid`` as the new reference, but for the cells the last rest kept."""
        if self._kept and self._reference is not None:
            grid = grid.copy()
            grid[list(self._kept)] = self._reference[list(self._kept)]
        self._kept = ()
        return grid

    def change_since_reference(self, grid: np.ndarray) -> np.ndarray:
        """(37,) each cell's signed change since the game's board: how much more (or less)
        unlike the empty board it is. Both boards are lit alike cell by cell: where either
        takes its neighbours' light (a piece over its ring), both do, or a ring trap whose
        own light lies near that line counts its ring once and not the next time (the board
        nudged under the lamp between two moves), as if a hunter had come or gone."""
        strays = light_strays(self.empty, self._reference) | light_strays(self.empty, grid)
        change = self.occupancy(grid, strays) - self.occupancy(self._reference, strays)
        # The cross cell's empty look is unknown (the mammoth stood on it at setup):
        # there, how much changed since the game's board is all there is.
        change[CENTRE] = changed_counts(self._reference, grid)[CENTRE]
        return change

    def feed(self, grid: np.ndarray | None) -> ChangeEvidence | None:
        """One frame's grids (``None``: no board in view); the evidence while the board
        has been still for ``frames`` frames and the game's board is known."""
        if grid is None:
            self._previous, self._still, self.evidence = None, 0, None
            self._run = []
            return None
        moved = (self._previous is None or bool(moved_between(self._previous, grid))
                 or (self.evidence is not None and piece_changed(self._looked_at, grid)))
        self._previous = grid
        self._still = 1 if moved else self._still + 1
        if moved:
            self.evidence = None
            self._run = []
        self._run.append(grid)
        del self._run[:-self.frames]
        if self._rest_pending and self._still > 1:
            self._reference, self._rest_pending = self._rebased(grid), False
        if self._reference is None or self._still < self.frames:
            return None
        if self.evidence is not None:
            self.evidence = replace(self.evidence, settled=False, waited=self._still == WAITED * self.frames)
            return self.evidence
        change = np.median(np.stack([self.change_since_reference(g) for g in self._run]), axis=0)
        self.evidence = ChangeEvidence(change, self.size, self.mammoth_noise, settled=True)
        self._looked_at = grid
        return self.evidence

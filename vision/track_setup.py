"""Learning the set's colours from the start of a live game, as the players set up.

``maamut track`` receives frames that start with the setup itself: the empty board with
the mammoth on the cross, then each hunter put down in seating order. The
:class:`SetupLearner` picks out those setup boards and calibrates from them, so nobody
has to run ``maamut calibrate`` first:

1. every frame is learnt from (``calibration.learn``) on its own; the empty board is
   accepted once ``required`` frames in a row teach the same layout and read back
   clean (nothing unknown, the mammoth on the cross, no other token);
2. with what is learnt so far, a newly placed hunter is a token of unknown colour:
   usually the reader marks its cell unreadable, but a colour close to a known one may
   pass unnoticed. So whenever the board settles again (every known token in place, at
   most two unreadable cells, the same reading for ``required`` frames) the frame is
   tried once: learning again with it must find a new hunter (``c<i>``) that then
   reads back cleanly, else nothing is learnt;
3. a hand over the board makes many cells unreadable and moves, so it never passes;
4. optionally (``traps=True``, ``maamut track --trap-step``), each player then puts one of
   his traps down on a free grass cell, in seating order: each settled board is learnt
   from (``learn(..., trap_frames=...)``) and must read back one trap of each player so
   far, that player's new one included. The players then take the traps off;
   setup is done once the board shows the hunters alone again (a trap left lying would
   otherwise be taken for the first move).

The learner never raises on a bad frame: it waits for the next one.
"""

from __future__ import annotations

import numpy as np

from engine.hexgrid import CENTRE

from .calibration import Calibration, CalibrationError, change_probe, learn, moved_between
from .observation import Observation
from .reader import BoardReader

#: A board with more unreadable cells than this is a hand, not a new hunter.
MAX_NEW_TOKEN_CELLS = 2


class SetupLearner:
    """Feeds on frames until the empty board and ``n_hunters`` placements are learnt."""

    def __init__(self, n_hunters: int, required: int = 5, traps: bool = False):
        if not 1 <= n_hunters <= 4:
            raise ValueError("between 1 and 4 hunters are learnt at setup")
        self.n_hunters = n_hunters
        self.required = required
        self.traps = traps
        self.frames: list[np.ndarray] = []  # accepted setup frames: empty board, then one per hunter
        self.trap_frames: list[np.ndarray] = []  # the optional step: one more trap per frame
        self._traps_cleared = False
        self.calibration: Calibration | None = None
        self._reader: BoardReader | None = None
        self._candidate: tuple[np.ndarray, Calibration] | None = None
        self._run_key = None
        self._run = 0
        self._tried_keys: set = set()
        self._last_probe: np.ndarray | None = None   # the last accepted frame's (change_probe)
        self._pieces: str | None = None   # the pieces' model, once the setup showed which holds

    @property
    def hunters_done(self) -> bool:
        return len(self.frames) == self.n_hunters + 1

    @property
    def done(self) -> bool:
        return self.hunters_done and (not self.traps or self._traps_cleared)

    @property
    def hunters_learnt(self) -> int:
        return max(0, len(self.frames) - 1)

    def feed(self, frame: np.ndarray, timestamp: float) -> bool:
        """Look at one frame; True when it completed a setup step."""
        if self.done or not isinstance(frame, np.ndarray) or frame.ndim != 3:
            return False
        if not self.frames:
            return self._feed_empty_board(frame, timestamp)
        if self.hunters_done:
            return self._feed_trap(frame, timestamp)
        return self._feed_placement(frame, timestamp)

    def _settled_anew(self, key) -> bool:
        """Whether the board read as ``key`` has just held for ``required`` frames in a
        row and was not tried before (it counts as tried from now on)."""
        if key != self._run_key:
            self._run_key, self._run = key, 0
        self._run += 1
        if self._run < self.required or key in self._tried_keys:
            return False
        self._tried_keys.add(key)
        return True

    # -- step 3 (optional): one trap per player, then the traps taken off ---------------
    def _feed_trap(self, frame, timestamp) -> bool:
        observation = self._reader.read(frame, timestamp)
        if (not observation.board_found or observation.mammoth != CENTRE
                or observation.hunters != self._hunters_seen or len(observation.occluded_cells) > MAX_NEW_TOKEN_CELLS):
            self._run_key, self._run = None, 0
            return False
        key = (tuple(sorted(observation.traps.items())), observation.occluded_cells)
        if not self._settled_anew(key):
            return False
        if len(self.trap_frames) == self.n_hunters:
            # Every trap learnt: setup ends when they are all off the board again.
            self._traps_cleared = not observation.traps and not observation.occluded_cells
            return self._traps_cleared
        try:
            calibration = learn(self.frames, pieces=self._pieces, trap_frames=self.trap_frames + [frame])
        except CalibrationError:
            return False
        # The new trap must read back as this player's, beside the ones learnt before.
        check = BoardReader(calibration, lock_tiles=True).read(frame, timestamp)
        owners = sorted(check.traps.values())
        if (owners != [f"c{k}" for k in range(len(self.trap_frames) + 1)] or check.occluded_cells
                or check.hunters != self._hunters_seen):
            return False
        self.trap_frames.append(frame)
        self.calibration = calibration
        self._reader = BoardReader(calibration, lock_tiles=True)
        self._tried_keys = {key}
        return True

    # -- step 1: the empty board --------------------------------------------------------
    def _feed_empty_board(self, frame, timestamp) -> bool:
        try:
            calibration = learn([frame])
        except CalibrationError:
            self._candidate, self._run = None, 0
            return False
        observation = BoardReader(calibration, lock_tiles=True).read(frame, timestamp)
        if not _clean_empty_board(observation):
            self._candidate, self._run = None, 0
            return False
        # Frames learnt one by one must agree on the layout: a hand moving over the
        # board changes what each frame would teach, the bare board does not.
        if self._candidate is None or self._candidate[1].tiles != calibration.tiles:
            self._run = 0
        self._candidate = (frame, calibration)
        self._run += 1
        if self._run < self.required:
            return False
        self._accept(frame, calibration)
        return True

    # -- step 2: each hunter ----------------------------------------------------------------
    def _feed_placement(self, frame, timestamp) -> bool:
        observation = self._reader.read(frame, timestamp)
        key = _placement_key(observation, self.calibration)
        # The new piece's cell, whatever the reader makes of it: what changed since the
        # last step, each cell's light divided out. A colour not learnt yet may read as
        # unreadable in one camera frame and pass unnoticed in the next (sensor noise),
        # a piece of a shape the kit's rings miss (a thin meeple, a pawn) may not show
        # at all, and a light that drifted may hide a piece learnt before; what changed
        # holds still. (Unless the board was nudged: many cells changed, and the
        # reader's own reading is all there is.)
        after = change_probe(frame, self._reader.locator)
        moved = () if after is None or self._last_probe is None else moved_between(self._last_probe, after)
        few = 0 < len(moved) <= MAX_NEW_TOKEN_CELLS + 1
        if key is None and few and observation.board_found and len(observation.occluded_cells) <= MAX_NEW_TOKEN_CELLS:
            # Only a new piece changed, yet a hunter learnt before no longer reads where
            # he stands (the light drifted since): the set's model does not hold, so it
            # is learnt from here on by what each piece changes (vision.changes).
            key = ((), tuple(sorted(self._hunters_seen.items())))
            if self.calibration.pieces != "changes" and set(observation.hunters) != set(self._hunters_seen):
                self._pieces = "changes"
        if key is None:
            # A hand or a moving token: whatever settles next is worth a new look.
            self._run_key, self._run = None, 0
            self._tried_keys.clear()
            return False
        if few:
            key = (tuple(sorted(set(key[0]) | set(moved))), key[1])
        # Learning is tried once per settled board: a new colour close to a known one
        # may not show as unreadable, so a board that settled after a hand is tried too.
        if not self._settled_anew(key):
            return False
        try:
            calibration = learn(self.frames + [frame], pieces=self._pieces)
        except CalibrationError:
            return False
        check = BoardReader(calibration, lock_tiles=True).read(frame, timestamp)
        if check.occluded or len(check.hunters) != len(self.frames):
            return False  # the new colour does not read back cleanly: not a hunter
        self._accept(frame, calibration)
        return True

    def _accept(self, frame, calibration: Calibration) -> None:
        self.frames.append(frame)
        self.calibration = calibration
        self._reader = BoardReader(calibration, lock_tiles=True)
        self._last_probe = change_probe(frame, self._reader.locator)
        observation = self._reader.read(frame, 0.0)
        self._hunters_seen = dict(observation.hunters)
        self._candidate = None
        self._run_key, self._run = None, 0
        # The board just learnt is not a new placement: wait for it to change first.
        self._tried_keys = {_placement_key(observation, calibration)}


def _clean_empty_board(observation: Observation) -> bool:
    return (observation.board_found and not observation.occluded and observation.mammoth == CENTRE
            and not observation.hunters and not observation.traps)


def _placement_key(observation: Observation, calibration: Calibration):
    """What a board with one new, still unknown token looks like; None for anything else."""
    if not observation.board_found or observation.mammoth != CENTRE or observation.traps:
        return None
    if set(observation.hunters) != set(calibration.hunters):
        return None  # a known hunter is hidden or moved: a hand is still at work
    unknown = observation.occluded_cells
    if len(unknown) > MAX_NEW_TOKEN_CELLS:
        return None
    return (unknown, tuple(sorted(observation.hunters.items())))

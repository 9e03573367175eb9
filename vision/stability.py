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

"""A simulated table seen by a simulated camera: a frame source like the real ones.

:class:`SimulatedBoard` is the cardboard: where each piece lies. People (or
:mod:`sim.players`) move pieces through :meth:`SimulatedBoard.move_through`: every board
they pass through appears to the camera behind a hand reaching in, then rests.
:class:`SimulatedCamera` renders that table frame by frame (:mod:`sim.render`) and is
opened by the product's camera loop through ``vision.sources.open_source("sim")``
(the simulation plugs :func:`open_camera` in as the frame source ``sim``) once
:func:`install` has set the board in front of it, the way gpiozero's MockFactory
stands in for the pins.
"""

from __future__ import annotations

import threading
import time
from collections import deque

import numpy as np

from engine.hexgrid import CENTRE
from vision.sources import FrameSource, SourceError

from .render import Kit, Scene, random_hand, render_frame
from .tracker_bench import Snapshot


class SimulatedBoard:
    """The pieces on one simulated table (one kit, one lamp), changed by people's hands.

    >>> board = SimulatedBoard(tiles=("grass",) * 37, seed=1)
    >>> for _ in range(board.settle_frames):
    ...     board.shown_resting()
    >>> board.move_through([board.current.with_hunter("c0", 0)])
    >>> board.settled()
    False
    >>> board.next_change() == Snapshot(CENTRE, (("c0", 0),))
    True
    >>> board.settled(), board.current.hunters
    (False, (('c0', 0),))
    >>> for _ in range(board.settle_frames):
    ...     board.shown_resting()
    >>> board.settled()
    True
    """

    def __init__(self, tiles, seed: int, hand_frames: int = 2, settle_frames: int = 4):
        self.rng = np.random.default_rng(seed)
        self.kit = Kit.random(self.rng)
        self.tiles = tuple(getattr(t, "value", t) for t in tiles)
        self.hand_frames = hand_frames
        #: Still frames the camera must have drawn of a board before people touch it again
        #: (they wait for the LEDs and the page to catch up, and so does the camera).
        self.settle_frames = settle_frames
        self._rested = 0  # nobody touches the board before the camera has seen it
        self.current = Snapshot(CENTRE)
        self._queue: deque[Snapshot] = deque()
        self._on_top: list[str] = []  # the hunter put down last stands on top of a stack
        self._cond = threading.Condition()

    def move_through(self, boards) -> None:
        """People move pieces: each board in turn, each seen behind a hand first."""
        with self._cond:
            self._queue.extend(boards)
            self._cond.notify_all()

    def settled(self) -> bool:
        """True once every change asked for is on the table and the camera has seen it rest."""
        with self._cond:
            return not self._queue and self._rested >= self.settle_frames

    def shown_resting(self) -> None:
        """The camera drew the resting board once more."""
        with self._cond:
            self._rested += 1

    def next_change(self, timeout: float | None = 0.0) -> Snapshot | None:
        """The next board people make (the camera's side); ``None`` when there is none."""
        with self._cond:
            if not self._queue and timeout:
                self._cond.wait(timeout)
            if not self._queue:
                return None
            board = self._queue.popleft()
            self._rested = 0
            before = dict(self.current.hunters)
            for label, cell in board.hunters:
                if before.get(label) != cell:
                    self._on_top = [x for x in self._on_top if x != label] + [label]
            self.current = board
            return board

    def scene(self, board: Snapshot | None = None) -> Scene:
        board = board or self.current
        hunters = dict(board.hunters)
        order = [label for label in self._on_top if label in hunters] + \
                [label for label in hunters if label not in self._on_top]
        return Scene(self.tiles, board.mammoth, {label: hunters[label] for label in order}, dict(board.traps))


class SimulatedCamera(FrameSource):
    """Frames of a :class:`SimulatedBoard`: hands while pieces move, then the still board.

    ``fps`` paces the frames like a real camera (``None``: as fast as they are read,
    for tests and benchmarks; then a resting board is shown ``hold`` times and the
    camera waits for the next change instead of drawing the same frame forever).
    """

    def __init__(self, board: SimulatedBoard, fps: float | None = 10.0, hold: int = 4):
        self.board = board
        self.fps = fps
        self.hold = hold
        self._closed = threading.Event()
        self._still: tuple[Snapshot, np.ndarray] | None = None
        self.frames = 0
        self._clock = 0.0

    def _timestamp(self) -> float:
        if self.fps:
            return time.monotonic()
        self._clock += 1 / 30
        return self._clock

    def _still_frame(self) -> np.ndarray:
        board = self.board.current
        if self._still is None or self._still[0] != board:
            frame, _ = render_frame(self.board.scene(), self.board.kit.palette, self.board.kit.look, self.board.rng)
            self._still = (board, frame)
        return self._still[1]

    def _pace(self) -> None:
        if self.fps:
            self._closed.wait(1 / self.fps)

    def __iter__(self):
        rested = 0
        while not self._closed.is_set():
            # Idle and unpaced: wait for people, but still show a frame now and then so
            # that whoever reads the camera can notice it is asked to stop.
            change = self.board.next_change(timeout=0 if (self.fps or rested < self.hold) else 0.5)
            if change is not None:
                kit = self.board.kit
                for _ in range(self.board.hand_frames):
                    frame, _ = render_frame(self.board.scene(), kit.palette, kit.look, self.board.rng,
                                            hand=random_hand(self.board.rng))
                    self.frames += 1
                    yield self._timestamp(), frame
                    self._pace()
                # the board was touched: it sits a little differently under the lamp
                self.board.kit = Kit(kit.palette, kit.nudged(self.board.rng))
                self._still = None
                rested = 0
                continue
            rested += 1
            self.frames += 1
            frame = self._still_frame()
            self.board.shown_resting()
            yield self._timestamp(), frame
            self._pace()

    def close(self) -> None:
        self._closed.set()


#: The board the frame source ``sim`` films, with its camera's options (set by :func:`install`).
_installed: dict = {}


def install(board: SimulatedBoard, fps: float | None = 10.0, hold: int = 4) -> str:
    """Put this board in front of the frame source ``sim``; returns that spec."""
    _installed.update(board=board, fps=fps, hold=hold)
    return "sim"


def open_camera(argument: str = "") -> SimulatedCamera:
    """The frame source ``sim`` (entry point of ``maamut.frame_sources``): the installed board's camera."""
    if "board" not in _installed:
        raise SourceError("the simulated camera films the demo's board: no board is set up (run maamut demo)")
    return SimulatedCamera(_installed["board"], fps=_installed["fps"], hold=_installed["hold"])


__all__ = ["SimulatedBoard", "SimulatedCamera", "install", "open_camera"]

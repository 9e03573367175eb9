"""The camera pipeline: frames in, a tracked game out (setup learning, reading, tracking).

Used by ``maamut track`` (a recording or a camera, to the end), by ``maamut serve``'s
camera loop (the table's session as the game) and by the demo and the benchmarks. The
frames come from any :mod:`vision.sources` source; the recording starts with the setup
(empty board, mammoth on the cross, then each hunter placed in seating order). Without
a calibration the set's colours are learnt from that setup as it happens
(:mod:`vision.track_setup`).

:meth:`TrackRun.result` is ``{"tiles", "placements", "actions", "position", "winner",
"phase", "reports", "frames", "questions"}`` in the engine's JSON forms; ``reports``
lists the illegal or unrecognised changes the tracker saw, with the cells involved;
``questions`` the camera's question the game still waits on, if any
(:meth:`vision.questions.Question.to_json`, owners as player ids).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

import numpy as np

import engine

from .calibration import Calibration
from .geometry import BoardLocator, mirror_frame
from .questions import cell_crop_jpeg
from .reader import BoardReader
from .relight import LightWatch
from .sources import SourceError, open_source
from .changes import sample_grid
from .stability import BoardChanges, ChangeEvidence, StabilityFilter
from .track_setup import SetupLearner
from .tracker import GameTracker, TrackerError


#: Unreadable cells a settled board may have (glare, a misread speck): the tracker then
#: waits only for changes on those cells, not for the whole game.
MAX_HIDDEN_CELLS = 2


class TrackRun:
    """Frames in, a tracked game out: setup learning (if needed), reading, tracking.

    ``pass_times`` are source timestamps at which the pass button was pressed (a
    recording cannot show a pass on the board).
    """

    def __init__(self, players, variants: engine.Variants | None = None, calibration: Calibration | None = None,
                 required: int = 5, pass_times: Iterable[float] = (), table=None, trap_step: bool = False):
        self.players = tuple(players)
        self.variants = variants or engine.Variants()
        self.required = required
        self.pass_times = sorted(pass_times)
        self.learner = None if calibration is not None else SetupLearner(len(self.players), required, traps=trap_step,
                                                                         variants=self.variants)
        # ``table``: the table's session the tracker proposes to (``maamut serve``); without
        # one, a table of its own in memory (``maamut track``).
        self.tracker = GameTracker(self.players, self.variants, table=table,
                                   stability=StabilityFilter(frames=required, max_hidden_cells=MAX_HIDDEN_CELLS))
        self.reader: BoardReader | None = None
        #: Each cell against the setup's empty board (only when the setup was seen).
        self.changes: BoardChanges | None = None
        self.frames_seen = 0
        #: The light (warnings for the page, re-learning it under a game in progress).
        self.light = LightWatch(required=required)
        #: Called with each re-learnt calibration (the camera loop saves it).
        self.on_relearn = None
        #: Called with each new question the tracker asks (``maamut track --ask``); it may
        #: answer at once through :meth:`answer`.
        self.on_question = None
        self._asked: int | None = None
        if calibration is not None:
            self._start_reading(calibration)

    def _start_reading(self, calibration: Calibration) -> None:
        self.reader = BoardReader(calibration, lock_tiles=True)
        self.tracker.layout = tuple(engine.Tile(t) for t in calibration.tiles)
        # New games started on the page or with the buttons are laid with these tiles.
        self.tracker.table.set_layout(calibration.tiles)

    def _start_after_learning(self, timestamp: float) -> None:
        """The setup frames the learner kept become the tracker's setup boards."""
        calibration = self.learner.calibration
        self._start_reading(calibration)
        # The boards as the setup's changes showed them (the reader may not read a set's
        # setup back: small pieces, tiles whose print it does not fit); with the tiles,
        # so the tracker checks and locks the layout itself.
        for observation in self.learner.observations(timestamp):
            self.tracker.observe(observation)
        # From here on each cell is also judged against its own empty look, so a move
        # the reader misreads is still told by the cells it changed.
        learner = self.learner
        grids = self._setup_grids_as_read()
        self.changes = BoardChanges(grids[0], float(np.median(learner.sizes)), learner.mammoth_noise,
                                    frames=self.required, hunter_sizes=learner.sizes)
        self.changes.start(grids[-1])
        self.tracker.board_changes = self.changes

    def _setup_grids_as_read(self) -> list[np.ndarray]:
        """The setup frames' grids sampled as every frame of the game is (through the
        reader's fit: the cards where calibration found them), not as the learner sampled
        them (the cards at their printed spots). Cards laid a little off their spot put
        the two fits a few pixels apart, and on a textured tile a few pixels moved
        change every cell: sim.tabletop development game 5,520,029, 4.6 px, every cell
        of the board changed by half a cube to one and a half cubes from the first move on."""
        locator = BoardLocator(cards=self.reader.calibration.cards)
        grids = []
        for frame, learnt in zip(self.learner.frames, self.learner.grids):
            if self.reader.calibration.mirrored:
                frame = mirror_frame(frame)
            geometry = locator.locate(frame)
            grids.append(learnt if geometry is None else sample_grid(frame, geometry.homography))
        return grids

    def feed(self, timestamp: float, frame: np.ndarray) -> None:
        self.frames_seen += 1
        while self.pass_times and timestamp >= self.pass_times[0]:
            self.pass_times.pop(0)
            self.press_pass(timestamp)
        if self.reader is None:
            if self.learner.feed(frame, timestamp) and self.learner.done:
                self._start_after_learning(timestamp)
            return
        observation = self.reader.read(frame, timestamp)
        if self.tracker.phase == "layout" and observation.board_found:
            observation = _with_tiles(observation, self.reader.calibration.tiles)
        self.tracker.feed(observation, self._changes_in(frame, observation))
        self._crop_question(frame)
        question = self.tracker.question
        if question is not None and question.id != self._asked and self.on_question is not None:
            self._asked = question.id
            self.on_question(question)
        fresh = self.light.feed(timestamp, frame, observation, self.tracker, self.reader.calibration,
                                MAX_HIDDEN_CELLS)
        if fresh is not None:
            self._relearnt(fresh, timestamp)

    def _changes_in(self, frame: np.ndarray, observation) -> ChangeEvidence | None:
        """What changed on each cell since the game's board was last seen (once the
        setup was seen: its empty board is every cell's reference)."""
        if self.changes is None:
            return None
        last = self.reader.locator.last
        if not observation.board_found or last is None:
            return self.changes.feed(None)
        if self.reader.calibration.mirrored:
            frame = mirror_frame(frame)
        return self.changes.feed(sample_grid(frame, last.homography))

    def _crop_question(self, frame: np.ndarray) -> None:
        """A question just asked gets the camera's crop of its cell, from the frame that settled it."""
        question = self.tracker.question
        last = self.reader.locator.last
        if question is None or question.crop is not None or last is None:
            return
        if self.reader.calibration.mirrored:
            frame = mirror_frame(frame)
        question.crop = cell_crop_jpeg(frame, last.homography, question.cell)

    def answer(self, question_id: int, option: int) -> dict:
        """The answer to the tracker's question (``option``: index into its options); see
        :meth:`vision.tracker.GameTracker.answer_question` (``QuestionRefused`` if not taken)."""
        return self.tracker.answer_question(question_id, option)

    def request_relearn(self, timestamp: float | None = None) -> None:
        """Re-learn the light on the next still board that shows the game (the referee's button)."""
        self.light.request(timestamp)

    def _relearnt(self, calibration: Calibration, timestamp: float) -> None:
        # Only the reader's colours change: the game, its journal and the labels stay.
        self.reader = BoardReader(calibration, lock_tiles=True)
        # The setup's empty board was seen under the old light, and under this one every
        # cell would differ from it: from here on the re-learnt reader decides alone (as
        # with a saved calibration) rather than each cell against a stale empty look.
        self.changes = None
        self.tracker.board_changes = None
        by = self.light.last.by
        self.tracker.reports.append({"type": "light_relearnt", "time": round(timestamp, 3), "cells": [],
                                     "message": f"the light was re-learnt ({'referee' if by == 'button' else 'automatically'})"})
        if self.on_relearn is not None:
            self.on_relearn(calibration, by)

    def finish(self) -> None:
        """The recording ended: passes pressed after its last frame still count."""
        while self.pass_times:
            self.press_pass(self.pass_times.pop(0))

    def press_pass(self, timestamp: float) -> None:
        try:
            self.tracker.confirm_pass()
        except TrackerError as exc:
            self.tracker.reports.append({"type": "pass_refused", "time": round(timestamp, 3), "cells": [],
                                         "message": str(exc)})

    def result(self) -> dict:
        out = self.tracker.to_json()
        if self.reader is None:
            learnt = self.learner.hunters_learnt if self.learner else 0
            out["reports"].append({
                "type": "setup_incomplete", "time": None, "cells": [],
                "message": (f"the setup was not seen completely: {'the empty board and ' if learnt else 'no empty board; '}"
                            f"{learnt} of {len(self.players)} hunters learnt"
                            + (f", {len(self.learner.trap_frames)} of {len(self.players)} traps (then taken off)"
                               if self.learner and self.learner.traps else ""))})
        out["frames"] = self.frames_seen
        # The camera's question nobody answered yet: the game waits on it.
        question = self.tracker.question
        out["questions"] = [] if question is None else [question.to_json()]
        return out


def _with_tiles(observation, tiles):
    return replace(observation, tiles=tuple(tiles))


def track_source(spec: str, run: TrackRun, fps: float = 30.0) -> TrackRun:
    """Feed every frame of the source ``spec`` names to ``run``, then finish it.

    A source that cannot be opened raises ``SourceError``; one that fails part-way
    (a file that stops decoding, a camera unplugged) ends the run with a
    ``source_error`` report, and Ctrl-C on a live camera ends it with what was tracked.
    """
    source = open_source(spec, fps=fps)
    try:
        with source:
            for timestamp, frame in source:
                run.feed(timestamp, frame)
    except SourceError as exc:
        run.tracker.reports.append({"type": "source_error", "time": None, "cells": [], "message": str(exc)})
    except KeyboardInterrupt:
        pass  # a live camera is stopped with Ctrl-C: keep what was tracked
    run.finish()
    return run

"""The camera loop of a live table: frames in, moves proposed to the table's session.

It runs in its own thread and only ever proposes changes to the session, so a stuck
camera never blocks the page; an unplugged camera is looked for again every
:data:`REOPEN_DELAY_S` seconds while the game stays as it is. It reads whatever frame
source it is given (:mod:`vision.sources`), a simulated camera included, through the
camera pipeline (:class:`vision.pipeline.TrackRun`). ``maamut serve`` and ``maamut
demo`` run it; the wiring (``maamut``) says where its frames and words go.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

from .calibration import Calibration, CalibrationError
from .pipeline import TrackRun
from .sources import SourceError, describe_spec, open_source

log = logging.getLogger(__name__)

#: How often the page's camera view is refreshed.
CAMERA_VIEW_PERIOD_S = 1.0
#: How long to wait before looking for an unplugged camera again.
REOPEN_DELAY_S = 2.0
#: What ``source = "auto"`` tries, in order.
AUTO_SOURCES = ("picamera", "webcam:0")


def first_working_source(setting: str) -> str | None:
    """The configured camera source that opens (``auto``: the Pi camera, then a webcam),
    or ``None`` (``none``, or nothing opens).

    >>> first_working_source("none") is None
    True
    """
    if setting == "none":
        return None
    for candidate in AUTO_SOURCES if setting == "auto" else (setting,):
        try:
            open_source(candidate).close()
        except SourceError as exc:
            log.info("camera %s: %s", candidate, exc)
            continue
        return candidate
    return None


class CameraLoop(threading.Thread):
    """Frames from one source, read and tracked, proposed to the table; the source
    opened again when it is lost. ``show(frame, observation, light)`` receives a frame
    for the page about once a second, ``tell(message)`` what the people at the table
    should know, ``ask(question)`` the tracker's question about an unsure cell in its
    JSON form (:mod:`vision.questions`), or ``None`` once it is no longer asked."""

    def __init__(self, table, spec: str, stop: threading.Event, *, calibration_path: str,
                 show: Callable | None = None, tell: Callable[[str], None] = log.info, required: int = 5,
                 ask: Callable[[dict | None], None] | None = None):
        super().__init__(name="camera", daemon=True)
        self.spec = spec
        self.stop = stop
        self.show = show
        self.tell = tell
        self.ask = ask
        self._question_shown = None  # (id, has its crop) of the question last handed on
        calibration = None
        try:
            calibration = Calibration.load(calibration_path)
            tell(f"camera calibration from {calibration_path}")
        except (OSError, CalibrationError, ValueError):
            tell("no camera calibration yet: it is learnt from the setup (empty board, then each hunter)")
        self.calibration_path = calibration_path
        players = table.snapshot().players or tuple(seat["id"] for seat in table.seats)
        self.run_ = TrackRun(players, variants=table.variants, calibration=calibration, required=required,
                             table=table)
        self.run_.on_relearn = self._relearnt
        if table.game is not None and calibration is None:
            tell("no camera calibration for the game in progress: finish it on the page; the camera "
                 "learns the set at the next setup")
        elif table.game is not None:
            self.tell("the camera follows the game in progress once the board shows it")
        self._last_view = 0.0
        self._light_news = False
        self.frames = 0
        #: Frames that failed to be read, and times the source had to be opened again.
        self.bad_frames = 0
        self.reopened = 0
        # The button thread confirms passes while this thread feeds frames: one tracker,
        # one writer at a time.
        self._tracker_lock = threading.Lock()

    def run(self) -> None:
        replay = describe_spec(self.spec)[0] == "replay"
        first = True
        while not self.stop.is_set():
            if not first:
                self.reopened += 1
            first = False
            try:
                with open_source(self.spec) as source:
                    for timestamp, frame in source:
                        if self.stop.is_set():
                            return
                        try:
                            self.step(timestamp, frame)
                        except Exception:  # one bad frame is skipped; the camera stays open
                            self.bad_frames += 1
                            log.exception("camera frame %d could not be read; skipped", self.frames)
                if replay:
                    self.tell(f"camera: end of the recording {self.spec}")
                    return
            except SourceError as exc:
                # an unplugged camera: say so once per attempt and wait, the game stays as it is
                self.tell(f"camera lost ({exc}); looking again in {REOPEN_DELAY_S:.0f} s")
            except Exception:
                log.exception("camera loop error; carrying on")
            self.stop.wait(REOPEN_DELAY_S)

    def step(self, timestamp: float, frame) -> None:
        self.frames += 1
        with self._tracker_lock:
            learning = self.run_.reader is None
            self.run_.feed(timestamp, frame)
            if learning and self.run_.reader is not None:
                self._save_calibration()
            self.show_question()
        now = time.monotonic()
        if now - self._last_view >= CAMERA_VIEW_PERIOD_S or self._light_news:
            self._last_view = now
            self._light_news = False
            if self.show is not None:
                self.show(frame, self.run_.tracker.last_observation, light=self.light_status())

    def show_question(self) -> None:
        """Hand the tracker's question (or its end) on to ``ask``, once per change.
        Called under the tracker lock."""
        question = self.run_.tracker.question
        shown = None if question is None else (question.id, question.crop is not None)
        if shown == self._question_shown or self.ask is None:
            return
        new = question is not None and (self._question_shown or (None,))[0] != question.id
        self._question_shown = shown
        self.ask(None if question is None else question.to_json())
        if new:
            self.tell(f"camera: unsure of {question.to_json()['cell']}; the referee's page asks")

    def question_crop(self, question_id: int) -> bytes | None:
        """The camera's crop of the cell the current question is about (``None``: no such question)."""
        with self._tracker_lock:
            question = self.run_.tracker.question
            return question.crop if question is not None and question.id == question_id else None

    def answer_question(self, question_id: int, option: int) -> dict:
        """The referee's answer (``vision.questions.QuestionRefused`` when stale or impossible)."""
        with self._tracker_lock:
            try:
                return self.run_.tracker.answer_question(question_id, option)
            finally:
                self.show_question()

    def light_status(self) -> dict:
        """The camera's word on the light for the page (camera state: never journaled)."""
        return self.run_.light.status()

    def request_relearn(self) -> None:
        """The referee's button: re-learn the light on the next still board showing the game."""
        with self._tracker_lock:
            if self.run_.reader is None:
                raise LookupError("the camera has not learnt the set yet: finish the setup in view first")
            self.run_.request_relearn()
            self._light_news = True
        self.tell("light: re-learn asked by the referee; waiting for a still board that shows the game")

    def _relearnt(self, calibration, by: str) -> None:
        # Called in the camera thread, under the tracker lock, by TrackRun.
        self._light_news = True
        who = "the referee's button" if by == "button" else "a change of light under a still, matching board"
        self.tell(f"light re-learnt ({who}); the game goes on")
        self._save_calibration(calibration)

    def _save_calibration(self, calibration=None) -> None:
        # Before the first placement reaches the journal: a restart mid-game needs the set's colours.
        try:
            os.makedirs(os.path.dirname(os.path.abspath(self.calibration_path)), exist_ok=True)
            (calibration or self.run_.reader.calibration).save(self.calibration_path)
            self.tell(f"camera calibration saved to {self.calibration_path}")
        except OSError as exc:
            self.tell(f"could not save the camera calibration ({exc.strerror})")

    @property
    def tracker(self):
        return self.run_.tracker

    def press_pass(self) -> bool:
        """The *done* button: the camera checks the board agrees before the pass is played;
        whether it did (a refusal is told, and the players press again once the board agrees)."""
        with self._tracker_lock:
            before = len(self.run_.tracker.reports)
            self.run_.press_pass(time.monotonic())
            refused = [r for r in self.run_.tracker.reports[before:] if r["type"] == "pass_refused"]
        for report in refused:
            self.tell(f"pass refused: {report['message']}")
        return not refused

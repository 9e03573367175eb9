"""The live parts of ``maamut serve`` (and of ``maamut demo``): the camera loop and the
button loop.

Both run in their own threads and only ever propose changes to the table's session,
so a stuck camera or a bouncing button never blocks the page. The camera loop reads
whatever frame source the configuration names, a simulated camera included.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from vision.calibration import Calibration, CalibrationError
from vision.sources import SourceError, describe_spec, open_source
from vision.pipeline import TrackRun

from .app import say

log = logging.getLogger("maamut.serve")

#: How often the page's camera view is refreshed.
CAMERA_VIEW_PERIOD_S = 1.0
#: How long to wait before looking for an unplugged camera again.
REOPEN_DELAY_S = 2.0


class CameraLoop(threading.Thread):
    def __init__(self, companion, spec: str, stop: threading.Event, required: int = 5):
        super().__init__(name="camera", daemon=True)
        self.companion = companion
        self.spec = spec
        self.stop = stop
        cfg = companion.cfg
        table = companion.table
        calibration = None
        path = cfg.path(cfg.camera.get("calibration", "var/calibration.json"))
        try:
            calibration = Calibration.load(path)
            say(f"camera calibration from {path}")
        except (OSError, CalibrationError, ValueError):
            say("no camera calibration yet: it is learnt from the setup (empty board, then each hunter)")
        self.calibration_path = path
        players = table.snapshot().players or tuple(seat["id"] for seat in table.seats)
        self.run_ = TrackRun(players, variants=table.variants, calibration=calibration, required=required,
                             table=table)
        self.run_.on_relearn = self._relearnt
        if table.game is not None and calibration is None:
            say("no camera calibration for the game in progress: finish it on the page; the camera "
                "learns the set at the next setup")
        elif table.game is not None:
            say("the camera follows the game in progress once the board shows it")
        self._last_view = 0.0
        self._light_news = False
        self._question_shown = None  # (id, has its crop) of the question the page shows
        self.frames = 0
        #: Frames that failed to be read, and times the source had to be opened again.
        self.bad_frames = 0
        self.reopened = 0
        # The button thread confirms passes while this thread feeds frames: one tracker,
        # one writer at a time.
        self._tracker_lock = threading.Lock()
        companion.camera = self

    @classmethod
    def start(cls, companion, stop: threading.Event, required: int = 5):
        spec = str(companion.cfg.camera.get("source", "auto"))
        if spec == "none":
            return None
        candidates = ["picamera", "webcam:0"] if spec == "auto" else [spec]
        for candidate in candidates:
            try:
                open_source(candidate).close()
            except SourceError as exc:
                log.info("camera %s: %s", candidate, exc)
                continue
            say(f"camera: {candidate}")
            loop = cls(companion, candidate, stop, required)
            threading.Thread.start(loop)
            return loop
        return None

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
                    say(f"camera: end of the recording {self.spec}")
                    return
            except SourceError as exc:
                # an unplugged camera: say so once per attempt and wait, the game stays as it is
                say(f"camera lost ({exc}); looking again in {REOPEN_DELAY_S:.0f} s")
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
            self.companion.show_camera(frame, self.run_.tracker.last_observation, light=self.light_status())

    def show_question(self) -> None:
        """The tracker's question about an unsure cell (or its end) to the referee's page,
        through the live state like everything else. Called under the tracker lock."""
        question = self.run_.tracker.question
        shown = None if question is None else (question.id, question.crop is not None)
        if shown == self._question_shown:
            return
        self._question_shown = shown
        self.companion.hub.update(camera_question=None if question is None else question.to_json())
        if question is not None:
            say(f"camera: unsure of {question.to_json()['cell']}; the referee's page asks")

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
        say("light: re-learn asked by the referee; waiting for a still board that shows the game")

    def _relearnt(self, calibration, by: str) -> None:
        # Called in the camera thread, under the tracker lock, by TrackRun.
        self._light_news = True
        who = "the referee's button" if by == "button" else "a change of light under a still, matching board"
        say(f"light re-learnt ({who}); the game goes on")
        self._save_calibration(calibration)

    def _save_calibration(self, calibration=None) -> None:
        # Before the first placement reaches the journal: a restart mid-game needs the set's colours.
        try:
            os.makedirs(os.path.dirname(os.path.abspath(self.calibration_path)), exist_ok=True)
            (calibration or self.run_.reader.calibration).save(self.calibration_path)
            say(f"camera calibration saved to {self.calibration_path}")
        except OSError as exc:
            say(f"could not save the camera calibration ({exc.strerror})")

    @property
    def tracker(self):
        return self.run_.tracker

    def press_pass(self) -> None:
        """The *done* button: the camera checks the board agrees before the pass is played."""
        with self._tracker_lock:
            before = len(self.run_.tracker.reports)
            self.run_.press_pass(time.monotonic())
            for report in self.run_.tracker.reports[before:]:
                if report["type"] == "pass_refused":
                    say(f"pass refused: {report['message']}")


class ButtonLoop(threading.Thread):
    def __init__(self, companion, camera, stop: threading.Event):
        super().__init__(name="buttons", daemon=True)
        self.companion = companion
        self.camera = camera
        self.stop = stop

    @classmethod
    def start(cls, companion, camera, stop: threading.Event):
        if companion.buttons is None:
            return None
        loop = cls(companion, camera, stop)
        threading.Thread.start(loop)
        return loop

    def run(self) -> None:
        panel = self.companion.buttons
        while not self.stop.is_set():
            event = panel.get_event(timeout=0.2)
            if event is None:
                continue
            self.companion.handle_button(event)


class CameraQuestionDesk:
    """The page's side of the camera's questions (``create_app(camera_questions=...)``):
    whichever camera loop follows the table's game; ``LookupError`` when none does."""

    def __init__(self, companion):
        self.companion = companion

    def _camera(self) -> CameraLoop:
        camera = getattr(self.companion, "camera", None)
        if camera is None:
            raise LookupError("no camera follows the game on this table")
        return camera

    def crop(self, question_id: int) -> bytes | None:
        return self._camera().question_crop(question_id)

    def answer(self, question_id: int, option: int) -> dict:
        return self._camera().answer_question(question_id, option)

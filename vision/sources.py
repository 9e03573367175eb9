"""Camera frames behind one interface: every source yields ``(timestamp, frame)``.

``frame`` is a BGR ``uint8`` array (OpenCV's order) and ``timestamp`` is in seconds:
the camera's clock for live sources, the position in the recording for replays.
Sources are iterables and context managers, so the same loop serves a Pi camera, a
USB webcam and a folder of test frames::

    with open_source("frames/") as source:
        for timestamp, frame in source:
            ...

Colour reading is learnt at setup under one exposure and white balance, so live
sources lock both as soon as the camera has settled: an auto-exposure that re-adjusts
when a hand darkens the view would shift every learnt colour.

>>> describe_spec("picamera"), describe_spec("webcam:1"), describe_spec("2")
(('picamera', 0), ('webcam', 1), ('webcam', 2))
>>> describe_spec("game/frames")
('replay', 'game/frames')
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

#: File name endings read as still frames (what ``cv2.imread`` decodes).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".ppm", ".pgm")

#: Frames a live camera runs with automatic exposure before it is locked.
SETTLE_FRAMES = 15


class SourceError(Exception):
    """A frame source cannot be opened or read; the message says what to check."""


class FrameSource:
    """Base of every source: iterate for ``(timestamp, BGR frame)``, then ``close()``."""

    def __iter__(self) -> Iterator[tuple[float, np.ndarray]]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the camera or file; safe to call twice."""

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        return False


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    """Grey or BGRA images become 3-channel BGR, so readers see one layout only."""
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


def natural_key(name: str) -> tuple:
    """Sort key putting ``frame2`` before ``frame10`` (name order as people mean it).

    >>> sorted(["f10.png", "f2.png", "f1.png"], key=natural_key)
    ['f1.png', 'f2.png', 'f10.png']
    """
    return tuple(int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name))


class FolderSource(FrameSource):
    """The images of a folder in name order, ``1 / fps`` seconds apart.

    Files that are not images (a ``truth.json`` beside the frames, say) are skipped; an
    image that cannot be decoded raises ``SourceError`` naming the file rather than
    silently shortening the recording.
    """

    def __init__(self, folder: str | os.PathLike, fps: float = 30.0):
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise SourceError(f"{self.folder} is not a folder of frames")
        if not fps > 0:
            raise SourceError(f"fps must be positive, not {fps}")
        self.fps = float(fps)
        self.paths = sorted(
            (p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()),
            key=lambda p: natural_key(p.name),
        )
        if not self.paths:
            raise SourceError(
                f"{self.folder} holds no image files ({', '.join(IMAGE_SUFFIXES)})"
            )

    def __len__(self) -> int:
        return len(self.paths)

    def __iter__(self):
        for index, path in enumerate(self.paths):
            frame = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if frame is None:
                raise SourceError(f"cannot decode image {path}")
            if frame.dtype != np.uint8:
                # 16-bit PNGs from some tools: keep the top byte, which is what a camera gives.
                frame = (frame >> 8).astype(np.uint8) if frame.dtype == np.uint16 else frame.astype(np.uint8)
            yield index / self.fps, _as_bgr(frame)


class VideoFileSource(FrameSource):
    """The frames of a video file, timestamped by their position in the file."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"no video file at {self.path}")
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            raise SourceError(f"OpenCV cannot open {self.path} as a video (unknown codec or not a video)")
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if fps and fps > 0 else 30.0

    def __iter__(self):
        index = 0
        while self._capture is not None:
            ok, frame = self._capture.read()
            if not ok:
                return
            # Container timestamps can be missing (0) in some files: fall back to the index.
            millis = self._capture.get(cv2.CAP_PROP_POS_MSEC)
            timestamp = millis / 1000.0 if millis and millis > 0 else index / self.fps
            index += 1
            yield timestamp, _as_bgr(frame)

    def close(self):
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class WebcamSource(FrameSource):
    """A USB webcam through ``cv2.VideoCapture``, exposure and white balance locked.

    After ``settle_frames`` frames of automatic exposure the current exposure is read
    back and set as a fixed value. Drivers differ (V4L2 uses 1 = manual and 3 = auto for
    ``CAP_PROP_AUTO_EXPOSURE``, others 0.25/0.75); both spellings are tried and
    ``locked`` records which settings the driver accepted, as some webcams have no
    manual mode at all.
    """

    def __init__(self, index: int = 0, width: int = 1280, height: int = 960,
                 settle_frames: int = SETTLE_FRAMES, backend: int = cv2.CAP_ANY):
        self.index = index
        self._capture = cv2.VideoCapture(index, backend)
        if not self._capture.isOpened():
            self._capture.release()
            self._capture = None
            raise SourceError(
                f"no webcam at index {index}: check the USB cable and that /dev/video{index} exists "
                "and is readable by this user (group 'video')"
            )
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        for _ in range(max(0, settle_frames)):
            self._capture.read()
        self.locked = self._lock_exposure_and_white_balance()

    def _lock_exposure_and_white_balance(self) -> dict[str, bool]:
        capture = self._capture
        exposure = capture.get(cv2.CAP_PROP_EXPOSURE)
        temperature = capture.get(cv2.CAP_PROP_WB_TEMPERATURE)
        exposure_locked = any(capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, manual) for manual in (1, 0.25))
        if exposure_locked and exposure:
            capture.set(cv2.CAP_PROP_EXPOSURE, exposure)
        wb_locked = bool(capture.set(cv2.CAP_PROP_AUTO_WB, 0))
        if wb_locked and temperature and temperature > 0:
            capture.set(cv2.CAP_PROP_WB_TEMPERATURE, temperature)
        return {"exposure": bool(exposure_locked), "white_balance": wb_locked}

    def __iter__(self):
        failures = 0
        while self._capture is not None:
            ok, frame = self._capture.read()
            if not ok:
                # A USB hiccup drops a frame or two; a camera unplugged drops them all.
                failures += 1
                if failures >= 30:
                    raise SourceError(f"webcam {self.index} stopped delivering frames")
                time.sleep(0.01)
                continue
            failures = 0
            yield time.monotonic(), _as_bgr(frame)

    def close(self):
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def _import_picamera2():
    """Picamera2 only exists on a Pi, from Debian's ``python3-picamera2`` package."""
    try:
        from picamera2 import Picamera2  # noqa: PLC0415 - lazy on purpose
    except ImportError as exc:
        raise SourceError(
            "Picamera2 is not importable: on Raspberry Pi OS install it with "
            "'sudo apt install python3-picamera2' and create the virtualenv with "
            "--system-site-packages (it is not installed from PyPI)"
        ) from exc
    except ValueError as exc:
        # Debian's python3-simplejpeg is built against numpy 1.x; the virtualenv's
        # numpy 2 (needed by OpenCV) makes it fail with "numpy.dtype size changed".
        raise SourceError(
            f"Picamera2 failed to load ({exc}): a system package built for numpy 1.x meets "
            "the virtualenv's numpy 2; install 'simplejpeg' from PyPI into the virtualenv "
            "so it shadows Debian's copy (see the README's Raspberry Pi notes)"
        ) from exc
    return Picamera2


class PicameraSource(FrameSource):
    """The Raspberry Pi camera through Picamera2, exposure and white balance locked.

    The camera runs automatic exposure and white balance for ``settle_frames`` frames,
    then the values it converged to (``ExposureTime``, ``AnalogueGain``,
    ``ColourGains`` from the frame metadata) are written back with ``AeEnable`` and
    ``AwbEnable`` off. The ``RGB888`` format is stored B, G, R in memory: exactly
    OpenCV's BGR, so frames need no conversion.
    """

    def __init__(self, camera_num: int = 0, width: int = 1280, height: int = 960,
                 settle_frames: int = SETTLE_FRAMES):
        Picamera2 = _import_picamera2()
        try:
            self._camera = Picamera2(camera_num)
        except (IndexError, RuntimeError) as exc:
            raise SourceError(f"no Pi camera number {camera_num}: {exc}") from exc
        config = self._camera.create_video_configuration(
            main={"size": (width, height), "format": "RGB888"}
        )
        self._camera.configure(config)
        self._camera.start()
        metadata = {}
        for _ in range(max(1, settle_frames)):
            metadata = self._camera.capture_metadata()
        self.locked = self._lock(metadata)

    def _lock(self, metadata: dict) -> dict:
        controls = {"AeEnable": False, "AwbEnable": False}
        for name in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if name in metadata:
                controls[name] = metadata[name]
        self._camera.set_controls(controls)
        return controls

    def __iter__(self):
        while self._camera is not None:
            request = self._camera.capture_request()
            try:
                frame = request.make_array("main")
                # SensorTimestamp is in nanoseconds on the camera's monotonic clock.
                stamp = request.get_metadata().get("SensorTimestamp")
            finally:
                request.release()
            yield (stamp / 1e9 if stamp else time.monotonic()), _as_bgr(frame)

    def close(self):
        if self._camera is not None:
            try:
                self._camera.stop()
            finally:
                self._camera.close()
                self._camera = None


#: Entry-point group of the frame-source kinds other parts plug in (``pyproject.toml``):
#: ``KIND = "module:opener"``, ``opener(argument) -> FrameSource``. This is how a
#: simulated camera stands in for the real one (``sim``), the way gpiozero finds a mock
#: pin factory by name: the camera loop never knows the difference.
FRAME_SOURCES_GROUP = "maamut.frame_sources"
BUILT_IN_KINDS = ("picamera", "webcam", "replay", "auto", "none")


def plugged_kinds() -> dict:
    """The plugged-in frame-source kinds by name (a built-in name cannot be taken)."""
    from importlib.metadata import entry_points

    return {point.name: point for point in entry_points(group=FRAME_SOURCES_GROUP)
            if point.name not in BUILT_IN_KINDS}


def describe_spec(spec: str) -> tuple[str, object]:
    """What a SOURCE argument names: ``("picamera", n)``, ``("webcam", n)`` or ``("replay", path)``.

    ``picamera`` / ``picamera:N`` is the Pi camera, ``webcam:N`` or a bare number a USB
    webcam, a plugged-in kind (:func:`plugged_kinds`) its own, anything else a folder of
    frames or a video file.
    """
    text = spec.strip()
    kind, _, argument = text.partition(":")
    if kind in plugged_kinds():
        return kind, argument
    match = re.fullmatch(r"(picamera|webcam)(?::(\d+))?", text)
    if match:
        return match.group(1), int(match.group(2) or 0)
    if text.isdigit():
        return "webcam", int(text)
    return "replay", text


def open_source(spec: str, fps: float = 30.0, width: int = 1280, height: int = 960) -> FrameSource:
    """Open whatever ``spec`` names (see ``describe_spec``); ``SourceError`` if it cannot.

    >>> open_source("/nonexistent/frames")
    Traceback (most recent call last):
    ...
    vision.sources.SourceError: /nonexistent/frames is neither a folder of frames nor a video file
    """
    kind, value = describe_spec(spec)
    plugged = plugged_kinds()
    if kind in plugged:
        return plugged[kind].load()(value)
    if kind == "picamera":
        return PicameraSource(value, width=width, height=height)
    if kind == "webcam":
        return WebcamSource(value, width=width, height=height)
    path = Path(value)
    if path.is_dir():
        return FolderSource(path, fps=fps)
    if path.is_file():
        return VideoFileSource(path)
    raise SourceError(f"{value} is neither a folder of frames nor a video file")

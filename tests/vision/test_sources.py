"""Frame sources: replays of folders and videos, and clear errors for absent cameras."""

import importlib.util

import cv2
import numpy as np
import pytest

from vision.sources import (
    FolderSource,
    PicameraSource,
    SourceError,
    VideoFileSource,
    WebcamSource,
    describe_spec,
    open_source,
)


def _frame(value: int, shape=(48, 64, 3)) -> np.ndarray:
    return np.full(shape, value, np.uint8)


def test_folder_replays_images_in_natural_name_order_with_fps_timestamps(tmp_path):
    for index in (10, 2, 1):
        cv2.imwrite(str(tmp_path / f"frame{index}.png"), _frame(index * 10))
    (tmp_path / "truth.json").write_text("{}")  # not an image: skipped
    with open_source(str(tmp_path), fps=10) as source:
        seen = [(round(t, 3), int(frame[0, 0, 0]), frame.shape) for t, frame in source]
    assert seen == [(0.0, 10, (48, 64, 3)), (0.1, 20, (48, 64, 3)), (0.2, 100, (48, 64, 3))]


def test_grey_and_bgra_images_come_out_as_three_channel_bgr(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), np.full((8, 8), 77, np.uint8))
    cv2.imwrite(str(tmp_path / "b.png"), np.dstack([_frame(5, (8, 8, 3)), np.full((8, 8), 255, np.uint8)]))
    frames = [frame for _, frame in FolderSource(tmp_path)]
    assert [f.shape for f in frames] == [(8, 8, 3), (8, 8, 3)]
    assert frames[0][0, 0].tolist() == [77, 77, 77]


def test_an_undecodable_image_is_a_clear_error_not_a_short_recording(tmp_path):
    cv2.imwrite(str(tmp_path / "0.png"), _frame(1))
    (tmp_path / "1.png").write_bytes(b"not a png")
    source = FolderSource(tmp_path)
    frames = iter(source)
    next(frames)
    with pytest.raises(SourceError, match="cannot decode image .*1.png"):
        next(frames)


def test_folder_without_images_and_missing_paths_are_refused(tmp_path):
    with pytest.raises(SourceError, match="holds no image files"):
        FolderSource(tmp_path)
    with pytest.raises(SourceError, match="neither a folder of frames nor a video file"):
        open_source(str(tmp_path / "missing"))
    with pytest.raises(SourceError, match="fps must be positive"):
        FolderSource(tmp_path, fps=0)


def test_video_file_replays_every_frame_with_its_time_in_the_file(tmp_path):
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for i in range(5):
        writer.write(_frame(40 * i))
    writer.release()
    with open_source(str(path)) as source:
        assert isinstance(source, VideoFileSource)
        seen = [(round(t, 2), frame.shape) for t, frame in source]
    assert seen == [(round(0.1 * i, 2), (48, 64, 3)) for i in range(5)]


def test_a_file_that_is_not_a_video_is_refused(tmp_path):
    path = tmp_path / "notes.avi"
    path.write_text("hello")
    with pytest.raises(SourceError, match="cannot open"):
        VideoFileSource(path)


def test_source_specs_name_pi_camera_webcams_and_replays():
    assert describe_spec("picamera:1") == ("picamera", 1)
    assert describe_spec(" webcam ") == ("webcam", 0)
    assert describe_spec("0") == ("webcam", 0)
    assert describe_spec("frames/game1") == ("replay", "frames/game1")


def test_an_absent_webcam_is_a_clear_error():
    with pytest.raises(SourceError, match="no webcam at index 63"):
        WebcamSource(63, settle_frames=0)


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="a real Picamera2 is installed")
def test_without_picamera2_the_error_says_how_to_install_it():
    with pytest.raises(SourceError, match="python3-picamera2"):
        PicameraSource()


def test_a_picamera2_built_for_numpy_1_is_explained_not_a_traceback(monkeypatch):
    """The numpy 1 / numpy 2 clash on Raspberry Pi OS surfaces as a ValueError at import."""
    import builtins

    real_import = builtins.__import__

    def clashing_import(name, *args, **kwargs):
        if name == "picamera2":
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", clashing_import)
    with pytest.raises(SourceError, match="simplejpeg"):
        PicameraSource()

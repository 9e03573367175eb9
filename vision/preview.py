"""What the page shows of the camera: a small JPEG of the frame and the per-cell confidences.

The page's referee view draws the camera's picture with the reader's confidence over
each cell; both come from here so that the web part handles bytes and numbers only.

>>> import numpy as np
>>> jpeg = preview_jpeg(np.zeros((480, 1280, 3), np.uint8))
>>> jpeg[:2] == b"\\xff\\xd8"  # a JPEG's start-of-image marker
True
"""

from __future__ import annotations

from engine.hexgrid import CELL_NAMES

#: Wide enough to judge the light and the pieces on a phone, small enough to send a few a second.
PREVIEW_WIDTH = 640
JPEG_QUALITY = 70


def preview_jpeg(frame, width: int = PREVIEW_WIDTH, quality: int = JPEG_QUALITY) -> bytes | None:
    """``frame`` (BGR) scaled to ``width`` pixels across, as JPEG bytes (``None`` if it cannot be encoded)."""
    import cv2

    small = cv2.resize(frame, (width, int(width * frame.shape[0] / frame.shape[1])))
    ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return jpeg.tobytes() if ok else None


def cell_confidences(observation) -> dict[str, float] | None:
    """The reader's confidence per cell name (``"q,r"``), rounded for the page; ``None`` without an observation."""
    if observation is None:
        return None
    return {CELL_NAMES[i]: round(float(c), 3) for i, c in enumerate(observation.cell_confidence)}


__all__ = ["preview_jpeg", "cell_confidences", "PREVIEW_WIDTH", "JPEG_QUALITY"]

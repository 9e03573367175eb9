"""A small learned per-cell classifier: what stands on a cell, told from the cell now
and the same cell on the empty board.

The tiles never move, so each cell's look on the empty board (the first setup frame) is
its own reference. The classifier is given a pair of crops, the cell now and that
reference, both divided by the reference's own median colour (in log), so the tile's
art cancels out and what is left is what changed: is there a hunter, a trap, the
mammoth? It does not say whose: owners stay with the colour models learnt at setup.

Crops are sampled straight from the frame through the board's homography (no warp of
the whole frame), like :class:`vision.geometry.CellSampler`. The network is an ONNX
file run by OpenCV's own ``cv2.dnn`` (no other runtime); it is trained by
``sim/cell_training.py`` (``python -m sim.cell_training --help``), which also documents
the data recipe. ``docs/vision.md`` (*A learned cell classifier*) reports what it is
worth on a generator it never saw.

>>> grid = crop_offsets()
>>> grid.shape
(1024, 2)
>>> [round(float(v), 3) for v in grid[0]]
[-0.969, -0.969]
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from engine.hexgrid import CENTRE, NUM_CELLS

from .geometry import CELL_CENTRES, project

#: Crop side in pixels, and its half-width in tile circumradii (the whole cell).
CROP = 32
EXTENT = 1.0
#: What the classifier answers for each cell, in this order (independent yes/no):
#: a hunter on it, a trap, the mammoth, and any piece at all.
LABELS = ("hunter", "trap", "mammoth", "piece")
#: Input planes: the cell now (3), its empty reference (3), and 1 on the cross cell,
#: whose reference holds the mammoth set on it at setup.
PLANES = 7


def crop_offsets(size: int = CROP, extent: float = EXTENT) -> np.ndarray:
    """Board-unit offsets of a ``size``×``size`` crop's pixel centres, row by row."""
    step = 2 * extent / size
    g = -extent + step * (np.arange(size) + 0.5)
    xx, yy = np.meshgrid(g, g)
    return np.stack([xx.ravel(), yy.ravel()], axis=1)


_OFFSETS = crop_offsets()


def cell_crops(frame: np.ndarray, homography: np.ndarray, extent: float = EXTENT, size: int = CROP) -> np.ndarray:
    """Every cell's crop, ``(37, size, size, 3)`` uint8 BGR, sampled through ``homography``
    (board units to pixels); points outside the frame repeat its border."""
    offsets = _OFFSETS if (extent, size) == (EXTENT, CROP) else crop_offsets(size, extent)
    pts = project(homography, (CELL_CENTRES[:, None, :] + offsets[None]).reshape(-1, 2)).astype(np.float32)
    maps = pts.reshape(NUM_CELLS * size, size, 2)
    values = cv2.remap(frame, maps[..., 0].copy(), maps[..., 1].copy(), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    return values.reshape(NUM_CELLS, size, size, 3)


def pair_input(now: np.ndarray, reference: np.ndarray, cross: np.ndarray | None = None) -> np.ndarray:
    """The network's input ``(n, 7, size, size)`` float32 from crops ``(n, size, size, 3)``:
    both crops in log, less the log of the reference's median per channel (the tile's
    own colour and the setup's light cancel), and the cross flag plane.

    >>> ref = np.full((2, 4, 4, 3), 100, np.uint8)
    >>> x = pair_input(ref, ref, np.array([False, True]))
    >>> x.shape, float(abs(x[:, :6]).max()), float(x[1, 6].min())
    ((2, 7, 4, 4), 0.0, 1.0)
    """
    now = np.log(now.astype(np.float32) + 4.0)
    ref = np.log(reference.astype(np.float32) + 4.0)
    level = np.median(ref.reshape(ref.shape[0], -1, 3), axis=1)[:, None, None, :]
    n, h, w, _ = now.shape
    flag = np.zeros((n, h, w, 1), np.float32)
    if cross is not None:
        flag[np.asarray(cross, bool)] = 1.0
    return np.concatenate([now - level, ref - level, flag], axis=3).transpose(0, 3, 1, 2).copy()


def board_input(now_crops: np.ndarray, reference_crops: np.ndarray) -> np.ndarray:
    """:func:`pair_input` for the 37 cells of a board (the cross flag on the centre)."""
    return pair_input(now_crops, reference_crops, np.arange(NUM_CELLS) == CENTRE)


#: The shipped model (absent when none is shipped: see docs/vision.md).
MODEL_PATH = Path(__file__).with_name("models") / "cell_pair.onnx"


class CellClassifier:
    """The ONNX cell classifier through ``cv2.dnn``: probabilities ``(n, 4)`` (:data:`LABELS`)."""

    def __init__(self, path: Path | str = MODEL_PATH):
        self.net = cv2.dnn.readNetFromONNX(str(path))

    def probabilities(self, inputs: np.ndarray) -> np.ndarray:
        self.net.setInput(np.ascontiguousarray(inputs, dtype=np.float32))
        logits = np.asarray(self.net.forward(), dtype=np.float64).reshape(len(inputs), len(LABELS))
        return 1.0 / (1.0 + np.exp(-logits))

    def board(self, frame: np.ndarray, homography: np.ndarray, reference_crops: np.ndarray) -> np.ndarray:
        """Each cell's probabilities ``(37, 4)`` in ``frame``, against the empty board's crops."""
        return self.probabilities(board_input(cell_crops(frame, homography), reference_crops))

"""A phone or Pi camera over the table: a pinhole with radial distortion, posed in 3D.

One frame for everything physical: the board's (x east, y south, z down into the table,
right-handed; a tile's circumradius is the unit). The table top is z = 0, so a piece's
top has a negative z. The camera starts looking straight down with the picture's x
east and y south, turns about the vertical (the board's turn in the picture), then
leans by the tilt: proper rotations only, so the picture is never mirrored.

>>> import numpy as np
>>> from sim.tabletop.style import random_look
>>> cam = Camera.from_lens(random_look(np.random.default_rng(0)).lens)
>>> from vision.geometry import preserves_handedness
>>> preserves_handedness(cam.homography(0.0))
True
>>> p, depth = cam.project(np.array([[0.0, 0.0, 0.0], [0.0, 0.0, -1.0]]))
>>> bool(depth[1] < depth[0])         # a point above the table is nearer the camera
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from vision.geometry import MARKER_IDS, MARKER_QUIET, MARKER_SIZE, marker_centre

from .style import Lens, TableLook

WIDTH, HEIGHT = 1280, 960
#: Pixels kept between every card and the frame's edge: the whole card is in view.
MARGIN = 24


def _axis_rotation(axis, angle: float) -> np.ndarray:
    """Rodrigues: the rotation by ``angle`` radians about the unit vector ``axis``."""
    x, y, z = axis
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]], dtype=np.float64)
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


@dataclass(frozen=True)
class Camera:
    focal: float               # pixels
    centre: np.ndarray         # camera position, board frame
    rotation: np.ndarray       # columns: the camera's x, y and optical axes in the board frame
    k1: float
    pixels_per_unit: float

    @classmethod
    def from_lens(cls, lens: Lens) -> "Camera":
        focal = (WIDTH / 2) / math.tan(math.radians(lens.hfov_deg) / 2)
        yaw = _axis_rotation((0.0, 0.0, 1.0), math.radians(lens.yaw_deg))
        a = math.radians(lens.tilt_axis_deg)
        lean = _axis_rotation((math.cos(a), math.sin(a), 0.0), math.radians(lens.tilt_deg))
        rotation = yaw @ lean
        distance = focal / lens.pixels_per_unit
        target = np.array([lens.target[0], lens.target[1], 0.0])
        return cls(focal, target - distance * rotation[:, 2], rotation, lens.k1, lens.pixels_per_unit)

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return (np.asarray(points, np.float64).reshape(-1, 3) - self.centre) @ self.rotation

    def project(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Board-frame points (N, 3) to pixels (N, 2), with their depth along the optical axis."""
        c = self.to_camera(points)
        z = np.maximum(c[:, 2], 1e-6)
        xn, yn = c[:, 0] / z, c[:, 1] / z
        grow = 1 + self.k1 * (xn * xn + yn * yn)
        return np.stack([WIDTH / 2 + self.focal * xn * grow, HEIGHT / 2 + self.focal * yn * grow], axis=1), c[:, 2]

    def homography(self, z: float) -> np.ndarray:
        """Board plane at height ``z`` to pixels, as a 3×3 matrix (the lens's distortion left out)."""
        k = np.array([[self.focal, 0, WIDTH / 2], [0, self.focal, HEIGHT / 2], [0, 0, 1.0]])
        r = self.rotation.T
        h = k @ np.column_stack([r[:, 0], r[:, 1], r @ (np.array([0, 0, z]) - self.centre)])
        return h / h[2, 2]

    @cached_property
    def rays(self) -> np.ndarray:
        """Each pixel's viewing ray in the board frame (3, H, W), the distortion undone."""
        yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
        xd, yd = (xx - WIDTH / 2) / self.focal, (yy - HEIGHT / 2) / self.focal
        xn, yn = xd, yd
        for _ in range(8):               # fixed point: the distortion is mild
            grow = 1 + self.k1 * (xn * xn + yn * yn)
            xn, yn = xd / grow, yd / grow
        r = self.rotation.astype(np.float32)
        return np.stack([r[i, 0] * xn + r[i, 1] * yn + r[i, 2] for i in range(3)])

    def ground(self, z: float) -> tuple[np.ndarray, np.ndarray]:
        """Where each pixel's ray meets the plane at height ``z``: board x and y (H, W)."""
        rays = self.rays
        s = (z - self.centre[2]) / rays[2]
        return (self.centre[0] + s * rays[0]).astype(np.float32), (self.centre[1] + s * rays[1]).astype(np.float32)

    def pixels_per_unit_at(self, point) -> float:
        """How many pixels one board unit covers at a point of the table (a tile's scale there)."""
        p = np.asarray(point, np.float64)
        q, _ = self.project(np.array([p - (0.5, 0, 0), p + (0.5, 0, 0), p - (0, 0.5, 0), p + (0, 0.5, 0)]))
        return float(max(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[2])))


def card_outline(look: TableLook, marker: int, paper: bool = True) -> np.ndarray:
    """A card's corners on the table (4, 2) as it was laid: the marker's black square, or with
    ``paper`` the whole card (white border and any margin)."""
    dx, dy, turn = look.cards[marker]
    cx, cy = marker_centre(marker)
    half = MARKER_SIZE / 2 + ((MARKER_QUIET + look.card_margin) if paper else 0.0)
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    square = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    return square @ np.array([[c, s], [-s, c]]) + (cx + dx, cy + dy)


def card_plane(look: TableLook) -> float:
    """The height the cards lie at: on the printed board if there is one, else on the table."""
    return -MAT_THICKNESS if look.tiles.mat is not None else 0.0


#: A printed board's cardboard, board units.
MAT_THICKNESS = 0.06


def framed(look: TableLook) -> TableLook:
    """The look with the camera pulled back and re-aimed until every card is wholly in the
    frame with a margin, the way a player moves the phone until the board fits."""
    lens = look.lens
    z = card_plane(look)
    corners = np.concatenate([card_outline(look, m) for m in MARKER_IDS])
    corners = np.column_stack([corners, np.full(len(corners), z)])
    for _ in range(120):
        pixels, depth = Camera.from_lens(lens).project(corners)
        inside = ((pixels >= MARGIN) & (pixels <= (WIDTH - MARGIN, HEIGHT - MARGIN))).all()
        if inside and (depth > 0).all():
            break
        if math.hypot(*lens.target) > 0.3:        # first aim nearer the board's centre...
            lens = replace(lens, target=(lens.target[0] * 0.8, lens.target[1] * 0.8))
        else:                                      # ...then step back
            lens = replace(lens, pixels_per_unit=lens.pixels_per_unit * 0.98)
    return replace(look, lens=lens)

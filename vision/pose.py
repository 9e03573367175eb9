"""Where the camera is, from the board's homography alone: what a standing piece leans by.

The marker cards give the homography ``H`` from the board's plane (board units: tile
circumradii, ``x`` east, ``y`` south) to the image. A camera with square pixels and its
principal point at the image's centre is then fixed by ``H`` up to its focal length, and
the focal length by the two constraints any plane gives (Zhang, *A flexible new
technique for camera calibration*, 2000): the plane's two axes are perpendicular and
of equal length once ``K⁻¹`` is applied. From the focal length follow the rotation, the
camera's position above the board and so, for any cell, where a point ``h`` above it
lands on the board's plane in the image: the *lean* of a standing piece, its top drawn
over the neighbouring cell while its base stays on its own.

When the camera looks nearly straight down the two constraints say little about the
focal length; :data:`DEFAULT_FOCAL` (a share of the image width: the Pi camera's and
common webcams' field of view) is used instead, which changes the lean's length a
little but not its direction (away from the camera's foot).

>>> import numpy as np
>>> f, c = 1000.0, (640.0, 480.0)
>>> tilt = np.radians(20)
>>> rot = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
>>> centre = np.array([0.0, -9.0, 25.0])       # above the board, a little north
>>> k = np.array([[f, 0, c[0]], [0, f, c[1]], [0, 0, 1]])
>>> t = -rot @ centre
>>> h = k @ np.column_stack([rot[:, 0], rot[:, 1], t])
>>> pose = CameraPose.from_homography(h / h[2, 2], (1280, 960))
>>> round(pose.focal), np.round(pose.centre, 2).tolist()
(1000, [0.0, -9.0, 25.0])
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: The focal length (pixels, as a share of the image width) assumed when the homography
#: cannot tell it: about a 62° horizontal field of view.
DEFAULT_FOCAL = 0.83
#: Below this tilt from straight down (radians, as the homography first suggests) the
#: focal length is not estimated.
MIN_TILT_FOR_FOCAL = np.radians(6)
#: Focal lengths (shares of the image width) believed when estimated: about 11°-120°.
FOCAL_RANGE = (0.3, 5.0)


@dataclass(frozen=True)
class CameraPose:
    """A pinhole camera over the board: focal length (pixels), principal point, and the
    camera's centre in board units (``z`` towards the camera)."""
    focal: float
    principal: tuple
    rotation: np.ndarray          # board -> camera axes
    translation: np.ndarray
    centre: np.ndarray            # camera centre (board x, y, height above the board)
    focal_estimated: bool

    @classmethod
    def from_homography(cls, homography: np.ndarray, image_size: tuple) -> "CameraPose":
        """The pose for a board-to-image homography and the image's ``(width, height)``."""
        w, h = image_size
        cx, cy = w / 2.0, h / 2.0
        shift = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], float)
        m = shift @ np.asarray(homography, float)
        nominal = cls._with_focal(m, DEFAULT_FOCAL * w, (cx, cy), False)
        if nominal.tilt < MIN_TILT_FOR_FOCAL:
            return nominal
        focal = _focal_from(m)
        if focal is None or not FOCAL_RANGE[0] * w <= focal <= FOCAL_RANGE[1] * w:
            return nominal
        return cls._with_focal(m, focal, (cx, cy), True)

    @classmethod
    def _with_focal(cls, m: np.ndarray, focal: float, principal: tuple, estimated: bool) -> "CameraPose":
        cols = np.diag([1 / focal, 1 / focal, 1.0]) @ m
        scale = 2.0 / (np.linalg.norm(cols[:, 0]) + np.linalg.norm(cols[:, 1]))
        r1, r2, t = cols[:, 0] * scale, cols[:, 1] * scale, cols[:, 2] * scale
        if t[2] < 0:          # the board lies in front of the camera
            r1, r2, t = -r1, -r2, -t
        rot = np.column_stack([r1, r2, np.cross(r1, r2)])
        u, _, vt = np.linalg.svd(rot)      # the nearest true rotation
        rot = u @ vt
        if (-rot.T @ t)[2] < 0:   # board axes are left-handed seen from above: up is -z here
            rot = rot @ np.diag([1.0, 1.0, -1.0])
        return cls(float(focal), principal, rot, t, -rot.T @ t, estimated)

    @property
    def tilt(self) -> float:
        """The camera's optical axis from straight down (radians)."""
        axis = self.rotation.T @ np.array([0.0, 0.0, 1.0])     # optical axis in board axes
        return float(np.arccos(np.clip(-axis[2], -1.0, 1.0)))

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixels of board points ``(n, 3)`` (``z`` the height above the board)."""
        pts = np.asarray(points, float).reshape(-1, 3)
        cam = pts @ self.rotation.T + self.translation
        return np.column_stack([self.focal * cam[:, 0] / cam[:, 2] + self.principal[0],
                                self.focal * cam[:, 1] / cam[:, 2] + self.principal[1]])

    def lean(self, points: np.ndarray, height: float) -> np.ndarray:
        """Where on the board's plane a point ``height`` above each board point ``(n, 2)``
        is seen (board units): the line from the camera through it meets the board there.

        >>> down = np.diag([1.0, -1.0, -1.0])          # looking straight down from 10 up
        >>> pose = CameraPose(1000.0, (0, 0), down, np.array([0, 0, 10.0]), np.array([0, 0, 10.0]), False)
        >>> pose.lean(np.array([[2.0, 0.0]]), 1.0).round(3).tolist()
        [[2.222, 0.0]]
        """
        pts = np.asarray(points, float).reshape(-1, 2)
        c = self.centre
        along = c[2] / max(c[2] - height, 1e-6)
        return c[:2] + (pts - c[:2]) * along


def _focal_from(m: np.ndarray) -> float | None:
    """Focal length (pixels) from a homography whose principal point is at the origin,
    or ``None`` when the two constraints do not fix one."""
    h11, h12, h21, h22, h31, h32 = m[0, 0], m[0, 1], m[1, 0], m[1, 1], m[2, 0], m[2, 1]
    # With w = 1/f²: perpendicular axes and axes of equal length, least squares.
    a = np.array([h11 * h12 + h21 * h22, h11 ** 2 + h21 ** 2 - h12 ** 2 - h22 ** 2])
    b = np.array([h31 * h32, h31 ** 2 - h32 ** 2])
    denom = float(a @ a)
    w = -float(a @ b) / denom if denom > 0 else 0.0
    return float(1.0 / np.sqrt(w)) if w > 0 else None

"""Where the board is in a camera frame: the printed kit layout and its localisation.

The kit is a cardboard board (a flat-topped hexagon) that carries the 37 pointy-top
tiles and six ArUco markers (``DICT_4X4_50``, ids 0..5) printed on its rim, one beside
each flat side of the tile cluster. Board units are the tile circumradius: cell centres
are ``engine.hexgrid.pixel_of(cell, 1.0)`` (x east, y south, as seen from above).

Localisation fits a homography from the markers' known corners to the detected ones.
The markers carry their identity and orientation, so any board rotation is recovered,
and a mirrored camera image (which would swap clockwise and anticlockwise) is refused
rather than silently read: handedness is checked on every fit.

>>> pts = marker_corners_board(0)
>>> pts.shape
(4, 2)
>>> [round(float(v), 2) for v in marker_centre(3)]
[-5.67, -3.28]
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from engine.hexgrid import NUM_CELLS, pixel_of

#: ArUco family printed on the kit (small bit count: large cells, robust when blurred).
ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3, 4, 5)
_SUBPIX_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.01)
#: Any 4 of the 6 markers include an opposite pair, so their fit spans the whole board.
SPANNING_MARKERS = 4
#: Side of the black marker square, in tile circumradii.
MARKER_SIZE = 1.3
#: White quiet zone printed around each marker (detection needs a light border).
MARKER_QUIET = 0.22
#: Distance of each marker centre from the board centre.
MARKER_DISTANCE = 6.55
#: Board outline: flat-topped hexagon, circumradius in tile circumradii.
BOARD_RADIUS = 9.1

#: Cell centres in board units, indexed by cell id.
CELL_CENTRES = np.array([pixel_of(i, 1.0) for i in range(NUM_CELLS)], dtype=np.float64)


def marker_centre(marker_id: int) -> tuple[float, float]:
    """Board position of a marker: beside the flat sides, at 30° + 60° × id (y down)."""
    angle = math.radians(30 + 60 * marker_id)
    return (MARKER_DISTANCE * math.cos(angle), MARKER_DISTANCE * math.sin(angle))


def marker_corners_board(marker_id: int) -> np.ndarray:
    """The 4 corners of a marker in ArUco order (TL, TR, BR, BL), upright on the board."""
    cx, cy = marker_centre(marker_id)
    h = MARKER_SIZE / 2
    return np.array([(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)])


def board_outline(radius: float = BOARD_RADIUS) -> np.ndarray:
    """Corners of the flat-topped board outline, clockwise from east."""
    return np.array([(radius * math.cos(math.radians(60 * k)), radius * math.sin(math.radians(60 * k)))
                     for k in range(6)])


def project(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3×3 homography to an (N, 2) array of points.

    >>> project(np.eye(3), np.array([[1.0, 2.0]])).tolist()
    [[1.0, 2.0]]
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, np.asarray(h, dtype=np.float64)).reshape(-1, 2)


def preserves_handedness(h: np.ndarray) -> bool:
    """True when board→image keeps clockwise clockwise (both frames have y down).

    A mirror image has a negative Jacobian determinant at the board centre.

    >>> preserves_handedness(np.eye(3)), preserves_handedness(np.diag([-1.0, 1.0, 1.0]))
    (True, False)
    """
    h = np.asarray(h, dtype=np.float64)
    w = h[2, 2]
    # Jacobian of (x, y) -> H(x, y) at the origin.
    jac = (h[:2, :2] * w - np.outer(h[:2, 2], h[2, :2])) / (w * w)
    return float(np.linalg.det(jac)) > 0


@dataclass(frozen=True)
class Geometry:
    """A board pose in one frame: ``homography`` maps board units to image pixels."""
    homography: np.ndarray
    markers: tuple[int, ...]      # marker ids that supported this fit
    error: float                  # RMS reprojection error of the marker corners, pixels
    fresh: bool                   # fitted on this frame (False: last good geometry kept)

    def cell_centres_image(self) -> np.ndarray:
        return project(self.homography, CELL_CENTRES)

    def pixels_per_unit(self) -> float:
        """Approximate image scale at the board centre (tile circumradius in pixels)."""
        c = project(self.homography, np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
        return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[0])) / 2)


class BoardLocator:
    """Finds the board in frames; keeps the last good geometry while markers are hidden.

    ``min_markers`` markers must agree for a fresh fit: two markers give 8 corners, enough
    to pin a homography; fewer (hands over the rim) keeps the previous fit.
    """

    def __init__(self, min_markers: int = 2, max_error: float = 4.0, detect_scale: float = 0.5):
        dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
        fast = cv2.aruco.DetectorParameters()
        fast.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        # One adaptive-threshold window instead of three: at half size the kit's markers
        # are 25-40 px wide, which one 13 px window binarises well; it halves the time.
        fast.adaptiveThreshWinSizeMin = fast.adaptiveThreshWinSizeMax = 13
        thorough = cv2.aruco.DetectorParameters()
        thorough.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._fast = cv2.aruco.ArucoDetector(dictionary, fast)
        self._thorough = cv2.aruco.ArucoDetector(dictionary, thorough)
        self.min_markers = min_markers
        self.max_error = max_error
        self.detect_scale = detect_scale
        self.last: Geometry | None = None

    def detect(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        """Kit markers seen in a grey image: id -> (4, 2) corners in full-image pixels."""
        found = self._detect_at(gray, self.detect_scale, self._fast)
        if len(found) < SPANNING_MARKERS:
            # Small, blurred or unevenly lit markers can be missed by the fast pass, and
            # a fit from markers bunched on one side drifts on the far side of the board:
            # look again with all threshold windows, at full size if still too few.
            found = {**found, **self._detect_at(gray, self.detect_scale, self._thorough)}
            if len(found) < self.min_markers:
                found = self._detect_at(gray, 1.0, self._thorough)
        return found

    def _detect_at(self, gray: np.ndarray, scale: float, detector) -> dict[int, np.ndarray]:
        small = gray if scale == 1.0 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        corners, ids, _ = detector.detectMarkers(small)
        found: dict[int, np.ndarray] = {}
        if ids is None:
            return found
        for quad, marker in zip(corners, ids.ravel()):
            marker = int(marker)
            if marker in MARKER_IDS and marker not in found:
                # Pixel centres: (x + 0.5) / scale - 0.5 maps back to the full image.
                found[marker] = (quad.reshape(4, 2).astype(np.float64) + 0.5) / scale - 0.5
        if found and scale != 1.0:
            # Corners found at reduced size are only as exact as its pixels: refine them
            # on the full image (it halves the fit's error on the far side of the board).
            ids_found = list(found)
            pts = np.concatenate([found[i] for i in ids_found]).astype(np.float32).reshape(-1, 1, 2)
            cv2.cornerSubPix(gray, pts, (4, 4), (-1, -1), _SUBPIX_CRITERIA)
            pts = pts.reshape(-1, 4, 2).astype(np.float64)
            found = {i: pts[k] for k, i in enumerate(ids_found)}
        return found

    def fit(self, found: dict[int, np.ndarray]) -> Geometry | None:
        """Homography from detected markers, or None if too few or inconsistent."""
        if len(found) < self.min_markers:
            return None
        ids = sorted(found)
        src = np.concatenate([marker_corners_board(i) for i in ids])
        dst = np.concatenate([found[i] for i in ids])
        h, mask = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
        if h is None or not preserves_handedness(h):
            return None
        inliers = mask.ravel().astype(bool)
        if inliers.sum() < 4 * self.min_markers:
            return None
        if not inliers.all():
            h, _ = cv2.findHomography(src[inliers], dst[inliers], 0)
            ids = [i for k, i in enumerate(ids) if inliers[4 * k:4 * k + 4].all()]
        err = float(np.sqrt(np.mean(np.sum((project(h, src[inliers]) - dst[inliers]) ** 2, axis=1))))
        if err > self.max_error or not preserves_handedness(h):
            return None
        return Geometry(h, tuple(ids), err, True)

    def locate(self, frame: np.ndarray) -> Geometry | None:
        """Fresh geometry for this frame, else the last good one (``fresh=False``), else None.

        When hands leave only a few markers visible and those are where the last,
        better-supported fit puts them, the board has not moved: that fit is kept
        (and counts as fresh), since a fit from a few markers on one side is less
        accurate on the far side.
        """
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        found = self.detect(gray)
        geometry = self.fit(found)
        if geometry is not None:
            last = self.last
            if last is not None and len(geometry.markers) < len(last.markers) and _explains(last, found, geometry.markers):
                return Geometry(last.homography, geometry.markers, last.error, True)
            self.last = geometry
            return geometry
        if self.last is not None:
            return Geometry(self.last.homography, (), self.last.error, False)
        return None


def _explains(geometry: Geometry, found: dict[int, np.ndarray], markers, tolerance: float = 1.5) -> bool:
    """Whether ``geometry`` puts the ``markers`` seen within ``tolerance`` pixels (RMS)."""
    board = np.concatenate([marker_corners_board(i) for i in markers])
    seen = np.concatenate([found[i] for i in markers])
    return float(np.sqrt(np.mean(np.sum((project(geometry.homography, board) - seen) ** 2, axis=1)))) <= tolerance


def mirror_frame(frame: np.ndarray) -> np.ndarray:
    """Undo a mirrored camera (a selfie-style webcam) so handedness is right again."""
    return cv2.flip(frame, 1)


# --- sampling the cells ----------------------------------------------------------------

#: Where the reader looks inside each cell (radius in tile circumradii, points on that
#: circle). The kit's tokens are designed around these rings: a hunter is a coloured
#: core inside a dark rim, a trap is a plate or ring reaching the "trap" ring, the
#: mammoth covers everything up to the "trap" ring, and the "tile" ring is never
#: covered by a token, so it always shows the printed tile.
ZONES: dict[str, tuple[tuple[float, int], ...]] = {
    "core": ((0.0, 1), (0.07, 8), (0.13, 12)),
    "rim": ((0.27, 18), (0.31, 20)),
    "trap": ((0.45, 24), (0.50, 26), (0.55, 28)),
    "tile": ((0.74, 30), (0.79, 32)),
}


def _zone_offsets(rings) -> np.ndarray:
    pts = []
    for radius, count in rings:
        for k in range(count):
            a = 2 * math.pi * (k + 0.5 * (radius > 0.4)) / count
            pts.append((radius * math.cos(a), radius * math.sin(a)))
    return np.array(pts)


ZONE_OFFSETS = {name: _zone_offsets(rings) for name, rings in ZONES.items()}
#: A dense grid over the token area, used to find where a token actually lies: players
#: rarely put tokens down dead centre.
_g = np.arange(-0.765, 0.77, 0.09)
_grid = np.stack(np.meshgrid(_g, _g), axis=-1).reshape(-1, 2)
ZONE_OFFSETS["probe"] = _grid[np.linalg.norm(_grid, axis=1) <= 0.77]
#: Largest token offset the reader corrects for (tile circumradii).
MAX_TOKEN_OFFSET = 0.2


class CellSampler:
    """Reads the colours of every zone of every cell straight from the camera frame.

    Sampling points (in board units) are mapped through the homography and read with
    bilinear interpolation: no full warp of the frame is needed, which keeps a read
    well under the 33 ms of one 30 fps frame.
    """

    def sample(self, frame: np.ndarray, homography: np.ndarray, zones=tuple(ZONES),
               shifts: dict | None = None) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """``({zone: (37, n, 3) float32 RGB 0..1}, inside)``; ``inside[cell]`` is False when
        part of the cell falls outside the frame. ``shifts[zone]`` ((37, 2), board units)
        moves a zone's rings per cell, to follow tokens put down off-centre."""
        shifts = shifts or {}
        blocks, sizes = [], []
        for name in zones:
            centres = CELL_CENTRES + shifts[name] if name in shifts else CELL_CENTRES
            off = ZONE_OFFSETS[name]
            blocks.append((centres[:, None, :] + off[None, :, :]).reshape(-1, 2))
            sizes.append(off.shape[0])
        pts = project(homography, np.concatenate(blocks)).astype(np.float32)
        h, w = frame.shape[:2]
        valid = (pts[:, 0] >= 0) & (pts[:, 0] <= w - 1) & (pts[:, 1] >= 0) & (pts[:, 1] <= h - 1)
        values = cv2.remap(frame, pts[None, :, 0].copy(), pts[None, :, 1].copy(), cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)[0]
        rgb = values[:, ::-1].astype(np.float32) / 255.0
        out, inside, start = {}, np.ones(NUM_CELLS, bool), 0
        for name, n in zip(zones, sizes):
            stop = start + NUM_CELLS * n
            out[name] = rgb[start:stop].reshape(NUM_CELLS, n, 3)
            inside &= valid[start:stop].reshape(NUM_CELLS, n).all(axis=1)
            start = stop
        return out, inside


def centroid_offsets(weights: np.ndarray, min_weight: float) -> np.ndarray:
    """Per-cell weighted centroid of the probe grid, (37, 2) board units.

    Cells with too little weight (no token) keep offset 0; offsets are capped at
    ``MAX_TOKEN_OFFSET`` so a neighbour's token can never drag the rings away.

    >>> w = np.zeros((NUM_CELLS, len(ZONE_OFFSETS["probe"])))
    >>> centroid_offsets(w, 1.0).shape
    (37, 2)
    """
    probe = ZONE_OFFSETS["probe"]
    total = weights.sum(axis=1)
    off = (weights @ probe) / np.maximum(total, 1e-9)[:, None]
    off[total < min_weight] = 0.0
    norm = np.linalg.norm(off, axis=1, keepdims=True)
    return np.where(norm > MAX_TOKEN_OFFSET, off * MAX_TOKEN_OFFSET / np.maximum(norm, 1e-9), off)

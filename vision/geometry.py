"""Where the board is in a camera frame: the printed kit layout and its localisation.

The kit is a cardboard board (a flat-topped hexagon) that carries the 37 pointy-top
tiles and six ArUco markers (``DICT_4X4_50``, ids 0..5) printed on its rim, one beside
each flat side of the tile cluster. Board units are the tile circumradius: cell centres
are ``engine.hexgrid.pixel_of(cell, 1.0)`` (x east, y south, as seen from above).

Localisation fits a homography from the markers' corners on the board to the detected
ones. The markers carry their identity and orientation, so any board rotation is
recovered, and a mirrored camera image (which would swap clockwise and anticlockwise)
is refused rather than silently read: handedness is checked on every fit.

Cards are laid by hand, a few millimetres and degrees off their printed spot, so the
fit is robust (:func:`robust_homography`: all corners, each card weighted by how well
it agrees, a tolerance in tile units scaled to the image) and uses where calibration
found each card really is (``BoardLocator(cards=...)``, learnt by
:func:`refine_on_tiles` and :func:`learn_cards`), not where it should be.

>>> pts = marker_corners_board(0)
>>> pts.shape
(4, 2)
>>> [round(float(v), 2) for v in marker_centre(3)]
[-5.67, -3.28]
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

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
    #: The detected corners of ``markers`` (id -> (4, 2) pixels) the fit came from.
    seen: dict = field(default_factory=dict, compare=False, repr=False)

    def pixels_per_unit(self) -> float:
        """Approximate image scale at the board centre (tile circumradius in pixels)."""
        c = project(self.homography, np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
        return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[0])) / 2)


class BoardLocator:
    """Finds the board in frames; keeps the last good geometry while markers are hidden.

    ``min_markers`` markers must agree for a fresh fit: two markers give 8 corners, enough
    to pin a homography; fewer (hands over the rim) keeps the previous fit.
    """

    def __init__(self, min_markers: int = 2, max_error: float = 4.0, detect_scale: float = 0.5,
                 cards: dict | None = None):
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
        #: Where each card really lies on the board (id -> (4, 2) board units), learnt at
        #: calibration; cards not in it are taken at their printed spot.
        self.cards = {int(k): np.asarray(v, dtype=np.float64).reshape(4, 2) for k, v in (cards or {}).items()}
        self.last: Geometry | None = None

    def card_corners(self, marker_id: int) -> np.ndarray:
        """The corners of a card on the board: where calibration found it, else printed."""
        corners = self.cards.get(marker_id)
        return marker_corners_board(marker_id) if corners is None else corners

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
        """Homography from detected markers, or None if too few agree or it mirrors.

        Tolerances are in tile units, scaled by the image scale the markers show: a card
        laid a few millimetres off is one that agrees less well, not an outlier, and a
        board placed within a few pixels by four cards is never refused."""
        if len(found) < self.min_markers:
            return None
        ids = sorted(found)
        src = np.stack([self.card_corners(i) for i in ids])
        dst = np.stack([found[i] for i in ids])
        fitted = robust_homography(src, dst)
        if fitted is None:
            return None
        h, weights, residuals = fitted
        scale = _image_scale(dst)
        keep = residuals <= CARD_TOLERANCE * scale
        if keep.sum() < self.min_markers or not preserves_handedness(h):
            return None
        err = float(np.sqrt(np.mean(residuals[keep] ** 2)))
        if err > max(self.max_error, MAX_ERROR_UNITS * scale):
            return None
        kept = tuple(i for i, k in zip(ids, keep) if k)
        last = self.last
        if len(kept) < SPANNING_MARKERS and last is not None and len(last.markers) >= SPANNING_MARKERS:
            # Two or three cards on one side pin the far side poorly. The camera stays
            # put while the board may slide or turn on the table: fit that motion (3
            # numbers) to the last full fit instead, unless the cards say otherwise.
            slid = self._slid(last, src[keep], dst[keep])
            slid_err = float(np.sqrt(np.mean(np.sum((project(slid, src[keep].reshape(-1, 2))
                                                     - dst[keep].reshape(-1, 2)) ** 2, axis=1))))
            if preserves_handedness(slid) and slid_err <= err + max(1.0, CARDS_AGREE * scale):
                h, err = slid, slid_err
        return Geometry(h, kept, err, True, {i: found[i] for i in kept})

    @staticmethod
    def _slid(last: Geometry, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
        """``last``'s homography after the board turned and slid on the table so that the
        cards' corners ``src`` (board) land on ``dst`` (image): a rigid fit (Kabsch)."""
        p = src.reshape(-1, 2)
        q = project(np.linalg.inv(last.homography), dst.reshape(-1, 2))
        pc, qc = p.mean(axis=0), q.mean(axis=0)
        u, _, vt = np.linalg.svd((p - pc).T @ (q - qc))
        r = (u @ vt).T
        if np.linalg.det(r) < 0:
            vt[-1] *= -1
            r = (u @ vt).T
        motion = np.eye(3)
        motion[:2, :2], motion[:2, 2] = r, qc - r @ pc
        h = last.homography @ motion
        return h / h[2, 2]

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
                return Geometry(last.homography, geometry.markers, last.error, True, last.seen)
            self.last = geometry
            return geometry
        if self.last is not None:
            return Geometry(self.last.homography, (), self.last.error, False)
        return None


def _explains(geometry: Geometry, found: dict[int, np.ndarray], markers, tolerance: float = 1.5) -> bool:
    """Whether the ``markers`` seen are where they were when ``geometry`` was fitted
    (within ``tolerance`` pixels RMS): then the board has not moved."""
    if not markers or not all(i in geometry.seen for i in markers):
        return False
    before = np.concatenate([geometry.seen[i] for i in markers])
    now = np.concatenate([found[i] for i in markers])
    return float(np.sqrt(np.mean(np.sum((before - now) ** 2, axis=1)))) <= tolerance


#: A card whose corners are further than this from the fit (RMS, tile units) is not used:
#: it was moved, or is another sheet's marker. Cards laid by hand stay well inside.
CARD_TOLERANCE = 0.35
#: Scale of the weights (tile units): a card this far off counts half.
CARD_WEIGHT_SCALE = 0.08
#: A fit whose used cards are further off than this (RMS, tile units) is refused.
MAX_ERROR_UNITS = 0.2
#: Cards that agree with one another this well (RMS, tile units) lie where they are
#: printed (a printed mat, cards glued with care: 0.010-0.016 on our renders); cards
#: laid by hand ±3 mm and ±5° off disagree by 0.05 and more.
CARDS_AGREE = 0.03


def _image_scale(corners: np.ndarray) -> float:
    """Pixels per tile unit shown by detected cards ((M, 4, 2) corners): their sides."""
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=1), axis=2)
    return float(np.mean(sides)) / MARKER_SIZE


def _weighted_dlt(src: np.ndarray, dst: np.ndarray, w: np.ndarray) -> np.ndarray | None:
    """Homography minimising the weighted algebraic error, on normalised points."""
    def norm(p, wt):
        c = (p * wt[:, None]).sum(0) / wt.sum()
        d = np.sqrt((((p - c) ** 2).sum(1) * wt).sum() / wt.sum())
        k = math.sqrt(2) / max(d, 1e-12)
        return np.array([[k, 0, -k * c[0]], [0, k, -k * c[1]], [0, 0, 1.0]])
    ts, td = norm(src, w), norm(dst, w)
    s = src @ ts[:2, :2].T + ts[:2, 2]
    d = dst @ td[:2, :2].T + td[:2, 2]
    n = len(s)
    a = np.zeros((2 * n, 9))
    a[0::2, 0:2], a[0::2, 2] = s, 1
    a[0::2, 6:8], a[0::2, 8] = -d[:, :1] * s, -d[:, 0]
    a[1::2, 3:5], a[1::2, 5] = s, 1
    a[1::2, 6:8], a[1::2, 8] = -d[:, 1:] * s, -d[:, 1]
    a *= np.sqrt(np.repeat(w, 2))[:, None]
    vt = np.linalg.svd(a, full_matrices=False)[2]
    h = np.linalg.inv(td) @ vt[-1].reshape(3, 3) @ ts
    if abs(h[2, 2]) < 1e-12:
        return None
    return h / h[2, 2]


def robust_homography(src: np.ndarray, dst: np.ndarray, iterations: int = 4):
    """Board→image homography from cards' corners, ``src`` and ``dst`` of shape (M, 4, 2).

    Every card counts, weighted by how well it agrees with the others (a Cauchy weight of
    its RMS residual in tile units), so one card laid a few millimetres off pulls the fit
    a little instead of being thrown out, and one far off is ignored. Returns
    ``(h, weights, residuals)`` (per card, residuals in pixels), or None.

    >>> src = np.stack([marker_corners_board(i) for i in range(6)])
    >>> h0 = np.array([[40.0, 3, 600], [-2, 41, 480], [0.001, 0.0005, 1]])
    >>> dst = np.stack([project(h0, c) for c in src]); dst[3] += 30   # one card far off
    >>> h, w, r = robust_homography(src, dst)
    >>> bool(np.allclose(h, h0, atol=1e-6)), [round(float(v), 2) for v in w]
    (True, [1.0, 1.0, 1.0, 0.0, 1.0, 1.0])

    With four cards or fewer a homography can bend to take in one card laid far off;
    cards are then kept unless they disagree beyond the tolerance.
    """
    cards = len(src)
    s, d = src.reshape(-1, 2), dst.reshape(-1, 2)
    scale = _image_scale(dst)
    c = CARD_WEIGHT_SCALE * scale

    def card_residuals(h):
        return np.sqrt(np.mean(np.sum((project(h, s) - d) ** 2, axis=1).reshape(cards, 4), axis=1))

    tolerance = CARD_TOLERANCE * scale

    def support(h):
        """Cards within tolerance first (consensus), then how well they agree."""
        res = card_residuals(h)
        return int(np.count_nonzero(res <= tolerance)), float(np.sum(1.0 / (1.0 + (res / c) ** 2)))

    h, _ = cv2.findHomography(s, d, 0)
    # The usual frame: every card agrees with the plain fit of all of them. Only when
    # one does not, look for the cards that agree (a frame's time matters).
    if h is not None:
        res = card_residuals(h)
        if res.max() <= 0.5 * c:
            # (The weights would all be 0.8 or more: re-weighting would not move the fit.)
            return h, 1.0 / (1.0 + (res / c) ** 2), res
    if cards >= 3 and (h is None or res.max() > tolerance):
        # A first guess that ignores a card far off: consensus of whole cards (a card is
        # rigid, so its four corners agree or disagree together), from every 2 or 3 cards.
        best = (-1, -1.0) if h is None else support(h)
        for subset in itertools.combinations(range(cards), 3 if cards >= 4 else 2):
            pick = np.concatenate([np.arange(4 * k, 4 * k + 4) for k in subset])
            guess, _ = cv2.findHomography(s[pick], d[pick], 0)
            if guess is None:
                continue
            score = support(guess)
            if score > best:
                h, best = guess, score
        if h is None:
            return None
        # Start from all the cards that agree, each counting fully: a homography bent to
        # fit three cards exactly would otherwise push a fourth one out.
        inside = np.repeat(card_residuals(h) <= tolerance, 4)
        if inside.sum() >= 8:
            h = _weighted_dlt(s, d, inside.astype(np.float64))
    if h is None:
        return None
    for _ in range(iterations):
        res = card_residuals(h)
        w = 1.0 / (1.0 + (res / c) ** 2)
        w[res > tolerance] = 0.0
        if np.count_nonzero(w) < 2:
            return None
        new = _weighted_dlt(s, d, np.repeat(w, 4))
        if new is None:
            return None
        h = new
    res = card_residuals(h)
    w = 1.0 / (1.0 + (res / c) ** 2)
    w[res > tolerance] = 0.0
    return h, w, res


# --- refining on the tiles and learning where the cards lie (calibration only) ----------

#: Resolution of the tile-edge alignment, pixels per tile unit, and the half-size of
#: its window (tile units: the 37 tiles reach 5.2 + 1 units from the centre).
_EDGE_SCALE, _EDGE_HALF = 40, 6.4
#: A refinement may move no cell centre further than this (tile units); more means it
#: locked onto something else (a hand, a tile pattern), and the cards' fit is kept.
MAX_REFINE_SHIFT = 0.3


def _hex_edge_template() -> tuple[np.ndarray, np.ndarray]:
    """Where the tiles' edges are, seen from above at ``_EDGE_SCALE``, and the mask of
    the tile cluster (with a margin): a blurred line along every hexagon side."""
    size = int(2 * _EDGE_HALF * _EDGE_SCALE)
    template = np.zeros((size, size), np.float32)
    to_px = lambda p: np.round(((np.asarray(p) + _EDGE_HALF) * _EDGE_SCALE - 0.5) * 16).astype(np.int32)  # noqa: E731
    for cx, cy in CELL_CENTRES:
        corners = [(cx + math.cos(math.radians(-90 + 60 * i)), cy + math.sin(math.radians(-90 + 60 * i)))
                   for i in range(6)]
        cv2.polylines(template, [to_px(corners)], True, 1.0, 2, cv2.LINE_AA, 4)
    template = cv2.GaussianBlur(template, (0, 0), 0.06 * _EDGE_SCALE)
    # Only the edges between two tiles: the cluster's outer edge is a tile's edge on
    # one side only (the board around it), so it would pull the fit inwards.
    mask = np.zeros((size, size), np.uint8)
    for cx, cy in CELL_CENTRES:
        corners = [(cx + math.cos(math.radians(-90 + 60 * i)), cy + math.sin(math.radians(-90 + 60 * i)))
                   for i in range(6)]
        cv2.fillPoly(mask, [to_px(corners)], 255, cv2.LINE_8, 4)
    band = int(round(0.3 * _EDGE_SCALE))
    mask = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * band + 1, 2 * band + 1)))
    return template, mask


_EDGE_TEMPLATE: tuple[np.ndarray, np.ndarray] | None = None


def refine_on_tiles(image: np.ndarray, homography: np.ndarray) -> np.ndarray | None:
    """The board→image homography aligned on the tiles' own edges, or None when the
    alignment fails or would move the board too far.

    The frame's edges are viewed from above through ``homography`` and a template of
    the sides between tiles is aligned to them (``cv2.findTransformECC``: turn and
    shift first, then a full homography). Cards laid by hand off their spot leave the
    cards' fit a little off; the tiles are where the cells are. Tens of milliseconds:
    calibration only. ``image`` is BGR or grey.
    """
    h = _align_on_tiles(image, homography)
    if h is None:
        return None
    moved = project(np.linalg.inv(homography) @ h, CELL_CENTRES) - CELL_CENTRES
    if not np.isfinite(moved).all() or float(np.abs(moved).max()) > MAX_REFINE_SHIFT:
        return None
    return h if preserves_handedness(h) else None


def _align_on_tiles(gray: np.ndarray, homography: np.ndarray) -> np.ndarray | None:
    global _EDGE_TEMPLATE
    if _EDGE_TEMPLATE is None:
        _EDGE_TEMPLATE = _hex_edge_template()
    template, mask = _EDGE_TEMPLATE
    size = template.shape[0]
    to_view = np.array([[_EDGE_SCALE, 0, _EDGE_HALF * _EDGE_SCALE - 0.5],
                        [0, _EDGE_SCALE, _EDGE_HALF * _EDGE_SCALE - 0.5], [0, 0, 1.0]])
    h = np.asarray(homography, dtype=np.float64)
    ppu = Geometry(h, (), 0.0, True).pixels_per_unit()
    # Smooth to the view's resolution first, so the warp does not alias.
    sigma = max(0.5, 0.5 * ppu / _EDGE_SCALE)
    smooth = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), sigma)
    view = cv2.warpPerspective(smooth, h @ np.linalg.inv(to_view), (size, size),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    planes = cv2.split(view) if view.ndim == 3 else [view]
    edges = np.zeros((size, size), np.float32)
    for plane in planes:
        # Every colour channel: two tiles (or a tile and the gap) may differ in hue only.
        # numpy, not cv2.magnitude: OpenCV's IPP path gives different last bits from
        # call to call on the same input, and the alignment then lands differently.
        dx, dy = cv2.Sobel(plane, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(plane, cv2.CV_32F, 0, 1, ksize=3)
        edges += np.sqrt(dx * dx + dy * dy)
    # Saturate: every edge counts about the same, strong or faint. A gap between two
    # tiles has an edge on each side; if only the stronger one counted, the fit would
    # lean towards the tiles that stand out most from the gap.
    strength = float(np.percentile(edges[mask > 0], 60))
    edges = cv2.GaussianBlur(edges / (edges + max(strength, 1e-6)), (0, 0), 0.04 * _EDGE_SCALE)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-5)
    # Turn and shift first (the tiles pin them firmly and it converges from further
    # off), then the full homography.
    warp = np.eye(2, 3, dtype=np.float32)
    try:
        _, warp = cv2.findTransformECC(template, edges, warp, cv2.MOTION_EUCLIDEAN, criteria, mask, 5)
        warp = np.vstack([warp, [0, 0, 1]]).astype(np.float32)
        _, warp = cv2.findTransformECC(template, edges, warp, cv2.MOTION_HOMOGRAPHY, criteria, mask, 5)
    except cv2.error:
        return None
    refined = h @ np.linalg.inv(to_view) @ warp.astype(np.float64) @ to_view
    return refined / refined[2, 2]


def cards_on_board(homography: np.ndarray, found: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Where the detected cards lie on the board (id -> (4, 2) board units) under a fit."""
    inverse = np.linalg.inv(np.asarray(homography, dtype=np.float64))
    return {i: project(inverse, corners) for i, corners in found.items()}


#: A card learnt further than this from its printed spot (tile units, RMS) is not kept:
#: it is not the kit's card for that place.
MAX_CARD_OFFSET = 1.0


def learn_cards(views: list[tuple[np.ndarray, dict[int, np.ndarray]]]) -> dict[int, np.ndarray]:
    """Each card's true position on the board, from setup views ``(homography, found)``
    whose homography is the tiles' own (:func:`refine_on_tiles`): the per-corner median
    over the views that saw the card."""
    seen: dict[int, list[np.ndarray]] = {}
    for h, found in views:
        for i, corners in cards_on_board(h, found).items():
            seen.setdefault(i, []).append(corners)
    cards = {}
    for i, positions in seen.items():
        corners = np.median(np.stack(positions), axis=0)
        if float(np.sqrt(np.mean(np.sum((corners - marker_corners_board(i)) ** 2, axis=1)))) <= MAX_CARD_OFFSET:
            cards[i] = corners
    return cards


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

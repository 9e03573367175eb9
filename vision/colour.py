"""Colour arithmetic shared by calibration and reading (RGB floats 0..1, CIE Lab).

Lighting is modelled as a per-channel gain that varies smoothly over the board (lamps,
gradients, colour casts) and may dip locally (shadows). Colours learnt at setup are
kept as "reflectances": the colour divided by the gain measured on the tile beside it,
so they can be re-lit with the gain of any cell in any later frame.

>>> g = gain_of(np.array([[0.5, 0.4, 0.2]]), np.array([[1.0, 0.8, 0.4]]))
>>> g.round(2).tolist()
[[0.5, 0.5, 0.5]]
"""
from __future__ import annotations

import itertools

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

from .geometry import CELL_CENTRES

TILE_CLASSES = ("grass", "snow", "rock")
TILE_QUOTA = (18, 11, 7)
#: Lightness counts less than colour when comparing: shadows mostly change lightness.
LAB_WEIGHTS = np.array([0.6, 1.0, 1.0], np.float32)


def to_lab(rgb) -> np.ndarray:
    """CIE Lab of RGB colours in 0..1, any leading shape."""
    arr = np.clip(np.asarray(rgb, dtype=np.float32), 0, 1)
    shape = arr.shape
    if not arr.size:
        return arr      # (OpenCV refuses an empty image: a board where nothing changed)
    # One row of pixels: OpenCV converts row by row, and a column of one-pixel rows
    # costs twenty times as much (4.5 ms against 0.2 ms for a board's grid), same values.
    return cv2.cvtColor(arr.reshape(1, -1, 3), cv2.COLOR_RGB2Lab).reshape(shape)


#: A channel this bright may be clipped by the camera (see :func:`relit_gain`).
CLIPPED_LEVEL = 0.96
#: For dark colours (a hunter's outline) lightness is the dependable part: at low
#: lightness a little blur with a bright neighbour swings a* and b* a long way.
DARK_LAB_WEIGHTS = np.array([1.0, 0.35, 0.35], np.float32)


def lab_distance(a, b, weights=LAB_WEIGHTS) -> np.ndarray:
    """Weighted Lab distance, broadcasting over leading axes.

    >>> float(lab_distance(to_lab([1, 1, 1]), to_lab([1, 1, 1])))
    0.0
    """
    diff = (np.asarray(a, np.float32) - np.asarray(b, np.float32)) * weights
    return np.sqrt(np.einsum("...k,...k->...", diff, diff))


def _quadratic_terms(xy: np.ndarray) -> np.ndarray:
    x, y = xy[:, 0] / 6.0, xy[:, 1] / 6.0
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=1)


_TERMS = _quadratic_terms(CELL_CENTRES)


def relit_gain(local: np.ndarray, field: np.ndarray, tile_rgb: np.ndarray) -> np.ndarray:
    """The light on each cell: its tile ring's gain, unless the camera clipped it.

    A white tile under a bright lamp saturates, and a clipped channel only ever reads
    too dark: its gain is then at least what the ring says, and the smooth ``field``
    over the board says how much more. Taking it at face value would make every token
    on a white tile look the wrong colour.

    >>> local = np.array([[1.0, 1.0, 1.0], [1.1, 1.1, 1.1]])
    >>> field = np.array([[1.3, 1.3, 0.9], [1.3, 1.3, 1.3]])
    >>> relit_gain(local, field, np.array([[0.99, 0.99, 0.99], [0.5, 0.5, 0.5]])).tolist()
    [[1.3, 1.3, 1.0], [1.1, 1.1, 1.1]]
    """
    clipped = np.asarray(tile_rgb) >= CLIPPED_LEVEL
    return np.where(clipped, np.maximum(local, field), local)


def fit_gain_field(gains: np.ndarray, use: np.ndarray) -> np.ndarray:
    """Smooth per-channel gain over the board (log-quadratic in x, y), robust to outliers."""
    logs = np.log(np.clip(gains, 0.05, 20))
    keep = use.copy()
    fitted = np.repeat(np.median(logs[keep] if keep.any() else logs, axis=0, keepdims=True), len(gains), 0)
    for _ in range(2):
        if keep.sum() < 10:
            break
        coef, *_ = np.linalg.lstsq(_TERMS[keep], logs[keep], rcond=None)
        fitted = _TERMS @ coef
        resid = np.abs(logs - fitted).max(axis=1)
        keep = use & (resid < max(0.12, float(np.percentile(resid[use], 80))))
    return np.exp(fitted)


def trusted_gain_field(gains: np.ndarray, use: np.ndarray, trust: np.ndarray) -> np.ndarray:
    """:func:`fit_gain_field` with each cell's channels trusted unequally (``trust``
    (37, 3), 0..1): a tile that reflects little of a channel (grass's red and blue) says
    little about that channel of the light, a small difference in its print being a
    large change of gain, while the neutral tiles around it say it well.

    >>> gains = np.ones((37, 3)); gains[::3] = [2.0, 1.0, 1.6]           # grass, off in red and blue
    >>> trust = np.ones((37, 3)); trust[::3] = [0.05, 1.0, 0.05]
    >>> trusted_gain_field(gains, np.ones(37, bool), trust).max(axis=0).round(2).tolist()
    [1.06, 1.0, 1.04]
    >>> fit_gain_field(gains, np.ones(37, bool)).max(axis=0).round(2).tolist()
    [1.81, 1.0, 1.5]
    """
    logs = np.log(np.clip(gains, 0.05, 20))
    fitted = np.empty_like(logs)
    keep = use.copy()
    for round_ in range(3):
        for c in range(logs.shape[1]):
            weight = np.sqrt(trust[keep, c])
            if keep.sum() < 10 or round_ == 0:
                fitted[:, c] = np.average(logs[keep, c], weights=trust[keep, c] + 1e-9) if keep.any() else 0.0
                continue
            coef, *_ = np.linalg.lstsq(_TERMS[keep] * weight[:, None], logs[keep, c] * weight, rcond=None)
            fitted[:, c] = _TERMS @ coef
        resid = (np.abs(logs - fitted) * trust).max(axis=1)
        if use.sum() >= 10:
            keep = use & (resid < max(0.12, float(np.percentile(resid[use], 80))))
    return np.exp(fitted)


def gain_of(measured, reference) -> np.ndarray:
    """Per-channel gain that turns ``reference`` into ``measured`` (kept in a sane range)."""
    return np.clip(np.asarray(measured) / np.maximum(np.asarray(reference), 0.02), 0.2, 4.0)


def assign_with_quota(cost: np.ndarray, quota=TILE_QUOTA) -> np.ndarray:
    """Class per row minimising the total cost, with exactly ``quota[k]`` rows in class k.

    This is the tile-count constraint (18 grass, 11 snow, 7 rock around the cross),
    solved exactly as an assignment of cells to the 36 "slots" of the tile bag.

    >>> cost = np.array([[0, 5], [1, 4], [3, 0]], float)
    >>> assign_with_quota(cost, (1, 2)).tolist()
    [0, 1, 1]
    """
    slots = np.repeat(np.arange(len(quota)), quota)
    rows, cols = linear_sum_assignment(cost[:, slots])
    labels = np.empty(cost.shape[0], int)
    labels[rows] = slots[cols]
    return labels


#: OpenCV's k-means draws its starts from the library's global random state; each call
#: reseeds it so a table calibrates and reads the same on every run.
KMEANS_SEED = 12345


def kmeans(data: np.ndarray, k: int, attempts: int = 10, iterations: int = 20, epsilon: float = 0.5):
    """``(labels, centres)`` of ``k`` clusters of the rows of ``data`` (k-means++ starts),
    the same on every run.

    >>> labels, centres = kmeans(np.array([[0, 0], [0, 1], [9, 9], [9, 8]], np.float32), 2)
    >>> bool(labels[0] == labels[1] != labels[2] == labels[3])
    True
    """
    cv2.setRNGSeed(KMEANS_SEED)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, iterations, epsilon)
    _, labels, centres = cv2.kmeans(np.ascontiguousarray(data, np.float32), k, None, criteria, attempts,
                                    cv2.KMEANS_PP_CENTERS)
    return labels.ravel(), centres


#: Random starts of the tiles' first clustering (besides k-means), each in every naming.
RANDOM_STARTS = 24


def _starts(lab: np.ndarray, weights: np.ndarray) -> list[np.ndarray]:
    """Class centres to start the tiles' clustering from: k-means, and triples of the
    tiles' own colours (plain k-means may split the largest class in two, grass under a
    lamp's fall-off, and merge the other two), each in every naming."""
    _, km = kmeans(lab * weights, 3, attempts=8, iterations=50, epsilon=0.1)
    rng = np.random.default_rng(KMEANS_SEED)
    triples = [km / weights] + [lab[rng.choice(len(lab), 3, replace=False)] for _ in range(RANDOM_STARTS)]
    return [triple[list(perm)] for triple in triples for perm in itertools.permutations(range(3))]


def _refine(lab: np.ndarray, centres: np.ndarray, iterations: int, weights: np.ndarray):
    """k-means under the tile counts from ``centres``: ``(total, labels, centres, cost)``."""
    c = np.asarray(centres, np.float32).copy()
    for _ in range(iterations):
        cost = lab_distance(lab[:, None, :], c[None, :, :], weights) ** 2
        labels = assign_with_quota(cost)
        c = np.stack([lab[labels == k].mean(axis=0) for k in range(3)])
    cost = lab_distance(lab[:, None, :], c[None, :, :], weights) ** 2
    labels = assign_with_quota(cost)
    return float(cost[np.arange(len(labels)), labels].sum()), labels, c, cost


def cluster_tiles(lab: np.ndarray, centres: np.ndarray | None = None, iterations: int = 4,
                  weights: np.ndarray = LAB_WEIGHTS):
    """Split the 36 non-centre tile colours into grass/snow/rock under the known counts.

    Without ``centres`` (first setup frame) the classes are found by k-means and named by
    their sizes alone, so no colour is assumed; with ``centres`` (later frames) they are
    refined from the calibration's. Returns ``(labels, centres, cost)``.
    """
    lab = np.asarray(lab, np.float32)
    starts = [np.asarray(centres, np.float32)] if centres is not None else _starts(lab, weights)
    best = min((_refine(lab, start, iterations, weights) for start in starts), key=lambda r: r[0])
    return best[1], best[2], best[3]


#: Lightness hardly counts in one of the first clusterings: a lamp's fall-off can make a
#: far snow tile as dark as a near rock tile, while their hue and strength stay.
HUE_FIRST_WEIGHTS = np.array([0.15, 1.0, 1.0], np.float32)
#: A tile's cost is capped at this (squared ΔE) when labellings are compared: a ring a
#: lamp's glare or a print's blotch makes unlike any class must not decide the board.
_COST_CAP = 400.0


#: What a labelling that names a tile as a class it cannot be (:func:`cluster_tiles_under_light`'s
#: ``ruled_out``) costs: more than any labelling that does not.
_RULED_OUT_COST = 1e6


def cluster_tiles_under_light(rgb: np.ndarray, cells: np.ndarray, rounds: int = 4,
                              ruled_out: np.ndarray | None = None):
    """The tiles' classes (as :func:`cluster_tiles`) from their ring colours ``rgb`` (37
    rows, RGB 0..1) on the ``cells`` given (a mask over the 37) when the light over the
    board is unknown: three prints seen under one light that varies smoothly.

    From every first clustering (:func:`_starts`, with lightness and nearly without: a
    lamp's fall-off can make a far snow tile as dark as a near rock tile, and split the
    grass in two) labelling and light are fitted in turn under the tile counts: each
    class's colour is the median of its tiles, each tile's gain against its class colour
    is fitted as a smooth field over the board (:func:`fit_gain_field`, robust to a few
    strays) and the tiles, that light divided out, are labelled again. The labelling whose
    re-lit tiles lie nearest their class colours wins, among those whose prints are
    plausible when there are any (:func:`_plausible_prints`). Returns ``(labels, cost)`` for the
    masked cells, in their order (cost: squared weighted ΔE to each class, re-lit).

    ``ruled_out`` (masked cells × 3 classes, bools): classes a tile cannot be, whatever
    its colour (a hunter was seen put down on it: no hunter stands on rock); a labelling
    that names one so loses to every labelling that does not.
    """
    rgb = np.clip(np.asarray(rgb, np.float64), 0, 1)
    lab = to_lab(rgb[cells])
    seen, best = set(), {}
    for weights in (LAB_WEIGHTS, HUE_FIRST_WEIGHTS):
        for start in _starts(lab, weights):
            labels = _refine(lab, start, 2, weights)[1]
            for _ in range(rounds):
                if labels.tobytes() in seen:
                    break
                seen.add(labels.tobytes())
                cost = _relit_cost(rgb, cells, labels)
                total = labelling_cost(cost, labels)
                if ruled_out is not None:
                    total += _RULED_OUT_COST * int(ruled_out[np.arange(len(labels)), labels].sum())
                    cost = np.where(ruled_out, _RULED_OUT_COST, cost)
                plausible = _plausible_prints(lab, labels)
                if plausible not in best or total < best[plausible][0]:
                    best[plausible] = (total, labels, cost)
                labels = assign_with_quota(cost)
    _, labels, cost = best.get(True, best.get(False))
    return labels, cost


def _plausible_prints(lab: np.ndarray, labels: np.ndarray) -> bool:
    """Whether the tiles a labelling names snow look lighter than those it names rock and
    those it names grass (medians). A desk lamp's fall-off, fitted as light, can explain
    white snow as dark rock under a dim light, or as grass under a bright one, at a lower
    cost than the true layout (sim.tabletop development tables 5,000,093 and 5,000,185),
    but on every set the snow is the lightest print. (Not the grass's colour: a white
    tile under a tinted light can show more chroma than a dull green print.)"""
    lightness = [np.median(lab[labels == k, 0]) for k in range(3)]
    snow = TILE_CLASSES.index("snow")
    return bool(all(lightness[snow] > lightness[k] for k in range(3) if k != snow))


def labelling_cost(cost: np.ndarray, labels: np.ndarray) -> float:
    """The total of each tile's cost (:func:`cluster_tiles_under_light`) in its class,
    each capped (a glare spot does not decide): what labellings are compared by.

    >>> labelling_cost(np.array([[1.0, 900.0], [900.0, 4.0]]), np.array([1, 1]))
    404.0
    """
    return float(np.minimum(cost[np.arange(len(labels)), labels], _COST_CAP).sum())


def _relit_cost(rgb: np.ndarray, cells: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Squared ΔE of each masked tile to each class colour once the light that
    ``labels`` implies is divided out."""
    refs = np.stack([np.median(rgb[cells][labels == k], axis=0) for k in range(3)])
    full = np.zeros(len(rgb), int)
    full[cells] = labels
    field = fit_gain_field(gain_of(rgb, refs[full]), cells)
    relit = to_lab(np.clip(rgb / field, 0, 1)[cells])
    return lab_distance(relit[:, None, :], to_lab(refs)[None, :, :]) ** 2


def margin_confidence(best: np.ndarray, second: np.ndarray, scale: float = 8.0) -> np.ndarray:
    """Confidence from how much the runner-up loses by (distances, same units).

    >>> margin_confidence(np.array([2.0]), np.array([40.0])).round(3).tolist()
    [0.991]
    """
    return 1.0 - np.exp(-np.maximum(np.asarray(second) - np.asarray(best), 0) / scale)

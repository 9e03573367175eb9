"""Reading a frame in stages: locate the board, read the tiles, measure the light, then
the pieces, with confidences and occlusion.

1. :meth:`BoardReader.locate`: where the board is, each cell's tile ring and probe grid;
2. :meth:`BoardReader.tiles`: the tile ring, never covered by a token, tells the tile;
3. :meth:`BoardReader.light`: ... and the cell's light; cells whose tile ring does not
   look like their tile (a hand, an arm, a sleeve) are occluded and their pieces not read;
4. the pieces, by the calibration's model: the kit's outlined tokens or the players'
   figures (:class:`vision.tokens.TokenReader`), or what each piece changes on its cell's
   empty look (:mod:`vision.changes`).

Colours are compared after re-lighting the calibration's reflectances with the gain
measured on the cell's own tile ring, so gradients, casts and shadows cancel out. A
standing piece leans away from the camera's foot on the board (parallax,
:func:`figure_leans`): points of known piece colours on a neighbour's tile ring do not
make it occluded.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine.hexgrid import CENTRE, NEIGHBOURS, NUM_CELLS, cell_name

from .calibration import FIGURE_LAB_WEIGHTS, Calibration
from .changes import covered_cells, frame_changes, read_changes, sample_grid
from .cell_model import LABELS, SecondOpinion, cell_crops
from .colour import (TILE_CLASSES, assign_with_quota, cluster_tiles, fit_gain_field, gain_of, lab_distance,
                     relit_gain, margin_confidence, to_lab)
from .geometry import CELL_CENTRES, BoardLocator, CellSampler, mirror_frame
from .pose import CameraPose
from .observation import Observation
from .together import place_together
from .tokens import FIGURE_MATCH, TokenReader

#: A tile-ring point further than this (weighted ΔE) from its expected tile is foreign.
FOREIGN_DISTANCE = 24.0
#: Share of foreign tile-ring points that makes a cell occluded.
OCCLUDED_SHARE = 0.15
#: ... or this share when a neighbouring cell is clearly covered.
WEAK_SHARE = 0.06
#: A tall figure (tile circumradii: 3.5 cm on 2.5 cm tile radii).
FIGURE_HEIGHT = 1.4
#: A tile-ring point this bright in every channel is clipped by the camera; a cell with
#: this share of such points is under a lamp's hotspot (reported, see :func:`light_advice`).
GLARE_LEVEL = 0.985
GLARE_SHARE = 0.3
#: A tile-ring point within this (ΔE) of a tile class's colour shows the tile; the
#: ring's colour is taken from those when at least TILE_POINTS_KEPT of them do.
TILE_POINT = 25.0
TILE_POINTS_KEPT = 0.3
#: Reading the tiles, a cell leaves its setup class only when its tile ring is nearer
#: another class's colour by about this (ΔE).
LAYOUT_MARGIN = 15.0
#: A cell read with less confidence than this is unsure: the tracker waits rather than
#: commit a board on it (pieces read by their changes, :mod:`vision.changes`).
UNSURE = 0.1


def figure_leans(homography: np.ndarray, frame_shape) -> np.ndarray:
    """(37, 2): where the top of a figure FIGURE_HEIGHT tall standing on each cell is
    seen on the board's plane, from its base (board units; :mod:`vision.pose`)."""
    pose = CameraPose.from_homography(homography, (frame_shape[1], frame_shape[0]))
    return pose.lean(CELL_CENTRES, FIGURE_HEIGHT) - CELL_CENTRES


def tile_ring_colours(ring: np.ndarray, refs: np.ndarray, inside: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's tile colour from its tile ring (``ring`` (37, n, 3) RGB), and which
    share of the ring shows each tile class ((37, 3)). The colour is the median of the
    ring's points that show one of the tile classes' colours (``refs``, (3, 3) under
    the setup's light) under the board's light now: a large piece overhanging the ring
    (a figure, a star wider than its cell) is left out, where a median of the whole ring
    would take its colour once it covers half the ring. When fewer than
    :data:`TILE_POINTS_KEPT` of the points show a tile class, the whole ring's median is
    kept (the reader then sees the cell as covered).

    >>> refs = np.array([[0.2, 0.5, 0.2], [0.9, 0.9, 0.9], [0.4, 0.35, 0.3]])
    >>> ring = np.repeat(refs[[0, 1, 2] * 12 + [0]][:, None, :], 20, axis=1)
    >>> ring[3, :12] = [0.8, 0.1, 0.1]                         # a red piece over 12 of 20
    >>> colour, shares = tile_ring_colours(ring, refs, np.ones(37, bool))
    >>> colour[3].round(2).tolist(), shares[3].round(2).tolist()
    ([0.2, 0.5, 0.2], [0.4, 0.0, 0.0])
    """
    median = np.median(ring, axis=1)
    ref_lab = to_lab(refs)
    nearest = lab_distance(to_lab(median)[:, None, :], ref_lab[None]).argmin(axis=1)
    light = fit_gain_field(gain_of(median, refs[nearest]), inside)
    classes = to_lab(np.clip(refs[None, :, :] * light[:, None, :], 0, 1))              # (37, 3, 3)
    dist = lab_distance(to_lab(ring)[:, :, None, :], classes[:, None, :, :])          # (37, n, 3)
    near = dist.min(axis=2) < TILE_POINT
    shares = np.stack([(near & (dist.argmin(axis=2) == k)).mean(axis=1) for k in range(len(refs))], axis=1)
    enough = near.mean(axis=1) >= TILE_POINTS_KEPT
    own = median_of_kept(ring, near | ~enough[:, None])
    return np.where(np.isfinite(own), own, median), shares


def median_of_kept(values: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """Each row's median ``(m, 3)`` of its ``values`` ``(m, n, 3)`` where ``kept``
    ``(m, n)`` (NaN for a row with none kept): ``np.nanmedian``'s values, a fifth of
    its time (one sort, rather than a masked median row by row).

    >>> values = np.arange(12, dtype=float).reshape(2, 2, 3)
    >>> median_of_kept(values, np.array([[True, True], [False, True]])).tolist()
    [[1.5, 2.5, 3.5], [9.0, 10.0, 11.0]]
    """
    ordered = np.sort(np.where(kept[..., None], values, np.inf), axis=1)
    count = kept.sum(axis=1)
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0)[:, None, None] // 2, axis=1)[:, 0]
    high = np.take_along_axis(ordered, (count // 2)[:, None, None], axis=1)[:, 0]
    with np.errstate(invalid="ignore"):
        middle = (low + high) / 2
    return np.where((count > 0)[:, None], middle, np.nan)


@dataclass(frozen=True)
class TileReading:
    """What the tile rings say: their median colour (RGB and Lab), each cell's tile class
    (index into ``TILE_CLASSES``; the cross reads as snow) and its confidence."""
    median: np.ndarray
    lab: np.ndarray
    classes: np.ndarray
    confidence: np.ndarray


@dataclass(frozen=True)
class Light:
    """Each cell's light (``gain``, (37, 3): per channel, against the setup's colours),
    the cells hidden under a hand or an object, lamp-clipped cells and the whites' level."""
    gain: np.ndarray
    occluded: np.ndarray
    glare: tuple
    level: float


class BoardReader:
    """Turns camera frames into :class:`Observation` s using one set's calibration.

    With ``lock_tiles`` the layout learnt at setup is kept (the tracker's case) and only
    confirmed; otherwise the tiles are read from each frame under the count constraint.
    """

    def __init__(self, calibration: Calibration, lock_tiles: bool = False):
        self.calibration = calibration
        self.lock_tiles = lock_tiles
        self.locator = BoardLocator(cards=calibration.cards)
        self.sampler = CellSampler()
        #: The learned cell classifier's word on which cells hold a piece (None: no model
        #: shipped, or the empty board was not seen); cells it disputes are unsure.
        self.second_opinion = SecondOpinion.for_calibration(calibration)
        self.labels = list(calibration.hunters)
        self._tile_refs = np.array([calibration.tile_colours[k] for k in TILE_CLASSES])
        self._tile_ref_lab = to_lab(self._tile_refs)
        self.tokens = TokenReader(calibration, self.sampler)

    # -- public ---------------------------------------------------------------------------
    def read(self, frame: np.ndarray, timestamp: float | None = None) -> Observation:
        """One observation; never raises on a bad frame (it reports ``board_found=False``)."""
        timestamp = time.time() if timestamp is None else float(timestamp)
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
            return self._nothing(timestamp)
        if self.calibration.mirrored:
            frame = mirror_frame(frame)
        try:
            geometry, first, inside = self.locate(frame)
            if geometry is None:
                return self._nothing(timestamp)
            # The classifier's word, once a frame: the changes reader weighs its trap odds,
            # and cells it disputes afterwards are unsure.
            # (The board's crops are taken once: the owner model looks at the same ones.)
            crops = None if self.second_opinion is None else cell_crops(frame, geometry.homography)
            odds = None if crops is None else self.second_opinion.board(frame, geometry.homography, crops)
            observation = self._interpret(frame, geometry.homography, first, inside, geometry.fresh, timestamp, odds,
                                          crops)
            if odds is not None and observation.board_found:
                observation = self.second_opinion.check(frame, geometry.homography, observation, odds)
            return observation
        except (cv2.error, np.linalg.LinAlgError):
            # A degenerate frame (e.g. a homography that folds the board): wait for the next.
            return self._nothing(timestamp)

    # -- steps ----------------------------------------------------------------------------
    def _nothing(self, timestamp: float) -> Observation:
        return Observation(timestamp, False, False, None, None, None, {}, {}, (0.0,) * NUM_CELLS,
                           tuple(range(NUM_CELLS)))

    def _read_tiles(self, tile_lab: np.ndarray, shares: np.ndarray | None = None):
        """Tile class per cell (0..2; the cross is snow), its confidence and class centres."""
        others = np.array([c for c in range(NUM_CELLS) if c != CENTRE])
        classes = np.full(NUM_CELLS, TILE_CLASSES.index("snow"))
        conf = np.ones(NUM_CELLS)
        if self.lock_tiles:
            names = self.calibration.tiles
            classes = np.array([TILE_CLASSES.index("snow" if n == "cross" else n) for n in names])
            _, centres, cost = cluster_tiles(tile_lab[others], self._tile_ref_lab, iterations=1)
        else:
            labels, centres, cost = cluster_tiles(tile_lab[others], self._tile_ref_lab)
            # The tiles never move: the setup's layout stands unless cells clearly show
            # another class (a piece over a tile ring shows some other colour). A ring
            # that still shows its setup class on a good share of it is that tile:
            # pieces cover a tile, they do not repaint it.
            setup = np.array([TILE_CLASSES.index("snow" if n == "cross" else n) for n in self.calibration.tiles])
            own = np.eye(3, dtype=bool)[setup[others]]
            margin = np.full(len(others), LAYOUT_MARGIN ** 2)
            if shares is not None:
                margin[shares[others, setup[others]] >= TILE_POINTS_KEPT] = 1e6
            prior = np.where(own, 0.0, margin[:, None])
            labels = assign_with_quota(cost + prior)
            classes[others] = labels
        dist = np.sqrt(cost)
        mine = dist[np.arange(len(others)), classes[others]]
        other = np.where(np.eye(3, dtype=bool)[classes[others]], np.inf, dist).min(axis=1)
        conf[others] = margin_confidence(mine, other)
        return classes, conf, centres

    def _interpret(self, frame, homography, first, inside, fresh: bool, timestamp: float,
                   odds: np.ndarray | None = None, crops: np.ndarray | None = None) -> Observation:
        """The reader's stages after :meth:`locate`: :meth:`tiles`, :meth:`light`, then the
        pieces by the calibration's model (``odds``: the learned classifier's, when shipped,
        on the board's ``crops``)."""
        tiles = self.tiles(first, inside)
        light = self.light(first, inside, tiles)
        self._glare, self._light_level = light.glare, light.level
        if self.calibration.pieces == "changes":
            return self._read_changes(frame, homography, timestamp, fresh, tiles.classes, tiles.confidence,
                                      light.occluded, inside, odds, crops)
        return self._read_tokens(frame, homography, first, tiles, light, fresh, timestamp)

    def locate(self, frame: np.ndarray):
        """Stage 1: where the board is in the frame (:class:`vision.geometry.Geometry`, or
        None), and the cells' tile rings and probe grids sampled through it."""
        geometry = self.locator.locate(frame)
        if geometry is None:
            return None, None, None
        first, inside = self.sampler.sample(frame, geometry.homography, ("tile", "probe"))
        return geometry, first, inside

    def tiles(self, first, inside=None) -> TileReading:
        """Stage 2: each cell's tile class from its tile ring (locked to the setup's layout
        with ``lock_tiles``), with a confidence."""
        median, shares = tile_ring_colours(first["tile"], self._tile_refs,
                                           np.ones(NUM_CELLS, bool) if inside is None else inside)
        lab = to_lab(median)
        classes, confidence, _ = self._read_tiles(lab, shares)
        return TileReading(median, lab, classes, confidence)

    def light(self, first, inside, tiles: TileReading) -> Light:
        """Stage 3: each cell's light (per-channel gain against the setup's tile colour) and
        the cells a hand or an object hides (their tile ring unlike their tile)."""
        tile_med, classes = tiles.median, tiles.classes
        glare = tuple(int(c) for c in np.flatnonzero(
            (first["tile"].min(axis=2) >= GLARE_LEVEL).mean(axis=1) >= GLARE_SHARE))
        # The board's whites: the brightest tiles' rings (a board too dark to read).
        level = float(np.percentile(tile_med.max(axis=1), 90))
        refs = self._tile_refs[classes]                       # (37, 3) setup colour of each tile
        local_gain = gain_of(tile_med, refs)
        # Occlusion: the tile ring must look like its tile under the smooth board light.
        # (Token colours get no exemption: skin can look like a brown mammoth.)
        first_guess = fit_gain_field(local_gain, inside)
        expected_lab = to_lab(np.clip(refs * first_guess, 0, 1))
        ring_lab = to_lab(first["tile"])
        foreign = lab_distance(ring_lab, expected_lab[:, None, :]) > FOREIGN_DISTANCE
        if self.calibration.pieces == "figures":
            # A standing piece leans over its neighbours' tile rings: its own colours
            # there are not a hand.
            pieces_lab = self.tokens.pieces_lab(first_guess)
            near_piece = (lab_distance(ring_lab[:, :, None, :], pieces_lab[:, None, :, :], FIGURE_LAB_WEIGHTS)
                          < FIGURE_MATCH).any(axis=2)
            foreign &= ~near_piece
        share = foreign.mean(axis=1)
        # Hysteresis: a clearly covered cell makes its lightly touched neighbours count
        # too (the edge of a hand), while a lone light touch (a sloppily placed trap
        # reaching the ring, a token's edge) does not.
        strong = (share > OCCLUDED_SHARE) | ~inside
        touched = share > WEAK_SHARE
        near_strong = np.array([any(n is not None and strong[n] for n in NEIGHBOURS[c]) for c in range(NUM_CELLS)])
        occluded = strong | (touched & near_strong)
        # Per-cell light: the cell's own tile ring unless it is covered.
        field = fit_gain_field(local_gain, ~occluded)
        gain = np.where(occluded[:, None], field, relit_gain(local_gain, field, tile_med))
        return Light(gain, occluded, glare, level)

    def _read_tokens(self, frame, homography, first, tiles: TileReading, light: Light, fresh: bool,
                     timestamp: float) -> Observation:
        """Stage 4 for the kit's tokens and for figures (:class:`vision.tokens.TokenReader`)."""
        if self.calibration.pieces == "figures":
            evidence = self.tokens.evidence(frame, homography, first["probe"], tiles.lab, light.gain)
            pieces = self.tokens.figures(evidence, light.occluded, figure_leans(homography, frame.shape))
        else:
            # The kit's flat tokens are told by their colours under the light the tiles
            # around say, not by what one tile's print says of a channel it barely shows.
            gain = self.tokens.piece_light(light.gain, light.occluded, tiles.classes)
            evidence = self.tokens.evidence(frame, homography, first["probe"], tiles.lab, gain)
            pieces = self.tokens.kit(evidence, light.occluded, tiles.classes)
        occluded = light.occluded | pieces.unreadable
        return self._observation(timestamp, fresh, tiles.classes, tiles.confidence, occluded, pieces.mammoth,
                                 pieces.hunters, pieces.traps, np.where(occluded, 0.0, pieces.confidence))

    def _read_changes(self, frame, homography, timestamp, fresh, classes, tile_conf, ring_foreign,
                      inside, odds=None, crops=None) -> Observation:
        """Pieces as what they change on each cell's empty look (:mod:`vision.changes`),
        with the learned classifier's ``odds`` (:data:`vision.cell_model.LABELS`) when shipped."""
        by_label = {} if odds is None else {f"{name}_odds": odds[:, k] for k, name in enumerate(LABELS)}
        likeness = None
        if odds is not None:
            for question in self.second_opinion.fine:
                by_label[f"{question}_odds"] = self.second_opinion.fine_answers(question, frame, homography)
            owner = by_label["owner_odds"] = self.second_opinion.owner_answers(frame, homography, crops)
            likeness = None if owner is None else owner.likeness
        grid = sample_grid(frame, homography)
        grass = classes == TILE_CLASSES.index("grass")
        leans = figure_leans(homography, frame.shape)
        measured = frame_changes(self.calibration.changes, grid, self.labels, leans)
        # Each cell's own empty look tells better than its tile class whether it is
        # covered: a tile ring unlike its class that shows learnt pieces is no hand.
        occluded = covered_cells(self.calibration.changes, measured, ring_foreign, inside)
        # (A board all covered is read as its tile rings say, and reported all hidden.)
        readable = ~ring_foreign if occluded.all() else ~occluded
        seen = read_changes(self.calibration.changes, grid, readable, grass, self.labels, leans,
                            measured=measured, **by_label)
        # (The models' odds of this frame are each computed once, whichever rule asks.)
        seen = place_together(seen, grass, self.labels, owner_likeness=likeness, piece_lab=measured.piece_lab,
                              **by_label)
        cell_conf = np.where(occluded, 0.0, seen.confidence)
        observation = self._observation(timestamp, fresh, classes, tile_conf, occluded, seen.mammoth, seen.hunters,
                                        seen.traps, cell_conf)
        unsure = tuple(int(c) for c in np.flatnonzero(~occluded & (seen.confidence < UNSURE)))
        return replace(observation, unsure_cells=unsure) if unsure else observation

    def _observation(self, timestamp, fresh, classes, tile_conf, occluded, mammoth, hunters, traps, cell_conf):
        names = tuple("cross" if c == CENTRE else TILE_CLASSES[classes[c]] for c in range(NUM_CELLS))
        if self.lock_tiles:
            names = tuple(self.calibration.tiles)
        occluded_cells = tuple(int(c) for c in np.flatnonzero(occluded))
        return Observation(
            timestamp=timestamp,
            board_found=True,
            occluded=bool(occluded_cells) or not fresh,
            tiles=names,
            tile_confidence=tuple(round(float(v), 4) for v in np.where(occluded, 0.0, tile_conf)),
            mammoth=mammoth,
            hunters=hunters,
            traps=traps,
            cell_confidence=tuple(round(float(v), 4) for v in cell_conf),
            occluded_cells=occluded_cells,
            glare_cells=self._glare,
            light_level=round(self._light_level, 4),
        )


def observation_to_json(obs: Observation) -> dict:
    """The ``maamut read --json`` form: cells as ``"q,r"``, confidences per cell."""
    return {
        "board_found": obs.board_found,
        "occluded": obs.occluded,
        "tiles": None if obs.tiles is None else {cell_name(i): t for i, t in enumerate(obs.tiles)},
        "mammoth": None if obs.mammoth is None else cell_name(obs.mammoth),
        "hunters": {k: cell_name(v) for k, v in sorted(obs.hunters.items())},
        "traps": {cell_name(c): o for c, o in sorted(obs.traps.items())},
        "confidence": {cell_name(i): v for i, v in enumerate(obs.cell_confidence)},
        "tile_confidence": None if obs.tile_confidence is None else
        {cell_name(i): v for i, v in enumerate(obs.tile_confidence)},
        "occluded_cells": [cell_name(c) for c in obs.occluded_cells],
        # Only when there is something to say: the contract's keys stay as they were.
        **({"glare_cells": [cell_name(c) for c in obs.glare_cells], "light_advice": light_advice(obs.glare_cells)}
           if obs.glare_cells else {}),
        **({"unsure_cells": [cell_name(c) for c in obs.unsure_cells]} if obs.unsure_cells else {}),
    }


_COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")


def glare_direction(glare_cells) -> str:
    """Where on the board a lamp's hotspot is: a compass point, or ``"middle"``.

    >>> from engine.hexgrid import parse_cell
    >>> glare_direction([parse_cell("0,3"), parse_cell("1,2")])
    'south-east'
    >>> glare_direction([parse_cell("0,0")])
    'middle'
    """
    x, y = CELL_CENTRES[list(glare_cells)].mean(axis=0)
    if np.hypot(x, y) < 1.5:
        return "middle"
    # Board y points south: the compass angle is measured with north up.
    return _COMPASS[int(round(np.degrees(np.arctan2(-y, x)) / 45.0)) % 8]


def light_advice(glare_cells) -> str | None:
    """What to tell the players when a lamp's hotspot clips the tiles, or None.

    >>> from engine.hexgrid import parse_cell
    >>> light_advice([parse_cell("0,3"), parse_cell("1,2")])
    'too bright over the south-east: lower or move the lamp'
    >>> light_advice([]) is None
    True
    """
    cells = list(glare_cells)
    if not cells:
        return None
    where = glare_direction(cells)
    where = "the middle of the board" if where == "middle" else "the " + where
    return f"too bright over {where}: lower or move the lamp"


def dumps(obs: Observation) -> str:
    return json.dumps(observation_to_json(obs), sort_keys=True)

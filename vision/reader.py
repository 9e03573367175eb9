"""Reading a frame: tiles and tokens per cell, with confidences and occlusion.

For each cell the reader looks at rings (see ``geometry.ZONES``) and a dense probe grid:
the tile ring, never covered by a token, tells the tile and the local light; the core
and trap rings tell the tokens' colours, and the probe grid tells where the tokens lie
and whether a hunter's dark outline ("rim") surrounds the core, looked for in every
direction around the token (:func:`outline_share`). The kit's tokens are told apart by
layout, not by one set of colours:

========================  ========  =======  ========
token(s) on the cell      core      rim      trap
========================  ========  =======  ========
nothing                   tile      tile     tile
hunter of colour k        k         rim      tile
trap of colour j          j / tile  j / tile j
hunter k on trap j        k         rim      j
mammoth                   mammoth   mammoth  mammoth
========================  ========  =======  ========

Colours are compared after re-lighting the calibration's reflectances with the gain
measured on the cell's own tile ring, so gradients, casts and shadows cancel out.
Cells whose tile ring does not look like their tile (a hand, an arm, a sleeve) are
reported as occluded and their tokens are not read.

The players' own pieces (``calibration.pieces == "figures"``: pawns, meeples, a mammoth
figure, no outline) are read by :meth:`BoardReader._read_figures` instead: every probe
point is matched with the tile, the mammoth and each hunter colour, and a piece stands
on the cell whose *base disc* shows its colour. A standing piece leans away from the
camera's foot on the board (parallax): its top lands on the neighbouring cell's edge,
never in that cell's base disc, and points of known piece colours on a neighbour's tile
ring do not make it occluded.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine.hexgrid import CENTRE, NEIGHBOURS, NUM_CELLS, cell_name

from .calibration import FIGURE_LAB_WEIGHTS, Calibration, median_zones
from .changes import read_changes, sample_grid
from .cell_model import SecondOpinion
from .colour import (DARK_LAB_WEIGHTS, TILE_CLASSES, assign_with_quota, cluster_tiles, fit_gain_field, gain_of, lab_distance,
                     relit_gain,
                     margin_confidence, to_lab)
from .geometry import CELL_CENTRES, ZONE_OFFSETS, BoardLocator, CellSampler, centroid_offsets, mirror_frame
from .pose import CameraPose
from .observation import Observation

#: A tile-ring point further than this (weighted ΔE) from its expected tile is foreign.
FOREIGN_DISTANCE = 24.0
#: Share of foreign tile-ring points that makes a cell occluded.
OCCLUDED_SHARE = 0.15
#: ... or this share when a neighbouring cell is clearly covered.
WEAK_SHARE = 0.06
#: A zone whose colour is this far from every candidate is something foreign.
UNKNOWN_DISTANCE = 30.0
MAX_TRAPS_PER_COLOUR = 4
#: Share of the directions around a token in which its dark outline must be seen.
RIM_SHARE = 0.25
#: The outline is looked for between these radii around the token (tile circumradii),
#: in this many directions.
RIM_BAND = (0.12, 0.48)
RIM_SECTORS = 12
#: A hunter's core: the probe points this close to his middle (tile circumradii).
CORE_RADIUS = 0.1
#: The farthest a hunter's outline reaches from the cell's centre (its corners, put down
#: off-centre), in tile circumradii.
HUNTER_REACH = 0.55
#: Half-width of the cross printed on the centre tile: not a calibrated colour.
CROSS_HALF_WIDTH = 0.12
#: Share of trap-ring points that must show a player colour for a trap.
TRAP_SHARE = 0.35
#: Figures: a piece stands on the cell whose base disc (this radius, tile circumradii)
#: shows at least FIGURE_SHARE of its colour; the mammoth's base disc is wider.
FIGURE_BASE = 0.38
#: A tall figure (tile circumradii: 3.5 cm on 2.5 cm tile radii), and how far towards a
#: neighbour its top must be seen for that neighbour's base disc to show its colour
#: (1.73 between centres, less the base disc's 0.38 and the head's own half-width).
FIGURE_HEIGHT = 1.4
LEAN_REACH = 1.2
MAMMOTH_BASE = 0.5
FIGURE_SHARE = 0.15
MAMMOTH_SHARE = 0.2
#: A tile-ring point this bright in every channel is clipped by the camera; a cell with
#: this share of such points is under a lamp's hotspot (reported, see :func:`light_advice`).
GLARE_LEVEL = 0.985
GLARE_SHARE = 0.3
#: Figures' traps: a trap-ring point this far from its tile votes for the nearest hue.
TRAP_UNLIKE_TILE = 15.0
HUE_WEIGHTS = np.array([0.15, 1.0, 1.0], np.float32)
#: A hunter on his own colour's plate: the plate's lightness spread (Lab L, P90 - P10)
#: is at least this, and this many times the other plates' of that colour.
STACK_SPREAD = 12.0
STACK_RATIO = 1.8
#: ... or the base disc (share of his colour) of one of his traps is at least
#: RING_STANDING and STACK_RATIO times his other traps' (counted as RING_BARE at least):
#: a figure standing in the middle of a ring trap (measured: 0.58-0.65, bare rings 0-0.21).
RING_STANDING = 0.3
RING_BARE = 0.1
#: A probe point is of a piece's colour when nearer it than the tile and within this.
FIGURE_MATCH = 30.0
#: Kit hunters beside others on one cell or on the mammoth's token (not centred on
#: their cell): a patch of at least this many probe points of the hunter's colour that
#: fills this share of the points within PATCH_CENTRE of its middle, with the outline
#: around it.
PATCH_POINTS = 5
PATCH_CENTRE = 0.13
PATCH_FILLED = 0.6
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
#: The mammoth's token under a hunter: this share of its trap ring still shows it.
MAMMOTH_UNDER = 0.45


_PROBE = ZONE_OFFSETS["probe"]
_OFF_CROSS = (np.abs(_PROBE[:, 0]) > CROSS_HALF_WIDTH) & (np.abs(_PROBE[:, 1]) > CROSS_HALF_WIDTH)
_NEAR_MIDDLE = np.hypot(_PROBE[:, 0], _PROBE[:, 1]) <= HUNTER_REACH
_PROBE_RADIUS = np.hypot(_PROBE[:, 0], _PROBE[:, 1])


def outline_share(rimness: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Share of directions around each token in which some probe point looks like the rim.

    ``rimness`` (37, n) is, per probe point, how much nearer it is to the rim colour than
    to anything else the token could show there; ``centres`` (37, 2) is where the token
    lies. A hunter's outline is a closed band, so it shows in every direction whatever
    its shape and wherever it was put down; a sample ring at fixed radii misses a
    square's sides or an off-centre token. Looking in directions rather than counting
    points keeps blur (which eats a thin band's points) from hiding it.

    >>> rim = np.full((NUM_CELLS, len(_PROBE)), -1.0)
    >>> ring = np.abs(np.hypot(*_PROBE.T) - 0.3) < 0.05
    >>> rim[5, ring] = 1.0
    >>> share = outline_share(rim, np.zeros((NUM_CELLS, 2)))
    >>> float(share[5]), float(share[6])
    (1.0, 0.0)
    """
    rel = _PROBE[None, :, :] - centres[:, None, :]
    radius = np.hypot(rel[..., 0], rel[..., 1])
    band = (radius >= RIM_BAND[0]) & (radius <= RIM_BAND[1])
    band[CENTRE] &= _OFF_CROSS
    sector = ((np.arctan2(rel[..., 1], rel[..., 0]) + np.pi) * (RIM_SECTORS / (2 * np.pi))).astype(int) % RIM_SECTORS
    onehot = (sector[..., None] == np.arange(RIM_SECTORS)) & band[..., None]          # (37, n, S)
    looked = onehot.any(axis=1)
    seen = (onehot & (rimness[..., None] > 0)).any(axis=1)
    return seen.sum(axis=1) / np.maximum(looked.sum(axis=1), 1)


def figure_leans(homography: np.ndarray, frame_shape) -> np.ndarray:
    """(37, 2): where the top of a figure FIGURE_HEIGHT tall standing on each cell is
    seen on the board's plane, from its base (board units; :mod:`vision.pose`)."""
    pose = CameraPose.from_homography(homography, (frame_shape[1], frame_shape[0]))
    return pose.lean(CELL_CENTRES, FIGURE_HEIGHT) - CELL_CENTRES


def base_cell(cell: int, score: np.ndarray, leans: np.ndarray | None) -> int:
    """The cell a figure stands on, given the cell whose base disc shows most of his
    colour (``score``, per cell): a neighbour that also shows it, and whose figure's top
    would be seen over ``cell`` (the camera looks at it from that side), is where he stands.

    >>> top, foot = CENTRE, NEIGHBOURS[CENTRE][0]
    >>> score = np.zeros(NUM_CELLS); score[[top, foot]] = 0.4, 0.3
    >>> leans = np.zeros((NUM_CELLS, 2)); leans[foot] = CELL_CENTRES[top] - CELL_CENTRES[foot]
    >>> base_cell(top, score, leans) == foot, base_cell(top, score, None), base_cell(top, score, -leans) == top
    (True, 18, True)
    """
    if leans is None:
        return cell
    for n in NEIGHBOURS[cell]:
        if n is None or score[n] < FIGURE_SHARE / 2:
            continue
        step = CELL_CENTRES[cell] - CELL_CENTRES[n]
        lean = leans[n]
        reach = float(np.dot(lean, step) / np.linalg.norm(step))
        if reach >= LEAN_REACH and reach >= 0.8 * np.linalg.norm(lean):
            return int(n)
    return cell


def densest_middle(points: np.ndarray, radius: float = 0.18) -> np.ndarray:
    """The middle of the densest patch among ``points`` (n, 2): a token's colour is packed
    where it lies, while the same colour's odd points in textured tile art are scattered
    (a median of them all would land between the two).

    >>> pts = np.array([[0.4, 0.1], [0.45, 0.15], [0.5, 0.1], [0.45, 0.05], [-0.5, -0.4], [0.0, -0.6]])
    >>> densest_middle(pts).round(2).tolist()
    [0.45, 0.1]
    """
    gap = np.hypot(points[:, None, 0] - points[None, :, 0], points[:, None, 1] - points[None, :, 1])
    seed = points[int(np.argmax((gap <= radius).sum(axis=1)))]
    return points[np.hypot(*(points - seed).T) <= radius].mean(axis=0)


def _outline_around(rimness_cell: np.ndarray, middle: np.ndarray, cell: int) -> float:
    """:func:`outline_share` of one cell's probe points around ``middle``."""
    rel = _PROBE - middle
    radius = np.hypot(rel[:, 0], rel[:, 1])
    band = (radius >= RIM_BAND[0]) & (radius <= RIM_BAND[1])
    if cell == CENTRE:
        band &= _OFF_CROSS
    sector = ((np.arctan2(rel[:, 1], rel[:, 0]) + np.pi) * (RIM_SECTORS / (2 * np.pi))).astype(int) % RIM_SECTORS
    looked = np.unique(sector[band])
    seen = np.unique(sector[band & (rimness_cell > 0)])
    return seen.size / max(looked.size, 1)


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
    kept = np.where(near[..., None], ring, np.nan)
    with np.errstate(all="ignore"):
        own = np.nanmedian(np.where(enough[:, None, None], kept, ring), axis=1)
    return np.where(np.isfinite(own), own, median), shares


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
        # Candidate reflectances for tokens: mammoth, then each hunter colour.
        self._token_refl = np.array([calibration.mammoth] + [calibration.hunters[k] for k in self.labels])
        self._rim_refl = np.array(calibration.rim)
        # Traps: each player's own colour when setup showed one, else the hunter's.
        self._trap_refl = np.array([calibration.mammoth] + [calibration.traps.get(k, calibration.hunters[k])
                                                            for k in self.labels])

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
            observation = self._interpret(frame, geometry.homography, first, inside, geometry.fresh, timestamp)
            if self.second_opinion is not None and observation.board_found:
                observation = self.second_opinion.check(frame, geometry.homography, observation)
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

    def _interpret(self, frame, homography, first, inside, fresh: bool, timestamp: float) -> Observation:
        """The reader's stages after :meth:`locate`: :meth:`tiles`, :meth:`light`, then the
        pieces by the calibration's model."""
        tiles = self.tiles(first, inside)
        light = self.light(first, inside, tiles)
        self._glare, self._light_level = light.glare, light.level
        if self.calibration.pieces == "changes":
            return self._read_changes(frame, homography, timestamp, fresh, tiles.classes, tiles.confidence,
                                      light.occluded, inside)
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
            pieces_lab = to_lab(np.clip(self._token_refl[None, :, :] * first_guess[:, None, :], 0, 1))
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
        """Stage 4 for the kit's tokens and for figures: rings, outlines and base discs."""
        tile_lab, classes, tile_conf = tiles.lab, tiles.classes, tiles.confidence
        occluded, gain = light.occluded.copy(), light.gain
        figures = self.calibration.pieces == "figures"
        tokens_lab = to_lab(np.clip(self._token_refl[None, :, :] * gain[:, None, :], 0, 1))  # (37, 1+H, 3)
        rim_lab = to_lab(np.clip(self._rim_refl[None, :] * gain, 0, 1))                      # (37, 3)
        tile_here = tile_lab[:, None, :]
        cands = np.concatenate([tile_here, tokens_lab], axis=1)                            # tile, mammoth, hunters
        # Where do the tokens lie? Everything unlike the tile pulls the trap/mammoth
        # rings; rim-coloured points alone place the hunter's core and rim.
        probe = to_lab(first["probe"])
        token_shift = centroid_offsets(np.clip(lab_distance(probe, tile_here) - 12, 0, 30), 30 * 6)
        # Outline points are judged on lightness first: blur lightens a thin dark band
        # and tints it. Columns: tile, mammoth, hunters, rim.
        d_dark = lab_distance(probe[:, :, None, :], np.concatenate([cands, rim_lab[:, None, :]], axis=1)[:, None],
                              DARK_LAB_WEIGHTS)
        # A point of the outline is more like the rim than like the tile or any hunter
        # colour. The mammoth does not compete: a dark mammoth would win the blurred
        # outline's points. Only near the middle: a hunter's outline lies within
        # HUNTER_REACH of the cell's centre, dark tile gaps and the board's edge further out.
        contest = d_dark.copy()
        contest[:, :, 1] = np.inf
        rim_votes = ((contest.argmin(axis=2) == d_dark.shape[2] - 1) & _NEAR_MIDDLE).astype(np.float32)
        hunter_shift = centroid_offsets(rim_votes, 6)
        few = rim_votes.sum(axis=1) < 6
        hunter_shift[few] = token_shift[few]
        second, _ = self.sampler.sample(frame, homography, ("core", "trap"),
                                        {"core": hunter_shift, "trap": token_shift})
        med = median_zones(second)
        d_core = lab_distance(to_lab(med["core"])[:, None, :], cands)
        if self.calibration.traps:
            trap_cands = np.concatenate(
                [tile_here, to_lab(np.clip(self._trap_refl[None, :, :] * gain[:, None, :], 0, 1))], axis=1)
        else:
            trap_cands = cands
        d_trap = lab_distance(to_lab(med["trap"])[:, None, :], trap_cands)
        k_core, k_trap = d_core.argmin(1), d_trap.argmin(1)
        # Something matching nothing we know is over the cell (a finger tip, a die...).
        # (The thin rim ring blends colours, so it is left out of this test.)
        # Trap ring, point by point: a ring trap shows the tile through its hole and a
        # hunter on it may lean over part of the ring, so a median would blend them.
        trap_pts = lab_distance(to_lab(second["trap"])[:, :, None, :], trap_cands[:, None, :, :])   # (37, n, K)
        trap_votes = np.stack([(trap_pts.argmin(axis=2) == k).mean(axis=1) for k in range(cands.shape[1])], axis=1)
        trap_rim = lab_distance(to_lab(second["trap"]), rim_lab[:, None, :])
        # Hunters' outlines reach the trap ring when they stand off the middle; a plate
        # is only what shows there beyond them (a near-black plate is not the outline).
        nearest_or_rim = np.concatenate([trap_pts, trap_rim[:, :, None]], axis=2).argmin(axis=2)
        plate_votes = np.stack([(nearest_or_rim == k).mean(axis=1) for k in range(cands.shape[1])], axis=1)
        trap_unknown = (np.minimum(trap_pts.min(axis=2), trap_rim) > UNKNOWN_DISTANCE).mean(axis=1) > 0.5
        # The outline is known too: between two hunters side by side the core shows it.
        # Between three of them the core's median blends colours: it is unknown only if
        # its points are too.
        # A plate of a player's own trap colour fills the core too.
        known = np.concatenate([cands, rim_lab[:, None, :]] + ([trap_cands[:, 2:]] if self.calibration.traps else []),
                               axis=1)
        d_core_known = lab_distance(to_lab(med["core"])[:, None, :], known).min(axis=1)
        core_pts = lab_distance(to_lab(second["core"])[:, :, None, :], known[:, None, :, :]).min(axis=2)
        core_unknown = (d_core_known > UNKNOWN_DISTANCE) & ((core_pts > UNKNOWN_DISTANCE).mean(axis=1) > 0.5)
        unknown = core_unknown | trap_unknown
        if figures:
            leans = figure_leans(homography, frame.shape)
            unknown, fig = self._read_figures(probe, cands, trap_votes, occluded, to_lab(second["trap"]), trap_cands,
                                              leans)
        # The cross's printed mark is not a calibrated colour: only its tile ring counts.
        unknown[CENTRE] = False
        occluded |= unknown
        readable = ~occluded
        # The outline: a probe point looks like the rim when it is nearer the rim colour
        # than both the tile and the colour seen in the core (which is also what a trap
        # plate of that colour shows around a hunter standing on it, so a hunter on his
        # own trap is told from the trap alone by his outline only). Directions are
        # taken around the centre of everything on the cell, which for a lone trap is
        # the plate's centre: no outline can be found on a plain plate.
        d_core_colour = np.take_along_axis(d_dark, k_core[:, None, None], axis=2)[..., 0]
        rimness = np.minimum(d_dark[:, :, 0], d_core_colour) - d_dark[:, :, -1]
        rim_share = outline_share(rimness, token_shift)
        has_rim = rim_share >= RIM_SHARE
        # The cross's print in a dark colour shows outline-like points all over its cell;
        # a hunter's outline surrounds a core of his colour, never itself. (Only there:
        # beside a near-black hunter, another's core may well look like an outline.)
        mid = np.hypot(*(_PROBE - hunter_shift[CENTRE]).T) <= CORE_RADIUS
        if (rimness[CENTRE, mid] > 0).mean() >= 0.5:
            has_rim[CENTRE] = False

        def conf_of(d):
            part = np.sort(d, axis=1)
            return margin_confidence(part[:, 0], part[:, 1])

        # The outline only decides anything where the core shows a hunter's colour.
        rim_conf = np.where(k_core >= 2, np.clip(np.abs(rim_share - RIM_SHARE) * 3, 0, 1), 1.0)
        trap_share = trap_votes[:, 2:].max(axis=1) if trap_votes.shape[1] > 2 else np.zeros(NUM_CELLS)
        trap_conf = np.clip(np.abs(trap_share - TRAP_SHARE) * 4, 0, 1)
        cell_conf = np.minimum(np.minimum(conf_of(d_core), rim_conf), np.minimum(conf_of(d_trap), trap_conf))
        cell_conf = np.where(readable, cell_conf, 0.0)

        if figures:
            mammoth, hunters, traps = fig["mammoth"], fig["hunters"], fig["traps"]
            cell_conf = np.where(readable, fig["confidence"], 0.0)
            return self._observation(timestamp, fresh, classes, tile_conf, occluded, mammoth, hunters, traps,
                                     cell_conf)
        mammoth = None
        figure_mammoth = self.calibration.mammoth_kind == "figure"
        if figure_mammoth:
            # A standing figure among the kit's tokens: it does not cover its cell.
            mammoth = self._figure_mammoth(probe, cands, readable)
        # Hunters: a hunter colour in the core inside a rim; one cell per colour.
        hunters: dict[str, int] = {}
        for h, label in enumerate(self.labels):
            idx = 2 + h
            cells = np.flatnonzero(readable & (k_core == idx) & has_rim)
            if figure_mammoth:
                cells = cells[cells != (mammoth if mammoth is not None else -1)]
            if cells.size:
                hunters[label] = int(cells[np.argmin(d_core[cells, idx] - rim_share[cells] * 20)])
        patches = {}
        if len(hunters) < len(self.labels):
            patches = self._hunters_off_centre(probe, d_dark, readable, hunters, plate_votes)
            hunters.update({label: cell for label, (cell, _) in patches.items()})
        if not figure_mammoth:
            # The kit's mammoth covers its cell's trap ring; its core shows the mammoth,
            # or a hunter standing on the token. Hunters side by side show their outline
            # between them, dark like some mammoths, but hide the trap ring's.
            with_hunter = np.isin(np.arange(NUM_CELLS), list(hunters.values()))
            alone = (k_core == 1) & (k_trap == 1)
            mammoth_cells = np.flatnonzero(readable & (trap_votes[:, 1] >= MAMMOTH_UNDER)
                                           & (alone | with_hunter | ((k_core >= 2) & has_rim)))
            if mammoth_cells.size:
                score = trap_votes[mammoth_cells, 1] - 0.002 * (d_core[mammoth_cells, 1] + d_trap[mammoth_cells, 1])
                mammoth = int(mammoth_cells[np.argmax(score)])
        # Traps: a hunter colour on enough of the trap ring (at most 4 per colour).
        traps: dict[int, str] = {}
        # Hunters off the middle (side by side, on the mammoth) cover part of the trap
        # ring with their own colours: only the ring's points beyond them can show a
        # trap under them. Each lies where the points of his colour are.
        off_middle = {cell for cell in hunters.values() if list(hunters.values()).count(cell) > 1}
        off_middle |= {cell for cell, _ in patches.values()}
        if off_middle:
            near = d_dark.argmin(axis=2)
            ring = ZONE_OFFSETS["trap"]
            beyond = {}
            for label, cell in hunters.items():
                if cell not in off_middle:
                    continue
                mine = (near[cell] == 2 + self.labels.index(label)) & _NEAR_MIDDLE
                middle = patches[label][1] if label in patches else (
                    np.median(_PROBE[mine], axis=0) if mine.any() else hunter_shift[cell])
                away = np.hypot(*(ring + token_shift[cell] - middle).T) > HUNTER_REACH - 0.1
                beyond[cell] = beyond.get(cell, True) & away
            for cell, keep in beyond.items():
                nearest = trap_pts[cell].argmin(axis=1)
                trap_votes[cell] = [(nearest[keep] == k).mean() if keep.sum() >= 6 else 0.0
                                    for k in range(trap_votes.shape[1])]
        best_colour = 2 + trap_votes[:, 2:].argmax(axis=1) if trap_votes.shape[1] > 2 else np.zeros(NUM_CELLS, int)
        # Traps go on grass only (the rules): on snow or the cross, a player colour on the
        # trap ring is a hunter's (two side by side reach it).
        grass = classes == TILE_CLASSES.index("grass")
        for h, label in enumerate(self.labels):
            idx = 2 + h
            cells = np.flatnonzero(readable & grass & (best_colour == idx) & (trap_votes[:, idx] >= TRAP_SHARE)
                                   & (np.arange(NUM_CELLS) != (mammoth if mammoth is not None else -1)))
            cells = cells[np.argsort(-trap_votes[cells, idx])][:MAX_TRAPS_PER_COLOUR]
            for c in cells:
                traps[int(c)] = label
        return self._observation(timestamp, fresh, classes, tile_conf, occluded, mammoth, hunters, traps, cell_conf)

    def _read_changes(self, frame, homography, timestamp, fresh, classes, tile_conf, ring_foreign,
                      inside) -> Observation:
        """Pieces as what they change on each cell's empty look (:mod:`vision.changes`)."""
        grid = sample_grid(frame, homography)
        grass = classes == TILE_CLASSES.index("grass")
        leans = figure_leans(homography, frame.shape)
        seen = read_changes(self.calibration.changes, grid, ~ring_foreign, grass, self.labels, leans)
        # Each cell's own empty look tells better than its tile class whether it is
        # covered: a tile ring unlike its class that shows learnt pieces is no hand.
        occluded = (ring_foreign & seen.ring_changed) | ~inside | seen.unknown
        if (occluded != ring_foreign).any() and not occluded.all():
            seen = read_changes(self.calibration.changes, grid, ~occluded, grass, self.labels, leans)
            occluded = occluded | seen.unknown
        cell_conf = np.where(occluded, 0.0, seen.confidence)
        observation = self._observation(timestamp, fresh, classes, tile_conf, occluded, seen.mammoth, seen.hunters,
                                        seen.traps, cell_conf)
        unsure = tuple(int(c) for c in np.flatnonzero(~occluded & (seen.confidence < UNSURE)))
        return replace(observation, unsure_cells=unsure) if unsure else observation

    def _hunters_off_centre(self, probe, d_dark, readable, found, trap_votes) -> dict[str, tuple]:
        """Kit hunters the core rings missed, ``{label: (cell, middle)}``: two or three
        side by side on one cell, or one standing off the middle of the mammoth's token
        (``middle``: where his patch lies, board units from the cell's centre).

        Each is a compact patch of his colour, wherever it lies on the cell, with the dark
        outline seen around the patch's middle. A trap plate of that colour (under another
        hunter or alone) is not compact: its colour surrounds the middle instead.
        ``d_dark`` (37, P, K+1) are the probe points' distances to tile, mammoth, hunter
        colours and rim, lightness counting most. A cell whose trap ring shows his colour
        holds his plate: his colour there is the plate's (standing on it, centred, he is
        found by the core rings).
        """
        near = d_dark.argmin(axis=2)
        within = _PROBE_RADIUS <= HUNTER_REACH + 0.2
        out: dict[str, int] = {}
        for h, label in enumerate(self.labels):
            idx = 2 + h
            if label in found:
                continue
            mine = (near == idx) & (d_dark[:, :, idx] < UNKNOWN_DISTANCE) & within        # (37, P)
            count = mine.sum(axis=1)
            cells = np.flatnonzero(readable & (count >= PATCH_POINTS) & (trap_votes[:, idx] < TRAP_SHARE))
            best, best_score = None, 0.0
            for cell in cells:
                # (The cross's print can pack a hunter's colour on its arms: there the
                # patch is taken whole.)
                pts = _PROBE[mine[cell]]
                middle = np.median(pts, axis=0) if cell == CENTRE else densest_middle(pts)
                # A hunter's colour fills the middle of his patch; a plate's colour around
                # another hunter leaves it to him.
                centre = np.hypot(*(_PROBE - middle).T) <= PATCH_CENTRE
                if not centre.any() or mine[cell, centre].mean() < PATCH_FILLED:
                    continue
                rimness = (np.minimum(d_dark[cell, :, 0], d_dark[cell, :, idx]) - d_dark[cell, :, -1])
                share = float(_outline_around(rimness, middle, cell))
                if share >= RIM_SHARE and share * count[cell] > best_score:
                    best, best_score = (int(cell), middle), share * count[cell]
            if best is not None:
                out[label] = best
        return out

    def _read_figures(self, probe, cands, trap_votes, occluded, trap_lab, trap_cands, leans=None):
        """Pieces of any shape: ``(unknown, {mammoth, hunters, traps, confidence})``.

        ``probe`` (37, P, 3) Lab; ``cands`` (37, K, 3) Lab of tile, mammoth, hunters under
        each cell's light; ``trap_cands`` the same with each player's trap colour;
        ``leans`` (37, 2) where a tall figure's top is seen from its base (board units,
        :func:`figure_leans`).
        Shading on a piece in relief changes lightness most, so lightness counts little
        (``FIGURE_LAB_WEIGHTS``).
        """
        d = lab_distance(probe[:, :, None, :], cands[:, None, :, :], FIGURE_LAB_WEIGHTS)   # (37, P, K)
        best = d.argmin(axis=2)
        match = d.min(axis=2) < FIGURE_MATCH
        n_k = cands.shape[1]
        base = _PROBE_RADIUS <= FIGURE_BASE
        wide = _PROBE_RADIUS <= MAMMOTH_BASE
        share_base = np.stack([((best == k) & match & base).sum(axis=1) for k in range(n_k)], axis=1) / base.sum()
        share_wide = np.stack([((best == k) & match & wide).sum(axis=1) for k in range(n_k)], axis=1) / wide.sum()
        # Something of no known colour over much of the cell (a hand, a die). (A piece
        # of a colour not learnt yet, put down at setup, is found by what changed:
        # :func:`vision.calibration.moved_between`.)
        unknown = ((~match) & wide).sum(axis=1) / wide.sum() > 0.5
        unknown[CENTRE] = False
        readable = ~(occluded | unknown)
        mammoth = self._figure_mammoth(probe, cands, readable, share_wide)
        # Traps by hue: a trap-ring point unlike the tile votes for the piece colour of
        # nearest hue. The colour was learnt from a hunter in relief, whose shading
        # pulls its lightness (and a little its saturation) from the flat plate's.
        unlike_tile = lab_distance(trap_lab, cands[:, None, 0, :]) > TRAP_UNLIKE_TILE
        hue = lab_distance(trap_lab[:, :, None, :], trap_cands[:, None, 1:, :], HUE_WEIGHTS).argmin(axis=2) + 1
        trap_votes = np.stack([np.zeros(NUM_CELLS)] + [(unlike_tile & (hue == k)).mean(axis=1)
                                                       for k in range(1, n_k)], axis=1)
        trap_colour = 2 + trap_votes[:, 2:].argmax(axis=1) if n_k > 2 else np.zeros(NUM_CELLS, int)
        trap_share = trap_votes[:, 2:].max(axis=1) if n_k > 2 else np.zeros(NUM_CELLS)
        has_trap = trap_share >= TRAP_SHARE
        hunters: dict[str, int] = {}
        for h, label in enumerate(self.labels):
            idx = 2 + h
            # A plate of the hunter's own colour fills the base disc and the trap ring
            # alike: that is a trap (a hunter on his own trap is not told from it yet).
            own_plate = has_trap & (trap_colour == idx)
            score = np.where(readable & ~own_plate, share_base[:, idx], 0.0)
            if mammoth is not None:
                score[mammoth] = 0.0
            if score.max() >= FIGURE_SHARE:
                hunters[label] = base_cell(int(np.argmax(score)), score, leans)
        traps: dict[int, str] = {}
        for h, label in enumerate(self.labels):
            idx = 2 + h
            cells = np.flatnonzero(readable & (trap_colour == idx) & has_trap
                                   & (np.arange(NUM_CELLS) != (mammoth if mammoth is not None else -1)))
            cells = cells[np.argsort(-trap_votes[cells, idx])][:MAX_TRAPS_PER_COLOUR]
            for c in cells:
                traps[int(c)] = label
            if label not in hunters and cells.size:
                # Not seen anywhere else: he may stand on a plate of his own colour. A
                # piece in relief shades its sides and casts a shadow on the plate, so
                # that plate's colour varies in lightness far more than a lone one's.
                spread = np.array([self._lightness_spread(probe[c], cands[c], idx) for c in cells])
                best = int(np.argmax(spread))
                others = np.delete(spread, best)
                if spread[best] >= STACK_SPREAD and (not others.size
                                                     or spread[best] >= STACK_RATIO * np.median(others)):
                    hunters[label] = int(cells[best])
                    continue
                # A ring trap leaves its middle bare: a base disc there full of his colour,
                # where his other rings show little, is him standing in one.
                base = share_base[cells, idx]
                best = int(np.argmax(base))
                others = np.delete(base, best)
                if (others.size and base[best] >= RING_STANDING
                        and base[best] >= STACK_RATIO * max(float(np.median(others)), RING_BARE)):
                    hunters[label] = int(cells[best])
        piece = share_base[:, 2:].max(axis=1) if n_k > 2 else np.zeros(NUM_CELLS)
        confidence = np.minimum(np.clip(np.abs(trap_share - TRAP_SHARE) * 4, 0, 1),
                                np.clip(np.abs(piece - FIGURE_SHARE) * 6, 0, 1))
        return unknown, {"mammoth": mammoth, "hunters": hunters, "traps": traps, "confidence": confidence}

    @staticmethod
    def _figure_mammoth(probe, cands, readable, share_wide=None) -> int | None:
        """The cell whose wide base disc shows most of the mammoth's colour, if enough."""
        if share_wide is None:
            # Against the hunters' colours too: a trap plate, flat and lit unlike the
            # kit's disc its colour was learnt from, may still be nearer the mammoth's
            # than the tile's, but not nearer than its own player's.
            d = lab_distance(probe[:, :, None, :], cands[:, None, :, :], FIGURE_LAB_WEIGHTS)
            wide = _PROBE_RADIUS <= MAMMOTH_BASE
            mine = (d.argmin(axis=2) == 1) & (d[:, :, 1] < FIGURE_MATCH) & wide
            share = mine.sum(axis=1) / wide.sum()
        else:
            share = share_wide[:, 1]
        score = np.where(readable, share, 0.0)
        return int(np.argmax(score)) if score.max() >= MAMMOTH_SHARE else None

    @staticmethod
    def _lightness_spread(probe_cell, cands_cell, idx) -> float:
        """P90 - P10 of the lightness of a cell's points of hue ``idx`` (0 if few)."""
        near = probe_cell[_PROBE_RADIUS <= 0.6]
        hue = lab_distance(near[:, None, :], cands_cell[None, 1:, :], HUE_WEIGHTS).argmin(axis=1) + 1
        lightness = near[hue == idx, 0]
        if lightness.size < 12:
            return 0.0
        lo, hi = np.percentile(lightness, [10, 90])
        return float(hi - lo)

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

"""The printed cardboard: illustrated hex tiles, the cross tile, the kit's cards, a board.

Everything here is drawn seen from straight above, on canvases in board units at
``SCALE`` pixels a unit (x east, y south; a tile's circumradius is one unit), and put
under the camera by :mod:`sim.tabletop.scene`. Each tile is drawn on its own patch, then
laid a little off its place and turn, as hands lay tiles.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from engine.core import Tile
from engine.hexgrid import NUM_CELLS, pixel_of
from vision.geometry import ARUCO_DICTIONARY, BOARD_RADIUS, MARKER_IDS

from .lens import card_outline
from .style import TableLook, TilePrint

#: Canvas pixels per board unit.
SCALE = 64
#: The tiles' canvas covers this many units either side of the centre; the cards' the next.
TILE_EXTENT = 6.6
CARD_EXTENT = BOARD_RADIUS + 0.3
_SHIFT = 4
_PATCH = 2 * int(math.ceil(1.12 * SCALE))      # one tile's square patch, pixels


def _bgr(rgb) -> tuple[float, float, float]:
    return (float(rgb[2]), float(rgb[1]), float(rgb[0]))


def _scaled(rgb, k: float) -> tuple[float, float, float]:
    return tuple(float(min(255.0, max(0.0, c * k))) for c in _bgr(rgb))


def _fixed(points) -> np.ndarray:
    return np.round(np.asarray(points, np.float64) * (1 << _SHIFT)).astype(np.int32).reshape(-1, 2)


def _fill(img, points, colour) -> None:
    cv2.fillPoly(img, [_fixed(points)], colour, cv2.LINE_AA, _SHIFT)


def rounded_hexagon(radius: float, corner: float, turn: float = 0.0, steps: int = 5) -> np.ndarray:
    """A pointy-top hexagon's outline with die-cut rounded corners (board units, centred)."""
    points = []
    for k in range(6):
        a = math.radians(-90 + 60 * k) + turn
        cx, cy = (radius - corner / math.cos(math.radians(30))) * math.cos(a), \
            (radius - corner / math.cos(math.radians(30))) * math.sin(a)
        for j in range(steps):
            b = a + math.radians(-30 + 60 * j / max(steps - 1, 1))
            points.append((cx + corner * math.cos(b), cy + corner * math.sin(b)))
    return np.array(points)


def _palette(rgb, rng, n: int, hue: float, val: tuple[float, float]) -> list[tuple[float, float, float]]:
    """``n`` shades around a printed colour (BGR), as an illustrator's brush picks them."""
    hsv = cv2.cvtColor(np.uint8([[rgb]]), cv2.COLOR_RGB2HSV_FULL)[0, 0].astype(float)
    out = []
    for _ in range(n):
        h = (hsv[0] + rng.uniform(-hue, hue) * 255) % 256
        s = np.clip(hsv[1] * rng.uniform(0.8, 1.2), 0, 255)
        v = np.clip(hsv[2] * rng.uniform(*val), 0, 255)
        bgr = cv2.cvtColor(np.uint8([[[h, s, v]]]), cv2.COLOR_HSV2BGR_FULL)[0, 0]
        out.append(tuple(float(c) for c in bgr))
    return out


def _base(rgb, rng) -> np.ndarray:
    """A patch of the print's colour with a gentle gradient and mottling."""
    yy, xx = np.mgrid[0:_PATCH, 0:_PATCH].astype(np.float32) / _PATCH - 0.5
    a = rng.uniform(0, 2 * math.pi)
    mottle = cv2.resize(rng.normal(0, 1, (5, 5)).astype(np.float32), (_PATCH, _PATCH),
                        interpolation=cv2.INTER_CUBIC)
    shade = 1 + 0.12 * (xx * math.cos(a) + yy * math.sin(a)) + 0.05 * mottle
    return np.clip(np.array(_bgr(rgb), np.float32) * shade[..., None], 0, 255).astype(np.uint8)


# -- the tiles' illustrations -------------------------------------------------------------------

def _grass(tp: TilePrint, rng: np.random.Generator) -> np.ndarray:
    """Meadow: many small strokes or leaves in several greens, a few flowers."""
    img = _base(tp.grass, rng)
    greens = _palette(tp.grass, rng, 6, 0.04, (0.6, 1.35))
    pts = rng.uniform(0, _PATCH, (700, 2))
    if tp.grass_style == "blades":
        # Single blades, then tufts of three to five fanning out from one root.
        roots = np.concatenate([pts[:300], np.repeat(pts[300:420], 4, axis=0)])
        fan = np.concatenate([np.zeros(300), np.tile((-0.5, -0.17, 0.17, 0.5), 120)])
        angle = np.radians(-90 + rng.normal(0, 22, len(roots))) + fan
        length = rng.uniform(3, 9, len(roots))
        tips = roots + length[:, None] * np.stack([np.cos(angle), np.sin(angle)], axis=1)
        widths = rng.integers(1, 3, len(roots)).tolist()
        shades = rng.integers(0, 6, len(roots)).tolist()
        for a, b, w, g in zip(_fixed(roots).tolist(), _fixed(tips).tolist(), widths, shades):
            cv2.line(img, a, b, greens[g], w, cv2.LINE_AA, _SHIFT)
    else:
        for x, y in pts[300:700]:
            axes = (rng.uniform(2.0, 5.5), rng.uniform(1.0, 2.2))
            angle = rng.uniform(0, 360)
            colour = greens[int(rng.integers(6))]
            cv2.ellipse(img, ((float(x), float(y)), (2 * axes[0], 2 * axes[1]), angle), colour, -1, cv2.LINE_AA)
            if axes[0] > 4:
                vein = tuple(c * 0.75 for c in colour)
                d = (axes[0] * 0.8 * math.cos(math.radians(angle)), axes[0] * 0.8 * math.sin(math.radians(angle)))
                cv2.line(img, _fixed((x - d[0], y - d[1]))[0], _fixed((x + d[0], y + d[1]))[0], vein, 1,
                         cv2.LINE_AA, _SHIFT)
    flowers = [(40, 210, 240), (245, 245, 245), (200, 120, 230), (230, 160, 90)]
    for x, y in pts[:int(rng.integers(0, 12))] if rng.random() < 0.7 else []:
        cv2.circle(img, _fixed((x, y))[0], int(rng.uniform(1.0, 2.2) * 16), flowers[int(rng.integers(4))], -1,
                   cv2.LINE_AA, _SHIFT)
    return img


def _snow(tp: TilePrint, rng: np.random.Generator) -> np.ndarray:
    """Snowfield: blue-grey shading in soft drifts, sparkles."""
    img = _base(tp.snow, rng).astype(np.float32)
    shade = np.zeros((_PATCH, _PATCH), np.float32)
    for _ in range(int(rng.integers(4, 8))):
        centre = tuple(float(v) for v in rng.uniform(0, _PATCH, 2))
        axes = (float(rng.uniform(10, 40)), float(rng.uniform(6, 18)))
        cv2.ellipse(shade, (centre, axes, float(rng.uniform(0, 180))), 1.0, -1, cv2.LINE_AA)
    for _ in range(int(rng.integers(3, 7))):               # drift crests: a shaded arc under a bright rim
        centre = _fixed(rng.uniform(0, _PATCH, 2))[0]
        axes = (int(rng.uniform(15, 45) * 16), int(rng.uniform(5, 15) * 16))
        start = rng.uniform(180, 260)
        cv2.ellipse(shade, tuple(centre), axes, 0, start, start + rng.uniform(40, 100), 0.9,
                    int(rng.integers(2, 5)), cv2.LINE_AA, _SHIFT)
    shade = cv2.GaussianBlur(shade, (0, 0), 4.0) * rng.uniform(0.35, 0.65)
    tint = np.array(_bgr(tp.snow_shade), np.float32)
    img = img * (1 - shade[..., None]) + tint * shade[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    for x, y in rng.uniform(0, _PATCH, (int(rng.integers(15, 45)), 2)):
        p = _fixed((x, y))[0]
        cv2.circle(img, tuple(p), 16, (255, 255, 255), -1, cv2.LINE_AA, _SHIFT)
        if rng.random() < 0.3:                              # a star-shaped glint
            r = rng.uniform(2, 4)
            for dx, dy in ((r, 0), (0, r)):
                cv2.line(img, _fixed((x - dx, y - dy))[0], _fixed((x + dx, y + dy))[0], (255, 255, 255), 1,
                         cv2.LINE_AA, _SHIFT)
    return img


def _cracked(tp: TilePrint, rng: np.random.Generator) -> np.ndarray:
    """Rock as slabs split by cracks (a Voronoi of the patch)."""
    img = _base(tp.rock, rng)
    subdiv = cv2.Subdiv2D((-_PATCH, -_PATCH, 3 * _PATCH, 3 * _PATCH))
    for p in rng.uniform(0, _PATCH, (int(rng.integers(10, 24)), 2)):
        subdiv.insert((float(p[0]), float(p[1])))
    facets, centres = subdiv.getVoronoiFacetList([])
    shades = _palette(tp.rock, rng, 8, 0.02, (0.72, 1.2))
    crack = _scaled(tp.rock, 0.35)
    for facet, centre in zip(facets, centres):
        colour = shades[int(rng.integers(8))]
        _fill(img, facet, colour)
        inner = centre + (facet - centre) * 0.7 - 2.0           # the slab's face catches the print's light
        _fill(img, inner, tuple(min(255.0, c * 1.1) for c in colour))
    for facet in facets:
        cv2.polylines(img, [_fixed(facet)], True, crack, int(rng.integers(1, 3)), cv2.LINE_AA, _SHIFT)
    return img


def _pebbles(tp: TilePrint, rng: np.random.Generator) -> np.ndarray:
    """Rock as a scree of pebbles, each with its shadow and highlight."""
    img = (_base(tp.rock, rng).astype(np.float32) * 0.7).astype(np.uint8)
    shades = _palette(tp.rock, rng, 8, 0.03, (0.75, 1.3))
    stones = [(rng.uniform(0, _PATCH, 2), rng.uniform(4, 13)) for _ in range(int(rng.integers(70, 110)))]
    for (x, y), r in sorted(stones, key=lambda s: -s[1]):
        a, squash = float(rng.uniform(0, 180)), rng.uniform(0.55, 0.95)
        axes = (2 * r, 2 * r * squash)
        colour = shades[int(rng.integers(8))]
        cv2.ellipse(img, ((float(x + 1.5), float(y + 1.5)), axes, a), _scaled(tp.rock, 0.3), -1, cv2.LINE_AA)
        cv2.ellipse(img, ((float(x), float(y)), axes, a), colour, -1, cv2.LINE_AA)
        cv2.ellipse(img, ((float(x - r / 3), float(y - r / 3)), (axes[0] * 0.4, axes[1] * 0.35), a),
                    tuple(min(255.0, c * 1.25) for c in colour), -1, cv2.LINE_AA)
    return img


def _cross(tp: TilePrint, rng: np.random.Generator) -> np.ndarray:
    """The cross tile: a compass rose, a cross pattée, a saltire, a ringed cross or arrows."""
    img = _base(tp.cross_ground, rng)
    c = np.array([_PATCH / 2, _PATCH / 2])
    r = rng.uniform(0.55, 0.78) * SCALE
    turn = math.radians(60 * int(rng.integers(6)) + rng.uniform(-4, 4))
    ink, ink2 = _bgr(tp.cross_ink), _bgr(tp.cross_ink2)
    light = tuple(min(255.0, v * 1.6 + 40) for v in ink)

    def arm(k: float, length: float, width: float, inner: float = 0.0) -> np.ndarray:
        a = turn + k * math.pi / 2
        d, n = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        return d, n, c + d * inner, c + d * length

    motif = tp.cross_motif
    if motif == "compass":
        for k in range(4):                          # long points, each half light and half dark
            d, n, _, tip = arm(k, r, 0)
            side = c + n * r * 0.18
            other = c - n * r * 0.18
            _fill(img, [c, tip, side], ink)
            _fill(img, [c, tip, other], light)
            d2, n2, _, tip2 = arm(k + 0.5, r * 0.62, 0)
            _fill(img, [c, tip2, c + n2 * r * 0.12], ink2)
            _fill(img, [c, tip2, c - n2 * r * 0.12], ink2)
        cv2.circle(img, tuple(_fixed(c)[0]), int(r * 0.55 * 16), ink, 2, cv2.LINE_AA, _SHIFT)
        cv2.circle(img, tuple(_fixed(c)[0]), int(r * 0.08 * 16), ink2, -1, cv2.LINE_AA, _SHIFT)
    elif motif == "plus":
        for k in range(4):                          # a cross pattée: arms flaring outwards
            d, n, base, tip = arm(k, r, 0, r * 0.08)
            _fill(img, [base + n * r * 0.1, tip + n * r * 0.32, tip - n * r * 0.32, base - n * r * 0.1], ink)
        cv2.circle(img, tuple(_fixed(c)[0]), int(r * 0.16 * 16), ink, -1, cv2.LINE_AA, _SHIFT)
    elif motif in ("saltire", "ringed"):
        extra = math.pi / 4 if motif == "saltire" else 0.0
        width = int(max(3, r * rng.uniform(0.18, 0.3)))
        for k in range(2):
            a = turn + extra + k * math.pi / 2
            d = np.array([math.cos(a), math.sin(a)]) * r
            cv2.line(img, tuple(_fixed(c - d)[0]), tuple(_fixed(c + d)[0]), ink, width, cv2.LINE_AA, _SHIFT)
        if motif == "ringed":
            cv2.circle(img, tuple(_fixed(c)[0]), int(r * 0.6 * 16), ink2, max(2, width // 2), cv2.LINE_AA, _SHIFT)
    else:                                           # four arrows leaving the centre
        for k in range(4):
            d, n, base, tip = arm(k, r, 0, r * 0.22)
            cv2.line(img, tuple(_fixed(base)[0]), tuple(_fixed(tip - d * r * 0.25)[0]), ink, 3, cv2.LINE_AA,
                     _SHIFT)
            _fill(img, [tip, tip - d * r * 0.32 + n * r * 0.16, tip - d * r * 0.32 - n * r * 0.16], ink)
        cv2.circle(img, tuple(_fixed(c)[0]), int(r * 0.16 * 16), ink2, -1, cv2.LINE_AA, _SHIFT)
    return img


_ART = {Tile.GRASS: _grass, Tile.SNOW: _snow, Tile.CROSS: _cross}


def tile_art(tp: TilePrint, kind: Tile, rng: np.random.Generator) -> np.ndarray:
    """One tile's illustration on a square patch (BGR), before it is cut out."""
    if kind is Tile.ROCK:
        return _cracked(tp, rng) if tp.rock_style == "cracked" else _pebbles(tp, rng)
    return _ART[kind](tp, rng)


# -- cutting and laying the tiles ---------------------------------------------------------------

def _cut(tp: TilePrint, art: np.ndarray, outline: np.ndarray, light_dir, turn: float) -> tuple[np.ndarray, np.ndarray]:
    """The tile cut out of its patch: printed frame, edges catching the lamp; (BGR, alpha)."""
    centre = np.array([_PATCH / 2, _PATCH / 2])
    px = outline * SCALE + centre
    alpha = np.zeros((_PATCH, _PATCH), np.uint8)
    _fill(alpha, px, 255)
    img = art.copy()
    if tp.border is not None:
        cv2.polylines(img, [_fixed(centre + (px - centre) * 0.9)], True, _bgr(tp.border), 2, cv2.LINE_AA, _SHIFT)
    if tp.bevel > 0:
        shade = np.ones((_PATCH, _PATCH), np.float32)
        inset = centre + (px - centre) * (1 - 0.05 / 1.0)
        n = len(px)
        for k in range(6):                           # each straight side and its rounded corner
            idx = [(k * n // 6 + j) % n for j in range(n // 6 + 1)]
            a = math.radians(-60 + 60 * k) + turn
            facing = math.cos(a) * light_dir[0] + math.sin(a) * light_dir[1]
            quad = np.concatenate([px[idx], inset[idx][::-1]])
            cv2.fillPoly(shade, [_fixed(quad)], 1 + tp.bevel * facing, cv2.LINE_AA, _SHIFT)
        img = np.clip(img * cv2.GaussianBlur(shade, (0, 0), 0.8)[..., None], 0, 255).astype(np.uint8)
    return img, alpha


def _lay(canvas: np.ndarray, alpha: np.ndarray, patch: np.ndarray, patch_alpha: np.ndarray, centre, turn: float,
         extent: float) -> None:
    """Paste a patch onto a canvas with its centre at board point ``centre`` turned by ``turn``."""
    m = cv2.getRotationMatrix2D((_PATCH / 2, _PATCH / 2), -math.degrees(turn), 1.0)
    target = (np.asarray(centre) + extent) * SCALE
    x0, y0 = int(target[0] - _PATCH / 2), int(target[1] - _PATCH / 2)
    m[:, 2] += target - (x0 + _PATCH / 2, y0 + _PATCH / 2)
    warped = cv2.warpAffine(patch, m, (_PATCH, _PATCH), flags=cv2.INTER_LINEAR)
    a = cv2.warpAffine(patch_alpha, m, (_PATCH, _PATCH), flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    roi = canvas[y0:y0 + _PATCH, x0:x0 + _PATCH]
    roi[:] = (roi * (1 - a) + warped * a).astype(np.uint8)
    aroi = alpha[y0:y0 + _PATCH, x0:x0 + _PATCH]
    np.maximum(aroi, (a[..., 0] * 255).astype(np.uint8), out=aroi)


@dataclass
class Layer:
    """A canvas in board units (BGR and coverage) and the units either side of the centre."""
    image: np.ndarray
    alpha: np.ndarray
    extent: float


def _canvas(extent: float) -> Layer:
    size = int(round(2 * extent * SCALE))
    return Layer(np.zeros((size, size, 3), np.uint8), np.zeros((size, size), np.uint8), extent)


def tile_layers(look: TableLook, tiles) -> tuple[Layer, Layer]:
    """The 37 tiles' printed tops and their cut edges (the same outlines, in the side's colour)."""
    tp = look.tiles
    rng = np.random.default_rng([look.texture_seed, 7])
    top, side = _canvas(TILE_EXTENT), _canvas(TILE_EXTENT)
    radius = 1 - tp.gap / math.sqrt(3)
    lamp = np.array(look.light.lamp[:2])
    edge = np.full((_PATCH, _PATCH, 3), _bgr(tp.side), np.uint8)
    for cell in range(NUM_CELLS):
        centre = np.array(pixel_of(cell, 1.0)) + rng.normal(0, tp.jitter, 2)
        turn = math.radians(rng.normal(0, 1.2)) if tp.jitter > 0.01 else 0.0
        outline = rounded_hexagon(radius, tp.corner_radius)
        towards = lamp - centre
        light_dir = towards / (np.linalg.norm(towards) + 1e-9)
        img, alpha = _cut(tp, tile_art(tp, tiles[cell], rng), outline, light_dir, turn)
        _lay(top.image, top.alpha, img, alpha, centre, turn, top.extent)
        _lay(side.image, side.alpha, edge, alpha, centre, turn, side.extent)
    return top, side


def card_layer(look: TableLook) -> Layer:
    """The printed board (if any) and the six cards on it as the hands laid them."""
    layer = _canvas(CARD_EXTENT)
    rng = np.random.default_rng([look.texture_seed, 8])
    to_px = lambda pts: (np.asarray(pts) + layer.extent) * SCALE   # noqa: E731
    if look.tiles.mat is not None:
        outline = np.array([(BOARD_RADIUS * math.cos(math.radians(60 * k)),
                             BOARD_RADIUS * math.sin(math.radians(60 * k))) for k in range(6)])
        _fill(layer.image, to_px(outline), _bgr(look.tiles.mat))
        _fill(layer.alpha, to_px(outline), 255)
        grain = cv2.resize(rng.normal(0, 1, (24, 24)).astype(np.float32), layer.alpha.shape[::-1],
                           interpolation=cv2.INTER_CUBIC)
        layer.image[:] = np.clip(layer.image * (1 + 0.04 * grain[..., None]), 0, 255).astype(np.uint8)
        cv2.polylines(layer.image, [_fixed(to_px(outline * 0.96))], True, _scaled(look.tiles.mat, 0.6), 3,
                      cv2.LINE_AA, _SHIFT)
    ink = tuple(float(v) for v in rng.uniform(14, 34, 3))
    for marker in MARKER_IDS:
        _fill(layer.image, to_px(card_outline(look, marker)), _bgr(look.card_paper))
        _fill(layer.alpha, to_px(card_outline(look, marker)), 255)
        bits = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY), marker, 6)
        _print_marker(layer, bits, card_outline(look, marker, paper=False), ink)
    return layer


def _print_marker(layer: Layer, bits: np.ndarray, square: np.ndarray, ink) -> None:
    """Print a marker's 6×6 cells (border included) inside the square's corners (TL, TR, BR, BL)."""
    cells = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float64)
    tl, tr, bl = square[0], square[1], square[3]
    ex, ey = (tr - tl) / 6, (bl - tl) / 6
    for row, col in zip(*np.nonzero(bits < 128)):
        local = cells + (col, row)
        pts = tl + local[:, :1] * ex + local[:, 1:] * ey
        # Hard edges: neighbouring black cells must not leave hairlines between them.
        cv2.fillPoly(layer.image, [_fixed((pts + layer.extent) * SCALE)], ink, cv2.LINE_8, _SHIFT)

"""The table seen from straight above, as printed art: tiles, the kit's cards, pieces.

Drawn on a square canvas in board units (a tile's circumradius; x east, y south) at
``SCALE`` pixels a unit; :mod:`sim.flatart.camera` then puts it under the camera. The
tiles and cards never move during a table, so :func:`board_layer` is drawn once and
:func:`draw_pieces` draws each position on a copy.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from engine.core import Tile
from engine.hexgrid import CELL_NAMES, NUM_CELLS, pixel_of
from vision.geometry import ARUCO_DICTIONARY, BOARD_RADIUS, MARKER_IDS, MARKER_QUIET, MARKER_SIZE, marker_centre

from .style import STANDING_SHAPES, TILE_WIDTH, TableStyle

#: Canvas pixels per board unit, and the board units either side of the centre it covers.
SCALE = 64
EXTENT = BOARD_RADIUS + 0.2
SIZE = int(round(2 * EXTENT * SCALE))
_SHIFT = 4                          # sub-pixel bits for OpenCV's drawing calls
_ONE = 1 << _SHIFT


def to_canvas(points) -> np.ndarray:
    """Board units to canvas pixels (float)."""
    return (np.asarray(points, dtype=np.float64) + EXTENT) * SCALE


def canvas_to_board() -> np.ndarray:
    """The 3×3 matrix taking canvas pixels to board units."""
    return np.array([[1 / SCALE, 0, -EXTENT], [0, 1 / SCALE, -EXTENT], [0, 0, 1]], dtype=np.float64)


def _fixed(points) -> np.ndarray:
    return np.round(to_canvas(points) * _ONE).astype(np.int32).reshape(-1, 2)


def _bgr(rgb) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _shade(rgb, factor: float) -> tuple[int, int, int]:
    return tuple(int(min(255, max(0, c * factor))) for c in rgb)


def _poly(img, points, rgb, mask=None):
    pts = _fixed(points)
    cv2.fillPoly(img, [pts], _bgr(rgb), cv2.LINE_AA, _SHIFT)
    if mask is not None:
        cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, _SHIFT)


def _disc(img, centre, radius, rgb, thickness_units: float | None = None):
    c = tuple(int(v) for v in np.round(to_canvas(centre) * _ONE))
    r = int(round(radius * SCALE * _ONE))
    thick = -1 if thickness_units is None else max(1, int(round(thickness_units * SCALE)))
    cv2.circle(img, c, max(r, 1), _bgr(rgb), thick, cv2.LINE_AA, _SHIFT)


def _line(img, a, b, rgb, width_units: float):
    pa, pb = (tuple(int(v) for v in np.round(to_canvas(p) * _ONE)) for p in (a, b))
    cv2.line(img, pa, pb, _bgr(rgb), max(1, int(round(width_units * SCALE))), cv2.LINE_AA, _SHIFT)


def hexagon(centre, radius: float, turn: float = 0.0) -> np.ndarray:
    """Corners of a pointy-top hexagon (turned by ``turn`` radians)."""
    angles = np.radians(-90 + 60 * np.arange(6)) + turn
    return np.stack([centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles)], axis=1)


def _rotated(shape: np.ndarray, centre, scale: float, turn: float) -> np.ndarray:
    c, s = math.cos(turn), math.sin(turn)
    rot = np.array([[c, -s], [s, c]])
    return np.asarray(centre) + (shape * scale) @ rot.T


# -- tiles ---------------------------------------------------------------------------------

def _tile_patch(style: TableStyle, kind: Tile, rng: np.random.Generator) -> np.ndarray:
    """A square texture (BGR, float) of one tile's print, one unit either side."""
    n = 2 * SCALE + 2
    key = "snow" if kind is Tile.CROSS else kind.value
    base = np.array(_bgr(style.tile_colours[key]), dtype=np.float32)
    coarse = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC)
    fine = cv2.GaussianBlur(rng.normal(0, 1, (n, n)).astype(np.float32), (0, 0), 1.2)
    if key == "snow":
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n - 0.5
        a = rng.uniform(0, 2 * math.pi)
        shading = 1 + rng.uniform(0.03, 0.09) * (xx * math.cos(a) + yy * math.sin(a)) * 2
        patch = base * shading[..., None] + (2.0 * coarse + 1.5 * fine)[..., None]
    else:
        amp = (6.0, 5.0) if key == "grass" else (7.0, 9.0)
        patch = base + (amp[0] * coarse + amp[1] * fine)[..., None]
    patch = np.clip(patch, 0, 255).astype(np.uint8)
    if key == "grass":
        lean = rng.uniform(0, math.pi)
        for _ in range(int(rng.integers(60, 140))):
            x, y = rng.uniform(4, n - 4, 2)
            length = rng.uniform(0.06, 0.2) * SCALE
            ang = lean + rng.normal(0, 0.35)
            tone = _shade(style.tile_colours["grass"][::-1], rng.choice((0.6, 0.72, 1.2, 1.3)))
            cv2.line(patch, (int(x), int(y)), (int(x + length * math.cos(ang)), int(y + length * math.sin(ang))),
                     tone, 1, cv2.LINE_AA)
    elif key == "rock":
        for _ in range(int(rng.integers(40, 100))):
            x, y = rng.uniform(0, n, 2)
            radius = rng.uniform(0.02, 0.13) * SCALE
            tone = _shade(style.tile_colours["rock"][::-1], rng.uniform(0.6, 1.35))
            cv2.circle(patch, (int(x), int(y)), max(1, int(radius)), tone, -1, cv2.LINE_AA)
    return patch


def _border_colour(style: TableStyle, key: str):
    if style.border_tone == "dark":
        return (40, 40, 40)
    if style.border_tone == "light":
        return (235, 235, 228)
    return _shade(style.tile_colours[key], 0.62)


def _draw_tile(canvas, mask, style: TableStyle, cell: int, kind: Tile, rng: np.random.Generator):
    centre = pixel_of(cell, 1.0)
    size = 1.0 - style.tile_gap
    patch = _tile_patch(style, kind, rng)
    # Each tile's print is laid at a random turn: the same art, never the same pixels.
    turn = rng.integers(0, 6) * 60
    rot = cv2.getRotationMatrix2D((patch.shape[1] / 2, patch.shape[0] / 2), float(turn), 1.0)
    patch = cv2.warpAffine(patch, rot, patch.shape[1::-1], borderMode=cv2.BORDER_REFLECT)
    tile_mask = np.zeros(patch.shape[:2], np.uint8)
    local = (hexagon((0, 0), size) * SCALE + patch.shape[0] / 2) * _ONE
    cv2.fillPoly(tile_mask, [np.round(local).astype(np.int32)], 255, cv2.LINE_AA, _SHIFT)
    key = "snow" if kind is Tile.CROSS else kind.value
    if style.border_width > 0.005:
        inner = (hexagon((0, 0), size - style.border_width * 1.15) * SCALE + patch.shape[0] / 2) * _ONE
        border = np.zeros_like(tile_mask)
        cv2.fillPoly(border, [np.round(local).astype(np.int32)], 255, cv2.LINE_AA, _SHIFT)
        cv2.fillPoly(border, [np.round(inner).astype(np.int32)], 0, cv2.LINE_AA, _SHIFT)
        alpha = border.astype(np.float32)[..., None] / 255
        patch = (patch * (1 - alpha) + np.array(_bgr(_border_colour(style, key)), np.float32) * alpha).astype(np.uint8)
    x0, y0 = (int(round(v)) - patch.shape[0] // 2 for v in to_canvas(centre))
    region = canvas[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]]
    alpha = tile_mask.astype(np.float32)[..., None] / 255
    region[:] = (region * (1 - alpha) + patch * alpha).astype(np.uint8)
    mask[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]] = np.maximum(
        mask[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]], tile_mask)
    if kind is Tile.CROSS:
        arm, width = 0.5 * size, rng.uniform(0.05, 0.11)
        base_turn = math.radians(45 if style.cross_glyph == "x" else 0)
        for k in range(2):
            a = base_turn + k * math.pi / 2
            d = np.array([math.cos(a), math.sin(a)]) * arm
            _line(canvas, np.add(centre, d), np.subtract(centre, d), style.cross_colour, width)


# -- the kit's cards -------------------------------------------------------------------------

def card_corners(marker_id: int, style: TableStyle, quiet: bool = False) -> np.ndarray:
    """The marker's black square as this table's cards were laid (TL, TR, BR, BL); with
    ``quiet``, the whole card with its white border."""
    dx, dy, turn = style.cards[marker_id]
    cx, cy = marker_centre(marker_id)
    square = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], dtype=np.float64) / 2
    side = MARKER_SIZE + (2 * MARKER_QUIET if quiet else 0.0)
    return _rotated(square, (cx + dx, cy + dy), side, math.radians(turn))


def _draw_card(canvas, mask, marker_id: int, style: TableStyle):
    dx, dy, turn = style.cards[marker_id]
    cx, cy = marker_centre(marker_id)
    centre, theta = (cx + dx, cy + dy), math.radians(turn)
    _poly(canvas, card_corners(marker_id, style, quiet=True), (250, 250, 246), mask)
    bits = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY), marker_id, 6) < 128
    step = MARKER_SIZE / 6
    cell = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], dtype=np.float64)
    for row, col in zip(*np.nonzero(bits)):
        local = (cell + (col, row)) * step - MARKER_SIZE / 2
        _poly(canvas, _rotated(local, centre, 1.0, theta), (18, 18, 18))


def board_layer(style: TableStyle, tiles) -> tuple[np.ndarray, np.ndarray]:
    """The mat, the 37 tiles and the six cards (BGR canvas, coverage mask)."""
    rng = np.random.default_rng(style.texture_seed)
    canvas = np.zeros((SIZE, SIZE, 3), np.uint8)
    mask = np.zeros((SIZE, SIZE), np.uint8)
    if style.mat_colour is not None:
        angles = np.radians(60 * np.arange(6))
        outline = np.stack([BOARD_RADIUS * np.cos(angles), BOARD_RADIUS * np.sin(angles)], axis=1)
        _poly(canvas, outline, style.mat_colour, mask)
    for cell in range(NUM_CELLS):
        _draw_tile(canvas, mask, style, cell, tiles[cell], rng)
    for marker in MARKER_IDS:
        _draw_card(canvas, mask, marker, style)
    return canvas, mask


# -- pieces --------------------------------------------------------------------------------

_STAR = np.array([(math.cos(math.radians(-90 + 36 * k)) * (1 if k % 2 == 0 else 0.45),
                   math.sin(math.radians(-90 + 36 * k)) * (1 if k % 2 == 0 else 0.45)) for k in range(10)])
#: A meeple seen from above, lying flat or standing (unit half-height).
_MEEPLE = np.array([(0, -1), (0.22, -0.93), (0.3, -0.7), (0.22, -0.5), (0.95, -0.3), (0.98, -0.1), (0.4, 0.05),
                    (0.75, 0.95), (0.25, 0.95), (0, 0.55), (-0.25, 0.95), (-0.75, 0.95), (-0.4, 0.05),
                    (-0.98, -0.1), (-0.95, -0.3), (-0.22, -0.5), (-0.3, -0.7), (-0.22, -0.93)])


def _shadow(canvas, outline_points, offset, strength: float = 0.4, blur_units: float = 0.08):
    """Darken the canvas under a piece's outline moved by ``offset`` (soft edge)."""
    pts = np.asarray(outline_points) + offset
    px = to_canvas(pts)
    pad = int(blur_units * SCALE * 3) + 2
    x0, y0 = np.maximum(np.floor(px.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(px.max(axis=0)).astype(int) + pad, SIZE)
    if x1 <= x0 or y1 <= y0:
        return
    local = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(local, [np.round((px - (x0, y0)) * _ONE).astype(np.int32)], 1.0, cv2.LINE_AA, _SHIFT)
    local = cv2.GaussianBlur(local, (0, 0), blur_units * SCALE)
    region = canvas[y0:y1, x0:x1]
    region[:] = (region * (1 - strength * local[..., None])).astype(np.uint8)


def _circle_points(centre, radius, n: int = 32) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a)], axis=1)


def draw_hunter(canvas, style: TableStyle, player: str, centre, turn: float, shadow_dir):
    colour = style.colours[player]
    radius = style.hunter_size * TILE_WIDTH / 2
    shape = style.hunter_shape
    if shape in STANDING_SHAPES:
        outline = _rotated(_MEEPLE, centre, radius, turn) if shape == "meeple" else _circle_points(centre, radius)
        _shadow(canvas, outline, np.asarray(shadow_dir) * radius * 0.6)
    if shape == "star":
        _poly(canvas, _rotated(_STAR, centre, radius, turn), colour)
    elif shape == "pawn":
        # From above: the base's rim, the shoulders, the head with a highlight.
        _disc(canvas, centre, radius, _shade(colour, 0.7))
        _disc(canvas, centre, radius * 0.78, colour)
        _disc(canvas, centre, radius * 0.5, _shade(colour, 1.15))
        hl = np.asarray(centre) - np.asarray(shadow_dir) * radius * 0.2
        _disc(canvas, hl, radius * 0.14, _shade(colour, 1.5))
    elif shape == "meeple":
        _poly(canvas, _rotated(_MEEPLE, centre, radius, turn), colour)
        _poly(canvas, _rotated(_MEEPLE * 0.8, np.asarray(centre) - np.asarray(shadow_dir) * radius * 0.06,
                               radius, turn), _shade(colour, 1.12))
    elif shape == "outlined_disc":
        _disc(canvas, centre, radius, style.outline_colour)
        _disc(canvas, centre, radius * 0.68, colour)
    else:
        _disc(canvas, centre, radius, colour)
        _disc(canvas, centre, radius, _shade(colour, 0.8), thickness_units=max(0.015, radius * 0.06))


def draw_trap(canvas, style: TableStyle, player: str, centre, turn: float):
    colour = style.colours[player]
    radius = style.trap_size * TILE_WIDTH / 2
    shape = style.trap_shape
    if shape == "ring":
        _disc(canvas, centre, radius * 0.85, colour, thickness_units=radius * 0.3)
    elif shape == "disc":
        _disc(canvas, centre, radius, colour)
    elif shape == "square":
        square = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], dtype=np.float64) * 0.8
        _poly(canvas, _rotated(square, centre, radius, turn), colour)
    elif shape == "slashed_disc":
        _disc(canvas, centre, radius, colour)
        d = np.array([math.cos(turn), math.sin(turn)]) * radius * 0.75
        slash = _shade(colour, 0.45) if sum(colour) > 200 else (225, 225, 225)
        _line(canvas, np.add(centre, d), np.subtract(centre, d), slash, radius * 0.14)
    else:
        # A printed token: a pale rim, the player's colour, a ring of jaws printed on it.
        _disc(canvas, centre, radius, (236, 230, 214))
        _disc(canvas, centre, radius * 0.84, colour)
        teeth = np.array([(math.cos(turn + k * math.pi / 6) * (0.62 if k % 2 == 0 else 0.38),
                           math.sin(turn + k * math.pi / 6) * (0.62 if k % 2 == 0 else 0.38)) for k in range(12)])
        ink = (30, 30, 30) if sum(colour) > 240 else (236, 230, 214)
        cv2.polylines(canvas, [_fixed(np.asarray(centre) + teeth * radius)], True, _bgr(ink),
                      max(1, int(radius * SCALE * 0.08)), cv2.LINE_AA, _SHIFT)


def draw_mammoth(canvas, style: TableStyle, centre, turn: float, shadow_dir):
    colour = style.mammoth_colour
    radius = style.mammoth_size * TILE_WIDTH / 2
    ivory = (238, 232, 210)
    if style.mammoth_kind == "token":
        _disc(canvas, centre, radius, colour)
        _disc(canvas, centre, radius * 0.92, _shade(colour, 1.2), thickness_units=radius * 0.05)
        for side in (-1, 1):
            tusk = np.array([(0.15 * side, -0.1), (0.45 * side, -0.35), (0.35 * side, -0.6)])
            cv2.polylines(canvas, [_fixed(_rotated(tusk, centre, radius, turn))], False, _bgr(ivory),
                          max(1, int(radius * SCALE * 0.07)), cv2.LINE_AA, _SHIFT)
        return
    body = _circle_points((0, 0), 1.0)
    body = body * (0.62, 1.0)
    _shadow(canvas, _rotated(body, centre, radius, turn), np.asarray(shadow_dir) * radius * 0.45, 0.45)
    _poly(canvas, _rotated(body, centre, radius, turn), colour)
    _poly(canvas, _rotated(body * 0.72 + (0, 0.1), centre, radius, turn), _shade(colour, 1.18))
    head = _circle_points((0, -0.95), 0.33)
    _poly(canvas, _rotated(head, centre, radius, turn), _shade(colour, 0.85))
    for side in (-1, 1):
        tusk = np.array([(0.15 * side, -1.05), (0.4 * side, -1.3), (0.25 * side, -1.5)])
        cv2.polylines(canvas, [_fixed(_rotated(tusk, centre, radius, turn))], False, _bgr(ivory),
                      max(1, int(radius * SCALE * 0.09)), cv2.LINE_AA, _SHIFT)


def piece_spots(rng: np.random.Generator, count: int, spread: float) -> list[np.ndarray]:
    """Where ``count`` pieces sharing a cell stand, relative to its centre (board units)."""
    if count == 1:
        return [rng.normal(0, 0.06, 2)]
    start = rng.uniform(0, 2 * math.pi)
    return [np.array([math.cos(start + 2 * math.pi * k / count), math.sin(start + 2 * math.pi * k / count)])
            * spread + rng.normal(0, 0.04, 2) for k in range(count)]


def draw_pieces(layer: np.ndarray, style: TableStyle, position: dict, rng: np.random.Generator) -> np.ndarray:
    """A copy of the board layer with a position's traps, mammoth and hunters on it.

    ``position`` is the truth's form: ``{"mammoth": cell, "hunters": {p: cell},
    "traps": {cell: p}}`` with ``"q,r"`` cells."""
    canvas = layer.copy()
    centres = {name: np.array(pixel_of(i, 1.0)) for i, name in enumerate(CELL_NAMES)}
    a = math.radians(style.light_dir_deg)
    shadow_dir = (math.cos(a), math.sin(a))
    hunter_radius = style.hunter_size * TILE_WIDTH / 2
    trap_radius = style.trap_size * TILE_WIDTH / 2
    by_cell: dict[str, list[str]] = {}
    for player in style.players:
        if player in position["hunters"]:
            by_cell.setdefault(position["hunters"][player], []).append(player)
    trap_spots = {cell: centres[cell] + rng.normal(0, 0.05, 2) for cell in sorted(position["traps"])}
    hunter_spots: dict[str, list[np.ndarray]] = {}
    for cell, players in sorted(by_cell.items()):
        # Pieces sharing a cell stand apart as far as the cell allows.
        hunter_spots[cell] = [centres[cell] + s for s in
                              piece_spots(rng, len(players), min(0.9, max(0.42, 0.7 * hunter_radius)))]
        if len(players) == 1 and cell in trap_spots:
            # Set down on the edge of the trap token, the trap pushed the other way if
            # need be, so a crescent of it still shows (a board whose trap cannot be
            # seen at all could not be read).
            way = rng.uniform(0, 2 * math.pi)
            unit = np.array([math.cos(way), math.sin(way)])
            need = hunter_radius - 0.3 * trap_radius + rng.uniform(0, 0.08)
            reach = float(np.clip(need, 0.1, 0.75))
            hunter_spots[cell] = [centres[cell] + unit * reach]
            trap_spots[cell] = centres[cell] - unit * float(np.clip(need - reach, 0.0, 0.3))
    for cell, spot in trap_spots.items():
        draw_trap(canvas, style, position["traps"][cell], spot, rng.uniform(0, 2 * math.pi))
    draw_mammoth(canvas, style, centres[position["mammoth"]] + rng.normal(0, 0.04, 2),
                 rng.uniform(0, 2 * math.pi), shadow_dir)
    for cell, players in sorted(by_cell.items()):
        for player, spot in zip(players, hunter_spots[cell]):
            draw_hunter(canvas, style, player, spot, rng.uniform(0, 2 * math.pi), shadow_dir)
    return canvas

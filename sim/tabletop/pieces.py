"""The players' pieces as solids: wooden cylinders, cubes, pawns, meeples, glass beads,
tall figures and standees; traps as printed tokens, rings, discs and squares; the
mammoth as a printed token or a standing figure.

A piece is a few primitives in the board frame (z down, so heights are negative z):
flat polygons (:class:`Facet`, possibly printed with a picture), balls, glass domes and
thin rods. :mod:`sim.tabletop.paint` projects and shades them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .style import TILE_WIDTH, PieceSet

UP = np.array([0.0, 0.0, -1.0])


@dataclass
class Facet:
    points: np.ndarray                 # (N, 3), a flat convex or simple polygon
    colour: tuple                      # BGR albedo
    normal: np.ndarray                 # outward
    gloss: float = 0.0
    decal: np.ndarray | None = None    # BGRA picture printed on a four-cornered facet
    two_sided: bool = False            # a standee's card: printed on both faces


@dataclass
class Ball:
    centre: np.ndarray
    radius: float
    colour: tuple
    gloss: float = 0.0


@dataclass
class Dome:
    """A flat-bottomed glass bead: half an ellipsoid standing on the table."""
    centre: np.ndarray                 # the middle of its flat base
    radius: float
    height: float
    colour: tuple


@dataclass
class Rod:
    points: np.ndarray                 # (N, 3) a thin rod: a spear, a tusk
    width: float
    colour: tuple


@dataclass
class Ring:
    centre: np.ndarray                 # base centre
    outer: float
    inner: float
    height: float
    colour: tuple
    gloss: float = 0.0


@dataclass
class Piece:
    """One piece: its primitives in groups drawn bottom-up, and what it stands for."""
    key: str                           # "hunter:A", "trap:A", "mammoth"
    cell: str
    groups: list[list] = field(default_factory=list)
    base: np.ndarray = field(default_factory=lambda: np.zeros(3))
    flat: bool = False

    def primitives(self):
        return [p for g in self.groups for p in g]


# -- shapes ---------------------------------------------------------------------------------------

def circle(radius: float, n: int = 28) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([radius * np.cos(a), radius * np.sin(a)], axis=1)


def square(side: float, turn: float) -> np.ndarray:
    pts = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float64) * side / 2
    c, s = math.cos(turn), math.sin(turn)
    return pts @ np.array([[c, s], [-s, c]])


def hexagon_points(radius: float, turn: float) -> np.ndarray:
    a = np.radians(30 + 60 * np.arange(6)) + turn
    return np.stack([radius * np.cos(a), radius * np.sin(a)], axis=1)


def _outward(normal: np.ndarray, towards: np.ndarray) -> np.ndarray:
    n = normal / (np.linalg.norm(normal) + 1e-12)
    return n if n @ towards >= 0 else -n


def prism(bottom: np.ndarray, top: np.ndarray, centre, z0: float, z1: float, colour, gloss: float = 0.0,
          decal: np.ndarray | None = None) -> list[Facet]:
    """A solid between two outlines (``z0`` below ``z1``, both heights negative-up): a
    cylinder, a cone's frustum, a box, a token. Its top is printed with ``decal`` if given."""
    c = np.array([centre[0], centre[1], 0.0])
    lo = np.column_stack([bottom, np.full(len(bottom), z0)]) + c
    hi = np.column_stack([top, np.full(len(top), z1)]) + c
    axis = c + (0, 0, (z0 + z1) / 2)
    facets = []
    for i in range(len(lo)):
        j = (i + 1) % len(lo)
        quad = np.array([lo[i], lo[j], hi[j], hi[i]])
        normal = _outward(np.cross(lo[j] - lo[i], hi[i] - lo[i]), quad.mean(axis=0) - axis)
        facets.append(Facet(quad, colour, normal, gloss))
    facets.append(Facet(hi, colour, UP.copy(), gloss, decal))
    return facets


def extrusion(outline: np.ndarray, centre, heading: float, size: float, thickness: float, z0: float, colour,
              gloss: float = 0.0) -> list[Facet]:
    """A flat silhouette (``outline`` in units of ``size``: u along ``heading``, v upwards)
    cut from a board ``thickness`` thick and stood up: a meeple, a wooden mammoth."""
    h = np.array([math.cos(heading), math.sin(heading), 0.0])
    m = np.array([-math.sin(heading), math.cos(heading), 0.0])
    base = np.array([centre[0], centre[1], z0])
    flat = base + outline[:, :1] * size * h + outline[:, 1:] * size * UP
    front, back = flat + m * thickness / 2, flat - m * thickness / 2
    middle = flat.mean(axis=0)
    facets = [Facet(front, colour, m.copy(), gloss), Facet(back[::-1], colour, -m, gloss)]
    for i in range(len(flat)):
        j = (i + 1) % len(flat)
        quad = np.array([front[i], front[j], back[j], back[i]])
        normal = _outward(np.cross(front[j] - front[i], back[i] - front[i]), (front[i] + front[j]) / 2 - middle)
        facets.append(Facet(quad, colour, normal, gloss))
    return facets


def _smooth(points: np.ndarray, rounds: int = 2) -> np.ndarray:
    """Chaikin's corner cutting: the rounded edges of a sawn wooden piece."""
    for _ in range(rounds):
        nxt = np.roll(points, -1, axis=0)
        points = np.concatenate([0.75 * points + 0.25 * nxt, 0.25 * points + 0.75 * nxt], axis=1).reshape(-1, 2)
    return points


_MEEPLE = _smooth(np.array([
    (-0.5, 0.0), (-0.14, 0.0), (0.0, 0.26), (0.14, 0.0), (0.5, 0.0), (0.3, 0.45), (0.5, 0.55), (0.47, 0.7),
    (0.17, 0.74), (0.2, 0.86), (0.12, 0.98), (0.0, 1.0), (-0.12, 0.98), (-0.2, 0.86), (-0.17, 0.74),
    (-0.47, 0.7), (-0.5, 0.55), (-0.3, 0.45)]))
#: A mammoth seen from its side, facing +u: humped back, trunk down, four legs (a wooden piece).
_MAMMOTH = _smooth(np.array([
    (-0.46, 0.0), (-0.46, 0.3), (-0.52, 0.42), (-0.45, 0.55), (-0.2, 0.68), (0.05, 0.84), (0.25, 0.82),
    (0.4, 0.72), (0.47, 0.55), (0.5, 0.35), (0.52, 0.14), (0.47, 0.02), (0.41, 0.06), (0.43, 0.3), (0.35, 0.38),
    (0.3, 0.3), (0.3, 0.0), (0.13, 0.0), (0.13, 0.22), (-0.22, 0.22), (-0.22, 0.0)]), 1)


# -- printed pictures ---------------------------------------------------------------------------

_DECAL = 96


def _bgr(rgb) -> tuple:
    return (float(rgb[2]), float(rgb[1]), float(rgb[0]))


def _ink_on(background) -> tuple:
    """Dark ink on a light card, white ink on a dark one."""
    light = 0.299 * background[0] + 0.587 * background[1] + 0.114 * background[2]
    return (30.0, 28.0, 26.0) if light > 120 else (240.0, 240.0, 236.0)


def _decal(outline: str, ground) -> np.ndarray:
    """A blank printed face (BGRA) of the given outline: disc, square or hex."""
    img = np.zeros((_DECAL, _DECAL, 4), np.uint8)
    c, r = _DECAL / 2, _DECAL / 2 - 1
    colour = (*_bgr(ground), 255)
    if outline == "disc":
        cv2.circle(img, (int(c), int(c)), int(r), colour, -1, cv2.LINE_AA)
    elif outline == "hex":
        cv2.fillPoly(img, [np.round(hexagon_points(r, 0) + c).astype(np.int32)], colour, cv2.LINE_AA)
    else:
        img[:] = colour
    return img


def trap_decal(pieces: PieceSet, player: str) -> np.ndarray:
    """A printed trap token: an icon (jaws, a pit, a snare, spikes) in or on the player's colour."""
    colour = pieces.trap_colours[player]
    ground = pieces.trap_ground or colour
    img = _decal(pieces.trap_outline, ground)
    ink = _ink_on(ground) if pieces.trap_ground is None else _bgr(colour)
    c = _DECAL // 2
    if pieces.trap_ground is not None:                     # a neutral card with a coloured rim
        cv2.circle(img, (c, c), int(c * 0.86), (*_bgr(colour), 255), 7, cv2.LINE_AA)
    icon = pieces.trap_icon
    if icon == "jaws":
        cv2.ellipse(img, (c, c + 6), (26, 22), 0, 180, 360, (*ink, 255), 4, cv2.LINE_AA)
        for k in range(7):
            x = c - 24 + 8 * k
            cv2.fillPoly(img, [np.array([(x - 3, c + 6), (x + 3, c + 6), (x, c - 6)], np.int32)], (*ink, 255),
                         cv2.LINE_AA)
        cv2.line(img, (c - 28, c + 8), (c + 28, c + 8), (*ink, 255), 4, cv2.LINE_AA)
    elif icon == "pit":
        for r in (28, 19, 10):
            cv2.ellipse(img, (c, c), (r, int(r * 0.6)), 0, 0, 360, (*ink, 255), 3, cv2.LINE_AA)
    elif icon == "snare":
        cv2.circle(img, (c - 4, c + 6), 16, (*ink, 255), 4, cv2.LINE_AA)
        cv2.line(img, (c + 8, c - 4), (c + 26, c - 26), (*ink, 255), 4, cv2.LINE_AA)
    else:
        for k in range(4):
            x = c - 27 + 18 * k
            cv2.fillPoly(img, [np.array([(x - 7, c + 18), (x + 7, c + 18), (x, c - 20)], np.int32)], (*ink, 255),
                         cv2.LINE_AA)
    return img


def mammoth_decal(pieces: PieceSet) -> np.ndarray:
    """The mammoth's printed token: its silhouette on a pale ground, a dark rim."""
    ground = (216, 226, 232) if pieces.mammoth_colour[0] < 120 else (238, 226, 196)
    img = _decal("disc", ground)
    c = _DECAL / 2
    body = (_MAMMOTH - (0, 0.42)) * np.array([1, -1]) * 70 + c
    cv2.fillPoly(img, [np.round(body * 16).astype(np.int32)], (*_bgr(pieces.mammoth_colour), 255), cv2.LINE_AA, 4)
    cv2.ellipse(img, (int(c + 27), int(c + 6)), (12, 9), 0, 0, 180, (245, 245, 235, 255), 3, cv2.LINE_AA)
    cv2.circle(img, (int(c), int(c)), int(c - 3), (40, 40, 40, 255), 3, cv2.LINE_AA)
    return img


def standee_decal(colour) -> np.ndarray:
    """A standee's card: a hunter with a spear printed on a light ground, framed in the player's colour."""
    img = np.zeros((_DECAL, _DECAL // 2 + 8, 4), np.uint8)
    h, w = img.shape[:2]
    img[:] = (*_bgr(colour), 255)
    cv2.rectangle(img, (4, 4), (w - 5, h - 5), (226, 236, 240, 255), -1)
    figure = (*_ink_on((226, 236, 240)), 255)
    cv2.circle(img, (w // 2, 22), 7, figure, -1, cv2.LINE_AA)
    cv2.fillPoly(img, [np.array([(w // 2 - 8, 30), (w // 2 + 8, 30), (w // 2 + 10, 62), (w // 2 - 10, 62)],
                                np.int32)], (*_bgr(colour), 255), cv2.LINE_AA)
    cv2.line(img, (w // 2 - 5, 62), (w // 2 - 8, h - 10), figure, 4, cv2.LINE_AA)
    cv2.line(img, (w // 2 + 5, 62), (w // 2 + 8, h - 10), figure, 4, cv2.LINE_AA)
    cv2.line(img, (w - 10, 8), (w - 12, h - 12), (60, 90, 120, 255), 2, cv2.LINE_AA)
    for corner in ((0, 0), (w - 1, 0)):                   # rounded top corners cut off the card
        cv2.circle(img, corner, 6, (0, 0, 0, 0), -1)
    return img


# -- the pieces ----------------------------------------------------------------------------------

def _lit(colour, k: float) -> tuple:
    return tuple(float(min(255.0, c * k)) for c in colour)


def hunter(pieces: PieceSet, player: str, cell: str, at, heading: float, z0: float) -> Piece:
    """A player's hunter standing at ``at`` (board units) on a surface at height ``z0``."""
    colour = _bgr(pieces.colours[player])
    gloss = 0.5 if pieces.glossy else 0.1
    w = pieces.hunter_size * TILE_WIDTH
    tall = w * pieces.hunter_height
    shape = pieces.hunter_shape
    piece = Piece(f"hunter:{player}", cell, base=np.array([at[0], at[1], z0]))
    if shape == "cylinder":
        piece.groups = [prism(circle(w / 2), circle(w / 2), at, z0, z0 - tall, colour, gloss)]
    elif shape == "cube":
        side = w / 1.15
        piece.groups = [prism(square(side, heading), square(side, heading), at, z0, z0 - side, colour, gloss)]
    elif shape == "pawn":
        foot = 0.12 * tall
        head = 0.42 * w / 2
        piece.groups = [prism(circle(w / 2), circle(w / 2 * 0.92), at, z0, z0 - foot, colour, gloss),
                        prism(circle(w / 2 * 0.62), circle(w / 2 * 0.22), at, z0 - foot, z0 - tall + 1.6 * head,
                              colour, gloss),
                        [Ball(np.array([at[0], at[1], z0 - tall + head]), head, colour, gloss)]]
    elif shape == "meeple":
        piece.groups = [extrusion(_MEEPLE, at, heading, w, w * 0.36, z0, colour, gloss)]
    elif shape == "bead":
        piece.groups = [[Dome(np.array([at[0], at[1], z0]), w / 2, tall, colour)]]
    elif shape == "figure":
        tall = min(tall, 2.0)
        head = 0.36 * w / 2
        spear = np.array([[at[0] + w * 0.3 * math.cos(heading), at[1] + w * 0.3 * math.sin(heading), z]
                          for z in (z0 - 0.1 * tall, z0 - 1.15 * tall)])
        piece.groups = [prism(circle(w / 2), circle(w / 2), at, z0, z0 - 0.08 * tall, colour, gloss),
                        prism(circle(w / 2 * 0.55), circle(w / 2 * 0.38), at, z0 - 0.08 * tall, z0 - tall + 1.7 * head,
                              colour, gloss),
                        [Ball(np.array([at[0], at[1], z0 - tall + head]), head, colour, gloss),
                         Rod(spear, 0.05, (40.0, 70.0, 110.0))]]
    else:
        piece.groups = _standee(pieces, colour, at, heading, z0, w, tall)
    return piece


def _standee(pieces: PieceSet, colour, at, heading: float, z0: float, w: float, tall: float) -> list[list]:
    """A printed card standing in a plastic foot."""
    foot_colour = (36.0, 36.0, 38.0) if pieces.glossy else colour
    foot = prism(square(w * 0.5, heading), square(w * 0.5, heading), at, z0, z0 - 0.12 * w, foot_colour, 0.4)
    h = np.array([math.cos(heading), math.sin(heading), 0.0])
    m = np.array([-math.sin(heading), math.cos(heading), 0.0])
    base = np.array([at[0], at[1], z0 - 0.05 * w])
    half = h * w * 0.42
    card = np.array([base - half + UP * tall, base + half + UP * tall, base + half, base - half])
    printed = standee_decal(tuple(reversed(colour)))       # the decal takes RGB
    return [foot, [Facet(card, colour, m, 0.15, printed, two_sided=True)]]


def trap(pieces: PieceSet, player: str, cell: str, at, turn: float, z0: float) -> Piece:
    """A player's trap lying at ``at``: a printed token, a ring, a wooden disc or square."""
    colour = _bgr(pieces.trap_colours[player])
    d = pieces.trap_size * TILE_WIDTH
    shape = pieces.trap_shape
    piece = Piece(f"trap:{player}", cell, base=np.array([at[0], at[1], z0]), flat=True)
    gloss = 0.35 if pieces.glossy else 0.05
    if shape == "token":
        outline = {"disc": circle(d / 2), "square": square(d * 0.86, turn),
                   "hex": hexagon_points(d / 2, turn)}[pieces.trap_outline]
        top = _token_top(outline, pieces.trap_outline, d, turn)
        piece.groups = [prism(outline, outline, at, z0, z0 - TOKEN_THICKNESS, (200.0, 204.0, 206.0), 0.05,
                              decal=None)[:-1] + [Facet(top + (at[0], at[1], z0 - TOKEN_THICKNESS), colour, UP.copy(),
                                                        0.1, trap_decal(pieces, player))]]
    elif shape == "ring":
        piece.groups = [[Ring(np.array([at[0], at[1], z0]), d / 2, d / 2 * 0.62, 0.12, colour, gloss)]]
    elif shape == "disc":
        piece.groups = [prism(circle(d / 2), circle(d / 2 * 0.97), at, z0, z0 - 0.15, colour, gloss)]
    else:
        side = d * 0.82
        piece.groups = [prism(square(side, turn), square(side * 0.97, turn), at, z0, z0 - 0.1, colour, gloss)]
    return piece


#: A printed cardboard token's thickness, board units (about 2 mm).
TOKEN_THICKNESS = 0.05


def trap_height(pieces: PieceSet) -> float:
    """How high a hunter set down on this set's trap stands."""
    return {"token": TOKEN_THICKNESS, "ring": 0.12, "disc": 0.15, "square": 0.1}[pieces.trap_shape]


def _token_top(outline: np.ndarray, kind: str, d: float, turn: float) -> np.ndarray:
    """The four corners of a token's printed face, in the order of the picture's corners
    (its square picture covers the whole token; the token's outline is the picture's alpha)."""
    if kind == "square":
        corners = square(d * 0.86, turn)
    else:
        corners = square(d, turn)
    return np.column_stack([corners, np.zeros(4)])


def mammoth(pieces: PieceSet, cell: str, at, heading: float, z0: float) -> Piece:
    """The mammoth: a printed token or a standing wooden figure with ivory tusks."""
    colour = _bgr(pieces.mammoth_colour)
    size = pieces.mammoth_size * TILE_WIDTH
    piece = Piece("mammoth", cell, base=np.array([at[0], at[1], z0]))
    if pieces.mammoth_kind == "token":
        piece.flat = True
        top = np.column_stack([square(size, heading), np.zeros(4)]) + (at[0], at[1], z0 - TOKEN_THICKNESS)
        piece.groups = [prism(circle(size / 2), circle(size / 2), at, z0, z0 - TOKEN_THICKNESS,
                              (200.0, 204.0, 206.0), 0.05)[:-1] + [Facet(top, colour, UP.copy(), 0.1,
                                                                         mammoth_decal(pieces))]]
        return piece
    length = size * 1.05
    thickness = length * 0.3
    body = extrusion(_MAMMOTH, at, heading, length, thickness, z0, colour, 0.2 if pieces.glossy else 0.05)
    h = np.array([math.cos(heading), math.sin(heading), 0.0])
    m = np.array([-math.sin(heading), math.cos(heading), 0.0])
    base = np.array([at[0], at[1], z0])
    tusks = []
    for side in (-1, 1):
        curve = [base + h * length * (0.36 + 0.14 * t) + UP * length * (0.36 - 0.2 * t + 0.25 * t * t)
                 + m * side * (thickness / 2 + 0.02) for t in np.linspace(0, 1, 6)]
        tusks.append(Rod(np.array(curve), 0.06, (200.0, 228.0, 236.0)))
    piece.groups = [body, tusks]
    return piece

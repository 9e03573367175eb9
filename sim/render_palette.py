"""Random looks for rendered scenes: palettes, token shapes, camera and lighting.

Every seed gives different tile, token, rim and table colours, so nothing downstream can
lean on one set of colours. Colours are RGB floats in 0..1. Palettes keep the
distinctions a player relies on at the table (tile classes apart, player colours apart
from each other and from the tiles) but otherwise roam freely.
"""
from __future__ import annotations

import colorsys
from dataclasses import dataclass, field

import cv2
import numpy as np

HUNTER_SHAPES = ("disc", "hexagon", "square", "octagon")
TRAP_SHAPES = ("disc", "square", "hexagon", "ring")
MAMMOTH_SHAPES = ("disc", "hexagon", "blob")
#: Shapes the bench never draws: tests use them to check that reading does not depend
#: on the token outlines it was developed with.
HELD_OUT_HUNTER_SHAPES = ("pentagon",)
HELD_OUT_TRAP_SHAPES = ("octagon",)


def lab(rgb) -> np.ndarray:
    """CIE Lab of RGB colours in 0..1 (any leading shape).

    >>> [round(float(v)) for v in lab((1.0, 1.0, 1.0))]
    [100, 0, 0]
    """
    arr = np.asarray(rgb, dtype=np.float32).reshape(-1, 1, 3)
    return cv2.cvtColor(arr, cv2.COLOR_RGB2Lab).reshape(np.shape(rgb))


def delta_e(a, b) -> float:
    return float(np.linalg.norm(lab(a) - lab(b)))


def _hsv(h, s, v):
    return tuple(colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0), 1), min(max(v, 0), 1)))


@dataclass
class Palette:
    grass: tuple
    snow: tuple
    rock: tuple
    cross_mark: tuple
    board: tuple          # board rim and tile gaps
    table: tuple
    mammoth: tuple
    tusk: tuple
    rim: tuple            # hunters' dark outline
    players: list = field(default_factory=list)   # 4 player colours
    hunter_shape: str = "disc"
    trap_shape: str = "disc"
    mammoth_shape: str = "disc"
    cross_shape: str = "plus"     # the cross tile's print: "plus" (along the board's axes) or "x"
    trap_colours: list = field(default_factory=list)   # each player's printed traps; empty: the hunter's colour


#: A near-black player's colour: darker than any tile, a little lighter than the darkest rims.
NEAR_BLACK_VALUE = (0.13, 0.22)


def random_palette(rng: np.random.Generator, hunter_shapes=HUNTER_SHAPES, trap_shapes=TRAP_SHAPES,
                   near_black: bool = False) -> Palette:
    """A palette whose classes stay apart (ΔE checks) but whose colours vary per seed.

    ``near_black`` makes one player's colour nearly black (a black pawn set): its
    core is then barely lighter than the hunters' dark outline. The default draws
    exactly the palettes it always drew (the benchmarks' seeds keep their scenes)."""
    for _ in range(200):
        grass = _hsv(rng.uniform(0.17, 0.42), rng.uniform(0.35, 0.8), rng.uniform(0.35, 0.7))
        snow = _hsv(rng.uniform(0.0, 1.0), rng.uniform(0.0, 0.12), rng.uniform(0.85, 0.98))
        rock = _hsv(rng.uniform(0.0, 1.0), rng.uniform(0.0, 0.25), rng.uniform(0.22, 0.45))
        mammoth = _hsv(rng.uniform(0.03, 0.11), rng.uniform(0.4, 0.75), rng.uniform(0.3, 0.55))
        rim = _hsv(rng.uniform(0, 1), rng.uniform(0, 0.3), rng.uniform(0.02, 0.14))
        board = _hsv(rng.uniform(0, 1), rng.uniform(0.0, 0.5), rng.uniform(0.12, 0.35))
        table = _hsv(rng.uniform(0, 1), rng.uniform(0.1, 0.7), rng.uniform(0.25, 0.85))
        base = rng.uniform(0, 1)
        order = rng.permutation(4)
        players = [_hsv(base + 0.25 * k + rng.uniform(-0.04, 0.04), rng.uniform(0.65, 1.0), rng.uniform(0.7, 1.0))
                   for k in order]
        tiles = (grass, snow, rock)
        if min(delta_e(a, b) for i, a in enumerate(tiles) for b in tiles[i + 1:]) < 30:
            continue
        if min(delta_e(mammoth, t) for t in tiles) < 18 or delta_e(mammoth, rim) < 18:
            continue
        others = list(tiles) + [mammoth, rim]
        if min(delta_e(p, o) for p in players for o in others) < 25:
            continue
        if near_black:
            # One player plays black; the kit's outline stays the darkest thing on a token.
            rim = _hsv(rng.uniform(0, 1), rng.uniform(0, 0.2), rng.uniform(0.0, 0.04))
            players[int(rng.integers(4))] = _hsv(rng.uniform(0, 1), rng.uniform(0.0, 0.3),
                                                 rng.uniform(*NEAR_BLACK_VALUE))
            others = list(tiles) + [mammoth]
            if min(delta_e(p, o) for p in players for o in others) < 25 or \
                    min(delta_e(p, rim) for p in players) < 8:
                continue
        if min(delta_e(a, b) for i, a in enumerate(players) for b in players[i + 1:]) < 25:
            continue
        return Palette(
            grass=grass, snow=snow, rock=rock,
            cross_mark=_hsv(rng.uniform(0, 1), rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.5)),
            board=board, table=table, mammoth=mammoth,
            tusk=_hsv(rng.uniform(0.08, 0.15), rng.uniform(0.05, 0.25), rng.uniform(0.85, 1.0)),
            rim=rim, players=players,
            hunter_shape=str(rng.choice(hunter_shapes)), trap_shape=str(rng.choice(trap_shapes)),
            mammoth_shape=str(rng.choice(MAMMOTH_SHAPES)),
        )
    raise RuntimeError("could not draw a palette with separable colours")


@dataclass
class Look:
    """Camera pose and image degradations for one frame."""
    yaw: float            # board rotation on the table, radians
    tilt: float           # camera tilt, radians (≤ 25°)
    tilt_axis: float      # direction of the tilt axis in the board plane
    scale: float          # fraction of the image height the board spans
    shift: tuple          # board centre offset, fraction of image size
    gradient: tuple       # (base, gx, gy) multiplicative lighting gradient
    cast: tuple           # per-channel RGB gains
    blur: float           # Gaussian sigma, pixels
    noise: float          # Gaussian noise sigma, 0..255 units
    jpeg: int             # JPEG quality, 0 = none
    shadow: bool = False  # a soft shadow (lamp, head) across the board
    #: Light that is not reflected by the print: a window's daylight washing the board
    #: out, or a glossy print's sheen (0..255 units added to every channel, after the
    #: lamp). Dark colours lighten far more than bright ones, unlike a gain.
    ambient: tuple = (0.0, 0.0, 0.0)
    #: A lamp's hotspot: (x, y, radius) as fractions of the image, and its strength
    #: (1.0 doubles the light at its centre; whites clip).
    hotspot: tuple | None = None


def random_look(rng: np.random.Generator, max_tilt_deg: float = 25.0) -> Look:
    return Look(
        yaw=float(rng.uniform(0, 2 * np.pi)),
        tilt=float(np.radians(rng.uniform(0, max_tilt_deg))),
        tilt_axis=float(rng.uniform(0, 2 * np.pi)),
        scale=float(rng.uniform(0.78, 0.95)),
        shift=(float(rng.uniform(-0.04, 0.04)), float(rng.uniform(-0.03, 0.03))),
        gradient=(float(rng.uniform(0.75, 1.1)), float(rng.uniform(-0.25, 0.25)), float(rng.uniform(-0.25, 0.25))),
        cast=tuple(float(g) for g in rng.uniform(0.85, 1.15, 3)),
        blur=float(rng.uniform(0.0, 1.3)),
        noise=float(rng.uniform(0.0, 5.0)),
        jpeg=int(rng.integers(60, 96)),
        shadow=bool(rng.random() < 0.25),
    )


def printed_trap_colours(rng: np.random.Generator, palette: Palette) -> list:
    """Each player's printed trap colour: his hue, but paler or darker than his pawn
    (as printed cardboard traps beside painted pawns), still apart from the tiles and
    from the other players' traps."""
    tiles = (palette.grass, palette.snow, palette.rock)
    for _ in range(200):
        traps = []
        for colour in palette.players:
            h, s, v = colorsys.rgb_to_hsv(*colour)
            traps.append(_hsv(h + rng.uniform(-0.05, 0.05), s * rng.uniform(0.4, 0.65), v * rng.uniform(0.7, 1.0)))
        if (min(delta_e(t, o) for t in traps for o in tiles + (palette.mammoth,)) >= 22
                and min(delta_e(a, b) for i, a in enumerate(traps) for b in traps[i + 1:]) >= 20):
            return traps
    return list(palette.players)

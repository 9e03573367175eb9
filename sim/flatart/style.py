"""What one table is made of: the players' own set, the print of the tiles, the camera.

Everything a group's set varies in is drawn here at random, once per table, from a numpy
generator: tile colours, piece shapes and sizes, player colours (some deliberately close
to a tile, some near-black, dark-brown or white), the mammoth, how the kit's cards were
laid by hand, and how the camera looks at the table. Nothing here knows how the board is
read; the ranges come from what players' sets and phone-camera photos look like.

>>> import numpy as np
>>> style = random_style(np.random.default_rng(3), players=3)
>>> style.hunter_shape in HUNTER_SHAPES, style.trap_shape in TRAP_SHAPES
(True, True)
>>> 0 <= style.camera.tilt_deg <= 25
True
"""
from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass

import numpy as np

from vision.geometry import MARKER_IDS

HUNTER_SHAPES = ("star", "pawn", "meeple", "outlined_disc", "disc")
TRAP_SHAPES = ("ring", "disc", "square", "slashed_disc", "printed_token")
MAMMOTH_KINDS = ("token", "figure")
#: How a player's colour was chosen: vivid, close to a tile's, dark, white.
COLOUR_KINDS = ("vivid", "close", "dark", "white")
#: A tile's width across flats in board units (a tile's circumradius is one unit).
TILE_WIDTH = math.sqrt(3)
#: Standing pieces cast a shadow; flat tokens lie on the tile.
STANDING_SHAPES = {"pawn", "meeple"}

RGB = tuple[int, int, int]


def hex_colour(rgb: RGB) -> str:
    """``#rrggbb`` of an RGB triple.

    >>> hex_colour((255, 8, 0))
    '#ff0800'
    """
    return "#" + "".join(f"{int(v):02x}" for v in rgb)


def _hsv(h: float, s: float, v: float) -> RGB:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return (round(r * 255), round(g * 255), round(b * 255))


def _distance(a: RGB, b: RGB) -> float:
    return float(np.linalg.norm(np.subtract(a, b, dtype=float)))


@dataclass(frozen=True)
class CameraStyle:
    """How the still camera sees the table; angles in degrees, sizes in pixels."""
    tilt_deg: float             # camera axis from the vertical, 0-25
    tilt_towards_deg: float     # which way the camera leans, seen from above
    board_turn_deg: float       # the board's rotation on the table
    pixels_per_unit: float      # tile circumradius in pixels at the board centre
    centre_offset: tuple[float, float]
    light_gradient: float       # brightness change across the frame, fraction
    light_angle_deg: float
    vignetting: float           # darkening at the corners, fraction
    white_balance: tuple[float, float, float]   # per-channel gains (B, G, R)
    exposure: float
    blur_sigma: float
    noise_sigma: float
    jpeg_quality: int


@dataclass(frozen=True)
class TableStyle:
    """Everything chosen for one table; :meth:`to_json` is what ``table.json`` says."""
    players: tuple[str, ...]
    tile_colours: dict[str, RGB]
    tile_gap: float             # gap between tiles, board units
    border_width: float         # printed tile border, board units
    border_tone: str            # "darker" (of the tile), "dark", "light"
    cross_colour: RGB
    cross_glyph: str            # "+" or "x"
    mat_colour: RGB | None      # a board mat under tiles and cards, or None (bare table)
    table_colour: RGB
    hunter_shape: str
    hunter_size: float          # diameter as a fraction of a tile's width
    trap_shape: str
    trap_size: float
    colours: dict[str, RGB]
    colour_kinds: dict[str, str]
    outline_colour: RGB         # the dark outline of the kit's outlined discs
    mammoth_kind: str
    mammoth_colour: RGB
    mammoth_size: float
    light_dir_deg: float        # where shadows fall, board frame
    cards: dict[int, tuple[float, float, float]]   # id -> (dx, dy, turn_deg) as laid by hand
    camera: CameraStyle
    texture_seed: int

    def to_json(self, tiles: dict[str, str]) -> dict:
        """``table.json``: the samples' keys first, then this generator's own."""
        dark = [p for p, k in self.colour_kinds.items() if k == "dark"]
        white = [p for p, k in self.colour_kinds.items() if k == "white"]
        return {
            "tiles": tiles,
            "players": list(self.players),
            "hunter_shape": self.hunter_shape,
            "trap_shape": self.trap_shape,
            "tilt": self.camera.tilt_deg,
            "colours": {p: hex_colour(c) for p, c in self.colours.items()},
            "mammoth_colour": hex_colour(self.mammoth_colour),
            "tile_colours": {k: hex_colour(c) for k, c in self.tile_colours.items()},
            "dark_player": dark[0] if dark else None,
            "style": "flat printed art (sim.flatart)",
            "white_player": white[0] if white else None,
            "colour_kinds": dict(self.colour_kinds),
            "hunter_size": self.hunter_size,
            "trap_size": self.trap_size,
            "mammoth": self.mammoth_kind,
            "mammoth_size": self.mammoth_size,
            "outline_colour": hex_colour(self.outline_colour),
            "cards": {str(k): {"dx": dx, "dy": dy, "turn_deg": t} for k, (dx, dy, t) in self.cards.items()},
            "camera": {k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(self.camera).items()},
        }


def _tile_colours(rng: np.random.Generator) -> dict[str, RGB]:
    return {
        "grass": _hsv(rng.uniform(0.20, 0.38), rng.uniform(0.35, 0.75), rng.uniform(0.40, 0.68)),
        "snow": _hsv(rng.uniform(0.45, 0.65), rng.uniform(0.0, 0.14), rng.uniform(0.82, 0.97)),
        "rock": _hsv(rng.uniform(0.0, 0.16), rng.uniform(0.0, 0.18), rng.uniform(0.33, 0.58)),
    }


def _close_colour(rng: np.random.Generator, tiles: dict[str, RGB]) -> RGB:
    """A colour a player may well own that nearly matches a tile: olive on grass, grey
    on snow, brown on rock."""
    kind = rng.choice(("grass", "snow", "rock"))
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in tiles[kind]))
    if kind == "grass":
        return _hsv(rng.uniform(0.13, 0.2), s * rng.uniform(0.8, 1.15), v * rng.uniform(0.8, 1.1))
    if kind == "snow":
        return _hsv(h, rng.uniform(0.0, 0.08), v * rng.uniform(0.68, 0.85))
    return _hsv(rng.uniform(0.05, 0.1), rng.uniform(0.3, 0.5), v * rng.uniform(0.75, 1.0))


def _dark_colour(rng: np.random.Generator) -> RGB:
    if rng.random() < 0.5:
        return _hsv(rng.uniform(0, 1), rng.uniform(0.0, 0.3), rng.uniform(0.07, 0.17))   # near-black
    return _hsv(rng.uniform(0.05, 0.09), rng.uniform(0.45, 0.7), rng.uniform(0.2, 0.3))  # dark brown


def _white_colour(rng: np.random.Generator) -> RGB:
    return _hsv(rng.uniform(0.08, 0.6), rng.uniform(0.0, 0.08), rng.uniform(0.9, 0.99))


def _player_colours(rng: np.random.Generator, players, tiles) -> tuple[dict[str, RGB], dict[str, str]]:
    """One colour per player, each at least a plain difference from the others."""
    kinds = ["vivid"] * len(players)
    specials = [k for k, p in (("dark", 0.4), ("white", 0.3), ("close", 0.45)) if rng.random() < p]
    for seat, kind in zip(rng.permutation(len(players)), specials):
        kinds[int(seat)] = kind
    hue0, step = rng.uniform(0, 1), 1.0 / max(3, len(players))
    colours: dict[str, RGB] = {}
    for i, (player, kind) in enumerate(zip(players, kinds)):
        for attempt in range(50):
            if kind == "vivid":
                colour = _hsv(hue0 + step * i + rng.uniform(-0.06, 0.06), rng.uniform(0.6, 1.0),
                              rng.uniform(0.55, 0.95))
            elif kind == "close":
                colour = _close_colour(rng, tiles)
            elif kind == "dark":
                colour = _dark_colour(rng)
            else:
                colour = _white_colour(rng)
            if all(_distance(colour, c) > 70 for c in colours.values()):
                break
        else:
            # No colour of that kind stays apart from the others (a dark brown beside a
            # rock-close one): this player's is vivid, the farthest of a few draws.
            kinds[i] = "vivid"
            colour = max((_hsv(hue0 + step * i + rng.uniform(-0.06, 0.06), rng.uniform(0.6, 1.0),
                               rng.uniform(0.55, 0.95)) for _ in range(20)),
                         key=lambda c: min((_distance(c, o) for o in colours.values()), default=0.0))
        colours[player] = colour
    return colours, dict(zip(players, kinds))


def _mammoth_colour(rng: np.random.Generator, colours) -> RGB:
    for attempt in range(50):
        colour = _hsv(rng.uniform(0.02, 0.12), rng.uniform(0.3, 0.8), rng.uniform(0.2, 0.55))
        if rng.random() < 0.25:
            colour = _hsv(rng.uniform(0, 1), rng.uniform(0.0, 0.15), rng.uniform(0.3, 0.6))
        if all(_distance(colour, c) > 60 for c in colours.values()):
            return colour
    return colour


def _camera(rng: np.random.Generator) -> CameraStyle:
    return CameraStyle(
        tilt_deg=float(rng.uniform(0, 25)), tilt_towards_deg=float(rng.uniform(0, 360)),
        board_turn_deg=float(rng.uniform(0, 360)), pixels_per_unit=float(rng.uniform(46, 60)),
        centre_offset=(float(rng.uniform(-50, 50)), float(rng.uniform(-30, 30))),
        light_gradient=float(rng.uniform(0.0, 0.35)), light_angle_deg=float(rng.uniform(0, 360)),
        vignetting=float(rng.uniform(0.0, 0.4)),
        white_balance=tuple(float(g) for g in rng.uniform(0.92, 1.08, 3)),
        exposure=float(rng.uniform(0.85, 1.1)), blur_sigma=float(rng.uniform(0.3, 1.3)),
        noise_sigma=float(rng.uniform(1.5, 6.0)), jpeg_quality=int(rng.integers(70, 96)))


def random_style(rng: np.random.Generator, players: int = 4) -> TableStyle:
    """A table's set, print and camera, drawn at random."""
    names = tuple("ABCD"[:players])
    tiles = _tile_colours(rng)
    colours, kinds = _player_colours(rng, names, tiles)
    # Piece sizes spread evenly in log scale: as many tiny pawn heads as overhanging figures.
    hunter_size = float(math.exp(rng.uniform(math.log(0.2), math.log(1.15))))
    cards = {m: (float(np.clip(rng.normal(0, 0.04), -0.1, 0.1)), float(np.clip(rng.normal(0, 0.04), -0.1, 0.1)),
                 float(rng.uniform(-4, 4))) for m in MARKER_IDS}
    return TableStyle(
        players=names, tile_colours=tiles,
        tile_gap=float(rng.choice((0.0, rng.uniform(0.02, 0.07)))),
        border_width=float(rng.uniform(0.0, 0.07)), border_tone=str(rng.choice(("darker", "dark", "light"))),
        cross_colour=_hsv(rng.uniform(0, 1), rng.uniform(0.4, 0.9), rng.uniform(0.2, 0.6)),
        cross_glyph=str(rng.choice(("+", "x"))),
        mat_colour=None if rng.random() < 0.5 else _hsv(rng.uniform(0, 1), rng.uniform(0, 0.3), rng.uniform(0.3, 0.9)),
        table_colour=_hsv(rng.uniform(0, 1), rng.uniform(0.1, 0.5), rng.uniform(0.25, 0.75)),
        hunter_shape=str(rng.choice(HUNTER_SHAPES)), hunter_size=hunter_size,
        trap_shape=str(rng.choice(TRAP_SHAPES)), trap_size=float(rng.uniform(0.35, 0.85)),
        colours=colours, colour_kinds=kinds,
        outline_colour=_hsv(rng.uniform(0, 1), rng.uniform(0, 0.3), rng.uniform(0.05, 0.2)),
        mammoth_kind=str(rng.choice(MAMMOTH_KINDS)), mammoth_colour=_mammoth_colour(rng, colours),
        mammoth_size=float(rng.uniform(0.55, 1.2)), light_dir_deg=float(rng.uniform(0, 360)),
        cards=cards, camera=_camera(rng), texture_seed=int(rng.integers(2**31)))

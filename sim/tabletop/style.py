"""What one photographed table is made of: the players' set, its print, the room, the phone.

Drawn once per table from a numpy generator. The ranges come from what people's tables
look like (wooden, cloth, felt or laminate tops; a desk lamp, a ceiling light or a
window; a phone or a Pi camera on an arm) and what mammoth sets are made of (wooden
cylinders, cubes, pawns, meeples, glass beads, tall figures and standees; traps as
printed tokens, rings, discs or squares), never from how the board is read.

>>> import numpy as np
>>> look = random_look(np.random.default_rng(3), players=3)
>>> look.pieces.hunter_shape in HUNTER_SHAPES, look.pieces.trap_shape in TRAP_SHAPES
(True, True)
>>> 0 <= look.lens.tilt_deg <= 25 and 0.2 <= look.pieces.hunter_size <= 0.8
True
"""
from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass

import numpy as np

from vision.geometry import MARKER_IDS

HUNTER_SHAPES = ("cylinder", "cube", "pawn", "meeple", "bead", "figure", "standee")
TRAP_SHAPES = ("token", "ring", "disc", "square")
MAMMOTH_KINDS = ("token", "figure")
SURFACES = ("wood", "cloth", "felt", "laminate")
LIGHTS = ("desk", "ceiling", "window")
CROSS_MOTIFS = ("compass", "plus", "saltire", "ringed", "arrows")
#: A tile's width across its flats in board units (its circumradius is one unit).
TILE_WIDTH = math.sqrt(3)

RGB = tuple[int, int, int]

#: Colours sets come in, as their makers name them (sRGB).
PLAYER_COLOURS: dict[str, RGB] = {
    "natural wood": (212, 174, 122), "black": (34, 33, 35), "white": (234, 232, 224),
    "dark brown": (88, 56, 34), "olive": (110, 120, 48), "grey": (126, 127, 124),
    "red": (186, 34, 38), "blue": (34, 76, 168), "yellow": (236, 194, 34),
    "green": (42, 132, 62), "purple": (106, 54, 138), "orange": (226, 110, 32),
}
#: Set colours that a tile's print may come close to.
CLOSE_TO_TILE = {"grass": ("olive", "green"), "snow": ("white", "grey"), "rock": ("grey", "dark brown", "black")}


def hex_colour(rgb) -> str:
    """``#rrggbb`` of an RGB triple.

    >>> hex_colour((255, 8, 0))
    '#ff0800'
    """
    return "#" + "".join(f"{int(v):02x}" for v in rgb)


def _hsv(h: float, s: float, v: float) -> RGB:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return (round(r * 255), round(g * 255), round(b * 255))


def _nudge(rgb, rng: np.random.Generator, hue: float = 0.02, sat: float = 0.1, val: float = 0.08) -> RGB:
    """A colour as one maker's batch of it comes out: a little off the name's colour."""
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return _hsv(h + rng.uniform(-hue, hue), s * rng.uniform(1 - sat, 1 + sat), v * rng.uniform(1 - val, 1 + val))


def distance(a, b) -> float:
    return float(np.linalg.norm(np.subtract(a, b, dtype=float)))


@dataclass(frozen=True)
class Lens:
    """Where the camera is and what it is: angles in degrees, the board frame's units."""
    hfov_deg: float            # horizontal field of view (a Pi Wide module is near 100)
    tilt_deg: float            # optical axis from the vertical, 0-25
    tilt_axis_deg: float       # which way it leans, in the image (0: top of the picture farther)
    yaw_deg: float             # the board's turn in the picture
    pixels_per_unit: float     # tile circumradius in pixels near the aim point
    target: tuple[float, float]    # where on the table the camera aims, board units
    k1: float                  # radial lens distortion (negative: barrel)


@dataclass(frozen=True)
class Light:
    kind: str                  # "desk", "ceiling" or "window"
    lamp: tuple[float, float, float]    # x, y, height above the table (board units)
    key_rgb: tuple[float, float, float]     # the lamp's colour
    ambient_rgb: tuple[float, float, float]     # the room's fill light
    key_share: float           # how much of the light comes from the lamp
    ambient_gradient: tuple[float, float]
    penumbra: float            # soft shadow width, board units per unit of height
    glare: float               # strength of the lamp's reflection on glossy tiles (0: matte)
    glare_spread: float        # its radius, board units
    vignetting: float


@dataclass(frozen=True)
class Sensor:
    device: str                # "phone" or "pi"
    exposure: float
    white_balance: float       # how much of the light's cast the camera corrects, 0-1
    shot_noise: float          # noise variance per grey level
    read_noise: float          # noise sigma in the dark
    chroma_noise: float
    blur_sigma: float          # focus, pixels
    motion_px: float           # hand shake during exposure, pixels
    motion_deg: float
    sharpen: float
    saturation: float
    gamma: float
    jpeg_quality: int


@dataclass(frozen=True)
class Surface:
    kind: str                  # SURFACES
    colour: RGB
    colour2: RGB               # grain, weave or check colour
    angle_deg: float           # planks, weave or checks direction
    scale: float               # plank width or check size, board units
    pattern: str               # "planks", "plain", "gingham", "speckle"


@dataclass(frozen=True)
class TilePrint:
    grass: RGB
    grass_style: str           # "blades" or "leaves"
    snow: RGB
    snow_shade: RGB
    rock: RGB
    rock_style: str            # "cracked" or "pebbles"
    cross_ground: RGB
    cross_ink: RGB
    cross_ink2: RGB
    cross_motif: str
    gap: float                 # between neighbouring tiles' flats, board units
    thickness: float           # cardboard, board units
    corner_radius: float
    bevel: float               # how much the die-cut edge catches the light
    border: RGB | None         # a printed frame inside each tile, or none
    side: RGB                  # the cardboard's cut edge
    gloss: bool
    jitter: float              # how carelessly the tiles were laid, board units
    mat: RGB | None            # a printed board under tiles and cards, or none


@dataclass(frozen=True)
class PieceSet:
    hunter_shape: str
    hunter_size: float         # width as a fraction of a tile's width
    hunter_height: float       # height over width
    colours: dict[str, RGB]
    colour_names: dict[str, str]
    trap_shape: str
    trap_size: float
    trap_outline: str          # printed tokens: "disc", "square", "hex"
    trap_icon: str             # "jaws", "pit", "snare", "spikes"
    trap_colours: dict[str, RGB]
    trap_ground: RGB | None    # printed tokens on a neutral card (the ink in the player's colour)
    mammoth_kind: str
    mammoth_colour: RGB
    mammoth_size: float
    glossy: bool               # varnished wood or shiny plastic


@dataclass(frozen=True)
class TableLook:
    """Everything chosen for one table; :meth:`to_json` is what ``table.json`` says."""
    players: tuple[str, ...]
    surface: Surface
    tiles: TilePrint
    pieces: PieceSet
    cards: dict[int, tuple[float, float, float]]   # id -> (dx, dy, turn_deg) as laid by hand
    card_paper: RGB
    card_margin: float         # paper beyond the printed white border, board units
    lens: Lens
    light: Light
    sensor: Sensor
    texture_seed: int

    def to_json(self, tiles: dict[str, str]) -> dict:
        """``table.json``: the samples' keys first, then this generator's own."""
        p = self.pieces
        dark = [q for q, n in p.colour_names.items() if n in ("black", "dark brown")]
        return {
            "tiles": tiles, "players": list(self.players),
            "hunter_shape": p.hunter_shape, "trap_shape": p.trap_shape, "tilt": self.lens.tilt_deg,
            "colours": {q: hex_colour(c) for q, c in p.colours.items()},
            "mammoth_colour": hex_colour(p.mammoth_colour),
            "tile_colours": {"grass": hex_colour(self.tiles.grass), "snow": hex_colour(self.tiles.snow),
                             "rock": hex_colour(self.tiles.rock)},
            "dark_player": dark[0] if dark else None,
            "style": "photo of a cardboard table (sim.tabletop)",
            "colour_names": dict(p.colour_names),
            "trap_colours": {q: hex_colour(c) for q, c in p.trap_colours.items()},
            "hunter_size": p.hunter_size, "hunter_height": p.hunter_height, "trap_size": p.trap_size,
            "trap_token": {"outline": p.trap_outline, "icon": p.trap_icon} if p.trap_shape == "token" else None,
            "mammoth": p.mammoth_kind, "mammoth_size": p.mammoth_size,
            "surface": self.surface.kind, "surface_pattern": self.surface.pattern,
            "tile_art": {"grass": self.tiles.grass_style, "rock": self.tiles.rock_style,
                         "cross": self.tiles.cross_motif, "mat": self.tiles.mat is not None,
                         "glossy": self.tiles.gloss},
            "light": self.light.kind, "device": self.sensor.device,
            "cards": {str(k): {"dx": dx, "dy": dy, "turn_deg": t} for k, (dx, dy, t) in self.cards.items()},
            "lens": {k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(self.lens).items()},
        }


# -- drawing a table at random ----------------------------------------------------------------

def _surface(rng: np.random.Generator) -> Surface:
    kind = str(rng.choice(SURFACES, p=(0.4, 0.2, 0.15, 0.25)))
    angle = float(rng.uniform(0, 180))
    if kind == "wood":
        tone = [(196, 150, 100), (150, 98, 58), (92, 60, 38), (216, 190, 150), (180, 170, 160)][rng.integers(5)]
        base = _nudge(tone, rng, 0.02, 0.15, 0.12)
        return Surface(kind, base, _nudge(base, rng, 0.01, 0.1, 0.0), angle, float(rng.uniform(2.0, 5.0)),
                       "planks")
    if kind == "cloth":
        base = _hsv(rng.uniform(0, 1), rng.uniform(0.1, 0.6), rng.uniform(0.35, 0.9))
        if rng.random() < 0.4:                     # a checked tablecloth
            return Surface(kind, (238, 236, 230), base, angle, float(rng.uniform(0.8, 2.2)), "gingham")
        return Surface(kind, base, base, angle, 1.0, "plain")
    if kind == "felt":
        base = [(40, 92, 58), (34, 52, 96), (30, 30, 32), (100, 34, 40), (96, 98, 100)][rng.integers(5)]
        return Surface(kind, _nudge(base, rng), base, angle, 1.0, "plain")
    base = _hsv(rng.uniform(0.05, 0.6), rng.uniform(0.0, 0.15), rng.uniform(0.6, 0.95))
    return Surface(kind, base, _nudge(base, rng, 0.0, 0.0, 0.06), angle, float(rng.uniform(3, 6)), "speckle")


def _tile_print(rng: np.random.Generator) -> TilePrint:
    grass = _hsv(rng.uniform(0.2, 0.4), rng.uniform(0.35, 0.8), rng.uniform(0.35, 0.72))
    snow = _hsv(rng.uniform(0.5, 0.62), rng.uniform(0.0, 0.12), rng.uniform(0.86, 0.98))
    rock = _hsv(rng.uniform(0.03, 0.62), rng.uniform(0.03, 0.22), rng.uniform(0.32, 0.6))
    ground = [(232, 218, 182), (172, 168, 158), (214, 226, 236), (222, 200, 152), (78, 84, 96)][rng.integers(5)]
    dark_ground = sum(ground) < 300
    ink = _hsv(rng.uniform(0, 1), rng.uniform(0.3, 0.9), rng.uniform(0.75, 0.95) if dark_ground else
               rng.uniform(0.15, 0.55))
    mat = None if rng.random() < 0.55 else _hsv(rng.uniform(0, 1), rng.uniform(0.05, 0.45), rng.uniform(0.2, 0.75))
    side = [(118, 112, 100), (150, 120, 86), (40, 38, 36), (226, 222, 212)][rng.integers(4)]
    return TilePrint(
        grass=grass, grass_style=str(rng.choice(("blades", "leaves"))),
        snow=snow, snow_shade=_hsv(rng.uniform(0.55, 0.65), rng.uniform(0.12, 0.3), rng.uniform(0.6, 0.8)),
        rock=rock, rock_style=str(rng.choice(("cracked", "pebbles"))),
        cross_ground=_nudge(ground, rng, 0.02, 0.1, 0.05), cross_ink=ink,
        cross_ink2=_hsv(rng.uniform(0, 1), rng.uniform(0.2, 0.8), rng.uniform(0.3, 0.8)),
        cross_motif=str(rng.choice(CROSS_MOTIFS)),
        gap=float(rng.uniform(0.005, 0.08)), thickness=float(rng.uniform(0.03, 0.1)),
        corner_radius=float(rng.uniform(0.0, 0.12)), bevel=float(rng.uniform(0.0, 0.3)),
        border=None if rng.random() < 0.5 else _hsv(rng.uniform(0, 1), rng.uniform(0, 0.15),
                                                     float(rng.choice((0.15, 0.95)))),
        side=side, gloss=bool(rng.random() < 0.5), jitter=float(rng.uniform(0.0, 0.035)), mat=mat)


def _player_colours(rng: np.random.Generator, players, tiles: TilePrint) -> tuple[dict, dict]:
    """One set colour per player; sometimes one chosen close to a tile's print."""
    names = list(PLAYER_COLOURS)
    chosen: list[str] = []
    close_to = None
    if rng.random() < 0.5:                       # a colour close to the print of one tile
        close_to = str(rng.choice(("grass", "snow", "rock")))
        chosen.append(str(rng.choice(CLOSE_TO_TILE[close_to])))
    if rng.random() < 0.35:                      # a dark player
        chosen.append(str(rng.choice(("black", "dark brown"))))
    for name in rng.permutation(names):
        if len(chosen) >= len(players):
            break
        chosen.append(str(name))
    colours: dict[str, RGB] = {}
    kept: dict[str, str] = {}
    pool = [n for n in names if n not in chosen]
    for player, name in zip(players, rng.permutation(chosen[:len(players)])):
        colour = _nudge(PLAYER_COLOURS[str(name)], rng)
        if close_to and name in CLOSE_TO_TILE[close_to] and rng.random() < 0.5:
            colour = _nudge(getattr(tiles, close_to), rng, 0.03, 0.15, 0.1)   # the very green of the grass
        while any(distance(colour, c) < 60 for c in colours.values()) and pool:
            name = pool.pop(int(rng.integers(len(pool))))
            colour = _nudge(PLAYER_COLOURS[name], rng)
        colours[player], kept[player] = colour, str(name)
    return colours, kept


def _trap_colours(rng: np.random.Generator, colours: dict[str, RGB]) -> dict[str, RGB]:
    """Traps in the player's colour, or a lighter or darker shade of it."""
    shade = rng.choice(("same", "lighter", "darker"), p=(0.6, 0.2, 0.2))
    out = {}
    for player, c in colours.items():
        if shade == "lighter":
            out[player] = tuple(int(v + (255 - v) * 0.3) for v in c)
        elif shade == "darker":
            out[player] = tuple(int(v * 0.72) for v in c)
        else:
            out[player] = c
    return out


def _pieces(rng: np.random.Generator, players, tiles: TilePrint) -> PieceSet:
    colours, names = _player_colours(rng, players, tiles)
    shape = str(rng.choice(HUNTER_SHAPES))
    height = {"cylinder": rng.uniform(0.35, 1.3), "cube": 1.0, "pawn": rng.uniform(1.5, 2.1),
              "meeple": rng.uniform(0.9, 1.1), "bead": rng.uniform(0.4, 0.55), "figure": rng.uniform(2.0, 3.0),
              "standee": rng.uniform(1.3, 1.8)}[shape]
    size = float(math.exp(rng.uniform(math.log(0.2), math.log(0.8))))
    if shape in ("figure", "standee", "pawn"):
        size = min(size, 0.6)                    # a tall piece on a wide base would be a tower
    trap_shape = str(rng.choice(TRAP_SHAPES))
    mammoth_colour = _nudge([(128, 124, 120), (110, 80, 56), (150, 120, 90), (86, 80, 78)][rng.integers(4)], rng)
    return PieceSet(
        hunter_shape=shape, hunter_size=size, hunter_height=float(height), colours=colours, colour_names=names,
        trap_shape=trap_shape, trap_size=float(rng.uniform(0.35, 0.8)),
        trap_outline=str(rng.choice(("disc", "square", "hex"))), trap_icon=str(rng.choice(("jaws", "pit", "snare",
                                                                                           "spikes"))),
        trap_colours=_trap_colours(rng, colours),
        trap_ground=None if rng.random() < 0.6 else _nudge((236, 226, 200), rng),
        mammoth_kind=str(rng.choice(MAMMOTH_KINDS)), mammoth_colour=mammoth_colour,
        mammoth_size=float(rng.uniform(0.55, 0.95)), glossy=bool(rng.random() < 0.4))


def _lens(rng: np.random.Generator) -> Lens:
    tilt = float(rng.uniform(0, 25))
    along = float(rng.choice((0.0, 180.0, 90.0, 270.0), p=(0.4, 0.2, 0.2, 0.2)))
    axis = along + float(rng.normal(0, 8)) if rng.random() < 0.75 else float(rng.uniform(0, 360))
    return Lens(hfov_deg=float(rng.uniform(58, 102)), tilt_deg=tilt, tilt_axis_deg=axis % 360,
                yaw_deg=float(rng.uniform(0, 360)), pixels_per_unit=float(rng.uniform(42, 60)),
                target=(float(rng.uniform(-3.5, 3.5)), float(rng.uniform(-3.5, 3.5))),
                k1=float(0.0 if rng.random() < 0.4 else rng.uniform(-0.06, 0.0)))


def _kelvin(k: float) -> tuple[float, float, float]:
    """The colour of a light at ``k`` kelvin, as RGB gains around one (2700 warm, 6500 cool)."""
    t = (k - 2700) / (6500 - 2700)
    warm, cool = np.array((1.0, 0.8, 0.56)), np.array((0.94, 0.97, 1.06))
    return tuple(float(v) for v in warm + (cool - warm) * t)


def _light(rng: np.random.Generator) -> Light:
    kind = str(rng.choice(LIGHTS))
    turn = rng.uniform(0, 2 * math.pi)
    if kind == "desk":
        far, height, key = rng.uniform(3, 11), rng.uniform(6, 12), rng.uniform(2600, 4200)
        penumbra = rng.uniform(0.05, 0.15)
    elif kind == "ceiling":
        far, height, key = rng.uniform(0, 8), rng.uniform(18, 32), rng.uniform(2800, 5000)
        penumbra = rng.uniform(0.12, 0.3)
    else:
        far, height, key = rng.uniform(24, 40), rng.uniform(14, 26), rng.uniform(5000, 7000)
        penumbra = rng.uniform(0.2, 0.45)
    ambient = _kelvin(rng.uniform(3000, 7500))
    glare = float(rng.uniform(0.25, 0.7)) if rng.random() < 0.5 else 0.0
    return Light(kind=kind, lamp=(float(far * math.cos(turn)), float(far * math.sin(turn)), float(height)),
                 key_rgb=_kelvin(key), ambient_rgb=ambient, key_share=float(rng.uniform(0.4, 0.8)),
                 ambient_gradient=(float(rng.uniform(-0.25, 0.25)), float(rng.uniform(-0.25, 0.25))),
                 penumbra=float(penumbra), glare=glare, glare_spread=float(rng.uniform(0.6, 2.2)),
                 vignetting=float(rng.uniform(0.05, 0.45)))


def _sensor(rng: np.random.Generator) -> Sensor:
    device = str(rng.choice(("phone", "pi")))
    phone = device == "phone"
    shaky = rng.random() < 0.3
    return Sensor(
        device=device, exposure=float(rng.uniform(0.82, 1.12)), white_balance=float(rng.uniform(0.4, 0.9)),
        shot_noise=float(rng.uniform(0.02, 0.12) if phone else rng.uniform(0.08, 0.35)),
        read_noise=float(rng.uniform(0.5, 2.0) if phone else rng.uniform(1.5, 4.0)),
        chroma_noise=float(rng.uniform(0.5, 2.5) if phone else rng.uniform(1.5, 5.0)),
        blur_sigma=float(rng.uniform(0.3, 1.3)), motion_px=float(rng.uniform(1.0, 3.5) if shaky else 0.0),
        motion_deg=float(rng.uniform(0, 180)),
        sharpen=float(rng.uniform(0.4, 1.1) if phone else rng.uniform(0.0, 0.5)),
        saturation=float(rng.uniform(1.0, 1.3) if phone else rng.uniform(0.85, 1.1)),
        gamma=float(rng.uniform(0.9, 1.12)),
        jpeg_quality=int(rng.integers(78, 94) if phone else rng.integers(60, 88)))


def random_look(rng: np.random.Generator, players: int = 4) -> TableLook:
    """A table's set, print, room and camera, drawn at random."""
    names = tuple("ABCD"[:players])
    tiles = _tile_print(rng)
    # Cards laid by hand: a few millimetres (a board unit is 30-40 mm) and degrees off their spot.
    cards = {}
    for m in MARKER_IDS:
        r, a = rng.uniform(0, 0.11), rng.uniform(0, 2 * math.pi)
        cards[m] = (float(r * math.cos(a)), float(r * math.sin(a)), float(rng.uniform(-5, 5)))
    return TableLook(
        players=names, surface=_surface(rng), tiles=tiles, pieces=_pieces(rng, names, tiles), cards=cards,
        card_paper=_nudge((246, 246, 240), rng, 0.1, 0.5, 0.02), card_margin=float(rng.uniform(0.0, 0.2)),
        lens=_lens(rng), light=_light(rng), sensor=_sensor(rng), texture_seed=int(rng.integers(2**31)))

"""Synthetic camera frames of the kit, with ground truth (``maamut render``).

A frame is drawn in two steps: the board is painted top-down in board units (tiles,
markers, tokens), then a virtual camera looks at it with a rotation, a tilt of up to
~25°, lighting gradients, colour casts, optional hands, blur, noise and JPEG
compression. The camera is a proper rotation (never a reflection), so the image keeps
the handedness seen from above unless ``mirror=True`` asks for a mirrored webcam.

>>> rng = np.random.default_rng(5)
>>> tiles = random_layout(rng)
>>> sorted((t, tiles.count(t)) for t in set(tiles))
[('cross', 1), ('grass', 18), ('rock', 7), ('snow', 11)]
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from engine.hexgrid import CENTRE, NUM_CELLS, RING, ring

from vision.geometry import (ARUCO_DICTIONARY, BOARD_RADIUS, CELL_CENTRES, MARKER_IDS, MARKER_QUIET,
                       MARKER_SIZE, board_outline, marker_centre, project)
from vision.kit_size import DEFAULT_TILE_MM, unit_mm
from .render_palette import Look, Palette, random_look, random_palette

IMAGE_SIZE = (1280, 960)
TILE_COUNTS = {"rock": 7, "grass": 18, "snow": 11}
#: Texture resolution of the top-down board, pixels per tile circumradius.
TEX_SCALE = 48
_TEX_HALF = BOARD_RADIUS + 0.3
TEX_SIZE = int(2 * _TEX_HALF * TEX_SCALE)
_TEX_C = (TEX_SIZE - 1) / 2.0

# Token sizes in tile circumradii (the kit's design; the reader's zones follow them).
HUNTER_CORE, HUNTER_RADIUS = 0.22, 0.36
TRAP_RADIUS, RING_INNER = 0.62, 0.42
MAMMOTH_RADIUS = 0.60
#: How far off-centre players put tokens down (tile circumradii, per axis).
PLACEMENT_JITTER = 0.08


@dataclass
class Scene:
    """Ground truth of a board: what the reader should report."""
    tiles: tuple
    mammoth: int | None
    hunters: dict = field(default_factory=dict)   # label -> cell
    traps: dict = field(default_factory=dict)     # cell -> label

    def to_json(self) -> dict:
        from engine.hexgrid import cell_name
        return {
            "tiles": {cell_name(i): t for i, t in enumerate(self.tiles)},
            "mammoth": None if self.mammoth is None else cell_name(self.mammoth),
            "hunters": {k: cell_name(v) for k, v in sorted(self.hunters.items())},
            "traps": {cell_name(c): o for c, o in sorted(self.traps.items())},
        }


def random_layout(rng: np.random.Generator) -> tuple:
    """A legal tile layout: cross at the centre, 7/18/11 shuffled, ≤ 4 rocks in ring 1."""
    bag = ["rock"] * 7 + ["grass"] * 18 + ["snow"] * 11
    ring1 = set(ring(1))
    while True:
        rng.shuffle(bag)
        tiles, it = [], iter(bag)
        for cell in range(NUM_CELLS):
            tiles.append("cross" if cell == CENTRE else next(it))
        if sum(tiles[c] == "rock" for c in ring1) <= 4:
            return tuple(tiles)


def random_scene(rng: np.random.Generator, tiles=None, n_hunters=None, n_traps=None) -> Scene:
    """A random position: mammoth, up to 4 hunters and up to 16 traps on legal cells.

    Hunters sometimes stand on traps (their own or another's), as in play.
    """
    tiles = tiles or random_layout(rng)
    walkable = [c for c in range(NUM_CELLS) if tiles[c] != "rock"]
    mammoth = int(rng.choice(walkable))
    n_hunters = int(rng.integers(1, 5)) if n_hunters is None else n_hunters
    labels = [f"c{i}" for i in range(n_hunters)]
    free = [c for c in walkable if c != mammoth]
    grass = [c for c in range(NUM_CELLS) if tiles[c] == "grass" and c != mammoth]
    n_traps = int(rng.integers(0, min(17, 4 * max(n_hunters, 1) + 1))) if n_traps is None else n_traps
    n_traps = min(n_traps, 4 * n_hunters, len(grass))
    trap_cells = [int(c) for c in rng.choice(grass, size=n_traps, replace=False)] if n_traps else []
    owners = [labels[i % n_hunters] for i in range(n_traps)]
    rng.shuffle(owners)
    traps = dict(zip(trap_cells, owners))
    hunter_cells = [int(c) for c in rng.choice(free, size=n_hunters, replace=False)]
    return Scene(tiles, mammoth, dict(zip(labels, hunter_cells)), traps)


def own_colour_stacks(rng: np.random.Generator, tiles: tuple, n_hunters: int = 4) -> Scene:
    """The reader's hardest position: every hunter on a trap of his own colour, and as
    many lone traps of those colours (same colour in the core, told apart only by the
    hunter's outline).

    >>> from sim.render import random_layout
    >>> rng = np.random.default_rng(1)
    >>> scene = own_colour_stacks(rng, random_layout(rng), 2)
    >>> all(scene.traps[cell] == label for label, cell in scene.hunters.items()), len(scene.traps)
    (True, 4)
    """
    labels = [f"c{i}" for i in range(n_hunters)]
    grass = [c for c in range(NUM_CELLS) if tiles[c] == "grass"]
    cells = [int(c) for c in rng.choice(grass, size=2 * n_hunters + 1, replace=False)]
    mammoth = cells.pop()
    traps = {cells[i]: label for i, label in enumerate(labels)}
    traps.update({cells[n_hunters + i]: label for i, label in enumerate(labels)})
    return Scene(tiles, mammoth, {label: cells[i] for i, label in enumerate(labels)}, traps)


def setup_scenes(tiles: tuple, rng: np.random.Generator, n_hunters: int = 4) -> list[Scene]:
    """The calibration sequence: empty board, mammoth on the cross, then one hunter
    added per frame on ring-3 cells that are not rock."""
    outer = [c for c in range(NUM_CELLS) if RING[c] == 3 and tiles[c] != "rock"]
    cells = [int(c) for c in rng.choice(outer, size=n_hunters, replace=False)]
    return [Scene(tiles, CENTRE, {f"c{i}": cells[i] for i in range(k)}, {}) for k in range(n_hunters + 1)]


def trap_setup_scenes(last: Scene, rng: np.random.Generator) -> list[Scene]:
    """The optional setup step after the hunters: each player in seating order puts one
    of his traps down on a free grass cell (one more trap per frame)."""
    free = [c for c in range(NUM_CELLS) if last.tiles[c] == "grass" and c not in last.hunters.values()]
    cells = [int(c) for c in rng.choice(free, size=len(last.hunters), replace=False)]
    labels = sorted(last.hunters, key=lambda label: int(label[1:]))
    return [Scene(last.tiles, last.mammoth, dict(last.hunters), dict(zip(cells[:k], labels[:k])))
            for k in range(1, len(labels) + 1)]


# --- drawing helpers (top-down texture, board units) ----------------------------------

def _tex(points) -> np.ndarray:
    return (np.asarray(points, dtype=np.float64) * TEX_SCALE + _TEX_C)


def _poly(img, points, colour, shift=4):
    # Pixel centres sit at integer coordinates; fillPoly's edges at x + 0.5 need the
    # half-pixel shift for exact geometry.
    pts = np.round((_tex(points) + 0.0) * (1 << shift)).astype(np.int32)
    cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, shift)


def _regular(cx, cy, radius, sides, angle=0.0):
    a = angle + np.arange(sides) * 2 * np.pi / sides
    return np.stack([cx + radius * np.cos(a), cy + radius * np.sin(a)], axis=1)


def _circle(cx, cy, radius):
    return _regular(cx, cy, radius, 48)


def _shape(kind: str, cx, cy, radius, angle):
    if kind == "disc":
        return _circle(cx, cy, radius)
    if kind == "hexagon":
        return _regular(cx, cy, radius * 1.08, 6, angle)
    if kind == "square":
        return _regular(cx, cy, radius * 0.85 * math.sqrt(2), 4, angle + math.pi / 4)
    if kind == "octagon":
        return _regular(cx, cy, radius * 1.04, 8, angle)
    if kind == "pentagon":
        return _regular(cx, cy, radius * 1.12, 5, angle)
    raise ValueError(f"unknown shape {kind!r}")


def _bgr(rgb, jitter=0.0, rng=None):
    c = np.asarray(rgb, dtype=np.float64)
    if jitter and rng is not None:
        c = np.clip(c * rng.uniform(1 - jitter, 1 + jitter), 0, 1)
    return (float(c[2] * 255), float(c[1] * 255), float(c[0] * 255))


def _draw_tile(img, cell, name, pal: Palette, rng):
    cx, cy = CELL_CENTRES[cell]
    base = {"grass": pal.grass, "snow": pal.snow, "rock": pal.rock, "cross": pal.snow}[name]
    _poly(img, _regular(cx, cy, 0.95, 6, -math.pi / 2), _bgr(base, 0.05, rng))
    # Printed texture: a few speckles so tiles are not flat colour patches.
    for _ in range(6 if name != "rock" else 10):
        r = rng.uniform(0.04, 0.12)
        a, d = rng.uniform(0, 2 * np.pi), rng.uniform(0, 0.7)
        tone = rng.uniform(0.8, 1.12) if name != "rock" else rng.uniform(0.65, 1.3)
        _poly(img, _circle(cx + d * math.cos(a), cy + d * math.sin(a), r), _bgr(np.clip(np.array(base) * tone, 0, 1)))
    if name == "cross":
        w, l = 0.08, 0.6
        # A "+" along the board's axes, or an "x" (the same bars turned by 45°).
        turn = math.pi / 4 if pal.cross_shape == "x" else 0.0
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        for bar in ([(-l, -w), (l, -w), (l, w), (-l, w)], [(-w, -l), (w, -l), (w, l), (-w, l)]):
            _poly(img, np.asarray(bar) @ rot.T + (cx, cy), _bgr(pal.cross_mark))


def _draw_trap(img, cell, colour, pal: Palette, rng):
    cx, cy = CELL_CENTRES[cell] + rng.uniform(-PLACEMENT_JITTER, PLACEMENT_JITTER, 2)
    angle = rng.uniform(0, 2 * np.pi)
    edge = np.clip(np.asarray(colour) * 0.7, 0, 1)
    if pal.trap_shape == "ring":
        _poly(img, _circle(cx, cy, TRAP_RADIUS), _bgr(edge))
        _poly(img, _circle(cx, cy, TRAP_RADIUS - 0.03), _bgr(colour))
        # The hole shows the tile: paint it back with the tile under it.
        return ("ring", cx, cy)
    kind = pal.trap_shape
    radius = {"disc": TRAP_RADIUS, "square": 0.53 / 0.85, "hexagon": 0.66 / 1.08, "octagon": 0.64 / 1.04}[kind]
    _poly(img, _shape(kind, cx, cy, radius, angle), _bgr(edge))
    _poly(img, _shape(kind, cx, cy, radius - 0.03, angle), _bgr(colour))
    return None


def _draw_hunter(img, cell, colour, pal: Palette, rng, offset=(0.0, 0.0)):
    cx, cy = CELL_CENTRES[cell] + offset + rng.uniform(-PLACEMENT_JITTER, PLACEMENT_JITTER, 2)
    angle = rng.uniform(0, 2 * np.pi)
    # Hunters are thicker than traps: a soft drop shadow.
    shadow = img.copy()
    _poly(shadow, _shape(pal.hunter_shape, cx + 0.05, cy + 0.06, HUNTER_RADIUS, angle), (0, 0, 0))
    cv2.addWeighted(shadow, 0.35, img, 0.65, 0, dst=img)
    _poly(img, _shape(pal.hunter_shape, cx, cy, HUNTER_RADIUS, angle), _bgr(pal.rim, 0.1, rng))
    _poly(img, _shape(pal.hunter_shape, cx, cy, HUNTER_CORE, angle), _bgr(colour))


def _draw_mammoth(img, cell, pal: Palette, rng):
    cx, cy = CELL_CENTRES[cell] + rng.uniform(-PLACEMENT_JITTER, PLACEMENT_JITTER, 2)
    angle = rng.uniform(0, 2 * np.pi)
    body = _bgr(pal.mammoth)
    if pal.mammoth_shape == "blob":
        a = angle + np.linspace(0, 2 * np.pi, 60, endpoint=False)
        rad = MAMMOTH_RADIUS * (1 + 0.06 * np.sin(3 * a + rng.uniform(0, 6)))
        _poly(img, np.stack([cx + rad * np.cos(a), cy + rad * np.sin(a)], axis=1), body)
    else:
        _poly(img, _shape(pal.mammoth_shape, cx, cy, MAMMOTH_RADIUS, angle), body)
    # Tusks and an eye: small details that must not fool the reader.
    for side in (-1, 1):
        t = angle + side * 0.5
        pts = [(cx + 0.15 * math.cos(t), cy + 0.15 * math.sin(t)),
               (cx + 0.45 * math.cos(t + side * 0.3), cy + 0.45 * math.sin(t + side * 0.3)),
               (cx + 0.42 * math.cos(t + side * 0.4), cy + 0.42 * math.sin(t + side * 0.4)),
               (cx + 0.12 * math.cos(t + side * 0.15), cy + 0.12 * math.sin(t + side * 0.15))]
        _poly(img, pts, _bgr(pal.tusk))
    _poly(img, _circle(cx - 0.25 * math.cos(angle), cy - 0.25 * math.sin(angle), 0.05), (20, 20, 20))


#: Cards laid by hand: how far off their printed spot (millimetres at the kit's scale)
#: and how much turned (degrees), at most.
LOOSE_CARD_SHIFT_MM, LOOSE_CARD_TURN_DEG = 3.0, 5.0


def loose_cards(rng: np.random.Generator, shift_mm: float = LOOSE_CARD_SHIFT_MM,
                turn_deg: float = LOOSE_CARD_TURN_DEG, tile_mm: float = DEFAULT_TILE_MM) -> dict:
    """Where a player's hands put each marker card: ``{id: (dx, dy, turn)}``, the shift in
    board units (up to ``shift_mm`` per axis at the scale of tiles ``tile_mm`` across
    flats) and the turn in radians (up to ``turn_deg``).

    >>> cards = loose_cards(np.random.default_rng(3))
    >>> sorted(cards) == list(MARKER_IDS), all(abs(dx) <= 0.1 for dx, _, _ in cards.values())
    (True, True)
    """
    limit = shift_mm / unit_mm(tile_mm)
    return {marker: (float(rng.uniform(-limit, limit)), float(rng.uniform(-limit, limit)),
                     float(np.radians(rng.uniform(-turn_deg, turn_deg)))) for marker in MARKER_IDS}


def _card_points(marker_id: int, points, cards: dict | None) -> np.ndarray:
    """Board points of a card drawn at its printed spot, moved to where it was laid."""
    pts = np.asarray(points, dtype=np.float64)
    if not cards or marker_id not in cards:
        return pts
    dx, dy, turn = cards[marker_id]
    centre = np.array(marker_centre(marker_id))
    c, s = math.cos(turn), math.sin(turn)
    rel = pts - centre
    return centre + np.array([dx, dy]) + rel @ np.array([[c, s], [-s, c]])


def _draw_marker(img, marker_id: int, cards: dict | None = None):
    """Draw a marker cell by cell at its board position (anti-aliased), or where it was
    laid (``cards``, see :func:`loose_cards`)."""
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    bits = cv2.aruco.generateImageMarker(dictionary, marker_id, 6) < 128   # 4x4 code + border
    cx, cy = marker_centre(marker_id)
    step = MARKER_SIZE / bits.shape[0]
    x0, y0 = cx - MARKER_SIZE / 2, cy - MARKER_SIZE / 2
    for row, col in zip(*np.nonzero(bits)):
        x, y = x0 + col * step, y0 + row * step
        _poly(img, _card_points(marker_id, [(x, y), (x + step, y), (x + step, y + step), (x, y + step)], cards),
              (0, 0, 0), shift=6)


def board_texture(scene: Scene, pal: Palette, rng: np.random.Generator, cards: dict | None = None,
                  hidden_cards=()) -> np.ndarray:
    """The board seen straight from above (BGR), board centre at the texture centre.

    ``cards`` moves marker cards off their printed spot (:func:`loose_cards`);
    ``hidden_cards`` are not on the board at all (lost, or under a box lid)."""
    img = np.zeros((TEX_SIZE, TEX_SIZE, 3), np.uint8)
    _poly(img, board_outline(), _bgr(pal.board))
    for cell, name in enumerate(scene.tiles):
        _draw_tile(img, cell, name, pal, rng)
    paper = _bgr((0.96, 0.96, 0.94), 0.03, rng)
    for marker in MARKER_IDS:
        cx, cy = marker_centre(marker)
        h = MARKER_SIZE / 2 + MARKER_QUIET
        if marker in hidden_cards:
            continue
        _poly(img, _card_points(marker, [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)],
                                cards), paper)
        _draw_marker(img, marker, cards)
    colour_of = {label: pal.players[int(label[1:]) % len(pal.players)] for label in
                 set(scene.hunters) | set(scene.traps.values())}
    trap_colour_of = {label: (pal.trap_colours[int(label[1:])] if pal.trap_colours else colour)
                      for label, colour in colour_of.items()}
    for cell, owner in scene.traps.items():
        hole = _draw_trap(img, cell, trap_colour_of[owner], pal, rng)
        if hole:
            _, cx, cy = hole
            tile = scene.tiles[cell]
            base = {"grass": pal.grass, "snow": pal.snow, "rock": pal.rock, "cross": pal.snow}[tile]
            _poly(img, _circle(cx, cy, RING_INNER), _bgr(base, 0.03, rng))
    if scene.mammoth is not None:
        _draw_mammoth(img, scene.mammoth, pal, rng)
    for label, cell in scene.hunters.items():
        _draw_hunter(img, cell, colour_of[label], pal, rng, hunter_offsets(scene)[label])
    return img


#: Where players put a token down beside the others already on a cell (tile circumradii
#: from its centre): two side by side, three in a triangle overlapping a little; a hunter
#: joining the mammoth stands on the mammoth's token, off its middle.
SIDE_BY_SIDE = 0.3
ON_MAMMOTH = 0.2


def hunter_offsets(scene: Scene) -> dict:
    """Each hunter's offset from his cell's centre (board units) as a player puts him down.

    >>> tiles = ("grass",) * 18 + ("cross",) + ("grass",) * 18
    >>> offsets = hunter_offsets(Scene(tiles, 18, {"c0": 3, "c1": 3, "c2": 18, "c3": 5}))
    >>> [round(float(np.hypot(*offsets[k])), 2) for k in ("c0", "c1", "c2", "c3")]
    [0.3, 0.3, 0.2, 0.0]
    """
    by_cell: dict[int, list] = {}
    for label, cell in scene.hunters.items():
        by_cell.setdefault(cell, []).append(label)
    offsets = {}
    for cell, labels in by_cell.items():
        # A fixed turn per cell (no random draw: frames of one board stay alike).
        turn = 0.7 * cell
        if len(labels) == 1:
            distance = ON_MAMMOTH if cell == scene.mammoth else 0.0
        else:
            distance = SIDE_BY_SIDE
        for k, label in enumerate(labels):
            a = turn + 2 * math.pi * k / len(labels)
            offsets[label] = np.array([distance * math.cos(a), distance * math.sin(a)])
    return offsets


def piece_cases(rng: np.random.Generator, tiles: tuple, n_hunters: int = 4, cases=("stack", "trap", "mammoth")) -> Scene:
    """A random position with hunters where they are hardest to see: two or three on one
    cell (``"stack"``), on a trap of their own or another player's colour (``"trap"``),
    on the mammoth's cell, as in the middle of a move (``"mammoth"``).

    >>> rng = np.random.default_rng(3)
    >>> scene = piece_cases(rng, random_layout(rng), 4)
    >>> cells = list(scene.hunters.values())
    >>> len(set(cells)) < len(cells), scene.mammoth in cells
    (True, True)
    >>> scene = piece_cases(rng, scene.tiles, 2, cases=("trap",))
    >>> any(c in scene.traps for c in scene.hunters.values()), max(list(scene.traps.values()).count(k) for k in scene.hunters)
    (True, 4)
    """
    labels = [f"c{i}" for i in range(n_hunters)]
    walkable = [int(c) for c in range(NUM_CELLS) if tiles[c] != "rock"]
    grass = [c for c in walkable if tiles[c] == "grass"]
    picked = [int(c) for c in rng.choice(grass, size=8, replace=False)]
    mammoth, trap_cells = picked[0], picked[1:]
    # At most four traps per player, as in the box.
    owners = [labels[i % n_hunters] for i in range(min(len(trap_cells), 4 * n_hunters))]
    rng.shuffle(owners)
    trap_cells = trap_cells[:len(owners)]
    traps = dict(zip(trap_cells, owners))
    order = list(rng.permutation(labels))
    hunters: dict[str, int] = {}
    if "stack" in cases and len(order) >= 2:
        size = 3 if len(order) >= 4 and rng.random() < 0.3 else 2
        free = [c for c in walkable if c != mammoth and c not in traps]
        cell = int(rng.choice(free))
        for _ in range(size):
            hunters[str(order.pop())] = cell
    if "mammoth" in cases and order:
        hunters[str(order.pop())] = mammoth
    if "trap" in cases and order:
        hunters[str(order.pop())] = int(rng.choice(trap_cells))
    taken = set(hunters.values()) | {mammoth}
    for label in order:
        cell = int(rng.choice([c for c in walkable if c not in taken]))
        taken.add(cell)
        hunters[str(label)] = cell
    return Scene(tiles, mammoth, dict(sorted(hunters.items())), traps)


# --- the camera ---------------------------------------------------------------------

def camera_homography(look: Look, size=IMAGE_SIZE) -> np.ndarray:
    """Board units -> image pixels for a pinhole camera looking down at the table.

    The board plane is rotated by ``yaw``, tilted by ``tilt`` about an axis in the
    plane, and placed so it spans ``scale`` of the image height.
    """
    w, h = size
    f = 1.1 * w
    rz = np.array([[math.cos(look.yaw), -math.sin(look.yaw), 0], [math.sin(look.yaw), math.cos(look.yaw), 0], [0, 0, 1]])
    axis = np.array([math.cos(look.tilt_axis), math.sin(look.tilt_axis), 0.0]) * look.tilt
    rt, _ = cv2.Rodrigues(axis)
    r = rt @ rz
    depth = f * 2 * BOARD_RADIUS / (look.scale * h)
    t = np.array([look.shift[0] * w * depth / f, look.shift[1] * h * depth / f, depth])
    k = np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1]])
    hmat = k @ np.column_stack([r[:, 0], r[:, 1], t])
    return hmat / hmat[2, 2]


def fit_look(look: Look, size=IMAGE_SIZE) -> Look:
    """Shrink the board until its outline is inside the frame with a small margin."""
    w, h = size
    for _ in range(30):
        pts = project(camera_homography(look, size), board_outline())
        if pts[:, 0].min() > 8 and pts[:, 1].min() > 8 and pts[:, 0].max() < w - 8 and pts[:, 1].max() < h - 8:
            return look
        look = replace(look, scale=look.scale * 0.95, shift=(look.shift[0] * 0.8, look.shift[1] * 0.8))
    return look


@dataclass
class Hand:
    """An arm reaching over the board from one image edge towards a board point."""
    target: tuple          # board units
    edge_point: tuple      # image pixels where the arm enters
    width: float           # forearm width, pixels
    skin: tuple            # RGB
    sleeve: tuple          # RGB


def random_hand(rng: np.random.Generator, size=IMAGE_SIZE) -> Hand:
    w, h = size
    side = int(rng.integers(4))
    t = rng.uniform(0.15, 0.85)
    edge = [(t * w, -20), (w + 20, t * h), (t * w, h + 20), (-20, t * h)][side]
    a, d = rng.uniform(0, 2 * np.pi), rng.uniform(0, 4.5)
    tone = rng.uniform(0.25, 0.95)
    skin = (tone, tone * rng.uniform(0.7, 0.85), tone * rng.uniform(0.55, 0.75))
    sleeve = tuple(float(v) for v in rng.uniform(0.05, 0.95, 3))
    return Hand((d * math.cos(a), d * math.sin(a)), edge, float(rng.uniform(70, 120)), skin, sleeve)


def _draw_hand(img, hand: Hand, hom: np.ndarray, rng) -> np.ndarray:
    """Paint the arm (with its shadow) into the image; returns its mask."""
    tip = project(hom, np.array([hand.target]))[0]
    start = np.array(hand.edge_point)
    direction = (tip - start) / max(np.linalg.norm(tip - start), 1e-6)
    wrist = tip - direction * hand.width * 0.9
    mask = np.zeros(img.shape[:2], np.uint8)
    shadow = np.zeros(img.shape[:2], np.uint8)
    offset = np.array([18, 24])

    def arm(canvas, shift, value):
        s = (start + shift).astype(int)
        wpt = (wrist + shift).astype(int)
        cv2.line(canvas, tuple(s), tuple(wpt), value, int(hand.width), cv2.LINE_AA)
        palm = (tip + shift - direction * hand.width * 0.35).astype(int)
        ang = math.degrees(math.atan2(direction[1], direction[0]))
        cv2.ellipse(canvas, tuple(palm), (int(hand.width * 0.75), int(hand.width * 0.6)), ang, 0, 360, value, -1, cv2.LINE_AA)
        for k in range(4):   # fingers
            spread = math.radians(-30 + 20 * k)
            dvec = np.array([direction[0] * math.cos(spread) - direction[1] * math.sin(spread),
                             direction[0] * math.sin(spread) + direction[1] * math.cos(spread)])
            end = (tip + shift + dvec * hand.width * 0.55).astype(int)
            cv2.line(canvas, tuple(palm), tuple(end), value, int(hand.width * 0.2), cv2.LINE_AA)

    arm(shadow, offset, 255)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 12)
    black = np.zeros_like(img)
    keep = 1.0 - 0.45 * shadow.astype(np.float32) / 255.0
    img[:] = cv2.blendLinear(img, black, keep, 1.0 - keep)
    arm(mask, np.zeros(2), 255)
    layer = np.empty_like(img)
    layer[:] = np.array(_bgr(np.clip(np.array(hand.skin) * rng.uniform(0.85, 1.15), 0, 1))).astype(np.uint8)
    # The sleeve covers the part of the arm near the image edge.
    sleeve_mask = np.zeros_like(mask)
    cv2.line(sleeve_mask, tuple(start.astype(int)), tuple((start + (wrist - start) * 0.55).astype(int)), 255,
             int(hand.width * 1.15), cv2.LINE_AA)
    layer[sleeve_mask > 0] = np.array(_bgr(hand.sleeve)).astype(np.uint8)
    mask = np.maximum(mask, sleeve_mask)
    alpha = mask.astype(np.float32) / 255.0
    img[:] = cv2.blendLinear(layer, img, alpha, 1.0 - alpha)
    return mask


def occluded_truth(mask: np.ndarray, hom: np.ndarray) -> tuple[int, ...]:
    """Cells whose tile area (radius 0.85) is touched by the hand mask (> 1 % of it)."""
    small = cv2.resize(mask, (mask.shape[1] // 4, mask.shape[0] // 4), interpolation=cv2.INTER_AREA)
    quarter = np.diag([0.25, 0.25, 1.0]) @ hom
    cells = []
    for cell in range(NUM_CELLS):
        pts = project(quarter, _circle(*CELL_CENTRES[cell], 0.85))
        x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        patch = small[y0:y1, x0:x1]
        if patch.size == 0:
            continue
        cell_mask = np.zeros_like(patch)
        cv2.fillPoly(cell_mask, [np.round(pts - (x0, y0)).astype(np.int32)], 255)
        inside = np.count_nonzero(cell_mask)
        if np.count_nonzero((cell_mask > 0) & (patch > 127)) > 0.01 * max(inside, 1):
            cells.append(cell)
    return tuple(cells)


def render_frame(scene: Scene, palette: Palette, look: Look, rng: np.random.Generator,
                 hand: Hand | None = None, mirror: bool = False, size=IMAGE_SIZE, cards: dict | None = None,
                 hidden_cards=()):
    """Render one BGR frame and its truth: ``(image, {"homography", "occluded_cells"})``.

    The homography is the tiles' (board units to pixels); marker cards laid by hand
    (``cards``) are off it by their shift and turn."""
    w, h = size
    look = fit_look(look, size)
    hom = camera_homography(look, size)
    # Table: a colour with a faint wood-like grain.
    table = np.empty((h, w, 3), np.float32)
    table[:] = _bgr(palette.table)
    grain = cv2.resize(rng.normal(0, 1, (h // 16, w // 64)).astype(np.float32), (w, h))
    table *= (1 + 0.06 * grain)[..., None]
    img = np.clip(table, 0, 255).astype(np.uint8)
    tex = board_texture(scene, palette, rng, cards, hidden_cards)
    alpha_tex = np.zeros((TEX_SIZE, TEX_SIZE), np.uint8)
    _poly(alpha_tex, board_outline(), 255)
    to_tex = np.array([[TEX_SCALE, 0, _TEX_C], [0, TEX_SCALE, _TEX_C], [0, 0, 1]])
    m = hom @ np.linalg.inv(to_tex)
    warped = cv2.warpPerspective(tex, m, (w, h), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(alpha_tex, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
    img = cv2.blendLinear(warped, img, alpha, 1.0 - alpha)
    occluded: tuple[int, ...] = ()
    if hand is not None:
        occluded = occluded_truth(_draw_hand(img, hand, hom, rng), hom)
    # Lighting: a linear gradient, a colour cast, maybe a soft shadow (computed coarse,
    # then enlarged: lighting is smooth).
    sw, sh = w // 8, h // 8
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    ys, xs = ys * 8, xs * 8
    base, gx, gy = look.gradient
    light = base + gx * (xs / w - 0.5) + gy * (ys / h - 0.5)
    if look.shadow:
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        rad = rng.uniform(0.15, 0.35) * w
        light *= 1 - 0.35 * np.exp(-(((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * rad * rad)))
    if look.hotspot is not None:
        (hx, hy, hr), strength = look.hotspot[:3], look.hotspot[3]
        light *= 1 + strength * np.exp(-(((xs - hx * w) ** 2 + (ys - hy * h) ** 2) / (2 * (hr * w) ** 2)))
    light = cv2.resize(light.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    cast = np.array(look.cast[::-1], np.float32)
    out = img.astype(np.float32) * (light[..., None] * cast)
    if any(look.ambient):
        out += np.array(look.ambient[::-1], np.float32)
    if look.blur > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), look.blur)
    if look.noise > 0:
        out += rng.standard_normal(out.shape, dtype=np.float32) * np.float32(look.noise)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if look.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if mirror:
        out = cv2.flip(out, 1)
    return out, {"homography": hom, "occluded_cells": occluded}


@dataclass
class Kit:
    """One physical set under one lamp: a palette and a camera look shared by frames."""
    palette: Palette
    look: Look

    @classmethod
    def random(cls, rng: np.random.Generator, **palette_options) -> "Kit":
        """A random set; ``palette_options`` go to :func:`random_palette`."""
        return cls(random_palette(rng, **palette_options), random_look(rng))

    def nudged(self, rng: np.random.Generator) -> "Look":
        """The same set a moment later: the board slightly pushed, the light a bit different."""
        lk = self.look
        return replace(lk, yaw=lk.yaw + rng.normal(0, 0.01),
                       shift=(lk.shift[0] + rng.normal(0, 0.003), lk.shift[1] + rng.normal(0, 0.003)),
                       cast=tuple(c * rng.uniform(0.97, 1.03) for c in lk.cast),
                       noise=float(rng.uniform(0, 5)), jpeg=int(rng.integers(60, 96)))

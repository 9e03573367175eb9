"""Pieces read by what they change on each cell's own empty reference.

The tiles never move during a game, so the empty board seen at setup is a reference for
every cell: its print, its speckles, its texture, its light. A piece, whatever its size,
shape or print, is what differs from that reference (``pieces: "changes"`` in the
calibration):

* **Learning** (:func:`learn_changes`). The first setup frame gives each cell's empty
  look (the cross cell's under the mammoth is the snow tiles'). Each hunter is what
  changed between one setup frame and the next: its *body* (the colour that tells the
  player), its *dark* part (outline, shadow, a standing piece's shade) with its own
  colour, its *extent* on its cell and its *overhang* on a neighbour, each counted in
  grid points, so a pawn's head a fifth of a tile wide is learnt like a disc. The
  players' bodies are chosen together, each by a colour cluster that tells him from
  the others (:func:`telling_bodies`), and each piece keeps how much of the other
  players' colours it shows alone (its *echo*, also the mammoth's).
* **Reading** (:func:`read_changes`). Each point of a cell's dense grid is compared with
  the same point of that cell's empty look, under the cell's light now
  (:func:`cell_light`). The points that changed are matched with the mammoth, each
  player's body colour and the dark colour (lightness counts, so near-black, dark-brown
  and white players stay apart), else with a chromatic player's hue family (a trap's
  shade). Each hunter stands where about his size of his colour shows and what he
  leaves unexplained has an owner and his dark part shows (:func:`_hunters`); on a trap
  of his own colour, his dark part tells him. What a piece lends the others' colours
  is no piece of theirs (:func:`echoes`). A trap is what the hunters on a grass cell
  leave unexplained, owned by the colour shown beyond them (:func:`_traps`); on a lone
  trap, by a colour that reaches full depth there (:func:`colour_depth`), not one that
  only passes for it blended with the tile.

Confidence per cell says how far each count is from the line it was judged against;
the tracker waits when a cell is unsure (:mod:`vision.stability`).
"""
from __future__ import annotations

import base64
from collections import Counter
from dataclasses import dataclass, field
from itertools import permutations
from typing import NamedTuple

import cv2
import numpy as np

from engine.hexgrid import CENTRE, NEIGHBOURS, NUM_CELLS, RADIUS, ring_of

from .colour import DARK_LAB_WEIGHTS, fit_gain_field, kmeans, lab_distance, to_lab
from .geometry import CELL_CENTRES, project

#: The dense grid each cell is compared on (tile circumradii): fine enough that a pawn's
#: head a fifth of a tile wide covers a dozen points, inside the tile's own edges.
GRID_STEP = 0.06
GRID_RADIUS = 0.8
#: The calibration file keeps each cell's empty look in ten-thousandths of a reflectance.
EMPTY_SCALE = 10_000
_AXIS = np.arange(-GRID_RADIUS, GRID_RADIUS + 1e-9, GRID_STEP)
GRID = np.stack(np.meshgrid(_AXIS, _AXIS), axis=-1).reshape(-1, 2)
GRID = GRID[np.hypot(GRID[:, 0], GRID[:, 1]) <= GRID_RADIUS]
_RADIUS = np.hypot(GRID[:, 0], GRID[:, 1])
#: The cell's light now is measured on its outer points, which pieces rarely cover.
_OUTER = _RADIUS > 0.5
#: A cell's own light (its outer points against its empty look) straying this far (log
#: ratio) from the smooth light over the board is a piece covering the cell, not light.
LIGHT_STRAY = 0.3
#: ... and straying less, from FLAT_STRAY, where its ring's texture fell under
#: FLAT_TEXTURE of the empty tile's (at least FLAT_MIN_TEXTURE: a plain tile tells
#: nothing) (:func:`_flattened`).
FLAT_STRAY, FLAT_TEXTURE, FLAT_MIN_TEXTURE = 0.12, 0.5, 0.02
#: A grid point changed when it moved at least this far (ΔE) from the empty look
#: (sensor noise and jpeg stay under 6 on a still camera).
CHANGED = 14.0
#: A setup step shows its new hunter on at least this many changed points...
PLACED_POINTS = 6
#: ... else, a piece close to its tile's colour, on this many at the first of these
#: lower lines where one free cell shows this many times as many as any other
#: (:func:`_faint_line`).
FAINT_LINES = (12.0, 10.0, 8.0)
FAINT_ALONE = 3.0
#: A point changed by this share of :data:`CHANGED` counts when a learnt piece's colour
#: lies within FAINT_BETTER of its distance from the tile.
FAINT_SHARE = 0.5
FAINT_BETTER = 0.4
#: ... and by this many times the board's own unrest (the change most of its points,
#: bare tiles, show: a lamp's flicker, a noisy sensor), else noise would pass for pieces.
FAINT_NOISE = 3.0
#: A changed point belongs to a learnt colour within this distance (ΔE, lightness halved).
MATCH = 28.0
MATCH_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)
#: A piece's dark part (outline, shadow) is this much darker (Lab L) than its body and
#: than the tile under it.
DARKER = 22.0
#: ... or by this share of the darker one's lightness, whichever is less (a navy body
#: on dark rock leaves little room below it, as for the kit's outline).
DARKER_SHARE = 0.25

#: A shadow keeps its tile's colour at this share of its brightness, within SHADOW_MATCH.
SHADOW_SCALE = (0.25, 0.85)
SHADOW_MATCH = 8.0
#: ... and explains the point better than any learnt piece colour by this (ΔE).
SHADOW_BETTER = 3.0
#: The cross's print covers at most this share of its cell's grid.
CROSS_MAX_SHARE = 0.35
#: A hunter shows at least this share of the body points learnt for him.
HUNTER_SHARE = 0.35
#: A patch of a player's colour this many times his hunter's body is trap-sized: his
#: trap, or he on it.
TRAP_FACTOR = 1.45
#: A trap's colour is of its player's family: his hue within FAMILY_HUE degrees, for
#: players (and points) with a hue at all (chroma at least FAMILY_CHROMA).
FAMILY_HUE = 20.0
FAMILY_CHROMA = 20.0
#: ... or within this when no other player's hue is nearer than twice as far.
FAMILY_HUE_ALONE = 35.0
#: A trap: what the pieces on a cell leave unexplained, over this many grid points
#: (a twelfth of the cell), showing at least OWNER_POINTS of a player's colour.
TRAP_POINTS = 45
OWNER_POINTS = 20
#: Under a hunter, a trap shows at least this many points of its player's colour
#: beyond the hunter's own, whatever else his extent explains.
UNDER_OWNER = 40
#: ... and, when the frame's lone traps show how large a trap is (:func:`trap_share`),
#: at least this share of what the hunters there cannot hide of it (its size less their
#: extents): less of a player's colour beside another's hunter is not his trap under
#: that one but his own hunter half hidden behind him (a shared sample: two meeples
#: side by side, the dark one read as a trap under the yellow).
UNDER_UNHIDDEN = 0.5
#: A flat piece covers its cell's middle: its player's colour reaches full depth there
#: (the deepest tenth of his points at least TRAP_DEPTH of the way from the tile to
#: his colour, :func:`colour_depth`). A colour that only ever shows half-mixed with the
#: tile is another's passing for it (grey on green reads as purple mixed with green):
#: on a lone trap, such a player counts SHALLOW_SHARE of his points for its owner.
TRAP_DEPTH = 0.8
SHALLOW_SHARE = 0.1
#: A hunter whose cell would keep a remainder of no owner's colour fits that much less.
UNOWNED_PENALTY = 0.5
#: On his own trap, a hunter shows this share of the dark points learnt with him.
DARK_SHARE = 0.4
#: A hunter whose dark part shows nowhere near (under DARK_SHARE of it) fits a cell
#: that much less, in shares of his size: his colour alone, flat, is a trap's.
DARK_MISSING = 1.0
#: The mammoth shows at least this share of the points it covers on the cross.
MAMMOTH_SHARE = 0.35
#: ... or this share when no other cell shows a MAMMOTH_CLEAR-th of it.
MAMMOTH_FAINT = 0.1
MAMMOTH_CLEAR = 2.5
#: The mammoth stands on the cross's middle, whatever its size: the points this near it.
CROSS_MIDDLE = 0.3
#: ... or on the cross, when this share of its middle still looks as at setup
#: (:func:`still_on_cross`).
MAMMOTH_STAYS = 0.6
#: Below this share the cross yields to a cell showing this many times its mammoth.
MAMMOTH_SURELY_STAYS = 0.9
MAMMOTH_ELSEWHERE = 2.0
#: ... or, on a cell whose tile ring is covered, this share (the whole mammoth).
MAMMOTH_WHOLE = 1.0
#: Changed points of no learnt colour: this many make the cell unreadable (a hand, a
#: die, a piece not learnt yet).
UNKNOWN_POINTS = 14
UNKNOWN_SHARE = 0.5
#: The tile ring (beyond this radius) has changed from the empty board when this share
#: of its points shows no learnt piece.
RING_RADIUS = 0.66
RING_CHANGED = 0.06
#: A standing piece's stance: its points spread along the camera's lean (the top of a
#: piece seen further from the camera's foot than its base) this many times more than
#: across it, on a cell where a figure's top leans at least MIN_LEAN tile radii
#: (:func:`vision.reader.figure_leans`). A flat trap spreads evenly (1.0-1.1 measured).
STANDS = 1.2
MIN_LEAN = 0.25
#: A standing hunter's fit on a cell where his colour lies flat is this much lower.
FLAT_PENALTY = 0.3
#: The learned cell classifier (:mod:`vision.cell_model`) this sure that a cell holds no
#: trap (its trap odds under this) outweighs what the reader leaves unexplained there: a
#: standing piece's shade or lean, a hunter's own edge. Measured on the development
#: tables of both generators (docs/vision.md): of the trap patches it vetoes, none was a
#: trap; at 0.05 it began to veto real ones.
NO_TRAP_ODDS = 0.01
#: The classifier this sure that a hunter stands on a cell where none was read...
HUNTER_ODDS = 0.9
#: ... puts there a player whose hunter was read nowhere, when the cell shows at least
#: this share of his body's colour (a glass bead shows its tile through it, little of
#: the colour learnt at setup). Such a guess is always unsure (:func:`seen_hunters`).
TRACE_SHARE = 0.1
#: The classifier this sure of a trap on a grass cell where one hunter stands and the
#: colours show none: his own trap, hidden under him (:func:`hidden_traps`). Measured on
#: the development tables (docs/vision.md): frames right 93 → 100 of 200 on sim.flatart,
#: 21 → 20 on sim.tabletop (at 0.9: 99 and 19).
UNDER_TRAP_ODDS = 0.95
#: A hunter read where the classifier gives a hunter under this...
NO_HUNTER_ODDS = 0.15
#: ... stands rather on one of his own traps where it gives a hunter this much more
#: (:func:`hunters_onto_own_traps`).
OWN_TRAP_LEAD = 0.2
#: A hunter read where the classifier gives a hunter under this...
MISPLACED_ODDS = 0.3
#: ... stands rather on a cell where it gives one :data:`HUNTER_ODDS` or more, no hunter
#: was read, and his colour shows most, at least this many points (:func:`misplaced_hunters`).
#: Measured on fresh development tables (docs/vision.md, session 13): 8 hunters set right
#: on sim.flatart, none set wrong; 34 right for 2 wrong on sim.tabletop.
MISPLACED_POINTS = 5
#: A hunter read nowhere is placed on his own trap where the classifier gives a hunter
#: this much (:func:`unplaced_onto_own_traps`). Measured on fresh development tables
#: (docs/vision.md, session 13): of the hunters it would place at 0.2, 38 right for 9
#: wrong on sim.flatart, 41 for 17 on sim.tabletop.
UNPLACED_ODDS = 0.2
#: The hunter-on-trap model (:class:`vision.cell_model.FineModel`) this sure of a
#: hunter on one of the traps of a player read nowhere, and this much surer than on any
#: other of them, places him there (:func:`unplaced_onto_own_traps`); a hunter read on
#: one of his traps moves to another it is this sure and this much surer of
#: (:func:`onto_likelier_own_traps`). Measured on fresh development tables
#: (docs/vision.md, session 16): frames right 254 → 276 of 600 on sim.flatart and
#: 79 → 85 on sim.tabletop, none lost. At 0.3 (279 and 85) it placed the absent player
#: of a shared sample (flat-6900001: 0.36 on one of his four traps, 0.22-0.25 on the others).
HUNTER_ON_TRAP_ODDS = 0.5
HUNTER_ON_TRAP_LEAD = 0.1
#: The trap-under-hunter model (:class:`vision.cell_model.FineModel`) this sure of a trap
#: under a lone hunter where none was read puts his own there, unsure; this sure of none
#: under a hunter where one was read takes it away, unsure (:func:`traps_under_hunters`).
#: Measured on fresh development tables (docs/vision.md, session 16): frames right
#: 276 → 320 of 600 on sim.flatart and 85 → 94 on sim.tabletop; of the traps it changed,
#: 151 right for 7 wrong and 89 for 16.
TRAP_UNDER_HUNTER_ODDS = 0.95
NO_TRAP_UNDER_HUNTER_ODDS = 0.05
#: The classifier this sure of a trap on a grass cell where nothing was read (no hunter,
#: not the mammoth, no trap) puts one there, unsure, of the player whose colour it shows
#: most (:func:`lone_traps`). Measured on fresh development tables (docs/vision.md,
#: session 13): no empty lone cell got odds of 0.5 or more, and 280 of 309 lone traps the
#: colours missed on sim.tabletop did (35 of 36 on sim.flatart); their owner by the colours
#: was right for 176 (23).
LONE_TRAP_ODDS = 0.5
#: The classifier this sure of the mammoth on one cell...
MAMMOTH_ODDS = 0.8
#: ... and under this on the cell the colours put him on (or none), moves him there,
#: unsure (:func:`mammoth_by_odds`). Measured on fresh development tables (docs/vision.md,
#: session 13): on sim.tabletop 44 mammoths set right, none set wrong; none moved on sim.flatart.
NO_MAMMOTH_ODDS = 0.1
#: ... where it sees no piece, or rather a hunter than not: a hunter's colour close to
#: the mammoth's drew the mammoth onto his cell (session 15: on fresh sim.tabletop
#: development tables 14 more mammoths set right, none set wrong, none moved on
#: sim.flatart or on the shared samples).
MAMMOTH_ON_HUNTER_ODDS = 0.5
#: A hunter there does not let him go when the classifier gives him even odds on a
#: cell away from the one it is surest of too (sim.tabletop development table
#: 5,000,002: 0.99 and 0.92 on two cells four apart, the second his).
MAMMOTH_ELSEWHERE_ODDS = 0.5
#: Under this on the cell the colours put him on, he is not there whatever stands on it
#: (mostly a trap his colours were taken for, or the next cell): he moves where it is
#: sure of him (session 20: on fresh development tables 11 sim.tabletop and 3
#: sim.flatart mammoths set right, none set wrong; at 0.05, 15 on sim.tabletop, but the
#: figure of the shared sample photo-9100001, which the classifier hardly knows, shows
#: 0.046 on his own cell, his back 0.89 two cells away).
MAMMOTH_GONE_ODDS = 0.02


@dataclass
class Look:
    """A piece as setup saw it: its body colour (reflectance), how many grid points its
    body and its dark part cover, how many points of its cell it changed in all
    (``extent``: body, dark part, blended edges, print) and at most on one neighbour
    (``overhang``: a figure wider than its cell). Files without the last two load
    with what the body and dark part say."""
    colour: tuple
    body: float
    dark: float = 0.0
    extent: float = 0.0
    overhang: float = 0.0
    #: The dark part's own colour (reflectance), when it has one.
    dark_colour: tuple | None = None
    #: How his body spread along the camera's lean at setup (:func:`stance`; 0: not seen).
    stands: float = 0.0
    #: How many points of each other player's colour his piece showed alone at setup
    #: (``{label: points}``: a pawn's white highlight, a meeple's shaded side).
    echo: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"colour": [round(float(v), 5) for v in self.colour], "body": round(float(self.body), 2),
                "dark": round(float(self.dark), 2), "extent": round(float(self.extent), 2),
                "overhang": round(float(self.overhang), 2),
                **({} if self.dark_colour is None else {"dark_colour": [round(float(v), 5) for v in self.dark_colour]}),
                **({"stands": round(float(self.stands), 3)} if self.stands else {}),
                **({"echo": {k: round(float(v), 1) for k, v in self.echo.items()}} if self.echo else {})}

    @classmethod
    def from_json(cls, obj) -> "Look":
        body, dark = float(obj["body"]), float(obj.get("dark", 0.0))
        dark_colour = obj.get("dark_colour")
        return cls(tuple(float(v) for v in obj["colour"]), body, dark, float(obj.get("extent", body + dark)),
                   float(obj.get("overhang", 0.0)), None if dark_colour is None else tuple(float(v) for v in dark_colour),
                   float(obj.get("stands", 0.0)), {str(k): float(v) for k, v in obj.get("echo", {}).items()})


@dataclass
class ChangeModel:
    """Each cell's empty look and each piece's learnt look (see the module docstring)."""
    empty: np.ndarray                          # (37, n, 3) reflectance of the empty board's grid
    mammoth: Look
    hunters: dict[str, Look] = field(default_factory=dict)
    dark: tuple = (0.1, 0.1, 0.1)              # reflectance of the pieces' dark parts
    #: Grid points of the cross cell its print may cover (under the mammoth at setup too).
    cross_print: tuple = ()
    #: The cross print's colour (reflectance) seen around the mammoth at setup, if any.
    print_colour: tuple | None = None
    #: (n, 3) the cross cell as setup saw it, the mammoth on it (reflectance, the board's
    #: light around divided out): while it looks so, the mammoth has not left.
    cross_setup: np.ndarray | None = None
    #: (37, 3) each cell's light on the empty board at setup (None: not kept, files
    #: written before it): a lamp's pool or a dark corner stays where it was.
    setup_light: np.ndarray | None = None

    def to_json(self) -> dict:
        # Reflectances in ten-thousandths: in hundredths a dark rock tile's 0.06 was
        # off by up to 8 %, and a set read from its calibration file read other pieces
        # than the same set learnt in memory.
        extra = {} if self.cross_setup is None else {"cross_setup": _encode_looks(self.cross_setup)}
        if self.setup_light is not None:
            extra["setup_light"] = [[round(float(v), 4) for v in cell] for cell in self.setup_light]
        return {"grid_step": GRID_STEP, "grid_radius": GRID_RADIUS, "empty_scale": EMPTY_SCALE,
                "empty": _encode_looks(self.empty),
                "mammoth": self.mammoth.to_json(), "hunters": {k: v.to_json() for k, v in self.hunters.items()},
                "dark": [round(float(v), 5) for v in self.dark], "cross_print": [int(i) for i in self.cross_print],
                **({} if self.print_colour is None else
                   {"print_colour": [round(float(v), 5) for v in self.print_colour]}), **extra}

    @classmethod
    def from_json(cls, obj) -> "ChangeModel":
        if obj.get("grid_step") != GRID_STEP or obj.get("grid_radius") != GRID_RADIUS:
            raise ValueError("grid differs from this reader's")
        # Files written before "empty_scale" hold hundredths, one byte each.
        scale = obj.get("empty_scale", 100)
        if scale not in (100, EMPTY_SCALE):
            raise ValueError(f"empty_scale: expected 100 or {EMPTY_SCALE}, got {scale!r}")
        setup = None
        if obj.get("cross_setup") is not None:
            setup = _decode_looks(obj["cross_setup"], scale, len(GRID)).reshape(len(GRID), 3)
        return cls(_decode_looks(obj["empty"], scale, NUM_CELLS * len(GRID)).reshape(NUM_CELLS, len(GRID), 3),
                   Look.from_json(obj["mammoth"]),
                   {str(k): Look.from_json(v) for k, v in obj.get("hunters", {}).items()},
                   tuple(float(v) for v in obj.get("dark", (0.1, 0.1, 0.1))),
                   tuple(int(i) for i in obj.get("cross_print", ())),
                   None if obj.get("print_colour") is None else tuple(float(v) for v in obj["print_colour"]), setup,
                   None if obj.get("setup_light") is None else np.asarray(obj["setup_light"], np.float32))


def _encode_looks(reflectances: np.ndarray) -> str:
    """Reflectances as base64 of little-endian 16-bit ten-thousandths (:data:`EMPTY_SCALE`)."""
    return base64.b64encode(np.clip(np.round(reflectances * EMPTY_SCALE), 0, 65535).astype("<u2").tobytes()).decode(
        "ascii")


def _decode_looks(text: str, scale: int, points: int) -> np.ndarray:
    """``(points, 3)`` reflectances from :func:`_encode_looks`'s text (one byte a value
    in hundredths when ``scale`` is 100, as files written before ``empty_scale``).

    >>> looks = np.array([[0.06, 0.5, 1.0]], np.float32)
    >>> _decode_looks(_encode_looks(looks), EMPTY_SCALE, 1).tolist() == looks.tolist()
    True
    """
    raw = np.frombuffer(base64.b64decode(text), np.uint8 if scale == 100 else "<u2")
    if raw.size != points * 3:
        raise ValueError(f"expected {points * 3} values, got {raw.size}")
    return raw.reshape(points, 3).astype(np.float32) / scale


def sample_grid(frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """(37, n, 3) RGB 0..1 of every cell's grid points (bilinear, no warp of the frame)."""
    pts = project(homography, (CELL_CENTRES[:, None, :] + GRID[None]).reshape(-1, 2)).astype(np.float32)
    values = cv2.remap(frame, pts[None, :, 0].copy(), pts[None, :, 1].copy(), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)[0]
    return (values[:, ::-1].astype(np.float32) / 255.0).reshape(NUM_CELLS, len(GRID), 3)


_AROUND = [[n for n in NEIGHBOURS[c] if n is not None] for c in range(NUM_CELLS)]
#: ``(cells, their neighbours)`` for the cells of each neighbour count: one median a
#: group rather than one a cell (the same values, a tenth of the time).
_AROUND_GROUPS = [(np.array([c for c in range(NUM_CELLS) if len(_AROUND[c]) == size]),
                   np.array([_AROUND[c] for c in range(NUM_CELLS) if len(_AROUND[c]) == size]))
                  for size in sorted({len(a) for a in _AROUND})]


def _median_around(values: np.ndarray) -> np.ndarray:
    """(37, ...) the median of each cell's neighbours' ``values`` (37, ...)."""
    out = np.empty_like(values)
    for cells, around in _AROUND_GROUPS:
        out[cells] = np.median(values[around], axis=1)
    return out


def _median_around_unless(values: np.ndarray, skip: np.ndarray, otherwise: np.ndarray) -> np.ndarray:
    """(37, ...) the median of each cell's neighbours' ``values`` but those ``skip``
    (37 bools); ``otherwise`` where every neighbour is skipped."""
    masked = np.where(skip.reshape(-1, *([1] * (values.ndim - 1))), np.nan, values)
    out = np.empty_like(values)
    for cells, around in _AROUND_GROUPS:
        taken, none = masked[around], skip[around].all(axis=1)
        taken[none] = 0.0   # (those rows are replaced below: no empty slice's warning)
        out[cells] = np.nanmedian(taken, axis=1)
        out[cells[none]] = otherwise[cells[none]]
    return out


def _light_ratios(reference: np.ndarray, grid: np.ndarray, base: np.ndarray | None = None):
    """Each cell's own light (the ratio of its outer points), its neighbours' (the median
    of their log ratios), and whether its own strays from theirs by more than :data:`LIGHT_STRAY`.
    With ``base`` (37, 3: each cell's light at setup), what is compared is each cell's
    light against its own at setup, and the neighbours' light lent is their change
    since setup times the cell's own light then: a desk lamp's pool falls off by twice
    from one corner cell to the next (sim.tabletop development table 5,000,040: the
    corner 2.1, its neighbours 1.2-1.8), so the corner strayed on the empty board
    itself, and was read changed all over.

    >>> reflectance = np.full((NUM_CELLS, len(GRID), 3), 0.4, np.float32)
    >>> light = np.ones((NUM_CELLS, 3)); light[0] = 2.1                    # a lamp's pool on a corner
    >>> empty_board = reflectance * light[:, None, :]
    >>> bool(_light_ratios(reflectance, empty_board)[2][0]), bool(_light_ratios(reflectance, empty_board, light)[2][0])
    (True, False)

    A neighbour that strays itself (a piece covers it) lends no light: a bare tile on
    the board's edge between two large pieces would otherwise take their colour for its
    light and pass for covered (sim.flatart development game 3,600,001: a pawn stepped
    off an edge cell that then still read as fully changed)."""
    ratio = np.median(np.clip(grid[:, _OUTER], 0.02, 1) / np.clip(reference[:, _OUTER], 0.02, None), axis=1)
    at_setup = 0.0 if base is None else np.log(np.clip(base, 0.02, None))
    logs = np.log(np.clip(ratio, 0.02, None)) - at_setup
    around = _median_around(logs)
    stray = np.abs(logs - around).max(axis=1) > LIGHT_STRAY
    if stray.any():
        around = _median_around_unless(logs, stray, around)
        stray = np.abs(logs - around).max(axis=1) > LIGHT_STRAY
    return ratio, around + at_setup, stray | _flattened(grid, reference, logs, around, stray)


def _flattened(grid: np.ndarray, reference: np.ndarray, logs: np.ndarray, around: np.ndarray,
               stray: np.ndarray) -> np.ndarray:
    """(37,) cells whose own light is off their neighbours' by less than
    :data:`LIGHT_STRAY` (from :data:`FLAT_STRAY`) while the texture of their ring (the
    spread of its points' log lightness) has fallen under :data:`FLAT_TEXTURE` of the
    empty tile's. Light scales a tile's texture, never wipes it out: a plain piece
    close to its tile's colour that covers the whole ring does (a white disc wider than
    its snow tile, sim.flatart development game 3,600,009, 1.2 times as bright as the
    tile and its texture a tenth of the tile's: read as a brighter light and no piece).

    >>> ref = np.tile(np.linspace(0.4, 0.6, len(GRID))[:, None], (NUM_CELLS, 1, 3))
    >>> seen = ref * 1.0; seen[4] = 0.62
    >>> logs = np.log(np.median(seen[:, _OUTER] / ref[:, _OUTER], axis=1))
    >>> _flattened(seen, ref, logs, np.zeros((NUM_CELLS, 3)), np.zeros(NUM_CELLS, bool))[[3, 4]].tolist()
    [False, True]
    """
    out = np.zeros(NUM_CELLS, bool)
    for c in np.flatnonzero(~stray & (np.abs(logs - around).max(axis=1) > FLAT_STRAY)):
        was = np.log(np.clip(reference[c, _OUTER].mean(axis=1), 0.02, None)).std()
        now = np.log(np.clip(grid[c, _OUTER].mean(axis=1), 0.02, None)).std()
        out[c] = was >= FLAT_MIN_TEXTURE and now < FLAT_TEXTURE * was
    return out


def light_strays(reference: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """(37,) cells whose own light strays from their neighbours' (a piece over the ring):
    :func:`cell_light` takes theirs there."""
    return _light_ratios(reference, grid)[2]


def cell_light(reference: np.ndarray, grid: np.ndarray, strays: np.ndarray | None = None,
               base: np.ndarray | None = None) -> np.ndarray:
    """(37, 3) each cell's light now against ``reference`` (a grid of the same board):
    the median ratio of its outer points, most of which no piece covers, channel by
    channel. A piece covering most of the cell (a mammoth token as wide as its tile, a
    large figure) would pass its own colour for the light: where a cell's ratio strays
    from its neighbours' (their median) by more than :data:`LIGHT_STRAY`, theirs is
    taken. (Light changes smoothly from one cell to the next, not always as one smooth
    field over the board: a lamp's pool, a print's own shading.) ``strays`` (37 bools)
    takes the neighbours' light on those cells too: two frames compared with each other
    through the empty board are then lit alike where either strays (a ring trap whose
    own ratio lies near the line would otherwise count its ring in one and not the other).
    ``base``: each cell's light at setup (:func:`_light_ratios`).

    >>> empty = np.full((NUM_CELLS, len(GRID), 3), 0.5, np.float32)
    >>> seen = empty * 0.8; seen[3] = 0.1
    >>> cell_light(empty, seen)[[2, 3], 1].astype(float).round(2).tolist()
    [0.8, 0.8]
    """
    ratio, around, stray = _light_ratios(reference, grid, base)
    if strays is not None:
        stray = stray | strays
    return np.where(stray[:, None], np.exp(around), ratio)


def relit_empty(empty: np.ndarray, grid: np.ndarray, strays: np.ndarray | None = None) -> np.ndarray:
    """The empty look of each cell under its light now (:func:`cell_light`).

    >>> empty = np.full((NUM_CELLS, len(GRID), 3), 0.5, np.float32)
    >>> round(float(relit_empty(empty, empty * 0.8)[3, 0, 1]), 3)
    0.4
    """
    return np.clip(empty * cell_light(empty, grid, strays)[:, None, :], 0, 1)


def _neighbours() -> np.ndarray:
    """(n, 9) each grid point and the grid points around it (itself where none)."""
    index = {(int(round(x / GRID_STEP)), int(round(y / GRID_STEP))): i for i, (x, y) in enumerate(GRID)}
    out = np.empty((len(GRID), 9), int)
    for i, (x, y) in enumerate(GRID):
        gx, gy = int(round(x / GRID_STEP)), int(round(y / GRID_STEP))
        out[i] = [index.get((gx + dx, gy + dy), i) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    return out


_NEIGHBOURS = _neighbours()


def changed_points(grid_lab: np.ndarray, expected_lab: np.ndarray) -> np.ndarray:
    """(37, n) ΔE of every grid point from the cell's empty look (relit) at that point
    or one grid step around it: the board found again in each frame may sit a pixel
    off, which at a print's sharp edge is no piece."""
    change = lab_distance(grid_lab, expected_lab, np.ones(3, np.float32))
    cells, points = np.nonzero(change > CHANGED)      # only those can be a pixel off
    if cells.size:
        around = expected_lab[cells[:, None], _NEIGHBOURS[points]]                    # (m, 9, 3)
        change[cells, points] = lab_distance(grid_lab[cells, points][:, None, :], around,
                                             np.ones(3, np.float32)).min(axis=1)
    return change


def changed_counts(before: np.ndarray, after: np.ndarray, strays: np.ndarray | None = None) -> np.ndarray:
    """(37,) how many grid points of each cell changed from ``before`` to ``after``
    (:func:`sample_grid` of two frames), each cell's light now divided out first
    (``strays``: cells lit as their neighbours, :func:`cell_light`)."""
    return (changed_points(to_lab(after), to_lab(relit_empty(before, after, strays))) > CHANGED).sum(axis=1)


def faint_changed_counts(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """(37,) as :func:`changed_counts`, counting the points that moved by FAINT_SHARE of
    :data:`CHANGED`, or by FAINT_NOISE times the board's own unrest (its median point's
    change) where that is more. A piece of a colour close to its tile's moves every
    point of its cell, each by less than CHANGED (sim.flatart development game
    3,600,016: an olive disc as wide as its rock tile, 12.8 ΔE at its median point and
    25 points past CHANGED, where no other cell's median point moved 2).

    >>> empty = np.full((NUM_CELLS, len(GRID), 3), 0.4, np.float32)
    >>> olive = empty.copy(); olive[5, :, 1] += 0.06        # every point of cell 5, a little
    >>> int(changed_counts(empty, olive)[5]), int(faint_changed_counts(empty, olive)[5]) == len(GRID)
    (0, True)
    """
    # Each cell lit as its neighbours are: a piece as wide as its tile covers the ring
    # its own light is measured on, and a colour close to the tile's would pass for light.
    change = changed_points(to_lab(after), to_lab(relit_empty(before, after, np.ones(NUM_CELLS, bool))))
    line = max(CHANGED * FAINT_SHARE, FAINT_NOISE * float(np.median(change)))
    return (change > line).sum(axis=1)


def shadowed(grid: np.ndarray, grid_lab: np.ndarray, expected: np.ndarray, piece_distance=None) -> np.ndarray:
    """(37, n) grid points that show their tile in a piece's shadow: the tile's own
    colour, darker. A shadow tells nothing of whose piece cast it (on a dark tile a
    shadow would pass for a near-black piece's body); a near-black piece is far darker.
    With ``piece_distance`` (each point's distance to the nearest learnt piece colour,
    :func:`match_points`), only the points the dimmed tile explains clearly better are
    shadows: a grey piece on white snow *is* the snow's colour, darker.

    >>> tile = np.full((NUM_CELLS, len(GRID), 3), [0.3, 0.6, 0.3], np.float32)
    >>> seen = tile.copy(); seen[:, :2] *= 0.5; seen[:, 2:4] = 0.03
    >>> shadowed(seen, to_lab(seen), tile)[0, :5].tolist()
    [True, True, False, False, False]
    """
    scale = (grid * expected).sum(axis=2) / np.maximum((expected * expected).sum(axis=2), 1e-6)
    dim = to_lab(np.clip(expected * scale[..., None], 0, 1))
    shade = (scale >= SHADOW_SCALE[0]) & (scale <= SHADOW_SCALE[1]) & (
        lab_distance(grid_lab, dim, np.ones(3, np.float32)) < SHADOW_MATCH)
    if piece_distance is not None:
        shade &= lab_distance(grid_lab, dim, MATCH_WEIGHTS) + SHADOW_BETTER < piece_distance
    return shade


def _piece_clusters(after_lab: np.ndarray, before_lab: np.ndarray, moved: np.ndarray):
    """The moved points of a piece just put down in three colour clusters: ``(idx,
    labels, centres_lab, sizes, core)`` (None when too few points to split). The
    ``core`` is the cluster at the piece's middle (a token's core, a pawn's head; a
    highlight or a shadow lies to one side), or its lit side (:func:`_lit_side`)."""
    idx = np.flatnonzero(moved)
    if idx.size < 15:
        return None
    data = (after_lab[idx] * MATCH_WEIGHTS).astype(np.float32)
    labels, centres = kmeans(data, 3)
    pts = GRID[idx]
    gap = np.hypot(*(pts - pts.mean(axis=0)).T)
    inner = gap <= np.percentile(gap, 30)
    core = int(np.bincount(labels[inner], minlength=3).argmax())
    centres_lab = centres / MATCH_WEIGHTS
    sizes = np.bincount(labels, minlength=3)
    core = _lit_side(centres_lab, sizes, core, np.median(before_lab[idx], axis=0))
    return idx, labels, centres_lab, sizes, core


def _body_and_dark(after_lab: np.ndarray, before_lab: np.ndarray, moved: np.ndarray, clusters=None, body_at=None):
    """Split the moved points of a piece just put down into its body (the colour that
    tells the player) and its dark part (an outline, a shadow). The body is the
    cluster ``body_at`` of :func:`_piece_clusters` (by default its core); the darkest,
    when it is not the body and clearly darker than the tile under it, is the dark part."""
    body = moved.copy()
    dark = np.zeros_like(moved)
    clusters = _piece_clusters(after_lab, before_lab, moved) if clusters is None else clusters
    if clusters is None:
        return body, dark
    idx, labels, centres_lab, _, core = clusters
    core = core if body_at is None else body_at
    body = np.zeros_like(moved)
    body[idx[labels == core]] = True
    darkest = int(np.argmin(centres_lab[:, 0]))
    tile_l = float(np.median(before_lab[idx, 0]))
    light_l = centres_lab[:, 0]
    darker = min(tile_l, light_l[core])
    if darkest != core and light_l[darkest] < darker - min(DARKER, DARKER_SHARE * darker):
        dark[idx[labels == darkest]] = True
    return body, dark


#: A cluster of what a hunter changed at setup may tell his player when it holds this
#: share of his change, shows a hue (chroma FAMILY_CHROMA) not his tile's and lies at
#: least MATCH from his tile.
TELLING_SHARE = 0.15


def _confusable(a, b) -> bool:
    """Two learnt colours a point could be matched with alike (within :data:`MATCH`,
    lightness counting in full: a black player and a grey one stay apart)."""
    return float(lab_distance(np.asarray(a, float), np.asarray(b, float), np.ones(3))) < MATCH


def telling_bodies(candidates: list[list[tuple]], mammoth_lab) -> list[int]:
    """Which colour cluster tells each hunter from the others: ``candidates[k]`` are
    hunter ``k``'s clusters ``(lab, is_core)`` that may be his body, his core first. The
    middle of what a standing piece changed is often its shaded side or its base,
    near-black for every player (a card standee's foot, a glass bead's dark middle): a
    body that tells no player from another. The players' bodies are chosen together:
    fewest pairs that a point could not tell apart (:func:`_confusable`, each player
    also against the mammoth), then most hunters keeping their core, then farthest apart.

    >>> red, black, grey = [45.0, 60, 40], [10.0, 0, 0], [14.0, 1, 1]
    >>> telling_bodies([[(grey, True), (red, False)], [(black, True)]], [60.0, 10, 10])
    [1, 0]
    >>> telling_bodies([[(grey, True), (red, False)], [(red, True)]], [60.0, 10, 10])
    [0, 0]
    """
    import itertools
    labs = [[np.asarray(lab, float) for lab, _ in options] for options in candidates]
    best, choice = None, [0] * len(candidates)
    for combo in itertools.product(*[range(len(c)) for c in candidates]):
        chosen = [labs[k][i] for k, i in enumerate(combo)]
        pairs = [(chosen[a], chosen[b]) for a in range(len(chosen)) for b in range(a + 1, len(chosen))]
        pairs += [(lab, mammoth_lab) for lab in chosen]
        confused = sum(_confusable(x, y) for x, y in pairs)
        cores = sum(candidates[k][i][1] for k, i in enumerate(combo))
        apart = sum(min(float(lab_distance(x, np.asarray(y, float), MATCH_WEIGHTS)), MATCH) for x, y in pairs)
        score = (-confused, cores, apart)
        if best is None or score > best:
            best, choice = score, list(combo)
    return choice


def _candidates(clusters, tile_lab) -> tuple[list[tuple], list[int]]:
    """A hunter's clusters that may be his body (:func:`telling_bodies`) and their
    indices: his core, and each other one of :data:`TELLING_SHARE` of his change with a
    hue of its own (not a blend of his tile's)."""
    _, _, centres_lab, sizes, core = clusters
    out, which = [(centres_lab[core], True)], [core]
    chroma = np.hypot(centres_lab[:, 1], centres_lab[:, 2])
    hue = np.degrees(np.arctan2(centres_lab[:, 2], centres_lab[:, 1]))
    tile_hue = np.degrees(np.arctan2(tile_lab[2], tile_lab[1]))
    tile_chromatic = np.hypot(tile_lab[1], tile_lab[2]) >= FAMILY_CHROMA
    for k in range(len(centres_lab)):
        tile_like = tile_chromatic and abs((hue[k] - tile_hue + 180) % 360 - 180) < LIT_HUE
        if (k != core and sizes[k] >= TELLING_SHARE * sizes.sum() and chroma[k] >= FAMILY_CHROMA and not tile_like
                and lab_distance(centres_lab[k], tile_lab, MATCH_WEIGHTS) >= MATCH):
            out.append((centres_lab[k], False))
            which.append(k)
    return out, which


def stance(points: np.ndarray, leans: np.ndarray | None) -> np.ndarray:
    """(37,) how much each cell's ``points`` (37, n) spread along the camera's lean on
    that cell (``leans`` (37, 2), board units) against across it: a standing piece's
    top is seen beyond its base, away from the camera, so its colour is drawn out that
    way; a flat one is not. 0 where the lean is too short to tell (a camera looking
    straight down) or the points too few.

    >>> pts = np.zeros((NUM_CELLS, len(GRID)), bool)
    >>> pts[0] = (np.abs(GRID[:, 0]) <= 0.13) & (np.abs(GRID[:, 1]) <= 0.4)     # drawn out north-south
    >>> pts[1] = np.hypot(GRID[:, 0], GRID[:, 1]) <= 0.3                          # a flat disc
    >>> leans = np.tile([0.0, 0.5], (NUM_CELLS, 1))
    >>> stance(pts, leans)[:3].round(1).tolist()
    [3.3, 1.0, 0.0]
    """
    out = np.zeros(NUM_CELLS)
    if leans is None:
        return out
    length = np.hypot(leans[:, 0], leans[:, 1])
    unit = leans / np.maximum(length, 1e-6)[:, None]
    along = unit @ GRID.T                                    # (37, n)
    across = np.stack([-unit[:, 1], unit[:, 0]], axis=1) @ GRID.T
    weight = points.astype(np.float32)
    count = weight.sum(axis=1)
    told = (length >= MIN_LEAN) & (count >= 10)
    if not told.any():
        return out

    def spread(values):
        mean = (values * weight).sum(axis=1) / np.maximum(count, 1)
        return np.sqrt(np.maximum((values * values * weight).sum(axis=1) / np.maximum(count, 1) - mean * mean, 0))

    # (Only the cells told: most show too few points.)
    along, across, weight, count = along[told], across[told], weight[told], count[told]
    out[told] = spread(along) / np.maximum(spread(across), GRID_STEP / 2)
    return out


#: A standing piece's lit side: of its player's hue (within this, degrees), lighter by
#: LIT_LIGHTER and stronger than the shaded side the middle of its change may show.
LIT_HUE = 30.0
LIT_LIGHTER = 10.0
LIT_SHARE = 0.2


def _lit_side(centres_lab: np.ndarray, sizes: np.ndarray, core: int, tile_lab: np.ndarray) -> int:
    """The cluster that tells a standing piece's colour: seen from a tilted camera, the
    middle of what a figure changed may be its shaded side (or its shadow's edge), a
    darker, duller shade of its colour. A cluster of the same hue, clearly lighter and
    stronger, holding a fair share of the change, is its lit side and tells the colour.
    A near-black or white piece has no hue to go by and keeps its middle, and the tile
    (``tile_lab``) seen between a piece's parts is no lit side.

    >>> c = np.array([[8.0, 16, -9], [37, 40, -35], [35, -37, 32]])     # shaded, lit purple; grass
    >>> _lit_side(c, np.array([50, 40, 30]), 0, np.array([35.0, -37, 32]))
    1
    >>> c = np.array([[14.0, -6, 6], [36, -35, 33], [60, 0, 0]])        # near-black on grass
    >>> _lit_side(c, np.array([50, 40, 30]), 0, np.array([35.0, -37, 32]))
    0
    """
    chroma = np.hypot(centres_lab[:, 1], centres_lab[:, 2])
    hue = np.degrees(np.arctan2(centres_lab[:, 2], centres_lab[:, 1]))
    best = core
    if chroma[core] < FAMILY_CHROMA / 2:
        return core
    for k in range(len(centres_lab)):
        if lab_distance(centres_lab[k], tile_lab, MATCH_WEIGHTS) < MATCH:
            continue
        gap = abs((hue[k] - hue[core] + 180) % 360 - 180)
        if (k != core and chroma[k] >= FAMILY_CHROMA and chroma[k] > chroma[best] and gap < LIT_HUE
                and centres_lab[k, 0] > centres_lab[core, 0] + LIT_LIGHTER and sizes[k] >= LIT_SHARE * sizes.sum()):
            best = k
    return best


def learn_changes(grids: list[np.ndarray], gains: list[np.ndarray], labels_at: list[str],
                  snow_cells=(), leans: list | None = None) -> tuple[ChangeModel, dict]:
    """The change model from setup grids (the empty board, then one hunter more each).

    ``grids`` are :func:`sample_grid` of each setup frame, ``gains`` (37, 3) each frame's
    board light, as :mod:`vision.calibration` measures it; ``labels_at[i]`` names the
    hunter put down in frame ``i + 1``. Returns the model and where each hunter was
    put down (``{label: cell}``); ``snow_cells`` are the snow tiles' cells, ``leans``
    each frame's :func:`vision.reader.figure_leans` (how each hunter stands, :func:`stance`).
    ``ValueError`` if a frame shows no new piece.
    """
    # The cross cell's light is the board's around it: its ring may show the mammoth.
    others = np.arange(NUM_CELLS) != CENTRE
    light0 = gains[0].copy()
    light0[CENTRE] = fit_gain_field(gains[0], others)[CENTRE]
    empty = grids[0] / light0[:, None, :]
    # The cross cell is a snow tile under the mammoth: its empty look is the snow
    # tiles' (a mammoth token may cover the whole cell), or the snow around it.
    snow_cells = [c for c in snow_cells if c != CENTRE]
    if snow_cells:
        snow = np.median(empty[snow_cells].reshape(-1, 3), axis=0) * light0[CENTRE]
    else:
        snow = np.median(grids[0][CENTRE, _RADIUS > 0.72], axis=0)
    first_lab = to_lab(grids[0])
    snow_lab = to_lab(snow)
    mam = lab_distance(first_lab[CENTRE], snow_lab, np.ones(3, np.float32)) > CHANGED
    mam &= _RADIUS <= 0.72
    if mam.sum() < 8:
        raise ValueError("setup frame 1: no mammoth seen on the cross")
    mam_pts = grids[0][CENTRE][mam]
    # The mammoth stands on the cross's middle; its print reaches out to the cell's edge.
    colour, share, big = _main_cluster(mam_pts, _RADIUS[mam])
    lines = cross_lines(np.flatnonzero(mam)[~big])
    # Its size as the cross cell shows it, the print's lines left out (as when read).
    body = np.flatnonzero(mam)[big]
    mammoth = Look(tuple(float(v) for v in colour / light0[CENTRE]), float(len(np.setdiff1d(body, lines))))
    # The other cluster, when it is one, is the cross's print seen around the mammoth.
    print_colour = None
    if share < 1.0:
        print_colour = tuple(float(v) for v in np.median(mam_pts[~big], axis=0) / light0[CENTRE])
    empty[CENTRE] = snow / light0[CENTRE]
    steps, cells = [], {}
    for index in range(1, len(grids)):
        before = grids[index - 1]
        after = grids[index]
        exp = relit_empty(before, after)
        light = cell_light(empty, after)
        before_lab, after_lab = to_lab(exp), to_lab(after)
        change = changed_points(after_lab, before_lab)
        free = _free(cells)
        moved = change > CHANGED
        all_counts = moved.sum(axis=1)
        counts = np.where(free, all_counts, 0)
        cell = _new_hunter_cell(counts)
        if counts[cell] < PLACED_POINTS:
            # A piece of a colour close to its tile's changes it less than CHANGED.
            line = _faint_line(change, free)
            if line is None:
                raise ValueError(f"setup frame {index + 1}: no newly placed hunter found")
            moved = change > line
            all_counts = moved.sum(axis=1)
            counts = np.where(free, all_counts, 0)
            cell = _new_hunter_cell(counts)
        overhang = max([int(all_counts[n]) for n in NEIGHBOURS[cell] if n is not None] + [0])
        clusters = _piece_clusters(after_lab[cell], before_lab[cell], moved[cell])
        steps.append((index, cell, after, exp, light, after_lab, before_lab, change, moved, counts, overhang,
                      clusters))
        cells[labels_at[index - 1]] = cell
    bodies = _telling_clusters(steps, mammoth)
    hunters, darks = {}, []
    for step, body_at in zip(steps, bodies):
        look, dark_points = _hunter_look(step, body_at, leans)
        hunters[labels_at[step[0] - 1]] = look
        if dark_points is not None:
            darks.append(dark_points)
    dark_colour = np.median(np.concatenate(darks), axis=0) if darks else np.array([0.1, 0.1, 0.1])
    for step in steps:
        hunters[labels_at[step[0] - 1]].echo = _echo(step, labels_at[step[0] - 1], hunters, mammoth, dark_colour)
    mammoth.echo = _mammoth_echo(grids[0], empty[CENTRE] * light0[CENTRE], light0[CENTRE], lines, mammoth, hunters,
                                 dark_colour)
    return ChangeModel(empty.astype(np.float32), mammoth, hunters, tuple(float(v) for v in dark_colour),
                       lines, print_colour, (grids[0][CENTRE] / light0[CENTRE]).astype(np.float32),
                       light0.astype(np.float32)), cells


def _echo(step, label: str, hunters: dict, mammoth: Look, dark_colour) -> dict:
    """How many points of each other player's colour the hunter put down in ``step``
    showed on his cell, counted as the reader counts them (:func:`read_changes`): what
    his piece alone lends the others' colours wherever he stands (a highlight, a
    shaded side), not to be taken for another player's piece or trap beside him."""
    _, cell, after, exp, light, after_lab, _, _, moved, _, _, _ = step
    others = [k for k in hunters if k != label]
    if not others:
        return {}
    refl = np.array([mammoth.colour, hunters[label].colour] + [hunters[k].colour for k in others] + [dark_colour])
    colours = np.clip(refl * light[cell], 0, 1)[None]
    c = slice(cell, cell + 1)
    which, strong, _, distance = match_points(after[c], after_lab[c], exp[c], colours)
    lit = moved[c] & strong & ~shadowed(after[c], after_lab[c], exp[c], distance)
    return {k: float((lit & (which == i + 2)).sum()) for i, k in enumerate(others)}


def _mammoth_echo(first: np.ndarray, snow: np.ndarray, light: np.ndarray, lines, mammoth: Look, hunters: dict,
                  dark_colour) -> dict:
    """How many points of each player's colour the mammoth alone showed on the cross in
    the first setup frame (``snow``: the cross cell's empty look there, ``lines``: its
    print's points), counted as the reader counts them: a figure's shaded flank or a
    token's print may be a player's colour, and is no hunter on the mammoth's cell."""
    labels = list(hunters)
    refl = np.array([mammoth.colour] + [hunters[k].colour for k in labels] + [dark_colour])
    colours = np.clip(refl * light, 0, 1)[None]
    after, exp = first[CENTRE:CENTRE + 1], snow[None]
    after_lab = to_lab(after)
    moved = changed_points(after_lab, to_lab(exp)) > CHANGED
    moved[0, list(lines)] = False
    which, strong, _, distance = match_points(after, after_lab, exp, colours)
    lit = moved & strong & ~shadowed(after, after_lab, exp, distance)
    return {k: float((lit & (which == i + 1)).sum()) for i, k in enumerate(labels)}


def _telling_clusters(steps, mammoth: Look) -> list:
    """Each setup hunter's body cluster, chosen together (:func:`telling_bodies`) among
    his :func:`_candidates`, their colours compared under one light (each divided by
    his cell's light, as the look keeps them)."""
    candidates, indices = [], []
    for _, cell, after, _, light, _, before_lab, _, moved, _, _, clusters in steps:
        if clusters is None:
            refl = np.median(after[cell][moved[cell]], axis=0) / light[cell]
            candidates.append([(to_lab(np.clip(refl, 0, 1)), True)])
            indices.append([None])
            continue
        idx, labels = clusters[0], clusters[1]
        options, which = _candidates(clusters, np.median(before_lab[cell][idx], axis=0))
        # Compared under one light: each cluster's colour divided by his cell's light.
        options = [(to_lab(np.clip(np.median(after[cell][idx[labels == k]], axis=0) / light[cell], 0, 1)), core)
                   for (_, core), k in zip(options, which)]
        candidates.append(options)
        indices.append(which)
    chosen = telling_bodies(candidates, to_lab(np.clip(np.array(mammoth.colour), 0, 1)))
    return [which[i] for which, i in zip(indices, chosen)]


def _hunter_look(step, body_at, leans) -> tuple[Look, np.ndarray | None]:
    """The look of the hunter put down in one setup step (his body the cluster
    ``body_at``), and his dark part's colours (reflectance) if he shows one."""
    index, cell, after, exp, light, after_lab, before_lab, change, moved, counts, overhang, clusters = step
    body, dark = _body_and_dark(after_lab[cell], before_lab[cell], moved[cell], clusters, body_at)
    colour = np.median(after[cell][body], axis=0)
    dark_colour = np.median(after[cell][dark], axis=0) if dark.any() else np.zeros(3)
    # His size counted as the reader will count it (blended edges half in).
    colours = (np.stack([colour, dark_colour]) if dark.any() else colour[None])[None]
    label_of, strong, _, distance = match_points(after[cell:cell + 1], after_lab[cell:cell + 1],
                                                 exp[cell:cell + 1], colours)
    # (Faint points too, as the reader counts them: a piece close to its tile.)
    faint = (change[cell] > CHANGED * FAINT_SHARE) & (distance[0] < FAINT_BETTER * change[cell])
    seen = (moved[cell] | faint) & strong[0]
    shade = shadowed(after[cell:cell + 1], after_lab[cell:cell + 1], exp[cell:cell + 1], distance)[0]
    own = np.zeros((NUM_CELLS, len(GRID)), bool)
    own[cell] = seen & (label_of[0] == 0) & ~shade
    stands = float(stance(own, None if leans is None else leans[index])[cell])
    look = Look(tuple(float(v) for v in colour / light[cell]), float((seen & (label_of[0] == 0) & ~shade).sum()),
                float((seen & (label_of[0] == 1)).sum()) if dark.any() else 0.0,
                float(counts[cell]), float(overhang),
                tuple(float(v) for v in dark_colour / light[cell]) if dark.any() else None, stands)
    return look, (after[cell][dark] / light[cell]) if dark.sum() else None


#: Hunters are put down on the outer ring at setup (the rules' placement).
_PLACEMENT = np.array([ring_of(c) == RADIUS for c in range(NUM_CELLS)])
#: ... so the new hunter is the outer cell that changed most, unless the most an outer
#: cell changed is this small a share of the most any cell changed (a set put down
#: elsewhere, as some tests do).
PLACEMENT_SHARE = 0.2


def _free(placed: dict) -> np.ndarray:
    """(37,) the cells a hunter may still be put down on at setup: not the cross, not
    one already taken (``placed``: {label: cell})."""
    free = np.ones(NUM_CELLS, bool)
    free[CENTRE] = False
    free[list(placed.values())] = False
    return free


def _faint_line(change: np.ndarray, free: np.ndarray) -> float | None:
    """The change (ΔE) a setup step's new piece shows when none reaches :data:`CHANGED`:
    the highest of :data:`FAINT_LINES` at which one free cell alone shows
    :data:`PLACED_POINTS` points or more, :data:`FAINT_ALONE` times as many as any other
    free cell (None: no such line). An olive star on olive grass changed 22 points by 6
    and one by 14, while the step's noise stayed under 4 (sim.flatart development table
    3,000,018); a small grey bead on a glossy grass tile 24 by 10 and 3 by 14
    (sim.tabletop 5,000,007).

    >>> change = np.zeros((NUM_CELLS, len(GRID))); change[3, :20] = 11.0; change[4, :3] = 11.0
    >>> free = np.ones(NUM_CELLS, bool)
    >>> _faint_line(change, free)
    10.0
    >>> change[4, :10] = 11.0
    >>> _faint_line(change, free) is None
    True
    """
    for line in FAINT_LINES:
        counts = np.where(free, (change > line).sum(axis=1), 0)
        order = np.sort(counts)[::-1]
        if order[0] >= PLACED_POINTS and order[0] >= FAINT_ALONE * order[1]:
            return float(line)
    return None


def _new_hunter_cell(counts: np.ndarray) -> int:
    """The cell a hunter was just put down on, from each free cell's changed points:
    the outer ring's most changed. A standing mammoth figure turned or nudged between
    two setup steps changes its neighbours (its tusks, its shadow) more than a pawn's
    head a fifth of a tile wide changes its own cell; the rules put hunters down on the
    outer ring, which the mammoth on the cross does not reach.

    >>> counts = np.zeros(NUM_CELLS); counts[1] = 30; counts[CENTRE - 1] = 100
    >>> _new_hunter_cell(counts)
    1
    >>> counts[1] = 10
    >>> _new_hunter_cell(counts) == CENTRE - 1
    True
    """
    outer = np.where(_PLACEMENT, counts, -1)
    if outer.max() >= max(6, PLACEMENT_SHARE * counts.max()):
        return int(np.argmax(outer))
    return int(np.argmax(counts))


def cross_lines(print_points: np.ndarray, width: float = 0.08) -> tuple:
    """Grid points the cross's print may cover: it is drawn in lines through the cell's
    centre, so the arms seen around the mammoth at setup tell where the rest lies.

    >>> arm = np.flatnonzero((np.abs(GRID[:, 1] + 0.02) < 0.01) & (np.abs(GRID[:, 0] + 0.02) > 0.5))
    >>> lines = cross_lines(arm)
    >>> bool(np.abs(GRID[list(lines), 1]).max() < 0.15), bool(GRID[list(lines), 0].min() < -0.7)
    (True, True)
    """
    # An arm seen on one side only is no line through the centre (a mammoth's tusk).
    if len(print_points) == 0:
        return ()
    seen = GRID[print_points]
    mirrored = np.hypot(*(seen[:, None, :] + seen[None, :, :]).transpose(2, 0, 1)).min(axis=1) <= GRID_STEP * 1.01
    far = [i for i, m in zip(print_points, mirrored) if m and _RADIUS[i] > 0.2]
    if not far:
        return ()
    directions = GRID[far] / _RADIUS[far, None]
    # Distance of every grid point to each line through the centre and a print point.
    across = np.abs(GRID[:, None, 0] * directions[None, :, 1] - GRID[:, None, 1] * directions[None, :, 0])
    lines = np.flatnonzero((across < width).any(axis=1))
    # Lines in every direction are no printed cross but a figure's outline or shading:
    # a cross leaves most of its cell bare.
    return tuple(int(i) for i in lines) if len(lines) <= CROSS_MAX_SHARE * len(GRID) else ()


def _main_cluster(points: np.ndarray, radius: np.ndarray | None = None) -> tuple[np.ndarray, float, np.ndarray]:
    """The main one of two colour clusters of ``points`` (RGB), its share and which points
    it holds: a piece's body against its blurred edge, a mammoth against the cross's print.
    Without ``radius`` the larger; with each point's distance from the cell's middle,
    the one that fills the disc it lies in best (:func:`_filled`; a cross printed in
    broad arms around a small mammoth shows more of its print than of the mammoth).

    >>> pts = np.array([[0.1, 0.4, 0.1]] * 30 + [[0.5, 0.3, 0.2]] * 12)     # green arms, brown mammoth
    >>> radius = np.r_[np.full(30, 0.6), np.full(12, 0.2)]
    >>> [round(float(v), 1) for v in _main_cluster(pts)[0]], [round(float(v), 1) for v in _main_cluster(pts, radius)[0]]
    ([0.1, 0.4, 0.1], [0.5, 0.3, 0.2])
    """
    everything = np.ones(len(points), bool)
    if len(points) < 10:
        return np.median(points, axis=0), 1.0, everything
    data = (to_lab(points) * MATCH_WEIGHTS).astype(np.float32)
    labels, centres = kmeans(data, 2)
    if np.linalg.norm(centres[0] - centres[1]) < MATCH / 2:
        return np.median(points, axis=0), 1.0, everything
    big = int(np.bincount(labels, minlength=2).argmax())
    if radius is not None:
        big = int(np.argmax([_filled(radius[labels == k]) for k in range(2)]))
    return np.median(points[labels == big], axis=0), float((labels == big).mean()), labels == big


def _filled(radius: np.ndarray) -> float:
    """How much of the disc that holds most of them (out to their 90th percentile from
    the cell's middle) some points fill: a piece is a filled patch, a cross's print
    thin arms across a wide disc.

    >>> disc, bar = _RADIUS[_RADIUS <= 0.4], _RADIUS[np.abs(GRID[:, 0]) < 0.07]      # a token, a plus's arm
    >>> bool(_filled(disc) > 0.9), bool(_filled(bar) < 0.2)
    (True, True)
    """
    if not len(radius):
        return 0.0
    reach = float(np.percentile(radius, 90))
    return len(radius) / max(float((_RADIUS <= reach).sum()), 1.0)


def match_points(grid: np.ndarray, grid_lab: np.ndarray, expected: np.ndarray, colours: np.ndarray):
    """Which learnt colour each grid point shows, allowing for the blend of a piece's
    edge with its tile (a small piece is mostly edge): each point is matched with the
    mix ``tile + a (colour - tile)`` nearest to it. Returns ``(label, strong, matched)``:
    the nearest colour's index, whether the mix is mostly that colour (a >= 0.5), and
    whether any mix explains the point (within :data:`MATCH`), and the nearest mix's
    distance."""
    t = expected[:, :, None, :]                                                      # (37, n, 1, 3)
    # (37, 1, K, 3): each cell's colours; or already one set per point, (37, n, K, 3).
    c = colours[:, None, :, :] if colours.ndim == 3 else colours
    span = c - t
    alpha = np.clip(((grid[:, :, None, :] - t) * span).sum(axis=3) / np.maximum((span * span).sum(axis=3), 1e-4),
                    0, 1)                                                            # (37, n, K)
    mix = t + alpha[..., None] * span
    dist = lab_distance(grid_lab[:, :, None, :], to_lab(mix), MATCH_WEIGHTS)
    label = dist.argmin(axis=2)
    best = np.take_along_axis(dist, label[..., None], axis=2)[..., 0]
    a = np.take_along_axis(alpha, label[..., None], axis=2)[..., 0]
    return label, (a >= 0.5) & (best < MATCH), best < MATCH, best


def _family(grid_lab: np.ndarray, which: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """(37, n) the player whose colour family each of the ``which`` points shows (-1:
    none): the chromatic player (``colours`` (37, K, 3) RGB under each cell's light)
    nearest in hue, within :data:`FAMILY_HUE` degrees, whatever the lightness and the
    strength (a printed trap is a paler or deeper shade of its player's colour), or
    within half the way to the next player's hue, up to :data:`FAMILY_HUE_ALONE` (a
    disc trap printed deeper than its meeple, under a tinted light at the board's
    edge, lay 26° from its player's hue and 90° from any other's). Neutral colours
    (white, grey, near-black) have no hue to go by.

    >>> lab = to_lab(np.array([[0.9, 0.85, 0.2], [0.5, 0.5, 0.5]]))[None]        # yellow, grey
    >>> seen = to_lab(np.array([[[0.7, 0.62, 0.15], [0.2, 0.3, 0.8]]]))
    >>> colours = np.array([[[0.8, 0.7, 0.3], [0.2, 0.3, 0.7]]])
    >>> _family(seen, np.ones((1, 2), bool), colours).tolist()
    [[0, 1]]
    >>> disc = to_lab(np.array([[[0.55, 0.12, 0.4]]]))                           # 29° from the magenta
    >>> magenta, green, yellow, violet = [0.52, 0.14, 0.23], [0.18, 0.9, 0.24], [0.94, 0.69, 0.08], [0.45, 0.15, 0.6]
    >>> [_family(disc, np.ones((1, 1), bool), np.array([c])).item() for c in ([magenta, green, yellow], [magenta, violet])]
    [0, -1]
    """
    out = np.full(which.shape, -1)
    cells, points = np.nonzero(which)
    if not cells.size:
        return out
    lab = to_lab(colours)                                                           # (37, K, 3)
    chromatic = np.hypot(lab[..., 1], lab[..., 2]) >= FAMILY_CHROMA                 # (37, K)
    seen = grid_lab[cells, points]                                                  # (m, 3)
    hue = np.degrees(np.arctan2(seen[:, 2], seen[:, 1]))[:, None]
    theirs = np.degrees(np.arctan2(lab[cells][..., 2], lab[cells][..., 1]))          # (m, K)
    gap = np.abs((hue - theirs + 180) % 360 - 180)
    gap = np.where(chromatic[cells] & (np.hypot(seen[:, 1], seen[:, 2]) >= FAMILY_CHROMA)[:, None], gap, np.inf)
    # A hue far from every other player's may stray further (a lamp's tint, a trap
    # printed deeper than its hunter): up to half the way to the next player's hue.
    order = np.sort(gap, axis=1)
    second = order[:, 1] if gap.shape[1] > 1 else np.full(len(gap), np.inf)
    spread = second - np.where(np.isfinite(order[:, 0]), order[:, 0], 0.0)      # (no hue at all: inf)
    line = np.clip(spread / 2, FAMILY_HUE, FAMILY_HUE_ALONE)
    out[cells, points] = np.where(order[:, 0] < line, gap.argmin(axis=1), -1)
    return out


def _bodies(counts: np.ndarray, looks: list[Look], colours: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """(37, K) points of each player's body colour per cell, explained: a player whose
    colour is the pieces' dark one (a near-black set) also owns the dark points, less
    the outlines and shadows of the other hunters standing there.

    ``counts`` (37, K+2) strong points per colour (mammoth, players, dark), ``colours``
    (37, K, 3) the players' colours under each cell's light, ``dark`` (37, 3) the dark's.
    """
    bodies = counts[:, 1:-1].copy()
    near_dark = lab_distance(to_lab(colours), to_lab(dark)[:, None, :]) < MATCH / 2          # (37, K)
    bodies += np.where(near_dark, counts[:, -1:], 0.0)
    sizes = np.array([max(look.body, 1.0) for look in looks])
    darks = np.array([look.dark for look in looks])
    present = (counts[:, 1:-1] / sizes >= HUNTER_SHARE) & ~near_dark                          # chromatic ones
    for k in range(len(looks)):
        others = present.copy()
        others[:, k] = False
        hidden = (others * darks).sum(axis=1)
        bodies[:, k] = np.where(near_dark[:, k], np.maximum(bodies[:, k] - hidden, 0.0), bodies[:, k])
    return bodies


def _remainder_owned(bodies_c: np.ndarray, sizes: np.ndarray, k: int) -> bool:
    """Whether what hunter ``k`` leaves unexplained on a cell shows an owner's colour:
    another player's (his trap, his hunter) or more of ``k``'s own than his hunter
    covers (his own trap under him)."""
    others = np.delete(bodies_c, k)
    other_sizes = np.delete(sizes, k)
    return bool((others >= np.minimum(OWNER_POINTS, HUNTER_SHARE * other_sizes)).any()
                or bodies_c[k] - sizes[k] >= OWNER_POINTS)


def _hunters(bodies, dark_counts, changed, looks, labels, ok, stances=None, family=None):
    """``({label: cell}, confidence)``: each hunter on the cell showing about his own
    size of his colour (more is a trap of his colour, less a piece of that colour seen
    on its edge), where what he leaves unexplained on the cell has an owner (a piece
    of his colour on another's trap leaves that trap's colour; a lone trap of his
    colour about his size leaves its print, of no player's colour). A hunter only seen
    on trap-sized patches of his colour stands on his own trap: his dark part (outline,
    shadow; a flat trap has none) tells which, and anywhere a cell lacking it fits him
    less (:data:`DARK_MISSING`). A hunter seen standing at setup fits a
    cell where his colour lies flat (``stances`` (37, K), :func:`stance`) less: a lone
    trap of his colour and size, seen from a tilted camera. A patch his size that
    shows, with its shades of his colour (``family`` (37, K), :func:`_family`), a
    trap's size is his trap, printed in more than one shade, when those shades alone
    are a trap's worth of change (:data:`TRAP_POINTS`; a small piece's few shaded
    points are no print)."""
    sizes = np.array([max(look.body, 1.0) for look in looks])
    extents = np.array([max(look.extent, look.body + look.dark, 1.0) for look in looks])
    conf = np.ones(NUM_CELLS)
    hunters = {}
    for k, label in enumerate(labels):
        look = looks[k]
        share = np.where(ok, bodies[:, k] / sizes[k], 0.0)
        trap_sized = share >= TRAP_FACTOR
        if family is not None:
            trap_sized |= ok & (family[:, k] >= TRAP_POINTS) & ((bodies[:, k] + family[:, k]) / sizes[k] >= TRAP_FACTOR)
        fit = np.where(share >= HUNTER_SHARE, np.minimum(share, 1.0 / np.maximum(share, 1e-6)), share - 1.0)
        for c in np.flatnonzero((share >= HUNTER_SHARE) & ~trap_sized):
            if changed[c] - extents[k] >= TRAP_POINTS and not _remainder_owned(bodies[c], sizes, k):
                fit[c] -= UNOWNED_PENALTY
        if stances is not None and look.stands >= STANDS:
            told = stances[:, k] > 0
            flat = np.clip((look.stands - stances[:, k]) / (look.stands - 1.0), 0.0, 1.0)
            fit = np.where(told, fit - FLAT_PENALTY * flat, fit)
        if look.dark >= 6:
            # His dark part (outline, shaded side, shadow) shows where he stands; a
            # patch of his colour without it is flat: a trap of his colour.
            missing = np.clip(1.0 - dark_counts[:, k] / (DARK_SHARE * look.dark), 0.0, 1.0)
            fit = fit - DARK_MISSING * missing
        fit = np.where(trap_sized, -1.0, fit)
        if fit.max() >= HUNTER_SHARE - UNOWNED_PENALTY and (share >= HUNTER_SHARE)[np.argmax(fit)]:
            hunters[label] = int(np.argmax(fit))
            conf = _choice_confidence(conf, fit, 0.0)
        elif look.dark >= 6 and trap_sized.any():
            dshare = np.where(trap_sized, dark_counts[:, k] / look.dark, 0.0)
            if dshare.max() >= DARK_SHARE:
                hunters[label] = int(np.argmax(dshare))
            conf = _choice_confidence(conf, dshare, DARK_SHARE)
        elif on_own_trap(share, stances, k, looks):
            # Drawn out along the lean where his lone traps lie flat: he stands on one.
            # (None drawn out: each may still hide him, as below.)
            drawn = np.where(trap_sized & (stances[:, k] > 0), stances[:, k], 0.0)
            if drawn.max() >= STANDS:
                hunters[label] = int(np.argmax(drawn))
                conf = _choice_confidence(conf, drawn, STANDS)
            else:
                conf[trap_sized] = 0.0
        elif trap_sized.any():
            # Not seen anywhere, and nothing of his own tells him on a trap of his colour
            # (a flat piece of exactly its colour): each such trap may hide him. When
            # only one does, he is read there, unsure: a still board holds every hunter.
            if trap_sized.sum() == 1:
                hunters[label] = int(np.flatnonzero(trap_sized)[0])
            conf[trap_sized] = 0.0
        else:
            conf = _choice_confidence(conf, share, HUNTER_SHARE)
    return hunters, conf


def on_own_trap(share: np.ndarray, stances: np.ndarray | None, k: int, looks: list) -> bool:
    """Whether player ``k``'s stance (:func:`stance`) can tell which trap-sized patch of
    his colour holds his hunter: the set's hunters stand (one of them was seen standing
    at setup: a set's hunters are of one design, and a hunter put down where the camera
    looks straight down shows no lean), and the lean can be told on such patches."""
    if stances is None or max(look.stands for look in looks) < STANDS:
        return False
    return bool(((share >= TRAP_FACTOR) & (stances[:, k] > 0)).any())


#: A lone hunter shows about his own size of his colour (share 1, within this factor).
ALONE_BAND = 1.15
#: Lone traps of one design show alike (their shares within this factor of the frame's).
TRAP_BAND = 1.1
#: A hunter's choice between his patches is clear when the next reading explains them
#: worse by this much (summed log factors).
PATCHES_MARGIN = 0.15
#: A hunter off the board (in a hand) explains his patches this much worse: he is
#: rarely off it when the board is still.
OFF_BOARD = 0.3
#: ... and no reading explains a hunter's patches when its misfit is over this.
PATCHES_FIT = 1.0
#: A patch off the grass is no trap (the rules put traps on grass only).
NO_TRAP = 10.0
#: Of a hunter's patches, the only one showing a dark part (his shadow, outline or
#: shaded side: at least this share of his size, the others under a quarter of it)
#: holds him: a lone flat trap casts no shadow ...
DARK_LEAD = 0.2
#: ... and readings putting him there explain his patches this much better.
DARK_BONUS = 0.3


def _band_misfit(share: float, lo: float, hi: float) -> float:
    """How far ``share`` lies outside ``[lo, hi]`` (log factor; 0 inside).

    >>> _band_misfit(1.0, 0.9, 1.1), round(_band_misfit(2.0, 0.5, 1.0), 3)
    (0.0, 0.693)
    """
    if share <= 0:
        return 10.0
    return float(max(np.log(lo / share), np.log(share / hi), 0.0))


def trap_share(bodies, looks, hunters, labels, allowed) -> float | None:
    """How many times his hunter's size a lone trap shows of its player's colour, in
    this frame (None: no lone trap seen). A set's traps are of one design, and a
    player's trap and hunter are seen in the same colour, so the share is alike for
    every player whatever his colour: the median over the cells no hunter stands on
    that show one player's colour alone, a player whose hunter is seen elsewhere and
    not beside (else the patch may be he, or his edge).

    >>> looks = [Look((0.5, 0.5, 0.5), 100.0), Look((0.2, 0.2, 0.2), 50.0)]
    >>> bodies = np.zeros((NUM_CELLS, 2)); bodies[3] = (150, 0); bodies[5] = (0, 80); bodies[9] = (0, 50)
    >>> trap_share(bodies, looks, {"c0": 20, "c1": 9}, ["c0", "c1"], np.ones(NUM_CELLS, bool))
    1.55
    """
    sizes = np.array([max(look.body, 1.0) for look in looks])
    taken = set(hunters.values())
    shares = []
    for c in np.flatnonzero(allowed):
        if c in taken:
            continue
        order = np.argsort(-bodies[c])
        k = int(order[0])
        if labels[k] not in hunters or hunters[labels[k]] in NEIGHBOURS[c]:
            continue            # his hunter not seen (this may be he), or beside (his edge)
        alone = len(order) < 2 or bodies[c, order[1]] < OWNER_POINTS
        if alone and bodies[c, k] / sizes[k] >= HUNTER_SHARE:
            shares.append(bodies[c, k] / sizes[k])
    return float(np.median(shares)) if shares else None


def _dark_lead(shares: list) -> int | None:
    """Which of a hunter's patches alone shows a dark part (:data:`DARK_LEAD` of his
    size, every other under a quarter of that), given each one's dark share; None if
    none or several do.

    >>> _dark_lead([0.0, 0.34]), _dark_lead([0.3, 0.34]), _dark_lead([0.34])
    (1, None, None)
    """
    if len(shares) < 2:
        return None
    lead = int(np.argmax(shares))
    others = [v for i, v in enumerate(shares) if i != lead]
    return lead if shares[lead] >= DARK_LEAD and max(others) < DARK_LEAD / 4 else None


def hunters_among_traps(bodies, dark_counts, changed, looks, labels, hunters, conf, ratio, ok, grass):
    """``({label: cell}, confidence, {cell: label})``: each hunter told from the traps of
    his colour by the sizes of all his patches at once (one or more), with ``ratio`` the frame's lone
    trap share (:func:`trap_share`). Each reading puts him on one patch, alone (about
    his own size) or on his own trap (more than either alone, at most both), or off
    the board, and takes every other patch of his for a lone trap (about ``ratio``);
    the reading that explains his patches best wins, and is sure only when it explains
    them clearly better than the next (a trap the size of his hunter, or a hunter
    hiding a smaller trap, is asked about). The last part of the result is the traps
    he stands on.

    Traps lie on ``grass`` only, one a cell: a patch elsewhere, or beside another
    player's colour where no other hunter stands, is no lone trap; under another
    hunter, his trap may show any size. A hunter whose dark part (outline, shadow)
    shows is told by it (:func:`_hunters`); one alone on a cell whose change he leaves
    unexplained, of no player's colour (a printed trap's rim), fits it less."""
    sizes = np.array([max(look.body, 1.0) for look in looks])
    extents = np.array([max(look.extent, look.body + look.dark, 1.0) for look in looks])
    hunters, conf = dict(hunters), conf.copy()
    under = {}
    alone_band = (1 / ALONE_BAND, ALONE_BAND)
    trap_band = (ratio / TRAP_BAND, ratio * TRAP_BAND)
    on_band = (max(ALONE_BAND, ratio * TRAP_BAND), 1 + ratio)
    for k, label in enumerate(labels):
        share = np.where(ok, bodies[:, k] / sizes[k], 0.0)
        patches = [int(c) for c in np.flatnonzero(share >= HUNTER_SHARE)]
        if not patches:
            continue
        if looks[k].dark >= 6 and max(dark_counts[c, k] for c in patches) >= DARK_SHARE * looks[k].dark:
            continue
        covered = {c: any(cell == c for other, cell in hunters.items() if other != label) for c in patches}
        shared = {c: bool((np.delete(bodies[c], k) >= np.minimum(OWNER_POINTS, HUNTER_SHARE * np.delete(sizes, k))).any())
                  for c in patches}
        as_trap = {c: NO_TRAP if not grass[c] or (shared[c] and not covered[c])
                   else 0.0 if covered[c] else _band_misfit(share[c], *trap_band) for c in patches}
        total = sum(as_trap.values())
        readings = [(total + OFF_BOARD, None, False)]        # off the board (in a hand)
        shaded = _dark_lead([dark_counts[c, k] / sizes[k] for c in patches])
        for i, c in enumerate(patches):
            rest = total - as_trap[c] - (DARK_BONUS if i == shaded else 0.0)
            unowned = changed[c] - extents[k] >= TRAP_POINTS and not _remainder_owned(bodies[c], sizes, k)
            readings.append((rest + _band_misfit(share[c], *alone_band) + UNOWNED_PENALTY * unowned, c, False))
            if grass[c] and not shared[c]:
                readings.append((rest + _band_misfit(share[c], *on_band), c, True))
        readings.sort(key=lambda r: r[0])
        best, cell, on_trap = readings[0]
        if best > PATCHES_FIT:
            continue            # no reading explains his patches: the colour's own reading stands
        # Where he stands is told against the best reading putting him elsewhere (two
        # readings of one cell, with and without his trap under him, do not dispute it);
        # whether his trap lies under him, against that cell read the other way.
        elsewhere = next(r for r in readings[1:] if r[1] != cell)
        same = next((r for r in readings[1:] if r[1] == cell), None)
        margin = elsewhere[0] - best
        involved = {cell, elsewhere[1], hunters.get(label)} - {None}
        if margin < PATCHES_MARGIN:
            # No clear reading: the colour's own reading stands, and where this one
            # would put him elsewhere, the referee is asked.
            sure = margin / PATCHES_MARGIN if cell == hunters.get(label) else 0.0
            for c in involved:
                conf[c] = min(conf[c], sure)
            continue
        for c in involved:
            conf[c] = min(conf[c], float(np.clip(margin / (2 * PATCHES_MARGIN), 0, 1)))
        if cell is None:
            hunters.pop(label, None)
        else:
            hunters[label] = cell
            trap_margin = np.inf if same is None else same[0] - best
            if trap_margin < PATCHES_MARGIN:
                conf[cell] = min(conf[cell], trap_margin / (2 * PATCHES_MARGIN))   # his trap: asked
            elif on_trap:
                under[cell] = label
    return hunters, conf, under


#: A hunter's colour on a neighbour of his cell, its points lying this far (median,
#: tile radii) towards him from that cell's centre, is his own edge over it: a trap
#: lies about its cell's centre.
SPILL_TOWARDS = 0.4


def spills(hunters: dict, labels: list, mine: np.ndarray, moved: np.ndarray):
    """``((37, K) points, (37,) changed points)`` each hunter's edge shows on the cells
    beside his (a disc or a meeple wider than its cell). ``mine`` (37, n, K) are each
    player's points (his colour or family). His points on a neighbour whose middle
    lies :data:`SPILL_TOWARDS` or more towards him are his edge, and so is every
    changed point of that cell as far towards him as they reach; a trap of his colour
    there lies about its cell's centre, and keeps its points.

    >>> mine = np.zeros((NUM_CELLS, len(GRID), 1), bool); moved = np.zeros((NUM_CELLS, len(GRID)), bool)
    >>> edge = GRID[:, 0] > 0.6; mine[CENTRE - 1, edge, 0] = moved[CENTRE - 1, edge] = True      # spill from the east
    >>> trap = np.hypot(GRID[:, 0], GRID[:, 1]) < 0.5; mine[CENTRE - 2, trap, 0] = True             # far from him
    >>> points, changed = spills({"c0": CENTRE}, ["c0"], mine, moved)
    >>> int(points[CENTRE - 1, 0]) == int(edge.sum()) == int(changed[CENTRE - 1]), int(points[CENTRE - 2, 0])
    (True, 0)
    """
    points = np.zeros((NUM_CELLS, len(labels)))
    changed = np.zeros(NUM_CELLS)
    for label, cell in hunters.items():
        k = labels.index(label)
        for c in NEIGHBOURS[cell]:
            if c is None:
                continue
            towards = CELL_CENTRES[cell] - CELL_CENTRES[c]
            along = GRID @ (towards / np.linalg.norm(towards))
            his = mine[c, :, k]
            if his.sum() < 3 or np.median(along[his]) < SPILL_TOWARDS:
                continue
            edge = along >= along[his].min()
            points[c, k] += (his & edge).sum()
            changed[c] += (moved[c] & edge).sum()
    return points, changed


def _traps(bodies, changed, looks, labels, allowed, hunters, mammoth, under=None, spill=None, no_trap=None,
           depth=None, ratio=None):
    """``({cell: label}, confidence)``: a trap is what the hunters standing on a cell
    (and the figures leaning over it from their neighbours) leave unexplained, over
    :data:`TRAP_POINTS` grid points; its owner is the player whose colour it shows
    most beyond his own hunter there. Traps lie on grass only, never under the
    mammoth; one trap a cell. ``no_trap`` (37 bools) are the cells another judge (the
    learned classifier, :data:`NO_TRAP_ODDS`) is sure hold none: what is left
    unexplained there is no trap, and the cell, read empty, is unsure (asked about).
    ``depth`` (37, K, :func:`colour_depth`): on a lone trap, a player whose colour never
    reaches :data:`TRAP_DEPTH` is ranked behind those whose colour does. ``ratio``
    (:func:`trap_share`; None: no lone trap seen): under hunters, a trap shows at least
    :data:`UNDER_UNHIDDEN` of what they cannot hide of it; a smaller patch there is no
    trap, and is kept in ``half_hidden`` ({cell: label}) for :func:`half_hidden_hunters`.
    Returns ``(traps, confidence, half_hidden)``."""
    sizes = np.array([max(look.body, 1.0) for look in looks])
    extents = np.array([max(look.extent, look.body + look.dark, 1.0) for look in looks])
    overhangs = np.array([look.overhang for look in looks])
    where = {label: cell for label, cell in hunters.items()}
    known_under = under or {}
    traps, conf, half_hidden = {}, np.ones(NUM_CELLS), {}
    for c in np.flatnonzero(allowed):
        if c == mammoth:
            continue
        here = np.array([where.get(label) == c for label in labels])
        beside = np.array([where.get(label) is not None and where.get(label) != c
                           and where.get(label) in NEIGHBOURS[c] for label in labels])
        overhang = overhangs * beside
        residual = changed[c] - (extents * here).sum() - overhang.sum()
        if spill is not None:
            # What the hunters beside show of their own edges here, if more than learnt.
            overhang = np.maximum(overhang, spill[0][c])
            residual = min(residual, changed[c] - (extents * here).sum() - spill[1][c])
        excess = bodies[c] - sizes * here - overhang
        # (Whether a trap is seen goes by the most points; whose, by the ranked claims.)
        claim = _owner_rank(excess, None if depth is None or here.any() else depth[c])
        order = np.argsort(-claim)
        best = excess.max()
        lead = claim[order[0]]
        second = max(claim[order[1]], 0.0) if len(order) > 1 else 0.0
        # Under a standing hunter, his own extent (his shade, his shadow) may hide most
        # of a trap's change: a clear patch of a player's colour beyond him still tells it.
        under = here.any() and best >= UNDER_OWNER
        seen = (residual >= TRAP_POINTS or under) and best >= OWNER_POINTS
        if (seen and here.any() and ratio is not None and c not in known_under
                and best < UNDER_UNHIDDEN * (ratio * sizes[order[0]] - (extents * here).sum())):
            seen = False
            half_hidden[int(c)] = labels[int(order[0])]
        vetoed = seen and no_trap is not None and bool(no_trap[c])
        if seen and not vetoed:
            traps[int(c)] = labels[int(order[0])]
        if c in known_under:
            traps[int(c)] = known_under[c]
            continue
        if vetoed:
            # Two judges disagree: the cell is read empty, and asked about.
            conf[c] = 0.0
            continue
        # Sure when the residual is far from the line and one owner stands out.
        margin = abs(residual - TRAP_POINTS) / TRAP_POINTS
        if under:
            margin = max(margin, (best - UNDER_OWNER) / UNDER_OWNER)
        if residual >= TRAP_POINTS or under:
            margin = min(margin, (lead - second) / max(lead, 1.0), abs(best - OWNER_POINTS) / OWNER_POINTS)
        conf[c] = float(np.clip(margin * 2, 0, 1))
    return traps, conf, half_hidden


def half_hidden_hunters(hunters: dict, half_hidden: dict, conf: np.ndarray) -> tuple[dict, np.ndarray]:
    """``(hunters, confidence)`` with each hunter read nowhere placed, unsure, on the cell
    where his colour showed too little for a trap under the hunter standing there
    (:data:`UNDER_UNHIDDEN`): standing pieces side by side hide one another.

    >>> hunters, conf = half_hidden_hunters({"c3": 11}, {11: "c1"}, np.ones(37))
    >>> hunters, float(conf[11])
    ({'c3': 11, 'c1': 11}, 0.0)
    """
    hunters, conf = dict(hunters), conf.copy()
    for cell, label in half_hidden.items():
        if label not in hunters:
            hunters[label] = cell
            conf[cell] = 0.0
    return hunters, conf


def _owner_rank(excess: np.ndarray, depth: np.ndarray | None) -> np.ndarray:
    """Each player's claim on a trap: his colour's excess there, but only
    :data:`SHALLOW_SHARE` of it where his colour stays shallower than :data:`TRAP_DEPTH`
    (``depth`` NaN: no point of his to judge by, his claim stands).

    >>> _owner_rank(np.array([120.0, 30.0]), np.array([0.6, 1.0])).tolist()
    [12.0, 30.0]
    """
    if depth is None:
        return excess
    return np.where(depth < TRAP_DEPTH, excess * SHALLOW_SHARE, excess)


def _choice_confidence(conf: np.ndarray, score: np.ndarray, line: float) -> np.ndarray:
    """Lower the confidence of the cells one piece was placed on, or not, by a score:
    the best cell's margin over the line (taken or not) and over the runner-up.

    >>> _choice_confidence(np.ones(NUM_CELLS), np.r_[0.9, 0.85, np.zeros(35)], 0.35)[:3].round(2).tolist()
    [0.2, 0.2, 1.0]
    """
    order = np.argsort(-score)
    best, second = score[order[0]], score[order[1]]
    above = best >= line
    margin = min(abs(best - line), best - second) if above else line - best
    out = conf.copy()
    for cell in (order[:2] if above else order[:1]):
        out[cell] = min(out[cell], float(np.clip(margin * 4, 0, 1)))
    return out


def _print_points(model: ChangeModel, grid, grid_lab, expected, gain) -> np.ndarray:
    """(n,) the cross cell's points that show its print (its colour seen around the
    mammoth at setup, blended with the snow) nearer than the mammoth's colour: when the
    mammoth has left, the whole print shows, and it is no mammoth."""
    colours = np.clip(np.array([model.mammoth.colour, model.print_colour])[None] * gain[CENTRE], 0, 1)
    c = slice(CENTRE, CENTRE + 1)
    label, _, matched, _ = match_points(grid[c], grid_lab[c], expected[c], colours[None][:, 0])
    return (matched & (label == 1))[0]


def _place_hunters(bodies, dark_counts, changed, looks, labels, ok, grass, stances, family_counts=None):
    """``(hunters, confidence, {cell: label} of hunters on their own trap)``: each hunter
    by his colour (:func:`_hunters`), then told from the traps of his colour
    (:func:`hunters_among_traps`) when the frame shows lone traps."""
    hunters, conf = _hunters(bodies, dark_counts, changed, looks, labels, ok, stances, family_counts)
    ratio = trap_share(bodies, looks, hunters, labels, ok & grass)
    if ratio is None:
        return hunters, conf, {}
    return hunters_among_traps(bodies, dark_counts, changed, looks, labels, hunters, conf, ratio, ok, grass)


def seen_hunters(bodies, looks, labels, hunters, conf, ok, hunter_odds, mammoth=None):
    """``(hunters, confidence)`` with the hunters read nowhere placed, unsure, where the
    learned classifier is sure a hunter stands (:data:`HUNTER_ODDS`) and none was read:
    on each such cell, the unplaced player showing most of his colour there, a trace
    of it (:data:`TRACE_SHARE` of his body, short of :data:`HUNTER_SHARE`). A glass
    bead shows its tile through it and little of its learnt colour, but the classifier
    still sees a piece. (A patch as large as he is was weighed already: his trap.)

    >>> looks = [Look((0.5, 0.5, 0.5), 100.0), Look((0.2, 0.2, 0.2), 50.0)]
    >>> bodies = np.zeros((NUM_CELLS, 2)); bodies[4] = (12, 3); bodies[9] = (90, 0)
    >>> odds = np.zeros(NUM_CELLS); odds[[4, 9]] = 0.97
    >>> hunters, conf = seen_hunters(bodies, looks, ["c0", "c1"], {"c1": 7}, np.ones(NUM_CELLS),
    ...                              np.ones(NUM_CELLS, bool), odds)
    >>> hunters, float(conf[4]) < 0.1, float(conf[9])
    ({'c1': 7, 'c0': 4}, True, 1.0)
    """
    sizes = np.array([max(look.body, 1.0) for look in looks])
    taken = set(hunters.values()) | ({mammoth} if mammoth is not None else set())
    cells = [c for c in np.flatnonzero(ok & (np.asarray(hunter_odds) >= HUNTER_ODDS)) if c not in taken]
    unplaced = [k for k, label in enumerate(labels) if label not in hunters]
    pairs = sorted(((bodies[c, k] / sizes[k], int(c), k) for c in cells for k in unplaced), reverse=True)
    hunters, conf = dict(hunters), conf.copy()
    for share, cell, k in pairs:
        # (More than a trace was weighed already: a patch as large as he is, yet not
        # read as him, is a piece of his colour that is not he, his trap.)
        if share < TRACE_SHARE or share >= HUNTER_SHARE or labels[k] in hunters or cell in hunters.values():
            continue
        hunters[labels[k]] = cell
        conf[cell] = 0.0
    return hunters, conf


def hidden_traps(traps: dict, conf: np.ndarray, hunters: dict, allowed: np.ndarray, mammoth, trap_odds):
    """``(traps, confidence)`` with a trap, unsure, under each lone hunter whose grass cell
    shows no trap while the learned classifier is sure of one (:data:`UNDER_TRAP_ODDS`).
    A hunter sets his trap on his own cell (FR «Tour de jeu» 2, EN «Flow of play» 2),
    and a piece as wide as the trap leaves little of its colour to read; a rival's trap
    under him shows in the rival's colour, and was weighed already. The guess is always
    unsure, so the referee is asked before a board holding it is committed.

    >>> odds = np.zeros(NUM_CELLS); odds[[4, 9, 12]] = 0.97
    >>> allowed = np.ones(NUM_CELLS, bool)
    >>> traps, conf = hidden_traps({12: "c1"}, np.ones(NUM_CELLS), {"c0": 4, "c1": 12, "c2": 9, "c3": 9},
    ...                            allowed, None, odds)
    >>> traps, float(conf[4]), float(conf[9])
    ({12: 'c1', 4: 'c0'}, 0.0, 1.0)
    """
    standing = Counter(hunters.values())
    traps, conf = dict(traps), conf.copy()
    for label, cell in hunters.items():
        if (standing[cell] == 1 and cell not in traps and cell != mammoth and allowed[cell]
                and trap_odds[cell] >= UNDER_TRAP_ODDS):
            traps[cell] = label
            conf[cell] = 0.0
    return traps, conf


def hunters_onto_own_traps(hunters: dict, traps: dict, conf: np.ndarray, hunter_odds) -> tuple[dict, np.ndarray]:
    """``(hunters, confidence)`` with each hunter read on a cell where the learned
    classifier sees no hunter (:data:`NO_HUNTER_ODDS`) moved, unsure, to the one of his
    own traps where it sees one most, when that is :data:`OWN_TRAP_LEAD` more. A hunter
    stands on the trap he set (FR «Tour de jeu» 2), and a small piece on a trap of
    its own colour passes for the trap alone, so his colour is read elsewhere (a
    neighbour's print, another of his traps).

    >>> odds = np.zeros(NUM_CELLS); odds[[4, 9, 7]] = (0.6, 0.3, 0.05)
    >>> hunters, conf = hunters_onto_own_traps({"c0": 7, "c1": 12}, {4: "c0", 9: "c0", 12: "c1"},
    ...                                        np.ones(NUM_CELLS), odds)
    >>> hunters, float(conf[4]), float(conf[7])
    ({'c0': 4, 'c1': 12}, 0.0, 0.0)
    """
    hunters, conf = dict(hunters), conf.copy()
    for label, cell in list(hunters.items()):
        own = [c for c, owner in traps.items() if owner == label and c != cell]
        if not own or hunter_odds[cell] >= NO_HUNTER_ODDS:
            continue
        best = max(own, key=lambda c: hunter_odds[c])
        if hunter_odds[best] >= hunter_odds[cell] + OWN_TRAP_LEAD:
            hunters[label] = int(best)
            conf[[best, cell]] = 0.0
    return hunters, conf


def mammoth_by_odds(mammoth: int | None, conf: np.ndarray, mammoth_odds, piece_odds,
                    hunter_odds=None) -> tuple[int | None, np.ndarray]:
    """``(mammoth, confidence)``: the mammoth moved, unsure, to the cell where the learned
    classifier is :data:`MAMMOTH_ODDS` sure of him, when it sees no piece at all
    (``piece_odds`` under even), or a hunter (``hunter_odds`` at least
    :data:`MAMMOTH_ON_HUNTER_ODDS`, while it gives him under :data:`MAMMOTH_ELSEWHERE_ODDS`
    on every cell away from the one it is sure of), and his own odds under :data:`NO_MAMMOTH_ODDS`, on
    the cell his colours put him on, or his colours put him nowhere; whatever stands there
    when it gives him under :data:`MAMMOTH_GONE_ODDS` on it and is sure of him in one place
    only. A standing figure shows its lit side or its shaded flank, and a colour learnt
    from one side at setup is seen in the grass's or the rock's print rather than on the
    figure turned in flight. Where
    the classifier sees a piece, the colours keep him: a tall figure in a photograph
    stands on his cell and shows his back two cells away (the shared sample
    photo-9100001), and a figure leaning over the next cell shows there (measured on
    fresh development tables, docs/vision.md session 13).

    >>> odds = np.zeros(NUM_CELLS); odds[[5, 18]] = (0.9, 0.05)
    >>> mammoth, conf = mammoth_by_odds(18, np.ones(NUM_CELLS), odds, odds)
    >>> mammoth, float(conf[5]), float(conf[18])
    (5, 0.0, 0.0)
    >>> piece_there = np.where(np.arange(NUM_CELLS) == 18, 0.6, odds)
    >>> mammoth_by_odds(18, np.ones(NUM_CELLS), odds, piece_there)[0]
    18
    >>> mammoth_by_odds(18, np.ones(NUM_CELLS), odds, piece_there, hunter_odds=piece_there)[0]   # a hunter
    5
    """
    seen = int(np.argmax(mammoth_odds))
    if seen == mammoth or mammoth_odds[seen] < MAMMOTH_ODDS:
        return mammoth, conf
    if mammoth is not None:
        elsewhere = [c for c in range(NUM_CELLS) if c != seen and c not in NEIGHBOURS[seen]]
        in_one_place = max(mammoth_odds[c] for c in elsewhere) < MAMMOTH_ELSEWHERE_ODDS
        gone = mammoth_odds[mammoth] < MAMMOTH_GONE_ODDS and in_one_place
        a_hunter = (hunter_odds is not None and hunter_odds[mammoth] >= MAMMOTH_ON_HUNTER_ODDS and in_one_place)
        if not gone and (mammoth_odds[mammoth] >= NO_MAMMOTH_ODDS or (piece_odds[mammoth] >= 0.5 and not a_hunter)
                         or seen in NEIGHBOURS[mammoth]):
            return mammoth, conf
    conf = conf.copy()
    conf[[c for c in (seen, mammoth) if c is not None]] = 0.0
    return seen, conf


def misplaced_hunters(hunters: dict, traps: dict, conf: np.ndarray, mammoth, hunter_odds, shown: np.ndarray,
                      labels: list[str]) -> tuple[dict, np.ndarray]:
    """``(hunters, confidence)`` with each hunter read where the learned classifier sees no
    hunter (:data:`MISPLACED_ODDS`) moved, unsure, to the cell where it is surest of one
    (:data:`HUNTER_ODDS`) among those no hunter was read on, not the mammoth's, that show
    his colour (or family) most (``shown``, ``(37, players)`` points, at least
    :data:`MISPLACED_POINTS`). A flat piece about a trap's size and of its colour (a
    near-black star, a pawn seen from above) shows as many points of his colour as his
    lone trap, and only its shape, which the classifier sees, tells them apart. A hunter
    read on his own trap stays: the classifier often misses a piece on a trap of its
    colour (sim.tabletop development table 5,000,013, a standee on his trap).

    >>> odds = np.zeros(NUM_CELLS); odds[[4, 9]] = (0.95, 0.1)
    >>> shown = np.zeros((NUM_CELLS, 2)); shown[4] = (0, 30); shown[9] = (0, 28)
    >>> hunters, conf = misplaced_hunters({"c0": 12, "c1": 9}, {}, np.ones(NUM_CELLS), None, odds, shown,
    ...                                   ["c0", "c1"])
    >>> hunters, float(conf[4]), float(conf[9])
    ({'c0': 12, 'c1': 4}, 0.0, 0.0)
    >>> misplaced_hunters({"c0": 12, "c1": 9}, {9: "c1"}, np.ones(NUM_CELLS), None, odds, shown, ["c0", "c1"])[0]
    {'c0': 12, 'c1': 9}
    """
    hunters, conf = dict(hunters), conf.copy()
    for label, cell in list(hunters.items()):
        if hunter_odds[cell] >= MISPLACED_ODDS or traps.get(cell) == label:
            continue
        k = labels.index(label)
        taken = set(hunters.values()) | {mammoth}
        seen = [c for c in np.flatnonzero(np.asarray(hunter_odds) >= HUNTER_ODDS)
                if int(c) not in taken and shown[c, k] >= MISPLACED_POINTS and int(np.argmax(shown[c])) == k]
        if seen:
            best = int(max(seen, key=lambda c: hunter_odds[c]))
            hunters[label] = best
            conf[[best, cell]] = 0.0
    return hunters, conf


def unplaced_onto_own_traps(hunters: dict, traps: dict, conf: np.ndarray, hunter_odds,
                            labels: list[str], hunter_on_trap_odds=None) -> tuple[dict, np.ndarray]:
    """``(hunters, confidence)`` with each hunter read nowhere placed, unsure, on his own
    trap where the learned classifier gives a hunter :data:`UNPLACED_ODDS` or more: the
    only one of his traps no hunter stands on, or of several, the one where it gives a
    hunter :data:`OWN_TRAP_LEAD` more than on any other. A piece on a trap of its own
    colour passes for the trap alone, so a hunter read nowhere most often stands on one
    of his traps; the classifier's doubt keeps off the board a player whose traps are
    down while he is not (the shared sample flat-6900002: 0.09 on his trap).

    ``hunter_on_trap_odds`` (cells -> odds, :class:`vision.cell_model.FineModel`), when
    given, is asked first: it looks at those traps twice as finely as the classifier
    and places him where it is sure enough (:data:`HUNTER_ON_TRAP_ODDS`, :data:`HUNTER_ON_TRAP_LEAD`);
    where it is not, the classifier's rule above still may.

    >>> odds = np.zeros(NUM_CELLS); odds[[4, 9, 7]] = (0.5, 0.1, 0.3)
    >>> hunters, conf = unplaced_onto_own_traps({"c1": 20}, {4: "c0", 9: "c0", 7: "c2"}, np.ones(NUM_CELLS), odds,
    ...                                         ["c0", "c1", "c2"])
    >>> hunters, float(conf[4]), float(conf[7])
    ({'c1': 20, 'c0': 4, 'c2': 7}, 0.0, 0.0)
    >>> unplaced_onto_own_traps({}, {9: "c0"}, np.ones(NUM_CELLS), odds, ["c0"])[0]
    {}
    >>> fine = lambda cells: np.array([{4: 0.2, 9: 0.9}[c] for c in cells])
    >>> unplaced_onto_own_traps({}, {4: "c0", 9: "c0"}, np.ones(NUM_CELLS), odds, ["c0"], fine)[0]
    {'c0': 9}
    """
    hunters, conf = dict(hunters), conf.copy()
    for label in labels:
        if label in hunters:
            continue
        standing = set(hunters.values())
        own = sorted((c for c, owner in traps.items() if owner == label and c not in standing),
                     key=lambda c: -hunter_odds[c])
        if not own:
            continue
        if hunter_on_trap_odds is not None:
            fine = np.asarray(hunter_on_trap_odds(own), float)
            order = np.argsort(-fine)
            runner_up = fine[order[1]] if len(own) > 1 else 0.0
            if fine[order[0]] >= HUNTER_ON_TRAP_ODDS and fine[order[0]] >= runner_up + HUNTER_ON_TRAP_LEAD:
                hunters[label] = int(own[order[0]])
                conf[own[order[0]]] = 0.0
                continue
        if hunter_odds[own[0]] < UNPLACED_ODDS:
            continue
        if len(own) == 1 or hunter_odds[own[0]] >= hunter_odds[own[1]] + OWN_TRAP_LEAD:
            hunters[label] = int(own[0])
            conf[own[0]] = 0.0
    return hunters, conf


def onto_likelier_own_traps(hunters: dict, traps: dict, conf: np.ndarray, hunter_on_trap_odds) -> tuple[dict, np.ndarray]:
    """``(hunters, confidence)`` with each hunter read on one of his own traps moved,
    unsure, to another of his traps where the hunter-on-trap model (``hunter_on_trap_odds``,
    cells -> odds) gives a hunter :data:`HUNTER_ON_TRAP_ODDS` or more and :data:`HUNTER_ON_TRAP_LEAD`
    more than where he was read, no other hunter being read there. His colour cannot
    tell on which of his traps he stands: each shows it over a trap's size.

    >>> fine = lambda cells: np.array([{4: 0.1, 9: 0.8, 7: 0.9}[c] for c in cells])
    >>> hunters, conf = onto_likelier_own_traps({"c0": 4}, {4: "c0", 9: "c0", 7: "c1"}, np.ones(NUM_CELLS), fine)
    >>> hunters, float(conf[4]), float(conf[9])
    ({'c0': 9}, 0.0, 0.0)
    """
    hunters, conf = dict(hunters), conf.copy()
    for label, cell in list(hunters.items()):
        if traps.get(cell) != label:
            continue
        taken = {c for other, c in hunters.items() if other != label}
        own = [cell] + sorted(c for c, owner in traps.items() if owner == label and c != cell and c not in taken)
        if len(own) < 2:
            continue
        fine = np.asarray(hunter_on_trap_odds(own), float)
        best = int(np.argmax(fine))
        if best != 0 and fine[best] >= HUNTER_ON_TRAP_ODDS and fine[best] >= fine[0] + HUNTER_ON_TRAP_LEAD:
            hunters[label] = int(own[best])
            conf[[cell, own[best]]] = 0.0
    return hunters, conf


#: The owner model (:class:`vision.cell_model.OwnerModel`) names the hunters on their
#: cells anew when that is this many times likelier, all of them together, than the
#: colours' naming (:func:`owners_by_model`) ...
OWNER_LIKELIER = 10.0
#: ... and gives a lone trap to another player when it is this sure of him, and gives
#: the player the colours name this little. On the fresh sim.tabletop development
#: frames replayed offline with the first trained model (docs/vision.md, session 17),
#: from 20 times and (0.9, 0.05) to 10 times and (0.6, 0.2), frames with every hunter
#: and trap right went from 100 to 103, trap errors from 955 to 917.
OWNER_SURE, OWNER_DOUBT = 0.6, 0.2


def owners_by_model(hunters: dict, traps: dict, conf: np.ndarray, owner_odds, labels: list[str],
                    mammoth=None) -> tuple[dict, dict, np.ndarray]:
    """``(hunters, traps, confidence)`` with whose piece each is told by the owner model
    (``owner_odds``: cells -> each seat's chance ``(n, seats)``, seats in ``labels`` order)
    where it is much surer than the colours. The hunters read alone on a cell (not the
    mammoth's, nor on another player's trap read there: two colours on one cell) are named
    together, each player on one cell at most: the naming likeliest to the model, when it
    is :data:`OWNER_LIKELIER` times as likely as the colours'. A player the model names
    where another was read, and read elsewhere himself, moves; one it names nowhere
    is no longer read. A lone trap goes to the player the model is :data:`OWNER_SURE` of
    when it gives the colours' player :data:`OWNER_DOUBT` or less. Cells so changed keep
    the model's own odds as their confidence.

    >>> odds = lambda cells: np.array([{4: [0.01, 0.99], 9: [0.98, 0.02], 7: [0.02, 0.98]}[c] for c in cells])
    >>> hunters, traps, conf = owners_by_model({"c0": 4, "c1": 9}, {7: "c0"}, np.ones(NUM_CELLS), odds, ["c0", "c1"])
    >>> hunters, traps, round(float(conf[4]), 2), round(float(conf[7]), 2)
    ({'c1': 4, 'c0': 9}, {7: 'c1'}, 0.99, 0.98)
    """
    hunters, traps, conf = dict(hunters), dict(traps), conf.copy()
    seat = {label: k for k, label in enumerate(labels)}
    per_cell = Counter(hunters.values())
    lone = {cell: label for label, cell in hunters.items()
            if per_cell[cell] == 1 and cell != mammoth and traps.get(cell, label) == label}
    if lone:
        cells = sorted(lone)
        log_odds = np.log(np.clip(np.asarray(owner_odds(cells), float), 1e-6, 1.0))
        read = sum(log_odds[i, seat[lone[c]]] for i, c in enumerate(cells))
        best, named = max((sum(log_odds[i, k] for i, k in enumerate(ks)), ks)
                          for ks in permutations(range(len(labels)), len(cells)))
        if best - read >= np.log(OWNER_LIKELIER):
            for label in lone.values():
                del hunters[label]
            for i, (cell, k) in enumerate(zip(cells, named)):
                hunters[labels[k]] = cell
                if labels[k] != lone[cell]:
                    conf[cell] = min(conf[cell], float(np.exp(log_odds[i, k])))
    standing = set(hunters.values())
    alone = sorted(c for c in traps if c not in standing and c != mammoth)
    if alone:
        odds = np.asarray(owner_odds(alone), float)
        for cell, row in zip(alone, odds):
            k = int(np.argmax(row))
            if labels[k] != traps[cell] and row[k] >= OWNER_SURE and row[seat[traps[cell]]] <= OWNER_DOUBT:
                traps[cell] = labels[k]
                conf[cell] = min(conf[cell], float(row[k]))
    return hunters, traps, conf


#: A hunter read on his own trap where the classifier sees no hunter (below the first),
#: while it sees one (the second) on a cell nobody was read on that the owner model
#: names his (the third), is moved there, unsure (:func:`off_own_trap_by_owner`).
OFF_TRAP_NO_HUNTER, OFF_TRAP_HUNTER, OFF_TRAP_OWNER = 0.2, 0.8, 0.8


def off_own_trap_by_owner(hunters: dict, traps: dict, conf: np.ndarray, mammoth, hunter_odds, owner_odds,
                          labels: list[str]) -> tuple[dict, np.ndarray]:
    """``(hunters, confidence)`` with a hunter read on his own trap moved, unsure, to the
    one cell where he stands by both models' word: the classifier sees no hunter on
    the trap and a hunter there, and the owner model names him there, all by the
    margins above. His trap alone shows his colour as he would (``misplaced_hunters``
    leaves him on it for that reason); the owner model tells whose the other piece is.

    >>> hunter = np.zeros(NUM_CELLS); hunter[[4, 9]] = (0.05, 0.95)
    >>> owner = lambda cells: np.array([{9: [0.9, 0.1]}[c] for c in cells])
    >>> hunters, conf = off_own_trap_by_owner({"c0": 4}, {4: "c0"}, np.ones(NUM_CELLS), None, hunter, owner,
    ...                                       ["c0", "c1"])
    >>> hunters, float(conf[4]), float(conf[9])
    ({'c0': 9}, 0.0, 0.0)
    """
    hunters, conf = dict(hunters), conf.copy()
    for label, cell in list(hunters.items()):
        if traps.get(cell) != label or hunter_odds[cell] >= OFF_TRAP_NO_HUNTER:
            continue
        taken = set(hunters.values()) | {mammoth}
        seen = [int(c) for c in np.flatnonzero(np.asarray(hunter_odds) >= OFF_TRAP_HUNTER) if int(c) not in taken]
        if not seen:
            continue
        odds = np.asarray(owner_odds(seen), float)
        k = labels.index(label)
        his = [c for c, row in zip(seen, odds) if row[k] >= OFF_TRAP_OWNER and int(np.argmax(row)) == k]
        if len(his) == 1:
            hunters[label] = his[0]
            conf[[cell, his[0]]] = 0.0
    return hunters, conf


def traps_under_hunters(traps: dict, conf: np.ndarray, hunters: dict, allowed: np.ndarray, mammoth,
                        trap_under_hunter_odds) -> tuple[dict, np.ndarray]:
    """``(traps, confidence)`` with the fine model's word (``trap_under_hunter_odds``,
    cells -> odds) on each allowed cell a hunter stands on: a trap where it is sure of
    one under a lone hunter and none was read (his own: a hunter sets his trap on his
    own cell, FR «Tour de jeu» 2, EN «Flow of play» 2), none where it is sure there is
    none (a standing piece's shade or lean passed for a trap's colour). Either way the
    cell is unsure, so the referee is asked before a board holding it is committed.

    >>> fine = lambda cells: np.array([{4: 0.99, 9: 0.01, 12: 0.5}[c] for c in cells])
    >>> traps, conf = traps_under_hunters({9: "c1", 12: "c2"}, np.ones(NUM_CELLS), {"c0": 4, "c1": 9, "c2": 12},
    ...                                   np.ones(NUM_CELLS, bool), None, fine)
    >>> traps, float(conf[4]), float(conf[9]), float(conf[12])
    ({12: 'c2', 4: 'c0'}, 0.0, 0.0, 1.0)
    """
    standing = Counter(hunters.values())
    cells = sorted(c for c in standing if allowed[c] and c != mammoth)
    if not cells:
        return traps, conf
    traps, conf = dict(traps), conf.copy()
    for cell, odds in zip(cells, np.asarray(trap_under_hunter_odds(cells), float)):
        if cell in traps and odds <= NO_TRAP_UNDER_HUNTER_ODDS:
            del traps[cell]
            conf[cell] = 0.0
        elif cell not in traps and standing[cell] == 1 and odds >= TRAP_UNDER_HUNTER_ODDS:
            traps[cell] = next(label for label, at in hunters.items() if at == cell)
            conf[cell] = 0.0
    return traps, conf


def lone_traps(traps: dict, conf: np.ndarray, hunters: dict, allowed: np.ndarray, mammoth, trap_odds,
               shown: np.ndarray, labels: list[str]) -> tuple[dict, np.ndarray]:
    """``(traps, confidence)`` with a trap, unsure, on each allowed cell where nothing was
    read and the learned classifier gives a trap :data:`LONE_TRAP_ODDS` or more, owned by
    the player whose colour (or family) the cell shows most (``shown``, ``(37, players)``
    points). A trap of a colour close to its tile (olive on grass) or printed in a shade
    setup never saw changes too few points of a learnt colour to pass the trap's line, yet
    the classifier, which compares the cell with its empty look, sees it. A cell showing
    no player's colour at all keeps no trap (the classifier's doubt still asks about it).

    >>> odds = np.zeros(NUM_CELLS); odds[[4, 9, 12]] = 0.7
    >>> shown = np.zeros((NUM_CELLS, 2)); shown[4] = (3, 8); shown[12] = (5, 0)
    >>> traps, conf = lone_traps({}, np.ones(NUM_CELLS), {"c0": 12}, np.ones(NUM_CELLS, bool), None, odds,
    ...                          shown, ["c0", "c1"])
    >>> traps, float(conf[4]), float(conf[9])
    ({4: 'c1'}, 0.0, 1.0)
    """
    taken = set(hunters.values()) | set(traps) | {mammoth}
    traps, conf = dict(traps), conf.copy()
    for cell in np.flatnonzero(allowed & (np.asarray(trap_odds) >= LONE_TRAP_ODDS)):
        if int(cell) in taken or shown[cell].max() <= 0:
            continue
        traps[int(cell)] = labels[int(np.argmax(shown[cell]))]
        conf[cell] = 0.0
    return traps, conf


#: A hunter's patch on a cell shared with another is that other's echo when it is no
#: larger than this many times what the other's piece alone showed of it at setup.
ECHO_ALLOWANCE = 1.5


def echo_hunters(hunters: dict, looks: list[Look], labels: list[str], bodies: np.ndarray) -> np.ndarray:
    """(37, K) the patches of hunters read on a cell with another hunter, whose piece
    alone showed about as much of their colour at setup (:attr:`Look.echo`,
    :data:`ECHO_ALLOWANCE`) while their own pieces do not explain his: those patches
    are his echo, not them.

    >>> looks = [Look((0.9, 0.9, 0.9), 40.0), Look((0.3, 0.2, 0.1), 200.0, echo={"c0": 25.0})]
    >>> bodies = np.zeros((NUM_CELLS, 2)); bodies[9] = (30, 190); bodies[5] = (40, 0)
    >>> echo_hunters({"c0": 9, "c1": 9}, looks, ["c0", "c1"], bodies)[9].tolist()
    [30.0, 0.0]
    >>> echo_hunters({"c0": 5, "c1": 9}, looks, ["c0", "c1"], bodies).any()
    np.False_
    """
    echoed = np.zeros_like(bodies)
    for label, cell in hunters.items():
        k = labels.index(label)
        for other, there in hunters.items():
            if other == label or there != cell:
                continue
            j = labels.index(other)
            lends = looks[j].echo.get(label, 0.0) * ECHO_ALLOWANCE
            borrows = looks[k].echo.get(other, 0.0) * ECHO_ALLOWANCE
            if bodies[cell, k] <= lends and bodies[cell, j] > borrows:
                echoed[cell, k] = bodies[cell, k]
    return echoed


def echoes(hunters: dict, looks: list[Look], labels: list[str]) -> np.ndarray:
    """(37, K) the points of each player's colour the hunters read on each cell lend it
    by themselves (:attr:`Look.echo`, learnt at setup).

    >>> looks = [Look((0.9, 0.9, 0.9), 40.0), Look((0.3, 0.2, 0.1), 200.0, echo={"c0": 25.0})]
    >>> lent = echoes({"c0": 5, "c1": 9}, looks, ["c0", "c1"])
    >>> lent[9].tolist(), lent[5].tolist()
    ([25.0, 0.0], [0.0, 0.0])
    """
    lent = np.zeros((NUM_CELLS, len(labels)))
    for label, cell in hunters.items():
        for other, points in looks[labels.index(label)].echo.items():
            if other in labels and other != label:
                lent[cell, labels.index(other)] += points
    return lent


def still_on_cross(model: ChangeModel, grid_lab: np.ndarray, gain: np.ndarray) -> tuple[np.ndarray, float]:
    """``((n,) points, share)``: the cross cell's points that still look as at setup
    (:attr:`ChangeModel.cross_setup`, under the board's light around the cross now), and
    the share of its middle (:data:`CROSS_MIDDLE`) that does. The mammoth stood there
    at setup whatever it looks like (a token printed in several colours, a figure, on a
    cross printed on its own plate): while the middle looks as then, it has not left;
    once it has, the middle shows the cross's plate or print instead."""
    if model.cross_setup is None:
        return np.zeros(len(GRID), bool), 0.0
    light = np.exp(np.median(np.log(np.clip(gain[_AROUND[CENTRE]], 0.02, None)), axis=0))
    setup_lab = to_lab(np.clip(model.cross_setup * light, 0, 1))
    still = changed_points(grid_lab[CENTRE:CENTRE + 1], setup_lab[None])[0] <= CHANGED
    return still, float(still[_RADIUS <= CROSS_MIDDLE].mean())


@dataclass
class ChangeReading:
    mammoth: int | None
    hunters: dict[str, int]
    traps: dict[int, str]
    unknown: np.ndarray        # (37,) cells with changes of no learnt colour
    confidence: np.ndarray     # (37,) 0..1


class FrameChanges(NamedTuple):
    """What one frame's grid shows against the empty board, whichever cells a hand
    covers (:func:`frame_changes`): the reader learns from it which cells are covered
    (:func:`covered_cells`), then reads the pieces from it (:func:`read_changes`)."""
    looks: list                # the mammoth's, then each player's
    colours: np.ndarray        # (37, K+2, 3) their colours (and the dark's) under each cell's light
    moved: np.ndarray          # (37, n) changed points
    lit: np.ndarray            # (37, n) changed points of a learnt colour, in no shadow
    label: np.ndarray          # (37, n) the learnt colour each point shows
    counts: np.ndarray         # (37, K+2) lit points per colour
    dark_counts: np.ndarray    # (37, K) each hunter's dark part's points
    family: np.ndarray         # (37, n) the player whose colour family a point shows, or -1
    family_counts: np.ndarray  # (37, K)
    unknown: np.ndarray        # (37,) cells with changes of no learnt colour
    ring_changed: np.ndarray   # (37,) the tile ring no longer looks as on the empty board
    stances: np.ndarray | None  # (37, K) :func:`stance` of each player's points
    still_share: float         # the cross's middle still as at setup (:func:`still_on_cross`)
    depth: np.ndarray          # (37, K) :func:`colour_depth` of each player's points (NaN: none)
    piece_lab: np.ndarray      # (37, 3) :func:`piece_colours` (NaN: too few changed points)


def frame_changes(model: ChangeModel, grid: np.ndarray, labels: list[str],
                  leans: np.ndarray | None = None) -> FrameChanges:
    """What :func:`read_changes` reads the pieces from, measured on one frame's grid:
    each point's change from its cell's empty look, the learnt colour it matches, and
    what that adds up to on each cell. None of it depends on which cells are covered."""
    grid_lab = to_lab(grid)
    gain = cell_light(model.empty, grid, base=model.setup_light)
    expected = np.clip(model.empty * gain[:, None, :], 0, 1)
    change = changed_points(grid_lab, to_lab(expected))
    moved = change > CHANGED
    # The cross's print is no piece, wherever the mammoth hid it at setup.
    moved[CENTRE, list(model.cross_print)] = False
    if model.print_colour is not None:
        moved[CENTRE] &= ~_print_points(model, grid, grid_lab, expected, gain)
    # The cross still looking as at setup is the mammoth still on it. (Its points are
    # left to the colours: taken out, the few a hunter's colour explains there were
    # read as him on the cross, at setup on sim.tabletop development table 5,000,020.)
    _, still_share = still_on_cross(model, grid_lab, gain)
    looks = [model.mammoth] + [model.hunters[k] for k in labels]
    refl = np.array([look.colour for look in looks] + [model.dark])                 # (K+2, 3)
    colours = np.clip(refl[None, :, :] * gain[:, None, :], 0, 1)                    # (37, K+2, 3)
    # Only the points that changed need matching (most cells show their empty look).
    cells, points = np.nonzero(moved)
    label = np.zeros(moved.shape, int)
    strong = np.zeros(moved.shape, bool)
    matched = np.zeros(moved.shape, bool)
    distance = np.full(moved.shape, np.inf, np.float32)
    if cells.size:
        sub = match_points(grid[cells, points][None], grid_lab[cells, points][None], expected[cells, points][None],
                           colours[cells][None])
        (label[cells, points], strong[cells, points], matched[cells, points],
         distance[cells, points]) = (part[0] for part in sub)
    # A piece close to its tile's colour (a grey pawn on snow) changes it by less than
    # the line: such a point still counts where a learnt piece's colour explains it far
    # better than the tile does (noise and print stay nearer the tile).
    # (Not on the cross: its print, seen or hidden at setup, is no piece.)
    faint_line = change > max(CHANGED * FAINT_SHARE, FAINT_NOISE * float(np.percentile(change, 75)))
    faint_line[CENTRE] = False
    cells, points = np.nonzero(~moved & faint_line)
    if cells.size:
        sub = match_points(grid[cells, points][None], grid_lab[cells, points][None], expected[cells, points][None],
                           colours[cells][None])
        # (The players' colours only: the mammoth's size was learnt on the cross.)
        faint = sub[1][0] & (sub[3][0] < FAINT_BETTER * change[cells, points]) & (sub[0][0] >= 1) & (
            sub[0][0] <= len(labels))
        cells, points = cells[faint], points[faint]
        moved[cells, points] = True
        label[cells, points], strong[cells, points], matched[cells, points], distance[cells, points] = (
            sub[0][0][faint], True, True, sub[3][0][faint])
    n_k = len(looks) + 1
    # Shadows on the tile count for no piece's body; on a trap, a hunter's shadow is his dark part.
    # (Only changed points count, lit or unknown: the others need no shadow test.)
    cells, points = np.nonzero(moved)
    shade = np.zeros(moved.shape, bool)
    shade[cells, points] = shadowed(grid[cells, points][None], grid_lab[cells, points][None],
                                    expected[cells, points][None], distance[cells, points][None])[0]
    lit = moved & strong & ~shade
    counts = np.stack([(lit & (label == k)).sum(axis=1) for k in range(n_k)], axis=1).astype(float)
    # (The dark part and a near-black player's colour are one: both count as dark here.)
    dark_like = np.append(lab_distance(to_lab(refl[1:-1]), to_lab(refl[-1])) < MATCH / 2, True)
    dark_like = np.insert(dark_like, 0, False)
    # Each hunter's own dark part (outline, shadow), on whatever lies under it (a trap).
    dark_counts = np.zeros((NUM_CELLS, len(labels)))
    for k, look in enumerate(looks[1:]):
        own = look.dark_colour if look.dark_colour is not None else model.dark
        own_lab = to_lab(np.clip(np.asarray(own)[None, :] * gain, 0, 1))                  # (37, 3)
        near = np.zeros(moved.shape, bool)          # (changed points only: the count is of those)
        near[cells, points] = lab_distance(grid_lab[cells, points], own_lab[cells], DARK_LAB_WEIGHTS) < MATCH / 2
        # ... clearly darker than his body (the shade of a plate of his colour is not it).
        body_l = to_lab(np.clip(np.asarray(look.colour)[None, :] * gain, 0, 1))[:, 0]
        near &= grid_lab[..., 0] < (body_l - np.minimum(DARKER, DARKER_SHARE * body_l) / 2)[:, None]
        dark_counts[:, k] = (moved & (near | (strong & dark_like[label]))).sum(axis=1)
    # A trap is rarely printed in exactly its player's colour: an unmatched point of a
    # chromatic player's hue (its lightness and strength free) is of his family.
    family = _family(grid_lab, moved & ~matched, colours[:, 1:-1])                   # (37, n) index or -1
    family_counts = np.stack([(family == k).sum(axis=1) for k in range(len(labels))], axis=1).astype(float)
    # A standing piece's shadow (its tile, darker) is explained: it is no hand, no new piece.
    unknown_pts = (moved & ~matched & ~shade & (family < 0)).sum(axis=1)
    unknown = (unknown_pts >= UNKNOWN_POINTS) & (unknown_pts >= UNKNOWN_SHARE * moved.sum(axis=1))
    unknown[CENTRE] = False      # the cross's print is no learnt colour
    # The tile ring unlike the tile's class colour (a lamp's hotspot, a print's stain)
    # hides nothing while it looks as it did on the empty board, or shows learnt pieces
    # (a trap as wide as the tile, blended with it at its edge).
    ring = _RADIUS > RING_RADIUS
    ring_changed = (moved[:, ring] & ~matched[:, ring]).mean(axis=1) > RING_CHANGED
    stances = None
    if leans is not None:
        stances = np.stack([stance(lit & (label == k + 1), leans) for k in range(len(labels))], axis=1)
    depth = colour_depth(grid, expected, colours[:, 1:-1], moved, label - 1)
    return FrameChanges(looks, colours, moved, lit, label, counts, dark_counts, family, family_counts, unknown,
                        ring_changed, stances, still_share, depth, piece_colours(grid, gain, moved))


#: A cell needs this many changed points for its piece's colour (:func:`piece_colours`).
PIECE_COLOUR_POINTS = 10


def piece_colours(grid: np.ndarray, gain: np.ndarray, moved: np.ndarray) -> np.ndarray:
    """(37, 3) the colour (Lab, as under the empty board's light: each cell's own light
    divided out) of what changed on each cell: the median of its lighter half of changed
    points, NaN where fewer than :data:`PIECE_COLOUR_POINTS` changed. A piece's shadow,
    outline and the dark gaps of a ring are its darker half, alike for every player: the
    lighter half is the print that tells two players' pieces apart.

    >>> grid = np.full((NUM_CELLS, len(GRID), 3), 0.5, np.float32)
    >>> moved = np.zeros(grid.shape[:2], bool)
    >>> grid[4, :40], grid[4, 40:80], moved[4, :80] = 0.05, (0.8, 0.2, 0.2), True
    >>> lab = piece_colours(grid, np.ones((NUM_CELLS, 3)), moved)
    >>> bool(lab[4, 1] > 40), bool(np.isnan(lab[5]).all())
    (True, True)
    """
    out = np.full((NUM_CELLS, 3), np.nan)
    cells, points = np.nonzero(moved)
    # (One colour conversion for every changed point of the board: the cells split it after.)
    lab = to_lab(np.clip(grid[cells, points] / np.maximum(gain[cells], 1e-6), 0, 1))
    starts = np.searchsorted(cells, np.arange(NUM_CELLS + 1))
    for c in np.flatnonzero(np.diff(starts) >= PIECE_COLOUR_POINTS):
        mine = lab[starts[c]:starts[c + 1]]
        out[c] = np.median(mine[mine[:, 0] >= np.median(mine[:, 0])], axis=0)
    return out


def colour_depth(grid: np.ndarray, expected: np.ndarray, colours: np.ndarray, which: np.ndarray,
                 owner: np.ndarray) -> np.ndarray:
    """(37, K) how far each player's points on each cell go from the tile towards his
    colour: of the ``which`` points whose ``owner`` (index into the K ``colours``, (37,
    K, 3) under each cell's light) is he, the 90th percentile of ``a`` in ``tile + a
    (colour - tile)`` (1: his colour itself; NaN where he has no point). A piece's
    middle shows its colour at full depth, its edge blended with the tile.

    >>> tile = np.full((1, 4, 3), 0.2)
    >>> colours = np.array([[[0.8, 0.2, 0.2], [0.2, 0.2, 0.8]]])                   # red, blue
    >>> grid = np.array([[[0.8, 0.2, 0.2], [0.5, 0.2, 0.2], [0.2, 0.2, 0.5], [0.2, 0.2, 0.5]]])
    >>> colour_depth(grid, tile, colours, np.ones((1, 4), bool), np.array([[0, 0, 1, 1]])).round(2).tolist()
    [[0.95, 0.5]]
    """
    out = np.full(colours.shape[:2], np.nan)
    cells, points = np.nonzero(which & (owner >= 0) & (owner < colours.shape[1]))
    if not cells.size:
        return out
    k = owner[cells, points]
    t = expected[cells, points]
    span = colours[cells, k] - t
    a = ((grid[cells, points] - t) * span).sum(axis=1) / np.maximum((span * span).sum(axis=1), 1e-4)
    # Each (cell, player) group's 90th percentile at once (linear, as np.percentile).
    group = cells * colours.shape[1] + k
    order = np.lexsort((a, group))
    group, a = group[order], a[order]
    keys, starts, sizes = np.unique(group, return_index=True, return_counts=True)
    at = starts + 0.9 * (sizes - 1)
    low = np.floor(at).astype(int)
    high = np.minimum(low + 1, starts + sizes - 1)
    out.flat[keys] = a[low] + (at - low) * (a[high] - a[low])
    return out


def mammoth_by_colour(model: ChangeModel, measured: FrameChanges, readable: np.ndarray
                      ) -> tuple[int | None, np.ndarray, bool]:
    """The mammoth's cell by his learnt colour (None: not seen), each cell's confidence
    in that choice, and whether he was found whole on a cell that passes for covered
    (a token as wide as its tile covers the tile's ring: that ring is no hand)."""
    counts, unknown, still_share = measured.counts, measured.unknown, measured.still_share
    ok = readable & ~unknown
    conf = np.ones(NUM_CELLS)
    whole_cell = False
    # The mammoth: the cell showing most of its colour.
    mam_share = np.where(ok, counts[:, 0] / max(model.mammoth.body, 1.0), 0.0)
    order = np.argsort(-mam_share)
    best, second = mam_share[order[0]], mam_share[order[1]]
    # The mammoth never leaves the board: a standing figure shaded unlike at setup (a
    # lamp beside it) shows less of its colour, but still far more than anywhere else.
    clear = best >= MAMMOTH_FAINT and best >= MAMMOTH_CLEAR * second
    mammoth = int(order[0]) if best >= MAMMOTH_SHARE or clear else None
    conf = _choice_confidence(conf, mam_share, MAMMOTH_SHARE if best >= MAMMOTH_SHARE else MAMMOTH_FAINT)
    # A cross only partly as at setup (a token much smaller than its middle, gone: the
    # rest looks as it did) is weaker than a sighting elsewhere, sure and twice what
    # the cross shows (`sim.render` scene 1,000,072: the mammoth flickered back).
    seen_elsewhere = (still_share < MAMMOTH_SURELY_STAYS and order[0] != CENTRE and best >= MAMMOTH_SHARE
                      and best >= MAMMOTH_ELSEWHERE * mam_share[CENTRE])
    if still_share >= MAMMOTH_STAYS and ok[CENTRE] and not seen_elsewhere:
        # Whatever its colours show elsewhere (a token printed in several, a white
        # trap like its cream), the mammoth has not left a cross that looks as at setup.
        mammoth = CENTRE
        conf = np.ones(NUM_CELLS)
        conf[CENTRE] = float(np.clip((still_share - MAMMOTH_STAYS) * 4, 0, 1))
    elif best < MAMMOTH_SHARE:
        # A mammoth token as wide as its tile covers the tile's ring, which then passes
        # for a hand (``readable``). A cell that shows the whole mammoth, its full learnt
        # size, where no readable cell shows it, is the mammoth's: its ring is the token.
        whole = np.where(~readable & ~unknown, counts[:, 0] / max(model.mammoth.body, 1.0), 0.0)
        if whole.max() >= MAMMOTH_WHOLE:
            mammoth = int(np.argmax(whole))
            whole_cell = True
            conf = _choice_confidence(conf, whole, MAMMOTH_WHOLE)
    return mammoth, conf, whole_cell


def covered_cells(model: ChangeModel, measured: FrameChanges, ring_foreign: np.ndarray,
                  inside: np.ndarray) -> np.ndarray:
    """The cells a hand covers: a tile ring unlike its tile class (``ring_foreign``) is
    a hand only where it no longer looks as on the cell's own empty look either (a
    piece overhanging its ring shows learnt colours there), the cells off the frame
    (``inside`` False), and those showing changes of no learnt colour. The mammoth
    found whole on a cell is no hand (:func:`mammoth_by_colour`)."""
    ring_changed = measured.ring_changed.copy()
    mammoth, _, whole = mammoth_by_colour(model, measured, ~ring_foreign)
    if whole:
        ring_changed[mammoth] = False
    return (ring_foreign & ring_changed) | ~inside | measured.unknown


def read_changes(model: ChangeModel, grid: np.ndarray, readable: np.ndarray,
                 grass: np.ndarray, labels: list[str], leans: np.ndarray | None = None,
                 trap_odds: np.ndarray | None = None, hunter_odds: np.ndarray | None = None,
                 measured: FrameChanges | None = None, mammoth_odds: np.ndarray | None = None,
                 piece_odds: np.ndarray | None = None, hunter_on_trap_odds=None,
                 trap_under_hunter_odds=None, owner_odds=None) -> ChangeReading:
    """The pieces on the board from one frame's grid (:func:`sample_grid`).

    ``readable`` are the cells not covered by a hand, ``grass`` the grass cells (the
    only ones a trap may lie on). Each cell's light is its own against its empty look
    (:func:`cell_light`), for the empty look and the pieces' colours alike. ``leans``
    (:func:`vision.reader.figure_leans`) tell a standing hunter from a flat trap of his
    colour (:func:`stance`). ``trap_odds`` (37,), the learned classifier's odds of a
    trap on each cell (:mod:`vision.cell_model`), veto a trap where it is sure there is
    none (:data:`NO_TRAP_ODDS`); its ``hunter_odds`` place, unsure, a hunter read nowhere
    where it is sure one stands (:func:`seen_hunters`); its ``mammoth_odds`` move the
    mammoth, unsure, where it is sure of him from a cell where its ``piece_odds`` see
    nothing (:func:`mammoth_by_odds`). The fine models' odds (cells -> odds,
    :class:`vision.cell_model.FineModel`) tell which of a player's traps he stands on
    (``hunter_on_trap_odds``) and whether a trap lies under a hunter
    (``trap_under_hunter_odds``); the owner model's (cells -> each seat's chance,
    :class:`vision.cell_model.OwnerModel`) whose piece each is (``owner_odds``,
    :func:`owners_by_model`). ``measured`` is :func:`frame_changes` of the same grid,
    labels and leans when already measured (the reader measures it once a frame).
    """
    if measured is None:
        measured = frame_changes(model, grid, labels, leans)
    # (The rings' changes and the cross's stillness served :func:`mammoth_by_colour` and
    # :func:`covered_cells`.)
    (looks, colours, moved, lit, label, counts, dark_counts, family, family_counts, unknown, _,
     stances, _, depth, _) = measured
    ok = readable & ~unknown
    mammoth, conf, _ = mammoth_by_colour(model, measured, readable)
    if mammoth_odds is not None and piece_odds is not None:
        mammoth, conf = mammoth_by_odds(mammoth, conf, mammoth_odds, piece_odds, hunter_odds)

    bodies = _bodies(counts, looks[1:], colours[:, 1:-1], colours[:, -1])
    if mammoth is not None:
        # What the mammoth alone showed of each player's colour on the cross is no hunter.
        lent = np.array([model.mammoth.echo.get(k, 0.0) for k in labels]) * ECHO_ALLOWANCE
        bodies[mammoth] = np.maximum(bodies[mammoth] - lent, 0.0)

    changed = moved.sum(axis=1).astype(float)
    hunters, hunter_conf, under = _place_hunters(bodies, dark_counts, changed, looks[1:], labels, ok, grass, stances,
                                                 family_counts)
    # A hunter read beside another whose piece alone showed as much of his colour at
    # setup is that other's echo (a highlight, a shaded side): read again without it.
    echoed = echo_hunters(hunters, looks[1:], labels, bodies)
    if echoed.any():
        hunters, hunter_conf, under = _place_hunters(bodies - echoed, dark_counts, changed, looks[1:], labels, ok,
                                                     grass, stances, family_counts)
    seen_bodies = bodies
    # ... and no trap of that colour under him either.
    bodies = np.maximum(bodies - echoes(hunters, looks[1:], labels), 0.0)
    conf = np.minimum(conf, hunter_conf)
    mine = np.stack([(lit & (label == k + 1)) | (family == k) for k in range(len(labels))], axis=2)
    spill = spills(hunters, labels, mine, moved)
    no_trap = None if trap_odds is None else np.asarray(trap_odds) < NO_TRAP_ODDS
    ratio = trap_share(bodies, looks[1:], hunters, labels, ok & grass)
    shown = bodies + family_counts       # each player's colour (or family) on each cell
    traps, trap_conf, half_hidden = _traps(shown, changed, looks[1:], labels, ok & grass, hunters,
                                           mammoth, under, spill, no_trap, depth, ratio)
    conf = np.minimum(conf, trap_conf)
    hunters, conf = half_hidden_hunters(hunters, half_hidden, conf)
    if trap_odds is not None:
        traps, conf = hidden_traps(traps, conf, hunters, ok & grass, mammoth, trap_odds)
    if hunter_odds is not None:
        # (After the traps: a hunter guessed from a trace of his colour explains none
        # of his cell's change, and a trap under him is read as without him.)
        hunters, conf = seen_hunters(seen_bodies, looks[1:], labels, hunters, conf, ok, hunter_odds, mammoth)
        hunters, conf = hunters_onto_own_traps(hunters, traps, conf, hunter_odds)
        hunters, conf = misplaced_hunters(hunters, traps, conf, mammoth, np.where(ok, hunter_odds, 0.0), shown,
                                          labels)
        hunters, conf = unplaced_onto_own_traps(hunters, traps, conf, hunter_odds, labels, hunter_on_trap_odds)
        if hunter_on_trap_odds is not None:
            hunters, conf = onto_likelier_own_traps(hunters, traps, conf, hunter_on_trap_odds)
    if trap_odds is not None:
        # (After the hunters: a cell a hunter was moved off may hold his trap.)
        traps, conf = lone_traps(traps, conf, hunters, ok & grass, mammoth, trap_odds, shown, labels)
    if trap_under_hunter_odds is not None:
        traps, conf = traps_under_hunters(traps, conf, hunters, ok & grass, mammoth, trap_under_hunter_odds)
    if owner_odds is not None:
        hunters, traps, conf = owners_by_model(hunters, traps, conf, owner_odds, labels, mammoth)
        if hunter_odds is not None:
            hunters, conf = off_own_trap_by_owner(hunters, traps, conf, mammoth, np.where(ok, hunter_odds, 0.0),
                                                  owner_odds, labels)
    return ChangeReading(mammoth, hunters, traps, unknown, unsure_of_alike(hunters, conf, looks[1:], labels))


#: The most a hunter is read surely when his learnt colour is one a point could not
#: tell from another player's (:func:`_confusable`): the colours then say where a piece
#: of those two colours stands, not whose it is, and the owner model's word counts
#: more (:mod:`vision.together`). On the sim.tabletop development tables (200 frames),
#: where standing pieces are often learnt by their shaded side, near-black for every
#: player: hunters on a wrong cell 140 -> 135, frames fully right 57 -> 59
#: (sim.flatart's the same).
ALIKE_CONFIDENCE = 0.5


def unsure_of_alike(hunters: dict, conf: np.ndarray, looks: list, labels: list[str]) -> np.ndarray:
    """``conf`` with each cell a hunter whose look is confusable with another player's
    stands on no surer than :data:`ALIKE_CONFIDENCE`.

    >>> looks = [Look((0.05, 0.05, 0.05), 50.0), Look((0.07, 0.06, 0.06), 50.0), Look((0.8, 0.1, 0.1), 50.0)]
    >>> conf = unsure_of_alike({"c0": 4, "c1": 9, "c2": 12}, np.ones(NUM_CELLS), looks, ["c0", "c1", "c2"])
    >>> conf[[4, 9, 12]].tolist()
    [0.5, 0.5, 1.0]
    """
    labs = to_lab(np.clip(np.array([look.colour for look in looks]), 0, 1))
    alike = [labels[k] for k in range(len(labels))
             if any(_confusable(labs[k], labs[j]) for j in range(len(labels)) if j != k)]
    cells = [hunters[label] for label in alike if label in hunters]
    if not cells:
        return conf
    conf = conf.copy()
    conf[cells] = np.minimum(conf[cells], ALIKE_CONFIDENCE)
    return conf

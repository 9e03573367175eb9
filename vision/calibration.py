"""Learning a set's colours at setup (``maamut calibrate``).

Setup frames, in order: the empty board with the mammoth on the cross, then one frame
after each hunter is placed. From them we learn, with no palette assumed:

* the tile layout and the three tile colours, named by the known counts (18/11/7);
* the mammoth's colour (the token on the cross);
* each hunter's colour, labelled ``c0``, ``c1``… in placement order (traps share them);
* the colour of the hunters' rim;
* whether the pieces are the kit's outlined tokens (``pieces="kit"``) or the players'
  own pieces (``pieces="figures"``: pawns, meeples, a mammoth figure, with no outline).
  Figures are learnt from what changed between one setup frame and the next, not from
  fixed rings (:func:`_learn_figures`).

Colours are stored as reflectances (divided by the local lighting gain), so they hold
under another lamp. A calibration takes a few frames and well under a second.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from engine.hexgrid import CENTRE, NUM_CELLS

from .cell_model import CROP, FINE_CROP, cell_crops, decode_crops, encode_crops
from .changes import LIGHT_STRAY, STANDS, ChangeModel, changed_counts, learn_changes, sample_grid
from .colour import (TILE_CLASSES, cluster_tiles_under_light, fit_gain_field, gain_of, kmeans, lab_distance, labelling_cost,
                     relit_gain, to_lab)
from .geometry import (BOARD_RADIUS, CARDS_AGREE, MARKER_IDS, BoardLocator, CellSampler, Geometry, learn_cards, mirror_frame,
                       refine_on_tiles)

FORMAT = "maamut-vision-calibration/1"
MAX_HUNTERS = 4
PIECE_MODELS = ("kit", "figures", "changes")
MAMMOTH_KINDS = ("kit", "figure")
#: The kit's mammoth covers its cell's trap ring; a standing figure (seen from above)
#: covers less than this share of it (measured: kit tokens 0.82 and up, figures 0.49 at most).
MAMMOTH_COVERS = 0.65
#: The kit's outline is darker (Lab L) than both its core and its tile, by at least
#: OUTLINE_DARKER or OUTLINE_SHARE of the darker one's lightness, whichever is less: a
#: navy or near-black player's core, or a dark rock tile, leaves little room below.
OUTLINE_DARKER = 15.0
OUTLINE_SHARE = 0.25
#: A probe point that moved at least this far (ΔE) between two setup
#: frames shows the piece just put down (render and sensor noise stay under 5).
CHANGED_DISTANCE = 10.0
#: Lab weights for pieces seen in relief: shading changes lightness across a pawn.
FIGURE_LAB_WEIGHTS = np.array([0.35, 1.0, 1.0], np.float32)


class CalibrationError(ValueError):
    """Setup frames that cannot give a calibration; the message says what to fix."""


@dataclass
class Calibration:
    tiles: tuple[str, ...]                  # the layout read at setup (locked for the game)
    tile_colours: dict[str, tuple]          # class -> RGB under the setup light (the reference)
    mammoth: tuple                          # reflectance
    rim: tuple                              # reflectance of the hunters' outline
    hunters: dict[str, tuple] = field(default_factory=dict)   # label -> reflectance
    mirrored: bool = False                  # the camera delivers mirror images
    pieces: str = "kit"                     # "kit" (outlined tokens) or "figures" (any shape)
    mammoth_kind: str = "kit"               # "kit" (a token covering its cell) or "figure" (standing)
    #: Where each marker card really lies on the board (id -> 4 corners, board units),
    #: learnt on the tiles' edges at setup; cards laid by hand are a little off their spot.
    cards: dict = field(default_factory=dict)
    #: label -> reflectance of that player's traps, when the optional setup step showed
    #: one trap per player; otherwise traps are matched with the hunter's colour.
    traps: dict[str, tuple] = field(default_factory=dict)
    #: ``pieces == "changes"``: each cell's empty look and each piece's learnt look
    #: (:class:`vision.changes.ChangeModel`).
    changes: ChangeModel | None = None
    #: Each cell of the empty board (the first setup frame) as the cell classifier crops
    #: it (``vision.cell_model``), ``(37, 32, 32, 3)`` BGR; optional ``"empty_cells"`` key.
    empty_cells: np.ndarray | None = field(default=None, repr=False, compare=False)
    #: The same cells twice as fine, ``(37, 64, 64, 3)``, for the fine models
    #: (``vision.cell_model.FineModel``); optional ``"empty_cells_fine"`` key.
    empty_cells_fine: np.ndarray | None = field(default=None, repr=False, compare=False)
    #: Each seat's hunter on the setup frame he was put down in, cropped as the empty
    #: board's cells are (``(n, 32, 32, 3)``, seat order), and the cell he stood on:
    #: the owner model's picture of each player's piece (``vision.cell_model.OwnerModel``);
    #: optional ``"setup_hunters"`` key.
    setup_hunters: np.ndarray | None = field(default=None, repr=False, compare=False)
    setup_cells: tuple = ()

    def to_json(self) -> dict:
        r = lambda c: [round(float(v), 5) for v in c]  # noqa: E731 - tiny local formatter
        return {"format": FORMAT, "tiles": list(self.tiles),
                "tile_colours": {k: r(v) for k, v in self.tile_colours.items()},
                "mammoth": r(self.mammoth), "rim": r(self.rim),
                "hunters": {k: r(v) for k, v in self.hunters.items()}, "mirrored": self.mirrored,
                **({} if self.pieces == "kit" else {"pieces": self.pieces}),
                **({} if self.mammoth_kind == "kit" else {"mammoth_kind": self.mammoth_kind}),
                **({"cards": {str(k): [[round(float(x), 4), round(float(y), 4)] for x, y in np.asarray(v)]
                              for k, v in sorted(self.cards.items())}} if self.cards else {}),
                **({"traps": {k: r(v) for k, v in self.traps.items()}} if self.traps else {}),
                **({"changes": self.changes.to_json()} if self.changes is not None else {}),
                **({"empty_cells": encode_crops(self.empty_cells)} if self.empty_cells is not None else {}),
                **({"empty_cells_fine": encode_crops(self.empty_cells_fine)}
                   if self.empty_cells_fine is not None else {}),
                **({"setup_hunters": {"cells": [int(c) for c in self.setup_cells],
                                      "crops": encode_crops(self.setup_hunters)}}
                   if self.setup_hunters is not None else {})}

    @classmethod
    def from_json(cls, obj) -> "Calibration":
        """Parse and check a calibration; ``CalibrationError`` names the bad field.

        >>> Calibration.from_json({"format": "other"})
        Traceback (most recent call last):
        ...
        vision.calibration.CalibrationError: not a Mâamut vision calibration (format 'other')
        """
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            fmt = obj.get("format") if isinstance(obj, dict) else type(obj).__name__
            raise CalibrationError(f"not a Mâamut vision calibration (format {fmt!r})")

        def colour(value, name):
            if (not isinstance(value, (list, tuple)) or len(value) != 3
                    or not all(isinstance(v, (int, float)) and 0 <= v <= 10 for v in value)):
                raise CalibrationError(f"{name}: expected 3 numbers, got {value!r}")
            return tuple(float(v) for v in value)

        tiles = obj.get("tiles")
        allowed = set(TILE_CLASSES) | {"cross"}
        if not isinstance(tiles, list) or len(tiles) != NUM_CELLS or not set(tiles) <= allowed:
            raise CalibrationError(f"tiles: expected {NUM_CELLS} names among {sorted(allowed)}")
        tc = obj.get("tile_colours")
        if not isinstance(tc, dict) or set(tc) != set(TILE_CLASSES):
            raise CalibrationError(f"tile_colours: expected colours for {list(TILE_CLASSES)}")
        hunters = obj.get("hunters", {})
        if not isinstance(hunters, dict) or len(hunters) > MAX_HUNTERS:
            raise CalibrationError("hunters: expected at most 4 colour labels")
        pieces = obj.get("pieces", "kit")
        if pieces not in PIECE_MODELS:
            raise CalibrationError(f"pieces: expected one of {list(PIECE_MODELS)}, got {pieces!r}")
        traps = obj.get("traps", {})
        if not isinstance(traps, dict) or not set(map(str, traps)) <= set(map(str, hunters)):
            raise CalibrationError("traps: expected trap colours for some of the hunters' labels")
        changes = None
        if pieces == "changes":
            try:
                changes = ChangeModel.from_json(obj["changes"])
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise CalibrationError(f"changes: expected the empty board's look and the pieces' ({exc})") from None
        empty_cells, empty_cells_fine = (_crops(obj, key, size) for key, size in
                                         (("empty_cells", CROP), ("empty_cells_fine", FINE_CROP)))
        setup_hunters, setup_cells = _setup_hunters(obj, len(hunters))
        return cls(tuple(tiles), {k: colour(tc[k], f"tile_colours.{k}") for k in TILE_CLASSES},
                   colour(obj.get("mammoth"), "mammoth"), colour(obj.get("rim"), "rim"),
                   {str(k): colour(v, f"hunters.{k}") for k, v in hunters.items()},
                   bool(obj.get("mirrored", False)), pieces, _choice(obj, "mammoth_kind", MAMMOTH_KINDS),
                   _cards(obj.get("cards", {})), {str(k): colour(v, f"traps.{k}") for k, v in traps.items()},
                   changes, empty_cells, empty_cells_fine, setup_hunters, setup_cells)

    def save(self, path) -> None:
        """Write the file atomically: a re-learn mid-game never leaves half a file."""
        tmp = f"{path}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(self.to_json(), fh, indent=1)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)

    @classmethod
    def load(cls, path) -> "Calibration":
        try:
            with open(path, encoding="utf-8") as fh:
                obj = json.load(fh)
        except OSError as exc:
            raise CalibrationError(f"cannot read calibration {path}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"calibration {path} is not JSON: {exc}") from None
        return cls.from_json(obj)


def _cards(value) -> dict:
    """The optional ``cards`` of a calibration: ``{"0": [[x, y] * 4], ...}``, ids 0..5.

    >>> _cards({"7": [[0, 0]] * 4})
    Traceback (most recent call last):
    ...
    vision.calibration.CalibrationError: cards: expected marker ids 0 to 5 with 4 corners [x, y] each
    """
    message = "cards: expected marker ids 0 to 5 with 4 corners [x, y] each"
    if not isinstance(value, dict):
        raise CalibrationError(message)
    cards = {}
    for key, corners in value.items():
        if key not in {str(i) for i in MARKER_IDS}:
            raise CalibrationError(message)
        try:
            pts = np.asarray(corners, dtype=np.float64)
        except (TypeError, ValueError):
            raise CalibrationError(message) from None
        if pts.shape != (4, 2) or not np.isfinite(pts).all() or np.abs(pts).max() > 2 * BOARD_RADIUS:
            raise CalibrationError(message)
        cards[int(key)] = pts
    return cards


def _choice(obj, key, allowed):
    value = obj.get(key, allowed[0])
    if value not in allowed:
        raise CalibrationError(f"{key}: expected one of {list(allowed)}, got {value!r}")
    return value


def median_zones(zones: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Per-cell median colour of each zone: robust to speckles, tusks and noise."""
    return {name: np.median(values, axis=1) for name, values in zones.items()}


def locate_with_mirror(frame: np.ndarray, locator: BoardLocator) -> tuple[Geometry | None, bool]:
    """Find the board; if only the mirrored frame shows it, the camera mirrors."""
    found = locator.fit(locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)))
    if found is not None:
        return found, False
    flipped = locator.fit(locator.detect(cv2.cvtColor(mirror_frame(frame), cv2.COLOR_BGR2GRAY)))
    return flipped, flipped is not None


def learn(frames: list[np.ndarray], pieces: str | None = None, trap_frames=(), hunter_cells=()) -> Calibration:
    """The calibration from setup frames (see the module docstring for their order).

    ``pieces`` forces the token model ("kit" or "figures"); by default the setup
    frames tell (the kit's hunters show a dark outline around their core).
    ``trap_frames`` (optional) follow the last hunter's frame: one more trap put down in
    each, player by player in seating order, so each player's traps are matched with
    their own colour rather than the hunter's (a printed trap rarely has the pawn's).
    ``hunter_cells``: cells the hunters were seen put down on, when the setup's changes
    told (:class:`vision.track_setup.SetupLearner`): none of those tiles is rock."""
    calibration = _learn(frames, pieces, hunter_cells)
    calibration.empty_cells, calibration.empty_cells_fine = _empty_cells(frames[0], calibration)
    calibration.setup_hunters = _setup_crops(frames, calibration)
    if calibration.setup_hunters is None:
        calibration.setup_cells = ()
    if len(trap_frames):
        calibration.traps = _learn_traps(frames[-1], list(trap_frames), calibration)
    return calibration


def _empty_cells(empty: np.ndarray, calibration: Calibration) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The empty board's cells as the cell classifier crops them, and as the fine
    models do, twice as fine (None, None: no board found)."""
    frame = mirror_frame(empty) if calibration.mirrored else empty
    geometry = BoardLocator(cards=calibration.cards).locate(frame)
    if geometry is None:
        return None, None
    return cell_crops(frame, geometry.homography), cell_crops(frame, geometry.homography, size=FINE_CROP)


def _setup_crops(frames: list[np.ndarray], calibration: Calibration) -> np.ndarray | None:
    """Each seat's hunter cropped on the setup frame he was put down in (frame ``i + 1``
    for seat ``i``), at the cell setup learnt for him (None: cells not learnt, or a
    frame whose board is not found)."""
    cells = calibration.setup_cells
    if not cells or len(cells) != len(frames) - 1:
        return None
    locator, crops = BoardLocator(cards=calibration.cards), []
    for frame, cell in zip(frames[1:], cells):
        frame = mirror_frame(frame) if calibration.mirrored else frame
        geometry = locator.locate(frame)
        if geometry is None:
            return None
        crops.append(cell_crops(frame, geometry.homography, cells=[cell])[0])
    return np.stack(crops)


def _setup_hunters(obj: dict, seats: int) -> tuple[np.ndarray | None, tuple]:
    """The optional ``"setup_hunters"`` key: ``{"cells": [cell per seat], "crops": text}``."""
    value = obj.get("setup_hunters")
    if value is None:
        return None, ()
    message = f"setup_hunters: expected {seats} cells and their crops"
    try:
        cells = tuple(int(c) for c in value["cells"])
        crops = decode_crops(value["crops"], CROP, len(cells))
    except (KeyError, TypeError, ValueError, cv2.error) as exc:
        raise CalibrationError(f"{message} ({exc})") from None
    if len(cells) != seats or not all(0 <= c < NUM_CELLS for c in cells):
        raise CalibrationError(message)
    return crops, cells


def _crops(obj: dict, key: str, size: int) -> np.ndarray | None:
    """The empty board's cells kept under ``key`` (None when the file has none)."""
    if key not in obj:
        return None
    try:
        return decode_crops(obj[key], size)
    except (TypeError, ValueError, cv2.error) as exc:
        raise CalibrationError(f"{key}: expected the empty board's cells ({exc})") from None


#: Share of a cell's trap ring that must change when a trap is put down on it.
TRAP_CHANGED_SHARE = 0.3


def _learn_traps(last_setup: np.ndarray, trap_frames: list, calibration: Calibration) -> dict[str, tuple]:
    """Each player's trap colour: the trap ring's points that changed most between one
    trap frame and the one before, on the cell that changed most."""
    labels = list(calibration.hunters)
    if len(trap_frames) > len(labels):
        raise CalibrationError(f"{len(trap_frames)} trap frames for {len(labels)} players: one trap per player")
    locator, sampler = BoardLocator(), CellSampler()
    refs = np.array([calibration.tile_colours["snow" if t == "cross" else t] for t in calibration.tiles])
    rings, gains = [], []
    for index, frame in enumerate([last_setup] + trap_frames):
        if calibration.mirrored:
            frame = mirror_frame(frame)
        g = locator.fit(locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)))
        if g is None:
            raise CalibrationError(f"trap frame {index}: board markers not found" if index else
                                   "last setup frame: board markers not found")
        zones, _ = sampler.sample(frame, g.homography, ("tile", "trap"))
        tile = np.median(zones["tile"], axis=1)
        local = gain_of(tile, refs)
        gains.append(relit_gain(local, fit_gain_field(local, np.ones(NUM_CELLS, bool)), tile))
        rings.append(zones["trap"])
    traps, taken = {}, set()
    for index in range(1, len(rings)):
        # Compared under one light: each frame's ring re-lit with the previous frame's gain.
        now = np.clip(rings[index] / gains[index][:, None, :] * gains[index - 1][:, None, :], 0, 1)
        change = lab_distance(to_lab(now.astype(np.float32)), to_lab(rings[index - 1]))          # (37, n)
        moved = change > CHANGED_DISTANCE
        score = moved.mean(axis=1)
        for cell in taken:
            score[cell] = -1
        cell = int(np.argmax(score))
        second = np.partition(score, -2)[-2]
        # A trap close to its tile in colour changes less of the ring, but still stands out.
        if score[cell] < TRAP_CHANGED_SHARE and not (score[cell] >= 0.1 and score[cell] >= 3 * max(second, 0.01)):
            raise CalibrationError(f"trap frame {index}: no newly placed trap found (best {score[cell]:.2f})")
        taken.add(cell)
        points = rings[index][cell][moved[cell]]
        traps[labels[index - 1]] = tuple(float(v) for v in np.median(points, axis=0) / gains[index][cell])
    return traps


def _learn(frames: list[np.ndarray], pieces: str | None = None, hunter_cells=()) -> Calibration:
    if not frames:
        raise CalibrationError("no setup frames given")
    if len(frames) > MAX_HUNTERS + 1:
        raise CalibrationError(f"at most {MAX_HUNTERS + 1} setup frames (empty board + 4 hunters), got {len(frames)}")
    locator, sampler = BoardLocator(), CellSampler()
    geometry, mirrored = locate_with_mirror(frames[0], locator)
    if geometry is None:
        raise CalibrationError("setup frame 1: board markers not found (need 2 of the 6 visible)")
    # Cards that disagree with one another were laid by hand off their spot: find where
    # they really lie from the first frame's fit aligned on the tiles' own edges. Every
    # later fit (here and in play) uses those positions, so a fit from the two or three
    # cards that hands leave visible agrees with the whole board's.
    cards = {}
    frame0 = mirror_frame(frames[0]) if mirrored else frames[0]
    if geometry.error > CARDS_AGREE * geometry.pixels_per_unit():
        refined = refine_on_tiles(frame0, geometry.homography)
        learnt = learn_cards([(geometry.homography if refined is None else refined, geometry.seen)])
        locator.cards = learnt
        fitted = locator.fit(locator.detect(cv2.cvtColor(frame0, cv2.COLOR_BGR2GRAY))) or geometry
        # Tiles laid by hand with gaps do not sit on the edges' perfect lattice: the
        # alignment can then pull the fit off the tiles. When the two fits read the
        # layout differently, the one whose tiles lie nearer their classes' colours wins.
        by_learnt = tile_layout(frame0, fitted.homography, sampler)
        by_cards = tile_layout(frame0, geometry.homography, sampler)
        if np.array_equal(by_learnt[0], by_cards[0]) or by_learnt[1] <= by_cards[1]:
            cards, geometry = learnt, fitted
        else:
            locator.cards = {}
    from .reader import figure_leans      # the reader imports this module
    medians, grids, leans = [], [], []
    for index, frame in enumerate(frames):
        if mirrored:
            frame = mirror_frame(frame)
        g = locator.fit(locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))) or geometry
        zones, inside = sampler.sample(frame, g.homography)
        if not inside.all():
            raise CalibrationError(f"setup frame {index + 1}: part of the board is outside the picture")
        if index == 0:
            first_trap_ring = zones["trap"][CENTRE]
        medians.append(median_zones(zones))
        grids.append(sample_grid(frame, g.homography))
        leans.append(figure_leans(g.homography, frame.shape))
    first = medians[0]
    others = [c for c in range(NUM_CELLS) if c != CENTRE]
    not_cross = np.arange(NUM_CELLS) != CENTRE
    labels, _ = cluster_tiles_under_light(first["tile"], not_cross, ruled_out=_not_rock(hunter_cells))
    tiles = ["cross"] * NUM_CELLS
    for cell, label in zip(others, labels):
        tiles[cell] = TILE_CLASSES[label]
    refs = {name: np.median(first["tile"][[c for c, l in zip(others, labels) if l == k]], axis=0)
            for k, name in enumerate(TILE_CLASSES)}
    refs_cell = np.array([refs["snow" if t == "cross" else t] for t in tiles])

    def board_gain(m):
        local = gain_of(m["tile"], refs_cell)
        return relit_gain(local, fit_gain_field(local, np.ones(NUM_CELLS, bool)), m["tile"])

    gains = [board_gain(m) for m in medians]

    def reflectance(index, zone, cell):
        return medians[index][zone][cell] / gains[index][cell]

    mammoth = reflectance(0, "core", CENTRE) * 0.5 + reflectance(0, "trap", CENTRE) * 0.5
    hunters, rims, taken, outlines, missing = {}, [], set(), [], []
    for index, m in enumerate(medians[1:], start=1):
        # The new hunter is where the core stands out most from its own tile.
        core_l, rim_l, tile_l = to_lab(m["core"]), to_lab(m["rim"]), to_lab(m["tile"])
        score = lab_distance(core_l, tile_l) + lab_distance(rim_l, tile_l)
        score[CENTRE] = -1
        for cell in taken:
            score[cell] = -1
        cell = int(np.argmax(score))
        if score[cell] < 20:
            # No token stands out on the kit's rings: a piece of another shape (a thin
            # meeple, a pawn leaning over its neighbour) may still have been put down.
            missing.append(index + 1)
            outlines.append(False)
            continue
        taken.add(cell)
        hunters[f"c{index - 1}"] = tuple(float(v) for v in reflectance(index, "core", cell))
        rims.append(reflectance(index, "rim", cell))
        core_l, rim_l, tile_l = core_l[cell, 0], rim_l[cell, 0], tile_l[cell, 0]
        darker = min(core_l, tile_l)
        outlines.append(bool(rim_l < darker - min(OUTLINE_DARKER, OUTLINE_SHARE * darker)))
    rim = np.median(np.array(rims), axis=0) if rims else np.array([0.08, 0.08, 0.08])
    model = "kit"
    if pieces == "changes":
        model = "changes"
    elif pieces == "figures" or (pieces is None and outlines and sum(outlines) * 2 < len(outlines)):
        model = "figures"
        try:
            mammoth, hunters = _learn_figures(frames, mirrored, locator, sampler, geometry, refs_cell, gains, hunters)
        except CalibrationError:
            if pieces is not None:
                raise
            model = "changes"   # (as for the kit's model, below)
    elif missing:
        model = "changes" if pieces is None else model
        if model != "changes":
            raise CalibrationError(f"setup frame {missing[0]}: no newly placed hunter found")
    # The mammoth: the kit's token covers its cell's trap ring, a standing figure does not.
    snow = to_lab(np.clip(refs_cell[CENTRE] * gains[0][CENTRE], 0, 1))
    covered = float((lab_distance(to_lab(first_trap_ring), snow) > 20).mean())
    mammoth_kind = "kit"
    if model == "figures" or (pieces is None and covered < MAMMOTH_COVERS):
        mammoth_kind = "figure"
        if model == "kit":
            try:
                mammoth = _learn_mammoth_figure(_probe(frames[0], mirrored, locator, sampler, geometry), refs_cell,
                                                gains)
            except CalibrationError:
                if pieces is not None:
                    raise
                # A grey figure as wide as the cross passes for the snow under its own
                # light; the changes' model learns him from the cross as setup saw it
                # (sim.flatart development tables 3,000,071 and 3,000,158 failed setup).
                model = "changes"
    calibration = Calibration(tuple(tiles), {k: tuple(float(x) for x in v) for k, v in refs.items()},
                              tuple(float(v) for v in mammoth), tuple(float(v) for v in rim), hunters, mirrored,
                              model, mammoth_kind, cards)
    if model == "changes" or pieces is None:
        calibration = _with_changes(calibration, frames, grids, gains, forced=model == "changes", leans=leans)
    return calibration


def _not_rock(hunter_cells) -> np.ndarray | None:
    """The tiles' classes ruled out (36 cells around the cross × 3) where a hunter was
    put down: a hunter never stands on rock (RULINGS "Setup" 4, "Actions": Move). A glaring
    snow tile read as rock is then read again (sim.tabletop development game 5,600,023:
    two hunters put down at setup on tiles read as rock, the setup refused)."""
    if not len(hunter_cells):
        return None
    others = [c for c in range(NUM_CELLS) if c != CENTRE]
    ruled_out = np.zeros((len(others), len(TILE_CLASSES)), bool)
    for cell in hunter_cells:
        if cell != CENTRE:
            ruled_out[others.index(cell), TILE_CLASSES.index("rock")] = True
    return ruled_out


def tile_layout(frame: np.ndarray, homography: np.ndarray, sampler: CellSampler | None = None):
    """``(labels, incoherence)``: the empty board's tile classes (the 36 cells around
    the cross, :func:`vision.colour.cluster_tiles_under_light`) with their rings sampled
    through ``homography``, and how far those rings lie from their classes' colours once
    the light is divided out (:func:`vision.colour.labelling_cost`): a fit that samples
    each ring on its own tile, not on the gaps or a neighbour, leaves the tiles nearer
    their three prints."""
    zones, _ = (sampler or CellSampler()).sample(frame, homography, ("tile",))
    tile = np.median(zones["tile"], axis=1)
    labels, cost = cluster_tiles_under_light(tile, np.arange(NUM_CELLS) != CENTRE)
    return labels, labelling_cost(cost, labels)


def _changes_preferred(calibration: Calibration, model: ChangeModel) -> bool:
    """Whether the changes are preferred to the learnt model when they read the setup
    back as well: to the figures' model for a set whose pieces do not stand (at setup no
    hunter leant with the camera, :data:`vision.changes.STANDS`). That model reads a
    flat-art set's setup back exactly (a star is a figure seen from above), then misses
    its traps in play (fresh sim.flatart development tables, docs/vision.md session 13).
    A dark part does not make a piece stand: sets of flat-art pawns drawn with a shadow
    (a fifth of their body and more) kept the figures' model until session 24 and read
    none of their 16 development frames right; by their changes, 11. It keeps standing
    pieces, whose lean it knows, and the kit's model keeps the kit's tokens (it knows
    outlines, stacks and tokens side by side). The set stands when most of its hunters
    do (the median): one flat-art star of four measured at the bar (1.2, the others
    0.9-1.04) kept sim.flatart 3,000,127 on the figures' model, which read none of its
    four frames right, and sim.tabletop 5,000,086 likewise (by their changes 4 and 2).
    To the kit's model for a set whose pieces are no kit tokens (:func:`_not_kit_tokens`)."""
    stances = [look.stands for look in model.hunters.values()]
    if calibration.pieces == "kit":
        return _not_kit_tokens(model)
    return calibration.pieces == "figures" and float(np.median(stances)) < STANDS


#: The kit's hunter token is a coloured core inside a dark ring (``hardware/``): setup
#: sees its colour on about a third of what it changes (each set's median 0.28-0.37 on
#: twenty rendered kits). A set whose pieces show their colour on more than this share
#: of it is no kit.
KIT_CORE_SHARE = 0.5


def _not_kit_tokens(model: ChangeModel) -> bool:
    """Whether the hunters setup saw are not the kit's tokens, though the kit's model reads
    their setup back: their colour covers most of what each changed (the median), where
    a kit token's dark ring takes most. Flat-art pawns drawn with an outline, as wide as
    a kit token, read the setup back on the kit's model, then lose every trap, rings the
    kit's model looks for at its own trap's radius (sim.flatart development table
    3,000,072: none of its four frames right; by their changes, three)."""
    shares = [look.body / look.extent for look in model.hunters.values() if look.extent > 0]
    return bool(shares) and float(np.median(shares)) > KIT_CORE_SHARE


def _with_changes(calibration: Calibration, frames, grids, gains, forced: bool, leans=None) -> Calibration:
    """The calibration read by what changes on each cell (:mod:`vision.changes`) when
    the kit's or the figures' model does not read the setup frames back as they are
    (the empty board with the mammoth on the cross, then each hunter where he was put
    down) and the changes do: small pieces, pieces close to their tile's colour,
    prints the rings miss. A set those models read back stays as it was learnt."""
    labels = [f"c{i}" for i in range(len(frames) - 1)]
    try:
        model, cells = learn_changes(grids, gains, labels,
                                     [c for c, t in enumerate(calibration.tiles) if t == "snow"], leans)
    except ValueError as exc:
        if forced:
            raise CalibrationError(str(exc)) from None
        return calibration
    if forced:
        return _read_by_changes(calibration, model, cells)
    preferred = _changes_preferred(calibration, model)
    learnt = setup_score(calibration, frames, cells)
    if learnt >= 1.0 and not preferred:
        return calibration
    changed = _read_by_changes(calibration, model, cells)
    by_changes = setup_score(changed, frames, cells)
    # The model that explains more of the setup wins; on a tie, the changes over the
    # models they are preferred to, else the learnt one.
    return changed if by_changes > learnt or (preferred and by_changes >= learnt) else calibration


def _read_by_changes(calibration: Calibration, model, cells: dict) -> Calibration:
    """``calibration`` read by the changes (``cells``: where setup put each label's hunter)."""
    return replace(calibration, pieces="changes", mammoth_kind="kit", changes=model,
                   hunters={k: look.colour for k, look in model.hunters.items()},
                   mammoth=model.mammoth.colour, rim=model.dark, setup_cells=tuple(cells[k] for k in model.hunters))


#: In :func:`setup_score`, a cell read as covered counts this much against the model
#: (it explains nothing there, but guesses nothing either).
COVERED_COST = 0.5


def setup_score(calibration: Calibration, frames, cells: dict) -> float:
    """How well ``calibration`` reads the setup frames back (1.0: every frame exactly;
    the mammoth on the cross, the hunters put down so far where they were put, nothing
    else): each frame's pieces read where they were put count for it, each piece read
    where none is (a hunter misplaced, a trap on an empty board) against it, a cell
    read as covered half against it; the share of the pieces shown, over all frames."""
    from .reader import BoardReader
    reader = BoardReader(calibration, lock_tiles=True)
    right = wrong = shown = 0.0
    for index, frame in enumerate(frames):
        seen = reader.read(frame, 0.0)
        expected = {f"c{i}": cells[f"c{i}"] for i in range(index)}
        shown += 1 + len(expected)
        if not seen.board_found:
            continue
        right += (seen.mammoth == CENTRE) + sum(seen.hunters.get(k) == c for k, c in expected.items())
        wrong += (seen.mammoth not in (None, CENTRE)) + len(seen.traps) + sum(
            cell != expected.get(k) for k, cell in seen.hunters.items())
        wrong += COVERED_COST * len(seen.occluded_cells)
    return (right - wrong) / shown


#: A cell with at least this many moved probe points shows a change (see :func:`moved_between`).
MOVED_POINTS = 20


def change_probe(frame: np.ndarray, locator: BoardLocator | None = None) -> np.ndarray | None:
    """The cells' dense grids (:func:`vision.changes.sample_grid`), compared by
    :func:`moved_between` (``None``: no board)."""
    locator = locator or BoardLocator()
    g = locator.fit(locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)))
    if g is None:
        return None
    return sample_grid(frame, g.homography)


#: A piece put down changes at least this many grid points of its cell (a pawn's head a
#: fifth of a tile wide covers a dozen; sensor noise and jpeg change none).
MIN_PIECE_POINTS = 10


def piece_changed(before: np.ndarray, after: np.ndarray) -> bool:
    """Whether some cell differs between two boards by a piece's worth
    (:data:`MIN_PIECE_POINTS`), each cell's light divided out. Asked of a still board
    against the one last looked at: a faint piece put down between two frames changes
    fewer points than :func:`moved_between` needs (a hand passing), so no frame shows
    the board moving."""
    return bool(changed_counts(before, after).max() >= MIN_PIECE_POINTS)


def moved_between(before: np.ndarray, after: np.ndarray) -> tuple[int, ...]:
    """Cells whose grids (:func:`change_probe`) changed: :data:`MOVED_POINTS` of their
    points by :data:`vision.changes.CHANGED` or more, each cell's light now divided out
    first (a lamp or the camera's exposure drifting between two setup steps is no piece)."""
    counts = changed_counts(before, after)
    return tuple(int(c) for c in np.flatnonzero(counts >= MOVED_POINTS))


def cross_light(gain: np.ndarray) -> np.ndarray:
    """A setup frame's light per cell (37, 3), the cross cell's taken from the smooth
    light over the other cells where its own strays from it by more than
    :data:`vision.changes.LIGHT_STRAY` (log ratio): all through the setup the mammoth
    stands on the cross, and a token as wide as its tile covers the ring its light is
    measured on, which would pass the token's colour for the light.

    >>> gain = np.full((NUM_CELLS, 3), 0.9); gain[CENTRE] = (0.4, 0.45, 0.35)      # a grey token's ring
    >>> cross_light(gain)[CENTRE].round(2).tolist()
    [0.9, 0.9, 0.9]
    >>> gain[CENTRE] = (0.85, 0.9, 0.95)                                          # a figure's: its own light
    >>> cross_light(gain)[CENTRE].round(2).tolist()
    [0.85, 0.9, 0.95]
    """
    out = gain.copy()
    field = fit_gain_field(gain, np.arange(NUM_CELLS) != CENTRE)[CENTRE]
    if np.abs(np.log(np.clip(gain[CENTRE], 0.02, None) / field)).max() > LIGHT_STRAY:
        out[CENTRE] = field
    return out


def _probe(frame, mirrored, locator, sampler, geometry) -> np.ndarray:
    if mirrored:
        frame = mirror_frame(frame)
    g = locator.fit(locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))) or geometry
    return sampler.sample(frame, g.homography, ("probe",))[0]["probe"]


def _learn_mammoth_figure(probe0: np.ndarray, refs_cell, gains) -> np.ndarray:
    """A standing mammoth's colour: the larger cluster of the cross cell's points that
    differ from its snow (the thin cross print is the smaller one)."""
    from .geometry import ZONE_OFFSETS
    radius = np.hypot(*ZONE_OFFSETS["probe"].T)
    pts = probe0[CENTRE][radius <= 0.6]
    for light in (gains[0][CENTRE], cross_light(gains[0])[CENTRE]):
        # A token as wide as its tile passes its colour for the cross's light, and then
        # nothing differs from the snow: the board's light around it is taken.
        snow = np.clip(refs_cell[CENTRE] * light, 0, 1)
        far = lab_distance(to_lab(pts), to_lab(snow), FIGURE_LAB_WEIGHTS) > CHANGED_DISTANCE
        if far.sum() >= 5:
            break
    if far.sum() < 5:
        raise CalibrationError("setup frame 1: no mammoth seen on the cross")
    mammoth = np.median(pts[far], axis=0)
    if far.sum() >= 10:
        data = (to_lab(pts[far]) * FIGURE_LAB_WEIGHTS).astype(np.float32)
        labels, _ = kmeans(data, 2)
        big = int(np.bincount(labels, minlength=2).argmax())
        mammoth = np.median(pts[far][labels == big], axis=0)
    return mammoth / light


def _learn_figures(frames, mirrored, locator, sampler, geometry, refs_cell, gains, kit_hunters):
    """Mammoth and hunter colours of pieces of any shape (no outline, standing, leaning).

    The mammoth is what differs from the snow on the cross in the first frame; each
    hunter is what changed between one setup frame and the next, wherever it shows
    (a standing piece leans over its neighbours under a tilted camera).
    """
    from .geometry import ZONE_OFFSETS
    probes = [_probe(frame, mirrored, locator, sampler, geometry) for frame in frames]
    radius = np.hypot(*ZONE_OFFSETS["probe"].T)
    mammoth = _learn_mammoth_figure(probes[0], refs_cell, gains)
    hunters = {}
    for index in range(1, len(probes)):
        before, after = to_lab(probes[index - 1]), to_lab(probes[index])
        change = lab_distance(after, before)                                          # (37, P)
        change[:, radius > 0.75] = 0.0
        moved = change > CHANGED_DISTANCE
        counts = moved.sum(axis=1)
        cell = int(np.argmax(counts))
        if counts[cell] < 6:
            raise CalibrationError(f"setup frame {index + 1}: no newly placed hunter found")
        # The piece's points, from its cell and the neighbours it leans over.
        # The points that changed most: the piece itself, not its blurred edge or shadow.
        strong = moved & (change >= np.percentile(change[moved], 60))
        colour = np.median(probes[index][strong], axis=0)
        hunters[f"c{index - 1}"] = tuple(float(v) for v in colour / gains[index][cell])
    return mammoth, hunters

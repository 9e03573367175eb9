"""Light at the table: telling the players about it, and re-learning it mid-game.

Two parts, both camera state (never the game's, never the journal's):

* :class:`LightWatch` follows every frame and says what the light does to the reading:
  a lamp's hotspot clipping the tiles (``glare``, with the compass direction), a board
  too dark to read (``dark``), and a board the camera has not been able to read for a
  while (``unreadable``). The camera loop carries this to the referee's page.
* :func:`relearn` learns the set's colours again from one still frame, *given the
  position the table's game says is on the board*, the way setup learnt them from
  known cells. It is started by the referee (a page button) or by the watch itself,
  when the light changed under a game in progress (a lamp switched on, the sun moved).

"Disagrees only in colour" is measured, not assumed. A re-learnt calibration is kept
only when, on a frame that stayed still for ``required`` frames (a moving hand breaks
the run):

1. every tile, once the smooth light over the board is divided out, is nearer the new
   colour of its own class (grass, snow, rock: the layout locked at setup) than the
   others' -- a hand or an object over the board fails this;
2. a per-channel ``gain * old + offset`` map, fitted on the three tile classes alone
   (a lamp's gain and colour, plus light not reflected by the print: daylight washing
   the board out, a glossy sheen), predicts each piece's new colour nearer its own old
   colour's image than any other piece's -- two hunters swapped on the board, or a
   piece missing, fail this, so the seats' colours keep their identity;
3. the new calibration reads the frame back as exactly the game's board (a hidden token
   only where another stands on it), with no unreadable cell but lamp-clipped ones.

Pieces that cannot be seen alone (a hunter stacked with another, one on the mammoth's
cell) take the colour the tile map predicts. The game, the journal and the seat
colours' labels are never touched: only the reader's colours change.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from engine.hexgrid import CENTRE, NUM_CELLS, cell_name

from .calibration import FIGURE_LAB_WEIGHTS, Calibration, median_zones
from .colour import TILE_CLASSES, fit_gain_field, gain_of, kmeans, lab_distance, relit_gain, to_lab
from .geometry import ZONE_OFFSETS, BoardLocator, CellSampler, mirror_frame
from .observation import Observation

log = logging.getLogger("maamut.light")
#: Mean absolute difference (grey levels, on a 80×60 thumbnail) under which two frames
#: show the same still scene: sensor noise and JPEG stay well under it, a hand does not.
STILL_LEVEL = 2.5
#: Whites of the tiles darker than this (share of the camera's range) are too dark to read.
DARK_LEVEL = 0.2
#: Seconds a found board may stay unreadable (more hidden cells than the tracker
#: tolerates) before the page says so.
UNREADABLE_AFTER_S = 6.0
#: Within one still scene the watch tries again after this long (the sun moves slowly).
RETRY_S = 10.0
#: A referee's re-learn waits this long for a still board before giving up.
RELEARN_TIMEOUT_S = 30.0
#: The automatic re-learn starts only when the tiles' colours moved at least this far
#: (ΔE) beyond a change of gain (:func:`light_shift`). Measured on six rendered sets:
#: the small changes between boards stay under 2; a brighter lamp clipping the whites
#: gives 2-16, daylight washing the board out 8-20.
AUTO_SHIFT = 6.0
#: Probe points this far (figure weights) from their tile show a piece standing there.
PIECE_UNLIKE_TILE = 12.0
#: Base discs (tile circumradii) in which a figure's colour is measured.
FIGURE_DISC, MAMMOTH_DISC = 0.38, 0.5
#: The tile map must predict the pieces seen alone within this (ΔE) for hidden ones to
#: take its prediction.
PREDICTION_TOLERANCE = 12.0
_PROBE_RADIUS = np.hypot(*ZONE_OFFSETS["probe"].T)


class RelearnError(ValueError):
    """The frame cannot teach the light; ``code`` says why (for the page's languages)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class LabelBoard:
    """A board in the calibration's colour labels: what the game says the camera sees."""
    mammoth: int | None
    hunters: dict            # label -> cell
    traps: dict              # cell -> label

    def view(self):
        from .tracker import BoardView
        return BoardView(self.mammoth, frozenset(self.hunters.items()),
                         frozenset((c, o) for c, o in self.traps.items()))


def still_thumbnail(frame: np.ndarray) -> np.ndarray:
    """The small grey picture frames are compared on (see :data:`STILL_LEVEL`)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, (80, 60), interpolation=cv2.INTER_AREA).astype(np.float32)


def _tile_map(old_refs: np.ndarray, new_refs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel ``gain, offset`` taking the old tile colours to the new ones (least squares)."""
    gains, offsets = np.ones(3), np.zeros(3)
    for ch in range(3):
        a = np.stack([old_refs[:, ch], np.ones(len(old_refs))], axis=1)
        (g, o), *_ = np.linalg.lstsq(a, new_refs[:, ch], rcond=None)
        gains[ch], offsets[ch] = g, o
    return gains, offsets


def _figure_colour(points: np.ndarray, tile: np.ndarray) -> np.ndarray | None:
    """A standing piece's colour: the larger cluster of the points unlike the tile."""
    far = lab_distance(to_lab(points), to_lab(tile), FIGURE_LAB_WEIGHTS) > PIECE_UNLIKE_TILE
    if far.sum() < 8:
        return None
    pts = points[far]
    data = (to_lab(pts) * FIGURE_LAB_WEIGHTS).astype(np.float32)
    labels, _ = kmeans(data, 2)
    return np.median(pts[labels == int(np.bincount(labels, minlength=2).argmax())], axis=0)


def light_shift(old_refs: np.ndarray, new_refs: np.ndarray) -> float:
    """How far (ΔE, the worst tile class) the tiles' colours moved beyond a change of gain.

    The reader already divides out a lamp's gain and colour per channel; what it cannot
    absorb is light that does not scale with the print (daylight washing the board out,
    a sheen, a camera's changed tone curve). Zero for a pure change of gain:

    >>> old = np.array([[0.3, 0.5, 0.2], [0.9, 0.9, 0.9], [0.4, 0.4, 0.4]])
    >>> round(light_shift(old, old * [1.2, 1.0, 0.8]), 3)
    0.0
    >>> light_shift(old, old * 0.8 + 0.25) > 10
    True
    """
    gain = (old_refs * new_refs).sum(axis=0) / np.maximum((old_refs ** 2).sum(axis=0), 1e-6)
    return float(lab_distance(to_lab(np.clip(new_refs, 0, 1)), to_lab(np.clip(old_refs * gain, 0, 1))).max())


def relearn(frame: np.ndarray, calibration: Calibration, board: LabelBoard, min_shift: float = 0.0) -> Calibration:
    """The set's colours learnt again from ``frame``, which shows ``board``.

    ``min_shift`` (the automatic re-learn) refuses when the tiles' colours moved less
    than this beyond a change of gain (:func:`light_shift`): the reader's own light
    model covers such a change, and the board's disagreement has another cause.

    Raises :class:`RelearnError` when the frame cannot teach them (see the module
    docstring for the three checks); the calibration given is never changed.
    """
    from .reader import BoardReader

    if calibration.mirrored:
        frame = mirror_frame(frame)
    geometry = BoardLocator(cards=calibration.cards).locate(frame)
    if geometry is None or not getattr(geometry, "fresh", True):
        raise RelearnError("board_not_seen", "the board's marker cards are not seen")
    zones, inside = CellSampler().sample(frame, geometry.homography, tuple(ZONE_OFFSETS))
    if not inside.all():
        raise RelearnError("board_not_seen", "part of the board is outside the picture")
    med = median_zones({k: v for k, v in zones.items() if k != "probe"})
    names = ["snow" if t == "cross" else t for t in calibration.tiles]
    klass = np.array([TILE_CLASSES.index(n) for n in names])
    others = np.array([c for c in range(NUM_CELLS) if c != CENTRE])
    new_refs = np.array([np.median(med["tile"][others[klass[others] == k]], axis=0) for k in range(3)])
    refs_cell = new_refs[klass]
    local = gain_of(med["tile"], refs_cell)
    light = fit_gain_field(local, np.ones(NUM_CELLS, bool))
    shift = light_shift(old_refs := np.array([calibration.tile_colours[k] for k in TILE_CLASSES]), new_refs)
    if shift < min_shift:
        raise RelearnError("light_unchanged", f"the tiles' colours changed only as the reader's light model "
                           f"expects (ΔE {shift:.1f}): nothing to re-learn")
    # 1. Every tile looks like its class once the smooth light is divided out.
    flat = to_lab(np.clip(med["tile"] / light, 0, 1))
    nearest = lab_distance(flat[:, None, :], to_lab(new_refs)[None, :, :]).argmin(axis=1)
    wrong = [int(c) for c in others if nearest[c] != klass[c]]
    if wrong:
        raise RelearnError("board_covered", "these cells do not look like their tiles (a hand, an object?): "
                           + ", ".join(cell_name(c) for c in wrong[:6]))
    gains = relit_gain(local, light, med["tile"])

    # 2. Each piece seen alone, measured where the game says it is.
    labels = list(calibration.hunters)
    old_pieces = np.array([calibration.mammoth] + [calibration.hunters[k] for k in labels])
    tile_gain, tile_offset = _tile_map(old_refs, new_refs)
    predicted = np.clip(old_pieces * tile_gain + tile_offset, 0.0, 10.0)
    on_cell: dict[int, int] = {}
    for cell in board.hunters.values():
        on_cell[cell] = on_cell.get(cell, 0) + 1
    figures = calibration.pieces == "figures"
    measured: dict[int, np.ndarray] = {}
    probe = zones["probe"]
    m = board.mammoth
    if m is not None and m not in on_cell:
        if calibration.mammoth_kind == "figure":
            colour = _figure_colour(probe[m][_PROBE_RADIUS <= MAMMOTH_DISC], med["tile"][m])
        else:
            colour = med["core"][m] * 0.5 + med["trap"][m] * 0.5
        if colour is not None:
            measured[0] = colour / gains[m]
    rims = []
    for index, label in enumerate(labels, start=1):
        cell = board.hunters.get(label)
        if cell is None or on_cell[cell] > 1 or cell == m:
            continue
        # A figure on another's trap mixes two colours in its base disc; on his own
        # trap (matched with his own colour) plate and piece are one colour, unless the
        # setup's trap step showed printed traps of another shade.
        if figures and cell in board.traps and (board.traps[cell] != label or calibration.traps):
            continue
        if figures:
            colour = _figure_colour(probe[cell][_PROBE_RADIUS <= FIGURE_DISC], med["tile"][cell])
        else:
            colour = med["core"][cell]
            if cell not in board.traps:
                rims.append(med["rim"][cell] / gains[cell])
        if colour is not None:
            measured[index] = colour / gains[cell]
    # Each measured piece must be nearest its own colour's image under the tile map.
    pred_lab = to_lab(np.clip(predicted, 0, 1))
    for index, colour in measured.items():
        d = lab_distance(to_lab(np.clip(colour, 0, 1))[None, :], pred_lab)
        if int(d.argmin()) != index:
            who = "the mammoth" if index == 0 else f"colour {labels[index - 1]}"
            looks = "the mammoth" if d.argmin() == 0 else f"colour {labels[int(d.argmin()) - 1]}"
            raise RelearnError("colours_differ", f"{who} looks like {looks} now: the board does not show "
                               "the game's position, or more than the light changed")
    # Pieces not seen alone take the colour the tile map predicts, only if it predicts
    # the pieces seen alone well enough, a hunter among them.
    unseen = [i for i in range(len(old_pieces)) if i not in measured and (i == 0 and m is not None
              or i > 0 and labels[i - 1] in board.hunters)]
    if unseen:
        misses = [float(lab_distance(to_lab(np.clip(c, 0, 1)), pred_lab[i])) for i, c in measured.items()]
        if not any(i > 0 for i in measured) or max(misses) > PREDICTION_TOLERANCE:
            names_ = ", ".join("the mammoth" if i == 0 else labels[i - 1] for i in unseen)
            raise RelearnError("pieces_hidden", f"{names_} cannot be seen alone (stacked): set the pieces apart")
    pieces = predicted.copy()
    for index, colour in measured.items():
        pieces[index] = colour
    rim = np.median(np.array(rims), axis=0) if rims else np.clip(np.array(calibration.rim) * tile_gain + tile_offset,
                                                                   0.0, 10.0)
    fresh = replace(calibration,
                    tile_colours={k: tuple(float(v) for v in new_refs[i]) for i, k in enumerate(TILE_CLASSES)},
                    mammoth=tuple(float(v) for v in pieces[0]), rim=tuple(float(v) for v in np.clip(rim, 0, 10)),
                    hunters={k: tuple(float(v) for v in pieces[i + 1]) for i, k in enumerate(labels)})
    # 3. The new colours read the frame back as the game's board.
    seen = BoardReader(fresh, lock_tiles=True).read(frame if not calibration.mirrored else mirror_frame(frame), 0.0)
    check_readback(seen, board)
    return fresh


def check_readback(seen: Observation, board: LabelBoard) -> None:
    """``RelearnError`` unless ``seen`` shows ``board`` (hidden tokens only under others)."""
    from .tracker import BoardView

    if not seen.board_found:
        raise RelearnError("board_not_seen", "the board's marker cards are not seen")
    unreadable = set(seen.occluded_cells) - set(seen.glare_cells)
    if unreadable:
        raise RelearnError("board_covered", "still unreadable with the new colours: "
                           + ", ".join(cell_name(c) for c in sorted(unreadable)[:6]))
    hidden = frozenset(seen.occluded_cells)
    expected = board.view().masked(hidden)
    view = BoardView(seen.mammoth, frozenset(seen.hunters.items()), frozenset(seen.traps.items()))
    if view != expected and not expected.explains(view):
        cells = expected.changed_cells(view)
        raise RelearnError("board_differs", "the board does not show the game's position with the new colours "
                           f"(cells {', '.join(cell_name(c) for c in cells[:6])})")


@dataclass
class Relearning:
    """One re-learn: asked by the referee (``button``) or started by the watch (``auto``)."""
    by: str
    since: float
    state: str = "waiting"           # waiting, done, failed
    reason: str | None = None        # RelearnError code of the last failure
    message: str | None = None
    time: float | None = None        # when it ended

    def to_json(self) -> dict:
        return {"by": self.by, "state": self.state, "reason": self.reason, "message": self.message}


@dataclass
class LightWatch:
    """Follows the light frame by frame; asks for a re-learn when it is due.

    ``feed`` returns a new calibration when a re-learn succeeded on this frame (the
    caller swaps its reader and saves it), else ``None``.
    """
    required: int = 5
    auto: bool = True
    still: int = 0
    glare_cells: tuple = ()
    dark: bool = False
    unreadable_since: float | None = None
    last: Relearning | None = None
    relearnt: int = 0
    _thumb: np.ndarray | None = field(default=None, repr=False)
    _tried_at: float | None = None
    _now: float = 0.0

    def request(self, timestamp: float | None = None) -> None:
        """The referee asks for a re-learn: done on the next still board showing the game."""
        self.last = Relearning("button", self._now if timestamp is None else timestamp)

    def feed(self, timestamp: float, frame: np.ndarray, observation: Observation, tracker,
             calibration: Calibration, hidden_allowed: int = 2) -> Calibration | None:
        self._now = timestamp
        thumb = still_thumbnail(frame)
        moving = self._thumb is None or float(np.abs(thumb - self._thumb).mean()) >= STILL_LEVEL
        self.still = 0 if moving else self.still + 1
        if moving:
            self._tried_at = None
        self._thumb = thumb
        self.glare_cells = tuple(observation.glare_cells)
        self.dark = bool(observation.board_found and observation.light_level is not None
                         and observation.light_level < DARK_LEVEL)
        if observation.board_found and len(observation.occluded_cells) > hidden_allowed:
            if self.unreadable_since is None:
                self.unreadable_since = timestamp
        else:
            self.unreadable_since = None
        wanted = self.last is not None and self.last.state == "waiting"
        if wanted and timestamp - self.last.since > RELEARN_TIMEOUT_S:
            self._end("failed", timestamp, self.last.reason or "board_moving",
                      self.last.message or "the board did not stay still long enough")
            return None
        if self.still < self.required or tracker.phase not in ("placing", "playing", "over"):
            return None
        if wanted:
            # The referee's request: try on every run of ``required`` still frames.
            if self._tried_at is not None and self.still % self.required:
                return None
        elif not (self.auto and tracker.phase == "playing" and tracker.waiting_for() is None
                  and (self._tried_at is None or timestamp - self._tried_at >= RETRY_S)):
            return None
        board = expected_board(tracker)
        if not wanted and not _disagrees(observation, board, hidden_allowed):
            return None
        self._tried_at = timestamp
        try:
            fresh = relearn(frame, calibration, board, min_shift=0.0 if wanted else AUTO_SHIFT)
        except RelearnError as exc:
            # An automatic try that fails says nothing on the page: the board may simply
            # differ from the game (a move under way, an undo not yet put back).
            if wanted:
                self.last.reason, self.last.message = exc.code, exc.message
            return None
        except Exception:  # noqa: BLE001 - a degenerate frame must not cost the game
            log.exception("re-learning the light failed on this frame; the old colours are kept")
            return None
        if not wanted:
            self.last = Relearning("auto", timestamp)
        self._end("done", timestamp, None, None)
        self.relearnt += 1
        self.unreadable_since = None
        return fresh

    def _end(self, state, timestamp, reason, message) -> None:
        self.last.state, self.last.time, self.last.reason, self.last.message = state, timestamp, reason, message

    def status(self) -> dict:
        """The page's ``camera.light``: warnings (codes the page words) and the last re-learn."""
        from .reader import glare_direction

        warnings = []
        if self.glare_cells:
            warnings.append({"kind": "glare", "where": glare_direction(self.glare_cells),
                             "cells": [cell_name(c) for c in self.glare_cells]})
        if self.dark:
            warnings.append({"kind": "dark"})
        if self.unreadable_since is not None and self._now - self.unreadable_since >= UNREADABLE_AFTER_S:
            warnings.append({"kind": "unreadable", "seconds": int(self._now - self.unreadable_since)})
        return {"warnings": warnings, "relearn": self.last.to_json() if self.last else None,
                "relearnt": self.relearnt}


def _disagrees(observation: Observation, board: LabelBoard, hidden_allowed: int) -> bool:
    """True when the reading of a still board does not show the game's position."""
    from .tracker import BoardView

    if not observation.board_found:
        return False
    if set(observation.occluded_cells) - set(observation.glare_cells):
        # Cells the tracker may wait over (up to ``hidden_allowed``) are a sign too: the
        # light going bad shows first on a few cells, the next move then cannot be read.
        return True
    hidden = frozenset(observation.occluded_cells)
    expected = board.view().masked(hidden)
    view = BoardView(observation.mammoth, frozenset(observation.hunters.items()),
                     frozenset(observation.traps.items()))
    return view != expected and not expected.explains(view)


def expected_board(tracker) -> LabelBoard:
    """The table's position as the camera should see it, in the calibration's labels."""
    position = tracker.table.snapshot().position
    label = {player: tracker.label_of(player) for player in tracker.players}
    return LabelBoard(position.mammoth, {label[p]: cell for p, cell in position.hunters.items()},
                      {cell: label[o] for cell, o in position.traps.items()})

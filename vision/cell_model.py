"""A small learned per-cell classifier: what stands on a cell, told from the cell now
and the same cell on the empty board.

The tiles never move, so each cell's look on the empty board (the first setup frame) is
its own reference. The classifier is given a pair of crops, the cell now and that
reference, both divided by the reference's own median colour (in log), so the tile's
art cancels out and what is left is what changed: is there a hunter, a trap, the
mammoth? It does not say whose: owners stay with the colour models learnt at setup.

Crops are sampled straight from the frame through the board's homography (no warp of
the whole frame), like :class:`vision.geometry.CellSampler`. The network is an ONNX
file run by OpenCV's own ``cv2.dnn`` (no other runtime); it is trained by
``sim/cell_training.py`` (``python -m sim.cell_training --help``), which also documents
the data recipe. ``docs/vision.md`` (*A learned cell classifier*) reports what the first
model was worth on a generator it never saw, and what the model trained on both is worth.

>>> grid = crop_offsets()
>>> grid.shape
(1024, 2)
>>> [round(float(v), 3) for v in grid[0]]
[-0.969, -0.969]
"""
from __future__ import annotations

import base64
from dataclasses import replace
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from engine.hexgrid import CENTRE, NUM_CELLS

from .geometry import CELL_CENTRES, project

#: Crop side in pixels, and its half-width in tile circumradii (the whole cell).
CROP = 32
EXTENT = 1.0
#: The fine models' crops (:class:`FineModel`): the same whole cell, twice as fine, so a
#: pawn's head a fifth of a tile wide spans a dozen pixels, not six.
FINE_CROP = 64
#: What the classifier answers for each cell, in this order (independent yes/no):
#: a hunter on it, a trap, the mammoth, and any piece at all.
LABELS = ("hunter", "trap", "mammoth", "piece")
#: Input planes: the cell now (3), its empty reference (3), and 1 on the cross cell,
#: whose reference holds the mammoth set on it at setup.
PLANES = 7


def crop_offsets(size: int = CROP, extent: float = EXTENT) -> np.ndarray:
    """Board-unit offsets of a ``size``×``size`` crop's pixel centres, row by row."""
    step = 2 * extent / size
    g = -extent + step * (np.arange(size) + 0.5)
    xx, yy = np.meshgrid(g, g)
    return np.stack([xx.ravel(), yy.ravel()], axis=1)


_OFFSETS = crop_offsets()
#: Every cell's crop points on the board, cell after cell (board units).
_BOARD_POINTS = (CELL_CENTRES[:, None, :] + _OFFSETS[None]).reshape(-1, 2)


def cell_crops(frame: np.ndarray, homography: np.ndarray, extent: float = EXTENT, size: int = CROP,
               cells=None) -> np.ndarray:
    """Every cell's crop (or only ``cells``'), ``(n, size, size, 3)`` uint8 BGR, sampled
    through ``homography`` (board units to pixels); points outside the frame repeat its border."""
    centres = CELL_CENTRES if cells is None else CELL_CENTRES[np.asarray(list(cells), int)]
    if cells is None and (extent, size) == (EXTENT, CROP):
        points = _BOARD_POINTS
    else:
        points = (centres[:, None, :] + crop_offsets(size, extent)[None]).reshape(-1, 2)
    # One remap for the whole board, its (x, y) map as one two-channel image.
    maps = project(homography, points).astype(np.float32).reshape(len(centres) * size, size, 2)
    values = cv2.remap(frame, maps, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return values.reshape(len(centres), size, size, 3)


#: log(v + 4) of every 8-bit value: the crops' log, looked up (a board's in well under 1 ms).
_LOG = np.log(np.arange(256, dtype=np.float32) + 4.0)


def log_crops(crops: np.ndarray) -> np.ndarray:
    """``_LOG`` of every value of ``crops`` (n, s, s, 3) uint8, float32: OpenCV's table
    look-up, several times numpy's indexing for the same values.

    >>> crops = np.arange(48, dtype=np.uint8).reshape(1, 4, 4, 3)
    >>> bool((log_crops(crops) == _LOG[crops]).all())
    True
    """
    n, h, w, _ = crops.shape
    return cv2.LUT(np.ascontiguousarray(crops).reshape(n * h, w, 3), _LOG).reshape(n, h, w, 3)


def reference_planes(reference: np.ndarray, cross: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The empty board's part of the input, computed once a table: ``(planes (n, 4, s, s),
    level (n, 1, 1, 3))``, the reference in log less its median per channel, and the cross flag."""
    ref = _LOG[reference]
    level = np.median(ref.reshape(ref.shape[0], -1, 3), axis=1)[:, None, None, :]
    n, h, w, _ = ref.shape
    flag = np.zeros((n, h, w, 1), np.float32)
    if cross is not None:
        flag[np.asarray(cross, bool)] = 1.0
    return np.concatenate([ref - level, flag], axis=3).transpose(0, 3, 1, 2), level


def pair_input(now: np.ndarray, reference: np.ndarray, cross: np.ndarray | None = None,
               planes: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The network's input ``(n, 7, size, size)`` float32 from crops ``(n, size, size, 3)``:
    both crops in log, less the log of the reference's median per channel (the tile's
    own colour and the setup's light cancel), and the cross flag plane. ``planes`` is
    :func:`reference_planes` of ``reference`` when already computed.

    >>> ref = np.full((2, 4, 4, 3), 100, np.uint8)
    >>> x = pair_input(ref, ref, np.array([False, True]))
    >>> x.shape, float(abs(x[:, :6]).max()), float(x[1, 6].min())
    ((2, 7, 4, 4), 0.0, 1.0)
    """
    ref_planes, level = planes if planes is not None else reference_planes(reference, cross)
    now_planes = (log_crops(now) - level).transpose(0, 3, 1, 2)
    return np.concatenate([now_planes, ref_planes[:, :3], ref_planes[:, 3:]], axis=1)


class BoardInput:
    """:func:`pair_input` for one table's boards: the empty board's planes are laid in
    once, and each frame's crops written beside them in the same buffer (a frame's
    input then costs its own planes only, not the megabyte of the whole input).

    >>> ref = np.full((2, 4, 4, 3), 100, np.uint8); now = ref.copy(); now[1, 0, 0] = 30
    >>> board_input = BoardInput(reference_planes(ref, np.array([False, True])))
    >>> bool((board_input(now) == pair_input(now, ref, np.array([False, True]))).all())
    True
    """

    def __init__(self, planes: tuple[np.ndarray, np.ndarray]):
        ref_planes, self.level = planes
        n, k, h, w = ref_planes.shape
        self.buffer = np.empty((n, 3 + k, h, w), np.float32)
        self.buffer[:, 3:] = ref_planes
        self._level_planes = self.level.transpose(0, 3, 1, 2)

    def __call__(self, now: np.ndarray) -> np.ndarray:
        """The input for crops ``now`` (n, s, s, 3): the buffer, overwritten at each call."""
        np.subtract(log_crops(now).transpose(0, 3, 1, 2), self._level_planes, out=self.buffer[:, :3])
        return self.buffer


def board_cross() -> np.ndarray:
    """The cross flag of a board's 37 cells (the centre)."""
    return np.arange(NUM_CELLS) == CENTRE


#: The shipped model (absent when none is shipped: see docs/vision.md).
MODEL_PATH = Path(__file__).with_name("models") / "cell_pair.onnx"
#: The fine models (:class:`FineModel`), by the question each answers.
FINE_MODEL_PATHS = {"hunter_on_trap": MODEL_PATH.with_name("hunter_on_trap.onnx"),
                    "trap_under_hunter": MODEL_PATH.with_name("trap_under_hunter.onnx")}
#: The owner model (:class:`OwnerModel`).
OWNER_MODEL_PATH = MODEL_PATH.with_name("owner.onnx")


def read_net(path: Path | str):
    """The ONNX network at ``path`` for ``cv2.dnn``: on OpenCV 5, which has two engines,
    its classic one, a third quicker on these small convolutional networks than the new
    one it picks by default (docs/vision.md, session 29); OpenCV 4 has only that one."""
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    return cv2.dnn.readNetFromONNX(str(path)) if classic is None else cv2.dnn.readNetFromONNX(str(path), classic)


class CellClassifier:
    """The ONNX cell classifier through ``cv2.dnn``: probabilities ``(n, 4)`` (:data:`LABELS`)."""

    def __init__(self, path: Path | str = MODEL_PATH):
        self.net = read_net(path)

    def outputs(self, inputs: np.ndarray) -> np.ndarray:
        """The network's raw outputs ``(n, k)`` for inputs ``(n, PLANES, s, s)``."""
        self.net.setInput(np.ascontiguousarray(inputs, dtype=np.float32))
        return np.asarray(self.net.forward(), dtype=np.float64).reshape(len(inputs), -1)

    def probabilities(self, inputs: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.outputs(inputs)))

    def board(self, frame: np.ndarray, homography: np.ndarray, reference: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """Each cell's probabilities ``(37, 4)`` in ``frame``; ``reference`` is
        :func:`reference_planes` of the empty board's crops (with :func:`board_cross`)."""
        return self.probabilities(pair_input(cell_crops(frame, homography), None, planes=reference))


def encode_crops(crops: np.ndarray) -> str:
    """The empty board's crops as text for the calibration file (a PNG, base64).

    >>> crops = np.arange(37 * 32 * 32 * 3, dtype=np.uint32).astype(np.uint8).reshape(37, 32, 32, 3)
    >>> bool((decode_crops(encode_crops(crops)) == crops).all())
    True
    """
    ok, png = cv2.imencode(".png", np.ascontiguousarray(crops).reshape(-1, crops.shape[2], 3))
    if not ok:
        raise ValueError("cannot encode the empty board's cells")
    return base64.b64encode(png.tobytes()).decode("ascii")


def decode_crops(text: str, size: int = CROP, count: int = NUM_CELLS) -> np.ndarray:
    """:func:`encode_crops` back: ``(count, size, size, 3)`` uint8; ``ValueError`` when it is not that."""
    image = cv2.imdecode(np.frombuffer(base64.b64decode(text, validate=True), np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.shape != (count * size, size, 3):
        raise ValueError(f"expected {count} cells of {size}×{size} pixels")
    return image.reshape(count, size, size, 3)


class FineModel(CellClassifier):
    """One yes/no question about a cell, from the cell now and the same cell on the
    empty board, cropped :data:`FINE_CROP` pixels wide (:data:`FINE_MODEL_PATHS`):

    * ``hunter_on_trap``: on a cell where a trap lies, does a hunter stand on it? A
      hunter on a trap of his own colour passes for the trap alone to the colours;
    * ``trap_under_hunter``: on a grass cell where a hunter stands, does a trap lie
      under him? Only a crescent of it may show beyond him.

    The board classifier's coarse crops show a small piece in a few pixels. Each fine
    model is trained on the cells its question is about only (``sim/fine_training.py``)
    and asked about a few cells a frame, so its finer crops cost little.
    """

    def odds(self, now: np.ndarray, reference: np.ndarray | None, planes=None) -> np.ndarray:
        """The odds ``(n,)`` for crops ``now`` and ``reference`` ``(n, FINE_CROP, FINE_CROP, 3)``
        (or the reference's :func:`reference_planes`, ``planes``, computed once a table)."""
        if len(now) == 0:
            return np.zeros(0)
        return self.probabilities(pair_input(now, reference, np.zeros(len(now), bool), planes))[:, 0]


#: How sharply the owner model's likeness (a cosine, -1 to 1) tells one player from
#: another: the temperature it was trained with (``sim/owner_training.py``).
OWNER_SHARPNESS = 10.0
#: Every how many pixels of the board's crops :func:`light_change` looks at (a median
#: over a third of them is as steady, and three times as quick).
LIGHT_STRIDE = 3


def board_level(empty_cells: np.ndarray) -> np.ndarray:
    """The empty board's mean colour in log ``(3,)``: the owner model's zero. One level
    for the whole table, not each cell's own, so a piece's colour is kept, not its
    ratio to the tile under it: a white hunter learnt on snow and his trap on grass then
    look alike, and a grey trap and a white one on snow do not.

    >>> [round(float(v), 3) for v in board_level(np.full((2, 4, 4, 3), 96, np.uint8))]
    [4.605, 4.605, 4.605]
    """
    mean = np.asarray(empty_cells, np.float64).reshape(-1, 3).mean(axis=0)
    return np.log(mean + 4.0).astype(np.float32)


def light_change(now_cells: np.ndarray, empty_cells: np.ndarray) -> np.ndarray:
    """How much brighter each channel is now than on the empty board ``(3,)``, a ratio:
    the median over every cell's crop (pieces cover few of their pixels), so a lamp
    switched on between setup and now does not make a grey piece a white one.

    >>> empty = np.full((37, 4, 4, 3), 100, np.uint8)
    >>> [round(float(v), 2) for v in light_change(empty // 2 - 2, empty)]
    [0.5, 0.5, 0.5]
    """
    change = log_crops(now_cells) - _LOG[empty_cells]
    return np.exp(np.median(change.reshape(-1, 3)[::LIGHT_STRIDE], axis=0))


def owner_input(now: np.ndarray, reference: np.ndarray, level: np.ndarray) -> np.ndarray:
    """The owner model's input ``(n, 7, size, size)``: as :func:`pair_input`'s planes,
    but both crops in log less the board's ``level`` (:func:`board_level`; ``(3,)``, or
    ``(n, 3)`` for crops of several tables), and no cross flag.

    >>> crops = np.full((2, 4, 4, 3), 96, np.uint8)
    >>> x = owner_input(crops, crops, board_level(crops))
    >>> x.shape, float(abs(x).max())
    ((2, 7, 4, 4), 0.0)
    """
    level = np.asarray(level, np.float32).reshape(-1, 1, 1, 3)
    now_planes = log_crops(now) - level
    ref_planes = log_crops(reference) - level
    flag = np.zeros(now_planes.shape[:3] + (1,), np.float32)
    return np.concatenate([now_planes, ref_planes, flag], axis=3).transpose(0, 3, 1, 2)


class OwnerModel(CellClassifier):
    """Whose piece stands on a cell: the pair (the cell now, the cell on the empty board)
    as a point on a sphere (an embedding), near the same player's hunter as setup saw him
    put down (his setup crop beside the empty board's crop of that cell) and far from
    the others'. Colours, size and shape all count, and each set's pieces are their own
    reference: nothing is assumed of what a player's colour looks like.

    Trained by ``sim/owner_training.py`` on tables of both generators, each pass under
    colours no generator drew (one random mix a table, players' pieces and tiles alike).
    """

    def embeddings(self, now: np.ndarray, reference: np.ndarray, level: np.ndarray) -> np.ndarray:
        """Unit vectors ``(n, d)`` for crop pairs ``(n, CROP, CROP, 3)`` of a board whose
        level is ``level`` (:func:`owner_input`)."""
        out = self.outputs(owner_input(now, reference, level))
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)

    def odds(self, now: np.ndarray, reference: np.ndarray, players: np.ndarray, level: np.ndarray) -> np.ndarray:
        """Each pair's chance of being each player's ``(n, seats)``; ``players`` are the
        seats' own :meth:`embeddings`, from setup. Rows sum to one.

        Players are told apart by likeness: the nearest player's piece gets most, in
        proportion to exp(OWNER_SHARPNESS × likeness)."""
        if len(now) == 0:
            return np.zeros((0, len(players)))
        return owner_odds_of(self.embeddings(now, reference, level), players)


def owner_odds_of(embeddings: np.ndarray, players: np.ndarray) -> np.ndarray:
    """Each embedded piece's chance of being each player's ``(n, seats)``, the nearest
    player's most, in proportion to exp(OWNER_SHARPNESS × likeness). Rows sum to one.

    >>> players = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> owner_odds_of(np.array([[1.0, 0.0]]), players).round(4).tolist()
    [[1.0, 0.0]]
    """
    embeddings = np.asarray(embeddings, float).reshape(-1, players.shape[1])
    logits = OWNER_SHARPNESS * embeddings @ players.T
    odds = np.exp(logits - logits.max(axis=1, keepdims=True))
    return odds / odds.sum(axis=1, keepdims=True)


#: A cell is asked about when the classifier is this sure of the opposite of the reading.
SURE = 0.9
#: ... or this sure of a trap on a grass cell the reader reads none on (most often a
#: trap under a hunter: a crescent of it shows beyond him). Measured on the development
#: tables (docs/vision.md): with the first model, at 0.98 13 sim.flatart frames read
#: wrong without a word were asked about, for 7 read right (at 0.9, 17 for 16); the
#: model trained on both generators is less often that sure (a rendered kit trap at
#: 0.977), and at 0.95 asks about 2 more wrong sim.tabletop frames, no right one.
SURE_TRAP = 0.95


def _rows(planes: tuple[np.ndarray, np.ndarray], cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`reference_planes` of some cells, from those of the whole board."""
    return planes[0][cells], planes[1][cells]


class SecondOpinion:
    """The classifier's word on each cell beside the reader's: where the reader puts no
    piece and the classifier is sure one stands there (or the other way round), the
    cell is unsure, so the tracker waits and the referee is asked rather than a wrong
    board committed. Measured in docs/vision.md, the first model on a generator it never saw."""

    def __init__(self, classifier: CellClassifier, empty_cells: np.ndarray, fine: dict | None = None,
                 fine_cells: np.ndarray | None = None, owner: OwnerModel | None = None,
                 setup: tuple | None = None):
        self.classifier = classifier
        self.empty_cells = empty_cells
        self.reference = reference_planes(empty_cells, board_cross())
        self.board_input = BoardInput(self.reference)
        #: The fine models by question (:data:`FINE_MODEL_PATHS`), with the empty board's
        #: fine crops they need as their planes, computed once a table (each frame asks
        #: them about a few cells, several times); none without those crops.
        self.fine = {} if fine_cells is None else {q: m for q, m in (fine or {}).items() if m is not None}
        self.fine_planes = None if fine_cells is None else reference_planes(fine_cells)
        #: The owner model, and each seat's piece as it embeds him at setup (``setup``:
        #: the calibration's setup crops and cells); None without either.
        self.owner, self.players, self.level = None, None, None
        if owner is not None and setup is not None and setup[0] is not None and len(setup[1]):
            self.owner = owner
            self.level = board_level(empty_cells)
            self.players = owner.embeddings(setup[0], empty_cells[list(setup[1])], self.level)

    @classmethod
    def for_calibration(cls, calibration) -> "SecondOpinion | None":
        """The second opinion for a set whose empty board was seen, when the model is shipped."""
        empty = getattr(calibration, "empty_cells", None)
        if empty is None or _shipped_classifier() is None:
            return None
        fine = {question: _shipped(path, FineModel) for question, path in FINE_MODEL_PATHS.items()}
        setup = (getattr(calibration, "setup_hunters", None), getattr(calibration, "setup_cells", ()))
        return cls(_shipped_classifier(), empty, fine, getattr(calibration, "empty_cells_fine", None),
                   _shipped(OWNER_MODEL_PATH, OwnerModel), setup)

    def owner_embeddings(self, frame: np.ndarray, homography: np.ndarray, cells,
                         light: np.ndarray | None = None, crops: np.ndarray | None = None) -> np.ndarray | None:
        """What stands on each of ``cells`` as the owner model embeds it ``(n, d)`` (None:
        no owner model shipped, or setup's crops not kept: a calibration saved before).
        ``light``: :func:`light_change` of ``frame``, when already measured; ``crops``: the
        board's :func:`cell_crops` of ``frame``, when already taken."""
        if self.owner is None:
            return None
        if crops is None:
            crops = cell_crops(frame, homography)
        if light is None:
            light = light_change(crops, self.empty_cells)
        cells = np.asarray(list(cells), int)
        now = crops[cells].astype(np.float32) / light
        return self.owner.embeddings(np.clip(now, 0, 255).astype(np.uint8), self.empty_cells[cells], self.level)

    def owner_odds(self, frame: np.ndarray, homography: np.ndarray, cells, light: np.ndarray | None = None
                   ) -> np.ndarray | None:
        """Each of ``cells``' chance of holding each seat's piece ``(n, seats)`` (None as
        :meth:`owner_embeddings`)."""
        embeddings = self.owner_embeddings(frame, homography, cells, light)
        return None if embeddings is None else owner_odds_of(embeddings, self.players)

    def owner_answers(self, frame: np.ndarray, homography: np.ndarray,
                      crops: np.ndarray | None = None) -> "OwnerAnswers | None":
        """The owner model's word on the cells of ``frame`` asked about, each cell
        embedded once (and the frame's light measured once, when first asked; ``crops``:
        the board's :func:`cell_crops` of ``frame``, when already taken)."""
        if self.owner is None:
            return None
        seen = {}

        def embed(cells):
            if not seen:
                seen["crops"] = cell_crops(frame, homography) if crops is None else crops
                seen["light"] = light_change(seen["crops"], self.empty_cells)
            return self.owner_embeddings(frame, homography, cells, seen["light"], seen["crops"])
        return OwnerAnswers(FineAnswers(embed), self.players)

    def fine_odds(self, question: str, frame: np.ndarray, homography: np.ndarray, cells) -> np.ndarray | None:
        """The fine model's odds for ``question`` on ``cells`` of ``frame`` (None: no such
        model shipped, or no fine crops of the empty board: a calibration saved before
        they were kept)."""
        if question not in self.fine:
            return None
        cells = np.asarray(list(cells), int)
        return self.fine[question].odds(cell_crops(frame, homography, size=FINE_CROP, cells=cells), None,
                                        _rows(self.fine_planes, cells))

    def fine_answers(self, question: str, frame: np.ndarray, homography: np.ndarray) -> "FineAnswers":
        """``question``'s odds on the cells of ``frame`` asked about, each computed once."""
        return FineAnswers(partial(self.fine_odds, question, frame, homography))

    def board(self, frame: np.ndarray, homography: np.ndarray, crops: np.ndarray | None = None) -> np.ndarray:
        """The classifier's probabilities ``(37, 4)`` (:data:`LABELS`) on ``frame``: the
        reader takes its trap odds too (:data:`vision.changes.NO_TRAP_ODDS`). ``crops``:
        the board's :func:`cell_crops` of ``frame``, when already taken."""
        crops = cell_crops(frame, homography) if crops is None else crops
        return self.classifier.probabilities(self.board_input(crops))

    def disagreements(self, frame: np.ndarray, homography: np.ndarray, observation,
                      probabilities: np.ndarray | None = None) -> tuple[int, ...]:
        """Cells where the classifier is sure of the opposite of ``observation``'s pieces
        (``probabilities``: :meth:`board` of ``frame``, when already computed)."""
        if probabilities is None:
            probabilities = self.board(frame, homography)
        piece = probabilities[:, LABELS.index("piece")]
        read = np.zeros(NUM_CELLS, bool)
        read[list(observation.hunters.values()) + list(observation.traps)] = True
        if observation.mammoth is not None:
            read[observation.mammoth] = True
        hidden = np.zeros(NUM_CELLS, bool)
        hidden[list(observation.occluded_cells)] = True
        sure_opposite = np.where(read, piece <= 1 - SURE, piece >= SURE) & ~hidden
        if observation.tiles is not None:
            trap_read = np.zeros(NUM_CELLS, bool)
            trap_read[list(observation.traps)] = True
            grass = np.array([name == "grass" for name in observation.tiles])
            sure_opposite |= grass & ~trap_read & (probabilities[:, LABELS.index("trap")] >= SURE_TRAP) & ~hidden
        return tuple(int(c) for c in np.flatnonzero(sure_opposite))

    def check(self, frame: np.ndarray, homography: np.ndarray, observation, probabilities: np.ndarray | None = None):
        """``observation`` with the cells the classifier disputes added to its unsure cells."""
        disputed = self.disagreements(frame, homography, observation, probabilities)
        if not disputed:
            return observation
        return replace(observation, unsure_cells=tuple(sorted(set(observation.unsure_cells) | set(disputed))))


class FineAnswers:
    """One frame's fine odds (cells -> odds), each cell's computed once: the reader reads
    a frame again when the cells a hand covers change, and its rules ask about the
    same cells.

    >>> asked = []
    >>> answers = FineAnswers(lambda cells: asked.append(list(cells)) or np.array(cells) / 10)
    >>> answers([3, 4]).tolist(), answers([4, 5, 5]).tolist(), asked
    ([0.3, 0.4], [0.4, 0.5, 0.5], [[3, 4], [5]])
    """

    def __init__(self, odds):
        self.odds, self.known = odds, {}

    def __call__(self, cells) -> np.ndarray:
        cells = [int(c) for c in cells]
        new = [c for c in dict.fromkeys(cells) if c not in self.known]
        if new:
            self.known.update(zip(new, np.asarray(self.odds(new), float)))
        return np.array([self.known[c] for c in cells], float)


class OwnerAnswers:
    """One frame's owner odds (cells -> each seat's chance ``(n, seats)``, as
    :meth:`SecondOpinion.owner_odds`) and how alike the pieces of any cells are
    (:meth:`likeness`), each cell embedded once (``embeddings``: a :class:`FineAnswers`
    of the cells' embeddings).

    >>> answers = OwnerAnswers(FineAnswers(lambda cells: np.array([[1.0, 0.0]] * len(cells))), np.eye(2))
    >>> answers([5]).round(3).tolist(), answers.likeness([5, 6]).tolist()
    ([[1.0, 0.0]], [[1.0, 1.0], [1.0, 1.0]])
    """

    def __init__(self, embeddings: FineAnswers, players: np.ndarray):
        self.embeddings, self.players = embeddings, players

    def __call__(self, cells) -> np.ndarray:
        return owner_odds_of(self.embeddings(cells), self.players)

    def likeness(self, cells) -> np.ndarray:
        """The cosine of each two of ``cells``' embeddings ``(n, n)``: pieces of one
        player's set look alike (his traps, one print), whatever his hunter looks like."""
        cells = list(cells)
        embedded = self.embeddings(cells).reshape(len(cells), -1)
        return embedded @ embedded.T


_SHIPPED: dict = {}


def _shipped(path: Path, model_class):
    """A shipped model, loaded once a process (None when the package has none)."""
    if path not in _SHIPPED:
        _SHIPPED[path] = model_class(path) if path.exists() else None
    return _SHIPPED[path]


def _shipped_classifier() -> CellClassifier | None:
    """The shipped cell classifier (None when the package has none)."""
    return _shipped(MODEL_PATH, CellClassifier)

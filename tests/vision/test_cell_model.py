"""The learned cell classifier (vision/cell_model.py): the shipped ONNX model through
cv2.dnn, its crops, and its second opinion on the reader's cells.

Scenes come from sim.render on a seed it was not trained on (training used 4,000,000 to
4,000,149, see sim/cell_training.py)."""
import json
from dataclasses import replace

import numpy as np
import pytest

from engine.hexgrid import CENTRE, NUM_CELLS
from sim.render import Kit, Scene, random_layout, render_frame
from vision.calibration import Calibration
from vision.cell_model import (CROP, LABELS, MODEL_PATH, BoardInput, CellClassifier, SecondOpinion, board_cross,
                               cell_crops, reference_planes)
from vision.geometry import CELL_CENTRES
from vision.observation import Observation

SEED = 4_900_000


@pytest.fixture(scope="module")
def rendered():
    """An empty board, then a hunter on one grass cell and a trap on another."""
    rng = np.random.default_rng(SEED)
    kit = Kit.random(rng)
    tiles = random_layout(rng)
    grass = [c for c in range(NUM_CELLS) if tiles[c] == "grass"]
    hunter_cell, trap_cell = grass[0], grass[5]
    empty, truth = render_frame(Scene(tiles, CENTRE, {}, {}), kit.palette, kit.nudged(rng), rng)
    scene = Scene(tiles, CENTRE, {"c0": hunter_cell}, {trap_cell: "c1"})
    frame, frame_truth = render_frame(scene, kit.palette, kit.nudged(rng), rng)
    return {"empty": cell_crops(empty, truth["homography"]), "frame": frame,
            "homography": frame_truth["homography"], "hunter": hunter_cell, "trap": trap_cell,
            "tiles": tuple("cross" if c == CENTRE else tiles[c] for c in range(NUM_CELLS))}


def test_the_shipped_model_is_small_and_loads_through_opencv():
    """The package ships the model (≤ 10 MB) and cv2.dnn runs it on a board's 37 pairs."""
    assert MODEL_PATH.exists() and MODEL_PATH.stat().st_size <= 10_000_000
    inputs = np.zeros((NUM_CELLS, 7, CROP, CROP), np.float32)
    assert CellClassifier().probabilities(inputs).shape == (NUM_CELLS, len(LABELS))


def test_a_rendered_board_pair_is_answered_right(rendered):
    """Against the empty board's cells, the hunter's cell holds a hunter, the trap's a
    trap, the cross the mammoth, and the other cells nothing."""
    probs = CellClassifier().board(rendered["frame"], rendered["homography"],
                                   reference_planes(rendered["empty"], board_cross()))
    hunter, trap, mammoth, piece = (probs[:, k] for k in range(4))
    assert hunter[rendered["hunter"]] > 0.5 and trap[rendered["trap"]] > 0.5 and mammoth[CENTRE] > 0.5
    others = np.ones(NUM_CELLS, bool)
    others[[rendered["hunter"], rendered["trap"], CENTRE]] = False
    assert (piece[others] < 0.5).all()


def test_the_engine_chosen_answers_as_opencvs_default_one(rendered):
    """Where OpenCV offers two engines (5.x), the one the reader picks for speed gives
    the default one's probabilities on a rendered board, to well under a rounding."""
    import cv2

    inputs = BoardInput(reference_planes(rendered["empty"], board_cross()))(
        cell_crops(rendered["frame"], rendered["homography"]))
    chosen = CellClassifier()
    default = CellClassifier()
    default.net = cv2.dnn.readNetFromONNX(str(MODEL_PATH))
    assert np.abs(chosen.probabilities(inputs) - default.probabilities(inputs)).max() < 1e-4


def test_crops_are_centred_on_their_cells():
    """Through a plain scaling homography, each crop's middle is its cell's centre."""
    scale, size = 40.0, 700
    homography = np.array([[scale, 0, size / 2], [0, scale, size / 2], [0, 0, 1]])
    xs, ys = np.meshgrid(np.arange(size), np.arange(size))
    frame = np.stack([xs % 256, ys % 256, np.zeros_like(xs)], axis=2).astype(np.uint8)
    crops = cell_crops(frame, homography).astype(float)
    middle = crops[:, CROP // 2 - 1:CROP // 2 + 1, CROP // 2 - 1:CROP // 2 + 1, :2].mean(axis=(1, 2))
    expected = (CELL_CENTRES * scale + size / 2) % 256
    assert np.abs(middle - expected).max() < 1.0


def _reading(hunters=None, traps=None, mammoth=CENTRE):
    return Observation(0.0, True, False, None, None, mammoth, hunters or {}, traps or {}, (1.0,) * NUM_CELLS)


def test_a_piece_the_reader_misses_is_asked_about(rendered):
    """A reading that misses the hunter and the trap the classifier is sure of makes
    those cells unsure (the tracker waits, the referee is asked); the right reading
    is left as it was."""
    opinion = SecondOpinion(CellClassifier(), rendered["empty"])
    frame, homography = rendered["frame"], rendered["homography"]
    missed = opinion.check(frame, homography, _reading())
    assert {rendered["hunter"], rendered["trap"]} <= set(missed.unsure_cells)
    right = _reading({"c0": rendered["hunter"]}, {rendered["trap"]: "c1"})
    assert opinion.check(frame, homography, right) == right


def test_a_trap_the_reader_misses_under_a_piece_it_reads_is_asked_about(rendered):
    """A reading that puts a hunter on the trap's grass cell but no trap there (a trap
    under a hunter, missed) leaves that cell unsure when the classifier is sure of the
    trap; the same reading with the trap read is left as it was, and without the tiles
    (which cells are grass) the trap's word is not taken."""
    opinion = SecondOpinion(CellClassifier(), rendered["empty"])
    frame, homography, trap = rendered["frame"], rendered["homography"], rendered["trap"]
    tiled = replace(_reading({"c0": rendered["hunter"], "c1": trap}), tiles=rendered["tiles"])
    assert trap in opinion.check(frame, homography, tiled).unsure_cells
    right = replace(tiled, traps={trap: "c1"})
    assert opinion.check(frame, homography, right) == right
    untiled = _reading({"c0": rendered["hunter"], "c1": trap})
    assert trap not in opinion.check(frame, homography, untiled).unsure_cells


def test_the_empty_board_cells_survive_the_calibration_file(rendered, tmp_path):
    """The calibration keeps the empty board's cells in its optional ``empty_cells`` key;
    a file without it loads as before, with no second opinion."""
    calibration = Calibration(("grass",) * NUM_CELLS, {"grass": (0.3, 0.5, 0.2), "snow": (0.9, 0.9, 0.9),
                                                     "rock": (0.4, 0.4, 0.4)},
                              (0.5, 0.3, 0.2), (0.05, 0.05, 0.05), {"c0": (0.9, 0.1, 0.1)},
                              empty_cells=rendered["empty"])
    path = tmp_path / "calibration.json"
    calibration.save(path)
    back = Calibration.from_json(json.loads(path.read_text()))
    assert (back.empty_cells == rendered["empty"]).all()
    assert SecondOpinion.for_calibration(back) is not None
    bare = Calibration.from_json({k: v for k, v in json.loads(path.read_text()).items() if k != "empty_cells"})
    assert bare.empty_cells is None and SecondOpinion.for_calibration(bare) is None

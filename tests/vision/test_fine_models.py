"""The fine cell models (vision.cell_model.FineModel) and the rules that ask them
(vision.changes): which of a player's traps his hunter stands on, and whether a trap
lies under a hunter.

Tables come from sim.flatart and sim.tabletop on development seeds the models were not
trained on (training used 3,100,000+ and 5,100,000+, see sim/fine_training.py)."""
import json

import numpy as np
import pytest

from engine.hexgrid import NUM_CELLS
from sim.fine_training import QUESTIONS, auc, extract_table
from vision.calibration import Calibration, CalibrationError
from vision.cell_model import FINE_CROP, FINE_MODEL_PATHS, FineModel, SecondOpinion
from vision.changes import (HUNTER_ON_TRAP_ODDS, NO_TRAP_UNDER_HUNTER_ODDS, TRAP_UNDER_HUNTER_ODDS,
                            onto_likelier_own_traps, traps_under_hunters, unplaced_onto_own_traps)

from .rendered_sets import write_fresh_tables


@pytest.mark.parametrize("question", sorted(FINE_MODEL_PATHS))
def test_the_shipped_models_are_small_and_load_through_opencv(question):
    """The package ships each (well under 10 MB with the cell classifier) and cv2.dnn runs it."""
    path = FINE_MODEL_PATHS[question]
    assert path.exists() and path.stat().st_size <= 1_000_000
    crops = np.full((3, FINE_CROP, FINE_CROP, 3), 120, np.uint8)
    odds = FineModel(path).odds(crops, crops)
    assert odds.shape == (3,) and ((odds >= 0) & (odds <= 1)).all()
    assert FineModel(path).odds(crops[:0], crops[:0]).shape == (0,)


@pytest.fixture(scope="module")
def fresh_tables(tmp_path_factory):
    """A few fresh tables of both generators, eight frames each."""
    return write_fresh_tables(tmp_path_factory.mktemp("tables"), range(3_000_020, 3_000_024), range(5_000_020, 5_000_024))


def _asked(tables, question):
    parts = [p for p in (extract_table(folder, QUESTIONS[question]) for folder in sorted(tables.iterdir()))
             if p is not None]
    return {k: np.concatenate([p[k] for p in parts]) for k in ("now", "ref", "y", "own")}


@pytest.mark.slow
@pytest.mark.parametrize("question", ["hunter-on-trap", "trap-under-hunter"])
def test_each_question_is_answered_on_tables_the_model_never_saw(fresh_tables, question):
    """On cells of both generators the models were not trained on, a cell answered yes
    (a hunter on the trap; a trap under the hunter) scores above one answered no far
    more often than the board classifier's coarse crops let it (AUC 0.79-0.90 there,
    sim/fine_training.py); so does a hunter's own trap."""
    cells = _asked(fresh_tables, question)
    odds = FineModel(FINE_MODEL_PATHS[question.replace("-", "_")]).odds(cells["now"], cells["ref"])
    y, own = cells["y"].astype(bool), cells["own"].astype(bool)
    assert y.sum() >= 10 and (~y).sum() >= 10
    assert auc(y, odds) >= 0.9
    mine = own | ~y
    assert auc(own[mine], odds[mine]) >= 0.9


def _calibration(**crops):
    return Calibration(("grass",) * NUM_CELLS, {"grass": (0.3, 0.5, 0.2), "snow": (0.9, 0.9, 0.9),
                                               "rock": (0.4, 0.4, 0.4)},
                       (0.5, 0.3, 0.2), (0.05, 0.05, 0.05), {"c0": (0.9, 0.1, 0.1)}, **crops)


def test_the_fine_empty_cells_survive_the_calibration_file(tmp_path):
    """The calibration keeps the empty board's fine crops in the optional
    ``empty_cells_fine`` key; a file saved before it loads, without the model's word."""
    rng = np.random.default_rng(1)
    coarse = rng.integers(0, 255, (NUM_CELLS, 32, 32, 3), dtype=np.uint8)
    fine = rng.integers(0, 255, (NUM_CELLS, FINE_CROP, FINE_CROP, 3), dtype=np.uint8)
    path = tmp_path / "calibration.json"
    _calibration(empty_cells=coarse, empty_cells_fine=fine).save(path)
    back = Calibration.from_json(json.loads(path.read_text()))
    assert (back.empty_cells_fine == fine).all()
    frame, homography = np.zeros((480, 640, 3), np.uint8), np.array([[40.0, 0, 320], [0, 40.0, 240], [0, 0, 1]])
    for question in FINE_MODEL_PATHS:
        assert SecondOpinion.for_calibration(back).fine_odds(question, frame, homography, [3, 4]).shape == (2,)
    older = Calibration.from_json({k: v for k, v in json.loads(path.read_text()).items() if k != "empty_cells_fine"})
    assert older.empty_cells_fine is None
    assert SecondOpinion.for_calibration(older).fine_odds("hunter_on_trap", frame, homography, [3, 4]) is None


def test_malformed_fine_empty_cells_are_refused_with_the_key_named(tmp_path):
    obj = _calibration().to_json()
    obj["empty_cells_fine"] = "not a picture"
    with pytest.raises(CalibrationError, match="empty_cells_fine"):
        Calibration.from_json(obj)


def _odds(by_cell):
    return lambda cells: np.array([by_cell[c] for c in cells])


def test_a_hunter_read_nowhere_is_placed_on_the_trap_the_model_sees_him_on():
    """Of his two traps, the one the model is sure of holds him; he is placed unsure."""
    coarse = np.full(NUM_CELLS, 0.1)
    hunters, conf = unplaced_onto_own_traps({}, {4: "c0", 9: "c0"}, np.ones(NUM_CELLS), coarse, ["c0"],
                                            _odds({4: 0.1, 9: 0.8}))
    assert hunters == {"c0": 9} and conf[9] == 0.0


def test_a_player_whose_traps_the_model_doubts_stays_off_the_board():
    """An eliminated player's traps may stay: when the model is unsure of every one
    (a shared sample showed 0.22 to 0.36), nobody is put on them."""
    coarse = np.full(NUM_CELLS, 0.1)
    fine = _odds({4: 0.36, 9: 0.25, 7: 0.22})
    hunters, _ = unplaced_onto_own_traps({"c1": 20}, {4: "c0", 9: "c0", 7: "c0"}, np.ones(NUM_CELLS), coarse,
                                         ["c0", "c1"], fine)
    assert hunters == {"c1": 20} and HUNTER_ON_TRAP_ODDS > 0.36


def test_a_hunter_read_on_one_of_his_traps_moves_to_the_one_the_model_sees_him_on():
    """His colour shows a trap's worth on each of his traps; the model tells which
    one he stands on. A trap another hunter stands on is no option."""
    traps = {4: "c0", 9: "c0", 12: "c0"}
    hunters, conf = onto_likelier_own_traps({"c0": 4, "c1": 12}, traps, np.ones(NUM_CELLS),
                                            _odds({4: 0.2, 9: 0.7, 12: 0.99}))
    assert hunters == {"c0": 9, "c1": 12} and conf[4] == conf[9] == 0.0
    kept, _ = onto_likelier_own_traps({"c0": 4}, traps, np.ones(NUM_CELLS), _odds({4: 0.6, 9: 0.65, 12: 0.1}))
    assert kept == {"c0": 4}


def test_a_trap_the_model_sees_under_a_lone_hunter_is_his_and_unsure():
    """Under a lone hunter on grass where no trap was read, the model's sure yes puts
    his own trap there, unsure; under two hunters (whose?) or on another tile, nothing."""
    allowed = np.zeros(NUM_CELLS, bool)
    allowed[[4, 9]] = True
    hunters = {"c0": 4, "c1": 9, "c2": 9, "c3": 12}
    traps, conf = traps_under_hunters({}, np.ones(NUM_CELLS), hunters, allowed, None,
                                      _odds({4: TRAP_UNDER_HUNTER_ODDS, 9: 0.99, 12: 0.99}))
    assert traps == {4: "c0"} and conf[4] == 0.0 and conf[9] == 1.0


def test_a_trap_read_where_the_model_sees_none_under_the_hunter_is_taken_away_unsure():
    """A standing piece's shade passed for a trap: the model's sure no removes it, unsure;
    under the mammoth it is not asked."""
    allowed = np.ones(NUM_CELLS, bool)
    traps, conf = traps_under_hunters({4: "c1", 9: "c0"}, np.ones(NUM_CELLS), {"c0": 4, "c1": 9}, allowed, 9,
                                      _odds({4: NO_TRAP_UNDER_HUNTER_ODDS, 9: 0.0}))

    assert traps == {9: "c0"} and conf[4] == 0.0 and conf[9] == 1.0

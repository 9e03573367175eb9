"""The hunter-on-trap model (vision.cell_model.HunterOnTrap) and the rules that ask it
(vision.changes): which of a player's traps hides his hunter.

Tables come from sim.flatart and sim.tabletop on development seeds the model was not
trained on (training used 3,100,000+ and 5,100,000+, see sim/on_trap_training.py)."""
import json

import numpy as np
import pytest

import sim.flatart
import sim.tabletop
from engine.hexgrid import NUM_CELLS
from sim.on_trap_training import auc, extract_table
from vision.calibration import Calibration, CalibrationError
from vision.cell_model import FINE_CROP, HUNTER_ON_TRAP_PATH, PLANES, HunterOnTrap, SecondOpinion
from vision.changes import ON_TRAP_ODDS, onto_likelier_own_traps, unplaced_onto_own_traps


def test_the_shipped_model_is_small_and_loads_through_opencv():
    """The package ships it (well under 10 MB with the cell classifier) and cv2.dnn runs it."""
    assert HUNTER_ON_TRAP_PATH.exists() and HUNTER_ON_TRAP_PATH.stat().st_size <= 1_000_000
    crops = np.full((3, FINE_CROP, FINE_CROP, 3), 120, np.uint8)
    odds = HunterOnTrap().odds(crops, crops)
    assert odds.shape == (3,) and ((odds >= 0) & (odds <= 1)).all()
    assert HunterOnTrap().odds(crops[:0], crops[:0]).shape == (0,)
    assert PLANES == 7


@pytest.fixture(scope="module")
def trap_cells(tmp_path_factory):
    """The trap cells of a few fresh tables of both generators, eight frames each."""
    out = tmp_path_factory.mktemp("tables")
    parts = []
    for generator, seeds in ((sim.flatart, range(3_000_020, 3_000_024)), (sim.tabletop, range(5_000_020, 5_000_024))):
        for seed in seeds:
            generator.write_table(generator.generate_table(seed, reads=8), out)
    for folder in sorted(out.iterdir()):
        part = extract_table(folder)
        if part is not None:
            parts.append(part)
    return {k: np.concatenate([p[k] for p in parts]) for k in ("now", "ref", "y", "own")}


@pytest.mark.slow
def test_a_hunter_on_a_trap_is_told_from_a_bare_trap_on_tables_it_never_saw(trap_cells):
    """On traps of both generators the model was not trained on, a trap with a hunter on
    it (his own colour or another's) scores above a bare one far more often than the
    board classifier's coarse crops let it (AUC 0.79 and 0.87 there, sim/on_trap_training.py)."""
    odds = HunterOnTrap().odds(trap_cells["now"], trap_cells["ref"])
    y, own = trap_cells["y"].astype(bool), trap_cells["own"].astype(bool)
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
    assert SecondOpinion.for_calibration(back).hunter_on_trap(frame, homography, [3, 4]).shape == (2,)
    older = Calibration.from_json({k: v for k, v in json.loads(path.read_text()).items() if k != "empty_cells_fine"})
    assert older.empty_cells_fine is None
    assert SecondOpinion.for_calibration(older).hunter_on_trap(frame, homography, [3, 4]) is None


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
    assert hunters == {"c1": 20} and ON_TRAP_ODDS > 0.36


def test_a_hunter_read_on_one_of_his_traps_moves_to_the_one_the_model_sees_him_on():
    """His colour shows a trap's worth on each of his traps; the model tells which
    one he stands on. A trap another hunter stands on is no option."""
    traps = {4: "c0", 9: "c0", 12: "c0"}
    hunters, conf = onto_likelier_own_traps({"c0": 4, "c1": 12}, traps, np.ones(NUM_CELLS),
                                            _odds({4: 0.2, 9: 0.7, 12: 0.99}))
    assert hunters == {"c0": 9, "c1": 12} and conf[4] == conf[9] == 0.0
    kept, _ = onto_likelier_own_traps({"c0": 4}, traps, np.ones(NUM_CELLS), _odds({4: 0.6, 9: 0.65, 12: 0.1}))
    assert kept == {"c0": 4}

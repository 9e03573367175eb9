"""The owner model (vision.cell_model.OwnerModel) and the rule that asks it
(vision.changes.owners_by_model): whose piece stands on a cell, by likeness to each
player's hunter as setup saw him put down.

Tables come from sim.flatart and sim.tabletop on development seeds the model was not
trained on (training used 3,100,000+ and 5,100,000+, see sim/owner_training.py)."""
import json

import numpy as np
import pytest

from engine.hexgrid import NUM_CELLS
from sim.owner_training import KINDS, extract_table
from vision.calibration import Calibration, CalibrationError
from vision.cell_model import CROP, OWNER_MODEL_PATH, OwnerModel, SecondOpinion, board_level, light_change
from vision.changes import (OFF_TRAP_HUNTER, OFF_TRAP_NO_HUNTER, OFF_TRAP_OWNER, OWNER_DOUBT, OWNER_LIKELIER,
                            OWNER_SURE, off_own_trap_by_owner, owners_by_model)

from .rendered_sets import write_fresh_tables


def test_the_shipped_model_is_small_and_loads_through_opencv():
    """The package ships it (well under 10 MB with the other models) and cv2.dnn runs it;
    each cell's chances over the players sum to one."""
    assert OWNER_MODEL_PATH.exists() and OWNER_MODEL_PATH.stat().st_size <= 1_000_000
    owner = OwnerModel(OWNER_MODEL_PATH)
    rng = np.random.default_rng(0)
    crops = rng.integers(0, 255, (5, CROP, CROP, 3), dtype=np.uint8)
    level = board_level(crops)
    players = owner.embeddings(crops[:3], crops[:3], level)
    odds = owner.odds(crops, crops, players, level)
    assert odds.shape == (5, 3) and np.allclose(odds.sum(axis=1), 1.0)
    assert owner.odds(crops[:0], crops[:0], players, level).shape == (0, 3)


def test_the_light_change_is_measured_over_the_board_whatever_pieces_stand_on_it():
    """The owner model is given colours under the setup's light: the frame's change of
    light is the median over every cell, so a piece on a cell does not move it, and a
    board 1.3 times brighter everywhere is measured so, to be divided out."""
    rng = np.random.default_rng(1)
    empty = rng.integers(60, 160, (NUM_CELLS, CROP, CROP, 3), dtype=np.uint8)
    now = empty.copy()
    now[3, 8:24, 8:24] = (40, 40, 200)
    brighter = np.clip(now.astype(np.float32) * 1.3, 0, 255).astype(np.uint8)
    assert np.allclose(light_change(brighter, empty), 1.3, atol=0.02)
    assert np.allclose(light_change(now, empty), 1.0, atol=0.01)

@pytest.fixture(scope="module")
def fresh_tables(tmp_path_factory):
    """A few fresh tables of both generators, eight frames each."""
    return write_fresh_tables(tmp_path_factory.mktemp("tables"), range(3_000_030, 3_000_034), range(5_000_030, 5_000_034))


@pytest.mark.slow
def test_whose_piece_is_told_on_tables_the_model_never_saw(fresh_tables):
    """On cells of both generators the model was not trained on, the likeliest player is
    a lone hunter's owner at least four times in five, and a lone trap's three times in
    four; when it is sure (OWNER_SURE) it is right nineteen times in twenty."""
    owner = OwnerModel(OWNER_MODEL_PATH)
    right, sure_right, sure = {k: [] for k in KINDS}, [], []
    for folder in sorted(fresh_tables.iterdir()):
        part = extract_table(folder)
        if part is None:
            continue
        n = int(part["seats"][0])
        level = board_level(part["empty_mean"][0].reshape(1, 1, 1, 3))
        players = owner.embeddings(part["players"][0][:n], part["players_ref"][0][:n], level)
        odds = owner.odds(part["now"], part["ref"], players, level)
        hit = odds.argmax(axis=1) == part["owner"]
        for k, kind in enumerate(KINDS):
            right[kind] += hit[part["kind"] == k].tolist()
        confident = odds.max(axis=1) >= OWNER_SURE
        sure += confident.tolist()
        sure_right += hit[confident].tolist()
    assert len(right["hunter"]) >= 20 and len(right["lone trap"]) >= 20
    assert np.mean(right["hunter"]) >= 0.8 and np.mean(right["lone trap"]) >= 0.75
    assert np.mean(sure) >= 0.3 and np.mean(sure_right) >= 0.95


def _calibration(**extra):
    return Calibration(("grass",) * NUM_CELLS, {"grass": (0.3, 0.5, 0.2), "snow": (0.9, 0.9, 0.9),
                                               "rock": (0.4, 0.4, 0.4)},
                       (0.5, 0.3, 0.2), (0.05, 0.05, 0.05), {"c0": (0.9, 0.1, 0.1), "c1": (0.1, 0.1, 0.9)},
                       **extra)


def test_the_setup_crops_survive_the_calibration_file(tmp_path):
    """The calibration keeps each seat's setup crop and cell in the optional
    ``setup_hunters`` key; a file saved before it loads, without the model's word."""
    rng = np.random.default_rng(2)
    empty = rng.integers(0, 255, (NUM_CELLS, CROP, CROP, 3), dtype=np.uint8)
    setup = rng.integers(0, 255, (2, CROP, CROP, 3), dtype=np.uint8)
    path = tmp_path / "calibration.json"
    _calibration(empty_cells=empty, setup_hunters=setup, setup_cells=(19, 33)).save(path)
    back = Calibration.from_json(json.loads(path.read_text()))
    assert (back.setup_hunters == setup).all() and back.setup_cells == (19, 33)
    frame, homography = np.zeros((480, 640, 3), np.uint8), np.array([[40.0, 0, 320], [0, 40.0, 240], [0, 0, 1]])
    assert SecondOpinion.for_calibration(back).owner_odds(frame, homography, [3, 4]).shape == (2, 2)
    older = Calibration.from_json({k: v for k, v in json.loads(path.read_text()).items() if k != "setup_hunters"})
    assert older.setup_hunters is None
    assert SecondOpinion.for_calibration(older).owner_odds(frame, homography, [3, 4]) is None


@pytest.mark.parametrize("value", ["crops", {"cells": [19], "crops": "x"}, {"cells": [19, 99], "crops": ""}])
def test_malformed_setup_crops_are_refused_with_the_key_named(value):
    obj = _calibration().to_json()
    obj["setup_hunters"] = value
    with pytest.raises(CalibrationError, match="setup_hunters"):
        Calibration.from_json(obj)


def _odds(by_cell):
    return lambda cells: np.array([by_cell[c] for c in cells], float)


def test_two_hunters_the_colours_swapped_are_named_by_the_model():
    """The model is sure each stands where the other was read: both are named anew, and
    keep its odds as their confidence."""
    hunters, traps, conf = owners_by_model({"c0": 4, "c1": 9}, {}, np.ones(NUM_CELLS),
                                           _odds({4: [0.02, 0.98], 9: [0.97, 0.03]}), ["c0", "c1"])
    assert hunters == {"c0": 9, "c1": 4} and conf[4] == pytest.approx(0.98) and conf[9] == pytest.approx(0.97)


def test_the_colours_naming_stands_unless_the_model_finds_another_far_likelier():
    """Swapping must be OWNER_LIKELIER times as likely as the colours' naming."""
    doubtful = _odds({4: [0.3, 0.7], 9: [0.6, 0.4]})    # swapped only 3.5 times as likely
    hunters, _, conf = owners_by_model({"c0": 4, "c1": 9}, {}, np.ones(NUM_CELLS), doubtful, ["c0", "c1"])
    assert hunters == {"c0": 4, "c1": 9} and (conf == 1.0).all() and OWNER_LIKELIER > 3.5


def test_a_hunter_the_model_names_nowhere_is_no_longer_read():
    """A read on 4, but the model is sure B stands there, and B was read nowhere: B is
    read on 4, and A is not read (his piece is not where the colours put him)."""
    hunters, _, _ = owners_by_model({"c0": 4}, {}, np.ones(NUM_CELLS), _odds({4: [0.01, 0.99]}), ["c0", "c1"])
    assert hunters == {"c1": 4}


def test_a_hunter_on_another_players_trap_and_the_mammoths_cell_are_not_asked():
    """Two colours on one cell (his and the trap's), or the mammoth's: the model is not
    asked to choose."""
    never = _odds({})
    hunters, traps, _ = owners_by_model({"c0": 4, "c1": 18}, {4: "c1"}, np.ones(NUM_CELLS), never, ["c0", "c1"], 18)
    assert hunters == {"c0": 4, "c1": 18} and traps == {4: "c1"}


def test_a_lone_trap_goes_to_the_player_the_model_is_sure_of():
    """Sure of B (OWNER_SURE) while giving A, whom the colours name, OWNER_DOUBT or
    less: the trap is B's. Doubting A less, it stays A's; a trap under a hunter is not
    asked."""
    sure = [OWNER_DOUBT, 1 - OWNER_DOUBT]
    assert 1 - OWNER_DOUBT >= OWNER_SURE
    unsure = [OWNER_DOUBT + 0.05, 1 - OWNER_DOUBT - 0.05]
    _, traps, conf = owners_by_model({"c0": 7}, {4: "c0", 9: "c0", 7: "c0"}, np.ones(NUM_CELLS),
                                     _odds({4: sure, 9: unsure, 7: [0.01, 0.99]}), ["c0", "c1"])
    assert traps == {4: "c1", 9: "c0", 7: "c0"} and conf[4] == pytest.approx(1 - OWNER_DOUBT)


def _hunter_odds(by_cell):
    odds = np.zeros(NUM_CELLS)
    for cell, value in by_cell.items():
        odds[cell] = value
    return odds


def test_a_hunter_read_on_his_trap_moves_where_both_models_see_him():
    """The classifier sees no hunter on A's trap and one on a cell nobody was read on,
    which the owner model names A's: A moves there, unsure on both cells."""
    hunter = _hunter_odds({4: OFF_TRAP_NO_HUNTER - 0.1, 9: OFF_TRAP_HUNTER + 0.1})
    hunters, conf = off_own_trap_by_owner({"c0": 4, "c1": 12}, {4: "c0"}, np.ones(NUM_CELLS), None, hunter,
                                          _odds({9: [0.9, 0.1]}), ["c0", "c1"])
    assert hunters == {"c0": 9, "c1": 12} and conf[4] == conf[9] == 0.0 and OFF_TRAP_OWNER <= 0.9


@pytest.mark.parametrize("why", ["hunter seen on his trap", "the piece is another's", "two cells would do",
                                 "not his trap"])

def test_a_hunter_read_on_his_trap_stays_unless_both_models_agree_on_one_cell(why):
    hunter = _hunter_odds({4: 0.05, 9: 0.95, 10: 0.95 if why == "two cells would do" else 0.0})
    if why == "hunter seen on his trap":
        hunter[4] = OFF_TRAP_NO_HUNTER
    his = [0.9, 0.1]
    owner = _odds({9: [0.3, 0.7] if why == "the piece is another's" else his, 10: his})
    traps = {4: "c1" if why == "not his trap" else "c0"}
    hunters, conf = off_own_trap_by_owner({"c0": 4}, traps, np.ones(NUM_CELLS), None, hunter, owner, ["c0", "c1"])
    assert hunters == {"c0": 4} and (conf == 1.0).all()

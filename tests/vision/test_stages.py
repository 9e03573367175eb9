"""The reader's stages, each on its own: locate, tiles, light, pieces (by their changes).

Frames come from the kept vision samples (``data/samples/``), pieces' grids are built by
hand so each rule of :mod:`vision.changes` is seen alone.
"""
import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.hexgrid import CENTRE, NEIGHBOURS, NUM_CELLS, cell_name, parse_cell
from vision.calibration import Calibration, learn
from vision.changes import GRID, ChangeModel, Look, read_changes, relit_empty
from vision.colour import TILE_CLASSES
from vision.geometry import CELL_CENTRES, project
from vision.observation import Observation
from vision.reader import BoardReader, observation_to_json
from vision.stability import unclean_reason

TABLE = Path(__file__).parent / "data" / "samples" / "flat-6900002"


@pytest.fixture(scope="module")
def table():
    calibration = learn([cv2.imread(str(f)) for f in sorted(TABLE.glob("calib_*.jpg"))])
    frame = cv2.imread(str(TABLE / "read_000.jpg"))
    truth = json.loads((TABLE / "read_000.json").read_text())
    return calibration, frame, truth


def test_a_small_piece_set_is_learnt_by_its_changes_and_survives_its_file(table, tmp_path):
    """Pawns a fifth of a tile wide are learnt from what they change, each cell's empty
    look kept: the calibration says so and reads back from its file the same."""
    calibration, _, _ = table
    assert calibration.pieces == "changes" and calibration.changes is not None
    assert all(look.body >= 10 for look in calibration.changes.hunters.values())
    path = tmp_path / "cal.json"
    calibration.save(path)
    again = Calibration.load(path)
    assert again.pieces == "changes" and set(again.changes.hunters) == set(calibration.hunters)
    assert np.abs(again.changes.empty - calibration.changes.empty).max() <= 0.006


def test_locate_finds_the_board_and_samples_every_cell(table):
    calibration, frame, _ = table
    geometry, first, inside = BoardReader(calibration).locate(frame)
    assert geometry is not None and len(geometry.markers) >= 4
    assert first["tile"].shape[0] == NUM_CELLS and inside.all()
    blank = np.zeros_like(frame)
    assert BoardReader(calibration).locate(blank)[0] is None


def test_tiles_reads_the_layout_of_a_table_it_did_not_lock(table):
    calibration, frame, truth = table
    reader = BoardReader(calibration)
    _, first, _ = reader.locate(frame)
    tiles = reader.tiles(first)
    names = {cell_name(c): ("cross" if c == CENTRE else TILE_CLASSES[k]) for c, k in enumerate(tiles.classes)}
    assert names == truth["tiles"]
    assert tiles.confidence.min() > 0.5


def test_light_follows_a_lamp_colour_and_finds_a_hand(table):
    """A warmer, dimmer light scales each cell's gain by the same per-channel factor; a
    grey block over a few cells makes those cells, and no far one, occluded."""
    calibration, frame, _ = table
    reader = BoardReader(calibration)
    geometry, first, inside = reader.locate(frame)
    before = reader.light(first, inside, reader.tiles(first))
    warm = np.clip(frame.astype(np.float32) * np.array([0.8, 0.9, 1.0]), 0, 255).astype(np.uint8)  # BGR
    _, first_warm, inside_warm = reader.locate(warm)
    after = reader.light(first_warm, inside_warm, reader.tiles(first_warm))
    ratio = np.median(after.gain / before.gain, axis=0)
    assert np.allclose(ratio, [1.0, 0.9, 0.8], atol=0.04)      # RGB
    assert not after.occluded.any()
    hand = frame.copy()
    centre = project(geometry.homography, CELL_CENTRES)[parse_cell("0,0")].astype(int)
    cv2.circle(hand, tuple(int(v) for v in centre), 60, (120, 140, 190), -1)
    _, first_hand, inside_hand = reader.locate(hand)
    covered = reader.light(first_hand, inside_hand, reader.tiles(first_hand)).occluded
    assert covered[CENTRE] and covered.sum() <= 7


# -- pieces by their changes, on grids built by hand ------------------------------------
GREEN = (0.3, 0.6, 0.3)
RED, BLUE, BLACK = (0.8, 0.15, 0.1), (0.15, 0.25, 0.8), (0.05, 0.05, 0.05)


def blob(grid, cell, colour, radius, at=(0.0, 0.0)):
    inside = np.hypot(GRID[:, 0] - at[0], GRID[:, 1] - at[1]) <= radius
    grid[cell, inside] = colour
    return int(inside.sum())


def model_and_grid():
    empty = np.full((NUM_CELLS, len(GRID), 3), GREEN, np.float32)
    grid = empty.copy()
    hunter = blob(grid.copy(), 0, RED, 0.2)
    model = ChangeModel(empty, Look((0.35, 0.25, 0.15), 200.0),
                        {"c0": Look(RED, hunter, 0.0), "c1": Look(BLUE, hunter, 0.0)}, BLACK)
    return model, grid


def read(model, grid):
    ok = np.ones(NUM_CELLS, bool)
    return read_changes(model, grid, ok, ok.copy(), ["c0", "c1"])


def test_a_piece_is_what_changed_whatever_its_size():
    """A hunter the size learnt is a hunter; the same colour over a far larger part of a
    grass cell is his trap; a hunter on another's trap is both."""
    model, grid = model_and_grid()
    blob(grid, 5, RED, 0.2, at=(0.2, -0.1))
    blob(grid, 9, BLUE, 0.55)
    blob(grid, 12, BLUE, 0.55)
    blob(grid, 12, RED, 0.2)
    blob(grid, 20, (0.35, 0.25, 0.15), 0.55)
    seen = read(model, grid)
    assert seen.hunters == {"c0": 12} or seen.hunters == {"c0": 5}
    assert seen.traps == {9: "c1", 12: "c1"}
    assert seen.mammoth == 20 and not seen.unknown.any()


def test_a_lone_hunter_is_read_where_he_stands_and_nothing_else():
    model, grid = model_and_grid()
    blob(grid, 5, RED, 0.2, at=(0.2, -0.1))
    blob(grid, 20, (0.35, 0.25, 0.15), 0.55)
    seen = read(model, grid)
    assert seen.hunters == {"c0": 5} and seen.traps == {} and seen.mammoth == 20
    assert seen.confidence.min() > 0.5


def test_a_trap_of_a_hunters_size_is_no_hunter_when_its_print_has_no_owner():
    """A printed token of the red player's colour, about his hunter's size, with a grey
    print around it, and the red hunter standing on the blue player's trap elsewhere:
    the hunter is where his remainder has an owner (the blue trap), the token is his trap."""
    model, grid = model_and_grid()
    blob(grid, 9, (0.55, 0.55, 0.55), 0.5)          # the token's grey print...
    blob(grid, 9, RED, 0.2)                          # ...round a red middle his size
    blob(grid, 12, BLUE, 0.55)
    blob(grid, 12, RED, 0.2)
    seen = read(model, grid)
    assert seen.hunters == {"c0": 12}
    assert seen.traps == {9: "c0", 12: "c1"}


def test_a_hunter_on_a_trap_of_exactly_his_colour_is_told_by_his_dark_part_or_left_unsure():
    """A hunter with an outline standing on his own plate is read there (the outline is
    his); a plain one, of exactly the plate's colour, cannot be seen: the plates of his
    colour are unsure rather than guessed."""
    model, grid = model_and_grid()
    hunter = model.hunters["c0"]
    outlined = replace(hunter, dark=float(blob(grid.copy(), 0, BLACK, 0.28) - hunter.body), dark_colour=BLACK)
    blob(grid, 9, RED, 0.6)
    blob(grid, 12, RED, 0.6)
    blob(grid, 12, BLACK, 0.28)
    blob(grid, 12, RED, 0.2)
    model.hunters["c0"] = outlined
    seen = read(model, grid)
    assert seen.hunters == {"c0": 12} and seen.traps == {9: "c0", 12: "c0"}
    plain = grid.copy()
    plain[12] = model.empty[12]
    blob(plain, 12, RED, 0.6)
    model.hunters["c0"] = hunter
    seen = read(model, plain)
    assert "c0" not in seen.hunters and seen.confidence[[9, 12]].max() < 0.1


def test_a_change_of_no_learnt_colour_makes_its_cell_unreadable():
    model, grid = model_and_grid()
    blob(grid, 7, (0.97, 0.97, 0.95), 0.45)      # a die
    assert read(model, grid).unknown[7]


def test_the_light_now_is_divided_out_cell_by_cell():
    """Cells twice as dark as at setup (a shadow over a part of the board) show no change."""
    model, grid = model_and_grid()
    shade = [3] + [n for n in NEIGHBOURS[3] if n is not None]
    grid[shade] *= 0.5
    assert np.allclose(relit_empty(model.empty, grid)[3], grid[3], atol=1e-3)
    assert not read(model, grid).unknown.any()


def test_a_token_as_wide_as_its_tile_is_no_change_of_light():
    """A flat piece covering a whole cell, its tile ring included (a mammoth token as
    wide as its tile), would pass its colour for the cell's light: the light there is
    its neighbours', so the token is seen (here as the mammoth)."""
    model, grid = model_and_grid()
    grid[20] = (0.35, 0.25, 0.15)
    seen = read(model, grid)
    assert seen.mammoth == 20 and not seen.unknown.any()


def test_unsure_cells_hold_the_board_back_and_are_reported_only_when_there_are_some():
    base = Observation(0.0, True, False, None, None, 18, {}, {}, (1.0,) * NUM_CELLS)
    assert unclean_reason(base, 0.0) is None and "unsure_cells" not in observation_to_json(base)
    unsure = Observation(0.0, True, False, None, None, 18, {}, {}, (1.0,) * NUM_CELLS, unsure_cells=(4,))
    assert unclean_reason(unsure, 0.0) == "a cell is read with low confidence"
    assert observation_to_json(unsure)["unsure_cells"] == [cell_name(4)]

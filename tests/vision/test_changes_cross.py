"""The mammoth still on the cross is told by the cross looking as it did at setup.

Grids built by hand (:func:`vision.changes.still_on_cross`): the cross printed on its
own dark plate, not the snow's, and a mammoth token printed in two colours, cream with a
brown silhouette. Its learnt colour (the cream) also fits a white trap elsewhere; the
cross still looking as at setup says the mammoth has not left.
"""
import numpy as np

from engine.hexgrid import CENTRE, NUM_CELLS
from vision.changes import GRID, ChangeModel, Look, read_changes, still_on_cross
from vision.colour import to_lab

SNOW, GRASS, PLATE = (0.85, 0.87, 0.88), (0.3, 0.6, 0.3), (0.25, 0.25, 0.27)
CREAM, BROWN, WHITE = (0.85, 0.8, 0.65), (0.45, 0.3, 0.2), (0.9, 0.9, 0.9)
#: A white player's trap printed in a warm off-white: nearer the token's cream than his white.
OFF_WHITE = (0.86, 0.81, 0.67)
RADIUS = np.hypot(GRID[:, 0], GRID[:, 1])


def table():
    """The empty board (the cross as the snow, as setup assumes), the cross at setup
    (the plate, the token's cream disc, its brown silhouette) and the model."""
    empty = np.full((NUM_CELLS, len(GRID), 3), GRASS, np.float32)
    empty[CENTRE] = SNOW
    cross = np.full((len(GRID), 3), PLATE, np.float32)
    cross[RADIUS <= 0.5] = CREAM
    cross[(RADIUS <= 0.3) & (GRID[:, 0] < 0.15)] = BROWN
    model = ChangeModel(empty, Look(CREAM, float((RADIUS <= 0.5).sum())),
                        {"c0": Look((0.8, 0.15, 0.1), 40.0), "c1": Look(WHITE, 40.0)}, (0.05, 0.05, 0.05),
                        cross_setup=cross)
    return model, empty, cross


def read(model, grid):
    ok = np.ones(NUM_CELLS, bool)
    return read_changes(model, grid, ok, ok.copy(), ["c0", "c1"])


def test_the_cross_as_at_setup_keeps_the_mammoth_there_though_its_colour_shows_elsewhere():
    """An off-white trap on a grass cell shows more of the token's cream than the
    cross's middle does (part of it is the brown silhouette, and the learnt cream is the
    token's alone): the cross looks as at setup, so the mammoth is there, surely, and
    no other piece is read on the cross."""
    model, empty, cross = table()
    grid = empty.copy()
    grid[CENTRE] = cross
    grid[7, RADIUS <= 0.6] = OFF_WHITE
    points, share = still_on_cross(model, to_lab(grid), np.ones((NUM_CELLS, 3)))
    assert share == 1.0 and points.all()
    seen = read(model, grid)
    assert seen.mammoth == CENTRE and seen.confidence[CENTRE] == 1.0
    assert CENTRE not in seen.hunters.values() and CENTRE not in seen.traps


def test_a_cross_whose_mammoth_left_shows_its_plate_and_is_no_longer_his():
    """The mammoth token moved to a grass cell: the cross's middle shows its plate
    instead, nothing of it looks as at setup, and the mammoth is read where it lies."""
    model, empty, cross = table()
    grid = empty.copy()
    grid[CENTRE] = PLATE
    grid[20, RADIUS <= 0.5] = CREAM
    grid[20, (RADIUS <= 0.3) & (GRID[:, 0] < 0.15)] = BROWN
    assert still_on_cross(model, to_lab(grid), np.ones((NUM_CELLS, 3)))[1] == 0.0
    assert read(model, grid).mammoth == 20


def test_the_cross_under_another_light_is_compared_under_the_light_around_it():
    """The whole board a third darker: the cross is compared with its setup look under
    the light its neighbours show, and still looks as then."""
    model, empty, cross = table()
    grid = empty.copy()
    grid[CENTRE] = cross
    grid[7, RADIUS <= 0.6] = OFF_WHITE
    grid *= 0.66
    gain = np.full((NUM_CELLS, 3), 0.66)
    assert still_on_cross(model, to_lab(grid), gain)[1] == 1.0
    assert read(model, grid).mammoth == CENTRE



def test_the_cross_as_at_setup_is_kept_in_the_calibration_file():
    """The cross's setup look goes to the calibration file and comes back (reflectances
    to the hundredth, as the empty board's); a file without it loads with none, and the
    mammoth is then read by its colour alone, as before."""
    model, _, cross = table()
    back = ChangeModel.from_json(model.to_json())
    assert np.abs(back.cross_setup - cross).max() <= 0.005
    obj = model.to_json()
    del obj["cross_setup"]
    old = ChangeModel.from_json(obj)
    assert old.cross_setup is None
    assert still_on_cross(old, to_lab(np.zeros((NUM_CELLS, len(GRID), 3))), np.ones((NUM_CELLS, 3)))[1] == 0.0


def test_a_small_token_gone_from_a_plain_cross_is_read_where_it_lies():
    """A token much smaller than the cross's middle, on a plain snow cross: once it has
    moved to a grass cell, most of the cross's middle still looks as at setup, but only
    partly, and the grass cell shows the whole token and the cross nothing of it, so the
    mammoth is read on the grass cell (it once flickered back to the cross)."""
    empty = np.full((NUM_CELLS, len(GRID), 3), GRASS, np.float32)
    empty[CENTRE] = SNOW
    token = RADIUS <= 0.2
    cross = np.full((len(GRID), 3), SNOW, np.float32)
    cross[token] = BROWN
    model = ChangeModel(empty, Look(BROWN, float(token.sum())),
                        {"c0": Look((0.8, 0.15, 0.1), 40.0), "c1": Look(WHITE, 40.0)}, (0.05, 0.05, 0.05),
                        cross_setup=cross)
    grid = empty.copy()
    grid[20, token] = BROWN
    assert 0.6 <= still_on_cross(model, to_lab(grid), np.ones((NUM_CELLS, 3)))[1] < 0.9
    assert read(model, grid).mammoth == 20

"""Boards for the tracker tests: a tile layout and stable observations, cells written "q,r"."""

from engine.hexgrid import CENTRE, NUM_CELLS, parse_cell
from vision.observation import Observation

ROCKS = ["0,-3", "1,-3", "2,-3", "3,-3", "-1,-2", "0,-2", "1,-2"]
SNOW = ["-3,3", "-2,3", "-1,3", "0,3", "-3,2", "-2,2", "-1,2", "0,2", "1,2", "-3,1", "-2,1"]


def layout(rocks=ROCKS, snow=SNOW):
    tiles = ["grass"] * NUM_CELLS
    for name in rocks:
        tiles[parse_cell(name)] = "rock"
    for name in snow:
        tiles[parse_cell(name)] = "snow"
    tiles[CENTRE] = "cross"
    return tuple(tiles)


def board(hunters=None, mammoth="0,0", traps=None, tiles=None, t=0.0):
    """A stable observation; cells written as "q,r" for readability."""
    return Observation(
        t, True, False, tiles, None,
        None if mammoth is None else parse_cell(mammoth),
        {label: parse_cell(cell) for label, cell in (hunters or {}).items()},
        {parse_cell(cell): label for cell, label in (traps or {}).items()},
        (0.95,) * NUM_CELLS)


# Rocks on four sides of the centre and on the north-east ray: a hunter walking 3 east onto
# the mammoth leaves it no open direction, so it turns on him.
WALLED = ["1,0", "0,1", "-1,1", "0,-1", "2,-2", "3,-3", "3,-1"]

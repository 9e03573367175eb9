"""Whose a lone trap is, when a neutral player's colour is another's mixed with the tile.

A grey trap on green grass is also what a purple piece half blended with the grass
looks like (:func:`vision.changes.match_points` allows such blends, for a piece's edge):
the purple may even explain more of its points. A flat piece covers its cell's middle,
so its owner's colour shows there at full depth (:func:`vision.changes.colour_depth`);
purple never gets past half way on the grey trap, and the trap is the grey player's.
Boards are built by hand so the rule is seen alone.
"""
import numpy as np

from engine.hexgrid import NUM_CELLS
from vision import changes
from vision.changes import GRID, TRAP_DEPTH, ChangeModel, Look, frame_changes, read_changes

GRASS = np.array([0.25, 0.5, 0.2])
GREY = np.array([0.52, 0.52, 0.53])                # the grey player, learnt by his pawn's lit side
PURPLE = 2 * np.array([0.45, 0.45, 0.45]) - GRASS  # half of it on the grass is a darker grey
LABELS = ["purple", "grey"]
TRAP_CELL, PURPLE_PAWN, GREY_PAWN = 7, 20, 25


def _board(trap_colour):
    """A grass board with both players' pawns and one lone flat trap, lit from one side."""
    empty = np.full((NUM_CELLS, len(GRID), 3), GRASS, np.float32)
    grid = empty.copy()
    pawn = np.hypot(GRID[:, 0], GRID[:, 1]) <= 0.3
    grid[PURPLE_PAWN, pawn], grid[GREY_PAWN, pawn] = PURPLE, GREY
    disc = np.hypot(GRID[:, 0], GRID[:, 1]) <= 0.55
    side_light = 0.85 + 0.3 * (GRID[disc, 0:1] + 0.55) / 1.1
    grid[TRAP_CELL, disc] = np.clip(np.asarray(trap_colour) * side_light, 0, 1)
    looks = {"purple": Look(tuple(PURPLE), float(pawn.sum())), "grey": Look(tuple(GREY), float(pawn.sum()))}
    model = ChangeModel(empty, Look((0.35, 0.25, 0.15), 200.0), looks, (0.05, 0.05, 0.05))
    return model, grid


def _read(model, grid):
    everywhere = np.ones(NUM_CELLS, bool)
    return read_changes(model, grid, everywhere, everywhere, LABELS)


def test_a_grey_trap_on_grass_is_the_grey_players_though_purple_blended_with_grass_explains_more(monkeypatch):
    model, grid = _board([0.45, 0.45, 0.45])
    measured = frame_changes(model, grid, LABELS)
    purple_points, grey_points = measured.counts[TRAP_CELL, 1:3]
    assert purple_points > grey_points > 0
    purple_depth, grey_depth = measured.depth[TRAP_CELL]
    assert purple_depth < TRAP_DEPTH <= grey_depth
    reading = _read(model, grid)
    assert reading.hunters == {"purple": PURPLE_PAWN, "grey": GREY_PAWN}
    assert reading.traps == {TRAP_CELL: "grey"}
    # Judged by the points alone (no depth), the purple would have it.
    monkeypatch.setattr(changes, "TRAP_DEPTH", -1.0)
    assert _read(model, grid).traps == {TRAP_CELL: "purple"}


def test_a_purple_trap_on_the_same_grass_stays_purple():
    model, grid = _board(PURPLE)
    assert _read(model, grid).traps == {TRAP_CELL: "purple"}

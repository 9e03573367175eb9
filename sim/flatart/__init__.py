"""A second, independent generator of camera frames: flat printed-art Mâamut tables.

Written from the kit's contract only (the six ArUco cards of ``vision.geometry``, the
rules' cells and the engine's legal positions), never from the reader's code, so that
the reader can be measured on art it was not fitted to (issue 24, "generalisation as
a method"). Each table draws at random what players' own sets vary in: piece sizes from
a pawn's head to an overhanging figure, shapes, colours close to the tiles, dark and
white players, traps of several designs, hunters on traps and sharing cells.

Folders in the format of the shared vision samples (``flat-SEED/``, ``game-SEED/``)::

    python -m sim.flatart --out /tmp/flat --tables 20 --seed 1000 --games 8 [--hands]

From code, :func:`generate_table` and :func:`generate_game` return plain values (JPEG
bytes per frame, the truth as JSON-ready dicts); :func:`write_table` and
:func:`write_game` write them.

>>> sample = generate_table(7, reads=1)
>>> [f.name for f in sample.calib][:2], sample.reads[0][0].name
(['calib_00.jpg', 'calib_01.jpg'], 'read_000.jpg')
>>> sample.reads[0][1]["mammoth"] in sample.table["tiles"]
True
"""
from .samples import (HOLD_FRAMES, Frame, GameSample, TableSample, generate_game, generate_table, write_game,
                      write_table)
from .style import HUNTER_SHAPES, MAMMOTH_KINDS, TRAP_SHAPES

__all__ = ["HOLD_FRAMES", "HUNTER_SHAPES", "MAMMOTH_KINDS", "TRAP_SHAPES", "Frame", "GameSample", "TableSample",
           "generate_game", "generate_table", "write_game", "write_table"]

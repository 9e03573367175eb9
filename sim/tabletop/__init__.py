"""A third, independent generator of camera frames: phone or Pi-camera photos of real
cardboard Mâamut tables.

Written from the kit's contract only (the six ArUco cards of ``vision.geometry``, the
rules' cells and the engine's legal positions), never from the reader's code, and in a
style unlike both the team's renderer and the flat printed art of :mod:`sim.flatart`:
a camera posed in 3D over a wooden, cloth, felt or laminate table, under a desk lamp, a
ceiling light or a window (fall-off, warm or cool cast, soft shadows, glare on glossy
tiles, vignetting), with illustrated cardboard tiles laid by hand, pieces with height
that lean away from the camera (cylinders, cubes, pawns, meeples, glass beads, tall
figures, standees), traps as printed tokens, rings, discs or squares, and the phone's
noise, blur, sharpening and JPEG.

Folders in the format of the shared vision samples (``tabletop-SEED/``,
``tabletop-game-SEED/``)::

    python -m sim.tabletop --out /tmp/tabletop --tables 20 --seed 1000 --games 8

From code, :func:`generate_table` and :func:`generate_game` return plain values (JPEG
bytes per frame, the truth as JSON-ready dicts); :func:`write_table` and
:func:`write_game` write them, exactly as :mod:`sim.flatart`'s do.

>>> sample = generate_table(7, reads=1)
>>> [f.name for f in sample.calib][:2], sample.reads[0][0].name
(['calib_00.jpg', 'calib_01.jpg'], 'read_000.jpg')
>>> sample.reads[0][1]["mammoth"] in sample.table["tiles"]
True
>>> sample.table["style"]
'photo of a cardboard table (sim.tabletop)'
"""
from ..tables import HOLD_FRAMES, Frame, GameSample, TableSample, write_game, write_table
from .samples import generate_game, generate_table
from .style import HUNTER_SHAPES, LIGHTS, MAMMOTH_KINDS, SURFACES, TRAP_SHAPES

__all__ = ["HOLD_FRAMES", "HUNTER_SHAPES", "LIGHTS", "MAMMOTH_KINDS", "SURFACES", "TRAP_SHAPES", "Frame",
           "GameSample", "TableSample", "generate_game", "generate_table", "write_game", "write_table"]

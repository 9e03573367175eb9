"""The size a kit is drawn for: tiles measured *across flats* by the user.

What a user measures with a ruler on one real tile is its width across flats (from a
straight side to the opposite one); tiles laid edge to edge have their centres that far
apart. The reader works in board units (a tile's circumradius), so the size only
matters for printing the kit (:mod:`vision.render_kit`, ``maamut kit``). No OpenCV
here: the configuration checks ``[camera] tile_mm`` with it.
"""
from __future__ import annotations

import math

#: Tile width across flats of the default kit, millimetres (``hardware/fiducials/``).
DEFAULT_TILE_MM = 52.0
#: Tile widths across flats the kit is drawn for: below, a millimetre of cutting or
#: gluing error is more than a tenth of a tile; above, each marker card needs an A4
#: sheet of its own and the mat is over a metre and a quarter wide.
TILE_MM_RANGE = (25.0, 120.0)


class KitSizeError(ValueError):
    """A tile size the kit cannot be drawn for; the message says the range and why."""


def unit_mm(tile_mm: float) -> float:
    """Board unit (tile circumradius) in millimetres for tiles ``tile_mm`` across flats.

    >>> round(unit_mm(52.0), 3)
    30.022
    >>> unit_mm(300)
    Traceback (most recent call last):
    ...
    vision.kit_size.KitSizeError: tile size 300 mm across flats is outside 25-120 mm: measure one tile from a straight side to the opposite side
    """
    lo, hi = TILE_MM_RANGE
    if not isinstance(tile_mm, (int, float)) or isinstance(tile_mm, bool) or not lo <= tile_mm <= hi:
        raise KitSizeError(f"tile size {tile_mm!r} mm across flats is outside {lo:g}-{hi:g} mm: "
                           "measure one tile from a straight side to the opposite side")
    return float(tile_mm) / math.sqrt(3)

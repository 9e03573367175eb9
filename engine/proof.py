"""A sound test that the mammoth can never be driven into a trap (RULINGS "the end").

It may answer "survives" only when that is proven; "not proven" is always safe.

* Immobile mammoth: with at most one open neighbour, a hunter can only arrive from
  that neighbour and stop, and the only direction that is not rock or edge is the one
  he came from, which the mammoth never takes: it can never move.
* Reachability: the cells a flight may enter from a cell are the open prefixes of its
  six rays, up to three cells (a flight of k cells needs its first k cells open, and each
  shorter prefix is itself a possible flight). If no cell the mammoth can ever enter is
  grass, no trap can ever lie in its way, because traps go on grass only.

>>> from engine.notation import position_from_text
>>> walled = position_from_text("gggg/ggggg/ggrrgg/ggrxrgg/ggrrgg/ggggg/gggg 0,0 A@0,-3 - A")
>>> mammoth_survives(walled)
True
>>> open_field = position_from_text("gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@0,-3 - A")
>>> mammoth_survives(open_field)
False
"""

from __future__ import annotations

from .core import Position, Tile
from .hexgrid import NEIGHBOURS, RAYS
from .variants import DEFAULT, Variants


def open_neighbours(tiles: tuple[Tile, ...], cell: int) -> int:
    return sum(1 for n in NEIGHBOURS[cell] if n is not None and tiles[n] is not Tile.ROCK)


def _entered_masks(tiles: tuple[Tile, ...], open_len=None) -> list[int]:
    """Bitmask per cell of the cells a single flight of 1-3 cells from it may enter."""
    masks = []
    for cell in range(len(tiles)):
        mask = 0
        for d in range(6):
            for c in RAYS[cell][d][:3]:
                if tiles[c] is Tile.ROCK:
                    break
                mask |= 1 << c
        masks.append(mask)
    return masks


def reachable_cells(tiles: tuple[Tile, ...], start: int, masks=None) -> frozenset[int]:
    """Every cell a sequence of flights could ever make the mammoth enter (over-approximation).

    Each entered cell is also a possible stop (a shorter card ends there), so the
    closure simply follows entered cells.
    """
    masks = masks or _entered_masks(tiles)
    reached = 0
    frontier = masks[start]
    while frontier:
        reached |= frontier
        new = 0
        bits = frontier
        while bits:
            low = bits & -bits
            new |= masks[low.bit_length() - 1]
            bits ^= low
        frontier = new & ~reached
    return frozenset(c for c in range(len(tiles)) if reached >> c & 1)


def survives_from(tiles: tuple[Tile, ...], mammoth: int, open_len=None) -> bool:
    """The proof for a mammoth on ``mammoth`` (depends on the layout only)."""
    if open_neighbours(tiles, mammoth) <= 1:
        return True
    return not any(tiles[c] is Tile.GRASS for c in reachable_cells(tiles, mammoth, _masks_for(tiles)))


_MASKS: dict = {}


def _masks_for(tiles):
    masks = _MASKS.get(id(tiles))
    if masks is None or masks[0] is not tiles:
        if len(_MASKS) > 64:
            _MASKS.clear()
        masks = _MASKS[id(tiles)] = (tiles, _entered_masks(tiles))
    return masks[1]


def mammoth_survives(pos: Position, variants: Variants = DEFAULT) -> bool:
    """True only when it is proven that no trap can ever catch the mammoth.

    The argument holds under every variant: none lets the mammoth move without a
    flight, or a flight leave a straight, rock-free ray of at most three cells.
    """
    from .rules import layout_of

    return layout_of(pos).survives(pos.mammoth)

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


#: _PREFIX_MASKS[cell][d][n]: bitmask of the first n cells of the ray from cell towards d.
_PREFIX_MASKS = tuple(
    tuple(tuple(sum(1 << c for c in RAYS[cell][d][:n]) for n in range(4)) for d in range(6))
    for cell in range(len(RAYS)))


def _entered_masks(tiles: tuple[Tile, ...], open_len=None) -> list[int]:
    """Bitmask per cell of the cells a single flight of 1-3 cells from it may enter."""
    if open_len is None:
        from .rules import _layout_for

        open_len = _layout_for(tiles).open_len
    masks = []
    for cell in range(len(tiles)):
        prefixes, reach = _PREFIX_MASKS[cell], open_len[cell]
        masks.append(prefixes[0][reach[0]] | prefixes[1][reach[1]] | prefixes[2][reach[2]]
                     | prefixes[3][reach[3]] | prefixes[4][reach[4]] | prefixes[5][reach[5]])
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


def survives_from(tiles: tuple[Tile, ...], mammoth: int, open_len=None, masks=None) -> bool:
    """The proof for a mammoth on ``mammoth`` (depends on the layout only)."""
    if open_neighbours(tiles, mammoth) <= 1:
        return True
    masks = masks or _entered_masks(tiles, open_len)
    return not any(tiles[c] is Tile.GRASS for c in reachable_cells(tiles, mammoth, masks))


def mammoth_survives(pos: Position, variants: Variants = DEFAULT) -> bool:
    """True only when it is proven that no trap can ever catch the mammoth.

    The argument holds under every variant: none lets the mammoth move without a
    flight, or a flight leave a straight, rock-free ray of at most three cells.
    """
    from .rules import layout_of

    return layout_of(pos).survives(pos.mammoth)

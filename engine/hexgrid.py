"""Hex geometry of the Mâamut board (see RULINGS "Coordinates and directions").

Pointy-top hexagons in axial coordinates ``(q, r)``, north up, ``r`` growing
southward, seen from above. The board is the 37 cells within distance 3 of the
centre. A cell is an ``int`` id in reading order: north row first, west to east.

>>> CELLS[0], CELLS[CENTRE], CELLS[36]
((0, -3), (0, 0), (0, 3))
>>> cell_name(parse_cell("-1,2"))
'-1,2'
>>> cell_name(neighbour(CENTRE, DIRECTION_INDEX["NE"]))
'1,-1'
>>> neighbour(parse_cell("3,0"), DIRECTION_INDEX["E"]) is None
True
>>> [cell_name(c) for c in ray(parse_cell("-2,2"), DIRECTION_INDEX["E"], 3)]
['-1,2', '0,2', '1,2']
"""

from __future__ import annotations

import math
import re

RADIUS = 3

#: Clockwise, seen from above, starting east. Turning clockwise is index + 1.
DIRECTIONS = ("E", "SE", "SW", "W", "NW", "NE")
DIRECTION_INDEX = {name: i for i, name in enumerate(DIRECTIONS)}
DIRECTION_VECTORS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def _on_board(q: int, r: int) -> bool:
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


#: Cell id -> (q, r), in reading order (north row first, west to east).
CELLS: tuple[tuple[int, int], ...] = tuple(
    (q, r)
    for r in range(-RADIUS, RADIUS + 1)
    for q in range(-RADIUS, RADIUS + 1)
    if _on_board(q, r)
)
NUM_CELLS = len(CELLS)
_ID = {qr: i for i, qr in enumerate(CELLS)}
CELL_NAMES: tuple[str, ...] = tuple(f"{q},{r}" for q, r in CELLS)
_ID_BY_NAME = {name: i for i, name in enumerate(CELL_NAMES)}
CENTRE = _ID[(0, 0)]

#: Row lengths in reading order (4, 5, 6, 7, 6, 5, 4).
ROW_LENGTHS = tuple(sum(1 for q, r in CELLS if r == row) for row in range(-RADIUS, RADIUS + 1))


def cell_id(q: int, r: int) -> int:
    """The id of cell ``(q, r)``; ``KeyError`` when it is off the board."""
    return _ID[(q, r)]


def cell_name(cell: int) -> str:
    """The ``"q,r"`` text form of a cell id."""
    return CELL_NAMES[cell]


#: A cell name: two integers of ASCII digits with an optional minus, spaces allowed around them.
_CELL_TEXT = re.compile(r" *(-?[0-9]{1,3}) *, *(-?[0-9]{1,3}) *", re.ASCII)


def parse_cell(text: str) -> int:
    """The id of a ``"q,r"`` cell name; ``ValueError`` if malformed or off the board.

    Only ASCII digits with an optional minus: no ``+1``, ``0_0``, nor digits of other
    scripts, which Python's ``int`` would take.

    >>> parse_cell(" 0 , 0 ") == CENTRE
    True
    >>> parse_cell("4,0")
    Traceback (most recent call last):
    ...
    ValueError: cell '4,0' is off the board (at most 3 steps from the centre)
    >>> parse_cell("+1,0")
    Traceback (most recent call last):
    ...
    ValueError: cell '+1,0' is not of the form "q,r" with integers
    >>> parse_cell("\u0661,0")
    Traceback (most recent call last):
    ...
    ValueError: cell '١,0' is not of the form "q,r" with integers
    """
    if not isinstance(text, str):
        raise ValueError(f"cell must be a string like \"q,r\", not {type(text).__name__}")
    found = _ID_BY_NAME.get(text)
    if found is not None:
        return found
    if text.count(",") != 1:
        raise ValueError(f"cell {text[:20]!r} is not of the form \"q,r\"")
    match = _CELL_TEXT.fullmatch(text)
    if match is None:
        raise ValueError(f"cell {text[:20]!r} is not of the form \"q,r\" with integers")
    q, r = int(match.group(1)), int(match.group(2))
    if not _on_board(q, r):
        raise ValueError(f"cell {text!r} is off the board (at most 3 steps from the centre)")
    return _ID[(q, r)]


def distance_qr(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def distance(a: int, b: int) -> int:
    """Hex distance between two cells.

    >>> distance(CENTRE, parse_cell("3,-3")), distance(parse_cell("-3,0"), parse_cell("3,0"))
    (3, 6)
    """
    return distance_qr(CELLS[a], CELLS[b])


#: Ring index of every cell (0 for the centre, 3 for the outer tiles).
RING: tuple[int, ...] = tuple(distance_qr(qr, (0, 0)) for qr in CELLS)


def ring_of(cell: int) -> int:
    return RING[cell]


def ring(n: int) -> tuple[int, ...]:
    """Cells at distance ``n`` from the centre, in reading order.

    >>> len(ring(1)), len(ring(2)), len(ring(3))
    (6, 12, 18)
    """
    return tuple(i for i in range(NUM_CELLS) if RING[i] == n)


def _step(cell: int, d: int):
    q, r = CELLS[cell]
    dq, dr = DIRECTION_VECTORS[d]
    return _ID.get((q + dq, r + dr))


#: NEIGHBOURS[cell][d]: the adjacent cell in direction d, or None off the board.
NEIGHBOURS: tuple[tuple, ...] = tuple(tuple(_step(c, d) for d in range(6)) for c in range(NUM_CELLS))


def neighbour(cell: int, direction: int):
    return NEIGHBOURS[cell][direction]


def _full_ray(cell: int, d: int) -> tuple[int, ...]:
    out = []
    current = cell
    while True:
        current = NEIGHBOURS[current][d]
        if current is None:
            return tuple(out)
        out.append(current)


#: RAYS[cell][d]: the on-board cells met walking from ``cell`` in direction ``d``.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_full_ray(c, d) for d in range(6)) for c in range(NUM_CELLS)
)


def ray(cell: int, direction: int, length: int) -> tuple[int, ...]:
    """The first ``length`` cells from ``cell`` along ``direction`` (fewer at the edge)."""
    return RAYS[cell][direction][:length]


SQRT3 = math.sqrt(3.0)


def pixel_of(cell: int, size: float = 1.0) -> tuple[float, float]:
    """Centre of a cell for a pointy-top drawing with north up and y growing down.

    ``size`` is the hexagon's circumradius. East is +x, south is +y: the board is drawn
    as seen from above, never mirrored.

    >>> pixel_of(CENTRE)
    (0.0, 0.0)
    >>> x, y = pixel_of(parse_cell("0,1")); round(x, 3), round(y, 3)
    (0.866, 1.5)
    """
    q, r = CELLS[cell]
    return (size * SQRT3 * (q + r / 2.0), size * 1.5 * r)

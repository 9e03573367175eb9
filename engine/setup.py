"""Board layout and setup: seeded layouts, the setup validator, hunter placement.

>>> import random
>>> tiles = random_layout(random.Random(1))
>>> validate_layout(tiles)
[]
>>> validate_layout(tiles[:CENTRE] + (Tile.SNOW,) + tiles[CENTRE + 1:])
['the centre 0,0 must hold the cross tile, found snow', '11 snow tiles are needed, found 12']
"""

from __future__ import annotations

import random

from .core import Position, Tile
from .hexgrid import CELL_NAMES, CENTRE, NUM_CELLS, RING, ring
from .variants import DEFAULT, Variants

#: Tiles in the box besides the cross (RULINGS "Setup" 1).
TILE_COUNTS = {Tile.ROCK: 7, Tile.GRASS: 18, Tile.SNOW: 11}
MAX_CENTRE_ROCKS = 4


def random_layout(rng: random.Random) -> tuple[Tile, ...]:
    """Shuffle the 36 tiles around the cross, laying again while the centre is walled in."""
    bag = [tile for tile, n in TILE_COUNTS.items() for _ in range(n)]
    while True:
        rng.shuffle(bag)
        it = iter(bag)
        tiles = tuple(Tile.CROSS if cell == CENTRE else next(it) for cell in range(NUM_CELLS))
        if sum(1 for c in ring(1) if tiles[c] is Tile.ROCK) <= MAX_CENTRE_ROCKS:
            return tiles


def validate_layout(tiles) -> list[str]:
    """Every broken setup constraint as a sentence; an empty list means the layout is valid."""
    problems = []
    if len(tiles) != NUM_CELLS:
        return [f"{NUM_CELLS} tiles are needed, found {len(tiles)}"]
    if tiles[CENTRE] is not Tile.CROSS:
        problems.append(f"the centre 0,0 must hold the cross tile, found {tiles[CENTRE].value}")
    crosses = [CELL_NAMES[i] for i, t in enumerate(tiles) if t is Tile.CROSS and i != CENTRE]
    if crosses:
        problems.append(f"there is only one cross tile, found another at {', '.join(crosses)}")
    for tile, n in TILE_COUNTS.items():
        found = sum(1 for t in tiles if t is tile)
        if found != n:
            problems.append(f"{n} {tile.value} tiles are needed, found {found}")
    rocks = [CELL_NAMES[c] for c in ring(1) if tiles[c] is Tile.ROCK]
    if len(rocks) > MAX_CENTRE_ROCKS:
        problems.append(f"at most {MAX_CENTRE_ROCKS} rocks may surround the centre, found {len(rocks)} "
                        f"({', '.join(rocks)}): lay the tiles again")
    return problems


def start_cells(pos: Position, variants: Variants = DEFAULT) -> list[int]:
    """Cells where the next hunter may be placed (RULINGS "Setup" 4)."""
    taken = set(pos.hunters.values())
    allowed_ring = (lambda c: RING[c] == 3) if variants.start_cells == "ring3" else (lambda c: c != CENTRE)
    return [c for c in range(NUM_CELLS)
            if allowed_ring(c) and pos.tiles[c] is not Tile.ROCK and c not in taken and c != pos.mammoth]


def placement_error(pos: Position, player: str, cell: int, variants: Variants = DEFAULT) -> str | None:
    if player in pos.hunters:
        return f"{player}'s hunter is already on the board"
    expected = next((p for p in pos.players if p not in pos.hunters and p not in pos.eliminated), None)
    if player != expected:
        return f"hunters are placed in seating order: {expected} places next"
    if pos.tiles[cell] is Tile.ROCK:
        return f"{CELL_NAMES[cell]} is rock: no hunter may stand there"
    if cell in pos.hunters.values() or cell == pos.mammoth:
        return f"{CELL_NAMES[cell]} already holds a token"
    if variants.start_cells == "ring3" and RING[cell] != 3:
        return f"{CELL_NAMES[cell]} is not an outer cell: hunters start on the outer ring"
    if cell == CENTRE:
        return "the centre is the mammoth's"
    return None

"""Small builders for hand-made positions in the engine tests."""

from engine import Position, Tile, Variants
from engine.hexgrid import CENTRE, NUM_CELLS, parse_cell


def make(mammoth="0,0", hunters=None, rocks=(), snow=(), traps=None, to_move="A", players=None,
         eliminated=(), hands=None) -> Position:
    """An all-grass board (cross at the centre) with the given rocks, snow and pieces."""
    tiles = [Tile.GRASS] * NUM_CELLS
    tiles[CENTRE] = Tile.CROSS
    for c in rocks:
        tiles[parse_cell(c)] = Tile.ROCK
    for c in snow:
        tiles[parse_cell(c)] = Tile.SNOW
    hunters = hunters or {}
    if players is None:
        players = tuple(sorted(set(hunters) | set(eliminated)))
    return Position(tuple(tiles), parse_cell(mammoth), tuple(players),
                    {p: parse_cell(c) for p, c in hunters.items()},
                    {parse_cell(c): o for c, o in (traps or {}).items()}, to_move, tuple(eliminated),
                    None if hands is None else {p: tuple(h) for p, h in hands.items()})


def cells(pos: Position) -> dict:
    from engine.hexgrid import cell_name
    return {p: cell_name(c) for p, c in pos.hunters.items()}


DEFAULT = Variants()

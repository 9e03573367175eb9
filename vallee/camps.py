"""Camps and fields: where a tribe may set up, found a camp, and sow.

Setup (rules «Mise en place»): each tribe sets up a camp, two women and five warriors on
one free cell, never on a cell sharing an edge with another tribe's camp unless a river
runs along that edge (gap V1); a camp on a plain may get a field at once for 1 food (V2).
A camp is a village on a plain or in a forest, a cave in the mountains (volcanoes
included). During movement (rules §4), a warrior and a woman standing on a free cell found
a camp instead of moving (V40); one camp per cell, five markers a tribe (V43). At the end
of winter (rules §8) a tribe sows a field on a plain where it has a village, one per
cell, for 1 food each, while the box's nine markers last (V62); Terrasse lets it sow on a
mountain cell with its own cave (V61).

>>> from vallee.board import sample_valley
>>> v = sample_valley()
>>> camp_kind(v, (0, 1)), camp_kind(v, (1, -2))
('village', 'cave')
>>> start_camp_problem(v, (1, -1), {(0, -1): "blue"})   # river 1 runs between them
>>> start_camp_problem(v, (1, 0), {(2, 0): "blue"})
'camps.spacing'
"""

from __future__ import annotations

from .board import Valley
from .core import FOREST, MOUNTAIN, PLAIN, VOLCANO, Cell

CAMPS_PER_TRIBE = 5
FIELD_MARKERS = 9


def camp_kind(valley: Valley, cell: Cell) -> str | None:
    """Village (plain, forest), cave (mountain, volcano) or None (lake)."""
    terrain = valley.terrain[cell]
    if terrain in (PLAIN, FOREST):
        return "village"
    if terrain in (MOUNTAIN, VOLCANO):
        return "cave"
    return None


def start_camp_problem(valley: Valley, cell: Cell, camps: dict, occupied=frozenset()) -> str | None:
    """The rule a starting camp on ``cell`` breaks, or None; ``camps``: cell → tribe already set up."""
    if camp_kind(valley, cell) is None or cell in camps or cell in occupied:
        return "camps.free_cell"
    for other in camps:
        if other in valley.neighbours(cell) and valley.river_between(cell, other) is None:
            return "camps.spacing"
    return None


def found_camp_problem(valley: Valley, cell: Cell, warriors: int, women: int, opponents: int, camps_here: bool,
                       camps_owned: int, pacs: bool = False) -> str | None:
    """The rule founding a camp on ``cell`` breaks, or None (rules §4; Pacs: two of a kind)."""
    if camp_kind(valley, cell) is None:
        return "camps.free_cell"
    if opponents or camps_here:
        return "camps.one_per_cell" if camps_here else "camps.free_cell"
    couple = warriors >= 1 and women >= 1
    if not couple and not (pacs and (warriors >= 2 or women >= 2)):
        return "camps.couple"
    if camps_owned >= CAMPS_PER_TRIBE:
        return "camps.markers"
    return None


def sowing_problem(valley: Valley, cell: Cell, own_camp: str | None, field_here: bool, markers_used: int,
                   food: int, terrace: bool = False) -> str | None:
    """The rule sowing on ``cell`` breaks, or None; ``own_camp``: the tribe's camp kind there."""
    terrain = valley.terrain[cell]
    allowed = (terrain == PLAIN and own_camp == "village") or (
        terrace and terrain in (MOUNTAIN, VOLCANO) and own_camp == "cave")
    if not allowed:
        return "sowing.where"
    if field_here:
        return "sowing.one_per_cell"
    if markers_used >= FIELD_MARKERS:
        return "sowing.markers"
    if food < 1:
        return "sowing.cost"
    return None


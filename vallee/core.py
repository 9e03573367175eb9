"""Plain types of La Vallée des Mammouths: terrain, species, hex directions, cells, errors.

Cells are axial ``(q, r)`` pairs written ``"q,r"`` in JSON, like the Mâamut engine's
(``r`` grows southward). A map's grid is pointy-top (directions E, SE, SW, W, NW, NE)
or flat-top (N, NE, SE, S, SW, NW); both use the same six axial steps.

>>> SPECIES["bison"].range, SPECIES["bison"].enters_mountains, SPECIES["bison"].tramples
(2, False, True)
>>> parse_cell("-1,2", "units.0.cell")
(-1, 2)
>>> cell_name((3, -2))
'3,-2'
>>> direction_step("pointy", "NE"), opposite_name("pointy", "NE")
((1, -1), 'SW')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulekit.errors import MalformedRequest, RuleError

Cell = tuple[int, int]

PLAIN, FOREST, MOUNTAIN, VOLCANO, LAKE = "plain", "forest", "mountain", "volcano", "lake"
TERRAINS = (PLAIN, FOREST, MOUNTAIN, VOLCANO, LAKE)
#: Terrains whose cells carry a region number; a volcano counts as mountain (rules §1).
REGION_TERRAIN = {PLAIN: PLAIN, FOREST: FOREST, MOUNTAIN: MOUNTAIN, VOLCANO: MOUNTAIN}
TERRAIN_FR = {PLAIN: "plaine", FOREST: "forêt", MOUNTAIN: "montagne", VOLCANO: "volcan", LAKE: "lac"}

SUMMER, WINTER = "summer", "winter"
SEASON_FR = {SUMMER: "été", WINTER: "hiver"}


@dataclass(frozen=True)
class Species:
    """One animal species and its line of the movement table (rules §3) and food (§5)."""

    name: str
    fr: str
    range: int
    enters_mountains: bool
    crosses_rivers: bool
    tramples: bool
    food: int
    lean_food: int  # under the winter card Viande maigre


#: The six species, from the smallest prey to the largest (the food table's reverse).
SPECIES: dict[str, Species] = {s.name: s for s in (
    Species("wolf", "loup", 3, True, False, False, 1, 0),
    Species("tiger", "tigre", 3, True, False, False, 2, 0),
    Species("bear", "ours", 2, True, True, False, 3, 1),
    Species("bison", "bison", 2, False, False, True, 4, 2),
    Species("rhino", "rhinocéros", 1, False, False, True, 5, 3),
    Species("mammoth", "mammouth", 1, False, False, True, 6, 4),
)}

#: Axial steps clockwise seen from above, with their names per grid orientation.
STEPS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_NAMES = {
    "pointy": ("E", "SE", "SW", "W", "NW", "NE"),
    "flat": ("SE", "S", "SW", "NW", "N", "NE"),
}
ORIENTATIONS = tuple(DIRECTION_NAMES)


def direction_step(orientation: str, name: str) -> Cell:
    """The axial step of a direction name on a grid of that orientation."""
    return STEPS[DIRECTION_NAMES[orientation].index(name)]


def opposite_name(orientation: str, name: str) -> str:
    """The geometric opposite of a direction (never the die's opposite face, gap V29)."""
    names = DIRECTION_NAMES[orientation]
    return names[(names.index(name) + 3) % 6]


def add(cell: Cell, step: Cell) -> Cell:
    return (cell[0] + step[0], cell[1] + step[1])


def neighbours_of(cell: Cell) -> tuple[Cell, ...]:
    """The six axial neighbours, on the board or not, clockwise from east."""
    return tuple(add(cell, s) for s in STEPS)


def reading_key(cell: Cell) -> tuple[int, int]:
    """Sort key of the reading order: north row first, west to east (the cell id order)."""
    return (cell[1], cell[0])


_CELL = re.compile(r"^\s*(-?\d{1,3})\s*,\s*(-?\d{1,3})\s*$")


def cell_name(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_cell(text, field: str) -> Cell:
    """A ``"q,r"`` cell name; :class:`BadRequest` naming ``field`` when malformed."""
    if not isinstance(text, str):
        raise BadRequest(field, f"must be a cell written \"q,r\", got {type(text).__name__}")
    m = _CELL.match(text)
    if not m:
        raise BadRequest(field, f"{text[:40]!r} is not a cell written \"q,r\"")
    return (int(m.group(1)), int(m.group(2)))


class ValleeError(RuleError):
    """Any error of the Vallée rules package."""


class BadRequest(MalformedRequest, ValleeError):
    """A request or map file that does not follow its documented form (exit 2)."""


class IllegalRequest(ValleeError):
    """A well-formed request the rules forbid (exit 1); ``rule`` names the rule."""

    code = "illegal_request"

    def __init__(self, message: str, message_fr: str, rule: str):
        super().__init__(message, rule=rule)
        self.message_fr = message_fr

    def to_json(self) -> dict:
        out = super().to_json()
        out["message_fr"] = self.message_fr
        return out

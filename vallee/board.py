"""The valley as data: cells, terrain, regions, letters, rivers on cell edges, the lake,
volcanoes and their lava, the compass rose, and where the map comes from.

:func:`read_map` turns a map file's JSON (format in docs/vallee-api.md, «Map files»)
into a :class:`Valley`, refusing anything not of the documented form
(:class:`~vallee.core.BadRequest`, exit 2); whether the map is a playable valley is the
validator's question (:mod:`vallee.validate`). :func:`sample_valley` is our invented
sample, *not* the published board.

>>> v = sample_valley()
>>> len(v.cells), v.sample, v.terrain[(0, 0)]
(37, True, 'lake')
>>> v.river_between((0, -1), (1, -1)), v.river_between((0, -1), (0, -2))
(1, None)
>>> v.cell_of_letter["A"], v.direction_of_face(3)
((0, -3), 'W')
>>> sorted(v.lava_of((1, -2)))
[(2, -2), (2, -1)]
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path

from .core import (
    DIRECTION_NAMES,
    LAKE,
    ORIENTATIONS,
    TERRAINS,
    BadRequest,
    Cell,
    add,
    direction_step,
    neighbours_of,
    parse_cell,
    reading_key,
)

MAP_FORMAT = "vallee-map/1"
MAX_CELLS = 200
MAPS_DIR = Path(__file__).with_name("maps")
#: Maps shipped with the package, by the name a request may give instead of a whole map.
SHIPPED = {"sample": "sample-valley.json"}
FIELDS = ("format", "name", "title", "sample", "provenance", "grid", "halves", "cells", "rivers",
          "volcanoes", "compass")
PROVENANCE_FIELDS = ("edition", "source", "captured_by", "date")


def edge(a: Cell, b: Cell) -> frozenset:
    """A cell edge, named by the two cells it separates (order does not matter)."""
    return frozenset((a, b))


@dataclass(frozen=True)
class River:
    number: int
    edges: frozenset  # of edge(a, b)
    joins_lake: bool


@dataclass
class Valley:
    """One assembled board. ``letter`` and ``region`` hold only the cells that have one."""

    name: str
    title: dict
    sample: bool
    provenance: dict
    orientation: str
    terrain: dict[Cell, str]
    region: dict[Cell, int]
    letter: dict[Cell, str]
    half: dict[Cell, str]
    halves: dict[str, str]
    rivers: dict[int, River]
    volcanoes: dict[Cell, tuple[Cell, ...]]
    compass: dict[int, str]
    river_of_edge: dict = field(default_factory=dict)

    def __post_init__(self):
        for river in self.rivers.values():
            for e in river.edges:
                self.river_of_edge.setdefault(e, river.number)
        self.cells: tuple[Cell, ...] = tuple(sorted(self.terrain, key=reading_key))
        self.cell_of_letter = {letter: cell for cell, letter in self.letter.items()}
        self.lake = frozenset(c for c, t in self.terrain.items() if t == LAKE)

    # -- geometry -------------------------------------------------------------------
    def on_board(self, cell: Cell) -> bool:
        return cell in self.terrain

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        return tuple(n for n in neighbours_of(cell) if n in self.terrain)

    def step(self, cell: Cell, direction: str) -> Cell:
        """The cell one step away in a named direction (maybe off the board)."""
        return add(cell, direction_step(self.orientation, direction))

    def direction_of_face(self, face: int) -> str:
        """The compass rose: the direction a die face sends the animals (rules §3)."""
        return self.compass[face]

    def on_perimeter(self, cell: Cell) -> bool:
        return len(self.neighbours(cell)) < 6

    def river_between(self, a: Cell, b: Cell):
        """The number of the river on the edge between two cells, or None."""
        return self.river_of_edge.get(edge(a, b))

    def river_banks(self, number: int) -> frozenset:
        """Cells with at least one edge on that river (gap V55)."""
        return frozenset(c for e in self.rivers[number].edges for c in e)

    def on_a_river(self, cell: Cell) -> bool:
        return any(edge(cell, n) in self.river_of_edge for n in self.neighbours(cell))

    def by_the_lake(self, cell: Cell) -> bool:
        return cell not in self.lake and any(n in self.lake for n in self.neighbours(cell))

    def lava_of(self, volcano: Cell) -> tuple[Cell, ...]:
        return self.volcanoes[volcano]

    def region_cells(self, terrain: str, number: int) -> tuple[Cell, ...]:
        """Cells of a region; ``terrain`` is plain, forest or mountain (volcanoes included)."""
        from .core import REGION_TERRAIN

        return tuple(c for c in self.cells
                     if self.region.get(c) == number and REGION_TERRAIN.get(self.terrain[c]) == terrain)


# -- reading a map file -------------------------------------------------------------

def _obj(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise BadRequest(where, f"must be an object, got {type(value).__name__}")
    return value


def _list(value, where: str, most: int = MAX_CELLS * 3) -> list:
    if not isinstance(value, list):
        raise BadRequest(where, f"must be a list, got {type(value).__name__}")
    if len(value) > most:
        raise BadRequest(where, f"has {len(value)} items, at most {most} allowed")
    return value


def _text(value, where: str, longest: int = 200) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > longest:
        raise BadRequest(where, f"must be a non-empty string of at most {longest} characters")
    return value


def _int(value, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(where, f"must be an integer from {low} to {high}, got {value!r}")
    return value


def _known_keys(obj: dict, allowed, where: str, required=()):
    for key in obj:
        if key not in allowed:
            raise BadRequest(f"{where}.{key}" if where else key, "is not a known field")
    for key in required:
        if key not in obj:
            raise BadRequest(f"{where}.{key}" if where else key, "is required")


def _provenance(obj) -> dict:
    obj = _obj(obj, "provenance")
    _known_keys(obj, PROVENANCE_FIELDS + ("note",), "provenance", PROVENANCE_FIELDS)
    out = {key: _text(obj[key], f"provenance.{key}") for key in PROVENANCE_FIELDS}
    try:
        date.fromisoformat(out["date"])
    except ValueError:
        raise BadRequest("provenance.date", "must be a date written YYYY-MM-DD") from None
    if "note" in obj:
        out["note"] = _text(obj["note"], "provenance.note", 2000)
    return out


def _cells(items, orientation):
    terrain, region, letter, half = {}, {}, {}, {}
    duplicates = []
    for i, item in enumerate(_list(items, "cells", MAX_CELLS)):
        where = f"cells.{i}"
        item = _obj(item, where)
        _known_keys(item, ("at", "terrain", "region", "letter", "half"), where, ("at", "terrain"))
        cell = parse_cell(item["at"], f"{where}.at")
        if item["terrain"] not in TERRAINS:
            raise BadRequest(f"{where}.terrain", f"must be one of {', '.join(TERRAINS)}")
        if cell in terrain:
            duplicates.append(cell)
        terrain[cell] = item["terrain"]
        if item.get("region") is not None:
            region[cell] = _int(item["region"], f"{where}.region", -99, 99)
        if item.get("letter") is not None:
            letter[cell] = _text(item["letter"], f"{where}.letter", 1)
        if item.get("half") is not None:
            half[cell] = _text(item["half"], f"{where}.half", 40)
    return terrain, region, letter, half, duplicates


def _rivers(items):
    raw = []
    for i, item in enumerate(_list(items, "rivers", 12)):
        where = f"rivers.{i}"
        item = _obj(item, where)
        _known_keys(item, ("number", "edges", "joins_lake"), where, ("number", "edges"))
        number = _int(item["number"], f"{where}.number", -99, 99)
        joins = item.get("joins_lake", False)
        if not isinstance(joins, bool):
            raise BadRequest(f"{where}.joins_lake", "must be true or false")
        edges = []
        for j, pair in enumerate(_list(item["edges"], f"{where}.edges", 100)):
            if not isinstance(pair, list) or len(pair) != 2:
                raise BadRequest(f"{where}.edges.{j}", "must be a pair of cells [\"q,r\", \"q,r\"]")
            edges.append((parse_cell(pair[0], f"{where}.edges.{j}.0"), parse_cell(pair[1], f"{where}.edges.{j}.1")))
        raw.append((number, edges, joins))
    return raw


def _volcanoes(items):
    out = []
    for i, item in enumerate(_list(items, "volcanoes", 12)):
        where = f"volcanoes.{i}"
        item = _obj(item, where)
        _known_keys(item, ("at", "lava"), where, ("at", "lava"))
        lava = tuple(parse_cell(c, f"{where}.lava.{j}") for j, c in enumerate(_list(item["lava"], f"{where}.lava", 20)))
        out.append((parse_cell(item["at"], f"{where}.at"), lava))
    return out


def _compass(obj, orientation):
    obj = _obj(obj, "compass")
    names = DIRECTION_NAMES[orientation]
    out = {}
    for face in range(1, 7):
        key = str(face)
        if key not in obj:
            raise BadRequest(f"compass.{key}", "is required: every die face 1 to 6 names a direction")
        if obj[key] not in names:
            raise BadRequest(f"compass.{key}", f"must be one of {', '.join(names)} on a {orientation}-top grid")
        out[face] = obj[key]
    _known_keys(obj, [str(f) for f in range(1, 7)], "compass")
    return out


@dataclass
class MapReading:
    """A map file read into a :class:`Valley`, with what the reading had to drop.

    Duplicate cells, repeated river numbers and edges naming the same cell twice are
    kept here for the validator to name, since a dictionary cannot hold them.
    """

    valley: Valley
    duplicate_cells: list
    raw_rivers: list
    raw_volcanoes: list


def read_map_file(obj) -> MapReading:
    """Read a map file's JSON object; :class:`BadRequest` (naming the field) if malformed."""
    obj = _obj(obj, "map")
    _known_keys(obj, FIELDS, "", ("format", "name", "sample", "provenance", "grid", "cells", "rivers",
                                  "volcanoes", "compass"))
    if obj["format"] != MAP_FORMAT:
        raise BadRequest("format", f"must be {MAP_FORMAT!r}")
    name = _text(obj["name"], "name", 60)
    if not isinstance(obj["sample"], bool):
        raise BadRequest("sample", "must be true or false")
    title = _obj(obj.get("title", {"en": name, "fr": name}), "title")
    _known_keys(title, ("en", "fr"), "title", ("en", "fr"))
    title = {lang: _text(title[lang], f"title.{lang}") for lang in ("en", "fr")}
    grid = _obj(obj["grid"], "grid")
    _known_keys(grid, ("orientation", "coordinates"), "grid", ("orientation", "coordinates"))
    if grid["orientation"] not in ORIENTATIONS:
        raise BadRequest("grid.orientation", f"must be one of {', '.join(ORIENTATIONS)}")
    if grid["coordinates"] != "axial":
        raise BadRequest("grid.coordinates", "must be 'axial' (cells written \"q,r\")")
    orientation = grid["orientation"]
    halves = _obj(obj.get("halves", {}), "halves")
    for key, face in halves.items():
        if face not in ("recto", "verso"):
            raise BadRequest(f"halves.{key}", "must be 'recto' or 'verso'")
    terrain, region, letter, half, duplicates = _cells(obj["cells"], orientation)
    raw_rivers = _rivers(obj["rivers"])
    raw_volcanoes = _volcanoes(obj["volcanoes"])
    rivers = {}
    for number, edges, joins in raw_rivers:
        rivers.setdefault(number, River(number, frozenset(edge(a, b) for a, b in edges if a != b), joins))
    valley = Valley(
        name=name, title=title, sample=obj["sample"], provenance=_provenance(obj["provenance"]),
        orientation=orientation, terrain=terrain, region=region, letter=letter, half=half,
        halves=dict(halves), rivers=rivers, volcanoes={c: lava for c, lava in raw_volcanoes},
        compass=_compass(obj["compass"], orientation),
    )
    return MapReading(valley, duplicates, raw_rivers, raw_volcanoes)


@lru_cache(maxsize=None)
def _shipped_text(name: str) -> str:
    return (MAPS_DIR / SHIPPED[name]).read_text(encoding="utf-8")


def shipped_map_json(name: str) -> dict:
    """The JSON of a map shipped with the package (a fresh copy each call)."""
    return json.loads(_shipped_text(name))


def sample_valley() -> Valley:
    """Our invented sample valley: 37 cells exercising every feature; NOT the published board."""
    return read_map_file(shipped_map_json("sample")).valley

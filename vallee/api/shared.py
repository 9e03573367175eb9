"""Readers shared by the ``maamut vallee`` request forms: cells, markers, units, chances."""

from __future__ import annotations

from ..core import BadRequest


def read_cells(value, field: str, valley, most: int = 200) -> frozenset:
    from .. import requests as rq
    from ..core import parse_cell

    out = set()
    for i, text in enumerate(rq.items(value, field, most)):
        cell = parse_cell(text, f"{field}.{i}")
        if not valley.on_board(cell):
            raise BadRequest(f"{field}.{i}", f"cell {text} is not on the map")
        out.add(cell)
    return frozenset(out)


def read_cell(valley, value, field: str):
    from ..core import parse_cell

    cell = parse_cell(value, field)
    if not valley.on_board(cell):
        raise BadRequest(field, f"cell {value} is not on the map")
    return cell


def read_conditions(request, valley, season):
    from .. import requests as rq
    from ..animals import Conditions
    from ..core import SUMMER, WINTER, IllegalRequest

    markers = rq.obj(request.get("markers", {}), "markers")
    rq.only_fields(markers, ("flooded", "burning", "closed", "frozen_rivers", "drought"), "markers")
    frozen = set()
    for i, n in enumerate(rq.items(markers.get("frozen_rivers", []), "markers.frozen_rivers", 6)):
        number = rq.count({i: n}, i, 1, 6, parent="markers.frozen_rivers")
        if number not in valley.rivers:
            raise BadRequest(f"markers.frozen_rivers.{i}", f"the map has no river {number}")
        frozen.add(number)
    drought = rq.flag(markers, "drought", False, "markers")
    if frozen and season != WINTER:
        raise IllegalRequest("a river can only be frozen in winter", "une rivière ne gèle qu'en hiver",
                             "animals.frozen_river")
    if drought and season != SUMMER:
        raise IllegalRequest("a drought only lasts until the end of summer",
                             "une sécheresse ne dure que jusqu'à la fin de l'été", "animals.frozen_river")
    humans = read_cells(request.get("humans", []), "humans", valley)
    conditions = Conditions(humans=humans, flooded=read_cells(markers.get("flooded", []), "markers.flooded", valley),
                            burning=read_cells(markers.get("burning", []), "markers.burning", valley),
                            closed=read_cells(markers.get("closed", []), "markers.closed", valley),
                            frozen_rivers=frozenset(frozen), drought=drought)
    for cell in sorted(humans):
        if cell in valley.lake and not conditions.lake_frozen(valley):
            raise IllegalRequest("humans cannot stand on the lake", "des humains ne peuvent pas être sur le lac",
                                 "animals.obstacle")
    return conditions


def read_units(value, valley, conditions):
    from .. import requests as rq
    from ..animals import Unit
    from ..core import MOUNTAIN, SPECIES, VOLCANO, IllegalRequest, cell_name
    from ..tokens import animals_of

    units, seen, totals = [], set(), {}
    for i, u in enumerate(rq.items(value, "units", 80)):
        where = f"units.{i}"
        rq.only_fields(rq.obj(u, where), ("id", "species", "cell", "count"), where, ("species", "cell"))
        species = rq.species(u["species"], f"{where}.species")
        cell = read_cell(valley, u["cell"], f"{where}.cell")
        count = rq.count(u, "count", 1, animals_of(species), default=1, parent=where)
        uid = u.get("id", f"{species}@{cell_name(cell)}")
        if not isinstance(uid, str) or not 1 <= len(uid) <= 40:
            raise BadRequest(f"{where}.id", "must be a string of 1 to 40 characters")
        if (species, cell) in seen:
            raise IllegalRequest(f"two {species} units on {cell_name(cell)}: they are one herd",
                                 f"deux unités {SPECIES[species].fr} en {cell_name(cell)} : elles forment un seul troupeau",
                                 "animals.herd")
        if uid in {x.id for x in units}:
            raise BadRequest(f"{where}.id", f"id {uid!r} is used twice")
        terrain = valley.terrain[cell]
        if cell in valley.lake or cell in conditions.flooded or cell in conditions.burning or (
                terrain in (MOUNTAIN, VOLCANO) and not SPECIES[species].enters_mountains):
            raise IllegalRequest(f"a {species} cannot stand on {cell_name(cell)}",
                                 f"un {SPECIES[species].fr} ne peut pas se trouver en {cell_name(cell)}",
                                 "animals.obstacle")
        totals[species] = totals.get(species, 0) + count
        if totals[species] > animals_of(species):
            raise IllegalRequest(f"more {species} animals than the box holds ({animals_of(species)})",
                                 f"plus d'animaux {SPECIES[species].fr} que la boîte n'en contient ({animals_of(species)})",
                                 "pieces.animals")
        seen.add((species, cell))
        units.append(Unit(uid, species, cell, count))
    return units


def chance(value) -> dict:
    """An exact probability and its rounded percentage."""
    return {"exact": f"{value.numerator}/{value.denominator}", "percent": round(float(value) * 100, 2)}

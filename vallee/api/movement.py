"""Request forms of movement: ``animals`` (the animal phase) and ``move`` (a tribe's group)."""

from __future__ import annotations

from ..core import BadRequest
from .shared import read_cell, read_cells, read_conditions, read_units


def animals(request) -> dict:
    """``maamut vallee animals``: every unit's path, end cell and stop reason, herds, fields."""
    from .. import requests as rq
    from ..animals import DAMAGED, INTACT, Field, move_animals
    from ..core import SUMMER, WINTER, IllegalRequest, cell_name

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "die", "season", "units", "humans", "markers", "fields", "variants"), "",
                   ("map", "die", "season", "units"))
    valley = rq.valley(request)
    variants = rq.variants(request)
    face = rq.count(request, "die", 1, 6)
    season = rq.choice(request, "season", (SUMMER, WINTER), None)
    conditions = read_conditions(request, valley, season)
    units = read_units(request.get("units"), valley, conditions)
    fields = []
    for i, f in enumerate(rq.items(request.get("fields", []), "fields", 20)):
        where = f"fields.{i}"
        rq.only_fields(rq.obj(f, where), ("cell", "state", "palisade"), where, ("cell",))
        cell = read_cell(valley, f["cell"], f"{where}.cell")
        if any(x.cell == cell for x in fields):
            raise IllegalRequest(f"two fields on cell {f['cell']}", f"deux champs sur la case {f['cell']}",
                                 "animals.trample")
        fields.append(Field(cell, rq.choice(f, "state", (INTACT, DAMAGED), INTACT, where),
                            rq.flag(f, "palisade", False, where)))
    phase = move_animals(valley, conditions, face, units, fields, variants)
    return {
        "die": face, "direction": phase.direction, "season": season,
        "units": [_move_json(m) for m in phase.moves],
        "herds": [{"species": h.species, "cell": cell_name(h.cell), "units": list(h.units), "count": h.count}
                  for h in phase.herds],
        "fields": [{"cell": cell_name(f.cell), "before": f.before, "after": f.after, "by": list(f.by),
                    "protected": f.protected} for f in phase.fields],
        "order": {s: list(ids) for s, ids in phase.order.items()},
        "alternatives": [{"species": o.species, "order": list(o.order), "units_after": o.units_after,
                          "ends": {uid: cell_name(c) for uid, c in o.ends.items()}}
                         for o in phase.alternatives],
    }


def _move_json(m) -> dict:
    from ..core import SPECIES, cell_name

    out = {"id": m.unit.id, "species": m.unit.species, "count": m.unit.count, "start": cell_name(m.unit.cell),
           "direction": m.walk.direction, "reversed": m.walk.reversed, "path": [cell_name(c) for c in m.path],
           "end": cell_name(m.end), "stop": m.stop, "obstacle": m.walk.obstacle if m.stop == "obstacle" else None,
           "trampled": [cell_name(c) for c in m.trampled], "rule": m.rule}
    out["en"], out["fr"] = _explain_move(m, SPECIES[m.unit.species])
    return out


_STOP_EN = {"range": "it has walked its full range", "humans": "it entered a cell with humans",
            "herd": "it joined animals of its species that end there", "frozen_lake": "it may not stop on the frozen lake",
            "pinned": "humans share its cell", "blocked": "both directions are barred"}
_STOP_FR = {"range": "il a parcouru toute sa distance", "humans": "il est entré sur une case occupée par des humains",
            "herd": "il a rejoint des animaux de son espèce qui s'y arrêtent",
            "frozen_lake": "il ne peut pas s'arrêter sur le lac gelé",
            "pinned": "des humains sont sur sa case", "blocked": "les deux directions sont barrées"}
_OBSTACLE_EN = {"edge": "the board's edge", "river": "a river", "lake": "the lake", "flooded": "a flooded cell",
                "burning": "a burning cell", "closed": "a closed cell", "mountain": "a mountain"}
_OBSTACLE_FR = {"edge": "le bord du plateau", "river": "une rivière", "lake": "le lac", "flooded": "une case inondée",
                "burning": "une case incendiée", "closed": "une case fermée", "mountain": "une montagne"}


def _explain_move(m, kind):
    from ..core import cell_name

    who_en, who_fr = f"{kind.name} {m.unit.id}", f"{kind.fr} {m.unit.id}"
    if not m.path:
        reason_en = _STOP_EN.get(m.stop, "its first step is barred")
        reason_fr = _STOP_FR.get(m.stop, "son premier pas est barré")
        return f"{who_en} stays on {cell_name(m.unit.cell)}: {reason_en}.", \
            f"{who_fr} reste en {cell_name(m.unit.cell)} : {reason_fr}."
    turn_en = " (turned back: its first step was barred)" if m.walk.reversed else ""
    turn_fr = " (demi-tour : son premier pas était barré)" if m.walk.reversed else ""
    if m.stop == "obstacle":
        reason_en, reason_fr = f"{_OBSTACLE_EN[m.walk.obstacle]} bars the way", f"{_OBSTACLE_FR[m.walk.obstacle]} barre la route"
    else:
        reason_en, reason_fr = _STOP_EN[m.stop], _STOP_FR[m.stop]
    cells = " → ".join(cell_name(c) for c in (m.unit.cell,) + m.path)
    return (f"{who_en} goes {m.walk.direction}{turn_en}: {cells}; it stops on {cell_name(m.end)}: {reason_en}.",
            f"{who_fr} va vers {m.walk.direction}{turn_fr} : {cells} ; il s'arrête en {cell_name(m.end)} : {reason_fr}.")


def _pair(value, field: str, most_w: int = 10, most_f: int = 6):
    from .. import requests as rq

    rq.only_fields(rq.obj(value, field), ("warriors", "women"), field)
    return (rq.count(value, "warriors", 0, most_w, 0, field), rq.count(value, "women", 0, most_f, 0, field))


def move(request) -> dict:
    """``maamut vallee move``: whether one group's move is legal, and where it stops."""
    from rulekit.players import PLAYER_ID_RULE, is_player_id

    from .. import requests as rq
    from ..core import SUMMER, WINTER, cell_name
    from ..tribes import BRIDGE_CARDS, LONG_MARCH_CARDS, Board, Limits, Move, check_move

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "season", "pieces", "animals", "markers", "events", "cards", "move", "variants"), "",
                   ("map", "season", "pieces", "move"))
    valley = rq.valley(request)
    variants = rq.variants(request)
    season = rq.choice(request, "season", (SUMMER, WINTER), None)
    markers = dict(rq.obj(request.get("markers", {}), "markers"))
    frozen = read_cells(markers.pop("frozen", []), "markers.frozen", valley, 40)
    conditions = read_conditions({"markers": markers}, valley, season)
    pawns = {}
    for key, tribes in rq.obj(request["pieces"], "pieces").items():
        cell = read_cell(valley, key, f"pieces.{key}")
        pawns[cell] = {}
        for name, pair in rq.obj(tribes, f"pieces.{key}").items():
            if not is_player_id(name):
                raise BadRequest(f"pieces.{key}.{str(name)[:24]}", PLAYER_ID_RULE)
            pawns[cell][name] = _pair(pair, f"pieces.{key}.{name}")
    animals = {}
    for key, n in rq.obj(request.get("animals", {}), "animals").items():
        animals[read_cell(valley, key, f"animals.{key}")] = rq.count({key: n}, key, 1, 40, parent="animals")
    events = rq.obj(request.get("events", {}), "events")
    rq.only_fields(events, ("blizzard", "tempete", "orages"), "events")
    calm = not (rq.flag(events, "tempete", parent="events") or rq.flag(events, "orages", parent="events"))
    max_cells = 0 if rq.flag(events, "blizzard", parent="events") else 2 if calm else 1
    cards = tuple(rq.choice({j: c}, j, BRIDGE_CARDS + LONG_MARCH_CARDS, None, "cards")
                  for j, c in enumerate(rq.items(request.get("cards", []), "cards", 3)))
    m = rq.obj(request["move"], "move")
    rq.only_fields(m, ("tribe", "from", "path", "warriors", "women", "leave"), "move", ("tribe", "from", "path"))
    path = tuple(read_cell(valley, c, f"move.path.{i}") for i, c in enumerate(rq.items(m["path"], "move.path", 3)))
    leave = {}
    for key, pair in rq.obj(m.get("leave", {}), "move.leave").items():
        cell = read_cell(valley, key, f"move.leave.{key}")
        if cell not in path[:-1]:
            raise BadRequest(f"move.leave.{key}", "pawns are left only on cells the group passes through")
        leave[cell] = _pair(pair, f"move.leave.{key}")
    if not is_player_id(m["tribe"]):
        raise BadRequest("move.tribe", PLAYER_ID_RULE)
    group = Move(m["tribe"], read_cell(valley, m["from"], "move.from"), path, rq.count(m, "warriors", 0, 10, 0, "move"),
                 rq.count(m, "women", 0, 6, 0, "move"), leave)
    checked = check_move(valley, Board(pawns, animals), group, conditions, Limits(season, max_cells, cards, frozen),
                         variants)
    return {"legal": True, "end": cell_name(checked.end),
            "stops": [{"cell": cell_name(c), "stop": why} for c, why in checked.stops]}

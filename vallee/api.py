"""The request/response forms of ``maamut vallee …`` (documented in docs/vallee-api.md).

Every handler takes the decoded JSON request and returns ``(exit code, response)``, with
exit codes as ``maamut resolve``: 0 answered, 1 the rules forbid it (``error.rule``),
2 malformed (``error.field``).

>>> code, out = map_check_request(__import__("vallee.board").board.shipped_map_json("sample"))
>>> code, out["ok"], out["cells"], out["problems"]
(0, True, 37, [])
>>> map_check_request({"format": "vallee-map/1"})[1]["error"]["field"]
'name'
"""

from __future__ import annotations

from .core import BadRequest, ValleeError
from .validate import map_problems
from .board import read_map_file

EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED = 0, 1, 2


def answer(handler, request) -> tuple[int, dict]:
    """Run a handler on a request, turning the package's errors into their exit code and JSON."""
    try:
        return EXIT_OK, {"ok": True, **handler(request)}
    except BadRequest as exc:
        return EXIT_MALFORMED, {"ok": False, "error": exc.to_json()}
    except ValleeError as exc:
        return EXIT_ILLEGAL, {"ok": False, "error": exc.to_json()}


def map_check_request(request) -> tuple[int, dict]:
    """Validate a map file's JSON: exit 0 valid, 1 with every problem named, 2 malformed."""
    try:
        found = map_problems(request)
    except BadRequest as exc:
        return EXIT_MALFORMED, {"ok": False, "error": exc.to_json()}
    valley = read_map_file(request).valley
    summary = {"map": valley.name, "sample": valley.sample, "title": valley.title, "cells": len(valley.cells),
               "rivers": len(valley.rivers), "volcanoes": len(valley.volcanoes),
               "problems": [p.to_json() for p in found]}
    if not found:
        return EXIT_OK, {"ok": True, **summary}
    error = {"code": "invalid_map", "rule": "map.valid",
             "message": f"{len(found)} problems: the map is not a playable valley",
             "message_fr": f"{len(found)} problèmes : la carte n'est pas une vallée jouable"}
    return EXIT_ILLEGAL, {"ok": False, **summary, "error": error}


# -- calendar --------------------------------------------------------------------------

def calendar(request) -> dict:
    """``maamut vallee calendar``: the phases, season and arrivals of one game turn."""
    from . import requests as rq
    from .calendar import MAX_TURN, PHASE_EN, PHASE_FR, PHASES, turn_info

    request = rq.obj(request, "request")
    rq.only_fields(request, ("turn", "players", "held", "variants"), "", ("turn",))
    turn = rq.count(request, "turn", 1, MAX_TURN)
    players = rq.count(request, "players", 2, 6, default=4)
    held = [rq.count({i: t}, i, 1, MAX_TURN, parent="held")
            for i, t in enumerate(rq.items(request.get("held", []), "held", 200))]
    info = turn_info(turn, players, held, rq.variants(request))
    phases = []
    for number, phase in enumerate(PHASES, 1):
        rule = {"births": "calendar.season_end", "sowing": "calendar.season_end",
                "tricks": "calendar.season_end"}.get(phase, f"phase.{phase}")
        phases.append({"number": number, "phase": phase, "runs": info.runs(phase), "rule": rule,
                       "name_en": PHASE_EN[phase], "name_fr": PHASE_FR[phase]})
    return {"turn": info.turn, "year": info.year, "season": info.season, "season_turn": info.season_turn,
            "extra_turn": info.extra_turn, "held": info.held, "ends_season": info.ends_season,
            "deck": info.deck, "arrivals": info.arrivals, "players": info.players, "harvest": info.harvest,
            "return_window": info.return_window, "phases": phases}


# -- animal movement -------------------------------------------------------------------

def _cells(value, field: str, valley, most: int = 200) -> frozenset:
    from . import requests as rq
    from .core import parse_cell

    out = set()
    for i, text in enumerate(rq.items(value, field, most)):
        cell = parse_cell(text, f"{field}.{i}")
        if not valley.on_board(cell):
            raise BadRequest(f"{field}.{i}", f"cell {text} is not on the map")
        out.add(cell)
    return frozenset(out)


def _cell_on(valley, value, field: str):
    from .core import parse_cell

    cell = parse_cell(value, field)
    if not valley.on_board(cell):
        raise BadRequest(field, f"cell {value} is not on the map")
    return cell


def animals(request) -> dict:
    """``maamut vallee animals``: every unit's path, end cell and stop reason, herds, fields."""
    from . import requests as rq
    from .animals import DAMAGED, INTACT, Field, move_animals
    from .core import SUMMER, WINTER, IllegalRequest, cell_name

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "die", "season", "units", "humans", "markers", "fields", "variants"), "",
                   ("map", "die", "season", "units"))
    valley = rq.valley(request)
    variants = rq.variants(request)
    face = rq.count(request, "die", 1, 6)
    season = rq.choice(request, "season", (SUMMER, WINTER), None)
    conditions = _conditions(request, valley, season)
    units = _units(request.get("units"), valley, conditions)
    fields = []
    for i, f in enumerate(rq.items(request.get("fields", []), "fields", 20)):
        where = f"fields.{i}"
        rq.only_fields(rq.obj(f, where), ("cell", "state", "palisade"), where, ("cell",))
        cell = _cell_on(valley, f["cell"], f"{where}.cell")
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


def _conditions(request, valley, season):
    from . import requests as rq
    from .animals import Conditions
    from .core import SUMMER, WINTER, IllegalRequest

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
    humans = _cells(request.get("humans", []), "humans", valley)
    conditions = Conditions(humans=humans, flooded=_cells(markers.get("flooded", []), "markers.flooded", valley),
                            burning=_cells(markers.get("burning", []), "markers.burning", valley),
                            closed=_cells(markers.get("closed", []), "markers.closed", valley),
                            frozen_rivers=frozenset(frozen), drought=drought)
    for cell in sorted(humans):
        if cell in valley.lake and not conditions.lake_frozen(valley):
            raise IllegalRequest("humans cannot stand on the lake", "des humains ne peuvent pas être sur le lac",
                                 "animals.obstacle")
    return conditions


def _units(value, valley, conditions):
    from . import requests as rq
    from .animals import Unit
    from .core import MOUNTAIN, SPECIES, VOLCANO, IllegalRequest, cell_name
    from .tokens import animals_of

    units, seen, totals = [], set(), {}
    for i, u in enumerate(rq.items(value, "units", 80)):
        where = f"units.{i}"
        rq.only_fields(rq.obj(u, where), ("id", "species", "cell", "count"), where, ("species", "cell"))
        species = rq.species(u["species"], f"{where}.species")
        cell = _cell_on(valley, u["cell"], f"{where}.cell")
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


def _move_json(m) -> dict:
    from .core import SPECIES, cell_name
    from .rulebook import RULES

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
    from .core import cell_name

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


# -- combat ---------------------------------------------------------------------------

def chance(value) -> dict:
    """An exact probability and its rounded percentage."""
    return {"exact": f"{value.numerator}/{value.denominator}", "percent": round(float(value) * 100, 2)}


def _tribes(value):
    from rulekit.players import PLAYER_ID_RULE, is_player_id

    from . import requests as rq
    from .combat import CARDS, MAX_WOMEN, Tribe
    from .core import IllegalRequest

    tribes = []
    for i, t in enumerate(rq.items(value, "tribes", 6)):
        where = f"tribes.{i}"
        rq.only_fields(rq.obj(t, where), ("name", "warriors", "women", "camp", "fire", "cards", "women_in_reserve"),
                       where, ("name",))
        name = t["name"]
        if not is_player_id(name) or name == "animals":
            raise BadRequest(f"{where}.name", f"{str(name)[:30]!r} {PLAYER_ID_RULE} (and is not 'animals')")
        if name in {x.name for x in tribes}:
            raise BadRequest(f"{where}.name", f"tribe {name!r} is listed twice")
        cards = tuple(rq.choice({j: c}, j, CARDS, None, f"{where}.cards")
                      for j, c in enumerate(rq.items(t.get("cards", []), f"{where}.cards", 8)))
        reserve = t.get("women_in_reserve")
        tribe = Tribe(name, rq.count(t, "warriors", 0, 10, 0, where), rq.count(t, "women", 0, MAX_WOMEN, 0, where),
                      rq.choice(t, "camp", (None, "village", "cave"), None, where), rq.flag(t, "fire", False, where),
                      cards, None if reserve is None else rq.count(t, "women_in_reserve", 0, MAX_WOMEN, parent=where))
        tribe.check()
        tribes.append(tribe)
    if sum(1 for t in tribes if t.camp) > 1:
        raise IllegalRequest("two camps on one cell", "deux camps sur une même case", "camps.one_per_cell")
    return tribes


def combat(request) -> dict:
    """``maamut vallee combat``: exact odds for one cell, and its fight played from given dice."""
    from . import requests as rq
    from .combat import POLICIES, cell_odds
    from .core import IllegalRequest
    from .tokens import animals_of

    request = rq.obj(request, "request")
    rq.only_fields(request, ("tribes", "animals", "species_order", "loss_policy", "lean_meat", "rolls", "losses",
                             "variants"), "", ("tribes",))
    tribes = _tribes(request["tribes"])
    animals = {}
    for species, n in rq.obj(request.get("animals", {}), "animals").items():
        rq.species(species, f"animals.{species}")
        animals[species] = rq.count({species: n}, species, 1, animals_of(species), parent="animals")
    order = request.get("species_order", list(animals))
    if not isinstance(order, list) or sorted(order) != sorted(animals):
        raise BadRequest("species_order", "must list each species of animals once, in fighting order")
    policy = rq.choice(request, "loss_policy", POLICIES, "women_first")
    lean = rq.flag(request, "lean_meat")
    variants = rq.variants(request)
    parties = sum(1 for t in tribes if t.pawns) + (1 if animals else 0)
    if parties < 2 or not any(t.pawns for t in tribes):
        raise IllegalRequest("no combat: the cell needs two tribes, or a tribe and animals",
                             "pas de combat : il faut deux tribus, ou une tribu et des animaux, sur la case",
                             "combat.none")
    out = {"odds": _odds_json(cell_odds(tribes, animals, order, policy, lean, variants))}
    if "rolls" in request:
        losses = rq.items(request.get("losses", []), "losses", 40)
        out["play"] = _play_json(tribes, animals, order, rq.items(request["rolls"], "rolls", 400), losses,
                                 policy, lean, variants)
    elif "losses" in request:
        raise BadRequest("losses", "only goes with rolls")
    return out


def _odds_json(odds) -> dict:
    return {
        "holder": {k: chance(v) for k, v in odds.holder.items()},
        "by_policy": {p: {k: chance(v) for k, v in h.items()} for p, h in odds.by_policy.items()},
        "survivors": [{"holder": h, "warriors": w, "women": f, **chance(q)}
                      for (h, w, f), q in sorted(odds.survivors.items(), key=lambda kv: (-kv[1], kv[0]))],
        "hunting_food": {k: round(float(v), 3) for k, v in odds.food.items()},
        "expected_rolls": round(float(odds.expected_rolls), 3),
        "tribe_fight": {"kind": odds.stage.kind, "fighters": list(odds.stage.fighters)},
    }


def _play_json(tribes, animals, order, rolls, losses, policy, lean, variants) -> dict:
    from dataclasses import replace

    from .combat import _cell_odds
    from .combat_play import play_cell

    log = play_cell(tribes, animals, order, rolls, losses, lean, variants)
    out = {"rolls": log.rolls, "done": log.done, "holder": log.holder, "awaiting": log.awaiting,
           "state": {k: (list(v) if k != "animals" else dict(v)) for k, v in log.state.items()},
           "captured": log.captured, "food": log.food}
    if log.done:
        return out
    if log.stage == "tribes":
        now = [replace(t, warriors=log.state[t.name][0], women=log.state[t.name][1]) for t in tribes]
        out["odds_now"] = {k: chance(v) for k, v in _cell_odds(now, animals, order, policy, lean, variants).holder.items()}
        return out
    holder = next(t for t in tribes if t.name == log.fighter)
    rest = [s for s in order[order.index(log.stage):] if log.state["animals"][s]]
    left = {s: log.state["animals"][s] for s in rest}
    w, f = log.state[holder.name]
    if log.awaiting["kind"] == "loss":
        out["next_loss"] = {}
        for pawn, (w2, f2) in (("warrior", (w - 1, f)), ("woman", (w, f - 1))):
            after = replace(holder, warriors=w2, women=f2)
            out["next_loss"][pawn] = chance(_cell_odds([after], left, rest, policy, lean, variants).holder[holder.name])
    else:
        now = replace(holder, warriors=w, women=f)
        out["odds_now"] = {k: chance(v) for k, v in _cell_odds([now], left, rest, policy, lean, variants).holder.items()}
    return out


# -- survival -----------------------------------------------------------------------------

def survival(request) -> dict:
    """``maamut vallee survival``: one tribe's food ledger for a turn, the balance, who starves."""
    from . import requests as rq
    from .calendar import MAX_TURN, turn_info
    from .core import SUMMER, WINTER, IllegalRequest, cell_name
    from .survival import SURVIVAL_CARDS, Situation, survival_ledger

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "turn", "held", "tribe", "fields", "events", "fire_rules", "variants"), "",
                   ("map", "turn", "tribe"))
    valley = rq.valley(request)
    variants = rq.variants(request)
    held = [rq.count({i: t}, i, 1, MAX_TURN, parent="held")
            for i, t in enumerate(rq.items(request.get("held", []), "held", 200))]
    info = turn_info(rq.count(request, "turn", 1, MAX_TURN), held=held, variants=variants)
    tribe = rq.obj(request["tribe"], "tribe")
    rq.only_fields(tribe, ("name", "food", "fire", "cells", "cards"), "tribe", ("food", "cells"))
    food = rq.count(tribe, "food", 0, 10_000, parent="tribe")
    cells = {}
    for i, c in enumerate(rq.items(tribe["cells"], "tribe.cells", 40)):
        where = f"tribe.cells.{i}"
        rq.only_fields(rq.obj(c, where), ("cell", "warriors", "women"), where, ("cell",))
        cell = _cell_on(valley, c["cell"], f"{where}.cell")
        if cell in cells:
            raise BadRequest(f"{where}.cell", f"cell {c['cell']} is listed twice")
        if cell in valley.lake:
            raise IllegalRequest("pawns cannot stand on the lake", "des pions ne peuvent pas être sur le lac",
                                 "survival.fishing")
        cells[cell] = (rq.count(c, "warriors", 0, 10, 0, where), rq.count(c, "women", 0, 6, 0, where))
    if sum(w for w, _ in cells.values()) > 10 or sum(f for _, f in cells.values()) > 6:
        raise IllegalRequest("a tribe has at most 10 warriors and 6 women", "une tribu a au plus 10 guerriers et 6 femmes",
                             "pieces.tribe")
    cards = tuple(rq.choice({j: c}, j, SURVIVAL_CARDS, None, "tribe.cards")
                  for j, c in enumerate(rq.items(tribe.get("cards", []), "tribe.cards", 3)))
    events = rq.obj(request.get("events", {}), "events")
    rq.only_fields(events, ("drought", "cold_snap", "good_rains"), "events")
    situation = Situation(info.season, info.harvest, rq.flag(events, "drought", parent="events"),
                          rq.flag(events, "cold_snap", parent="events"), rq.flag(events, "good_rains", parent="events"),
                          rq.flag(request, "fire_rules"), rq.flag(tribe, "fire", parent="tribe"), cards)
    if situation.drought and info.season != SUMMER:
        raise IllegalRequest("a drought only lasts until the end of summer",
                             "une sécheresse ne dure que jusqu'à la fin de l'été", "survival.drought")
    if situation.cold_snap and info.season != WINTER:
        raise IllegalRequest("the cold snap is a winter event", "la froidure est un événement d'hiver", "survival.cold")
    if situation.has_fire and not situation.fire_rules:
        raise IllegalRequest("fire is held only with the fire rules", "on n'a le feu qu'avec les règles du feu",
                             "survival.cold")
    fields = {}
    for i, f in enumerate(rq.items(request.get("fields", []), "fields", 20)):
        where = f"fields.{i}"
        rq.only_fields(rq.obj(f, where), ("cell", "state"), where, ("cell",))
        cell = _cell_on(valley, f["cell"], f"{where}.cell")
        if cell in fields:
            raise BadRequest(f"{where}.cell", f"two fields on cell {f['cell']}")
        fields[cell] = rq.choice(f, "state", ("intact", "damaged"), "intact", where)
    ledger = survival_ledger(valley, situation, food, cells, fields, variants)
    return {
        "turn": info.turn, "season": info.season, "harvest": info.harvest,
        "lines": [{"item": l.item, "cell": cell_name(l.cell) if l.cell else None, "food": l.food, **l.detail,
                   "rule": l.rule, **_ledger_text(l)} for l in ledger.lines],
        "income": ledger.income, "cost": ledger.cost, "balance": ledger.balance, "food_before": ledger.food_before,
        "starve": ledger.starve, "food_after": ledger.food_after, "fields_removed": info.harvest,
    }


def _ledger_text(l) -> dict:
    from .core import cell_name

    where = cell_name(l.cell) if l.cell else ""
    if l.item == "fishing":
        by_en = " and ".join(x for x, on in (("a river", l.detail["river"]), ("the lake", l.detail["lake"])) if on)
        by_fr = " et ".join(x for x, on in (("d'une rivière", l.detail["river"]), ("du lac", l.detail["lake"])) if on)
        net_en, net_fr = (" with the net", " avec le filet") if l.rule == "survival.net" else ("", "")
        return {"en": f"fishing on {where}, by {by_en}{net_en}: +{l.food}",
                "fr": f"pêche en {where}, au bord {by_fr}{net_fr} : +{l.food}"}
    if l.item == "gathering":
        return {"en": f"gathering in the forest on {where}: +{l.food}", "fr": f"cueillette en forêt en {where} : +{l.food}"}
    if l.item == "harvest":
        state_fr = "intact" if l.detail["field"] == "intact" else "endommagé"
        return {"en": f"harvest of the {l.detail['field']} field on {where}: +{l.food}",
                "fr": f"récolte du champ {state_fr} en {where} : +{l.food}"}
    per = l.detail["per_pawn"]
    return {"en": f"{l.detail['pawns']} pawns eat {per} each{' (total rounded down)' if per == '1.5' else ''}: {l.food}",
            "fr": f"{l.detail['pawns']} pions mangent {per.replace('.', ',')} chacun"
                  f"{' (total arrondi vers le bas)' if per == '1.5' else ''} : {l.food}"}


# -- events -------------------------------------------------------------------------------

def event(request) -> dict:
    """``maamut vallee event``: an event card's text and the cells it hits for a die face."""
    from . import requests as rq
    from .core import MOUNTAIN, VOLCANO, IllegalRequest, cell_name
    from .events import CARDS, target

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "card", "die", "caves"), "", ("map", "card"))
    valley = rq.valley(request)
    card = CARDS.get(request["card"]) if isinstance(request["card"], str) else None
    if card is None:
        raise BadRequest("card", f"must be one of {', '.join(CARDS)}")
    if card.die is None and "die" in request:
        raise BadRequest("die", f"{card.id} rolls no die")
    if card.die is not None and "die" not in request:
        raise BadRequest("die", f"is required: {card.id} rolls a die")
    die = rq.count(request, "die", 1, 6) if card.die else None
    caves = _cells(request.get("caves", []), "caves", valley, 30)
    for cell in sorted(caves):
        if valley.terrain[cell] not in (MOUNTAIN, VOLCANO):
            raise IllegalRequest(f"a camp on {cell_name(cell)} is a village, not a cave",
                                 f"un camp en {cell_name(cell)} est un village, pas une grotte", "camps.kind")
    hit = target(valley, card, die, caves)
    return {"card": card.id, "title": card.title, "deck": card.deck, "copies": card.copies, "die": die,
            "die_picks": card.die, "lasts": card.lasts, "fire_text": card.fire_text,
            "cells": [cell_name(c) for c in hit.cells], "reroll": hit.reroll, "river": hit.river,
            "lake_freezes": hit.lake, "rule": f"event.{card.id}", "en": card.en, "fr": card.fr}


# -- arrivals -----------------------------------------------------------------------------

def _token(value, field: str):
    from . import requests as rq
    from .arrivals import Token
    from .core import IllegalRequest, SPECIES
    from .tokens import DEFAULT_TOKENS

    rq.only_fields(rq.obj(value, field), ("species", "letter"), field, ("species", "letter"))
    species = rq.species(value["species"], f"{field}.species")
    letter = value["letter"]
    if letter not in DEFAULT_TOKENS[species]:
        raise IllegalRequest(f"no {species} token carries the letter {str(letter)[:3]!r}",
                             f"aucun pion {SPECIES[species].fr} ne porte la lettre {str(letter)[:3]!r}", "pieces.animals")
    return Token(species, letter)


def arrivals(request) -> dict:
    """``maamut vallee arrivals``: the animals drawn this turn placed on their letters' cells."""
    from . import requests as rq
    from .arrivals import draw, full_bag, place_arrivals
    from .calendar import MAX_TURN, turn_info
    from .core import SUMMER, WINTER, IllegalRequest, cell_name

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "turn", "players", "held", "units", "humans", "markers", "events", "drawn",
                             "seed", "bag", "variants"), "", ("map", "turn"))
    valley = rq.valley(request)
    variants = rq.variants(request)
    held = [rq.count({i: t}, i, 1, MAX_TURN, parent="held")
            for i, t in enumerate(rq.items(request.get("held", []), "held", 200))]
    info = turn_info(rq.count(request, "turn", 1, MAX_TURN), rq.count(request, "players", 2, 6, 4), held, variants)
    conditions = _conditions(request, valley, info.season)
    units = _units(request.get("units", []), valley, conditions)
    events = rq.obj(request.get("events", {}), "events")
    rq.only_fields(events, ("viande_rare", "epizootie"), "events")
    rare = rq.flag(events, "viande_rare", parent="events")
    sick = events.get("epizootie")
    if sick is not None:
        rq.species(sick, "events.epizootie")
    if rare and info.season != WINTER:
        raise IllegalRequest("Viande rare is a winter card", "Viande rare est une carte d'hiver", "event.viande_rare")
    if sick and info.season != SUMMER:
        raise IllegalRequest("Épizootie is a summer card", "Épizootie est une carte d'été", "event.epizootie")
    expected = 0 if rare else info.arrivals
    if ("drawn" in request) == ("seed" in request):
        raise BadRequest("drawn", "give either the tokens drawn (drawn) or a seed for a virtual draw (seed)")
    if "drawn" in request:
        drawn = [_token(t, f"drawn.{i}") for i, t in enumerate(rq.items(request["drawn"], "drawn", 6))]
        bag = []
        if len(drawn) > expected:
            raise IllegalRequest(f"{len(drawn)} animals drawn, {expected} arrive this turn",
                                 f"{len(drawn)} animaux tirés, {expected} arrivent ce tour", "phase.arrivals")
        seed = None
    else:
        seed = rq.count(request, "seed", 0, 2**53)
        bag = ([_token(t, f"bag.{i}") for i, t in enumerate(rq.items(request["bag"], "bag", 54))]
               if "bag" in request else full_bag())
        drawn = draw(bag, expected, seed)
    if len(set(drawn)) != len(drawn) or ("bag" in request and len(set(bag)) != len(bag)):
        raise IllegalRequest("a token can be drawn only once", "un pion ne peut être tiré qu'une fois", "pieces.animals")
    result = place_arrivals(valley, drawn, units, conditions, variants, sick)
    return {
        "turn": info.turn, "season": info.season, "expected": expected, "seed": seed,
        "drawn": [{"species": t.species, "letter": t.letter} for t in drawn],
        "placements": [{"species": p.token.species, "letter": p.token.letter, "cell": cell_name(p.cell),
                        "outcome": p.outcome, "unit": p.unit} for p in result.placements],
        "units": [{"id": u.id, "species": u.species, "cell": cell_name(u.cell), "count": u.count} for u in result.units],
        "back_to_bag": [{"species": t.species, "letter": t.letter} for t in result.back_to_bag],
    }


# -- births ---------------------------------------------------------------------------------

def births(request) -> dict:
    """``maamut vallee births``: one tribe's births at the end of a season, from given dice."""
    from . import requests as rq
    from .births import MAX_WARRIORS, MAX_WOMEN, Camp, resolve_births
    from .calendar import MAX_TURN, turn_info
    from .core import MOUNTAIN, VOLCANO, IllegalRequest, cell_name

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "turn", "held", "tribe", "rolls", "variants"), "", ("map", "turn", "tribe"))
    valley = rq.valley(request)
    variants = rq.variants(request)
    held = [rq.count({i: t}, i, 1, MAX_TURN, parent="held")
            for i, t in enumerate(rq.items(request.get("held", []), "held", 200))]
    info = turn_info(rq.count(request, "turn", 1, MAX_TURN), held=held, variants=variants)
    tribe = rq.obj(request["tribe"], "tribe")
    rq.only_fields(tribe, ("name", "warriors", "women", "camps", "cards", "chosen"), "tribe",
                   ("warriors", "women", "camps"))
    warriors = rq.count(tribe, "warriors", 0, MAX_WARRIORS, parent="tribe")
    women = rq.count(tribe, "women", 0, MAX_WOMEN, parent="tribe")
    camps = []
    for i, c in enumerate(rq.items(tribe["camps"], "tribe.camps", 5)):
        where = f"tribe.camps.{i}"
        rq.only_fields(rq.obj(c, where), ("cell", "women"), where, ("cell", "women"))
        cell = _cell_on(valley, c["cell"], f"{where}.cell")
        if cell in valley.lake or any(x.cell == cell for x in camps):
            raise BadRequest(f"{where}.cell", "a camp stands on land, one per cell")
        kind = "cave" if valley.terrain[cell] in (MOUNTAIN, VOLCANO) else "village"
        camps.append(Camp(cell, kind, rq.count(c, "women", 0, MAX_WOMEN, parent=where)))
    if sum(c.women for c in camps) > women:
        raise BadRequest("tribe.women", "is fewer than the women in its camps")
    cards = [rq.choice({j: c}, j, ("herbes_de_fertilite", "bonnes_herbes"), None, "tribe.cards")
             for j, c in enumerate(rq.items(tribe.get("cards", []), "tribe.cards", 2))]
    chosen = {}
    for key, sex in rq.obj(tribe.get("chosen", {}), "tribe.chosen").items():
        cell = _cell_on(valley, key, f"tribe.chosen.{key}")
        chosen[cell] = rq.choice({key: sex}, key, ("woman", "warrior"), None, "tribe.chosen")
    if chosen and ("bonnes_herbes" not in cards or len(chosen) > 1 or not set(chosen) <= {c.cell for c in camps}):
        raise IllegalRequest("choosing the newborns' sex needs Bonnes herbes, for one of your camps",
                             "choisir le sexe des naissances demande Bonnes herbes, pour un de vos camps",
                             "births.cards")
    if not info.runs("births"):
        raise IllegalRequest(f"no births on turn {info.turn}: they come at the end of a season",
                             f"pas de naissances au tour {info.turn} : elles viennent en fin de saison", "phase.births")
    result = resolve_births(camps, rq.items(request.get("rolls", []), "rolls", 30), warriors, women,
                            "herbes_de_fertilite" in cards, chosen, variants)
    return {"turn": info.turn, "season": info.season,
            "births": [{"camp": cell_name(b.camp), "dice": list(b.dice), "sex": b.sex,
                        "rule": "births.caps" if b.sex == "cancelled" else "births.cards" if not b.dice else "births.count"}
                       for b in result.births],
            "warriors": result.warriors, "women": result.women,
            "awaiting": None if result.awaiting is None else {"kind": "roll", "camp": cell_name(result.awaiting["camp"])}}


# -- first player and victory --------------------------------------------------------------

def standing(request) -> dict:
    """``maamut vallee standing``: this turn's first player and order, and the victory check."""
    from rulekit.players import SeatError, read_ids

    from . import requests as rq
    from .calendar import MAX_TURN
    from .core import IllegalRequest
    from .standing import Standing, first_player, victory

    request = rq.obj(request, "request")
    rq.only_fields(request, ("turn", "seats", "setup_first", "tribes", "drawn", "announced_last_turn", "fire_rules",
                             "return_possible", "variants"), "", ("turn", "seats", "tribes"))
    turn = rq.count(request, "turn", 1, MAX_TURN)
    try:
        seats = read_ids(request["seats"], 2, 6)
    except SeatError as exc:
        raise BadRequest("seats" if exc.seat is None else f"seats.{exc.seat}", exc.reason) from None
    tribes = rq.obj(request["tribes"], "tribes")
    standings = {}
    for name in seats:
        where = f"tribes.{name}"
        t = rq.obj(tribes.get(name, {}), where)
        rq.only_fields(t, ("camps", "pawns", "food", "fire"), where)
        standings[name] = Standing(rq.count(t, "camps", 0, 5, 0, where), rq.count(t, "pawns", 0, 16, 0, where),
                                   rq.count(t, "food", 0, 10_000, 0, where), rq.flag(t, "fire", parent=where))
    for name in tribes:
        if name not in seats:
            raise BadRequest(f"tribes.{name}", "is not one of the seats")
    setup_first = request.get("setup_first")
    if setup_first is not None and setup_first not in seats:
        raise BadRequest("setup_first", "must be one of the seats")
    announced = rq.items(request.get("announced_last_turn", []), "announced_last_turn", 6)
    for i, name in enumerate(announced):
        if name not in seats:
            raise BadRequest(f"announced_last_turn.{i}", "must be one of the seats")
    drawn = request.get("drawn")
    first = first_player(seats, standings, turn, setup_first, drawn)
    if drawn is not None and drawn not in first.tied:
        raise IllegalRequest(f"no draw is needed for {drawn!r}: only tied players draw",
                             f"pas de tirage pour {drawn!r} : seuls les ex aequo tirent au sort", "standing.first_player")
    verdict = victory(first.order or seats, standings, announced, rq.flag(request, "fire_rules"),
                      rq.flag(request, "return_possible"), rq.variants(request))
    reason_rule = {"four_camps": "standing.victory", "last_tribe": "standing.last_tribe", "extinct": "standing.extinct",
                   None: "standing.victory"}
    return {"turn": turn,
            "first_player": {"order": list(first.order), "decided_by": first.decided_by, "tied": list(first.tied),
                             "awaiting": None if first.order else {"kind": "draw", "among": list(first.tied)},
                             "rule": "standing.first_player"},
            "victory": {"announced": list(verdict.announced), "winners": list(verdict.winners),
                        "reason": verdict.reason, "rule": reason_rule[verdict.reason]}}


# -- tribe movement -----------------------------------------------------------------------

def _pair(value, field: str, most_w: int = 10, most_f: int = 6):
    from . import requests as rq

    rq.only_fields(rq.obj(value, field), ("warriors", "women"), field)
    return (rq.count(value, "warriors", 0, most_w, 0, field), rq.count(value, "women", 0, most_f, 0, field))


def move(request) -> dict:
    """``maamut vallee move``: whether one group's move is legal, and where it stops."""
    from rulekit.players import PLAYER_ID_RULE, is_player_id

    from . import requests as rq
    from .core import SUMMER, WINTER, cell_name
    from .tribes import BRIDGE_CARDS, LONG_MARCH_CARDS, Board, Limits, Move, check_move

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "season", "pieces", "animals", "markers", "events", "cards", "move", "variants"), "",
                   ("map", "season", "pieces", "move"))
    valley = rq.valley(request)
    variants = rq.variants(request)
    season = rq.choice(request, "season", (SUMMER, WINTER), None)
    markers = dict(rq.obj(request.get("markers", {}), "markers"))
    frozen = _cells(markers.pop("frozen", []), "markers.frozen", valley, 40)
    conditions = _conditions({"markers": markers}, valley, season)
    pawns = {}
    for key, tribes in rq.obj(request["pieces"], "pieces").items():
        cell = _cell_on(valley, key, f"pieces.{key}")
        pawns[cell] = {}
        for name, pair in rq.obj(tribes, f"pieces.{key}").items():
            if not is_player_id(name):
                raise BadRequest(f"pieces.{key}.{str(name)[:24]}", PLAYER_ID_RULE)
            pawns[cell][name] = _pair(pair, f"pieces.{key}.{name}")
    animals = {}
    for key, n in rq.obj(request.get("animals", {}), "animals").items():
        animals[_cell_on(valley, key, f"animals.{key}")] = rq.count({key: n}, key, 1, 40, parent="animals")
    events = rq.obj(request.get("events", {}), "events")
    rq.only_fields(events, ("blizzard", "tempete", "orages"), "events")
    calm = not (rq.flag(events, "tempete", parent="events") or rq.flag(events, "orages", parent="events"))
    max_cells = 0 if rq.flag(events, "blizzard", parent="events") else 2 if calm else 1
    cards = tuple(rq.choice({j: c}, j, BRIDGE_CARDS + LONG_MARCH_CARDS, None, "cards")
                  for j, c in enumerate(rq.items(request.get("cards", []), "cards", 3)))
    m = rq.obj(request["move"], "move")
    rq.only_fields(m, ("tribe", "from", "path", "warriors", "women", "leave"), "move", ("tribe", "from", "path"))
    path = tuple(_cell_on(valley, c, f"move.path.{i}") for i, c in enumerate(rq.items(m["path"], "move.path", 3)))
    leave = {}
    for key, pair in rq.obj(m.get("leave", {}), "move.leave").items():
        cell = _cell_on(valley, key, f"move.leave.{key}")
        if cell not in path[:-1]:
            raise BadRequest(f"move.leave.{key}", "pawns are left only on cells the group passes through")
        leave[cell] = _pair(pair, f"move.leave.{key}")
    if not is_player_id(m["tribe"]):
        raise BadRequest("move.tribe", PLAYER_ID_RULE)
    group = Move(m["tribe"], _cell_on(valley, m["from"], "move.from"), path, rq.count(m, "warriors", 0, 10, 0, "move"),
                 rq.count(m, "women", 0, 6, 0, "move"), leave)
    checked = check_move(valley, Board(pawns, animals), group, conditions, Limits(season, max_cells, cards, frozen),
                         variants)
    return {"legal": True, "end": cell_name(checked.end),
            "stops": [{"cell": cell_name(c), "stop": why} for c, why in checked.stops]}


# -- camps and fields -----------------------------------------------------------------------

def camp(request) -> dict:
    """``maamut vallee camp``: may a tribe set up, found a camp or sow on a cell?"""
    from . import requests as rq
    from .calendar import MAX_TURN, turn_info
    from .camps import camp_kind, found_camp_problem, sowing_problem, start_camp_problem
    from .core import IllegalRequest, cell_name

    request = rq.obj(request, "request")
    action = rq.choice(request, "action", ("setup", "found", "sow"), None)
    fields = {"setup": ("camps", "occupied", "field", "food"),
              "found": ("warriors", "women", "opponents", "camp_here", "camps_owned", "cards"),
              "sow": ("turn", "held", "own_camp_here", "field_here", "markers_used", "food", "cards")}[action]
    rq.only_fields(request, ("map", "action", "cell") + fields, "", ("map", "cell"))
    valley = rq.valley(request)
    cell = _cell_on(valley, request["cell"], "cell")
    cards = [rq.choice({j: c}, j, {"found": ("pacs",), "sow": ("terrasse",)}.get(action, ()), None, "cards")
             for j, c in enumerate(rq.items(request.get("cards", []), "cards", 2))]
    extra = {}
    if action == "setup":
        camps = {_cell_on(valley, key, f"camps.{key}"): name
                 for key, name in rq.obj(request.get("camps", {}), "camps").items()}
        problem = start_camp_problem(valley, cell, camps, _cells(request.get("occupied", []), "occupied", valley))
        if not problem and rq.flag(request, "field"):
            if camp_kind(valley, cell) != "village" or valley.terrain[cell] != "plain":
                problem = "sowing.where"
            elif rq.count(request, "food", 0, 10_000, 12) < 1:
                problem = "sowing.cost"
        extra["field"] = rq.flag(request, "field")
    elif action == "found":
        problem = found_camp_problem(valley, cell, rq.count(request, "warriors", 0, 10, 0),
                                     rq.count(request, "women", 0, 6, 0), rq.count(request, "opponents", 0, 100, 0),
                                     rq.flag(request, "camp_here"), rq.count(request, "camps_owned", 0, 5, 0),
                                     "pacs" in cards)
    else:
        held = [rq.count({i: t}, i, 1, MAX_TURN, parent="held")
                for i, t in enumerate(rq.items(request.get("held", []), "held", 200))]
        info = turn_info(rq.count(request, "turn", 1, MAX_TURN), held=held)
        if not info.runs("sowing"):
            raise IllegalRequest(f"no sowing on turn {info.turn}: it comes at the end of winter",
                                 f"pas de semailles au tour {info.turn} : elles viennent à la fin de l'hiver",
                                 "phase.sowing")
        own = camp_kind(valley, cell) if rq.flag(request, "own_camp_here") else None
        problem = sowing_problem(valley, cell, own, rq.flag(request, "field_here"),
                                 rq.count(request, "markers_used", 0, 9, 0), rq.count(request, "food", 0, 10_000, 0),
                                 "terrasse" in cards)
    if problem:
        from .rulebook import RULES

        rule = RULES[problem]
        action_fr = {"setup": "installation", "found": "fondation d'un camp", "sow": "semailles"}[action]
        action_en = {"setup": "setting up", "found": "founding a camp", "sow": "sowing"}[action]
        raise IllegalRequest(f"{action_en} on {cell_name(cell)}: {rule.en}",
                             f"{action_fr} en {cell_name(cell)} : {rule.fr}", problem)
    return {"action": action, "cell": cell_name(cell), "legal": True, "kind": camp_kind(valley, cell), **extra}

"""Request forms about the board: ``event`` (cells a card hits), ``camp`` (setup, camps, sowing), ``survival``."""

from __future__ import annotations

from ..core import BadRequest
from .shared import read_cell, read_cells


def event(request) -> dict:
    """``maamut vallee event``: an event card's text and the cells it hits for a die face."""
    from .. import requests as rq
    from ..core import MOUNTAIN, VOLCANO, IllegalRequest, cell_name
    from ..events import CARDS, target

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
    caves = read_cells(request.get("caves", []), "caves", valley, 30)
    for cell in sorted(caves):
        if valley.terrain[cell] not in (MOUNTAIN, VOLCANO):
            raise IllegalRequest(f"a camp on {cell_name(cell)} is a village, not a cave",
                                 f"un camp en {cell_name(cell)} est un village, pas une grotte", "camps.kind")
    hit = target(valley, card, die, caves)
    return {"card": card.id, "title": card.title, "deck": card.deck, "copies": card.copies, "die": die,
            "die_picks": card.die, "lasts": card.lasts, "fire_text": card.fire_text,
            "cells": [cell_name(c) for c in hit.cells], "reroll": hit.reroll, "river": hit.river,
            "lake_freezes": hit.lake, "rule": f"event.{card.id}", "en": card.en, "fr": card.fr}


def camp(request) -> dict:
    """``maamut vallee camp``: may a tribe set up, found a camp or sow on a cell?"""
    from .. import requests as rq
    from ..calendar import MAX_TURN, turn_info
    from ..camps import camp_kind, found_camp_problem, sowing_problem, start_camp_problem
    from ..core import IllegalRequest, cell_name

    request = rq.obj(request, "request")
    action = rq.choice(request, "action", ("setup", "found", "sow"), None)
    fields = {"setup": ("camps", "occupied", "field", "food"),
              "found": ("warriors", "women", "opponents", "camp_here", "camps_owned", "cards"),
              "sow": ("turn", "held", "own_camp_here", "field_here", "markers_used", "food", "cards")}[action]
    rq.only_fields(request, ("map", "action", "cell") + fields, "", ("map", "cell"))
    valley = rq.valley(request)
    cell = read_cell(valley, request["cell"], "cell")
    cards = [rq.choice({j: c}, j, {"found": ("pacs",), "sow": ("terrasse",)}.get(action, ()), None, "cards")
             for j, c in enumerate(rq.items(request.get("cards", []), "cards", 2))]
    extra = {}
    if action == "setup":
        camps = {read_cell(valley, key, f"camps.{key}"): name
                 for key, name in rq.obj(request.get("camps", {}), "camps").items()}
        problem = start_camp_problem(valley, cell, camps, read_cells(request.get("occupied", []), "occupied", valley))
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
        held = rq.held_turns(request)
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
        from ..rulebook import RULES

        rule = RULES[problem]
        action_fr = {"setup": "installation", "found": "fondation d'un camp", "sow": "semailles"}[action]
        action_en = {"setup": "setting up", "found": "founding a camp", "sow": "sowing"}[action]
        raise IllegalRequest(f"{action_en} on {cell_name(cell)}: {rule.en}",
                             f"{action_fr} en {cell_name(cell)} : {rule.fr}", problem)
    return {"action": action, "cell": cell_name(cell), "legal": True, "kind": camp_kind(valley, cell), **extra}


def survival(request) -> dict:
    """``maamut vallee survival``: one tribe's food ledger for a turn, the balance, who starves."""
    from .. import requests as rq
    from ..calendar import MAX_TURN, turn_info
    from ..core import SUMMER, WINTER, IllegalRequest, cell_name
    from ..survival import SURVIVAL_CARDS, Situation, survival_ledger

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "turn", "held", "tribe", "fields", "events", "fire_rules", "variants"), "",
                   ("map", "turn", "tribe"))
    valley = rq.valley(request)
    variants = rq.variants(request)
    held = rq.held_turns(request)
    info = turn_info(rq.count(request, "turn", 1, MAX_TURN), held=held, variants=variants)
    tribe = rq.obj(request["tribe"], "tribe")
    rq.only_fields(tribe, ("name", "food", "fire", "cells", "cards"), "tribe", ("food", "cells"))
    food = rq.count(tribe, "food", 0, 10_000, parent="tribe")
    cells = {}
    for i, c in enumerate(rq.items(tribe["cells"], "tribe.cells", 40)):
        where = f"tribe.cells.{i}"
        rq.only_fields(rq.obj(c, where), ("cell", "warriors", "women"), where, ("cell",))
        cell = read_cell(valley, c["cell"], f"{where}.cell")
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
        cell = read_cell(valley, f["cell"], f"{where}.cell")
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
    from ..core import cell_name

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

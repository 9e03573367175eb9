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
    from .rulebook import line

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
        phases.append({"number": number, "phase": phase, "runs": info.runs(phase), "name_en": PHASE_EN[phase],
                       "name_fr": PHASE_FR[phase], **line(rule)})
    return {"turn": info.turn, "year": info.year, "season": info.season, "season_turn": info.season_turn,
            "extra_turn": info.extra_turn, "held": info.held, "ends_season": info.ends_season,
            "deck": info.deck, "arrivals": info.arrivals, "players": info.players, "harvest": info.harvest,
            "return_window": info.return_window, "phases": phases}

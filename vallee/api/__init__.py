"""The request/response forms of ``maamut vallee …`` (documented in docs/vallee-api.md).

One module per group of commands: :mod:`.turns` (calendar, arrivals, births, standing),
:mod:`.movement` (animals, move), :mod:`.fights` (combat), :mod:`.board_forms` (event,
camp, survival); :mod:`.shared` holds the readers they share.

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

from ..board import read_map_file
from ..core import BadRequest, ValleeError
from ..validate import map_problems
from .board_forms import camp, event, survival
from .fights import combat
from .movement import animals, move
from .turns import arrivals, births, calendar, standing

__all__ = ["EXIT_OK", "EXIT_ILLEGAL", "EXIT_MALFORMED", "answer", "map_check_request", "calendar", "arrivals",
           "births", "standing", "animals", "move", "combat", "event", "camp", "survival"]

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

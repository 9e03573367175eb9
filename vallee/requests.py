"""Checked pieces of a JSON request shared by every ``maamut vallee`` command.

Each reader names the field at fault (:class:`~vallee.core.BadRequest`, exit 2).

>>> count({"n": 3}, "n", 0, 10)
3
>>> count({"n": True}, "n", 0, 10)
Traceback (most recent call last):
...
vallee.core.BadRequest: n: must be an integer from 0 to 10, got True
>>> only_fields({"a": 1, "b": 2}, ("a",), "")
Traceback (most recent call last):
...
vallee.core.BadRequest: b: is not a known field
"""

from __future__ import annotations

from .board import SHIPPED, Valley, read_map_file, shipped_map_json
from .core import BadRequest, IllegalRequest, SPECIES
from .variants import Variants


def obj(value, field: str) -> dict:
    if not isinstance(value, dict):
        raise BadRequest(field, f"must be an object, got {type(value).__name__}")
    return value


def items(value, field: str, most: int = 100) -> list:
    if not isinstance(value, list):
        raise BadRequest(field, f"must be a list, got {type(value).__name__}")
    if len(value) > most:
        raise BadRequest(field, f"has {len(value)} items, at most {most} allowed")
    return value


def sub(parent: str, key) -> str:
    return f"{parent}.{key}" if parent else str(key)


def only_fields(request: dict, allowed, parent: str, required=()) -> None:
    for key in request:
        if key not in allowed:
            raise BadRequest(sub(parent, key), "is not a known field")
    for key in required:
        if key not in request:
            raise BadRequest(sub(parent, key), "is required")


def count(request: dict, key: str, low: int, high: int, default=None, parent: str = "") -> int:
    value = request.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(sub(parent, key), f"must be an integer from {low} to {high}, got {value!r}")
    return value


def flag(request: dict, key: str, default: bool = False, parent: str = "") -> bool:
    value = request.get(key, default)
    if not isinstance(value, bool):
        raise BadRequest(sub(parent, key), "must be true or false")
    return value


def choice(request: dict, key: str, allowed, default, parent: str = ""):
    value = request.get(key, default)
    if value not in allowed or isinstance(value, bool):
        raise BadRequest(sub(parent, key), f"must be one of {', '.join(map(str, allowed))}")
    return value


def species(value, field: str) -> str:
    if not isinstance(value, str) or value not in SPECIES:
        raise BadRequest(field, f"must be one of {', '.join(SPECIES)}")
    return value


def held_turns(request: dict) -> list[int]:
    """The request's ``held`` turns (each a turn number the calendar held back), checked."""
    from .calendar import MAX_TURN

    return [count({i: t}, i, 1, MAX_TURN, parent="held")
            for i, t in enumerate(items(request.get("held", []), "held", 200))]


def variants(request: dict) -> Variants:
    try:
        return Variants.from_json(request.get("variants"))
    except ValueError as exc:
        text = str(exc)
        field = text.split(" ", 1)[0] if text.startswith("variants.") else "variants"
        raise BadRequest(field, text.split(" ", 1)[1] if field != "variants" else text) from None


def valley(request: dict) -> Valley:
    """The request's ``map``: a shipped map's name or a whole map file (exit 1 if invalid)."""
    from .validate import map_problems

    value = request.get("map")
    if value is None:
        raise BadRequest("map", "is required: a shipped map's name (\"sample\") or a whole map file")
    if isinstance(value, str):
        if value not in SHIPPED:
            raise BadRequest("map", f"no shipped map is called {value[:40]!r} (known: {', '.join(SHIPPED)})")
        value = shipped_map_json(value)
    obj(value, "map")
    try:
        found = map_problems(value)
    except BadRequest as exc:
        raise BadRequest(sub("map", exc.field), exc.message.split(": ", 1)[-1]) from None
    if found:
        first = found[0]
        raise IllegalRequest(f"the map is not a valid valley ({len(found)} problems; first: {first.en})",
                             f"la carte n'est pas une vallée valide ({len(found)} problèmes ; d'abord : {first.fr})",
                             "map.valid")
    return read_map_file(value).valley

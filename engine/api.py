"""The request/response forms of ``maamut resolve`` and ``maamut legal`` (also served
by the web API). Exit codes: 0 legal, 1 illegal action, 2 malformed input.

>>> from engine.notation import position_from_text
>>> from engine.jsonio import position_to_json
>>> pos = position_to_json(position_from_text("gggg/ggggg/gggggg/gggrggg/gggggg/ggsgg/gggg 0,2 A@-2,2;B@3,-3 - A"))
>>> code, response = resolve_request({"position": pos, "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 2}})
>>> code, response["ok"], response["position"]["mammoth"], response["winner"], response["needs"]
(0, True, '2,0', None, None)
>>> resolve_request({"position": pos, "action": {"type": "move", "hunter": "B", "direction": "E", "distance": 2}})[0]
1
>>> resolve_request({"position": pos})[1]["error"]["field"]
'action'

The position may also be given in the text notation; the answer then carries both forms:

>>> code, response = resolve_request({"position": "gggg/ggggg/gggggg/gggrggg/gggggg/ggsgg/gggg 0,2 A@-2,2;B@3,-3 - A",
...                                   "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 2}})
>>> code, response["position"]["mammoth"], response["notation"]
(0, '2,0', 'gggg/ggggg/gggggg/gggrggg/gggggg/ggsgg/gggg 2,0 A@0,2;B@3,-3 - B')
"""

from __future__ import annotations

from .core import BadRequest, EngineError, IllegalAction
from .events import to_json as events_to_json
from .jsonio import (
    action_from_json,
    action_to_json,
    choices_from_json,
    needs_to_json,
    position_from_json,
    position_to_json,
)
from .notation import action_to_text, position_to_text
from .rules import apply_action, legal_actions
from .variants import Variants

EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED = 0, 1, 2


def _variants(obj) -> Variants:
    try:
        return Variants.from_json(obj.get("variants"))
    except (ValueError, TypeError) as exc:
        raise BadRequest("variants", str(exc)) from None


def _error(exc: EngineError) -> dict:
    body = exc.to_json()
    reason = getattr(exc, "reason", None)
    if reason:
        body["reason"] = reason
    options = getattr(exc, "options", None)
    if options is not None:
        body["options"] = list(options)  # bad_flee_choice: the cells the hunter may flee to
    return {"ok": False, "error": body}


def _request(obj) -> dict:
    if not isinstance(obj, dict):
        raise BadRequest("request", "must be a JSON object")
    return obj


def resolve_request(obj) -> tuple[int, dict]:
    """Apply one action to one position; returns ``(exit code, response)``."""
    try:
        obj = _request(obj)
        for key in obj:
            if key not in ("position", "action", "choices", "variants"):
                raise BadRequest(key, "is not a field of a resolve request")
        if "position" not in obj:
            raise BadRequest("position", "is missing")
        if "action" not in obj:
            raise BadRequest("action", "is missing")
        variants = _variants(obj)
        position = position_from_json(obj["position"])
        action = action_from_json(obj["action"])
        choices = choices_from_json(obj.get("choices"))
        outcome = apply_action(position, action, choices, variants)
    except BadRequest as exc:
        return EXIT_MALFORMED, _error(exc)
    except IllegalAction as exc:
        return EXIT_ILLEGAL, _error(exc)
    response = {
        "ok": True,
        "position": position_to_json(outcome.position),
        "events": events_to_json(outcome.events),
        "winner": outcome.winner,
        "needs": needs_to_json(outcome.needs),
    }
    if isinstance(obj["position"], str):  # given in the text notation: answered in both forms
        response["notation"] = position_to_text(outcome.position)
    return EXIT_OK, response


def legal_request(obj) -> tuple[int, dict]:
    """The legal actions of the player to move."""
    try:
        obj = _request(obj)
        for key in obj:
            if key not in ("position", "variants"):
                raise BadRequest(key, "is not a field of a legal request")
        if "position" not in obj:
            raise BadRequest("position", "is missing")
        variants = _variants(obj)
        position = position_from_json(obj["position"])
    except BadRequest as exc:
        return EXIT_MALFORMED, _error(exc)
    actions = legal_actions(position, variants)
    return EXIT_OK, {
        "ok": True,
        "to_move": position.to_move,
        "actions": [action_to_json(a) for a in actions],
        "notation": [action_to_text(a) for a in actions],
    }

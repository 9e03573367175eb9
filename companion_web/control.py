"""Referee-only endpoints: everything that changes the live game.

Each needs the referee's authority (``X-Referee-PIN`` header, or a PIN login plus the
CSRF token; see ``companion_web.security``). Errors use the contract's shape; an
illegal action is 422, a malformed request 400.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

import engine

from rulekit.jsonrequest import RequestError, read_json

from .jsonio import BadBody, bad_body_response, body_text, error_response, read_json_object
from .live import GameControlError
from .security import referee_required

bp = Blueprint("control", __name__, url_prefix="/api/game")


@bp.errorhandler(BadBody)
def _bad_body(exc: BadBody):
    return bad_body_response(exc)


@bp.errorhandler(GameControlError)
def _refused(exc: GameControlError):
    # journal_failed: the table's disk refused the write and nothing changed (not the request's fault)
    status = {"illegal_move": 422, "journal_failed": 503}.get(exc.code, 400)
    return error_response(status, exc.code, exc.message, exc.field, exc.rule)


def _game():
    return current_app.extensions["maamut_game"]


@bp.post("/new")
@referee_required
def new_game():
    """``{"players": [{"id", "name", "colour"}, ...], "seed": int?, "variants": {...}?,
    "tiles": "<tiles field of the notation>"?}``: deal a new game (setup phase)."""
    obj = read_json_object()
    _game().new_game(obj.get("players"), seed=obj.get("seed"), variants=obj.get("variants"),
                     tiles=obj.get("tiles"))
    return jsonify({"ok": True})


@bp.post("/place")
@referee_required
def place():
    """``{"player": "A", "cell": "q,r"}``: place a hunter during setup."""
    obj = read_json_object()
    _game().place_hunter(obj.get("player"), obj.get("cell"))
    return jsonify({"ok": True})


@bp.post("/play")
@referee_required
def play():
    """``{"action": A, "choices": [...]}`` or ``{"notation": "A:E2 B>1,1"}``: play a turn of the live game (for instance a
    move the camera could not read). The response is the contract's."""
    obj = read_json_object()
    if isinstance(obj.get("notation"), str) and "action" not in obj:
        # A referee types turns the way the log shows them: "A:E2 B>1,1".
        try:
            action, choices = engine.notation.turn_from_text(obj["notation"].strip())
        except engine.BadRequest as exc:
            return error_response(400, "bad_request", exc.message, "notation")
        obj = {"action": engine.action_to_json(action), "choices": engine.choices_to_json(choices)}
    if "action" not in obj:
        return error_response(400, "bad_request", "action: is missing", "action")
    return jsonify(_game().play(obj["action"], obj.get("choices")))


@bp.post("/flee")
@referee_required
def flee():
    """``{"cell": "q,r"}``: where the frightened hunter of the waiting turn flees."""
    return jsonify(_game().choose_flee(read_json_object().get("cell")))


@bp.post("/undo")
@referee_required
def undo():
    return jsonify({"ok": True, "undone": _game().undo()})


@bp.post("/record")
@referee_required
def import_record():
    """The body is a game record (JSON lines, as exported); it replaces the live game."""
    text = body_text()
    if not text.strip():
        raise BadBody("record: the body is empty", "record")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:  # each line within the request limits before the game reads any
                read_json(line)
            except RequestError as exc:
                raise BadBody(f"record: line {number}: {exc.to_json()['error']['message']}", "record") from None
    _game().import_record(text)
    return jsonify({"ok": True})

"""Hints, the referee's analysis and the AI seats, when the app gives the page an AI.

The web part imports no AI: the app wiring passes ``create_app`` the AI's parts (kept
in ``app.extensions``) and these routes answer only when they are there (404 ``no_ai``
otherwise).

- ``hints``: ``fn(position, player, hand=None) -> [{"action", "notation", "win_chance",
  "visits"}, ...]``, best first (``ai.hints_for_page``).
- ``ai_seats``: an object with ``public() -> {player: {...}}`` and
  ``set_hand(player, cards)`` (``ai.seats.AiSeats``).

Routes:

- ``GET /api/hint?player=A``: the live game's suggestions for ``A`` when ``A`` is to
  move (``hints: []`` otherwise). Referee only (issue 22: the referee switches hints
  on per player; a viewer's phone does not get them);
  the answer uses only the public position (the cards in hand are not known to the
  companion: every card value is considered). One computation at a time, cached per
  game version and player.
- ``POST /api/analyse`` ``{"position": P, "player": "A", "hand": [1, 2]}``: every legal
  action of ``player`` in any position with its estimated win chance (the sandbox's
  analysis; referee only, it costs about a second of CPU).
- ``GET /api/ai``: whether hints are offered (``hints``), the AI seats, their level, the move each is to play (for the page and
  the person who moves its pawn), and what they wait for; never which cards they hold.
- ``POST /api/ai/hand`` ``{"player": "C", "cards": [1, 3, 3]}``: the AI's cardboard
  hand, tapped on the page (referee only).

>>> from companion_web import create_app
>>> app = create_app({"REFEREE_PIN": "424242"})
>>> app.test_client().get("/api/hint?player=A", headers={"X-Referee-PIN": "424242"}).status_code
404
"""

from __future__ import annotations

import threading

from flask import Blueprint, current_app, jsonify, request

import engine
from engine.cards import CARD_VALUES
from engine.core import HAND_SIZE

from .jsonio import BadBody, bad_body_response, error_response, read_json_object
from .security import referee_required

bp = Blueprint("hints", __name__)

_lock = threading.Lock()
_cache: dict = {}
MAX_CACHE = 32


@bp.errorhandler(BadBody)
def _bad_body(exc: BadBody):
    return bad_body_response(exc)


@bp.errorhandler(engine.BadRequest)
def _engine_bad_request(exc: engine.BadRequest):
    return error_response(400, "bad_request", exc.message, exc.field, exc.rule)


def _no_ai():
    return error_response(404, "no_ai", "this companion has no AI configured")


def _hand(value, field: str = "hand"):
    if value is None:
        return None
    if (not isinstance(value, list) or not 1 <= len(value) <= HAND_SIZE
            or any(type(c) is not int or c not in CARD_VALUES for c in value)):  # neither true nor 1.0
        raise engine.BadRequest(field, "give 1 to 3 card values, each 1, 2 or 3")
    return tuple(value)


@bp.get("/api/hint")
@referee_required
def hint():
    fn = current_app.extensions["maamut_hints"]
    if fn is None:
        return _no_ai()
    player = request.args.get("player", "")
    table = current_app.extensions["maamut_game"].session
    snap = table.snapshot()
    if snap.phase != "play" or snap.position is None or snap.needs is not None or snap.to_move != player:
        return jsonify({"ok": True, "player": player, "version": snap.version, "to_move": snap.to_move,
                        "hints": []})
    key = (id(table), snap.version, player)
    with _lock:
        rows = _cache.get(key)
        if rows is None:
            rows = fn(snap.position.with_(hands=None), player, None)
            if len(_cache) >= MAX_CACHE:
                _cache.clear()
            _cache[key] = rows
    return jsonify({"ok": True, "player": player, "version": snap.version, "to_move": player, "hints": rows})


@bp.post("/api/analyse")
@referee_required
def analyse():
    fn = current_app.extensions["maamut_hints"]
    if fn is None:
        return _no_ai()
    obj = read_json_object()
    if "position" not in obj:
        raise engine.BadRequest("position", "is missing")
    pos = engine.position_from_json(obj["position"])
    player = obj.get("player") or pos.to_move
    if not isinstance(player, str) or player not in pos.hunters:
        raise engine.BadRequest("player", f"{player!r} has no hunter on the board")
    hand = _hand(obj.get("hand"))
    probe = pos.with_(to_move=player, hands=None)
    with _lock:
        rows = fn(probe, player, hand)
    return jsonify({"ok": True, "player": player, "notation": engine.notation.position_to_text(probe),
                    "analysis": rows})


@bp.get("/api/ai")
def ai_seats():
    seats = current_app.extensions["maamut_ai_seats"]
    return jsonify({"ok": True, "hints": current_app.extensions["maamut_hints"] is not None,
                    "seats": seats.public() if seats is not None else {}})


@bp.post("/api/ai/hand")
@referee_required
def ai_hand():
    seats = current_app.extensions["maamut_ai_seats"]
    if seats is None:
        return _no_ai()
    obj = read_json_object()
    player = obj.get("player")
    cards = _hand(obj.get("cards"), "cards")
    if cards is None:
        raise engine.BadRequest("cards", "is missing")
    try:
        seats.set_hand(player, cards)
    except ValueError as exc:
        raise engine.BadRequest("player", str(exc)) from None
    return jsonify({"ok": True, "seats": seats.public()})

"""Referee-only endpoints: everything that changes the live game.

Each needs the referee's authority (``X-Referee-PIN`` header, or a PIN login plus the
CSRF token; see ``companion_web.security``). Errors use the contract's shape; an
illegal action is 422, a malformed request 400.

Each honours ``If-Match`` (the ``ETag`` of ``GET /api/state``): when the game changed
since the page read it, the write is ``412 Precondition Failed``, changes nothing and
names the turns that landed meanwhile. Check and write happen with the table held
still, so a camera move cannot slip between them. A write without ``If-Match`` acts on
the game as it is (``docs/web-api.md``).
"""

from __future__ import annotations

import functools
import json
import re

from flask import Blueprint, current_app, jsonify, request

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
    response = error_response(status, exc.code, exc.message, exc.field, exc.rule)
    said = with_names(exc.message, _game().session.players_info())
    if said != exc.message:
        # What people read names the players; ``message`` keeps the ids, as the contract has it.
        body = response.get_json()
        body["error"]["said"] = said
        response.set_data(json.dumps(body, ensure_ascii=False))
    return response


def with_names(message: str, players: dict) -> str:
    """A refusal as people read it: each player's id where the engine names a player
    ("A's turn", "hunter A", "'A'", "A may flee") becomes his name.

    >>> with_names("it is B's turn, not A's", {"A": {"name": "Ann"}, "B": {"name": "Bob"}})
    "it is Bob's turn, not Ann's"
    >>> with_names("cell: B may flee to 0,1", {"B": {"name": "Bob"}}), with_names("A hunter", {"A": {"name": "Ann"}})
    ('cell: Bob may flee to 0,1', 'A hunter')
    """
    for pid, info in (players or {}).items():
        name = str((info or {}).get("name") or pid)
        if name == pid:
            continue
        who = re.escape(pid)
        message = re.sub(rf"\b{who}(?='s\b)|(?<=hunter ){who}\b|(?<=player ){who}\b|'{who}'|(?<=: ){who}(?= may)",
                         name, message)
    return message


def _game():
    return current_app.extensions["maamut_game"]


def _matches(header: str, tag: str) -> bool:
    """RFC 9110 ``If-Match``: ``*`` or a list of strong tags, one equal to ``tag``.

    >>> _matches('"3-ab"', "3-ab"), _matches('"1-x", "3-ab"', "3-ab"), _matches("*", "0-none"), _matches('W/"3-ab"', "3-ab")
    (True, True, True, False)
    """
    if header.strip() == "*":
        return True
    return any(part.strip() == f'"{tag}"' for part in header.split(","))


def _stale(header: str, tag: str):
    """The 412 answer: the turns that landed since the page's tag, in words and notation."""
    sent = header.split(",")[0].strip().strip('"')
    since = _game().landed_since(sent)
    landed, taken_back = since["landed"], since["taken_back"]
    if taken_back:
        what = f"{taken_back} entr{'y was' if taken_back == 1 else 'ies were'} taken back"
        if landed:
            what += f"; the game now ends with {landed[-1]['en']} ({landed[-1]['notation']})"
    elif landed:
        what = "; ".join(f"{turn['en']} ({turn['notation']})" for turn in landed) + " landed"
    else:
        what = "a new game was dealt"
    response = error_response(412, "precondition_failed",
                              f"the game changed since your page read it: {what}; nothing was changed",
                              "If-Match")
    body = response.get_json()
    body["error"].update(since)
    body["etag"] = f'"{tag}"'
    response.set_data(json.dumps(body, ensure_ascii=False))
    response.headers["ETag"] = f'"{tag}"'
    return response


def if_match(view):
    """Refuse a stale write (412) and run a fresh one with the table held still; the
    answer carries the game's new ``ETag``."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        game = _game()
        header = request.headers.get("If-Match")
        with game.session.locked():
            tag = game.tag()
            if header is not None and not _matches(header, tag):
                return _stale(header, tag)
            response = current_app.make_response(view(*args, **kwargs))
            response.headers["ETag"] = f'"{game.tag()}"'
            return response

    return wrapper


@bp.post("/new")
@referee_required
@if_match
def new_game():
    """``{"players": [{"id", "name", "colour"}, ...], "seed": int?, "variants": {...}?,
    "tiles": "<tiles field of the notation>"?}``: deal a new game (setup phase)."""
    obj = read_json_object()
    _game().new_game(obj.get("players"), seed=obj.get("seed"), variants=obj.get("variants"),
                     tiles=obj.get("tiles"))
    return jsonify({"ok": True})


@bp.post("/place")
@referee_required
@if_match
def place():
    """``{"player": "A", "cell": "q,r"}``: place a hunter during setup."""
    obj = read_json_object()
    _game().place_hunter(obj.get("player"), obj.get("cell"))
    return jsonify({"ok": True})


@bp.post("/play")
@referee_required
@if_match
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
@if_match
def flee():
    """``{"cell": "q,r"}``: where the frightened hunter of the waiting turn flees."""
    return jsonify(_game().choose_flee(read_json_object().get("cell")))


@bp.post("/undo")
@referee_required
@if_match
def undo():
    """Take back the last placement or turn (or a turn waiting for a flee choice);
    ``taken_back`` names it, in words and as notation (``null``: nothing to take back)."""
    game = _game()
    last = game.last_entry()
    undone = game.undo()
    return jsonify({"ok": True, "undone": undone, "taken_back": last if undone else None})


@bp.post("/record")
@referee_required
@if_match
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

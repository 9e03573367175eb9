"""The read-only JSON API: the live state, the command-line contract, sandbox helpers.

``/api/resolve`` and ``/api/legal`` take exactly the requests of ``maamut resolve`` and
``maamut legal`` and answer exactly their responses; the exit code becomes the HTTP
status (0 → 200, 1 → 422, 2 → 400). A body of several JSON lines is answered line by
line (``application/x-ndjson``, 200), like the command. None of these change the game,
so viewers may use them freely. Wherever a request holds a position (``/api/resolve``,
``/api/legal``, ``/api/render``, ``/api/notation``, ``/api/whatif``), it may be the JSON object
or the one-line text notation as a JSON string (``docs/engine-api.md``).
"""

from __future__ import annotations

import functools
import json

from flask import Blueprint, Response, current_app, jsonify, request

import engine
from engine import api as contract
from engine.hexgrid import parse_cell

from .board_svg import render_board
from .jsonio import BadBody, bad_body_response, contract_response, error_response, read_json_object
from .live import GameControlError
from .sandbox import what_if
from .security import referee_required
from .view import explain_events

bp = Blueprint("api", __name__)


@bp.errorhandler(BadBody)
def _bad_body(exc: BadBody):
    return bad_body_response(exc)


@bp.get("/api/state")
def state():
    """The same view every page receives over the event stream. Its ``ETag`` is the
    game's entity tag, which every committed action changes: the referee's writes send
    it back as ``If-Match`` (``docs/web-api.md``)."""
    _, payload, tag = current_app.extensions["maamut_hub"].latest_tagged()
    if tag is None:
        tag = current_app.extensions["maamut_game"].tag()
    return Response(payload, mimetype="application/json", headers={"ETag": f'"{tag}"'})


@bp.post("/api/resolve")
def resolve():
    return contract_response(contract.resolve_request)


@bp.post("/api/legal")
def legal():
    return contract_response(contract.legal_request)


def _position(obj: dict, field: str = "position") -> engine.Position:
    if field not in obj:
        raise engine.BadRequest(field, "is missing")
    return engine.position_from_json(obj[field])


def _variants(obj: dict) -> engine.Variants:
    try:
        return engine.Variants.from_json(obj.get("variants"))
    except (TypeError, ValueError) as exc:
        raise engine.BadRequest("variants", str(exc)) from None


@bp.errorhandler(engine.BadRequest)
def _engine_bad_request(exc: engine.BadRequest):
    return error_response(400, "bad_request", exc.message, exc.field, exc.rule)


@bp.post("/api/render")
def render():
    """The board SVG and the explanation of a position and optional last events.

    Request: ``{"position": P, "events": [...], "needs": {...}, "marks": [...],
    "players": {id: {"name", "colour"}}, "labels": bool}``.
    """
    obj = read_json_object()
    pos = _position(obj)
    events = [_event(e, f"events[{i}]") for i, e in enumerate(_list(obj.get("events"), "events"))]
    marks = [_mark(m, f"marks[{i}]") for i, m in enumerate(_list(obj.get("marks"), "marks"))]
    needs = obj.get("needs")
    if needs is not None:
        needs = _fields(needs, "needs", {"hunter": str, "cell": "cell", "options": "cells", "rule": str})
    players = obj.get("players")
    if players is not None:
        players = {name: _fields(info, f"players.{name}", {"name": str, "colour": str})
                   for name, info in _fields(players, "players", None).items()}
    svg = render_board(engine.position_to_json(pos), events=events, flee=needs, marks=marks,
                       players_info=players, labels=bool(obj.get("labels")))
    return jsonify({"ok": True, "svg": svg, "explanation": explain_events(events),
                    "notation": engine.notation.position_to_text(pos)})


def _list(value, field: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise engine.BadRequest(field, f"must be a list, got {type(value).__name__}")
    return value


def _typed(value, kind, field: str) -> None:
    """``value`` is of ``kind``: a type, ``"cell"`` ("q,r" or null), ``"cells"`` (a list of cells)
    or ``"tried"`` (a flight's directions tried)."""
    if kind == "cell":
        if value is not None:
            try:
                parse_cell(value)
            except ValueError as exc:
                raise engine.BadRequest(field, str(exc)) from None
    elif kind == "cells":
        for i, cell in enumerate(_list(value, field)):
            _typed(cell, "cell", f"{field}[{i}]")
    elif kind == "tried":
        if not isinstance(value, list):
            raise engine.BadRequest(field, "must be the list of directions the flight tried")
        for i, item in enumerate(value):
            # an edge's cell lies off the board: text, not a board cell
            _fields(item, f"{field}[{i}]", {"direction": str, "open": bool, "reason": str, "cell": str})
            for key in ("direction", "open", "reason"):
                if item.get(key) is None:
                    raise engine.BadRequest(f"{field}[{i}].{key}", "is missing")
    elif kind is int:
        if value is not None and type(value) is not int:
            raise engine.BadRequest(field, f"must be an integer, got {value!r}")
    elif value is not None and not isinstance(value, kind):
        raise engine.BadRequest(field, f"must be a {kind.__name__}, got {type(value).__name__}")


def _fields(value, field: str, kinds: dict | None) -> dict:
    """An object whose known keys hold values of their kind (``kinds`` None: any keys, objects)."""
    if not isinstance(value, dict):
        raise engine.BadRequest(field, f"must be an object, got {type(value).__name__}")
    for key, item in value.items():
        if kinds is None:
            continue
        if key not in kinds:
            raise engine.BadRequest(f"{field}.{key}", f"is not a field here (fields: {', '.join(kinds)})")
        _typed(item, kinds[key], f"{field}.{key}")
    return value


#: The kind of each field of the engine's events (docs/engine-api.md, «Events»).
_EVENT_FIELDS = {"type": str, "rule": str, "hunter": str, "owner": str, "winner": str, "reason": str,
                 "direction": str, "from": "cell", "to": "cell", "cell": "cell", "arrival": str, "path": "cells",
                 "options": "cells", "traps_removed": "cells", "tried": "tried", "distance": int, "card": int,
                 "continued": bool, "discarded": list}


def _event(value, field: str) -> dict:
    """An event of a resolve response, as the drawing and the explanation read it."""
    if not isinstance(value, dict):
        raise engine.BadRequest("events", "must be a list of event objects")
    _fields(value, field, _EVENT_FIELDS)
    if value.get("type") not in engine.events.EVENT_TYPES:
        raise engine.BadRequest(f"{field}.type", f"must be one of {', '.join(engine.events.EVENT_TYPES)}")
    if any(type(card) is not int for card in value.get("discarded") or []):
        raise engine.BadRequest(f"{field}.discarded", "must list card values")
    try:
        engine.events.from_json(value)
    except TypeError as exc:  # a field its type needs is missing
        raise engine.BadRequest(field, f"is not a complete {value['type']} event ({exc})") from None
    return value


def _mark(value, field: str) -> dict:
    if not isinstance(value, dict):
        raise engine.BadRequest("marks", "must be a list of {cell, text, kind} objects")
    return _fields(value, field, {"cell": "cell", "text": str, "kind": str})


@bp.post("/api/notation")
def to_notation():
    """``{"position": P}`` → ``{"text": "..."}`` (the one-line text notation)."""
    pos = _position(read_json_object())
    return jsonify({"ok": True, "text": engine.notation.position_to_text(pos)})


@bp.post("/api/notation/parse")
def from_notation():
    """``{"text": "..."}`` → ``{"position": P}``."""
    obj = read_json_object()
    text = obj.get("text")
    if not isinstance(text, str) or len(text) > 2000:
        raise engine.BadRequest("text", "must be the position's text notation (one line)")
    pos = engine.notation.position_from_text(text.strip())
    return jsonify({"ok": True, "position": engine.position_to_json(pos)})


@bp.post("/api/whatif")
def whatif():
    """All 18 direction × card moves of one hunter: ``{"position": P, "hunter": "A"}``."""
    obj = read_json_object()
    pos = _position(obj)
    hunter = obj.get("hunter")
    if not isinstance(hunter, str):
        raise engine.BadRequest("hunter", "must name a hunter on the board")
    return jsonify({"ok": True, "hunter": hunter, "moves": what_if(pos, hunter, _variants(obj))})


@bp.get("/board.svg")
def board_svg():
    """A position as an SVG file, for sharing: ``/board.svg?p=<text notation>``; without
    ``p``, the live board."""
    text = request.args.get("p")
    if text is None:
        state = current_app.extensions["maamut_hub"].state
        log = state.get("log") or []
        svg = render_board(state.get("position") or {}, events=log[-1].get("events", []) if log else [],
                           players_info=state.get("players"), animate=False)
    else:
        if len(text) > 2000:
            raise engine.BadRequest("p", "too long for a position")
        pos = engine.notation.position_from_text(text.strip())
        svg = render_board(engine.position_to_json(pos), animate=False)
    return Response(svg, mimetype="image/svg+xml",
                    headers={"Content-Disposition": 'inline; filename="maamut-board.svg"'})


@bp.get("/api/game/record")
@referee_required
def export_record():
    """The live game's record as JSON lines (replays to the identical position).

    Referee only: the record holds the seed, hence every card still to come."""
    game = current_app.extensions["maamut_game"]
    try:
        text = game.record_text()
    except GameControlError as exc:
        return error_response(404, "no_game", exc.message)
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": 'attachment; filename="maamut-game.jsonl"'})


def _live_game():
    game = current_app.extensions["maamut_game"].session.game
    if game is None:
        raise engine.BadRequest("game", "no game is being played")
    return game


@functools.lru_cache(maxsize=64)
def _board_at(header: str, entries: tuple[str, ...], names: str) -> dict:
    from engine.game import Game

    game = Game.replay([header, *entries])
    events = game.history[-1]["events"] if game.history and entries else []
    info = json.loads(names)
    return {"svg": render_board(engine.position_to_json(game.position), events=engine.events.to_json(events),
                                players_info=info, animate=False),
            "winner": game.winner}


@bp.get("/api/history/<int:turn>")
def history(turn: int):
    """The live game's board as it was after its first ``turn`` entries (placements
    and turns), for the move list's stepping: ``{"svg", "turn", "of", "notation"}``."""
    game = _live_game()
    session = current_app.extensions["maamut_game"].session
    entries = game.entries()
    if not 0 <= turn <= len(entries):
        return error_response(404, "no_such_turn", f"the game has {len(entries)} entries")
    header = game.record_lines()[0]
    names = json.dumps(session.players_info(), sort_keys=True)
    board = _board_at(header, tuple(json.dumps(e, sort_keys=True) for e in entries[:turn]), names)
    notation = ""
    if turn:
        entry = entries[turn - 1]
        notation = entry.get("turn") or f"{entry.get('place')}@{entry.get('cell')}"
    return jsonify({"ok": True, "turn": turn, "of": len(entries), "notation": notation, **board})


@bp.get("/game.txt")
def moves_text():
    """The live game's moves as text, to share (no seed, so no card still to come):
    the start position in the notation, then one numbered turn a line."""
    game = _live_game()
    lines = ["Mâamut", "players: " + ", ".join(game.players)]
    turn = 0
    for entry in game.entries():
        if "place" in entry:
            lines.append(f"   {entry['place']}@{entry['cell']}")
        else:
            turn += 1
            lines.append(f"{turn:>3}. {entry.get('turn') or engine.notation.action_to_text(engine.action_from_json(entry['action']))}")
    if game.winner:
        lines.append(f"winner: {game.winner}")
    # Cards in hand are secret at the table: the shared position leaves them out.
    lines.append("position: " + engine.notation.position_to_text(game.position.with_(hands=None)))
    return Response("\n".join(lines) + "\n", mimetype="text/plain",
                    headers={"Content-Disposition": 'attachment; filename="maamut-moves.txt"'})


@bp.get("/api/start-cells")
def start_cells():
    """While hunters are placed: the cells where the next one may start (the setup
    wizard highlights them). ``{"player", "cells": ["q,r", ...]}``."""
    from engine.hexgrid import cell_name

    game = _live_game()
    player = game.next_to_place()
    return jsonify({"ok": True, "player": player,
                    "cells": [cell_name(c) for c in game.start_cells()] if player else []})

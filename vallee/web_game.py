"""The live game's routes on La Vallée's blueprint (docs/vallee-web.md «The game»).

Reads are open; every write passes the blueprint's guards (the referee, the header
``X-Vallee: 1``) and then, when it carries ``If-Match``, must name the state the page
last showed (else 412: a change landed meanwhile). A write is applied as the table
always does: validated on a copy, journaled, then kept (:class:`vallee.live.ValleeTable`).
A malformed body is a 400 naming its field, a move the rules forbid a 409 naming the
rule in English and French, a disk that refuses the write a 503; never a 500.
"""

from __future__ import annotations

from flask import current_app, g, jsonify, render_template, request

from rulekit.players import PlayerRights

from rulekit.journal import JournalError

from .core import BadRequest, IllegalRequest
from .live import NotTheirs
from .rulebook import RULES
from .web import _body, _error, _map_json, _map_list, bp

TABLE = "vallee_table"
SETUP_KEYS = ("players", "map", "seed", "random", "fire_rules", "food", "variants", "first")


def _table():
    return current_app.extensions[TABLE]


def _player_of(token: str):
    table = current_app.extensions.get(TABLE)
    return table.player_of(token) if table is not None else None


#: A player's own page may give that player's entries (docs/vallee-web.md «Who may do what»).
bp.player_rights = PlayerRights("X-Vallee-Player", _player_of, frozenset({f"{bp.name}.play_entry"}))


def _answer(body: dict, status: int = 200):
    response = jsonify(body)
    response.status_code = status
    response.headers["ETag"] = f'"{_table().etag}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _refused(exc: Exception):
    if isinstance(exc, BadRequest):
        return _error(400, "bad_request", exc.message, f"requête mal formée : {exc.message}", exc.field)
    if isinstance(exc, NotTheirs):
        return jsonify({"ok": False, "error": {**exc.to_json(), "code": "not_yours", "field": "X-Vallee-Player"}}), 403
    if isinstance(exc, IllegalRequest):
        body = exc.to_json()
        rule = RULES.get(exc.rule)
        if rule is not None:
            body["rule_text"] = {"en": rule.en, "fr": rule.fr, "section": rule.section}
        return jsonify({"ok": False, "error": body}), 409
    assert isinstance(exc, JournalError)
    if exc.unwritable:
        return _error(400, "bad_request", exc.message, exc.message_fr, "request")
    return jsonify({"ok": False, "error": {"code": "journal_failed", "message": exc.message,
                                           "message_fr": exc.message_fr, "rule": "request.format"}}), 503


def _write(change):
    """Read the body, check If-Match, make the change under the table's lock."""
    table = _table()
    try:
        body = _body()
    except BadRequest as exc:
        return _refused(exc)
    with table.lock:
        wanted = request.headers.get("If-Match")
        if wanted is not None and wanted.strip().strip('"') not in (table.etag, "*"):
            return _error(412, "stale", "the game changed meanwhile: look again, then retry",
                          "la partie a changé entre-temps : regardez à nouveau, puis recommencez", "If-Match")
        try:
            extra = change(table, body) or {}
        except (BadRequest, IllegalRequest, JournalError) as exc:
            return _refused(exc)
        return _answer({**table.state(), **extra})


def _only(body: dict, keys) -> None:
    for key in body:
        if key not in keys:
            raise BadRequest(key, f"is not a field of this request ({', '.join(keys)})")


@bp.get("/api/state")
def game_state():
    return _answer(_table().state())


@bp.post("/api/new")
def new_game():
    def go(table, body):
        _only(body, SETUP_KEYS)
        setup = dict(body)
        if isinstance(setup.get("map"), str):
            try:
                setup["map"] = setup["map"] if setup["map"] == "sample" else _map_json(setup["map"])
            except KeyError:
                raise BadRequest("map", f"there is no map named {setup['map'][:40]!r}") from None
            except (ValueError, OSError):
                raise BadRequest("map", "that map's file is damaged") from None
        table.start(setup)
        return {"events": []}
    return _write(go)


@bp.post("/api/entry")
def play_entry():
    def go(table, body):
        _only(body, ("entry",))
        if not isinstance(body.get("entry"), dict):
            raise BadRequest("entry", "must be an object with a kind (docs/vallee-game.md)")
        table.play(body["entry"], by=g.get("game_player"))
        return {"done": table.history[-1]}
    return _write(go)


@bp.post("/api/undo")
def undo_entry():
    def go(table, body):
        _only(body, ())
        return {"done": table.undo()}
    return _write(go)


@bp.post("/api/rollout")
def roll_out():
    def go(table, body):
        _only(body, ("policy",))
        table.roll_out(body.get("policy", "women_first"))
        return {}
    return _write(go)


@bp.post("/api/links")
def player_links():
    def go(table, body):
        _only(body, ())
        return {"links": {p: f"{bp.url_prefix}/p/{token}" for p, token in table.links().items()}}
    return _write(go)


@bp.get("/api/player/<token>")
def player_state(token: str):
    table = _table()
    player = table.player_of(token)
    if player is None:
        return _error(404, "not_found", "no player of this game has that link", "aucun joueur de cette partie n'a ce lien",
                      "token")
    return _answer(table.private(player))


@bp.get("/p/<token>")
def player_page(token: str):
    player = _table().player_of(token)
    status = 200 if player else 404
    return render_template("vallee/player.html", token=token, player=player,
                           stream=_stream_url()), status


def _stream_url() -> str:
    return f"{bp.url_prefix}/api/stream" if f"{bp.name}_stream" in current_app.view_functions else ""


def page_context() -> dict:
    """What the game master's page needs besides the valley: the table's state and the
    lists its forms offer."""
    from .core import DIRECTION_NAMES, SPECIES
    from .events import CARDS
    from .game_tricks import CHOICES, MOVE_CARDS
    from .page_view import card_choices
    from .tokens import LETTERS
    from .tricks import TRICKS

    game = _table().game
    typed = game is not None and game.modes.get("events") == "physical"  # the cards drawn are entered
    return {"stream": _stream_url(), "maps": _map_list(),
            "catalogue": {"events": [[c.id, c.title] for c in CARDS.values()] if typed else [],
                          "tricks": [[t.id, t.title] for t in TRICKS.values()],
                          "choices": {card: card_choices(card) for card in CHOICES},
                          "move_cards": list(MOVE_CARDS), "directions": DIRECTION_NAMES,
                          "species": [[s.name, s.fr] for s in SPECIES.values()],
                          "letters": list(LETTERS)}}


__all__ = ["TABLE", "page_context"]

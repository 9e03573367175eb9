"""The Mammut mode of the table companion: a Flask blueprint of its own.

``register(app, journal_path)`` adds it to any Flask app under ``/mammut/``. The page
(FR/EN) shows whose turn it is and what is legal, lets the players tap what each took,
scores the round with the reason for every point, and has undo. Every change is worked
out on a copy of the game, written to the table's journal (``rulekit.journal``, the one
every game's table uses) and only then applied and sent; when the write fails nothing
changes. The journal is replayed when the app starts; a damaged one never stops it (its
valid beginning is resumed and ``/mammut/api/state`` says what was set aside).

Writes are JSON ``POST`` requests carrying the header ``X-Mammut: 1`` (a cross-site form
cannot set it). The product app may wrap the blueprint in its referee PIN as well.
"""

from __future__ import annotations

import threading

from flask import Blueprint, Flask, current_app, jsonify, render_template, request

from rulekit.followers import Followers
from rulekit.journal import Journal, JournalError
from rulekit.jsonrequest import RequestError, read_object

from .core import (
    ARROWS,
    EVALUATION_CARDS,
    GOODS,
    KIND_FR,
    LAST_ROUND,
    QUESTION,
    SHAMAN,
    SPECIES_FR,
    UNSORTED,
    BadRequest,
    IllegalAction,
)
from .game import Game, action_line, replay_prefix, setup_line, undo_line
from .rulebook import RULES
from .sharing import options
from .variants import CHOICES

EXTENSION = "ostby_mammut"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")

bp = Blueprint("ostby_mammut", __name__, url_prefix="/mammut", template_folder="templates",
               static_folder="static", static_url_path="/static")


class MammutSession:
    """The Mammut table's one live game (what :class:`session.TableSession` is for
    Mâamut), its journal and a lock (one change at a time).

    Every change is validated on a copy, journaled, then applied (the copy becomes the
    game); :class:`rulekit.journal.JournalError` means nothing changed.
    """

    def __init__(self, journal_path: str):
        self.journal = Journal(journal_path)
        self.lock = threading.Lock()
        #: What the journal set aside at this start, if anything (``Loaded.notice()``).
        self.resumed = self.journal.load(replay_prefix)
        self.game: Game | None = self.resumed.game
        self._followers = Followers()

    # The page's live part: every device follows the table (``companion_web.games``).
    def state(self) -> dict:
        """The whole view the page draws, as ``GET /mammut/api/state`` answers it."""
        with self.lock:
            return self._state()

    def _state(self) -> dict:
        notice = self.journal_notice()
        return {"ok": True, **_view(self.game), **({"journal": notice} if notice else {})}

    def subscribe(self, fn) -> None:
        """Call ``fn(state)`` after each committed change, in order."""
        with self.lock:
            self._followers.add(fn)

    def _changed(self) -> None:
        self._followers.announce(self._state)

    def new_game(self, setup: dict) -> None:
        game = Game(setup)  # validates before anything is written
        self.journal.begin([_record(setup_line, game.setup, "setup")])
        self.game = game

    def play(self, action: dict) -> list:
        if self.game is None:
            raise IllegalAction("no game: start one first", "request.format", fr="pas de partie : commencez-en une")
        following = self.game.copy()
        events = following.play(action)
        self.journal.append(_record(action_line, action, "action"))
        self.game = following
        return events

    def undo(self) -> None:
        if self.game is None:
            raise IllegalAction("no game", "request.format", fr="pas de partie")
        previous = self.game.undone()
        self.journal.append(undo_line())
        self.game = previous

    def journal_notice(self) -> dict | None:
        """What the page shows about a damaged journal set aside at start."""
        notice = self.resumed.notice()
        if notice is None:
            return None
        return {"message": notice["en"], "message_fr": notice["fr"], "dropped_lines": self.resumed.dropped_lines}


def _record(line, value, field: str) -> str:
    """The journal line of ``value``, or BadRequest when it cannot be written as JSON
    (nested too deep, a number JSON cannot hold): nothing is applied then."""
    try:
        return line(value)
    except (TypeError, ValueError, RecursionError):
        raise BadRequest(field, "cannot be stored in the journal") from None


def _table() -> MammutSession:
    return current_app.extensions[EXTENSION]


def _view(game: Game | None) -> dict:
    base = {"kinds": list(GOODS), "species": list(game.config.species if game else ()),
            "evaluation_cards": list(EVALUATION_CARDS), "arrows": list(ARROWS),
            "variants": {k: list(v) for k, v in CHOICES.items()},
            "kind_fr": {**KIND_FR, **SPECIES_FR}, "rules": {r.id: {"en": r.en, "fr": r.fr, "section": r.section}
                                                           for r in RULES.values()}}
    if game is None:
        return {**base, "game": None}
    s = game.sharing
    view = {
        "players": list(game.players), "round": game.round, "last_round": LAST_ROUND, "phase": game.phase,
        "points": game.points, "track": game.track, "species_owned": game.species,
        "hands": {p: len(h) for p, h in game.hands.items()}, "draw_pile": len(game.draw),
        "discard_pile": len(game.discard), "start": s.start, "to_move": s.to_move,
        "pool": s.pool, "pool_size": s.pool_size(), "lots": {p: list(s.lots[p]) for p in game.players},
        "lots_needed": s.lots_needed, "holder": s.holder(), "arrow": s.arrow,
        "played": [{"player": p, "card": c if c not in EVALUATION_CARDS else "face_down"} for p, c in s.played],
        "options": options(s), "results": game.results, "final": game.final, "actions": len(game.actions),
        "variants": game.variants.to_json(),
        # How many tiles of the set can show each kind: the page says so where it limits an entry.
        "tile_set": {"tiles": game.config.tile_count,
                     "max": {kind: game.config.max_of(kind) for kind in (*game.config.kinds(), QUESTION)}},
    }
    if game.phase == "evaluation":
        view["evaluation"] = game.evaluation_defaults()
    return {**base, "game": view}


def _error(exc, status):
    body = exc.to_json()
    return jsonify({"ok": False, "error": body}), status


def _journal_error(exc: JournalError):
    # Nothing was written and nothing changed: text that cannot be stored is the
    # request's fault (400), a disk that refuses the write is the table's (503).
    code, status = ("bad_request", 400) if exc.unwritable else ("journal_failed", 503)
    body = {"code": code, "message": exc.message, "message_fr": exc.message_fr, "rule": "request.format"}
    if exc.unwritable:
        body["field"] = "request"
    return jsonify({"ok": False, "error": body}), status


@bp.before_request
def _guard():
    if request.method == "POST":
        if request.headers.get("X-Mammut") != "1" or not request.is_json:
            return jsonify({"ok": False, "error": {"code": "forbidden", "message": "JSON with X-Mammut: 1 expected",
                                                   "rule": "request.format"}}), 403
    return None


@bp.after_request
def _headers(response):
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if response.mimetype == "application/json":
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/")
def page():
    # Inside the companion the page wears the site's frame (navigation, language, PIN)
    # and follows the table live; alone (tests, another app) it stands by itself.
    framed = "maamut_hub" in current_app.extensions
    stream = f"{bp.name}_stream" in current_app.view_functions
    lang = request.args.get("lang")
    return render_template("ostby_mammut/mammut.html", lang=lang if lang in ("en", "fr") else "",
                           layout="base.html" if framed else "ostby_mammut/alone.html",
                           stream=(bp.url_prefix + "/api/stream") if stream else "")


@bp.get("/api/state")
def state():
    return jsonify(_table().state())


def _body() -> dict:
    """The JSON object of a write, read within the games' request limits (rulekit.jsonrequest)."""
    try:
        return read_object(request.get_data(cache=True))
    except RequestError as exc:
        raise BadRequest(exc.field, exc.message) from None


def _write(fn):
    table = _table()
    try:
        body = _body()
    except BadRequest as exc:
        return _error(exc, 400)
    with table.lock:
        try:
            events = fn(table, body)
        except BadRequest as exc:
            return _error(exc, 400)
        except IllegalAction as exc:
            return _error(exc, 409)
        except JournalError as exc:
            return _journal_error(exc)
        table._changed()
        return jsonify({"ok": True, "events": events or [], **_view(table.game)})


@bp.post("/api/new")
def new_game():
    def go(table, body):
        for key in body:
            if key not in ("players", "seed", "variants", "species", "start"):
                raise BadRequest(key, "is not a field of a new game")
        players = body.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise BadRequest("players", "list 2 to 5 names in seat order (clockwise)")
        players = [p.strip()[:24] for p in players]
        seed = body.get("seed") or 0
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadRequest("seed", f"must be an integer, got {seed!r}")
        for key, kind in (("variants", dict), ("species", dict), ("start", str)):
            if body.get(key) is not None and not isinstance(body[key], kind):
                raise BadRequest(key, f"must be {'an object' if kind is dict else 'a player name'}")
        setup = {"players": players, "mode": "page", "seed": seed}
        for key in ("variants", "species", "start"):
            if body.get(key):
                setup[key] = body[key]
        table.new_game(setup)
        return [{"type": "new_game", "rule": "setup.start_player"}]
    return _write(go)


@bp.post("/api/action")
def action():
    return _write(lambda table, body: table.play(body.get("action")))


@bp.post("/api/undo")
def undo():
    def go(table, body):
        table.undo()
        return [{"type": "undone", "rule": "request.format"}]
    return _write(go)


def register(app: Flask, journal_path: str) -> None:
    """Add the Mammut mode to ``app`` under ``/mammut/``; its game lives in ``journal_path``
    (replayed now if it exists)."""
    app.extensions[EXTENSION] = MammutSession(journal_path)
    app.register_blueprint(bp)


__all__ = ["register", "bp", "MammutSession", "QUESTION", "SHAMAN", "UNSORTED"]

"""The companion web page: live board, flight explanations, referee sandbox.

``create_app(config)`` builds the Flask application around the table's one live game
(a :class:`session.TableSession`); every change of that game reaches every open page,
whoever proposed it (camera, buttons, page)::

    table = TableSession(journal, players)    # the owner of the live game
    hub = GameHub()
    app = create_app({"REFEREE_PIN": pin}, session=table, hub=hub)  # settings, then live parts
    print("referee PIN:", app.config["REFEREE_PIN"])
    BackgroundServer(app, host="0.0.0.0", port=8080).start()   # or serve(app, ...)
    table.play(engine.Move("A", "E", 2), source="camera")   # shown on every page
    hub.update(leds=[[r, g, b], ...])         # the simulated LED backend's state
    hub.publish_frame(jpeg_bytes, {"q,r": confidence, ...})

Without a ``session`` the app plays an in-memory game with simulated cards (the
referee's sandbox on a laptop, the tests).

>>> app = create_app({"REFEREE_PIN": "424242"})
>>> app.config["REFEREE_PIN"], app.config["MAX_CONTENT_LENGTH"]
('424242', 262144)
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Mapping

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from .config import WebConfig, new_pin, web_settings
from .games import GameMode, register_mode
from .hub import GameHub
from .jsonio import error_response
from .live import GameControlError, PageAdapter
from .serve import BackgroundServer, serve
from .security import PinGuard, add_security_headers, csrf_token, is_referee

__all__ = ["create_app", "GameMode", "GameHub", "PageAdapter", "GameControlError", "WebConfig", "BackgroundServer", "serve"]

log = logging.getLogger(__name__)


def create_app(config: Mapping | object | None = None, *, session=None, hub: GameHub | None = None,
               hints=None, ai_seats=None, camera_relearn=None, games: Iterable[GameMode] = ()) -> Flask:
    """The whole page around the table's one live game, built in one go.

    ``config`` overlays :class:`WebConfig` (settings only: a key it does not declare is a
    ``ValueError``). The live objects go into ``app.extensions``: ``session`` (a
    :class:`session.TableSession`; ``None``: an in-memory game with simulated cards),
    ``hub`` (``None``: a fresh :class:`GameHub`), ``hints`` and ``ai_seats`` (the AI, see
    :mod:`companion_web.hints`), ``camera_relearn`` (see :mod:`companion_web.camera`), and
    ``games``, other games' blueprints with their guards (:mod:`companion_web.games`).
    """
    app = Flask(__name__)
    app.config.from_object(WebConfig)
    app.config.from_mapping(web_settings(config))
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secrets.token_bytes(32)
    pin = app.config.get("REFEREE_PIN") or new_pin()
    app.config["REFEREE_PIN"] = str(pin)

    hub = GameHub() if hub is None else hub
    if session is None:
        from session import TableSession

        session = TableSession(deal=True)
    games = tuple(games)
    app.extensions.update({
        "maamut_hub": hub,
        "maamut_game": PageAdapter(session, hub),
        "maamut_pin": PinGuard(app.config["REFEREE_PIN"], app.config["PIN_MAX_FAILURES"],
                               app.config["PIN_LOCKOUT_S"]),
        "maamut_hints": hints,
        "maamut_ai_seats": ai_seats,
        "maamut_camera_relearn": camera_relearn,
    })
    app.jinja_env.globals.update(csrf_token=csrf_token, is_referee=is_referee,
                                 other_games=tuple((mode.name, mode.link) for mode in games))

    from . import api, camera, control, pages, stream
    from . import hints as hint_routes

    for blueprint in (pages.bp, api.bp, control.bp, stream.bp, hint_routes.bp, camera.bp):
        app.register_blueprint(blueprint)
    for mode in games:
        register_mode(app, mode)

    app.after_request(add_security_headers)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        # JSON for the API, a plain page otherwise; never Werkzeug's debugger or a trace.
        if request.path.startswith("/api/"):
            return error_response(exc.code or 500, exc.name.lower().replace(" ", "_"), exc.description or exc.name)
        return exc

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unexpected error on %s", request.path)
        return error_response(500, "internal_error", "the server hit an unexpected error; it was logged")

    return app

"""The companion web page: live board, flight explanations, referee sandbox.

``create_app(config)`` builds the Flask application around the table's one live game
(a :class:`session.TableSession`); every change of that game reaches every open page,
whoever proposed it (camera, buttons, page)::

    table = TableSession(journal, players)    # the owner of the live game
    hub = GameHub()
    app = create_app({"HUB": hub, "SESSION": table})
    print("referee PIN:", app.config["REFEREE_PIN"])
    BackgroundServer(app, host="0.0.0.0", port=8080).start()   # or serve(app, ...)
    table.play(engine.Move("A", "E", 2), source="camera")   # shown on every page
    hub.update(leds=[[r, g, b], ...])         # the simulated LED backend's state
    hub.publish_frame(jpeg_bytes, {"q,r": confidence, ...})

Without a ``SESSION`` the app plays an in-memory game with simulated cards (the
referee's sandbox on a laptop, the tests).

>>> app = create_app({"REFEREE_PIN": "424242"})
>>> app.config["REFEREE_PIN"], app.config["MAX_CONTENT_LENGTH"]
('424242', 262144)
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from .config import WebConfig, new_pin
from .hub import GameHub
from .jsonio import error_response
from .live import GameControlError, WebTable
from .serve import BackgroundServer, serve
from .security import PinGuard, add_security_headers, csrf_token, is_referee

__all__ = ["create_app", "GameHub", "WebTable", "GameControlError", "WebConfig", "BackgroundServer", "serve"]

log = logging.getLogger(__name__)


def create_app(config: Mapping | object | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_object(WebConfig)
    if isinstance(config, Mapping):
        app.config.from_mapping(config)
    elif config is not None:
        app.config.from_object(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secrets.token_bytes(32)
    pin = app.config.get("REFEREE_PIN") or new_pin()
    app.config["REFEREE_PIN"] = str(pin)

    hub = app.config.get("HUB") or GameHub()
    from session import TableSession

    table = app.config.get("SESSION") or TableSession(deal=True)
    app.extensions["maamut_hub"] = hub
    app.extensions["maamut_game"] = WebTable(table, hub)
    app.extensions["maamut_pin"] = PinGuard(app.config["REFEREE_PIN"], app.config["PIN_MAX_FAILURES"],
                                            app.config["PIN_LOCKOUT_S"])
    app.jinja_env.globals.update(csrf_token=csrf_token, is_referee=is_referee)

    from . import api, camera, control, hints, pages, stream

    for blueprint in (pages.bp, api.bp, control.bp, stream.bp, hints.bp, camera.bp):
        app.register_blueprint(blueprint)

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

"""Other games on the same page, each a blueprint registered with its own guard.

The companion referees Mâamut and may carry other games of the same table (Mammut,
``ostby_mammut``). The app wiring describes each as a :class:`GameMode`: its Flask
blueprint, the live objects its views read from ``app.extensions``, and its name in the
page's menu. :func:`companion_web.create_app` registers every mode while it builds the
app, behind the same referee authority as Mâamut's changes: a write (any method but
GET, HEAD and OPTIONS) needs the ``X-Referee-PIN`` header or a referee login on this
browser. A login is enough without a CSRF token only because a mode's blueprint refuses
writes that lack a custom header of its own (Mammut's ``X-Mammut: 1``), which no
cross-site form can send; a mode whose blueprint does not must not be registered so.

A mode with a ``live`` part (an object with ``state() -> dict``, the mode's whole view
as JSON, and ``subscribe(fn)``, calling ``fn(state)`` after each committed change) gets
the Mâamut pages' live updates: its own :class:`GameHub`, served as server-sent events on
``<its prefix>/api/stream`` (endpoint ``<blueprint name>_stream``), in the same stream
slots, with the same reconnect and catch-up (``Last-Event-ID``).

A mode whose players act from their own phones says so on its blueprint
(``blueprint.player_rights``, a :class:`PlayerRights`): a write without the referee's
authority that carries a player's link in the named header is then let through to the
routes listed there, and only those, with the player it names in ``flask.g.game_player``
(the route decides whether that write is the player's own to make); an unknown link, or
another route, is refused with a 403 saying why in English and French. The link is
checked here once; the referee keeps every right.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from flask import Blueprint, Flask, current_app, g, request

from rulekit.players import PlayerRights

from .hub import GameHub
from .jsonio import error_response
from .security import is_referee


READS = ("GET", "HEAD", "OPTIONS")


@dataclass(frozen=True)
class GameMode:
    """One more game on the page (see the module docstring)."""

    #: Its name in the page's menu (a proper name, the same in French and English).
    name: str
    blueprint: Blueprint
    #: What its views find in ``app.extensions`` (its table, its journal...).
    extensions: Mapping[str, object] = field(default_factory=dict)
    #: Its live part, for live updates on every device (module docstring); ``None``: none.
    live: object | None = None

    @property
    def link(self) -> str:
        """Where the menu leads: the blueprint's own page."""
        return (self.blueprint.url_prefix or "").rstrip("/") + "/"


def register_mode(app: Flask, mode: GameMode) -> None:
    """Add ``mode`` to ``app``: its live objects, its referee guard, then its blueprint
    (so the guard answers before the blueprint's own checks, as a 401)."""
    app.extensions.update(mode.extensions)

    def writes_need_the_referee():
        return _refuse_without_referee(mode.name, getattr(mode.blueprint, "player_rights", None))

    app.before_request_funcs.setdefault(mode.blueprint.name, []).append(writes_need_the_referee)
    app.register_blueprint(mode.blueprint)
    if mode.live is not None:
        _serve_live(app, mode)


def _serve_live(app: Flask, mode: GameMode) -> None:
    from .stream import event_stream

    hub = GameHub(render=dict)  # the mode's state is already its view
    hub.publish(mode.live.state())
    mode.live.subscribe(hub.publish)
    app.extensions[f"{mode.blueprint.name}_hub"] = hub
    app.add_url_rule(mode.link + "api/stream", endpoint=f"{mode.blueprint.name}_stream",
                     view_func=lambda: event_stream(hub))


def _refuse_without_referee(name: str, players: PlayerRights | None = None):
    g.game_player = None
    if request.method in READS:
        return None
    pin = request.headers.get("X-Referee-PIN")
    if pin is not None and current_app.extensions["maamut_pin"].check(request.remote_addr or "?", pin):
        return None
    if pin is None and is_referee():
        return None  # the mode's own custom header stands in for a CSRF token (module docstring)
    token = request.headers.get(players.header) if players else None
    if token is None:
        return error_response(401, "referee_only", f"{name} mode: log in with the referee PIN first (/referee)")
    player = players.player_of(token)
    if player is None:
        return error_response(403, "unknown_player", "this link is no player's of the game on the table",
                              players.header, "request.rights", "ce lien n'est celui d'aucun joueur de la partie en cours")
    if request.endpoint not in players.endpoints:
        return error_response(403, "referee_only", f"{player}: only the referee may do this; a player's own page "
                              "gives only that player's choices and cards", players.header, "request.rights",
                              f"{player} : seul l'arbitre peut faire ceci ; la page d'un joueur ne donne que "
                              "ses propres choix et ses cartes")
    g.game_player = player
    return None


__all__ = ["GameMode", "PlayerRights", "register_mode"]  # PlayerRights: rulekit.players, for the modes

"""The HTML pages: live view (``/``: board, result banner, move list to step through),
stand screen (``/stand``: a big board, the last turn in words, the QR code, the LEDs'
attract animation between games), referee sandbox, setup wizard, referee login and
controls (with the LED mirror drawn as the board and the camera's confidence over it).

Pages are plain Jinja templates (autoescaped); the scripts they load fill them from the
JSON API and the event stream, writing data only through ``textContent``.
"""

from __future__ import annotations

import json

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for

from engine.variants import CHOICES
from rulekit.players import DEFAULT_COLOURS

from .board_svg import PALETTE
from .variants_text import variant_help
from .security import csrf_ok
from .security import login as pin_login

bp = Blueprint("pages", __name__)

#: Where a login may send the referee back to (never an address from the request).
_AFTER_LOGIN = {"setup": "pages.setup", "referee": "pages.referee", "mammut": "ostby_mammut.page"}


@bp.get("/")
def live():
    _, payload = current_app.extensions["maamut_hub"].latest()
    return render_template("live.html", svg=json.loads(payload).get("svg", ""))


#: Every named variant with its allowed values, the default first (the engine's table).
VARIANTS = {name: list(values) for name, values in CHOICES.items()}


@bp.get("/sandbox")
def sandbox():
    return render_template("sandbox.html", variants=VARIANTS, variant_help=variant_help())


#: The palette's colours as people name them, in both languages (a player's default name).
COLOUR_NAMES = {"red": "rouge", "blue": "bleu", "yellow": "jaune", "purple": "violet", "orange": "orange",
                "black": "noir", "white": "blanc", "pink": "rose"}


def colour_names() -> dict:
    """``{"#rrggbb": {"en": "Red", "fr": "Rouge"}}`` for the palette.

    >>> colour_names()["#d7263d"]
    {'en': 'Red', 'fr': 'Rouge'}
    """
    return {hex_: {"en": name.capitalize(), "fr": COLOUR_NAMES.get(name, name).capitalize()}
            for name, hex_ in PALETTE.items()}


def _setup_page(error: str = ""):
    return render_template("setup.html", colour_names=colour_names(), default_for=dict(zip("ABCD", DEFAULT_COLOURS)),
                           variants=VARIANTS, variant_help=variant_help(), error=error)


@bp.get("/setup")
def setup():
    return _setup_page()


@bp.get("/referee")
def referee():
    return render_template("referee.html", error="")


@bp.get("/stand")
def stand():
    """The convention stand's screen: a big board, the last explanation, the QR code."""
    _, payload = current_app.extensions["maamut_hub"].latest()
    return render_template("stand.html", svg=json.loads(payload).get("svg", ""))


@bp.post("/referee/login")
def login():
    # A failed login shows the same page again, whose form keeps the same "next".
    page = request.form.get("next", "")
    target = _AFTER_LOGIN.get(page, "pages.referee")
    if target not in current_app.view_functions:
        target = "pages.referee"

    def again(error: str):
        if page == "setup":
            return _setup_page(error), 403
        return render_template("referee.html", error=error), 403

    if not csrf_ok():
        return again("Session expired: reload the page and try again.")
    if not pin_login(request.form.get("pin", "")):
        return again("Wrong PIN (or too many attempts: wait a few minutes).")
    return redirect(url_for(target))


@bp.post("/referee/logout")
def logout():
    if csrf_ok():
        session.clear()
    return redirect(url_for("pages.live"))

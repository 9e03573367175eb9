"""What the La Vallée browser tests share: Debian's chromium marks, the sizes, the
referee's PIN, a served table, a watched page, screenshots (``test-artifacts/vallee/``).
The ``browser`` fixture itself is in this folder's ``conftest.py``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion_web import create_app
from companion_web.serve import BackgroundServer
from maamut.app import vallee_mode
from tests.chromium import CHROMIUM
from vallee.core import IllegalRequest

PIN = "246810"
WRITE = {"X-Referee-PIN": PIN, "X-Vallee": "1"}
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "vallee"
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}

#: Each browser test module's ``pytestmark``: marked browser, skipped without chromium.
BROWSER_TESTS = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed at /usr/bin/chromium"),
]


def serve(folder: Path) -> BackgroundServer:
    """The site with La Vallée's live table kept in ``folder``, served in the background."""
    app = create_app({"REFEREE_PIN": PIN}, games=[vallee_mode(str(folder / "maps"), str(folder / "vallee-game.jsonl"))])
    running = BackgroundServer(app, threads=8).start()
    running.app = app
    return running


def table(server):
    return server.app.extensions["vallee_table"]


def play_one(t, rng) -> None:
    """One entry of the random player (a card it offers that the game refuses is not played)."""
    from vallee.autoplay import answer
    entry = answer(t.game, rng)
    try:
        t.play(entry)
    except IllegalRequest:
        if entry["kind"] != "trick":
            raise


def context(browser, size: str, **options):
    """A new device of ``size`` whose page collects its errors in ``page.errors``."""
    ctx = browser.new_context(viewport=SIZES[size], **options)
    page = ctx.new_page()
    page.errors = []
    page.on("console", lambda msg: msg.type == "error" and "status of 404" not in msg.text and page.errors.append(msg.text))
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("response", lambda r: r.status >= 400 and r.status != 404 and page.errors.append(f"{r.status} {r.url} {r.text()}"))
    return ctx, page


def login(page, server) -> None:
    page.goto(server.url + "/referee")
    page.fill("input[name='pin']", PIN)
    page.click("form.login button[type='submit']")
    page.wait_for_load_state("load")


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

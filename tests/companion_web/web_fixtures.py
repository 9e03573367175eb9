"""Constants and helpers shared by the web tests (imported as ``web_fixtures``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

PIN = "246810"
#: The rulebook figure as RULINGS states it: mammoth 0,2, rock 0,1, a hunter at -2,2.
FIGURE = "gggg/ggggg/gggggg/gggxggg/gggrgg/ggggg/gggg 0,2 A@-2,2;B@3,-3 - A"
FIGURE_MOVE = {"type": "move", "hunter": "A", "direction": "E", "distance": 2}


def start_new_game(client, referee, players=None, seed=7):
    players = players or [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bob"}]
    response = client.post("/api/game/new", json={"players": players, "seed": seed}, headers=referee)
    assert response.status_code == 200, response.json
    return response


def place_all(client, referee):
    """Place every hunter on the first free start cell, as the setup wizard would."""
    from engine.hexgrid import cell_name

    game = client.application.extensions["maamut_game"].session.game
    while game.next_to_place():
        cell = cell_name(game.start_cells()[0])
        response = client.post("/api/game/place", json={"player": game.next_to_place(), "cell": cell},
                               headers=referee)
        assert response.status_code == 200, response.json
    return game



#: A flight through a hunter: A enters the mammoth's cell going E, the mammoth runs E
#: through B at 1,0, whose owner must then choose where B flees.
FLEE = "gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@-2,0;B@1,0 - A"


from tests.chromium import CHROMIUM  # noqa: E402  (re-exported for the tests)
#: Screenshots of the browser tests, for a human to look at (gitignored).
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
#: Marks of every real-browser test module.
BROWSER_TESTS = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed at /usr/bin/chromium"),
]


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def shot(page, name: str, full: bool = True) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)


def log_in(page, url: str, pin: str = PIN) -> None:
    """Open ``url`` (a page behind the referee PIN) and log in with the PIN form."""
    page.goto(url)
    page.fill("input[name='pin']", pin)
    page.click("form.login button[type='submit']")


def watched_context(browser, **options):
    """A browser context and its page, which collects console errors and uncaught
    exceptions in ``page.errors`` (a missing favicon's 404 aside), for tests to assert
    the page ran cleanly. ``options`` go to ``new_context``; the default is a desktop."""
    context = browser.new_context(**({"viewport": {"width": 1600, "height": 1000}} | options))
    page = context.new_page()
    page.errors = []
    page.on("console", lambda msg: msg.type == "error" and "status of 404" not in msg.text
            and page.errors.append(msg.text))
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return context, page


def play_into_the_flee_figure_in_the_sandbox(page, base_url: str) -> None:
    """Open the sandbox on ``FLEE`` and play A E2: the mammoth runs through B, and the
    page waits until B's flee options are drawn."""
    from urllib.parse import quote

    page.goto(base_url + "/sandbox?p=" + quote(FLEE))
    page.wait_for_selector("#sb-board svg g.mammoth[data-cell='0,0']")
    page.select_option("#sb-hunter", "A")
    page.select_option("#sb-dir", "E")
    page.select_option("#sb-card", "2")
    page.click("#sb-play")
    page.wait_for_selector("#sb-board circle.flee-option[data-cell='1,1']")

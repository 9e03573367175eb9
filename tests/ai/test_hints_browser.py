"""The page's "suggest a move" toggle (the referee's, issue 22) and the AI seat's panel in
Debian's chromium."""

from __future__ import annotations

import os

import pytest

import engine
from companion_web import create_app
from companion_web.serve import BackgroundServer
from ai.seats import AiSeats
from session import TableSession
from tests.chromium import CHROMIUM, launched

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed at /usr/bin/chromium"),
]


def _small_hints(position, player, hand=None):
    from ai import hints
    return hints(position, player, hand=hand, iterations=30, seed=1)


def test_a_player_ticks_suggest_a_move_and_sees_the_best_actions_and_the_ai_seat():
    sync_api = pytest.importorskip("playwright.sync_api")
    table = TableSession(players=[{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bot"}])
    table.new_game(seed=3)
    cells = table.game.start_cells()
    table.place_hunter("A", engine.hexgrid.cell_name(cells[0]))
    table.place_hunter("B", engine.hexgrid.cell_name(cells[-1]))
    seats = AiSeats(table, {"B": "easy"}, seed=1, background=False)
    app = create_app({"REFEREE_PIN": "424242"}, session=table, hints=_small_hints, ai_seats=seats)
    server = BackgroundServer(app, threads=8).start()
    try:
        with launched() as browser:
            page = browser.new_page()
            errors = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            # A viewer sees the AI seat, never suggestions: they are the referee's.
            page.goto(server.url + "/")
            box = page.locator("#hints-box")
            box.wait_for(timeout=10000)
            sync_api.expect(box).to_contain_text("Bot (easy)")
            assert page.locator('#hints-box input[data-player="A"]').count() == 0
            page.goto(server.url + "/referee")
            page.fill("input[name='pin']", "424242")
            page.click("form.login button[type='submit']")
            page.wait_for_selector("#ref-board svg")
            page.goto(server.url + "/")
            box.wait_for(timeout=10000)
            page.locator('#hints-box input[data-player="A"]').check()
            page.locator("#hints-box ol.hints li").first.wait_for(timeout=15000)
            assert "%" in page.locator("#hints-box ol.hints li").first.text_content()
            assert "Bot (easy)" in box.text_content() and "Ann:" in page.locator("#hints-box ol.hints li").first.text_content()
            assert errors == []
    finally:
        server.stop()

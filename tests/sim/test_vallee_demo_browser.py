"""``maamut demo --game vallee`` seen by a visitor: the game master's page in Debian's
chromium follows the simulated players live (no reload): the history grows, the
question and the pieces change. Screenshot in ``test-artifacts/vallee/``."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from companion_web import create_app
from companion_web.serve import BackgroundServer
from maamut.app import vallee_mode
from sim.vallee_demo import ValleeDemo
from tests.chromium import CHROMIUM, launched

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "vallee"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed at /usr/bin/chromium"),
]


def test_the_valley_page_follows_the_demo_live(tmp_path):
    app = create_app({"REFEREE_PIN": "246810"},
                     games=[vallee_mode(str(tmp_path / "maps"), str(tmp_path / "demo-vallee.jsonl"))])
    table = app.extensions["vallee_table"]
    server = BackgroundServer(app, threads=8).start()
    stop = threading.Event()
    demo = ValleeDemo(table, seed=6, step_s=0.25, attract_s=0, max_entries=40, stop=stop)
    runner = threading.Thread(target=demo.run)
    try:
        with launched() as browser:
            page = browser.new_page(viewport={"width": 1024, "height": 768})
            errors = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server.url + "/vallee/")
            runner.start()
            page.wait_for_function("() => document.querySelectorAll('#history > li').length >= 3", timeout=20000)
            first = page.eval_on_selector("#vallee-game", "n => n.dataset.etag")
            seen = page.eval_on_selector_all("#history > li", "items => items.length")
            page.wait_for_function("(n) => document.querySelectorAll('#history > li').length >= n + 5", arg=seen,
                                   timeout=20000)
            assert page.eval_on_selector("#vallee-game", "n => n.dataset.etag") != first
            assert page.locator("#pieces svg").count() == 1, "the pieces are drawn over the valley"
            assert page.locator("#step-question").inner_text().strip(), "the question asked now is said"
            newest = page.locator("#history > li").first.inner_text()
            words = [h["en"] for h in table.state()["log"]]
            assert any(w in newest for w in words), "the history shows the table's own entries in words"
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "demo-live.png"), full_page=True)
            assert not errors, errors
    finally:
        stop.set()
        if runner.is_alive():
            runner.join(timeout=10)
        server.stop()
    assert demo.stats.errors == 0, demo.stats.messages

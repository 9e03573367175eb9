"""A full round of Mammut on the page, in Debian's chromium through Playwright."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import flask
import pytest
from werkzeug.serving import make_server

from ostby_mammut.web import register

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "mammut"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed at /usr/bin/chromium"),
]


@pytest.fixture
def server(tmp_path):
    app = flask.Flask(__name__)
    journal = tmp_path / "mammut.jsonl"
    register(app, str(journal))
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}", journal
    srv.shutdown()
    thread.join(timeout=5)


@pytest.fixture
def page():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"])
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = context.new_page()
        page.errors = []
        page.on("console", lambda msg: msg.type == "error" and page.errors.append(msg.text))
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.external = []
        page.missing = []
        page.on("response", lambda r: r.status == 404 and page.missing.append(r.url))
        page.on("request", lambda req: (req.url.startswith("http://127.0.0.1") or page.external.append(req.url)))
        yield page
        context.close()
        browser.close()


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def fill(page, prefix, counts):
    for kind, n in counts.items():
        page.fill(f"#{prefix}{kind}", str(n))


def test_full_round_on_the_page(server, page):
    base, journal = server
    page.goto(base + "/mammut/?lang=en")
    page.fill("#setup-players", "Ana, Bo, Cy")
    page.click("#start")
    expect(page.locator("#headline")).to_have_text("Round 1 — Ana to play")
    expect(page.locator("#legal")).to_contain_text("First move of the round")

    # Ana takes two meat and the shaman tile
    fill(page, "take-", {"meat": 2, "shaman": 1})
    page.click("#take")
    expect(page.locator("#headline")).to_have_text("Round 1 — Bo to play")
    expect(page.locator("#legal")).to_contain_text("Rob Ana (3 tiles, give back 1 to 2)")

    # Bo robs Ana, gives a meat back; then undoes it and takes a fire instead
    page.click("#rob-0-0")
    fill(page, "give-", {"meat": 1})
    page.click("#steal")
    expect(page.locator("#headline")).to_have_text("Round 1 — Cy to play")
    expect(page.locator("#player-1")).to_contain_text("shaman")
    page.click("#undo")
    expect(page.locator("#headline")).to_have_text("Round 1 — Bo to play")
    before = page.query_selector("#take-fire")
    page.click("#card-eval")  # an evaluation card, face down, before taking
    before.wait_for_element_state("hidden")  # the page drew the card's answer afresh
    fill(page, "take-", {"fire": 1})
    page.click("#take")

    # Cy is the last without loot: taking part of the middle is refused with its rule
    expect(page.locator("#legal")).to_contain_text("Cy is the last without loot: take all 28 tiles.")
    page.click("#lang-fr")
    expect(page.locator("#legal")).to_contain_text("Cy est le dernier sans butin")
    page.click("#lang-en")
    page.click("#take-all")

    # evaluation: Cy turns his 28 tiles up, Bo's card was the axe bonus
    expect(page.locator("#evaluation")).to_be_visible()
    # every tile of the set once, on a side it carries (the set is checked as a whole)
    fill(page, "reveal-2-", {"meat": 4, "skin": 5, "fire": 3, "tusk": 4, "axe": 5,
                             **{s: 1 for s in ("bear", "bison", "boar", "deer", "horse", "ibex", "wolf")}})
    page.fill("#reveal-0-meat", "1")
    page.click("#score")
    expect(page.locator("#error")).to_contain_text("eval.reveal")  # Ana took two meat face up
    page.fill("#reveal-0-meat", "2")
    page.select_option("#evcard-1-0", "axes_bonus")
    page.click("#score")

    expect(page.locator("#headline")).to_have_text("Round 2 — Cy to play")
    result = page.locator(".round-result").first
    expect(result).to_contain_text("Round 1 scored")
    expect(result).to_contain_text("Meat place 1 with 4: +8")
    expect(result).to_contain_text("Axe bonus card: 5 axe(s) × 2")
    expect(result).to_contain_text("eval.fire")
    page.click("#lang-fr")
    expect(result).to_contain_text("Viande, place 1 avec 4 : +8")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "round1.png"), full_page=True)

    # the page after a restart is the same game (journal replay); French was remembered
    page.goto(base + "/mammut/")
    expect(page.locator("#headline")).to_have_text("Manche 2 — À Cy de jouer")
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [r["type"] for r in records].count("undo") == 1 and records[-1]["action"]["type"] == "evaluate"
    # the only console errors are the refused requests the test made on purpose (409) and the favicon
    assert all("Failed to load resource" in e for e in page.errors), page.errors
    assert all(url.endswith("/favicon.ico") for url in page.missing), page.missing
    assert page.external == []

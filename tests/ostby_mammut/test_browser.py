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
from tests.chromium import CHROMIUM, launched

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
    with launched() as browser:
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
    # Ana took two meat face up: the rule is named by its section, never by its id
    expect(page.locator("#error")).to_contain_text("Ana holds 2 loot tiles, 1 were described — FR «Évaluation du butin»")
    assert "eval.reveal" not in page.locator("#error").inner_text()
    page.fill("#reveal-0-meat", "2")
    page.select_option("#evcard-1-0", "axes_bonus")
    page.click("#score")

    expect(page.locator("#headline")).to_have_text("Round 2 — Cy to play")
    result = page.locator(".round-result").first
    expect(result).to_contain_text("Round 1 scored")
    expect(result).to_contain_text("Meat place 1 with 4: +8")
    expect(result).to_contain_text("Axe bonus card: 5 axes × 2")
    expect(result).to_contain_text("«Évaluation du butin»")
    assert "eval.fire" not in result.inner_text()
    # each player's round total, and how ties were settled, in words
    for row in result.locator("table.totals tr[data-player]").all():
        assert row.locator("td.num").inner_text().lstrip("+-").isdigit()
    expect(result.locator(".ties")).to_contain_text("Ties are settled by the shaman order")
    page.click("#lang-fr")
    expect(result).to_contain_text("Viande, place 1 avec 4 : +8")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "round1.png"), full_page=True)
    # on a phone: the scoreboard and the round's lines fit, no sideways scroll
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "round1-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 1000})

    # the page after a restart is the same game (journal replay); French was remembered
    page.goto(base + "/mammut/")
    expect(page.locator("#headline")).to_have_text("Manche 2 — À Cy de jouer")
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [r["type"] for r in records].count("undo") == 1 and records[-1]["action"]["type"] == "evaluate"
    # the only console errors are the refused requests the test made on purpose (409); no favicon is missing
    assert all("Failed to load resource" in e for e in page.errors), page.errors
    assert page.missing == [], page.missing
    assert page.external == []


# --- Mammut inside the companion (issue 22): the table's page on every phone -----------

PIN = "135790"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}


@pytest.fixture
def companion(tmp_path):
    """The product's page (Mâamut and Mammut on one site), served by waitress."""
    from companion_web import create_app
    from companion_web.serve import BackgroundServer
    from maamut.app import mammut_mode

    app = create_app({"REFEREE_PIN": PIN}, games=[mammut_mode(str(tmp_path / "mammut.jsonl"))])
    server = BackgroundServer(app, threads=16).start()
    yield server.url
    server.stop()


@pytest.fixture
def browser():
    with launched() as browser:
        yield browser


def _watched(browser, **options):
    context = browser.new_context(**options)
    page = context.new_page()
    page.errors, page.missing = [], []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("response", lambda r: r.status == 404 and page.missing.append(r.url))
    return context, page


def test_two_phones_follow_the_same_mammut_table_within_a_second(companion, browser):
    referee_context, referee = _watched(browser, **PHONE)
    viewer_context, viewer = _watched(browser, viewport={"width": 1366, "height": 900})
    # PIN first, with a link: the referee logs in on the Mammut page itself.
    referee.goto(companion + "/mammut/?lang=en")
    expect(referee.locator("#pin-first")).to_contain_text("enter the referee PIN first")
    expect(referee.locator("#pin-first a[href='/referee']")).to_be_visible()
    referee.fill("#pin-first input[name='pin']", PIN)
    referee.click("#pin-first button[type='submit']")
    expect(referee.locator("#pin-first")).to_have_count(0)
    viewer.goto(companion + "/mammut/")
    expect(viewer.locator("#conn")).to_have_attribute("data-state", "live")
    referee.locator("#show-setup").click()
    referee.fill("#setup-players", "Ana, Bo, Cy, Dan")
    referee.click("#start")
    expect(viewer.locator("#headline")).to_contain_text("Ana to play", timeout=1000)
    # A take by taps: two meat tiles, one fire, then the steppers take one meat back.
    referee.click("#take-meat-tile")
    referee.click("#take-meat-tile")
    referee.click("#take-fire-tile")
    referee.locator("#take-meat").locator("xpath=..").locator("button.less").click()
    expect(referee.locator("#take-meat")).to_have_value("1")
    referee.click("#take")
    expect(viewer.locator("#headline")).to_contain_text("Bo to play", timeout=1000)
    expect(viewer.locator("#player-0")).to_contain_text("meat", timeout=1000)
    # The referee takes the turn back: the viewer follows that too.
    referee.click("#undo")
    expect(viewer.locator("#headline")).to_contain_text("Ana to play", timeout=1000)
    assert referee.evaluate("document.documentElement.scrollWidth") <= 390
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    referee.screenshot(path=str(ARTIFACTS / "companion-phone.png"), full_page=True)
    viewer.screenshot(path=str(ARTIFACTS / "companion-desktop.png"), full_page=True)
    assert referee.errors == [] and viewer.errors == []
    assert referee.missing == [] and viewer.missing == []  # no favicon asked for in vain
    referee_context.close()
    viewer_context.close()


def test_a_viewer_is_told_to_log_in_with_a_link_and_the_language_is_the_sites(companion, browser):
    context, page = _watched(browser, **PHONE)
    page.goto(companion + "/")
    page.click("button[data-lang='fr']")
    page.goto(companion + "/mammut/")
    expect(page.locator("#pin-first")).to_contain_text("entrez d'abord le code de l'arbitre")
    page.locator("#show-setup").click()
    page.fill("#setup-players", "Ana, Bo")
    page.click("#start")
    expect(page.locator("#error")).to_contain_text("Seul l'arbitre modifie la partie")
    expect(page.locator("#error a[href='/referee']")).to_be_visible()
    assert "(/referee)" not in page.locator("#error").inner_text()
    # One language setting for the whole site: English chosen here is English on Mâamut's page.
    page.click("button[data-lang='en']")
    expect(page.locator("#pin-first")).to_contain_text("enter the referee PIN first")
    page.goto(companion + "/")
    expect(page.locator("nav a").first).to_have_text("Live")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


AXE = Path(__file__).resolve().parents[2] / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (scripts/test.sh installs it with npm)")
def test_the_mammut_page_has_no_serious_accessibility_violation(companion, browser):
    context, page = _watched(browser, bypass_csp=True, **PHONE)
    page.goto(companion + "/mammut/")
    page.fill("#pin-first input[name='pin']", PIN)
    page.click("#pin-first button[type='submit']")
    page.locator("#show-setup").click()
    page.fill("#setup-players", "Ana, Bo, Cy")
    page.click("#start")
    expect(page.locator("#headline")).to_contain_text("Ana")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    bad = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
           if v["impact"] in ("serious", "critical")]
    context.close()
    assert bad == []

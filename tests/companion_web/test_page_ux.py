"""The page as players, referees and visitors use it (issue 15), in Debian's chromium:
the result banner, the move list stepping through the game, explanations with the rule
one click away, the stand screen, the referee's LED board and camera overlay, the setup
wizard's start cells, sound cues, and an axe-core accessibility check of every page.

Screenshots go to ``test-artifacts/web/`` (gitignored) for a human to look at.
"""

from __future__ import annotations

import random
import urllib.request
from pathlib import Path

import pytest

from engine.hexgrid import cell_name
from web_fixtures import BROWSER_TESTS, log_in, FLEE, PIN, expect, play_into_the_flee_figure_in_the_sandbox, shot, watched_context

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"

pytestmark = BROWSER_TESTS


def _play_to_the_end(server, seed: int, players=("Ann", "Bob"), stop_after: int | None = None):
    """A whole random game on the live table (flee choices: the first option)."""
    table = server.app.extensions["maamut_game"].session
    table.new_game([{"id": chr(65 + i), "name": name} for i, name in enumerate(players)], seed=seed)
    game = table.game
    while game.next_to_place():
        table.place_hunter(game.next_to_place(), cell_name(game.start_cells()[0]))
    rng = random.Random(seed)
    turns = 0
    while not game.winner and turns < 300 and (stop_after is None or turns < stop_after):
        outcome = table.play(rng.choice(game.legal_actions()), ())
        while outcome.needs:
            option = outcome.needs.options[0]
            outcome = table.choose_flee(option if isinstance(option, str) else cell_name(option))
        turns += 1
    return game


def _login(page, server, where="/referee"):
    log_in(page, server.url + where)


def test_a_won_game_shows_a_banner_and_the_move_list_steps_through_it(server, page):
    game = _play_to_the_end(server, seed=10)  # Ann (A) traps the mammoth on turn 15
    assert game.winner == "A"
    page.goto(server.url + "/")
    page.wait_for_selector("#conn[data-state='live']")
    expect(page.locator("#banner")).to_have_text("Ann trapped the mammoth!")
    assert page.locator("#banner").get_attribute("data-kind") == "hunters"
    # The last move is highlighted on the board (from and to).
    assert page.locator("#board svg polygon.last-to").count() >= 1
    assert page.locator("#board svg polygon.last-from").count() >= 1
    # Turns are numbered by the page itself, never clipped: the newest is on top.
    entries = len(game.entries())
    first = page.locator("#log li").first
    assert first.locator(".num").inner_text() == "15"
    num_box, log_box = first.locator(".num").bounding_box(), page.locator("#log").bounding_box()
    assert num_box["x"] >= log_box["x"]
    # Sentences first; the rule citation is folded away, one click to open.
    details = first.locator("details.why").first
    assert details.get_attribute("open") is None and "[" not in first.inner_text()
    details.locator("summary").click()
    expect(details.locator(".cite").first).to_contain_text("RULINGS")
    page.wait_for_timeout(1500)  # the flight animation ends before the screenshot
    shot(page, "ux-live-won")
    # Step back: click a turn, then the arrow keys; the board is the one of that moment.
    live_svg = page.locator("#board").get_attribute("data-svg")
    page.locator("#log .turn-btn[data-turn='5']").click()
    expect(page.locator("body")).to_have_attribute("data-viewing", "5")
    expect(page.locator("#step-where")).to_have_text(f"turn {5 - (entries - 15)} of 15")
    expect(page.locator("#log li.current .turn-btn")).to_have_attribute("data-turn", "5")
    assert page.locator("#board").get_attribute("data-svg") != live_svg
    page.keyboard.press("ArrowLeft")
    expect(page.locator("body")).to_have_attribute("data-viewing", "4")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("body")).to_have_attribute("data-viewing", "6")
    shot(page, "ux-live-stepping")
    page.click("#step-live")
    expect(page.locator("body")).to_have_attribute("data-viewing", "live")
    expect(page.locator("#step-live")).to_be_hidden()
    expect(page.locator("#board")).to_have_attribute("data-svg", live_svg)
    # French: the banner, and the citation's tags, in French.
    page.click("button[data-lang='fr']")
    expect(page.locator("#banner")).to_have_text("Ann a piégé le mammouth !")
    page.locator("#log li").first.locator("details.why summary").first.click()
    expect(page.locator("#log li").first.locator(".cite").first).to_contain_text("Arbitrages")
    shot(page, "ux-live-won-fr")
    # The moves can be shared as text, without the cards still to come.
    text = urllib.request.urlopen(server.url + "/game.txt", timeout=10).read().decode()
    assert " 15. " in text and "winner: A" in text and ":1" not in text.split("position:")[1]
    assert page.errors == []


def test_the_mammoth_surviving_and_a_game_cut_short_are_said_plainly(server, page):
    game = _play_to_the_end(server, seed=12)
    assert game.winner == "mammoth"
    page.goto(server.url + "/")
    expect(page.locator("#banner")).to_contain_text("The mammoth survives!")
    assert page.locator("#banner").get_attribute("data-kind") == "mammoth"
    shot(page, "ux-live-mammoth-survives")
    # A stand's game stopped at its turn limit: the next game starts, and the page says
    # how the last one ended until the new one's first turn.
    _play_to_the_end(server, seed=1, stop_after=30)
    table = server.app.extensions["maamut_game"].session
    table.new_game([{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bob"}], seed=5)
    expect(page.locator("#banner")).to_have_text("Last game: stopped after 30 turns, the mammoth survives.")
    assert page.errors == []


def test_a_long_game_shows_three_digit_turn_numbers_whole(server, page):
    game = _play_to_the_end(server, seed=3, stop_after=120)
    assert len(game.entries()) >= 120
    page.goto(server.url + "/")
    first = page.locator("#log li").first
    expect(first.locator(".num")).to_have_text("120")
    num = first.locator(".num")
    assert num.evaluate("n => n.scrollWidth <= n.clientWidth + 1")
    assert num.bounding_box()["x"] >= page.locator("#log").bounding_box()["x"]
    shot(page, "ux-live-long-game")


def test_a_waiting_flight_shows_the_path_and_the_options_in_the_sandbox(server, page):
    play_into_the_flee_figure_in_the_sandbox(page, server.url)
    # While B's owner chooses: the flight's path is drawn and B's options are circled.
    assert page.locator("#sb-board svg polyline.flight").count() == 1
    assert page.locator("#sb-board circle.flee-option").count() == 5
    # The explanation is numbered 1, 2, ... with the tried directions as a sub-list.
    numbered = page.locator("#sb-explain > li").count()
    assert numbered >= 2 and page.locator("#sb-explain > li > ul li").count() >= 1
    page.wait_for_timeout(600)
    shot(page, "ux-flight-waiting")
    assert page.errors == []


def test_the_what_if_grid_says_when_a_flight_waits_for_a_choice(server, page):
    page.goto(server.url + "/sandbox?p=" + urllib.request.quote(FLEE))
    page.wait_for_selector("#sb-board svg g.mammoth[data-cell='0,0']")
    page.select_option("#sb-hunter", "A")
    page.click("#sb-whatif")
    cell = page.locator("#sb-grid td[data-move='E2']")
    expect(cell).to_contain_text("choice pending")
    assert "M → 2,0" not in cell.inner_text()


def test_the_stand_screen_reads_from_three_metres(server, browser):
    context, tv = watched_context(browser, viewport={"width": 1920, "height": 1080})
    _play_to_the_end(server, seed=10)
    server.app.extensions["maamut_hub"].update(url=server.url + "/", leds=[[255, 160, 0]] * 37 + [[0, 0, 255]] * 4)
    tv.goto(server.url + "/stand")
    tv.wait_for_selector("#conn[data-state='live']")
    expect(tv.locator("#banner")).to_have_text("Ann trapped the mammoth!")
    expect(tv.locator("#stand-explain p").first).to_be_visible()
    assert "[" not in tv.locator("#stand-explain").inner_text()  # no citations on the TV
    assert tv.locator("#join-qr").evaluate("img => img.decode().then(() => img.naturalWidth)") > 0
    # Between games the LEDs' attract animation is on screen, drawn as the board.
    expect(tv.locator("#attract circle.led[data-cell]")).to_have_count(37)
    board = tv.locator("#board svg").bounding_box()
    assert board["height"] > 700  # a big board on a 1080p TV
    shot(tv, "ux-stand-1080p", full=False)
    assert tv.errors == []
    context.close()


def test_the_setup_wizard_highlights_start_cells_and_explains_variants(server, page):
    _login(page, server, "/setup")
    page.wait_for_selector("#setup-form")
    group = page.locator("fieldset.variant[data-variant='flee_target']")
    expect(group).to_contain_text("Where may a frightened hunter flee?")
    expect(group.locator(".rule")).to_contain_text("Flight 5")
    page.click("button[data-lang='fr']")
    expect(group.locator("legend .l-fr")).to_have_text("Où un chasseur effrayé peut-il fuir ?")
    expect(group.locator(".rule .l-fr")).to_contain_text("Fuite 5")  # the rule section in French too
    expect(group.locator(".variant-choice .l-fr").first).to_have_text("sur une case sans autre chasseur (règle)")
    page.click("button[data-lang='en']")
    page.fill("#seed", "12")
    page.click("#setup-form button[type='submit']")
    page.wait_for_selector("#setup-board svg circle.start-cell")
    game = server.app.extensions["maamut_game"].session.game
    wanted = sorted(cell_name(c) for c in game.start_cells())
    shown = sorted(page.locator("#setup-board circle.start-cell").evaluate_all("cs => cs.map(c => c.dataset.cell)"))
    assert shown == wanted
    shot(page, "ux-setup-start-cells")
    page.locator(f"#setup-board circle.start-cell[data-cell='{wanted[0]}']").click(force=True)
    expect(page.locator("#setup-board g.hunter")).to_have_count(1)
    assert page.errors == []


def test_a_wrong_pin_on_setup_keeps_the_login_on_setup(server, page):
    page.goto(server.url + "/setup")
    page.fill("input[name='pin']", "000000")
    page.click("form.login button[type='submit']")
    expect(page.locator(".error")).to_contain_text("Wrong PIN")
    page.fill("input[name='pin']", PIN)
    page.click("form.login button[type='submit']")
    page.wait_for_selector("#setup-form")
    assert page.url.endswith("/setup")


def test_sound_is_off_by_default_and_one_toggle_turns_on_the_cues(server, page):
    page.goto(server.url + "/")
    page.wait_for_selector("#conn[data-state='live']")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    page.click("#sound")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    server.app.extensions["maamut_game"].session.mark_board([{"cell": "0,0", "reason": "hunter on the cross"}])
    expect(page.locator("body")).to_have_attribute("data-cue", "illegal")
    _play_to_the_end(server, seed=10)
    expect(page.locator("body")).to_have_attribute("data-cue", "win")
    page.reload()
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")  # remembered
    assert page.errors == []


def test_the_phone_view_keeps_the_board_and_the_move_list_usable(server, browser):
    context, phone = watched_context(browser, viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    _play_to_the_end(server, seed=10)
    phone.goto(server.url + "/")
    expect(phone.locator("#banner")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "ux-phone-live-won")
    context.close()


PAGES = ["/", "/stand", "/sandbox", "/setup", "/referee"]


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (scripts/test.sh installs it with npm)")
def test_no_serious_or_critical_accessibility_violation_on_any_page(server, browser):
    _play_to_the_end(server, seed=10)
    # axe is injected as a script tag, which the pages' strict CSP would refuse.
    context, page = watched_context(browser, bypass_csp=True)
    found = {}
    for logged_in in (False, True):
        if logged_in:
            _login(page, server)
            page.wait_for_selector("#ref-board svg")
        for path in PAGES:
            page.goto(server.url + path)
            page.wait_for_load_state("load")
            page.wait_for_timeout(300)
            page.add_script_tag(path=str(AXE))
            result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
            bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
                   if v["impact"] in ("serious", "critical")]
            if bad:
                found[(path, logged_in)] = bad
    context.close()
    assert found == {}

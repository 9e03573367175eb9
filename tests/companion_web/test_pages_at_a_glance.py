"""Every page understood at a glance (issue 22), in Debian's chromium at a phone
(390×844) and a desktop (1366×900) size: a one-row header and no sideways scroll on
a phone, the legend closed there, no scroll box inside the page, statuses that agree,
coordinates on every board (toggled, remembered), the stand for passers-by, the setup
naming players by colour, and the French pages with no English left (checked against
the page's string table)."""

from __future__ import annotations

import pytest

from engine.hexgrid import cell_name
from web_fixtures import BROWSER_TESTS, log_in, expect, shot, watched_context

pytestmark = BROWSER_TESTS

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}
PAGES = ["/", "/stand", "/sandbox", "/setup", "/referee"]


def _deal(server, place=True, names=("Ann", "Bob", "Cat")):
    table = server.app.extensions["maamut_game"].session
    table.new_game([{"id": chr(65 + i), "name": name} for i, name in enumerate(names)], seed=10)
    game = table.game
    while place and game.next_to_place():
        table.place_hunter(game.next_to_place(), cell_name(game.start_cells()[0]))
    return table, game


def _login(page, server):
    log_in(page, server.url + "/referee")
    page.wait_for_selector("#ref-board svg")


@pytest.mark.parametrize("logged_in", [False, True])
def test_every_page_fits_a_phone_in_one_header_row_without_sideways_scroll(server, browser, logged_in):
    table, game = _deal(server)
    table.play(game.legal_actions()[0], ())
    context, page = watched_context(browser, **PHONE)
    if logged_in:
        _login(page, server)
    for path in PAGES:
        page.goto(server.url + path)
        page.wait_for_load_state("load")
        page.wait_for_timeout(200)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        header = page.locator("header.top").bounding_box()
        assert header["height"] <= 56, (path, header)
        shot(page, f"glance-phone{'-referee' if logged_in else ''}{path.replace('/', '-') or '-live'}")
    assert page.errors == []
    context.close()


def test_the_legend_is_closed_on_a_phone_open_on_a_desktop_and_the_log_is_no_scroll_box(server, browser):
    table, game = _deal(server)
    for _ in range(30):
        if game.winner:
            break
        outcome = table.play(game.legal_actions()[0], ())
        while outcome.needs:
            outcome = table.choose_flee(cell_name(outcome.needs.options[0]))
    for options, is_open in ((PHONE, False), (DESKTOP, True)):
        context, page = watched_context(browser, **options)
        page.goto(server.url + "/")
        page.wait_for_selector("#log li")
        assert (page.locator("details.legend").get_attribute("open") is not None) == is_open
        log = page.locator("#log")
        overflow = log.evaluate("n => [getComputedStyle(n).overflowY, n.scrollHeight - n.clientHeight]")
        assert overflow[0] == "visible" and overflow[1] <= 1
        context.close()


def test_statuses_agree_while_placing_and_when_looking_back(server, browser):
    table, game = _deal(server, place=False)
    context, page = watched_context(browser, **DESKTOP)
    page.goto(server.url + "/")
    expect(page.locator("#status")).to_have_text("Placing hunters: next is Ann")
    expect(page.locator("#players li.turn")).to_have_text("Ann · to place")
    table.place_hunter("A", cell_name(game.start_cells()[0]))
    expect(page.locator("#status")).to_have_text("Placing hunters: next is Bob")
    expect(page.locator("#players li.turn")).to_have_text("Bob · to place")
    while game.next_to_place():
        table.place_hunter(game.next_to_place(), cell_name(game.start_cells()[0]))
    table.play(game.legal_actions()[0], ())
    table.play(game.legal_actions()[0], ())
    expect(page.locator("#players li.turn")).to_contain_text("Cat · to move")
    page.locator("#log .turn-btn[data-turn='4']").click()  # the first turn (three placements before)
    expect(page.locator("#status")).to_have_text("Looking back: turn 1 of 2")
    page.keyboard.press("End")
    expect(page.locator("#status")).to_have_text("Cat · to move")
    assert page.errors == []
    context.close()


def test_the_stand_says_what_the_game_is_without_navigation_or_an_empty_heading(server, browser):
    table, game = _deal(server)
    for options, size in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context, page = watched_context(browser, **options)
        page.goto(server.url + "/stand")
        expect(page.locator(".about")).to_contain_text("drive the mammoth into one of their traps")
        assert page.locator("header nav").count() == 0
        expect(page.locator("#last-turn-title")).to_be_hidden()
        table.play(game.legal_actions()[0], ())
        expect(page.locator("#last-turn-title")).to_be_visible()
        # The last turn in words, big; the notation (with names) small under it.
        expect(page.locator("#stand-explain p").first).to_contain_text(" moves ")
        expect(page.locator("#stand-explain .small-notation")).to_have_attribute("data-notation", game.entries()[-1]["turn"])
        shot(page, f"glance-stand-{size}")
        assert page.errors == []
        table.undo(source="camera")
        context.close()


def test_coordinates_are_on_every_board_and_the_toggle_is_remembered(server, browser):
    _deal(server)
    context, page = watched_context(browser, **DESKTOP)
    _login(page, server)
    boards = {"/": "#board", "/stand": "#board", "/referee": "#ref-board", "/sandbox": "#sb-board"}
    for path, box in boards.items():
        page.goto(server.url + path)
        expect(page.locator(f"{box} svg text.coord")).to_have_count(37)
        expect(page.locator(f"{box} svg g.cell[data-cell='2,-1'] text.coord")).to_have_text("2,-1")
    page.click("button[data-coords]")
    expect(page.locator("#sb-board svg text.coord")).to_have_count(0)
    for path, box in boards.items():
        page.goto(server.url + path)
        page.wait_for_selector(f"{box} svg g.cell")
        page.wait_for_timeout(200)
        assert page.locator(f"{box} svg text.coord").count() == 0, path
    page.click("button[data-coords]")
    expect(page.locator("#sb-board svg text.coord")).to_have_count(37)
    context.close()


def test_setup_names_each_player_by_the_colour_in_the_page_language(server, browser):
    context, page = watched_context(browser, **PHONE)
    log_in(page, server.url + "/setup")
    first = page.locator(".player-row[data-row='0']")
    expect(first.locator("input[name='name']")).to_have_value("Red")
    # The server writes "Red"; the language buttons work once the page's scripts ran
    # (they mark the page's language pressed). Clicked before, under a loaded CI
    # machine, the click reached no listener and the name stayed English.
    expect(page.locator("button[data-lang='en']")).to_have_attribute("aria-pressed", "true")
    page.click("button[data-lang='fr']")
    expect(first.locator("input[name='name']")).to_have_value("Rouge")
    first.locator("select[name='colour']").select_option("#7b3fa0")
    expect(first.locator("input[name='name']")).to_have_value("Violet")
    first.locator("input[name='name']").fill("Zoé")
    first.locator("select[name='colour']").select_option("#1b6ec2")
    expect(first.locator("input[name='name']")).to_have_value("Zoé")  # a typed name stays
    assert "trigger_on_pass_through" not in page.locator("#setup-form").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "glance-setup-phone-fr")
    page.click("button[data-lang='en']")
    context.close()


def test_the_french_pages_have_no_english_left(server, browser):
    """Every string of the page's table that differs in French is absent from each page
    shown in French (the referee's pages too)."""
    table, game = _deal(server)
    table.play(game.legal_actions()[0], ())
    table.mark_board([{"cell": "0,0", "reason": ""}])
    context, page = watched_context(browser, **DESKTOP)
    _login(page, server)
    page.click("button[data-lang='fr']")
    left = {}
    for path in PAGES:
        page.goto(server.url + path)
        page.wait_for_load_state("load")
        page.wait_for_timeout(400)
        strings = page.evaluate("Maamut.strings")
        english = {v for k, v in strings["en"].items()
                   if isinstance(v, str) and v != strings["fr"].get(k) and len(v) > 3 and "{" not in v}
        text = page.locator("body").inner_text()
        found = sorted(s for s in english if s in text)
        if found:
            left[path] = found
    shot(page, "glance-referee-fr")
    page.click("button[data-lang='en']")
    context.close()
    assert left == {}

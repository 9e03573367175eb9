"""The referee's page as a referee uses it (issue 22), in Debian's chromium at a desktop
and a phone size: whose turn it is and the log; a move made by clicking the hunter, then
the cell; an undo that names its turn; a stale undo refused and named, never taking back
the turn that landed meanwhile; every page told of the correction; errors styled apart
from "Done."."""

from __future__ import annotations

import pytest

import engine
from engine.hexgrid import cell_name
from web_fixtures import BROWSER_TESTS, log_in, expect, shot, watched_context

pytestmark = BROWSER_TESTS

SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def _deal(server, names=("Ann", "Bob")):
    table = server.app.extensions["maamut_game"].session
    table.new_game([{"id": chr(65 + i), "name": name} for i, name in enumerate(names)], seed=10)
    game = table.game
    while game.next_to_place():
        table.place_hunter(game.next_to_place(), cell_name(game.start_cells()[0]))
    return table, game


#: A slow network, as a test can make one: while ``window.__deaf`` is set, the page's
#: EventSource drops what the table sends (the referee reads a page that is behind).
DEAF = """(() => {
  const Real = window.EventSource;
  window.EventSource = function (url) {
    const source = new Real(url);
    const listen = source.addEventListener.bind(source);
    source.addEventListener = (type, fn, ...rest) => listen(type, (e) => { if (!window.__deaf) fn(e); }, ...rest);
    return source;
  };
})();"""


def _referee(browser, server, size):
    context, page = watched_context(browser, viewport=SIZES[size], is_mobile=size == "phone")
    page.add_init_script(DEAF)
    log_in(page, server.url + "/referee")
    page.wait_for_selector("#ref-board svg g.hunter")
    return context, page


def _script_errors(page) -> list:
    """The page's own faults: a refused write's status (412, 422) or the cut stream is
    the page doing its job, not an error of its script."""
    return [e for e in page.errors if not e.startswith("Failed to load resource")]


def _a_legal_move(game) -> engine.Move:
    return next(a for a in game.legal_actions() if isinstance(a, engine.Move))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_referee_moves_by_clicking_the_hunter_then_the_cell_and_sees_whose_turn_and_the_log(server, browser, size):
    table, game = _deal(server)
    context, page = _referee(browser, server, size)
    expect(page.locator("#ref-turn")).to_have_text("To move: Ann")
    expect(page.locator("#ref-log li")).to_have_count(2)  # the two placements
    move = _a_legal_move(game)
    page.locator(f"#ref-board g.hunter[data-hunter='{move.hunter}']").click()
    target = page.locator(f"#ref-board circle.target-ring[data-direction='{move.direction}'][data-distance='{move.distance}']")
    expect(target).to_have_count(1)
    target.click()
    expect(page.locator("#ref-result")).to_have_text("Done.")
    assert game.turns_played() == 1 and game.entries()[-1]["turn"] == engine.notation.action_to_text(move)
    expect(page.locator("#ref-turn")).to_have_text("To move: Bob")
    # The log reads with names; the notation's ids stay on the entry.
    notation = engine.notation.action_to_text(move)
    expect(page.locator("#ref-log li").first).to_contain_text("Ann:" + notation.split(":")[1])
    expect(page.locator("#ref-log li .entry").first).to_have_attribute("data-notation", notation)
    expect(page.locator("#undo")).to_contain_text("Undo “Ann moves")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    shot(page, f"referee-click-move-{size}")
    # An illegal turn is an error, in its own style, never the "Done." line.
    page.fill("#turn", "A:E3")  # not Ann's turn
    page.click("#play-form button[type='submit']")
    expect(page.locator("#ref-error")).to_contain_text("Refused:")
    expect(page.locator("#ref-result")).to_have_text("")
    colours = page.evaluate("[getComputedStyle(document.querySelector('#ref-error')).color,"
                            " getComputedStyle(document.querySelector('.done')).color]")
    assert colours[0] != colours[1]
    assert _script_errors(page) == []
    context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_stale_undo_is_refused_and_names_the_camera_turn_then_every_page_is_told_of_the_undo(server, browser, size):
    table, game = _deal(server)
    first = _a_legal_move(game)
    table.play(first, (), source="camera")
    context, page = _referee(browser, server, size)
    viewer_context, viewer = watched_context(browser, viewport=SIZES[size], is_mobile=size == "phone")
    viewer.goto(server.url + "/")
    viewer.wait_for_selector("#conn[data-state='live']")
    first_words = f"Undo “Ann moves {first.distance} {first.direction}"
    expect(page.locator("#undo")).to_contain_text(first_words)
    # The referee's page is behind the table: a camera move lands meanwhile.
    page.evaluate("window.__deaf = true")
    second = _a_legal_move(game)
    table.play(second, (), source="camera")
    page.wait_for_timeout(300)
    expect(page.locator("#undo")).to_contain_text(first_words)
    page.click("#undo")
    named = "Bob:" + engine.notation.action_to_text(second).split(":")[1]
    expect(page.locator("#ref-error")).to_contain_text("the game changed since your page showed it")
    expect(page.locator("#ref-error")).to_contain_text(f"Bob moves {second.distance} {second.direction}")
    expect(page.locator("#ref-error")).to_contain_text(f"({named})")
    assert game.turns_played() == 2  # nothing was taken back
    shot(page, f"referee-stale-undo-{size}")
    # The refusal made the page read the game again: the undo now names the camera's turn.
    expect(page.locator("#undo")).to_contain_text(f"Undo “Bob moves {second.distance} {second.direction}")
    page.evaluate("window.__deaf = false")
    page.click("#undo")
    expect(page.locator("#ref-result")).to_contain_text(f"Taken back: Bob moves {second.distance} {second.direction}")
    assert game.turns_played() == 1
    # Every page says what the referee took back.
    expect(viewer.locator("#correction")).to_contain_text("The referee took back: Bob moves")
    expect(viewer.locator("#correction")).to_contain_text(f"({named})")
    shot(viewer, f"live-correction-{size}")
    assert _script_errors(page) == [] and viewer.errors == []
    viewer_context.close()
    context.close()


def test_the_french_viewer_reads_the_correction_in_french(server, browser):
    table, game = _deal(server)
    context, page = _referee(browser, server, "desktop")
    viewer_context, viewer = watched_context(browser, viewport=SIZES["phone"])
    viewer.goto(server.url + "/")
    viewer.click("button[data-lang='fr']")
    page.fill("#turn", engine.notation.action_to_text(_a_legal_move(game)))
    page.click("#play-form button[type='submit']")
    expect(viewer.locator("#correction")).to_contain_text("L'arbitre a saisi : Ann avance de")
    viewer_context.close()
    context.close()

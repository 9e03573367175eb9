"""The game master's page in Debian's chromium (Playwright): a whole turn through every
phase on the sample valley played by clicking the page, at a tablet and a phone size,
with a second device in sync; an undo said in words; a server restarted mid-turn that
shows the same question; a player's phone with their own cards; axe-core with no
serious or critical violation. Screenshots go to ``test-artifacts/vallee/``.

The turn played is the fifth (winter, turn 3 of 3): the one turn of the calendar where
all ten phases run. The turns before it are played through the routes by the fair random
player (:mod:`vallee.autoplay`), then every entry of the fifth turn is given on the page.
"""

from __future__ import annotations

import random

import pytest

from vallee.autoplay import movement
from vallee.calendar import PHASES

from .browser_kit import AXE, BROWSER_TESTS, SIZES, context, login, play_one, serve, shot, table

#: Seed 2: no event of the fifth turn holds the season, so all ten phases run in it.
SETUP = {"players": ["red", "blue", "green"], "map": "sample", "seed": 2}

pytestmark = BROWSER_TESTS


@pytest.fixture
def server(tmp_path):
    running = serve(tmp_path)
    yield running
    running.stop()


def prepare(server, until_turn: int) -> None:
    """A game started and played by the random player up to the start of ``until_turn``."""
    t = table(server)
    t.start(SETUP)
    rng = random.Random(3)
    while t.game.turn < until_turn:
        play_one(t, rng)


def wait_changed(page, etag: str) -> str:
    page.wait_for_function("(e) => document.getElementById('vallee-game').dataset.etag !== e", arg=etag, timeout=15000)
    return page.eval_on_selector("#vallee-game", "n => n.dataset.etag")


def give(page, server) -> None:
    """Answer the question on the page as a table would, by its buttons and forms."""
    game = table(server).game
    ask = game.pending()
    kind = ask["kind"]
    controls = page.locator("#step-controls")
    if kind == "move":
        entry = movement(game, ask, random.Random(len(game.entries)))
        if entry["kind"] == "move":
            page.select_option("#move-from", entry["from"])
            page.fill("#move-warriors", str(entry["warriors"]))
            page.fill("#move-women", str(entry["women"]))
            page.fill("#move-path", " ".join(entry["path"]))
            controls.get_by_role("button", name="Move").click()
        elif entry["kind"] == "found_camp":
            controls.get_by_role("button", name=entry["cell"], exact=True).first.click()
        else:
            controls.locator("button.done").click()
    elif kind == "feed" and ask["starve"]:
        left = ask["starve"]
        for cell, (w, f) in ask["options"].items():
            row = controls.locator(".row", has_text=cell)
            take_w = min(w, left); left -= take_w
            take_f = min(f, left); left -= take_f
            row.locator("input").nth(0).fill(str(take_w))
            row.locator("input").nth(1).fill(str(take_f))
        controls.locator("button.primary").click()
    elif kind == "sow":
        controls.locator("button.primary").click()
    elif controls.locator("button.primary").count():
        controls.locator("button.primary").first.click()
    else:
        controls.locator("button").first.click()


@pytest.mark.parametrize("size", SIZES)
def test_a_whole_turn_through_every_phase_on_the_page_with_a_second_device_in_sync(server, browser, size):
    prepare(server, until_turn=5)
    assert table(server).game.info.phases == PHASES  # winter's last turn: all ten phases run
    ctx, page = context(browser, size)
    login(page, server)
    page.goto(server.url + "/vallee/")
    page.wait_for_selector("#pieces svg g.tribe")
    other_ctx, other = context(browser, "phone" if size == "tablet" else "tablet")
    other.goto(server.url + "/vallee/")
    other.wait_for_selector("#conn[data-state='live']")
    assert page.locator("#calendar li.phase").count() == 10
    seen_now, clicks = set(), 0
    etag = page.eval_on_selector("#vallee-game", "n => n.dataset.etag")
    while table(server).game.turn == 5:
        phases = page.locator("#calendar li.phase").count()
        now = page.locator("#calendar li.now")
        if now.count():
            seen_now.add(now.first.get_attribute("data-phase"))
        if clicks in (0, 6) or table(server).game.pending()["step"] in ("fight", "survival") and clicks % 3 == 0:
            shot(page, f"game-{size}-{clicks:03d}")
        give(page, server)
        etag = wait_changed(page, etag)
        clicks += 1
        assert page.locator("#game-error").is_hidden(), page.locator("#game-error").text_content()
        assert clicks < 200
    assert table(server).game.turn == 6 and phases == 10, phases  # the calendar said so to the last entry
    assert {"events", "arrivals", "animals", "tribes"} <= seen_now and len(seen_now) >= 6, seen_now
    # the other device followed every change
    other.wait_for_function("(e) => document.getElementById('vallee-game').dataset.etag === e", arg=etag, timeout=15000)
    assert other.locator("#history li").first.text_content() == page.locator("#history li").first.text_content()
    # undo: said in words on both devices
    last = table(server).history[-1]["en"]
    page.click("#undo")
    etag = wait_changed(page, etag)
    expect_said = "Undo: " + last
    assert page.locator("#said").text_content() == expect_said
    other.wait_for_function("(t) => document.getElementById('said').textContent === t", arg=expect_said, timeout=15000)
    shot(page, f"game-{size}-undone")
    if size == "phone":
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    assert not page.errors and not other.errors, page.errors + other.errors
    ctx.close(); other_ctx.close()


def test_a_server_restarted_mid_turn_shows_the_same_question(tmp_path, browser):
    first = serve(tmp_path)
    try:
        prepare(first, until_turn=3)
        t = table(first)
        rng = random.Random(8)
        while t.game.pending()["step"] != "movement":
            play_one(t, rng)
        ctx, page = context(browser, "tablet")
        page.goto(first.url + "/vallee/")
        page.wait_for_selector("#step-question[data-kind='move']")
        question = page.locator("#step-question").text_content()
        etag = page.eval_on_selector("#vallee-game", "n => n.dataset.etag")
    finally:
        first.stop()
    again = serve(tmp_path)  # a new app on the same folder: the journal replayed
    try:
        page.goto(again.url + "/vallee/")
        page.wait_for_selector("#step-question[data-kind='move']")
        assert page.locator("#step-question").text_content() == question
        assert page.eval_on_selector("#vallee-game", "n => n.dataset.etag") == etag
        assert page.locator("#calendar li.now").get_attribute("data-phase") == "tribes"
        shot(page, "game-resumed")
        ctx.close()
    finally:
        again.stop()


def test_a_player_phone_shows_their_own_cards_and_follows_the_table(server, browser):
    prepare(server, until_turn=2)
    links = table(server).links()
    ctx, page = context(browser, "phone")
    page.goto(server.url + f"/vallee/p/{links['red']}")
    page.wait_for_selector("#hand li[data-card]")
    hand = table(server).game.tribes["red"].hand
    assert [page.locator("#hand li").nth(i).get_attribute("data-card") for i in range(len(hand))] == hand
    assert page.locator("#hand li em").first.text_content()  # playable now, or why not
    before = page.locator("#me-turn").text_content()
    play_one(table(server), random.Random(1))
    page.wait_for_function("(t) => document.getElementById('me-turn').textContent !== t", arg=before, timeout=15000)
    shot(page, "player-phone")
    # the public page names no card of any hand
    public = browser.new_page()
    public.goto(server.url + "/vallee/api/state")
    text = public.content()
    assert all(f'"{card}"' not in text for card in hand if card != "?")
    assert not page.errors
    ctx.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (scripts/test.sh installs it with npm)")
def test_no_serious_or_critical_accessibility_violation_on_the_game_pages(server, browser):
    prepare(server, until_turn=3)
    links = table(server).links()
    ctx, page = context(browser, "tablet", bypass_csp=True)
    login(page, server)
    found = {}
    for path in ("/vallee/", f"/vallee/p/{links['blue']}"):
        page.goto(server.url + path)
        page.wait_for_selector("#step-question:not(:empty), #hand li")
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
        bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
               if v["impact"] in ("serious", "critical")]
        if bad:
            found[path] = bad
    assert not found, found
    ctx.close()

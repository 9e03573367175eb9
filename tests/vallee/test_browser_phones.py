"""Players acting from their own phones in Debian's chromium (Playwright): a player moves
their tribe from their phone while the tablet in the middle follows; a trick card that
names a target is played from the phone with the form its choices build; the phone with
its inputs has no serious or critical axe-core violation. Screenshots go to
``test-artifacts/vallee/``."""

from __future__ import annotations

import random

import pytest

from vallee.autoplay import trick_entry
from vallee.core import BadRequest, IllegalRequest
from vallee.game_tricks import CHOICES
from vallee.tricks import TRICKS

from .browser_kit import AXE, BROWSER_TESTS, context, login, play_one, serve, shot, table

pytestmark = BROWSER_TESTS

#: Seed 3: red may set a forest on fire (Incendiaire, with a target cell) in turn 2.
SETUP = {"players": ["red", "blue", "green"], "map": "sample", "seed": 3}


@pytest.fixture
def server(tmp_path):
    running = serve(tmp_path)
    table(running).start(SETUP)
    yield running
    running.stop()


def until(t, stop, limit=600):
    """The random player plays (its cards refused by the game are not played) until ``stop(game)``."""
    rng = random.Random(3)
    for _ in range(limit):
        if stop(t.game):
            return
        play_one(t, rng)
    raise AssertionError("never reached")


def wait_etag(page, selector, etag):
    page.wait_for_function("([s, e]) => document.querySelector(s).dataset.etag !== e", arg=[selector, etag], timeout=15000)


def test_a_player_moves_from_their_phone_while_the_tablet_follows(server, browser):
    t = table(server)
    until(t, lambda g: g.turn >= 1 and g.pending()["step"] == "movement" and g.pending()["options"]["groups"])
    ask = t.game.pending()
    mover, links = ask["player"], t.links()
    tablet_ctx, tablet = context(browser, "tablet")
    tablet.goto(server.url + "/vallee/")
    tablet.wait_for_selector("#conn[data-state='live']")
    etag = tablet.eval_on_selector("#vallee-game", "n => n.dataset.etag")
    phone_ctx, phone = context(browser, "phone")
    other = next(p for p in t.game.seats if p != mover)
    phone.goto(server.url + f"/vallee/p/{links[other]}")
    phone.wait_for_selector("#hand li")
    assert phone.locator("#me-controls").inner_html() == ""  # not their turn: nothing to give
    phone.goto(server.url + f"/vallee/p/{links[mover]}")
    phone.wait_for_selector("#me-controls #move-from")
    group = next(c for c, ends in _reach(t).items() if ends)
    end = next(iter(_reach(t)[group]))
    phone.select_option("#move-from", group)
    phone.select_option("#move-to", end)
    assert phone.input_value("#move-path") == " ".join(_reach(t)[group][end])
    w, f = ask["options"]["groups"][group]
    phone.fill("#move-warriors", str(w and 1))
    phone.fill("#move-women", str(0 if w else 1))
    shot(phone, "phone-move")
    phone.locator("#me-controls").get_by_role("button", name="Move").click()
    wait_etag(tablet, "#vallee-game", etag)
    said = t.history[-1]["en"]
    assert said.startswith(f"{mover} moves ") and said.endswith(f"→ {end}"), said
    tablet.wait_for_function("(t) => document.querySelector('#history li').textContent.includes(t)", arg=said, timeout=15000)
    assert phone.locator("#me-error").is_hidden()
    shot(tablet, "tablet-follows-phone")
    assert not phone.errors and not tablet.errors, phone.errors + tablet.errors
    phone_ctx.close(); tablet_ctx.close()


def _reach(t):
    from vallee.page_view import reach

    return reach(t.game, t.game.pending())


def card_with_a_target(game):
    """A card offered now that names a target (``target`` or ``from``) and a choice of it
    the game takes (tried on a copy), or None."""
    ask = game.pending()
    for item in ask["tricks"]:
        fields = {c[0] for c in CHOICES.get(item["card"], ())}
        if "via" in item or not fields & {"target", "from"}:
            continue
        for k in range(40):
            entry = trick_entry(game, random.Random(k), {**ask, "tricks": [item]})
            entry = {key: v for key, v in entry.items() if key in fields | {"kind", "player", "card"}}
            try:
                game.copy().apply(dict(entry))
            except (IllegalRequest, BadRequest):
                continue
            return entry
    return None


def test_a_trick_card_with_a_target_is_played_from_the_phone(server, browser):
    t = table(server)
    until(t, lambda g: card_with_a_target(g) is not None)
    entry = card_with_a_target(t.game)
    player, card = entry["player"], entry["card"]
    held = t.game.tribes[player].hand.count(card)
    ctx, phone = context(browser, "phone")
    phone.goto(server.url + f"/vallee/p/{t.links()[player]}")
    item = phone.locator(f"#hand li[data-card='{card}']").first
    item.locator("button.play-card").wait_for()
    for i, (field, _kind, _en, _fr) in enumerate(CHOICES[card]):
        item.locator("select").nth(i).select_option(entry[field])
    shot(phone, "phone-trick")
    etag = phone.eval_on_selector("#player-view", "n => n.dataset.etag")
    item.locator("button.play-card").click()
    wait_etag(phone, "#player-view", etag)
    assert phone.locator("#me-error").is_hidden(), phone.locator("#me-error").text_content()
    assert all(t.game.entries[-1].get(k) == v for k, v in entry.items()), (t.game.entries[-1], entry)
    assert t.game.tribes[player].hand.count(card) == held - 1
    assert t.history[-1]["en"] == f"{player} plays {TRICKS[card].title}"
    assert not phone.errors, phone.errors
    ctx.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (scripts/test.sh installs it with npm)")
def test_no_serious_or_critical_accessibility_violation_on_a_phone_with_its_inputs(server, browser):
    t = table(server)
    until(t, lambda g: g.turn >= 1 and g.pending()["step"] == "movement")
    ctx, phone = context(browser, "phone", bypass_csp=True)
    phone.goto(server.url + f"/vallee/p/{t.links()[t.game.pending()['player']]}")
    phone.wait_for_selector("#me-controls #move-from")
    phone.add_script_tag(path=str(AXE))
    result = phone.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
           if v["impact"] in ("serious", "critical")]
    assert not bad, bad
    ctx.close()


def animals_will_walk(game) -> bool:
    """At the animal die, whether the die the companion will roll moves an animal (tried on a copy)."""
    if game.pending()["step"] != "animal_die":
        return False
    events = game.copy().apply({"kind": "roll"})
    return any(m["path"] for e in events if e["type"] == "animals_moved" for m in e["moves"])


def test_the_animal_phase_is_animated_and_said_and_still_when_motion_is_reduced(server, browser):
    t = table(server)
    until(t, animals_will_walk)
    ctx, page = context(browser, "tablet")
    login(page, server)
    page.goto(server.url + "/vallee/")
    page.wait_for_selector("#step-question[data-kind='roll']")
    still_ctx, still = context(browser, "phone", reduced_motion="reduce")
    still.goto(server.url + "/vallee/")
    still.wait_for_selector("#conn[data-state='live']")
    still.evaluate("() => new MutationObserver(() => { if (document.querySelector('#pieces g.walk')) window.walked = true; })"
                   ".observe(document.getElementById('pieces'), {subtree: true, childList: true})")
    page.locator("#step-controls button.primary").click()
    page.wait_for_selector("#pieces svg g.walk", state="attached", timeout=15000)
    shot(page, "animals-walking")
    said = t.state()["animals"]
    assert said["moves"] and all(": " in m["en"] and " : " in m["fr"] for m in said["moves"])
    page.wait_for_selector("#animals-now li")
    shown = page.locator("#animals-now li").all_text_contents()
    assert shown[:len(said["moves"])] == [m["en"] for m in said["moves"]]
    assert len(shown) == len(said["moves"]) + len(said["herds"]) + len(said["fields"])
    still.wait_for_selector("#animals-now li")
    assert still.locator("#animals-now li").count() == len(shown)
    assert not still.evaluate("() => window.walked === true")  # reduced motion: no walk drawn
    page.wait_for_selector("#pieces svg g.walk", state="detached", timeout=15000)  # each walk ends where the piece is
    assert not page.errors and not still.errors, page.errors + still.errors
    ctx.close(); still_ctx.close()

"""Real-browser tests: Debian's chromium driven by Playwright against waitress.

Screenshots are kept in ``test-artifacts/web/`` (gitignored) for a human to look at.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from web_fixtures import BROWSER_TESTS, log_in, PIN, expect, play_into_the_flee_figure_in_the_sandbox, shot


pytestmark = BROWSER_TESTS


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, accept_downloads=True)
    page = context.new_page()
    page.csp_errors = []
    # A 404 answer is the page's business (the AI hints probe /api/hint, which answers
    # 404 when the companion has no AI); anything else logged as an error is a fault.
    page.on("console", lambda msg: msg.type == "error" and "status of 404" not in msg.text
            and page.csp_errors.append(msg.text))
    page.on("pageerror", lambda exc: page.csp_errors.append(str(exc)))
    yield page
    context.close()


def _post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-Referee-PIN": PIN})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _start_game(server):
    _post(server.url + "/api/game/new", {"players": [{"id": "A", "name": "Zoé <script>alert(1)</script>"},
                                                     {"id": "B", "name": "Bruno"}], "seed": 4})
    game = server.app.extensions["maamut_game"].session.game
    from engine.hexgrid import cell_name

    while game.next_to_place():
        _post(server.url + "/api/game/place", {"player": game.next_to_place(), "cell": cell_name(game.start_cells()[0])})
    return game


def test_the_live_board_shows_37_cells_on_a_1080p_screen_and_a_phone(server, page, browser):
    page.goto(server.url + "/")
    page.wait_for_selector("#conn[data-state='live']")
    assert page.locator("#board svg g.cell").count() == 37
    shot(page, "live-1080p-empty")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    small = phone.new_page()
    small.goto(server.url + "/")
    small.wait_for_selector("#conn[data-state='live']")
    box = small.locator("#board svg").bounding_box()
    assert box["width"] <= 390 and box["width"] > 300  # the board fills the phone's width
    shot(small, "live-phone-empty")
    small.goto(server.url + "/sandbox")
    small.wait_for_selector("#sb-board svg g.mammoth")
    assert small.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    shot(small, "sandbox-phone")
    phone.close()
    assert page.csp_errors == []


def test_a_move_made_through_the_api_appears_on_an_open_page(server, page):
    import engine

    game = _start_game(server)
    page.goto(server.url + "/")
    page.wait_for_selector("#conn[data-state='live']")
    expect(page.locator("#board svg g.hunter")).to_have_count(2)
    version = int(page.locator("body").get_attribute("data-version"))
    action = game.legal_actions()[0]
    _post(server.url + "/api/game/play", {"action": engine.action_to_json(action)})
    # (Locator waits only: the page's CSP forbids the eval that wait_for_function uses.)
    page.wait_for_selector(f"body:not([data-version='{version}'])", timeout=5000)
    notation = engine.notation.action_to_text(action)
    # People read the name; the notation's ids stay on the entry (issue 22).
    assert page.locator("#log li .entry").first.get_attribute("data-notation") == notation
    assert "Zoé <script>alert(1)</script>:" + notation.split(":")[1] in page.locator("#log li").first.inner_text()
    # The hostile name shows as text, never as markup.
    assert "Zoé <script>alert(1)</script>" in page.locator("#players").inner_text()
    server.app.extensions["maamut_game"].session.mark_board([{"cell": "0,0", "reason": "<b>hunter on the cross</b>?"}])
    expect(page.locator("#status")).to_contain_text("✗ 0,0: <b>hunter on the cross</b>?")
    assert page.locator("#board svg g.illegal[data-cell='0,0']").count() == 1
    page.click("button[data-lang='fr']")
    assert page.locator("nav a").first.inner_text() == "En direct"
    shot(page, "live-after-move-fr")
    assert page.csp_errors == []


def test_a_reconnecting_page_catches_up(server, page):
    page.goto(server.url + "/")
    page.wait_for_selector("#conn[data-state='live']")
    version = page.locator("body").get_attribute("data-version")
    page.context.set_offline(True)
    server.app.extensions["maamut_hub"].update(leds=[[0, 255, 0]] * 37)
    page.context.set_offline(False)
    page.wait_for_selector(f"body:not([data-version='{version}'])", timeout=15000)


def test_the_sandbox_reproduces_the_rulebook_figure_and_explains_it(server, page):
    page.goto(server.url + "/sandbox")
    page.wait_for_selector("#sb-board svg g.mammoth[data-cell='0,2']")
    assert page.locator("#sb-board [data-cell='0,1'][data-tile='rock']").count() == 1
    page.select_option("#sb-hunter", "A")
    page.select_option("#sb-dir", "E")
    page.select_option("#sb-card", "2")
    page.click("#sb-play")
    page.wait_for_selector("#sb-board svg g.mammoth[data-cell='2,0']")
    assert page.locator("#sb-board svg polyline.flight").count() == 1
    explanation = page.locator("#sb-explain").inner_text()
    assert "NE: open" in explanation and "0,1 is rock" in explanation and "W: never taken" in explanation
    page.wait_for_timeout(1200)  # let the flight animation finish for the screenshot
    shot(page, "sandbox-figure-en")
    page.click("button[data-lang='fr']")
    assert "rocher" in page.locator("#sb-explain").inner_text()
    shot(page, "sandbox-figure-fr")
    assert page.csp_errors == []


def test_the_sandbox_what_if_grid_and_share_as_png(server, page):
    page.goto(server.url + "/sandbox")
    page.wait_for_selector("#sb-board svg g.mammoth[data-cell='0,2']")
    page.select_option("#sb-hunter", "A")
    page.click("#sb-whatif")
    page.wait_for_selector("#sb-grid:not([hidden]) td[data-move='E2']")
    assert page.locator("#sb-grid td[data-move]").count() == 18
    assert "2,0" in page.locator("#sb-grid td[data-move='E2']").inner_text()
    assert "M → 3,-1" in page.locator("#sb-grid td[data-move='E3']").inner_text()
    page.click("summary")
    page.locator("[data-variant='trigger_on_pass_through'] input").nth(1).check()
    page.click("#sb-whatif")
    expect(page.locator("#sb-grid td[data-move='E3']")).not_to_contain_text("M →")
    page.locator("[data-variant='trigger_on_pass_through'] input").nth(0).check()
    page.click("#sb-dest")
    page.wait_for_selector("#sb-board g.mark[data-cell='0,2']")
    # E2 and E3 both pass the mammoth: its cell is marked as a flight-causing destination.
    assert page.locator("#sb-board g.mark[data-cell='0,2']").get_attribute("data-mark") == "flight"
    marked = sorted(page.locator("#sb-board g.mark").evaluate_all("marks => marks.map(m => m.dataset.cell)"))
    assert marked == sorted(["-1,2", "0,2", "1,2", "-2,3", "-3,3", "-3,2", "-2,1", "-2,0", "-2,-1", "-1,1", "0,0", "1,-1"])
    shot(page, "sandbox-whatif")
    with page.expect_download() as download:
        page.click("#sb-png")
    path = download.value.path()
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert page.csp_errors == []


def test_the_sandbox_edits_a_position_by_clicking(server, page):
    page.goto(server.url + "/sandbox")
    page.wait_for_selector("#sb-board svg g.mammoth[data-cell='0,2']")
    page.check("#sb-tools input[value='rock']")
    page.click("#sb-board g.cell[data-cell='1,1'] use", force=True)
    page.wait_for_selector("#sb-board [data-cell='1,1'][data-tile='rock']")
    page.check("#sb-tools input[value='mammoth']")
    page.click("#sb-board g.cell[data-cell='-1,-1'] use", force=True)
    page.wait_for_selector("#sb-board g.mammoth[data-cell='-1,-1']")
    assert "-1,-1" in page.locator("#sb-text").input_value()


def test_the_sandbox_asks_where_a_frightened_hunter_flees(server, page):
    play_into_the_flee_figure_in_the_sandbox(page, server.url)
    assert page.locator("#sb-flee").is_visible()
    shot(page, "sandbox-flee-choice")
    page.click("#sb-board circle.flee-option[data-cell='1,1']", force=True)
    page.wait_for_selector("#sb-board g.hunter[data-hunter='B'][data-cell='1,1']")
    assert "1,0 to 1,1" in page.locator("#sb-explain").inner_text()
    assert page.csp_errors == []


def test_the_setup_wizard_deals_a_game_and_places_hunters_by_clicking(server, page):
    page.goto(server.url + "/setup")
    assert page.locator("#setup-form").count() == 0  # viewers only see the PIN form
    page.fill("input[name='pin']", PIN)
    page.click("form.login button[type='submit']")
    page.wait_for_selector("#setup-form")
    page.select_option("#count", "2")
    page.locator(".player-row[data-row='0'] input[name='name']").fill("Élodie")
    page.locator(".player-row[data-row='1'] select[name='colour']").select_option("#7b3fa0")
    page.fill("#seed", "12")
    page.click("#setup-form button[type='submit']")
    page.wait_for_selector("#placing:not([hidden]) #setup-board svg")
    game = server.app.extensions["maamut_game"].session.game
    from engine.hexgrid import cell_name

    for _ in range(2):
        cell = cell_name(game.start_cells()[0])
        before = len(game.position.hunters)
        page.click(f"#setup-board g.cell[data-cell='{cell}'] use", force=True)
        expect(page.locator("#setup-board g.hunter")).to_have_count(before + 1)
    assert game.phase == "play" and game.seed == 12
    assert server.app.extensions["maamut_game"].session.players_info()["B"]["colour"] == "#7b3fa0"
    shot(page, "setup-wizard-placed")
    assert page.csp_errors == []


def test_the_camera_view_and_led_mirror_follow_the_app(server, page):
    import cv2
    import numpy as np

    log_in(page, server.url + "/referee")
    page.wait_for_selector("#ref-board svg")
    frame = np.zeros((120, 160, 3), np.uint8)
    cv2.circle(frame, (80, 60), 40, (0, 200, 255), -1)
    jpeg = cv2.imencode(".jpg", frame)[1].tobytes()
    hub = server.app.extensions["maamut_hub"]
    hub.publish_frame(jpeg, {"0,0": 0.99, "2,-1": 0.42})
    hub.update(leds=[[255, 128, 0]] * 37, url=server.url + "/")
    page.wait_for_selector("#camera-frame:not([hidden])")
    # The LED mirror is drawn as the board: each LED at its cell, the status LEDs below.
    expect(page.locator("#leds circle.led[data-cell]")).to_have_count(37)
    assert page.locator("#leds circle.led[data-cell='0,-3']").get_attribute("fill") == "#ff8000"
    assert page.locator("#camera-frame").evaluate("img => img.decode().then(() => img.naturalWidth)") == 160
    # Per-cell confidence is an overlay on the referee's board; unsure cells show a figure.
    expect(page.locator("#ref-board g.confidence[data-cell='2,-1'] text")).to_have_text("42%")
    assert page.locator("#ref-board g.confidence[data-cell='0,0'] text").count() == 0
    shot(page, "referee-camera-leds")
    page.uncheck("#cam-overlay")
    expect(page.locator("#ref-board g.confidence")).to_have_count(0)
    # Viewers see neither the camera nor the confidences; the QR code invites them in.
    page.goto(server.url + "/")
    page.wait_for_selector("#join:not([hidden])")
    assert page.locator("#join-qr").evaluate("img => img.decode().then(() => img.naturalWidth)") > 0
    assert page.locator("#camera-frame, #confidence").count() == 0
    assert page.csp_errors == []


def test_the_referee_page_shows_the_live_board_after_the_pin(server, page):
    _start_game(server)
    page.goto(server.url + "/referee")
    assert page.locator("#ref-board").count() == 0
    page.fill("input[name='pin']", PIN)
    page.click("form.login button[type='submit']")
    page.wait_for_selector("#ref-board svg g.hunter")
    game = server.app.extensions["maamut_game"].session.game
    import engine

    turn = engine.notation.action_to_text(game.legal_actions()[0])
    page.fill("#turn", turn)
    page.click("#play-form button[type='submit']")
    expect(page.locator("#ref-result")).to_have_text("Done.")
    assert game.turns_played() == 1
    shot(page, "referee")
    assert page.csp_errors == []

"""The live page itself, in Debian's chromium, with the game driven through the table's
real session (never HTML injected): the camera's view while the table is set up (frames
from the ``sim`` frame source through the product's camera loop), pieces sharing a cell,
a flight waiting for a frightened hunter's owner, and the page (LED mirror included) on
a phone. Screenshots go to ``test-artifacts/web/``.
"""

from __future__ import annotations

import random
import threading


from engine.hexgrid import cell_name
from web_fixtures import BROWSER_TESTS, log_in, PIN, expect, shot, watched_context

pytestmark = BROWSER_TESTS

#: Share of a piece's own box where the piece is the topmost thing drawn (a hunter's disc
#: fills about 78 % of its box, a trap's ring around a hunter about 35 %).
VISIBLE_SHARE = 0.15

#: For each piece drawn on the live board: the share of sample points in its shape's box
#: where ``elementFromPoint`` lands on that piece, i.e. where it is not hidden by another.
_VISIBLE_SHARES = """(board) => [...board.querySelectorAll('g.hunter, g.trap, g.mammoth')].map((g) => {
  const shape = g.querySelector('circle, ellipse');
  const box = shape.getBoundingClientRect();
  let hits = 0, total = 0;
  for (let i = 1; i < 12; i++) for (let j = 1; j < 12; j++) {
    const x = box.left + box.width * i / 12, y = box.top + box.height * j / 12;
    total += 1;
    const top = document.elementFromPoint(x, y);
    if (top && g.contains(top)) hits += 1;
  }
  return {kind: g.getAttribute('class'), who: g.dataset.hunter || g.dataset.owner || 'mammoth',
          cell: g.dataset.cell, share: hits / total, width: box.width};
})"""


def _deal(table, players: str, seed: int):
    table.new_game([{"id": p, "name": p} for p in players], seed=seed)
    game = table.game
    while game.next_to_place():
        table.place_hunter(game.next_to_place(), cell_name(game.start_cells()[0]))
    return game


def _play(table, seed: int, turns: int, players: str = "ABCD"):
    """``turns`` random legal turns on the live table (flee choices: the first option)."""
    game = _deal(table, players, seed)
    rng = random.Random(seed)
    for _ in range(turns):
        outcome = table.play(rng.choice(game.legal_actions()), ())
        while outcome.needs:
            option = outcome.needs.options[0]
            outcome = table.choose_flee(option if isinstance(option, str) else cell_name(option))
    return game


def _shared_cells(game):
    """What shares a cell in the game's position: {"mammoth+hunter", "hunter+trap", "hunters"}."""
    position = game.position
    cells = [c for c in dict(position.hunters).values() if c is not None]
    traps = dict(position.traps or {})
    kinds = set()
    if position.mammoth in cells:
        kinds.add("mammoth+hunter")
    if any(cell in traps for cell in cells):
        kinds.add("hunter+trap")
    if len(set(cells)) < len(cells):
        kinds.add("hunters")
    return kinds


def _assert_every_piece_visible(page, game):
    board = page.locator("#board")
    pieces = board.evaluate(_VISIBLE_SHARES)
    position = game.position
    drawn = {(p["kind"], p["who"]) for p in pieces}
    wanted = {("hunter", h) for h, c in dict(position.hunters).items() if c is not None}
    wanted |= {("trap", owner) for owner in dict(position.traps or {}).values()} | {("mammoth", "mammoth")}
    assert wanted <= drawn, wanted - drawn
    hidden = [p for p in pieces if p["share"] < VISIBLE_SHARE or p["width"] < 8]
    assert hidden == [], hidden
    return pieces


def test_two_hunters_on_one_cell_and_a_hunter_on_a_trap_are_all_visible_on_the_live_page(server, page):
    """Two hunters on one cell (one of them on his trap, just moved there): every piece
    is drawn and, at some of its own points, on top of everything else on the live board."""
    table = server.app.extensions["maamut_game"].session
    page.goto(server.url + "/")
    page.wait_for_selector("#conn[data-state='live']")
    game = _play(table, seed=1, turns=48)
    assert {"hunters", "hunter+trap"} <= _shared_cells(game) and not game.winner
    expect(page.locator("#log li")).to_have_count(len(game.entries()))
    page.wait_for_timeout(1500)  # the flight's animation ends
    pieces = _assert_every_piece_visible(page, game)
    stacked = [p for p in pieces if p["kind"] == "hunter"]
    assert len({p["cell"] for p in stacked}) < len(stacked)
    shot(page, "live-stacked-hunters-and-trap", full=False)
    assert page.errors == []


def test_the_mammoth_trapped_under_two_hunters_on_a_trap_leaves_every_piece_visible(server, page):
    """The mammoth, two hunters and a trap on one cell (the end of a game), and another
    hunter on his own trap: all drawn, each on top somewhere on the live board."""
    table = server.app.extensions["maamut_game"].session
    page.goto(server.url + "/")
    page.wait_for_selector("#conn[data-state='live']")
    game = _play(table, seed=109, turns=62)
    assert _shared_cells(game) == {"mammoth+hunter", "hunter+trap", "hunters"} and game.winner
    expect(page.locator("#log li")).to_have_count(len(game.entries()))
    page.wait_for_timeout(1500)
    _assert_every_piece_visible(page, game)
    under = page.locator(f"#board g.hunter[data-cell='{cell_name(game.position.mammoth)}']")
    assert under.count() >= 2
    assert all(h == "mammoth" for h in under.evaluate_all("gs => gs.map((g) => g.dataset.stacked)"))
    shot(page, "live-mammoth-trapped-with-two-hunters", full=False)
    assert page.errors == []


def _until_a_flight_waits(table, seed: int):
    """Random turns on the live table until a frightened hunter's owner must choose."""
    game = _deal(table, "AB", seed)
    rng = random.Random(seed)
    for _ in range(200):
        if game.winner:
            return None
        outcome = table.play(rng.choice(game.legal_actions()), ())
        if outcome.needs:
            return outcome.needs
    return None


def test_a_waiting_flight_shows_the_path_and_the_options_until_the_choice_is_made(server, page):
    """While the frightened hunter's owner chooses, the live page draws the mammoth's
    path and circles each cell he may flee to; the choice clears the circles and the
    question, and the mammoth is then drawn at the end of its flight."""
    table = server.app.extensions["maamut_game"].session
    page.goto(server.url + "/")
    page.wait_for_selector("#conn[data-state='live']")
    needs = next(filter(None, (_until_a_flight_waits(table, seed) for seed in range(1, 40))))
    options = sorted(o if isinstance(o, str) else cell_name(o) for o in needs.options)
    # (Waits for the waiting turn's update: an earlier turn's finished flight may still be drawn.)
    expect(page.locator("#board circle.flee-option")).to_have_count(len(options))
    expect(page.locator("#board svg polyline.flight")).to_have_count(1)
    shown = page.locator("#board circle.flee-option").evaluate_all("cs => cs.map((c) => c.dataset.cell)")
    assert sorted(shown) == options
    expect(page.locator("#status")).not_to_be_empty()
    waiting_status = page.locator("#status").inner_text()
    assert page.locator(f"#board g.hunter[data-hunter='{needs.hunter}']").count() == 1
    pending = table.pending_turn()
    assert pending is not None
    shot(page, "live-flight-waiting", full=False)

    outcome = table.choose_flee(options[-1])
    while outcome.needs:  # another hunter on the path: his owner chooses too
        option = outcome.needs.options[0]
        outcome = table.choose_flee(option if isinstance(option, str) else cell_name(option))
    expect(page.locator("#board circle.flee-option")).to_have_count(0)
    expect(page.locator("#status")).not_to_have_text(waiting_status)
    game = table.game
    expect(page.locator("#board g.mammoth")).to_have_attribute("data-cell", cell_name(game.position.mammoth))
    page.wait_for_timeout(1500)
    shot(page, "live-flight-chosen", full=False)
    assert page.errors == []


def test_the_setup_page_shows_what_the_camera_sees_while_the_table_is_set_up(tmp_path, browser):
    """The referee's setup page shows the camera's view of the board, from frames read by
    the product's camera loop (the ``sim`` frame source stands in for the camera), and the
    view follows new frames without reloading the page."""
    from maamut.app import Companion
    from maamut.config import Config
    from sim.camera import SimulatedBoard, install

    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bob"}]
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    cfg.web["pin"] = PIN
    companion = Companion(cfg)
    stop = threading.Event()
    camera = None
    context, page = watched_context(browser)
    try:
        server = companion.start_web(host="127.0.0.1", port=0)
        url = f"http://127.0.0.1:{int(server.server.effective_port)}"
        log_in(page, url + "/setup")
        page.wait_for_selector("#setup-form")
        page.fill("#seed", "12")
        page.select_option("#count", "2")
        page.click("#setup-form button[type='submit']")
        page.wait_for_selector("#setup-board svg circle.start-cell")
        expect(page.locator("#setup-camera-box")).to_be_hidden()  # no camera frame yet

        board = SimulatedBoard(tuple(t.value for t in companion.table.game.tiles), seed=3)
        spec = install(board, fps=10)
        camera = companion.camera_loop(spec, stop, required=3)
        camera.start()
        expect(page.locator("#setup-camera-box")).to_be_visible(timeout=30000)
        image = page.locator("#setup-camera")
        assert image.evaluate("img => img.decode().then(() => img.naturalWidth)") == 640
        first = image.get_attribute("src")
        # A later frame replaces it on the open page (the camera view is refreshed each second).
        expect(image).not_to_have_attribute("src", first, timeout=15000)
        assert image.evaluate("img => img.decode().then(() => img.naturalWidth)") == 640
        assert camera.frames > 0 and camera.bad_frames == 0
        # The start cells stay ringed while the camera's frames arrive.
        expect(page.locator("#setup-board svg circle.start-cell").first).to_be_visible()
        page.wait_for_timeout(300)
        shot(page, "setup-camera-view")
        assert page.errors == []
    finally:
        stop.set()
        if camera is not None:
            camera.join(timeout=10)
        context.close()
        companion.close()


PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}


def test_the_led_mirror_and_the_live_page_fit_a_phone(server, browser):
    """On a phone (390x844, 3x, touch) the referee's LED mirror draws each LED on its own
    cell, inside the screen and big enough to read, and no page (live, referee, setup,
    stand, sandbox) scrolls sideways."""
    table = server.app.extensions["maamut_game"].session
    game = _play(table, seed=1, turns=20)
    hub = server.app.extensions["maamut_hub"]
    leds = [[(40 * i) % 256, 120, 255 - (6 * i) % 256] for i in range(37)] + [[0, 255, 0]] * 4
    hub.update(leds=leds)
    context, phone = watched_context(browser, **PHONE)
    try:
        phone.goto(server.url + "/referee")
        phone.fill("input[name='pin']", PIN)
        phone.locator("form.login button[type='submit']").tap()
        phone.wait_for_selector("#ref-board svg g.hunter")
        expect(phone.locator("#leds circle.led[data-cell]")).to_have_count(37)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        mirror = phone.locator("#leds svg")
        mirror.scroll_into_view_if_needed()
        box = mirror.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] >= 250
        # Each LED sits in its own cell, in the board's layout: the cell's neighbours
        # in the grid are its neighbours on the screen, and every LED is on screen.
        dots = phone.locator("#leds circle.led[data-cell]").evaluate_all(
            "cs => cs.map((c) => { const r = c.getBoundingClientRect(); "
            "return {cell: c.dataset.cell, x: r.left + r.width / 2, y: r.top + r.height / 2, d: r.width, "
            "fill: c.getAttribute('fill')}; })")
        by_cell = {d["cell"]: d for d in dots}
        assert len(by_cell) == 37
        assert all(d["d"] >= 14 for d in dots)  # a dot a finger's width apart at least
        assert all(0 <= d["x"] <= 390 for d in dots)
        centre, east, south_east = by_cell["0,0"], by_cell["1,0"], by_cell["0,1"]
        assert east["x"] > centre["x"] and abs(east["y"] - centre["y"]) < 1
        assert south_east["y"] > centre["y"] and south_east["x"] > centre["x"]
        assert len({(round(d["x"]), round(d["y"])) for d in dots}) == 37  # no two LEDs on one spot
        from companion_web.view import default_led_layout

        layout = default_led_layout()
        for i, cell in enumerate(layout[:37]):
            assert by_cell[cell]["fill"] == "#%02x%02x%02x" % tuple(leds[i])
        expect(phone.locator("#leds circle.status-led")).to_have_count(4)
        shot(phone, "phone-referee-led-mirror", full=True)
        phone.goto(server.url + "/")
        phone.wait_for_selector("#conn[data-state='live']")
        expect(phone.locator("#log li")).to_have_count(len(game.entries()))
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        board = phone.locator("#board svg").bounding_box()
        assert board["width"] >= 340 and board["x"] >= 0 and board["x"] + board["width"] <= 390
        phone.locator("#log .turn-btn[data-turn='5']").tap()
        expect(phone.locator("body")).to_have_attribute("data-viewing", "5")
        phone.locator("#step-live").tap()
        expect(phone.locator("body")).to_have_attribute("data-viewing", "live")
        shot(phone, "phone-live", full=True)
        # The referee's other pages too (the setup wizard's fieldsets were once wider than a phone).
        for path in ("/setup", "/stand", "/sandbox"):
            phone.goto(server.url + path)
            phone.wait_for_load_state("load")
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390, path
        shot(phone, "phone-sandbox", full=True)
        phone.goto(server.url + "/setup")
        phone.wait_for_selector("#setup-form")
        shot(phone, "phone-setup", full=True)
        assert phone.errors == []
    finally:
        context.close()

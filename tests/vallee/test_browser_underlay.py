"""The map editor's photo underlay in Debian's chromium: a photo of the group's board
(here a generated image), read in the browser and never sent, shown under the grid with
its opacity, size, rotation and shift; the board stays clickable through it; kept in the
browser over a reload; removed on demand; no sideways scroll on a phone; axe-core finds
no serious or critical violation with the photo shown. Screenshots in
``test-artifacts/vallee/``."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion_web import GameMode, create_app
from companion_web.serve import BackgroundServer
from vallee.web import EXTENSION, MapShelf, bp

from .browser_kit import ARTIFACTS, AXE, BROWSER_TESTS, PIN, SIZES, login

MAGENTA = (255, 0, 255)  # a colour no terrain of the drawing has

pytestmark = BROWSER_TESTS


@pytest.fixture
def server(tmp_path):
    app = create_app({"REFEREE_PIN": PIN}, games=[GameMode("La Vallée", bp, {EXTENSION: MapShelf(tmp_path / "maps")})])
    running = BackgroundServer(app, threads=8).start()
    yield running
    running.stop()


@pytest.fixture
def board_photo(tmp_path) -> Path:
    """A 'photo' of a board: magenta with a dark hexagon grid drawn on it, 2400 px wide
    (larger than what the browser keeps, so that it is made smaller)."""
    image = np.zeros((1800, 2400, 3), np.uint8)
    image[:] = MAGENTA[::-1]
    for y in range(100, 1800, 200):
        for x in range(100, 2400, 230):
            corners = [(x + 110 * np.cos(np.pi / 6 + k * np.pi / 3), y + 110 * np.sin(np.pi / 6 + k * np.pi / 3))
                       for k in range(6)]
            cv2.polylines(image, [np.array(corners, np.int32)], True, (20, 20, 20), 6)
    path = tmp_path / "our-board.png"
    cv2.imwrite(str(path), image)
    return path


def _page(browser, size, **options):
    context = browser.new_context(viewport=SIZES[size], **options)
    page = context.new_page()
    page.errors, page.sent = [], []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and page.errors.append(msg.text))
    page.on("request", lambda r: page.sent.append((r.method, r.url, r.post_data or "")))
    return context, page


def _slide(page, control: str, value: int) -> None:
    page.eval_on_selector(f"#ed-photo-{control}",
                          "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})); }",
                          value)


def _centre_colour(page, selector: str) -> tuple[int, int, int]:
    """The colour drawn at the middle of an element, from a screenshot of the page."""
    box = page.locator(selector).bounding_box()
    shot = page.screenshot(clip={"x": box["x"] + box["width"] / 2 - 2, "y": box["y"] + box["height"] / 2 + 14,
                                 "width": 4, "height": 4})
    pixels = cv2.imdecode(np.frombuffer(shot, np.uint8), cv2.IMREAD_COLOR)
    b, g, r = pixels.reshape(-1, 3).mean(axis=0)
    return int(r), int(g), int(b)


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_a_photo_of_our_board_is_shown_under_the_grid_to_trace_it(server, browser, board_photo, size):
    context, page = _page(browser, size)
    login(page, server)
    page.sent.clear()  # from here on, what the editor sends
    page.goto(server.url + "/vallee/maps")
    page.wait_for_function("() => Number(document.getElementById('editor').dataset.checks || 0) > 0")
    cell = "#ed-board g.cell[data-cell='0,-1'] > polygon"
    before = _centre_colour(page, cell)
    page.click("#ed-photo-box summary")
    page.set_input_files("#ed-photo-file", str(board_photo))
    page.wait_for_function("() => !document.getElementById('ed-photo').hidden")

    photo = page.locator("#ed-photo")
    src = photo.get_attribute("src")
    assert src.startswith("data:image/jpeg"), "the photo is read and kept in the browser, made smaller"
    assert page.evaluate("() => { const i = document.getElementById('ed-photo'); return [i.naturalWidth, i.naturalHeight]; }") \
        == [1600, 1200]
    assert "tracing" in page.get_attribute("#ed-trace", "class")
    assert page.eval_on_selector(cell, "p => getComputedStyle(p).fillOpacity") == "0.3", "the terrain turns see-through"
    under = _centre_colour(page, cell)
    assert under != before and under[0] > under[1] + 20 and under[2] > under[1] + 20, \
        f"the magenta photo shows through the cell ({before} → {under})"

    # the controls: opacity, size, rotation, shift
    _slide(page, "opacity", 35)
    _slide(page, "scale", 150)
    _slide(page, "rotate", 30)
    _slide(page, "x", 10)
    _slide(page, "y", -5)
    style = page.eval_on_selector("#ed-photo", "i => [getComputedStyle(i).opacity, i.style.transform]")
    assert style == ["0.35", "translate(10%, -5%) rotate(30deg) scale(1.5)"]
    if size == "phone":
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scroll"
    _shot(page, f"editor-underlay-{size}")

    # the board stays the input: a click on a cell goes through to the grid
    page.check("input[name='tool'][value='cell']")
    page.locator("#ed-board g.cell[data-cell='1,0']").click()
    assert page.locator("#ed-cell-name").inner_text() == "1,0"

    # kept in this browser over a reload, with its settings
    page.reload()
    page.wait_for_function("() => !document.getElementById('ed-photo').hidden")
    assert photo.get_attribute("src") == src
    assert page.eval_on_selector("#ed-photo", "i => i.style.transform") == "translate(10%, -5%) rotate(30deg) scale(1.5)"
    assert page.input_value("#ed-photo-rotate") == "30"
    page.click("#ed-photo-reset")
    assert page.eval_on_selector("#ed-photo", "i => i.style.transform") == "translate(0%, 0%) rotate(0deg) scale(1)"

    # never sent to the table: no request carries the photo
    assert page.sent and not any("our-board" in body or "data:image" in body or "base64" in body
                                 for _, _, body in page.sent)
    assert {m for m, _, _ in page.sent} <= {"GET", "POST"}
    assert all(url.endswith("/vallee/maps/check") for m, url, _ in page.sent if m == "POST")

    # removed: gone from the page and from the browser
    page.click("#ed-photo-remove")
    assert photo.is_hidden() and "tracing" not in page.get_attribute("#ed-trace", "class")
    assert page.evaluate("() => localStorage.getItem('vallee.underlay.photo')") is None
    page.reload()
    page.wait_for_function("() => Number(document.getElementById('editor').dataset.checks || 0) > 0")
    assert photo.is_hidden()
    assert page.errors == []
    context.close()


def test_a_file_that_is_no_photo_is_said_and_nothing_breaks(server, browser, tmp_path):
    context, page = _page(browser, "tablet")
    login(page, server)
    page.goto(server.url + "/vallee/maps")
    page.click("#ed-photo-box summary")
    bad = tmp_path / "notes.png"
    bad.write_text("not an image at all")
    page.set_input_files("#ed-photo-file", str(bad))
    page.wait_for_function("() => document.getElementById('ed-photo-status').textContent.length > 0")
    assert "not a photo" in page.locator("#ed-photo-status").inner_text()
    assert page.locator("#ed-photo").is_hidden()
    page.click("header.top button[data-lang='fr']")
    assert "pas une photo" in page.locator("#ed-photo-status").inner_text()
    assert page.errors == []
    context.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (scripts/test.sh installs it with npm)")
def test_no_serious_or_critical_accessibility_violation_with_a_photo_shown(server, browser, board_photo):
    context, page = _page(browser, "tablet", bypass_csp=True)  # axe is injected as a script tag
    login(page, server)
    page.goto(server.url + "/vallee/maps")
    page.click("#ed-photo-box summary")
    page.set_input_files("#ed-photo-file", str(board_photo))
    page.wait_for_function("() => !document.getElementById('ed-photo').hidden")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
           if v["impact"] in ("serious", "critical")]
    context.close()
    assert bad == []

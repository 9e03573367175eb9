"""La Vallée's pages in Debian's chromium (Playwright), at a tablet and a phone size:
the valley view draws every feature of the sample valley, the editor makes a map the
validator accepts, exports it and imports it back identical, an invalid map's findings
are shown inline, and axe-core finds no serious or critical violation.

Screenshots go to ``test-artifacts/vallee/`` (gitignored) for a human to look at.
"""

from __future__ import annotations

import json

import pytest

from companion_web import GameMode, create_app
from companion_web.serve import BackgroundServer
from vallee.board import sample_valley, shipped_map_json
from vallee.validate import map_problems
from vallee.web import EXTENSION, MapShelf, bp

from .browser_kit import ARTIFACTS, AXE, BROWSER_TESTS, PIN, SIZES


pytestmark = BROWSER_TESTS


@pytest.fixture
def server(tmp_path):
    app = create_app({"REFEREE_PIN": PIN}, games=[GameMode("La Vallée", bp, {EXTENSION: MapShelf(tmp_path / "maps")})])
    running = BackgroundServer(app, threads=8).start()
    running.maps = tmp_path / "maps"
    yield running
    running.stop()


def _page(browser, size: str, **options):
    context = browser.new_context(viewport=SIZES[size], accept_downloads=True, **options)
    page = context.new_page()
    page.errors = []
    page.on("console", lambda msg: msg.type == "error" and "status of 404" not in msg.text and page.errors.append(msg.text))
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return context, page


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _login(page, server) -> None:
    page.goto(server.url + "/referee")
    page.fill("input[name='pin']", PIN)
    page.click("form.login button[type='submit']")
    page.wait_for_load_state("load")


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"


@pytest.mark.parametrize("size", SIZES)
def test_the_valley_view_draws_every_feature_of_the_sample_valley(server, browser, size):
    valley = sample_valley()
    context, page = _page(browser, size)
    page.goto(server.url + "/vallee/")
    board = page.locator("#valley-box svg")
    assert board.locator("g.cell").count() == len(valley.cells) == 37
    for terrain in ("plain", "forest", "mountain", "volcano", "lake"):
        assert board.locator(f"g.cell[data-terrain='{terrain}']").count() == sum(
            1 for t in valley.terrain.values() if t == terrain)
    assert sorted(board.locator("g.river").evaluate_all("els => els.map(e => e.dataset.river)")) == ["1", "2", "3"]
    assert sorted(board.locator("g.river-number text").all_text_contents()) == ["1", "2", "3"]
    assert sorted(board.locator("g.letter text").all_text_contents()) == sorted(valley.letter.values())
    assert board.locator("text.region").count() == len(valley.region)
    assert board.locator("polygon.lava").count() == sum(len(lava) for lava in valley.volcanoes.values())
    faces = board.locator("text.compass-face").evaluate_all("els => els.map(e => [e.textContent, e.dataset.direction])")
    assert {int(f): d for f, d in faces} == valley.compass
    # the rivers are drawn on the edges between the cells the map names
    box = board.bounding_box()
    assert box["width"] <= SIZES[size]["width"]
    _no_sideways_scroll(page)
    # cell names: hidden until the toggle
    name = board.locator("g.cell[data-cell='0,-1'] text.cell-name")
    assert not name.is_visible()
    page.check("#show-names")
    assert name.is_visible()
    # the site's one language setting: French everywhere, the drawing's titles too
    page.click("header.top button[data-lang='fr']")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert "vallée" in page.locator(".vallee h1").inner_text()
    assert page.locator("g.cell[data-cell='0,-1'] title").text_content().startswith("plaine · région 2")
    assert "La Vallée" in page.locator("header.top nav").inner_text()
    _shot(page, f"valley-{size}")
    assert page.errors == []
    context.close()


def _checks(page) -> int:
    return int(page.get_attribute("#editor", "data-checks") or 0)


def _then_checked(page, action) -> None:
    """Do ``action`` and wait until the server's check of the changed map is shown."""
    before = _checks(page)
    action()
    page.wait_for_function(f"() => Number(document.getElementById('editor').dataset.checks || 0) > {before}")


def _open_editor(page, server) -> None:
    page.goto(server.url + "/vallee/maps")
    page.wait_for_function("() => Number(document.getElementById('editor').dataset.checks || 0) > 0")


def _cell(page, name: str):
    return page.locator(f"#ed-board g.cell[data-cell='{name}'] polygon").first


@pytest.mark.parametrize("size", SIZES)
def test_the_editor_makes_a_valid_map_exports_it_and_imports_it_back_identical(server, browser, size, tmp_path):
    context, page = _page(browser, size)
    _login(page, server)
    _open_editor(page, server)
    assert page.locator("#ed-valid").is_visible()
    # change terrain: the forest at 1,0 (region 4) becomes part of plain region 4 beside it
    page.check("input[name='tool'][value='terrain']")
    page.select_option("#ed-brush", "plain")
    _then_checked(page, lambda: _cell(page, "1,0").click(force=True))
    assert page.locator("#ed-board g.cell[data-cell='1,0']").get_attribute("data-terrain") == "plain"
    # add a river: a fourth river along one edge
    page.check("input[name='tool'][value='river']")
    page.select_option("#ed-river", "4")
    _then_checked(page, lambda: page.locator("#ed-board line.edge-hit[data-edge='1,1|2,0']").click(force=True))
    assert page.locator("#ed-board g.river[data-river='4']").count() == 1
    # set a letter through the cell inspector: without it a finding names it, with it none
    page.check("input[name='tool'][value='cell']")
    _cell(page, "2,1").click(force=True)
    _then_checked(page, lambda: page.select_option("#ed-letter", ""))
    assert page.locator("#ed-problems li[data-where='letters.e']").count() >= 1
    _then_checked(page, lambda: page.select_option("#ed-letter", "e"))
    page.fill("#ed-name", "our-valley")
    _then_checked(page, lambda: page.locator("#ed-name").dispatch_event("change"))
    assert page.locator("#ed-valid").is_visible(), page.locator("#ed-problems").inner_text()
    page.click("#ed-save")
    page.wait_for_function("() => document.getElementById('ed-status').textContent.includes('our-valley')")
    saved = json.loads((server.maps / "our-valley.json").read_text())
    assert map_problems(saved) == []
    assert {c["at"]: c["terrain"] for c in saved["cells"]}["1,0"] == "plain"
    assert [(r["number"], r["joins_lake"]) for r in saved["rivers"]] == [(1, True), (2, True), (3, False), (4, False)]
    # export: the downloaded file is the map
    with page.expect_download() as download:
        page.click("#ed-export")
    exported = tmp_path / "exported.json"
    download.value.save_as(exported)
    assert json.loads(exported.read_text()) == saved
    # import it back after loading the sample: the editor holds the exported map again
    page.select_option("#ed-source", "sample")
    _then_checked(page, lambda: page.click("#ed-load"))
    assert page.locator("#ed-board g.river[data-river='4']").count() == 0
    page.set_input_files("#ed-file", str(exported))
    _then_checked(page, lambda: page.click("#ed-import"))
    assert page.locator("#ed-board g.river[data-river='4']").count() == 1
    assert page.input_value("#ed-name") == "our-valley"
    (server.maps / "our-valley.json").unlink()
    page.click("#ed-save")
    page.wait_for_function("() => document.getElementById('ed-status').textContent.includes('our-valley')")
    assert json.loads((server.maps / "our-valley.json").read_text()) == saved
    _no_sideways_scroll(page)
    _shot(page, f"editor-{size}")
    if size == "phone":  # scrolled down to the import form, the board is still in view (sticky)
        page.locator("#ed-import").scroll_into_view_if_needed()
        board = page.locator("#ed-board svg").bounding_box()
        assert board["y"] >= -1 and board["y"] + board["height"] <= SIZES[size]["height"]
        page.screenshot(path=str(ARTIFACTS / f"editor-{size}-scrolled.png"))
    # the valley view shows the saved map
    page.goto(server.url + "/vallee/?map=our-valley")
    assert page.locator("#valley-box g.river").count() == 4
    assert page.errors == []
    context.close()


def test_an_invalid_map_shows_each_finding_inline_and_lights_its_cells(server, browser):
    broken = shipped_map_json("sample")
    broken["cells"][0]["letter"] = None          # letter A is gone
    broken["compass"]["2"] = broken["compass"]["1"]  # two faces point the same way
    assert broken["cells"][5]["at"] == "0,-2"
    broken["cells"][5]["region"] = 9                 # no such region
    context, page = _page(browser, "tablet")
    _login(page, server)
    _open_editor(page, server)
    page.fill("#ed-paste", json.dumps(broken))
    _then_checked(page, lambda: page.click("#ed-import"))
    codes = page.locator("#ed-problems li").evaluate_all("els => els.map(e => e.dataset.code)")
    assert set(codes) == {p.code for p in map_problems(broken)}
    assert not page.locator("#ed-valid").is_visible()
    page.locator("#ed-problems li[data-code='region_range'] button").click()
    assert page.locator("#ed-board g.cell.lit").evaluate_all("els => els.map(e => e.dataset.cell)") == ["0,-2"]
    # fixed without the board (keyboard): pick the cell by name, give it its region back
    page.select_option("#ed-cell-pick", "0,-2")
    assert page.locator("#ed-cell-name").text_content() == "0,-2"
    _then_checked(page, lambda: page.select_option("#ed-region", "1"))
    assert page.locator("#ed-problems li[data-code='region_range']").count() == 0
    assert page.locator("#ed-board g.cell.lit").count() == 0
    # a river by keyboard too: from the picked cell, along its edge with a neighbour
    page.select_option("#ed-cell-pick", "1,1")
    page.select_option("#ed-river", "4")
    page.select_option("#ed-edge-to", "2,0")
    _then_checked(page, lambda: page.click("#ed-edge-toggle"))
    assert page.locator("#ed-board g.river[data-river='4']").count() == 1
    _then_checked(page, lambda: page.click("#ed-edge-toggle"))
    assert page.locator("#ed-board g.river[data-river='4']").count() == 0
    # a paste that is not JSON: the error names the field and where the text breaks
    page.fill("#ed-paste", '{"format": ')
    page.click("#ed-import")
    page.wait_for_selector("#ed-error:not([hidden])")
    assert "[text]" in page.locator("#ed-error").inner_text()
    page.click("header.top button[data-lang='fr']")
    assert "lettre A" in page.locator("#ed-problems").inner_text()
    _shot(page, "editor-findings-tablet")
    # the one console line: the browser's own note of the refused paste (HTTP 400)
    assert [e for e in page.errors if "status of 400" not in e] == []
    context.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (scripts/test.sh installs it with npm)")
def test_no_serious_or_critical_accessibility_violation(server, browser):
    context, page = _page(browser, "tablet", bypass_csp=True)  # axe is injected as a script tag
    _login(page, server)
    found = {}
    for path in ("/vallee/", "/vallee/maps"):
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
        bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
               if v["impact"] in ("serious", "critical")]
        if bad:
            found[path] = bad
    context.close()
    assert found == {}

"""Every route of La Vallée's pages through Flask's test client: good input, malformed
input (HTTP 400 naming the field), writes without the referee (401) or without the
custom header (403), never a 500; maps saved whole (atomic replace) and read back."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion_web import GameMode, create_app
from vallee.board import read_map_file, sample_valley, shipped_map_json
from vallee.validate import map_problems
from vallee.web import EXTENSION, MapShelf, blank_map, bp

PIN = "246810"
WRITE = {"X-Referee-PIN": PIN, "X-Vallee": "1"}


@pytest.fixture
def shelf(tmp_path):
    return MapShelf(tmp_path / "vallee-maps")


@pytest.fixture
def client(shelf):
    app = create_app({"REFEREE_PIN": PIN, "TESTING": True},
                     games=[GameMode("La Vallée", bp, {EXTENSION: shelf})])
    return app.test_client()


def _ours(name="ours") -> dict:
    m = shipped_map_json("sample")
    m["name"], m["sample"] = name, False
    return m


# -- the pages ---------------------------------------------------------------------------

def test_the_valley_page_draws_the_sample_valley_by_default(client):
    response = client.get("/vallee/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert page.count('class="cell t-') == 37 and page.count('class="river"') == 3
    assert 'data-fr="Vallée d&#39;exemple' in page or "data-fr=\"Vallée d'exemple" in page
    assert 'href="/vallee/"' in page  # the site's menu names the mode
    assert "Content-Security-Policy" in response.headers


def test_the_valley_page_names_an_unknown_or_damaged_map_without_failing(client, shelf):
    assert client.get("/vallee/?map=nowhere").status_code == 404
    assert client.get("/vallee/?map=../../etc/passwd").status_code == 404
    shelf.folder.mkdir(parents=True)
    (shelf.folder / "broken.json").write_text("{half a map")
    response = client.get("/vallee/?map=broken")
    assert response.status_code == 404 and "damaged" in response.get_data(as_text=True)
    (shelf.folder / "odd.json").write_text(json.dumps({"format": "vallee-map/1"}))
    response = client.get("/vallee/?map=odd")
    assert response.status_code == 404 and "cannot be read" in response.get_data(as_text=True)


def test_a_saved_map_with_problems_is_drawn_with_its_problems_listed(client, shelf):
    m = _ours("gappy")
    m["cells"][0]["letter"] = None
    shelf.save(m)
    page = client.get("/vallee/?map=gappy").get_data(as_text=True)
    assert "no cell carries the letter A" in page and "aucune case ne porte la lettre A" in page


def test_the_editor_page_is_open_to_read_and_asks_viewers_to_log_in(client):
    response = client.get("/vallee/maps")
    assert response.status_code == 200 and 'id="login-note"' in response.get_data(as_text=True)


# -- reading maps -------------------------------------------------------------------------

def test_the_map_list_has_the_sample_then_the_saved_maps(client, shelf):
    shelf.save(_ours("ours"))
    maps = client.get("/vallee/maps/list.json").json["maps"]
    assert [(m["name"], m["sample"], m["shipped"]) for m in maps] == [("sample", True, True), ("ours", False, False)]


def test_a_map_file_is_served_as_saved_and_downloadable(client, shelf):
    shelf.save(_ours())
    assert client.get("/vallee/maps/ours.json").json == _ours()
    assert client.get("/vallee/maps/sample.json").json == shipped_map_json("sample")
    download = client.get("/vallee/maps/ours.json?download=1")
    assert download.headers["Content-Disposition"] == 'attachment; filename="vallee-ours.json"'
    assert client.get("/vallee/maps/none.json").status_code == 404
    bad = client.get("/vallee/maps/NOT_A_NAME.json")
    assert bad.status_code == 400 and bad.json["error"]["field"] == "name"


def test_a_blank_board_is_laid_from_its_two_halves(client):
    response = client.get("/vallee/maps/blank.json?A=verso&orientation=flat")
    blank = response.json["map"]
    assert blank["halves"] == {"A": "verso", "B": "recto"} and len(blank["cells"]) == 37
    assert read_map_file(blank).valley.orientation == "flat"
    # all plain and regionless: the validator lists what is left to enter
    assert {p.code for p in map_problems(blank)} >= {"region_missing", "letter_missing", "lake_missing"}
    for query, field in (("A=upside", "A"), ("B=", "B"), ("orientation=round", "orientation")):
        bad = client.get("/vallee/maps/blank.json?" + query)
        assert bad.status_code == 400 and bad.json["error"]["field"] == field


# -- checking -----------------------------------------------------------------------------

def test_checking_the_sample_finds_nothing_and_draws_it_for_the_editor(client):
    answer = client.post("/vallee/maps/check", json={"map": shipped_map_json("sample")}, headers=WRITE).json
    assert answer["ok"] and answer["valid"] and answer["problems"] == []
    assert answer["svg"].count('class="edge-hit"') > 0 and answer["map"] == shipped_map_json("sample")


def test_every_finding_names_the_cells_it_is_about(client):
    m = shipped_map_json("sample")
    m["cells"][5]["region"] = 9
    m["rivers"][2]["edges"].append(["-3,3", "0,3"])
    answer = client.post("/vallee/maps/check", json={"map": m}, headers=WRITE).json
    by_code = {p["code"]: p for p in answer["problems"]}
    assert by_code["region_range"]["cells"] == ["0,-2"]
    assert by_code["river_edge_not_adjacent"]["cells"] == ["-3,3", "0,3"]
    assert not answer["valid"]
    assert all({"code", "where", "en", "fr", "cells"} <= set(p) for p in answer["problems"])


def test_a_map_pasted_as_text_is_read_like_a_file(client):
    text = json.dumps(shipped_map_json("sample"))
    answer = client.post("/vallee/maps/check", json={"text": text}, headers=WRITE).json
    assert answer["valid"] and answer["map"] == shipped_map_json("sample")


@pytest.mark.parametrize("body, field", [
    ({"text": "{oops"}, "text"),
    ({"text": "[1, 2]"}, "text"),
    ({"text": 7}, "text"),
    ({"map": [1]}, "map"),
    ({}, "map"),
    ({"map": {}, "text": "{}"}, "map"),
    ({"map": {}, "extra": 1}, "extra"),
    ({"map": {"format": "vallee-map/1"}}, "name"),
    ({"map": {**shipped_map_json("sample"), "compass": {"1": "UP"}}}, "compass.1"),
    ({"map": {**shipped_map_json("sample"), "cells": [{"at": "x", "terrain": "plain"}]}}, "cells.0.at"),
])
def test_a_malformed_check_is_a_400_naming_the_field(client, body, field):
    response = client.post("/vallee/maps/check", json=body, headers=WRITE)
    assert response.status_code == 400
    assert response.json["error"]["field"] == field and response.json["error"]["message_fr"]


@pytest.mark.parametrize("data, field", [
    (b"{not json", "request"), (b"[1]", "request"), (b"\xff\xfe", "request"),
    (b"[" * 5000, "request"), (b'{"map": {"n": ' + b"9" * 500 + b"}}", "map.n"),
])
def test_a_body_that_is_not_a_json_object_is_a_400_from_the_shared_reader(client, data, field):
    response = client.post("/vallee/maps/check", data=data, content_type="application/json", headers=WRITE)
    assert response.status_code == 400 and response.json["error"]["field"] == field


def test_writes_need_the_referee_then_the_custom_header(client):
    body = {"map": shipped_map_json("sample")}
    for path in ("/vallee/maps/check", "/vallee/maps/save"):
        assert client.post(path, json=body).status_code == 401
        assert client.post(path, json=body, headers={"X-Vallee": "1"}).status_code == 401
        assert client.post(path, json=body, headers={"X-Referee-PIN": "000000", "X-Vallee": "1"}).status_code == 401
        refused = client.post(path, json=body, headers={"X-Referee-PIN": PIN})
        assert refused.status_code == 403 and refused.json["error"]["field"] == "X-Vallee"


# -- saving -------------------------------------------------------------------------------

def test_a_saved_map_is_written_whole_and_listed(client, shelf):
    answer = client.post("/vallee/maps/save", json={"map": _ours()}, headers=WRITE).json
    assert answer["saved"] == "ours" and answer["valid"] and answer["problems"] == []
    assert json.loads((shelf.folder / "ours.json").read_text()) == _ours()
    assert [p.name for p in shelf.folder.iterdir()] == ["ours.json"]  # no temporary file left behind
    assert "ours" in [m["name"] for m in answer["maps"]]


def test_saving_again_replaces_the_map(client, shelf):
    client.post("/vallee/maps/save", json={"map": _ours()}, headers=WRITE)
    changed = _ours()
    changed["compass"]["1"], changed["compass"]["4"] = changed["compass"]["4"], changed["compass"]["1"]
    client.post("/vallee/maps/save", json={"map": changed}, headers=WRITE)
    assert shelf.load("ours") == changed


def test_a_map_with_problems_is_saved_as_a_draft_with_its_problems(client, shelf):
    m = _ours("draft")
    m["cells"][0]["letter"] = None
    answer = client.post("/vallee/maps/save", json={"map": m}, headers=WRITE).json
    assert answer["saved"] == "draft" and not answer["valid"] and answer["problems"]
    assert shelf.load("draft") == m


@pytest.mark.parametrize("name", ["sample", "blank", "list", "Our Valley", "../escape", "x" * 41, "-lead"])
def test_a_map_name_that_cannot_be_a_file_of_its_own_is_refused_before_writing(client, shelf, name):
    response = client.post("/vallee/maps/save", json={"map": _ours(name)}, headers=WRITE)
    assert response.status_code == 400 and response.json["error"]["field"] == "name"
    assert not shelf.folder.exists() or list(shelf.folder.iterdir()) == []


def test_a_failed_write_is_a_503_and_keeps_the_old_map(client, shelf, monkeypatch):
    client.post("/vallee/maps/save", json={"map": _ours()}, headers=WRITE)
    changed = _ours()
    changed["title"] = {"en": "Changed", "fr": "Changée"}

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("vallee.web.os.replace", full_disk)
    response = client.post("/vallee/maps/save", json={"map": changed}, headers=WRITE)
    assert response.status_code == 503 and response.json["error"]["code"] == "save_failed"
    assert shelf.load("ours") == _ours()
    assert [p.name for p in shelf.folder.iterdir()] == ["ours.json"]


# -- never a 500 --------------------------------------------------------------------------

JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                       max_leaves=20)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["cells", "rivers", "volcanoes", "compass", "grid", "provenance", "halves", "name"]),
       value=JSONISH)
def test_a_map_with_any_part_replaced_by_anything_is_answered_never_a_500(client, path, value):
    m = shipped_map_json("sample")
    m[path] = value
    response = client.post("/vallee/maps/check", json={"map": m}, headers=WRITE)
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert response.json["error"]["field"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 36), key=st.sampled_from(["terrain", "region", "letter", "half", "at"]), value=JSONISH)
def test_a_cell_with_any_value_is_answered_never_a_500(client, index, key, value):
    m = shipped_map_json("sample")
    m["cells"][index][key] = value
    response = client.post("/vallee/maps/check", json={"map": m}, headers=WRITE)
    assert response.status_code in (200, 400)


def test_the_blank_board_and_the_sample_agree_on_the_halves_seam():
    """The blank board's halves follow the sample valley's seam (A west of the middle)."""
    blank = {c["at"]: c["half"] for c in blank_map()["cells"]}
    sample = sample_valley()
    assert blank == {f"{q},{r}": half for (q, r), half in sample.half.items()}


def test_every_route_of_the_blueprint_is_documented_in_docs_vallee_web(tmp_path):
    from pathlib import Path

    from maamut.app import vallee_mode

    app = create_app({"REFEREE_PIN": PIN, "TESTING": True},
                     games=[vallee_mode(str(tmp_path / "maps"), str(tmp_path / "vallee.jsonl"))])
    client = app.test_client()

    doc = (Path(__file__).resolve().parents[2] / "docs" / "vallee-web.md").read_text(encoding="utf-8")
    routes = [(sorted(r.methods - {"HEAD", "OPTIONS"})[0], r.rule.replace("<name>", "NAME").replace("<token>", "TOKEN"))
              for r in client.application.url_map.iter_rules() if r.endpoint.startswith("vallee")
              and r.endpoint != "vallee.static"]
    assert len(routes) == 16
    for method, rule in routes:
        assert f"`{method} {rule}" in doc, (method, rule)


def test_the_companion_serves_la_vallee_beside_the_other_games_with_its_maps_under_var(tmp_path):
    """The application factory's wiring (maamut.app.vallee_mode): the menu leads to
    /vallee/, writes need the companion's PIN, maps land in var/vallee-maps/."""
    from maamut.app import Companion
    from maamut.config import Config

    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}]
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    cfg.web["pin"] = "112233"
    companion = Companion(cfg)
    try:
        web = companion.app.test_client()
        assert b'href="/vallee/"' in web.get("/").data and web.get("/vallee/").status_code == 200
        body = {"map": _ours()}
        assert web.post("/vallee/maps/save", json=body, headers={"X-Vallee": "1"}).status_code == 401
        saved = web.post("/vallee/maps/save", json=body, headers={"X-Vallee": "1", "X-Referee-PIN": "112233"})
        assert saved.status_code == 200, saved.get_json()
        assert (tmp_path / "var" / "vallee-maps" / "ours.json").is_file()
    finally:
        companion.close()


def test_text_from_a_map_file_is_escaped_on_the_page_and_in_the_drawing(client, shelf):
    m = _ours("sly")
    m["title"] = {"en": '<script>alert(1)</script>"', "fr": "<img src=x onerror=alert(1)>"}
    m["provenance"]["source"] = "<b>bold</b>"
    shelf.save(m)
    page = client.get("/vallee/?map=sly").get_data(as_text=True)
    assert "<script>alert" not in page and "<img src=x" not in page and "<b>bold</b>" not in page
    assert "&lt;script&gt;" in page


def test_a_flat_top_board_is_drawn_with_its_own_compass_directions(client):
    from vallee.board_svg import render_valley

    blank = client.get("/vallee/maps/blank.json?orientation=flat").json["map"]
    svg = render_valley(read_map_file(blank).valley)
    assert svg.count('class="cell ') == 37
    assert sorted(svg.split('data-direction="')[i].split('"')[0] for i in range(1, 7)) == sorted(
        ["SE", "S", "SW", "NW", "N", "NE"])


def test_bench_web_weighs_la_vallee_pages_within_the_page_budget(tmp_path):
    """``maamut bench web``'s new keys for La Vallée (a size budget, not a timing)."""
    from maamut.web_bench import vallee_weights

    weights = vallee_weights(str(tmp_path / "maps"))
    assert set(weights) == {"vallee_page_weight_kb", "vallee_editor_weight_kb", "vallee_game_weight_kb",
                            "vallee_update_kb", "vallee_full_state_kb"}
    for page in ("vallee_page_weight_kb", "vallee_editor_weight_kb", "vallee_game_weight_kb"):
        assert 0 < weights[page] <= 150, page
    assert 0 < weights["vallee_update_kb"] < weights["vallee_full_state_kb"]

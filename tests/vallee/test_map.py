"""The map as data and its validator: the sample valley is valid, and each kind of mistake is named."""

from __future__ import annotations

import json

import pytest

from vallee.board import sample_valley
from vallee.core import BadRequest, LAKE
from vallee.validate import map_problems

from .conftest import run_cli


def codes(obj):
    return sorted({p.code for p in map_problems(obj)})


def cell_entry(obj, at):
    return next(c for c in obj["cells"] if c["at"] == at)


def test_sample_valley_is_valid_and_labelled_as_not_the_published_board(sample_json):
    assert map_problems(sample_json) == []
    valley = sample_valley()
    assert valley.sample is True and "NOT the published board" in valley.title["en"]
    assert "PAS le plateau publié" in valley.title["fr"]


def test_sample_valley_exercises_every_map_feature():
    v = sample_valley()
    terrains = set(v.terrain.values())
    assert terrains == {"plain", "forest", "mountain", "volcano", "lake"}
    assert len(v.lake) >= 2 and len(v.rivers) == 3 and len(v.volcanoes) == 2
    assert {r.joins_lake for r in v.rivers.values()} == {True, False}
    assert len(v.letter) == 18 and all(v.on_perimeter(c) for c in v.letter)
    assert {v.half[c] for c in v.cells} == {"A", "B"}
    # The rose is laid out like a die (opposite faces sum to 7), so face + 3 is NOT the opposite.
    from vallee.core import opposite_name
    assert all(opposite_name("pointy", v.compass[f]) == v.compass[7 - f] for f in range(1, 7))


def test_river_banks_and_fishing_cells_come_from_cell_edges():
    v = sample_valley()
    assert v.river_banks(3) == frozenset({(-2, 2), (-1, 1), (-1, 2), (-2, 3), (-1, 3)})
    assert v.on_a_river((3, 0)) and not v.on_a_river((-3, 0))
    assert v.by_the_lake((0, 1)) and not v.by_the_lake((0, 0))


@pytest.mark.parametrize("mutate, expected", [
    (lambda m: cell_entry(m, "2,0").update(region=1), ["region_absent", "region_split"]),
    (lambda m: cell_entry(m, "2,0").pop("region"), ["region_absent", "region_missing"]),
    (lambda m: cell_entry(m, "0,0").update(region=2), ["region_on_lake"]),
    (lambda m: cell_entry(m, "-2,-1").update(letter="k"), ["letter_duplicate", "letter_missing", "letter_tokens"]),
    (lambda m: cell_entry(m, "0,-2").update(letter="z"), ["letter_unknown"]),
    (lambda m: (cell_entry(m, "0,-3").pop("letter"), cell_entry(m, "0,-2").update(letter="A")), ["letter_not_edge"]),
    (lambda m: (cell_entry(m, "0,-3").update(letter="a"), cell_entry(m, "-1,-2").update(letter="A")),
     ["letter_terrain"]),
    (lambda m: m["rivers"][2]["edges"].append(["-3,0", "3,0"]), ["river_edge_not_adjacent"]),
    (lambda m: m["rivers"][2]["edges"].append(["-3,3", "-2,2"]), ["river_broken"]),
    (lambda m: m["rivers"][2]["edges"].append(["9,9", "9,8"]), ["river_edge_off_board"]),
    (lambda m: m["rivers"][2]["edges"].append(["-1,1", "-1,0"]), ["river_edge_lake"]),
    (lambda m: m["rivers"][1]["edges"].append(["0,-1", "1,-1"]), ["river_edge_duplicate"]),
    (lambda m: m["rivers"][2].update(number=5), ["river_numbers"]),
    (lambda m: m["rivers"][2].update(number=2), ["river_number_duplicate"]),
    (lambda m: m["rivers"][2].update(joins_lake=True), ["river_lake_claim"]),
    (lambda m: m["volcanoes"][0].update(lava=["2,-1"]), ["lava_cut_off"]),
    (lambda m: m["volcanoes"][0].update(lava=["0,0"]), ["lava_cell"]),
    (lambda m: m["volcanoes"].pop(), ["volcano_unlisted"]),
    (lambda m: m["volcanoes"].append({"at": "0,-2", "lava": []}), ["volcano_terrain"]),
    (lambda m: m["compass"].update({"2": "NE"}), ["compass_duplicate"]),
    (lambda m: cell_entry(m, "0,1").pop("half"), ["half_missing"]),
    (lambda m: cell_entry(m, "0,1").update(half="C"), ["half_unknown"]),
    (lambda m: [c.update(terrain="plain") for c in m["cells"] if c["terrain"] == LAKE],
     ["lake_missing", "region_missing", "river_lake_claim"]),
    (lambda m: m["cells"].append({"at": "6,0", "terrain": "plain", "region": 1, "half": "B"}),
     ["board_disconnected", "region_split"]),
    (lambda m: m["cells"].append(dict(cell_entry(m, "2,0"))), ["cell_duplicate"]),
])
def test_each_kind_of_mistake_is_named(sample_json, mutate, expected):
    mutate(sample_json)
    assert codes(sample_json) == expected


def test_every_problem_is_named_in_both_languages_with_its_place(sample_json):
    cell_entry(sample_json, "2,0").pop("region")
    sample_json["compass"]["2"] = "NE"
    found = map_problems(sample_json)
    assert len(found) == 3
    assert all(p.en and p.fr and p.where and p.en != p.fr for p in found)


def test_a_grazer_token_with_a_mountain_letter_is_refused(sample_json):
    from vallee.tokens import DEFAULT_TOKENS
    tokens = dict(DEFAULT_TOKENS, bison=DEFAULT_TOKENS["bison"][:-1] + ("A",))
    assert [p.code for p in map_problems(sample_json, tokens)] == ["token_mountain"]


def test_the_rulebook_token_list_as_printed_does_not_match_a_valley(sample_json):
    """The printed list (p for d, a fourth i) leaves cell d with no token and p with no cell."""
    from vallee.tokens import DEFAULT_TOKENS
    printed = {s: tuple("p" if l == "d" else l for l in ls) for s, ls in DEFAULT_TOKENS.items()}
    printed["mammoth"] = tuple("i" if l == "l" else l for l in printed["mammoth"])
    where = sorted(p.where for p in map_problems(sample_json, printed))
    assert where == ["letters.d", "letters.p"]


@pytest.mark.parametrize("mutate, field", [
    (lambda m: m.pop("compass"), "compass"),
    (lambda m: m["compass"].update({"2": "N"}), "compass.2"),
    (lambda m: m["cells"][3].update(terrain="swamp"), "cells.3.terrain"),
    (lambda m: m["cells"][3].update(at="x"), "cells.3.at"),
    (lambda m: m["rivers"][0]["edges"].append(["0,0"]), "rivers.0.edges.5"),
    (lambda m: m["provenance"].update(date="yesterday"), "provenance.date"),
    (lambda m: m.update(format="other"), "format"),
    (lambda m: m.update(colour="blue"), "colour"),
    (lambda m: m["grid"].update(orientation="round"), "grid.orientation"),
])
def test_a_malformed_map_file_names_the_field(sample_json, mutate, field):
    mutate(sample_json)
    with pytest.raises(BadRequest) as info:
        map_problems(sample_json)
    assert info.value.field == field


def test_map_check_command_exit_codes(tmp_path, sample_json):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(sample_json))
    assert run_cli(["map", "check", str(good)])[0] == 0
    cell_entry(sample_json, "2,0").pop("region")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(sample_json))
    code, out = run_cli(["map", "check", str(bad)])
    assert code == 1 and out["error"]["rule"] == "map.valid"
    assert [p["code"] for p in out["problems"]] == ["region_missing", "region_absent"]
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    code, out = run_cli(["map", "check", str(broken)])
    assert code == 2 and out["error"]["field"] == "file"


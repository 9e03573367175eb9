"""The hex -> LED map: default serpentine, builder configuration, validation, SVG."""

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from engine.hexgrid import CELLS, NUM_CELLS, cell_name, distance, parse_cell
from firmware_bridge.ledmap import LedMap, LedMapError

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def test_default_serpentine_visits_every_hex_once_with_neighbouring_steps():
    """Consecutive LEDs sit under adjacent hexes, so the strip never jumps across the board."""
    chain = LedMap.serpentine().chain()
    assert sorted(chain) == list(range(NUM_CELLS))
    assert all(distance(a, b) == 1 for a, b in zip(chain, chain[1:]))


def test_serpentine_turns_back_at_the_end_of_each_row():
    leds = LedMap.serpentine()
    assert [cell_name(c) for c in leds.chain()[:9]] == [
        "0,-3", "1,-3", "2,-3", "3,-3", "3,-2", "2,-2", "1,-2", "0,-2", "-1,-2"]
    assert leds.index_of("0,0") == 18 and leds.index_of("0,3") == 36


@pytest.mark.parametrize("start, first, second", [
    ("north-west", "0,-3", "1,-3"), ("north-east", "3,-3", "2,-3"),
    ("south-west", "-3,3", "-2,3"), ("south-east", "0,3", "-1,3")])
def test_each_start_corner_puts_led_zero_in_that_corner(start, first, second):
    leds = LedMap.serpentine(start=start)
    assert leds.cell_at(0) == parse_cell(first) and leds.cell_at(1) == parse_cell(second)


def test_rows_layout_runs_every_row_in_the_same_direction():
    chain = LedMap.rows().chain()
    for a, b in zip(chain, chain[1:]):
        (qa, ra), (qb, rb) = CELLS[a], CELLS[b]
        assert (ra == rb and qb == qa + 1) or rb == ra + 1


def test_status_leds_follow_the_last_hex_led():
    leds = LedMap.serpentine(status_leds=3)
    assert leds.status_leds == (37, 38, 39) and leds.led_count == 40
    assert all(leds.cell_at(i) is None for i in leds.status_leds)


def test_config_round_trips_through_toml_text():
    """What --toml prints reads back as the same map, for every built-in layout."""
    import tomllib

    for leds in (LedMap.serpentine(), LedMap.rows("south-east", 2), LedMap.serpentine("north-east", 0)):
        again = LedMap.from_config(tomllib.loads(leds.to_toml())["leds"]["map"])
        assert again == leds


def test_custom_chain_with_a_spare_led_shifts_the_following_indices(tmp_path):
    chain = [cell_name(c) for c in LedMap.serpentine().chain()]
    chain.insert(4, "-")  # a spare pixel where the strip turns into row 2
    config = tmp_path / "maamut.toml"
    config.write_text("[leds]\nbackend = 'auto'\n[leds.map]\nlayout = 'custom'\nstatus_leds = 2\nchain = [" +
                      ", ".join(f'"{c}"' for c in chain) + "]\n")
    leds = LedMap.load(config)
    assert leds.index_of("3,-3") == 3 and leds.index_of("3,-2") == 5
    assert leds.cell_at(4) is None
    assert leds.status_leds == (38, 39) and leds.led_count == 40
    assert LedMap.from_config(leds.to_config()) == leds


def test_custom_cells_table_gives_explicit_indices():
    table = {cell_name(c): 36 - c for c in range(NUM_CELLS)}
    leds = LedMap.from_config({"layout": "custom", "cells": table})
    assert leds.index_of("0,-3") == 36 and leds.index_of("0,3") == 0


@pytest.mark.parametrize("table, message", [
    ({"layout": "zigzag"}, "layout must be one of"),
    ({"start": "north"}, "start must be one of"),
    ({"colour": "red"}, "unknown key"),
    ({"chain": ["0,0"] * 37}, "appears twice"),
    ({"chain": ["0,0", "9,9"]}, "off the board"),
    ({"chain": ["0,0", "1,0"]}, "35 hexes have no LED"),
    ({"chain": "0,0 1,0"}, "must be a list"),
    ({"cells": {cell_name(c): 0 for c in range(NUM_CELLS)}}, "both use LED 0"),
    ({"cells": {cell_name(c): -c for c in range(NUM_CELLS)}}, "whole number >= 0"),
    ({"cells": {cell_name(c): c * 1000 for c in range(NUM_CELLS)}}, "surely a mistake"),
    ({"status_leds": -1}, "status_leds"),
    ({"layout": "custom"}, "exactly one of chain"),
    ({"layout": "serpentine", "chain": []}, "takes no chain"),
])
def test_bad_configurations_are_refused_with_a_reason(table, message):
    with pytest.raises(LedMapError, match=message):
        LedMap.from_config(table)


def test_unreadable_config_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[leds\n")
    with pytest.raises(LedMapError, match="not valid TOML"):
        LedMap.load(bad)
    with pytest.raises(LedMapError, match="cannot read"):
        LedMap.load(tmp_path / "missing.toml")


def test_svg_labels_every_hex_with_its_led_index():
    leds = LedMap.serpentine("south-east")
    root = ET.fromstring(leds.to_svg())
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for cell in range(NUM_CELLS):
        # the big number and the cell name are drawn one after the other
        i = texts.index(cell_name(cell))
        assert texts[i - 1] == str(leds.index_of(cell))
    assert len(list(root.iter("{http://www.w3.org/2000/svg}polygon"))) == NUM_CELLS


def test_committed_ledmap_svg_matches_the_default_map():
    """hardware/ledmap.svg is regenerated whenever ledmap.py changes the drawing."""
    assert (ROOT / "hardware" / "ledmap.svg").read_text(encoding="utf-8") == LedMap.serpentine().to_svg()


def test_command_line_writes_the_svg_and_rejects_a_bad_config(tmp_path):
    out = tmp_path / "map.svg"
    ok = subprocess.run([sys.executable, "-m", "firmware_bridge.ledmap", "--svg", str(out)],
                        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and out.read_text().startswith("<?xml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[leds.map]\nlayout = 'spiral'\n")
    fail = subprocess.run([sys.executable, "-m", "firmware_bridge.ledmap", "--config", str(bad)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert fail.returncode == 2 and "layout must be one of" in fail.stderr and "Traceback" not in fail.stderr

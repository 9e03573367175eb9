"""The hardware docs agree with the code they describe."""

import ast
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

from firmware_bridge.buttons import ButtonSettings
from firmware_bridge.ledmap import LedMap
from firmware_bridge.scenes import SceneMaker, demo_scenes, main as scenes_main, peak_current_ma

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def firmware_config() -> dict:
    """The firmware's constants, read without running MicroPython code."""
    tree = ast.parse((HARDWARE / "firmware" / "config.py").read_text())
    values = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            values[node.targets[0].id] = node.value.value
    return values


def test_wiring_diagram_is_valid_svg_naming_the_pins_the_software_uses():
    svg = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    config = firmware_config()
    defaults = ButtonSettings()
    assert f"GP{config['DATA_PIN']} (LED data)" in text
    assert f"GP{config['SAFE_BOOT_PIN']} (safe boot)" in text
    assert f"GPIO{defaults.done_pin}" in text and f"GPIO{defaults.undo_pin}" in text
    for part in ("74AHCT125", "330 Ω", "1000 µF", "LED supply 5 V 3 A", "Camera Module 3"):
        assert part in text, part


def test_led_count_of_the_default_map_matches_the_firmware():
    config = firmware_config()
    leds = LedMap.serpentine()
    assert f"Pico GP{config['DATA_PIN']}," in leds.to_svg()
    assert leds.led_count == config["HEX_LEDS"] + config["STATUS_LEDS"]
    assert leds.status_count == config["STATUS_LEDS"]


def test_configuration_example_in_the_readme_is_accepted():
    readme = (HARDWARE / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.*?)```", readme, re.S).group(1)
    config = tomllib.loads(block)
    assert LedMap.from_config(config["leds"]["map"]) == LedMap.serpentine()
    assert ButtonSettings.from_config(config["buttons"]) == ButtonSettings()
    maker = SceneMaker.from_config(config)
    assert maker.colours["A"] == (0xD6, 0x28, 0x28) and maker.colours["Blue"] == (0x1D, 0x4E, 0xD8)


def test_companion_default_configuration_gives_the_default_map_and_token_colours(tmp_path):
    """`maamut config`'s starting file works unchanged with the kit's readers."""
    from maamut.config import DEFAULT_TEXT, DEFAULTS

    path = tmp_path / "maamut.toml"
    path.write_text(DEFAULT_TEXT, encoding="utf-8")
    assert LedMap.load(path) == LedMap.serpentine()
    maker = SceneMaker.from_config(DEFAULTS)
    for player in DEFAULTS["game"]["players"]:
        assert maker.colour_of(player["id"]) == tuple(int(player["colour"][i:i + 2], 16) for i in (1, 3, 5))


def test_power_budget_table_matches_the_scenes():
    """POWER.md's scene table is what `python -m firmware_bridge.scenes` computes."""
    power = (HARDWARE / "POWER.md").read_text(encoding="utf-8")
    rows = {}
    for line in power.splitlines():
        match = re.match(r"\| ([^|]+) \| ([\d ]+) mA \| ([\d ]+) mA \|$", line)
        if match:
            rows[match.group(1).strip()] = (int(match.group(2).replace(" ", "")),
                                             int(match.group(3).replace(" ", "")))
    config = firmware_config()
    scenes = {s.name + (f"/{s.detail['winner']}" if "winner" in s.detail else ""): s for s in demo_scenes()}
    documented = {
        "setup: where the next hunter may be placed": scenes["placement"],
        "whose turn (status LEDs + pulse under the mover)": scenes["turn"],
        "mammoth's flight": scenes["flight"],
        "flee options of a frightened hunter": scenes["flee_options"],
        "hunter eliminated": scenes["eliminated"],
        "illegal change": scenes["illegal_change"],
        "celebration, a hunter wins": scenes["celebration/C"],
        "celebration, the mammoth wins": scenes["celebration/mammoth"],
        "attract loop (convention stand)": scenes["attract"],
    }
    for label, scene in documented.items():
        expected = (peak_current_ma(scene),
                    peak_current_ma(scene, config["BRIGHTNESS"], config["CURRENT_LIMIT_MA"]))
        assert rows[label] == expected, f"POWER.md is out of date for {label!r}: rerun the scenes command"


def test_scenes_command_prints_every_scene_with_its_draw(capsys):
    assert scenes_main(["--brightness", "96"]) == 0
    out = capsys.readouterr().out
    for name in ("turn", "flight", "flee_options", "eliminated", "illegal_change", "celebration", "attract"):
        assert name in out


def test_scene_bench_builds_and_plays_a_flight_and_a_flee_request():
    from firmware_bridge.scenes import bench_scenes

    assert "2 scenes" in bench_scenes(rounds=2)


def test_committed_scenes_svg_matches_the_scenes():
    """hardware/scenes.svg is regenerated whenever a scene changes."""
    from firmware_bridge.scenes import scenes_svg

    maker = SceneMaker()
    expected = scenes_svg(demo_scenes(maker), maker.ledmap)
    assert (HARDWARE / "scenes.svg").read_text(encoding="utf-8") == expected, \
        "rerun: python -m firmware_bridge.scenes --svg hardware/scenes.svg"
    ET.fromstring(expected)

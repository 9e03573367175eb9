"""The configuration file: every value that cannot work is a clear error naming its key,
raised while the file is read, and ``maamut serve``/``demo`` print it (exit 2, no traceback)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from maamut.config import ConfigError, load_config, parse_config

ROOT = Path(__file__).resolve().parents[2]
TWO = '[[game.players]]\nid = "A"\n[[game.players]]\nid = "B"\n'


@pytest.mark.parametrize("text, message", [
    # one player, as a table or as a one-element list, or a string: not a list of 2 to 4
    ('[game]\nplayers = { id = "A", name = "Ann" }',
     "[game] players: give 2 to 4 players as a list of tables"),
    ('[[game.players]]\nid = "A"', "[game] players: give 2 to 4 players as a list of tables"),
    ('[game]\nplayers = "A, B, C"', "[game] players: give 2 to 4 players as a list of tables"),
    ('[game]\nplayers = ["A", "B"]', "[game] players[1]: each player is a table"),
    ("[game]\nplayers = [" + ", ".join('{ id = "%s" }' % c for c in "ABCDE") + "]",
     "[game] players: give 2 to 4 players as a list of tables"),
    ('[game]\nplayers = [{ id = "A", colour = "red" }, { id = "B" }]',
     "[game] players[1] colour: 'red' is not a colour like \"#d7263d\""),
    ('[game]\nplayers = [{ id = "A" }, { id = "B", colour = "#12345" }]', "[game] players[2] colour"),
    ('[game]\nplayers = [{ id = "A" }, { id = "A" }]', "[game] players[2] id: 'A' is already an earlier seat's id"),
    ('[game]\nplayers = [{ name = "Ann" }, { id = "B" }]', "[game] players[1]: id is missing"),
    ('[game]\nplayers = [{ id = "A B" }, { id = "B" }]', "[game] players[1] id: 'A B' must be 1 to 24"),
    ('[game]\nplayers = [{ id = "%s" }, { id = "B" }]' % ("x" * 25), "[game] players[1] id"),
    ('[game]\nplayers = [{ id = 1 }, { id = 2 }]', "[game] players[1] id: 1"),
    ('[game]\nplayers = [{ id = "A", name = "" }, { id = "B" }]', "[game] players[1] name"),
    ('[game]\nplayers = [{ id = "A", name = "%s" }, { id = "B" }]' % ("n" * 41), "[game] players[1] name"),
    ('[game]\nplayers = [{ id = "A", color = "#ff0000" }, { id = "B" }]',
     "[game] players[1]: unknown key(s) color (known: id, name, colour, ai)"),
    ('[leds]\nbrightness = 300', "[leds] brightness: 300 is not a whole number from 0 to 255"),
    ('[leds]\nbrightnes = 30', "[leds] unknown key(s) brightnes (known: backend, port, serial_number, brightness, map)"),
    ('[web]\npin_code = "1234"', "[web] unknown key(s) pin_code"),
    ('[leds]\nbackend = "neopixel"',
     "[leds] backend: 'neopixel' is not one of auto, firmware, adalight, simulated"),
    ('[leds]\nbackend = "Firmware"', "[leds] backend"),
    ('[leds.map]\nlayout = "zigzag"', "[leds.map] leds.layout must be one of"),
    ('[buttons]\npin_factory = "rpigpio"', "[buttons] pin_factory must be one of auto, none"),
    ('[buttons]\ndone_pin = 27', "[buttons] done_pin and undo_pin are both 27"),
    ('[camera]\nsource = "usb:0"', "[camera] source: 'usb:0' is not auto, none, picamera[:N], webcam[:N]"),
    ('[camera]\nsource = "webcam:first"', "[camera] source"),
    ('[camera]\nsource = ""', "[camera] source"),
])
def test_a_value_that_cannot_work_is_a_config_error_naming_its_key(text, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(text)


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


@pytest.mark.parametrize("text", [
    TWO,
    '[game]\nplayers = [' + ", ".join('{ id = "%s" }' % c for c in "ABCD") + ']',
    '[game]\nplayers = [{ id = "Ann", name = "%s", colour = "#D62828" }, '
    '{ id = "%s", name = "B", colour = "#1d4ed8" }]' % ("n" * 40, "x" * 24),
    '[leds]\nbackend = "firmware"',
    '[leds]\nbackend = "adalight"\nport = "/dev/ttyUSB0"',
    '[leds]\nbackend = "simulated"\n[leds.map]\nlayout = "rows"',
    '[buttons]\npin_factory = "mock"',
    '[buttons]\npin_factory = "none"',
    '[camera]\nsource = "none"',
    '[camera]\nsource = "picamera"',
    '[camera]\nsource = "webcam:1"',
    '[camera]\nsource = "2"',
    '[camera]\nsource = 0',
])
def test_values_that_work_are_accepted(text):
    parse_config(text)


def test_a_recording_that_exists_is_a_camera_source(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    assert parse_config(f'[camera]\nsource = "{frames}"').camera["source"] == str(frames)
    with pytest.raises(ConfigError, match=r"\[camera\] source"):
        parse_config(f'[camera]\nsource = "{tmp_path / "missing"}"')


def test_the_file_is_checked_when_it_is_loaded(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[game]\nplayers = { id = "A" }\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^\[game\] players: give 2 to 4 players"):
        load_config(str(bad))
    good = tmp_path / "good.toml"
    good.write_text(TWO, encoding="utf-8")
    assert [p["id"] for p in load_config(str(good)).players()] == ["A", "B"]


def maamut(*args, cwd):
    """``maamut ARGS`` as a user runs it (the installed script if there is one)."""
    script = Path(sys.executable).with_name("maamut")
    command = [str(script)] if script.exists() else [
        sys.executable, "-c", "import sys; from maamut.cli import main; sys.exit(main())"]
    return subprocess.run(command + list(args), cwd=cwd, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))


@pytest.mark.parametrize("command, text, message", [
    ("serve", '[game]\nplayers = "A, B"\n', "[game] players: give 2 to 4 players as a list of tables"),
    ("serve", '[game]\nplayers = [{ id = "A", colour = "red" }, { id = "B" }]\n',
     "[game] players[1] colour"),
    ("demo", '[game]\nplayers = [{ id = "A" }, { id = "A" }]\n', "[game] players[2] id: 'A' is already"),
])
def test_serve_and_demo_print_a_bad_config_and_exit_2_without_a_traceback(tmp_path, command, text,
                                                                          message):
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    result = maamut(command, "--config", "bad.toml", "--port", "0", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"maamut: bad.toml: {message}" in result.stderr

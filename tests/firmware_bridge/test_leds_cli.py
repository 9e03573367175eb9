"""``maamut firmware``, ``maamut leds`` and ``maamut bench leds`` as a user runs them."""

import json

import pytest

from maamut.cli import main as run


def test_install_dry_run_copies_every_firmware_file_with_main_last(capsys):
    assert run(["firmware", "install", "--port", "/dev/ttyACM3", "--dry-run"]) == 0
    line = capsys.readouterr().out.strip()
    assert "mpremote" in line and "connect /dev/ttyACM3 fs cp" in line
    files = line.split(" fs cp ")[1].split(" : ")[0].split()
    assert [f.rsplit("/", 1)[1] for f in files] == [
        "config.py", "hal.py", "protocol.py", "render.py", "main.py"]
    assert line.endswith(": + reset")


def test_install_can_pick_a_board_by_serial_number(capsys):
    run(["firmware", "install", "--serial", "E6616408437B2F2B", "--dry-run"])
    assert "connect id:E6616408437B2F2B " in capsys.readouterr().out


def test_leds_without_a_board_explains_instead_of_crashing(tmp_path, capsys):
    assert run(["leds", "ping", "--port", str(tmp_path / "ttyACM9")]) == 1
    assert "cannot open" in capsys.readouterr().err


def test_bad_colour_is_an_argument_error():
    with pytest.raises(SystemExit) as exit_info:
        run(["leds", "set", "300,0,0", "--emulate"])
    assert exit_info.value.code == 2


@pytest.mark.firmware
def test_leds_ping_and_set_against_the_emulated_firmware(capsys):
    assert run(["leds", "ping", "--emulate"]) == 0
    assert json.loads(capsys.readouterr().out)["led_count"] == 41


@pytest.mark.firmware
def test_bench_reports_latency_frame_rate_and_wire_limits(capsys):
    assert run(["bench", "leds", "--json", "--events", "4", "--seconds", "0.3"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["firmware_alive"] is True
    assert figures["events_timed"] == 4 and figures["set_all_frames"] > 0
    assert 0 < figures["event_to_ack_ms_median"] <= figures["event_to_ack_ms_max"]
    assert figures["uart_115200_max_fps"] < figures["usb_cdc_max_fps"]


def test_walk_without_a_board_fails_with_the_reason(tmp_path, capsys):
    assert run(["leds", "walk", "--port", str(tmp_path / "ttyACM7"), "--delay", "0"]) == 1
    assert "ttyACM7" in capsys.readouterr().err


@pytest.mark.firmware
def test_demo_plays_every_scene_through_the_bridge(capsys):
    assert run(["leds", "demo", "--emulate", "--delay", "0"]) == 0
    played = capsys.readouterr().out.split()
    assert {"turn", "flight", "flee_options", "celebration", "attract"} <= set(played)

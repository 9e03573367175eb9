"""LED backends without firmware: simulated state for the web page, Adalight on a pty."""

import os
import pty
import select
import time
import tty

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import render
from firmware_bridge.backends import (AdalightBackend, SimulatedBackend, adalight_frame,
                                      animation_kind)

LEDS = 41


@given(st.lists(st.integers(0, 255), min_size=3, max_size=3 * 60),
       st.integers(0, 255), st.integers(1, 5000))
def test_current_limit_is_never_exceeded(values, brightness, limit):
    buf = bytearray(values[: len(values) // 3 * 3])
    draw = render.limit_current(buf, brightness, limit)
    assert draw <= limit
    assert draw == sum(buf) * render.MA_PER_CHANNEL // 255


def test_simulated_backend_reports_state_and_calls_listeners():
    leds = SimulatedBackend(LEDS)
    seen = []
    leds.on_change(seen.append)
    leds.show([(9, 8, 7)] * LEDS)
    leds.animate("chase", [3, 2, 1], (0, 0, 255), 300)
    state = leds.state()
    assert state["pixels"][0] == [9, 8, 7] and len(state["pixels"]) == LEDS
    assert state["animations"] == [{"kind": "chase", "leds": [3, 2, 1],
                                    "colour": [0, 0, 255], "period_ms": 300}]
    assert [s["version"] for s in seen] == [1, 2]
    # The chase head starts on the first listed LED and moves on.
    assert leds.rendered(0)[3] == (0, 0, 255)
    assert leds.rendered(150)[2] == (0, 0, 255)
    leds.show([(0, 0, 0)] * LEDS)
    assert leds.state()["animations"] == [], "a new frame is a new scene"


def test_a_broken_listener_does_not_stop_the_leds():
    leds = SimulatedBackend(3)
    leds.on_change(lambda state: 1 / 0)
    leds.show([(1, 1, 1)] * 3)
    assert leds.state()["pixels"] == [[1, 1, 1]] * 3


@pytest.mark.parametrize("call, message", [
    (lambda b: b.show([(0, 0, 0)] * 3), "frame has 3 colours"),
    (lambda b: b.show([(256, 0, 0)] * LEDS), "0..255"),
    (lambda b: b.show(["red"] * LEDS), "three integers"),
    (lambda b: b.animate("blink", [LEDS], (1, 1, 1)), "does not exist"),
    (lambda b: b.animate("wobble", [0], (1, 1, 1)), "unknown animation"),
    (lambda b: b.animate("pulse", [0], (1, 1, 1), period_ms=0), "period_ms"),
    (lambda b: b.set_brightness(300), "brightness"),
])
def test_bad_requests_raise_clear_errors_and_change_nothing(call, message):
    leds = SimulatedBackend(LEDS)
    with pytest.raises(ValueError, match=message):
        call(leds)
    assert leds.state()["version"] == 0


def test_animation_names_and_codes():
    assert animation_kind("Pulse") == 2
    with pytest.raises(ValueError):
        animation_kind(7)


def read_adalight_frames(fd, count, timeout=5.0):
    """Parse Adalight frames off the receiving end like a WLED controller would."""
    data = bytearray()
    frames = []
    deadline = time.monotonic() + timeout
    while len(frames) < count and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            data += os.read(fd, 4096)
        while True:
            start = data.find(b"Ada")
            if start < 0 or len(data) < start + 6:
                break
            hi, lo, check = data[start + 3:start + 6]
            assert check == hi ^ lo ^ 0x55
            size = 3 * ((hi << 8 | lo) + 1)
            if len(data) < start + 6 + size:
                break
            frames.append(bytes(data[start + 6:start + 6 + size]))
            del data[:start + 6 + size]
    return frames


def test_adalight_backend_streams_frames_a_receiver_can_parse():
    master, slave = pty.openpty()
    tty.setraw(master)
    backend = AdalightBackend(os.ttyname(slave), led_count=LEDS, fps=50)
    try:
        backend.show([(200, 0, 0)] * LEDS)
        backend.animate("blink", [0], (0, 0, 255), 100)
        frames = read_adalight_frames(master, 20)
        assert len(frames) == 20 and all(len(f) == 3 * LEDS for f in frames)
        scene = [f for f in frames if f[3:6] == bytes((200, 0, 0))]  # after show()
        assert len(scene) >= 10
        assert {f[0:3] for f in scene} == {bytes((0, 0, 255)), bytes((200, 0, 0))}, \
            "LED 0 blinks, animated by the host"
    finally:
        backend.close()
        os.close(slave)
        os.close(master)


def test_adalight_frame_header():
    assert adalight_frame(bytes(3 * 300))[:6] == b"Ada\x01\x2b\x7f"


def test_adalight_receiver_missing_at_start_is_waited_for(tmp_path):
    """No crash when the receiver is absent: the error is reported and frames start later."""
    link = tmp_path / "ttyWLED"
    backend = AdalightBackend(str(link), led_count=4, fps=50, reopen_s=0.05)
    master, slave = pty.openpty()
    tty.setraw(master)
    try:
        backend.show([(1, 2, 3)] * 4)
        deadline = time.monotonic() + 5
        while backend.last_error is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "cannot open" in backend.state()["link"]["error"]
        link.symlink_to(os.ttyname(slave))  # the receiver is plugged in
        frames = read_adalight_frames(master, 2)
        assert frames and frames[-1] == bytes((1, 2, 3)) * 4
        assert backend.state()["link"]["connected"]
    finally:
        backend.close()
        os.close(slave)
        os.close(master)


def test_an_animation_fully_replaced_by_a_later_one_is_dropped():
    leds = SimulatedBackend(LEDS)
    leds.animate("blink", [1, 2], (1, 1, 1), 100)
    leds.animate("pulse", [2, 3], (2, 2, 2), 100)
    leds.animate("chase", [1, 2, 3, 4], (3, 3, 3), 100)
    assert [a["kind"] for a in leds.state()["animations"]] == ["chase"]
    leds.animate("blink", [4], (4, 4, 4), 100)
    assert [a["kind"] for a in leds.state()["animations"]] == ["chase", "blink"]

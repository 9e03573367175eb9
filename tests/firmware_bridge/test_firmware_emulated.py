"""The real firmware (firmware_bridge/firmware + shared modules) under MicroPython, driven by pyserial.

Every test talks to the board only through the wire protocol, exactly as the
bridge does with a Pico; GET_PIXELS reads back what the (emulated) strip shows.
"""

import time

import pytest
import serial
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.serial_link import CommandRefused, FirmwareClient, LinkError, open_port

pytestmark = pytest.mark.firmware

LEDS = 41


def frames_seen(client, seconds, interval=0.03):
    """Pixel snapshots taken while the host does nothing but look."""
    seen = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        seen.append(client.pixels()[1])
        time.sleep(interval)
    return seen


def test_ping_reports_firmware_version_and_led_count(client):
    info = client.ping()
    assert info == {"protocol": p.PROTOCOL_VERSION, "firmware": "1.0.0",
                    "led_count": LEDS, "brightness": 255, "current_limit_ma": 1500}


def test_set_all_shows_every_colour_on_the_strip(client):
    frame = [(i, 3, 255 - i) for i in range(LEDS)]  # 0x03 bytes must not interrupt
    client.set_all(frame)
    mode, shown = client.pixels()
    assert mode == p.MODE_HOST
    assert shown == frame


def test_set_one_changes_only_that_led(client):
    client.set_all([(10, 10, 10)] * LEDS)
    client.set_one(7, (0, 200, 0))
    shown = client.pixels()[1]
    assert shown[7] == (0, 200, 0)
    assert shown[:7] + shown[8:] == [(10, 10, 10)] * (LEDS - 1)


def test_brightness_scales_what_is_shown(client):
    client.set_all([(200, 100, 0)] * LEDS)
    client.set_brightness(128)
    assert client.pixels()[1][0] == (200 * 128 // 255, 100 * 128 // 255, 0)


def test_full_white_board_stays_under_the_current_limit(client):
    client.set_all([(255, 255, 255)] * LEDS)
    shown = client.pixels()[1]
    estimated_ma = sum(sum(rgb) for rgb in shown) * 20 / 255  # 20 mA per channel at 255
    assert estimated_ma <= client.info["current_limit_ma"]
    assert shown[0][0] > 0, "limited, not switched off"


def sample_until(client, done, timeout=8.0, interval=0.02):
    """Read pixels until ``done(samples)`` holds; sampling speed varies with machine load."""
    samples = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        samples.append(client.pixels()[1])
        if done(samples):
            break
        time.sleep(interval)
    return samples


def test_blink_runs_on_the_board_while_the_host_is_quiet(client):
    client.animate(p.ANIM_BLINK, [5], (255, 0, 0), 200)
    samples = sample_until(client, lambda s: len({x[5] for x in s}) >= 2 and len(s) >= 10)
    assert {shown[5] for shown in samples} == {(255, 0, 0), (0, 0, 0)}


def test_pulse_varies_smoothly_between_dim_and_bright(client):
    client.animate(p.ANIM_PULSE, [0], (0, 0, 255), 300)

    def levels(samples):
        return {shown[0][2] for shown in samples}

    samples = sample_until(
        client, lambda s: len(levels(s)) >= 6 and min(levels(s)) < 64 and max(levels(s)) > 192)
    found = levels(samples)
    assert len(found) >= 6 and min(found) < 64 and max(found) > 192, found
    assert all(shown[0][0] == shown[0][1] == 0 for shown in samples), "only the colour's channel"


def test_chase_moves_the_lit_led_along_the_listed_order(client):
    order = [12, 3, 30, 21]
    client.animate(p.ANIM_CHASE, order, (0, 255, 0), 1200)  # 300 ms per step

    def heads(samples):
        found = []
        for shown in samples:
            lit = [i for i in order if shown[i] == (0, 255, 0)]
            assert len(lit) == 1, "exactly one LED of a chase is at full colour"
            if not found or found[-1] != lit[0]:
                found.append(lit[0])
        return found

    found = heads(sample_until(client, lambda s: len(heads(s)) >= 5))
    assert len(set(found)) == 4
    for a, b in zip(found, found[1:]):  # each step goes to the next LED in the list
        assert order.index(b) == (order.index(a) + 1) % 4


def test_animation_none_returns_leds_to_their_base_colour(client):
    client.set_all([(1, 2, 3)] * LEDS)
    client.animate(p.ANIM_BLINK, [4], (255, 255, 0), 100)
    client.animate(p.ANIM_NONE, [4], (0, 0, 0), 100)
    assert all(shown[4] == (1, 2, 3) for shown in frames_seen(client, 0.2))


@pytest.mark.parametrize("kind, payload, reason", [
    (p.SET_ONE, p.set_one_payload(LEDS, (1, 1, 1)), p.NAK_OUT_OF_RANGE),
    (p.ANIMATE, p.animate_payload(p.ANIM_BLINK, [0, 99], (1, 1, 1), 100), p.NAK_OUT_OF_RANGE),
    (p.ANIMATE, p.animate_payload(9, [0], (1, 1, 1), 100), p.NAK_OUT_OF_RANGE),
    (p.SET_ALL, bytes(3 * LEDS + 3), p.NAK_BAD_LENGTH),
    (p.SET_ALL, bytes(4), p.NAK_BAD_LENGTH),
    (p.BRIGHTNESS, b"", p.NAK_BAD_LENGTH),
    (0x42, b"", p.NAK_UNKNOWN),
])
def test_invalid_commands_are_refused_with_a_reason(client, kind, payload, reason):
    client.set_all([(9, 9, 9)] * LEDS)
    with pytest.raises(CommandRefused, match="NAK reason %d" % reason):
        client.request(kind, payload)
    assert client.pixels()[1] == [(9, 9, 9)] * LEDS


def test_a_frame_cut_short_is_rejected_and_the_next_one_works(pico, client):
    client.set_all([(5, 5, 5)] * LEDS)
    whole = p.encode_frame(p.SET_ALL, 77, p.set_all_payload([(200, 0, 0)] * LEDS))
    for cut in (1, 3, len(whole) // 2, len(whole) - 2):
        client.port.write(whole[:cut] + b"\x00")
    client.port.write(whole[:40])  # and one left dangling without a delimiter
    assert client.ping()["led_count"] == LEDS
    assert client.pixels()[1] == [(5, 5, 5)] * LEDS


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(noise=st.binary(max_size=300), flip_at=st.integers(min_value=0),
       flip=st.integers(min_value=1, max_value=255))
def test_fuzzed_garbage_never_crashes_and_no_damaged_frame_is_accepted(
        client, noise, flip_at, flip):
    """Random bytes, then a SET_ALL with one byte damaged: the LEDs never change."""
    before = client.pixels()[1]
    damaged = bytearray(p.encode_frame(p.SET_ALL, 50, p.set_all_payload([(250, 1, 2)] * LEDS)))
    index = flip_at % (len(damaged) - 1)  # keep the final delimiter
    damaged[index] ^= flip
    client.port.write(noise + b"\x00" + bytes(damaged) + b"\x00")
    assert client.ping()["led_count"] == LEDS, "the firmware still answers"
    assert client.pixels()[1] == before


def test_oversized_junk_without_delimiters_is_dropped_with_a_nak(client):
    client.port.write(b"\x01" * 5000 + b"\x00")
    reader = p.FrameReader()
    replies = []
    deadline = time.monotonic() + 10
    while (p.NAK, 0, bytes((p.NAK_TOO_LONG,))) not in replies and time.monotonic() < deadline:
        replies += [p.decode_frame(b) for b in reader.feed(client.port.read(64))]
    assert (p.NAK, 0, bytes((p.NAK_TOO_LONG,))) in replies
    assert client.ping()["led_count"] == LEDS


def test_port_is_opened_exclusively(pico, client):
    with pytest.raises(serial.SerialException):
        open_port(pico.port)


def test_silent_host_gets_the_idle_animation_and_the_scene_comes_back():
    from firmware_bridge.emulator import EmulatedPico

    with EmulatedPico() as board:
        port = open_port(board.port)
        client = FirmwareClient(port, timeout=1.0)
        client.wait_for_board()
        client.configure(idle_after_ms=300)
        client.set_brightness(255)
        scene = [(0, 0, 200)] * LEDS
        client.set_all(scene)
        assert client.pixels() == (p.MODE_HOST, scene)
        time.sleep(0.6)
        idle_frames = frames_seen(client, 0.5, 0.1)
        assert all(shown != scene for shown in idle_frames)
        assert client.pixels()[0] == p.MODE_IDLE
        assert len({tuple(shown) for shown in idle_frames}) > 1, "idle is animated"
        client.ping()  # the host speaks again
        assert client.pixels() == (p.MODE_HOST, scene)
        port.close()


def test_sustained_traffic_runs_through_garbage_collection(client, pico):
    """A thousand frames allocate well past the collection margin: nothing is lost."""
    for i in range(1000):
        client.set_one(i % LEDS, (i % 256, 0, 0))
    assert client.timeouts == 0
    assert client.pixels()[1][999 % LEDS] == (999 % 256, 0, 0)
    assert pico.alive()


def test_a_whole_scene_sent_back_to_back_is_applied_in_order(client):
    replies = client.request_many([
        (p.SET_ALL, p.set_all_payload([(30, 0, 0)] * LEDS)),
        (p.ANIMATE, p.animate_payload(p.ANIM_BLINK, [0], (0, 0, 250), 100)),
        (p.SET_ONE, p.set_one_payload(6, (0, 250, 0))),
    ])
    assert [kind for kind, _ in replies] == [p.ACK] * 3
    shown = sample_until(client, lambda samples: len({x[0] for x in samples}) >= 2)
    assert all(s[6] == (0, 250, 0) and s[7] == (30, 0, 0) for s in shown)
    assert {s[0] for s in shown} == {(0, 0, 250), (30, 0, 0)}
    with pytest.raises(CommandRefused):
        client.request_many([(p.SET_ONE, p.set_one_payload(1, (1, 1, 1))),
                             (p.SET_ONE, p.set_one_payload(999, (1, 1, 1)))])


def test_a_fresh_board_glows_idle_until_the_host_speaks():
    from firmware_bridge.emulator import EmulatedPico

    with EmulatedPico() as board:
        port = open_port(board.port)
        client = FirmwareClient(port, timeout=1.0)
        deadline = time.monotonic() + 30
        while True:  # GET_PIXELS only observes, so it can wait for the boot itself
            try:
                mode, pixels = client.pixels()
                break
            except LinkError:
                if time.monotonic() > deadline:
                    raise
        assert mode == p.MODE_IDLE and any(rgb != (0, 0, 0) for rgb in pixels)
        client.ping()
        assert client.pixels()[0] == p.MODE_HOST
        port.close()


def test_a_stale_reply_with_the_same_sequence_number_is_not_taken_for_ours(client):
    """Another client's unanswered PING left a PONG in the line; our GET_PIXELS ignores it."""
    client.port.write(b"\x00" + p.encode_frame(p.PING, 42))
    time.sleep(0.3)  # the stale PONG 42 now waits in the input buffer
    client.seq = 41  # our next command gets number 42 too
    mode, pixels = client.pixels()
    assert mode == p.MODE_HOST and len(pixels) == LEDS

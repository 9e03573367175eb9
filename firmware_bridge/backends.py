"""LED backends: where a scene's frames and animations go.

Scenes (``firmware_bridge.scenes``) produce either a *frame* (one ``(r, g, b)`` per
LED, hexes first then status LEDs) or an *animation request*; every backend
accepts both through the same small interface, :class:`LedBackend`:

* :class:`SimulatedBackend`: no hardware; keeps the state for the web page to
  mirror (``state()`` and change callbacks).
* :class:`FirmwareBackend`: our Pico firmware over :class:`~firmware_bridge.serial_link.SerialLink`;
  the firmware runs the animations itself.
* :class:`AdalightBackend`: any Adalight receiver (WLED, HyperSerialPico...).  Adalight
  only carries whole frames, so this backend animates on the host with the same
  arithmetic as the firmware (:mod:`firmware_bridge.render`).

>>> leds = SimulatedBackend(led_count=3)
>>> leds.show([(255, 0, 0), (0, 0, 0), (0, 0, 255)])
>>> leds.animate("blink", [1], (0, 255, 0), period_ms=500)
>>> leds.state()["animations"]
[{'kind': 'blink', 'leds': [1], 'colour': [0, 255, 0], 'period_ms': 500}]
>>> leds.state()["pixels"][2]
[0, 0, 255]
"""

from __future__ import annotations

import logging
import threading
import time

from firmware_bridge import protocol as p
from firmware_bridge import render
from firmware_bridge.firmware import config as firmware_settings

log = logging.getLogger(__name__)

#: 37 hexes + 4 status LEDs, unless the builder configures another count; the
#: brightness (0..255) the firmware starts with and ``[leds] brightness`` defaults to.
#: Both are the firmware's own settings, read from the file the Pico runs.
DEFAULT_LED_COUNT = firmware_settings.LED_COUNT
DEFAULT_BRIGHTNESS = firmware_settings.BRIGHTNESS
KIND_NAMES = {value: name for name, value in p.ANIMATION_NAMES.items()}


def animation_kind(kind) -> int:
    """Animation code from a name (``"pulse"``) or a code.

    >>> animation_kind("chase"), animation_kind(1)
    (3, 1)
    >>> animation_kind("wobble")
    Traceback (most recent call last):
    ...
    ValueError: unknown animation 'wobble' (choose from none, blink, pulse, chase)
    """
    if isinstance(kind, str):
        try:
            return p.ANIMATION_NAMES[kind.lower()]
        except KeyError:
            raise ValueError("unknown animation %r (choose from %s)"
                             % (kind, ", ".join(p.ANIMATION_NAMES))) from None
    if kind not in KIND_NAMES:
        raise ValueError("unknown animation code %r" % (kind,))
    return int(kind)


def _colour(value) -> tuple[int, int, int]:
    try:
        r, g, b = (int(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError("a colour is three integers (r, g, b), not %r" % (value,)) from None
    for v in (r, g, b):
        if not 0 <= v <= 255:
            raise ValueError("colour values must be 0..255, not %r" % (value,))
    return (r, g, b)


class LedBackend:
    """What every LED backend offers; keeps the current scene for ``state()``.

    Subclasses send the scene somewhere in ``_sent_frame``/``_sent_animation``.
    Arguments are checked here, before anything reaches a wire, so bad input
    from a scene raises ``ValueError`` at the caller instead of a NAK later.
    """

    def __init__(self, led_count: int = DEFAULT_LED_COUNT):
        if led_count <= 0:
            raise ValueError("led_count must be positive")
        self.led_count = led_count
        self.pixels: list[tuple[int, int, int]] = [(0, 0, 0)] * led_count
        self.animations: list[dict] = []
        self.brightness = 255
        self.version = 0
        self._listeners: list = []
        self._lock = threading.Lock()

    # -- the interface --------------------------------------------------------
    def show(self, frame) -> None:
        """Show one colour per LED; stops all animations (a frame is a new scene)."""
        pixels = [_colour(rgb) for rgb in frame]
        if len(pixels) != self.led_count:
            raise ValueError("frame has %d colours for %d LEDs" % (len(pixels), self.led_count))
        with self._lock:
            self.pixels = pixels
            self.animations = []
            self.version += 1
        self._sent_frame(pixels)
        self._changed()

    def animate(self, kind, leds, colour, period_ms: int = 1000) -> None:
        """Animate ``leds`` (in chase order) over their base colours; ``"none"`` stops them."""
        code = animation_kind(kind)
        indices = [int(i) for i in leds]
        for index in indices:
            if not 0 <= index < self.led_count:
                raise ValueError("LED %d does not exist (0..%d)" % (index, self.led_count - 1))
        if not 1 <= int(period_ms) <= 0xFFFF:
            raise ValueError("period_ms must be 1..65535")
        entry = {"kind": KIND_NAMES[code], "leds": indices, "colour": list(_colour(colour)),
                 "period_ms": int(period_ms)}
        with self._lock:
            # Per LED the last animation wins: drop those the new one fully covers.
            covered = set(indices)
            self.animations = [a for a in self.animations if not set(a["leds"]) <= covered]
            self.animations.append(entry)
            self.version += 1
        self._sent_animation(code, indices, tuple(entry["colour"]), int(period_ms))
        self._changed()

    def set_brightness(self, value: int) -> None:
        if not 0 <= int(value) <= 255:
            raise ValueError("brightness must be 0..255")
        with self._lock:
            self.brightness = int(value)
            self.version += 1
        self._sent_brightness(int(value))
        self._changed()

    def close(self) -> None:
        """Release the hardware; the state stays readable."""

    # -- mirroring ----------------------------------------------------------------
    def state(self) -> dict:
        """JSON-ready scene: base colour per LED, animations on top, brightness."""
        with self._lock:
            return {
                "led_count": self.led_count,
                "pixels": [list(rgb) for rgb in self.pixels],
                "animations": [dict(a, leds=list(a["leds"]), colour=list(a["colour"]))
                               for a in self.animations],
                "brightness": self.brightness,
                "version": self.version,
            }

    def rendered(self, t_ms: int) -> list[tuple[int, int, int]]:
        """Colours at time ``t_ms`` (before brightness), computed like the firmware does."""
        scene = self._scene()
        out = scene.render(t_ms)
        return [tuple(out[i:i + 3]) for i in range(0, len(out), 3)]

    def on_change(self, callback) -> None:
        """Call ``callback(state)`` after every change (e.g. push to web clients)."""
        self._listeners.append(callback)

    def _scene(self) -> render.Scene:
        with self._lock:
            scene = render.Scene(self.led_count)
            scene.set_all(self.pixels)
            for a in self.animations:
                scene.animate(p.ANIMATION_NAMES[a["kind"]], a["leds"], a["colour"], a["period_ms"])
        return scene

    def _changed(self) -> None:
        state = self.state()
        for callback in list(self._listeners):
            try:
                callback(state)
            except Exception:  # one broken listener must not stop the LEDs
                log.exception("LED state listener failed")

    # -- hooks for subclasses -------------------------------------------------
    def _sent_frame(self, pixels) -> None:
        pass

    def _sent_animation(self, kind, leds, colour, period_ms) -> None:
        pass

    def _sent_brightness(self, value) -> None:
        pass


class SimulatedBackend(LedBackend):
    """No hardware at all: the state is the product (the web page mirrors it)."""


class FirmwareBackend(LedBackend):
    """Our Pico firmware. Non-blocking: a worker thread does the serial work."""

    def __init__(self, port: str | None = None, serial_number: str | None = None,
                 led_count: int = DEFAULT_LED_COUNT, link=None, **link_options):
        super().__init__(led_count)
        from firmware_bridge.serial_link import SerialLink

        self.link = link if link is not None else SerialLink(
            port=port, serial_number=serial_number, **link_options)

    def state(self) -> dict:
        """As :meth:`LedBackend.state`, plus whether the board is connected and why not."""
        state = super().state()
        state["link"] = {"connected": self.link.connected, "error": self.link.last_error,
                         "firmware": self.link.info}
        return state

    def _sent_frame(self, pixels) -> None:
        self.link.show(pixels)

    def _sent_animation(self, kind, leds, colour, period_ms) -> None:
        self.link.animate(kind, leds, colour, period_ms)

    def _sent_brightness(self, value) -> None:
        self.link.set_brightness(value)

    def close(self) -> None:
        self.link.close()


def adalight_frame(buf) -> bytes:
    """One Adalight frame: ``"Ada"``, LED count - 1 (hi, lo), checksum, r,g,b...

    >>> adalight_frame(bytes([1, 2, 3, 4, 5, 6]))
    b'Ada\\x00\\x01T\\x01\\x02\\x03\\x04\\x05\\x06'
    """
    count = len(buf) // 3 - 1
    hi, lo = (count >> 8) & 0xFF, count & 0xFF
    return b"Ada" + bytes((hi, lo, hi ^ lo ^ 0x55)) + bytes(buf)


class AdalightBackend(LedBackend):
    """Adalight serial receivers (WLED, HyperSerialPico, Arduino sketches).

    A thread renders the scene at ``fps`` while anything animates, otherwise twice
    a second, applying brightness and the current limit itself since those
    receivers do not know our scene.  ``port`` is a device path (opened by the
    thread, and reopened after an unplug) or an open pyserial-like object.
    """

    def __init__(self, port, led_count: int = DEFAULT_LED_COUNT, baudrate: int = 115200,
                 fps: int = 30, current_limit_ma: int = 1500, reopen_s: float = 1.0):
        super().__init__(led_count)
        self.port_name = port if isinstance(port, str) else None
        self.port = None if isinstance(port, str) else port
        self.baudrate = baudrate
        self.fps = fps
        self.current_limit_ma = current_limit_ma
        self.reopen_s = reopen_s
        self.frames_sent = 0
        self.last_error: str | None = None
        self._wake = threading.Event()
        self._stop = False
        self._t0 = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="adalight", daemon=True)
        self._thread.start()

    def _sent_frame(self, *_change) -> None:
        self._wake.set()  # render now rather than at the next tick

    _sent_animation = _sent_brightness = _sent_frame

    def state(self) -> dict:
        state = super().state()
        state["link"] = {"connected": self.port is not None and self.last_error is None,
                         "error": self.last_error, "frames_sent": self.frames_sent}
        return state

    def frame_bytes(self, t_ms: int) -> bytes:
        scene = self._scene()
        buf = bytearray(scene.render(t_ms))
        render.limit_current(buf, self.brightness, self.current_limit_ma)
        return adalight_frame(buf)

    def _open(self) -> bool:
        import serial

        try:
            self.port = serial.Serial(self.port_name, baudrate=self.baudrate,
                                      write_timeout=1.0, exclusive=True)
            return True
        except (serial.SerialException, OSError, ValueError) as exc:
            self.last_error = "cannot open %s: %s" % (self.port_name, exc)
            return False

    def _run(self) -> None:
        while not self._stop:
            if self.port is None and not self._open():
                self._wake.wait(self.reopen_s)
                self._wake.clear()
                continue
            t_ms = int((time.monotonic() - self._t0) * 1000)
            try:
                self.port.write(self.frame_bytes(t_ms))
                self.frames_sent += 1
                self.last_error = None
            except Exception as exc:  # unplugged receiver: reopen later, never crash
                self.last_error = str(exc)
                if self.port_name is not None:
                    try:
                        self.port.close()
                    except Exception:
                        pass
                    self.port = None
                    continue
            animated = bool(self.animations)
            # Adalight receivers blank after ~1 s without data (WLED's timeout),
            # so a still scene is still refreshed twice a second.
            self._wake.wait(1 / self.fps if animated else 0.5)
            self._wake.clear()

    def close(self) -> None:
        self._stop = True
        self._wake.set()
        self._thread.join(timeout=2)
        close = getattr(self.port, "close", None)
        if close is not None:
            close()

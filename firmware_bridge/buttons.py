"""The two buttons at the table: *done* ("my move is over") and *undo* (hold: new game).

Pins are read through gpiozero only, never RPi.GPIO (which does not run on a Pi 5);
the pin factory is chosen when the program starts (``lgpio`` on a real Pi, ``mock``
for a try without hardware). Each button is wired from its GPIO pin to ground, with
the Pi's internal pull-up.

Debouncing is done here rather than with gpiozero's ``bounce_time``, which ignores
edges for a while after the first one and so can miss the release of a quick tap:
a level counts only once it has been stable for ``debounce_s``. The same code then
tells a tap of *undo* from a hold.

The pure logic is :class:`DebouncedButton`, fed with timestamped raw levels:

>>> b = DebouncedButton(debounce_s=0.03, hold_s=2.0)
>>> b.feed(True, 0.000); b.feed(False, 0.004); b.feed(True, 0.006)   # contact bounce
>>> b.poll(0.020), b.poll(0.040)
([], [('press', 0.036)])
>>> b.poll(2.1)
[('hold', 2.036)]

:class:`ButtonPanel` wires two of them to gpiozero pins and turns them into
``"done"``, ``"undo"`` and ``"new_game"`` events. gpiozero's callbacks only put the
raw edge in a queue; a worker thread debounces, and a second thread runs the
handlers, so neither the pin driver nor the debouncer waits for a slow handler.
"""

from __future__ import annotations

import argparse
import logging
import queue
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable, Mapping

from gpiozero import Device, DigitalInputDevice
from gpiozero.exc import GPIOZeroError, PinError

log = logging.getLogger(__name__)

DONE = "done"
UNDO = "undo"
NEW_GAME = "new_game"
EVENTS = (DONE, UNDO, NEW_GAME)

#: Pin factories that go through gpiozero without RPi.GPIO, in the order "auto" tries
#: them: lgpio works on every Pi including the 5; native is gpiozero's own pure Python.
PIN_FACTORIES = ("lgpio", "pigpio", "native", "mock")
#: Events kept for :meth:`ButtonPanel.get_event` when nobody polls.
EVENT_BACKLOG = 32


class ButtonError(RuntimeError):
    """The buttons cannot be set up; the message says what to change."""


@dataclass(frozen=True)
class ButtonSettings:
    """The ``[buttons]`` configuration table.

    >>> ButtonSettings.from_config({"done_pin": "GPIO5", "hold_new_game_s": 2})
    ButtonSettings(done_pin='GPIO5', undo_pin=27, debounce_ms=30, hold_new_game_s=2.0, pin_factory='auto')
    >>> ButtonSettings.from_config({"done_pin": 17, "undo_pin": 17})
    Traceback (most recent call last):
    ...
    firmware_bridge.buttons.ButtonError: buttons.done_pin and buttons.undo_pin are both 17; each button needs its own pin
    """

    done_pin: int | str = 17
    undo_pin: int | str = 27
    debounce_ms: int = 30
    #: Long enough that nobody ends a game by leaning on the button while undoing.
    hold_new_game_s: float = 3.0
    #: auto (GPIO if this machine has it, else no buttons), none, or a factory name.
    pin_factory: str = "auto"

    @classmethod
    def from_config(cls, table: Mapping | None) -> "ButtonSettings":
        table = dict(table or {})
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(table) - known)
        if unknown:
            raise ButtonError(f"unknown key(s) in [buttons]: {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        settings = cls(**table)
        settings.validate()
        return settings

    def validate(self) -> None:
        for name in ("done_pin", "undo_pin"):
            pin = getattr(self, name)
            if isinstance(pin, bool) or not isinstance(pin, (int, str)) or (isinstance(pin, int) and pin < 0):
                raise ButtonError(f"buttons.{name} must be a GPIO number like 17 or a name like \"GPIO17\"")
        if str(self.done_pin) == str(self.undo_pin):
            raise ButtonError(f"buttons.done_pin and buttons.undo_pin are both {self.done_pin}; "
                              "each button needs its own pin")
        if isinstance(self.debounce_ms, bool) or not isinstance(self.debounce_ms, (int, float)) \
                or not 1 <= self.debounce_ms <= 500:
            raise ButtonError(f"buttons.debounce_ms must be 1..500, got {self.debounce_ms!r}")
        hold = self.hold_new_game_s
        if isinstance(hold, bool) or not isinstance(hold, (int, float)) or not self.debounce_ms / 1000 < hold <= 30:
            raise ButtonError(f"buttons.hold_new_game_s must be longer than the debounce time and at most 30, "
                              f"got {hold!r}")
        object.__setattr__(self, "hold_new_game_s", float(hold))
        if self.pin_factory not in ("auto", "none") + PIN_FACTORIES:
            raise ButtonError(f"buttons.pin_factory must be one of auto, none, {', '.join(PIN_FACTORIES)}; "
                              f"got {self.pin_factory!r}")


class DebouncedButton:
    """Debounce and hold detection for one button, as plain logic on timestamps.

    ``feed(pressed, t)`` records a raw edge; ``poll(now)`` returns the events whose time
    has come: ``("press", t)`` and ``("release", t)`` once a level has stayed put for
    ``debounce_s``, and ``("hold", t)`` when a press lasts ``hold_s``. Times are in
    seconds on any monotonic clock; an event's time is when it became certain.

    A glitch shorter than the debounce time is no press at all:

    >>> b = DebouncedButton(debounce_s=0.03)
    >>> b.feed(True, 1.0); b.feed(False, 1.01)
    >>> b.poll(2.0), b.pressed
    ([], False)
    """

    def __init__(self, debounce_s: float, hold_s: float | None = None, pressed: bool = False):
        self.debounce_s = debounce_s
        self.hold_s = hold_s
        self.pressed = pressed       # the debounced level
        self._raw = pressed          # the last raw level seen
        self._raw_since = None       # when the raw level last changed, if it differs
        self._hold_due = None        # when a hold fires if the press lasts

    def feed(self, pressed: bool, t: float) -> None:
        if pressed == self._raw:
            return  # a repeated level (a driver may report both edges of a fast pulse as one)
        self._raw = pressed
        self._raw_since = t

    def next_deadline(self) -> float | None:
        """When :meth:`poll` may next have something to say (``None``: only after an edge)."""
        due = []
        if self._raw_since is not None and self._raw != self.pressed:
            due.append(self._raw_since + self.debounce_s)
        if self._hold_due is not None:
            due.append(self._hold_due)
        return min(due) if due else None

    def poll(self, now: float) -> list[tuple[str, float]]:
        events: list[tuple[str, float]] = []
        if self._raw != self.pressed and self._raw_since is not None:
            settled = self._raw_since + self.debounce_s
            if now >= settled:
                self.pressed = self._raw
                if self.pressed:
                    events.append(("press", settled))
                    self._hold_due = settled + self.hold_s if self.hold_s else None
                else:
                    events.append(("release", settled))
                    self._hold_due = None
        if self._hold_due is not None and self.pressed and now >= self._hold_due:
            events.append(("hold", self._hold_due))
            self._hold_due = None
        return events


def choose_pin_factory(name: str = "auto"):
    """The gpiozero pin factory called ``name``; ``"auto"`` tries those that work here.

    ``"auto"`` honours ``GPIOZERO_PIN_FACTORY`` when it is set, like gpiozero does, and
    otherwise tries lgpio, pigpio and native, never the RPi.GPIO one.
    """
    import os
    from importlib.metadata import entry_points

    if name not in ("auto",) + PIN_FACTORIES:
        raise ButtonError(f"unknown pin factory {name!r}; choose auto or one of {', '.join(PIN_FACTORIES)}")
    reasons = []
    if name == "auto":
        wanted = (os.environ.get("GPIOZERO_PIN_FACTORY") or "").lower()
        if wanted in PIN_FACTORIES:
            candidates = [wanted]
        else:
            if wanted:
                reasons.append(f"GPIOZERO_PIN_FACTORY={wanted} ignored (use one of {', '.join(PIN_FACTORIES)})")
            candidates = [n for n in PIN_FACTORIES if n != "mock"]
    else:
        candidates = [name]
    found = {ep.name: ep for ep in entry_points(group="gpiozero_pin_factories")}
    for candidate in candidates:
        if candidate not in found:
            reasons.append(f"{candidate}: not installed")
            continue
        try:
            return found[candidate].load()()
        except Exception as exc:  # each driver fails in its own way off a Pi
            reasons.append(f"{candidate}: {exc}")
    raise ButtonError("no GPIO pins usable here (" + "; ".join(reasons) + "). On a Raspberry Pi, "
                      "install lgpio (pip install '.[pi]' in the repository, or apt install "
                      "python3-lgpio); to try without hardware, choose the \"mock\" pin factory")


Handler = Callable[[str], object]


class ButtonPanel:
    """The *done* and *undo* buttons as a stream of ``"done"``, ``"undo"``, ``"new_game"``.

    Handlers registered with :meth:`on` run on the panel's own thread; the game loop
    can instead call :meth:`get_event` without blocking. Use it as a context manager,
    or call :meth:`close`.
    """

    def __init__(self, settings: ButtonSettings | None = None, pin_factory=None):
        self.settings = settings or ButtonSettings()
        self.settings.validate()
        if self.settings.pin_factory == "none":
            raise ButtonError("buttons are turned off (pin_factory = \"none\")")
        if pin_factory is None and Device.pin_factory is None:
            pin_factory = choose_pin_factory(self.settings.pin_factory)
        self._edges: queue.SimpleQueue = queue.SimpleQueue()
        # Bounded: a program that only uses handlers never drains it.
        self._events: queue.Queue = queue.Queue(maxsize=EVENT_BACKLOG)
        self._to_handlers: queue.SimpleQueue = queue.SimpleQueue()
        self._handlers: dict[str, list[Handler]] = {name: [] for name in EVENTS}
        self._closed = threading.Event()
        self._devices: dict[str, DigitalInputDevice] = {}
        debounce = self.settings.debounce_ms / 1000
        try:
            for name, pin in ((DONE, self.settings.done_pin), (UNDO, self.settings.undo_pin)):
                # bounce_time=None: gpiozero passes every edge on, our debouncer decides.
                device = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                self._devices[name] = device
        except (GPIOZeroError, PinError, ValueError) as exc:
            self._close_devices()
            raise ButtonError(f"cannot use button pins {self.settings.done_pin} and "
                              f"{self.settings.undo_pin}: {exc}") from None
        self._buttons = {
            DONE: DebouncedButton(debounce, None, bool(self._devices[DONE].value)),
            UNDO: DebouncedButton(debounce, self.settings.hold_new_game_s, bool(self._devices[UNDO].value)),
        }
        # True once the current press of undo has fired new_game, so its release is no undo.
        # Undo already down at start-up (a stuck or leaned-on button) counts as held.
        self._undo_held = self._buttons[UNDO].pressed
        for name, device in self._devices.items():
            # Runs on the pin driver's thread: only a timestamped put, never a wait.
            device.when_activated = self._edge_callback(name, True)
            device.when_deactivated = self._edge_callback(name, False)
        self._worker = threading.Thread(target=self._debounce_loop, name="buttons-debounce", daemon=True)
        self._dispatcher = threading.Thread(target=self._dispatch_loop, name="buttons-handlers", daemon=True)
        self._worker.start()
        self._dispatcher.start()

    @classmethod
    def from_config(cls, table: Mapping | None, pin_factory=None) -> "ButtonPanel":
        return cls(ButtonSettings.from_config(table), pin_factory)

    def _edge_callback(self, name: str, pressed: bool):
        def callback():
            self._edges.put((name, pressed, time.monotonic()))
        return callback

    # -- the public side ------------------------------------------------------------

    def on(self, event: str, handler: Handler) -> None:
        """Call ``handler(event)`` on the panel's handler thread whenever ``event`` happens."""
        if event not in EVENTS:
            raise ValueError(f"unknown button event {event!r}; one of {', '.join(EVENTS)}")
        self._handlers[event].append(handler)

    def get_event(self, timeout: float | None = 0) -> str | None:
        """The next event, or ``None`` if none arrives within ``timeout`` seconds (0: don't wait)."""
        try:
            if timeout == 0:
                return self._events.get_nowait()
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    @property
    def pressed(self) -> dict[str, bool]:
        """The debounced state of each button."""
        return {name: button.pressed for name, button in self._buttons.items()}

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        self._edges.put(None)
        self._to_handlers.put(None)
        self._worker.join(timeout=2)
        self._dispatcher.join(timeout=2)
        self._close_devices()

    def __enter__(self) -> "ButtonPanel":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the threads ----------------------------------------------------------------

    def _close_devices(self) -> None:
        for device in self._devices.values():
            device.close()
        self._devices.clear()

    def _debounce_loop(self) -> None:
        while not self._closed.is_set():
            deadlines = [d for d in (b.next_deadline() for b in self._buttons.values()) if d is not None]
            timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
            try:
                edge = self._edges.get(timeout=timeout)
            except queue.Empty:
                edge = False
            if edge is None:
                return
            if edge:
                name, pressed, t = edge
                self._buttons[name].feed(pressed, t)
            now = time.monotonic()
            for name, button in self._buttons.items():
                for kind, _ in button.poll(now):
                    self._emit(self._meaning(name, kind))

    def _meaning(self, button: str, kind: str) -> str | None:
        """What a debounced change means: done on press; undo on a short tap, new game on a hold."""
        if button == DONE:
            return DONE if kind == "press" else None
        if kind == "hold":
            self._undo_held = True
            return NEW_GAME
        if kind == "press":
            self._undo_held = False
            return None
        if kind == "release" and not self._undo_held:
            return UNDO
        return None

    def _emit(self, event: str | None) -> None:
        if event is None:
            return
        log.debug("button event %s", event)
        try:
            self._events.put_nowait(event)
        except queue.Full:  # nobody polls: forget the oldest, keep the newest
            self._events.get_nowait()
            self._events.put_nowait(event)
        self._to_handlers.put(event)

    def _dispatch_loop(self) -> None:
        while True:
            event = self._to_handlers.get()
            if event is None:
                return
            for handler in list(self._handlers[event]):
                try:
                    handler(event)
                except Exception:  # a faulty handler must not silence the buttons
                    log.exception("button handler %r failed on %s", handler, event)


def open_buttons(table: Mapping | None, pin_factory=None) -> ButtonPanel | None:
    """The panel the ``[buttons]`` configuration asks for, or ``None`` for no buttons.

    ``pin_factory = "none"`` means no buttons; ``"auto"`` means GPIO if this machine has
    it and otherwise no buttons (logged), so the same file works on a Pi and a laptop.
    A named factory that cannot work, or a pin problem, is a :class:`ButtonError`.

    >>> open_buttons({"pin_factory": "none"}) is None
    True
    """
    settings = ButtonSettings.from_config(table)
    if settings.pin_factory == "none":
        return None
    if pin_factory is None and Device.pin_factory is None:
        try:
            pin_factory = choose_pin_factory(settings.pin_factory)
        except ButtonError as exc:
            if settings.pin_factory != "auto":
                raise
            log.warning("no buttons: %s", exc)
            return None
    return ButtonPanel(settings, pin_factory)


def bench_latency(presses: int = 40, debounce_ms: int = 30) -> dict:
    """Press → event latency through gpiozero's mock pins, the debouncer and the queue.

    The latency is the debounce time by design; what the figures show beyond it is the
    cost of our threads (on a Pi, lgpio adds its own edge-report delay, typically well
    under a millisecond).
    """
    import statistics

    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    settings = ButtonSettings(done_pin=17, undo_pin=27, debounce_ms=debounce_ms, pin_factory="mock")
    delays = []
    with ButtonPanel(settings, factory) as panel:
        pin = factory.pin(17)
        for _ in range(presses):
            start = time.perf_counter()
            pin.drive_low()
            event = panel.get_event(timeout=2)
            if event == DONE:
                delays.append((time.perf_counter() - start) * 1000)
            pin.drive_high()
            time.sleep(2 * debounce_ms / 1000)  # let the release settle before the next press
            panel.get_event(timeout=0)
    factory.close()
    delays.sort()
    return {"presses": presses, "received": len(delays), "debounce_ms": debounce_ms,
            "median_ms": round(statistics.median(delays), 2),
            "p95_ms": round(delays[int(0.95 * (len(delays) - 1))], 2), "max_ms": round(delays[-1], 2)}


def main(argv: list[str] | None = None) -> int:
    """``python -m firmware_bridge.buttons``: print button events, to check the wiring."""
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.buttons",
                                     description="Print the events of the done and undo buttons until Ctrl-C.")
    parser.add_argument("--done-pin", default=ButtonSettings.done_pin, help="GPIO of the done button (17)")
    parser.add_argument("--undo-pin", default=ButtonSettings.undo_pin, help="GPIO of the undo button (27)")
    parser.add_argument("--hold", type=float, default=ButtonSettings.hold_new_game_s,
                        help="seconds to hold undo for a new game (3)")
    parser.add_argument("--pin-factory", default="auto", choices=("auto",) + PIN_FACTORIES)
    parser.add_argument("--bench", action="store_true",
                        help="measure press-to-event latency on mock pins, print it and exit")
    args = parser.parse_args(argv)
    if args.bench:
        figures = bench_latency()
        print("button press -> event (mock pins, {presses} presses, debounce {debounce_ms} ms): "
              "median {median_ms} ms, p95 {p95_ms} ms, max {max_ms} ms".format(**figures))
        return 0 if figures["received"] == figures["presses"] else 1

    def pin(value):
        return int(value) if str(value).isdigit() else value

    try:
        settings = ButtonSettings(pin(args.done_pin), pin(args.undo_pin), ButtonSettings.debounce_ms,
                                  args.hold, args.pin_factory)
        panel = ButtonPanel(settings, choose_pin_factory(args.pin_factory))
    except ButtonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"done on {settings.done_pin}, undo on {settings.undo_pin} (hold {settings.hold_new_game_s:g} s "
          "for a new game); press Ctrl-C to stop", flush=True)
    with panel:
        try:
            while True:
                event = panel.get_event(timeout=0.5)
                if event:
                    print(event, flush=True)
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    sys.exit(main())

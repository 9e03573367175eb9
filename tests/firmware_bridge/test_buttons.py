"""The done and undo buttons, through gpiozero's own MockFactory pins.

Buttons are wired pin-to-ground with the internal pull-up, so ``drive_low`` is a press.
Pure debouncing rules are checked on :class:`DebouncedButton` with explicit timestamps;
the panel tests then prove the real gpiozero wiring, threads and callbacks.
"""

import threading
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from firmware_bridge.buttons import (
    DONE, NEW_GAME, UNDO, ButtonError, ButtonPanel, ButtonSettings, DebouncedButton, choose_pin_factory,
    open_buttons)

DEBOUNCE_MS = 40
HOLD_S = 0.4


@pytest.fixture
def pins():
    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def panel(pins):
    with ButtonPanel(ButtonSettings(done_pin=17, undo_pin=27, debounce_ms=DEBOUNCE_MS,
                                    hold_new_game_s=HOLD_S, pin_factory="mock")) as panel:
        yield panel


def events_within(panel, seconds):
    """Every event that arrives within ``seconds``."""
    out, end = [], time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        event = panel.get_event(timeout=left)
        if event:
            out.append(event)
    return out


def bounce(pin, final_low: bool, edges: int = 6):
    """Contact bounce: a burst of fast edges ending on the final level."""
    for k in range(edges):
        (pin.drive_low if (k % 2 == 0) == final_low else pin.drive_high)()
        time.sleep(0.001)
    (pin.drive_low if final_low else pin.drive_high)()


# -- the debouncing rules, on explicit times ------------------------------------------

def test_a_bouncing_press_counts_once_after_the_level_settles():
    b = DebouncedButton(debounce_s=0.03)
    for k, t in enumerate((0.0, 0.002, 0.003, 0.005, 0.006)):
        b.feed(k % 2 == 0, t)
    assert b.poll(0.035) == []                 # 29 ms after the last edge: not yet
    assert b.poll(0.037) == [("press", pytest.approx(0.036))]
    assert b.poll(1.0) == [] and b.pressed


def test_a_glitch_shorter_than_the_debounce_time_is_ignored():
    b = DebouncedButton(debounce_s=0.03)
    b.feed(True, 1.0)
    b.feed(False, 1.02)
    assert b.poll(5.0) == [] and not b.pressed and b.next_deadline() is None


def test_hold_fires_once_while_pressed_and_not_after_an_early_release():
    b = DebouncedButton(debounce_s=0.01, hold_s=1.0)
    b.feed(True, 0.0)
    assert b.poll(0.02) == [("press", 0.01)]
    assert b.next_deadline() == pytest.approx(1.01)
    assert b.poll(1.5) == [("hold", pytest.approx(1.01))]
    assert b.poll(3.0) == []
    b.feed(False, 3.0)
    assert b.poll(3.02) == [("release", pytest.approx(3.01))]
    b.feed(True, 4.0)
    assert [k for k, _ in b.poll(4.02)] == ["press"]
    b.feed(False, 4.5)                     # released before the hold time
    assert [k for k, _ in b.poll(4.6)] == ["release"]
    assert b.poll(10.0) == [] and not b.pressed


def test_a_button_already_down_at_start_up_only_reports_its_release():
    b = DebouncedButton(debounce_s=0.01, hold_s=1.0, pressed=True)
    assert b.poll(5.0) == [] and b.next_deadline() is None
    b.feed(False, 5.0)
    assert [k for k, _ in b.poll(5.02)] == ["release"]


def test_a_press_and_release_seen_late_are_reported_in_order():
    b = DebouncedButton(debounce_s=0.01, hold_s=1.0)
    b.feed(True, 0.0)
    assert [k for k, _ in b.poll(0.5)] == ["press"]
    b.feed(False, 0.6)
    assert [k for k, _ in b.poll(0.7)] == ["release"]


# -- the panel, on gpiozero mock pins -------------------------------------------------

def test_done_press_with_bounce_gives_one_done_event(panel, pins):
    done = pins.pin(17)
    bounce(done, final_low=True)
    time.sleep(0.15)
    bounce(done, final_low=False)
    assert events_within(panel, 0.3) == [DONE]


def test_undo_tap_gives_undo_on_release(panel, pins):
    undo = pins.pin(27)
    undo.drive_low()
    time.sleep(0.15)
    assert panel.get_event() is None          # undo waits for the release: it might be a hold
    assert panel.pressed[UNDO]
    undo.drive_high()
    assert events_within(panel, 0.3) == [UNDO]


def test_holding_undo_starts_a_new_game_and_the_release_is_not_an_undo(panel, pins):
    undo = pins.pin(27)
    pressed_at = time.monotonic()
    undo.drive_low()
    assert panel.get_event(timeout=3) == NEW_GAME
    assert time.monotonic() - pressed_at >= HOLD_S    # not before the hold time
    undo.drive_high()
    assert events_within(panel, 0.3) == []


def test_glitch_on_a_pin_gives_no_event(panel, pins):
    pins.pin(17).drive_low()
    time.sleep(0.002)
    pins.pin(17).drive_high()
    assert events_within(panel, 0.25) == []


def test_handlers_run_off_the_pin_thread_and_a_slow_one_does_not_delay_events(panel, pins):
    release = threading.Event()
    seen = []

    def slow(event):
        seen.append((event, threading.current_thread().name))
        release.wait(5)

    panel.on(DONE, slow)
    done = pins.pin(17)
    started = time.monotonic()
    done.drive_low()                            # returns at once: gpiozero's callback only queues
    assert time.monotonic() - started < 0.5
    assert panel.get_event(timeout=2) == DONE
    done.drive_high()
    time.sleep(0.1)
    done.drive_low()                            # second press while the handler still sleeps
    assert panel.get_event(timeout=2) == DONE
    release.set()
    deadline = time.monotonic() + 2
    while len(seen) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [e for e, _ in seen] == [DONE, DONE]
    assert all(name == "buttons-handlers" for _, name in seen)


def test_a_failing_handler_is_logged_and_the_next_one_still_runs(panel, pins, caplog):
    got = threading.Event()
    panel.on(DONE, lambda e: 1 / 0)
    panel.on(DONE, lambda e: got.set())
    pins.pin(17).drive_low()
    assert got.wait(2)
    assert "button handler" in caplog.text


def test_pins_come_from_the_configuration(pins):
    table = {"done_pin": "GPIO5", "undo_pin": 6, "debounce_ms": DEBOUNCE_MS, "hold_new_game_s": 1,
             "pin_factory": "mock"}
    with open_buttons(table) as panel:
        pins.pin(5).drive_low()
        assert panel.get_event(timeout=2) == DONE
        pins.pin(17).drive_low()              # the default pin is not in use any more
        assert events_within(panel, 0.2) == []


def test_the_same_pin_twice_or_a_busy_pin_is_a_clear_error(pins):
    with pytest.raises(ButtonError, match="each button needs its own pin"):
        ButtonSettings.from_config({"done_pin": 4, "undo_pin": "4"})
    with ButtonPanel(ButtonSettings(pin_factory="mock")):
        with pytest.raises(ButtonError, match="cannot use button pins"):
            ButtonPanel(ButtonSettings(pin_factory="mock"))
    with pytest.raises(ButtonError, match="cannot use button pins"):
        ButtonPanel(ButtonSettings(done_pin=99, undo_pin=98, pin_factory="mock"))


@pytest.mark.parametrize("table, message", [
    ({"debounce_ms": 0}, "debounce_ms"),
    ({"hold_new_game_s": 0.01}, "hold_new_game_s"),
    ({"pin_factory": "rpigpio"}, "pin_factory must be one of"),
    ({"done": 17}, "unknown key"),
    ({"done_pin": 1.5}, "GPIO number"),
])
def test_bad_settings_are_refused_with_a_reason(table, message):
    with pytest.raises(ButtonError, match=message):
        ButtonSettings.from_config(table)


def test_pin_factory_is_chosen_at_run_time_and_never_rpigpio(monkeypatch):
    assert isinstance(choose_pin_factory("mock"), MockFactory)
    with pytest.raises(ButtonError, match="unknown pin factory"):
        choose_pin_factory("rpigpio")
    # This machine has no GPIO chip: "auto" says so and how to go on, without a traceback.
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with pytest.raises(ButtonError, match="no GPIO pins usable here.*mock"):
        choose_pin_factory("auto")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert isinstance(choose_pin_factory("auto"), MockFactory)


def test_open_buttons_gives_none_when_turned_off_or_when_auto_finds_no_gpio(monkeypatch, caplog):
    """The same configuration file works on a Pi and on a laptop without GPIO."""
    assert open_buttons({"pin_factory": "none"}) is None
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    previous, Device.pin_factory = Device.pin_factory, None
    try:
        assert open_buttons({"pin_factory": "auto"}) is None
        assert "no buttons" in caplog.text
        with pytest.raises(ButtonError, match="no GPIO pins usable here"):
            open_buttons({"pin_factory": "lgpio"})
    finally:
        Device.pin_factory = previous


def test_settings_match_the_companion_configuration_defaults():
    """The [buttons] table of `maamut config` is accepted as it is."""
    from maamut.config import DEFAULTS

    settings = ButtonSettings.from_config(DEFAULTS["buttons"])
    assert (settings.done_pin, settings.undo_pin) == (17, 27)
    assert settings.hold_new_game_s == DEFAULTS["buttons"]["hold_new_game_s"]


def test_latency_bench_sees_every_press_and_none_before_the_debounce_time():
    from firmware_bridge.buttons import bench_latency

    figures = bench_latency(presses=3, debounce_ms=20)
    assert figures["received"] == 3
    assert figures["median_ms"] >= 20      # an event is only certain once the level held


def test_rpigpio_from_the_environment_is_ignored(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "rpigpio")
    with pytest.raises(ButtonError, match="GPIOZERO_PIN_FACTORY=rpigpio ignored"):
        choose_pin_factory("auto")


def test_unpolled_events_are_bounded_and_the_newest_kept(panel, pins):
    from firmware_bridge.buttons import EVENT_BACKLOG

    for _ in range(EVENT_BACKLOG):
        panel._emit(UNDO)
    panel._emit(NEW_GAME)
    drained = []
    while (event := panel.get_event()) is not None:
        drained.append(event)
    assert len(drained) == EVENT_BACKLOG and drained[-1] == NEW_GAME

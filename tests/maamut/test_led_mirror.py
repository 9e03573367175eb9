"""The LED strip mirrored on the page: a few updates a second at most, the latest colours last."""

import time

from companion_web import GameHub
from firmware_bridge.backends import SimulatedBackend
from firmware_bridge.director import LedDirector
from firmware_bridge.mirror import LedMirror
from firmware_bridge.scenes import SceneMaker
from session import TableSession


class CountingHub(GameHub):
    def __init__(self):
        super().__init__(render=lambda state: {})
        self.led_updates = []

    def update(self, **parts):
        if "leds" in parts:
            self.led_updates.append((time.monotonic(), parts["leds"]))
        return super().update(**parts)


def test_a_burst_of_led_changes_reaches_the_page_once_with_the_final_colours():
    backend, hub = SimulatedBackend(12), CountingHub()
    mirror = LedMirror(backend, hub, rate_hz=4.0)
    for value in range(50):  # one move: scenes, frames and animations in quick succession
        backend.show([(value, 0, 0)] * 12)
    time.sleep(0.6)
    assert 1 <= len(hub.led_updates) <= 2
    assert hub.led_updates[-1][1][0] == [49, 0, 0]
    mirror.close()


def test_led_updates_to_the_page_stay_under_the_rate_while_a_game_is_played():
    table = TableSession(players=[{"id": "A"}, {"id": "B"}, {"id": "C"}], deal=True)
    backend, hub = SimulatedBackend(), CountingHub()
    mirror = LedMirror(backend, hub, rate_hz=4.0)
    director = LedDirector(backend, SceneMaker.from_config({}), hold_s=0.05)
    table.subscribe(lambda change, snapshot: director.on_change(change, snapshot, table))
    start = time.monotonic()
    table.new_game(seed=3)
    while table.game.next_to_place():
        table.place_hunter(table.game.next_to_place(), table.game.start_cells()[0])
    for _ in range(15):
        if table.game.is_over:
            break
        table.play(table.game.legal_actions()[0])
    time.sleep(0.5)
    elapsed = time.monotonic() - start
    assert hub.led_updates, "the page sees the LEDs"
    assert len(hub.led_updates) <= 4.0 * elapsed + 1
    gaps = [b[0] - a[0] for a, b in zip(hub.led_updates, hub.led_updates[1:])]
    assert all(gap >= 0.2 for gap in gaps)
    mirror.close()

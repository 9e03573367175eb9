"""The LEDs follow the table: each change of the game plays its scenes.

:class:`LedDirector` is subscribed to the table's session (``session.TableSession``).
A flight plays as several scenes (the path, then where the mammoth stopped); every
scene but the last stays ``hold_s`` seconds so that people at the table can follow it,
and a newer change takes the LEDs over at once.

>>> from firmware_bridge.backends import SimulatedBackend
>>> from firmware_bridge.scenes import SceneMaker
>>> from session import TableSession
>>> table = TableSession(players=[{"id": "A"}, {"id": "B"}])
>>> leds = SimulatedBackend()
>>> director = LedDirector(leds, SceneMaker(), hold_s=0)
>>> unsubscribe = table.subscribe(lambda change, snapshot: director.on_change(change, snapshot, table))
>>> table.new_game(seed=1)
>>> leds.version > 0
True
"""

from __future__ import annotations

import logging
import threading
import time

import engine

from .scenes import SceneMaker

log = logging.getLogger(__name__)

#: Changes that show the position as it now stands, with no events to play.
QUIET_CHANGES = ("undo", "resumed", "imported", "marks")


class LedDirector:
    """Plays the LED scenes of each change of the table (see the module docstring)."""

    def __init__(self, backend, maker: SceneMaker, hold_s: float = 2.5):
        self.backend = backend
        self.maker = maker
        self.hold_s = hold_s
        self._generation = 0
        self._lock = threading.Lock()

    def on_change(self, change, snapshot, table) -> None:
        """A change of ``table`` (its subscriber's arguments, and the table itself)."""
        game = table.game
        if game is None:
            return
        events = [] if change.kind in QUIET_CHANGES else list(change.events)
        try:
            scenes = self.maker.for_game(game, events, engine.needs_to_json(snapshot.needs), table.marks())
        except Exception:
            log.exception("no LED scene for these events")
            return
        self.play(scenes)

    def attract(self) -> None:
        self.play([self.maker.attract()])

    def show_placement(self, hunter: str, cells, position) -> None:
        """Pulse where ``hunter`` is to go (cell names like ``"1,-2"``): a proposed move that
        a person will make on the board (an AI seat's)."""
        self.play([self.maker.placement(hunter, [engine.hexgrid.parse_cell(c) for c in cells], position)])

    def play(self, scenes: list) -> None:
        """Show ``scenes`` in order; every scene but the last stays ``hold_s`` seconds."""
        with self._lock:
            self._generation += 1
            generation = self._generation
        if not scenes:
            return
        scenes[0].play(self.backend)
        if len(scenes) > 1:
            threading.Thread(target=self._rest, args=(scenes[1:], generation), daemon=True).start()

    def _rest(self, scenes, generation) -> None:
        for scene in scenes:
            time.sleep(self.hold_s)
            with self._lock:
                if generation != self._generation:
                    return  # a newer change took over the LEDs
            scene.play(self.backend)


__all__ = ["LedDirector", "QUIET_CHANGES"]

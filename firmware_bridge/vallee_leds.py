"""La Vallée des Mammouths on the LED board: the cells of the step the page is on.

The LED board sits under Mâamut's 37 hexes. A La Vallée map laid on the same 37 cells
(pointy-top, axial ``q,r`` as Mâamut's: the usual board from its two halves, the sample
valley) can use it too: :class:`ValleeLeds` follows the table's La Vallée game (any
object with ``subscribe(fn(state))``, ``game`` and ``last_events``: the
:class:`vallee.live.ValleeTable`) and, after each change, plays through the table's one
:class:`~firmware_bridge.director.LedDirector` (a newer change of either game takes the
LEDs over at once):

1. what just happened, held a moment: the cells the change's events name (the event
   card's region, the animals' paths, where pawns moved or camps were founded) blink in
   amber, a fight's cell in red;
2. the step asked now: the cells the page lights (``state["lit"]``: the question's cell,
   its options, the groups that may move) pulse in the colour of the player asked
   (white when the table is asked), a fight's cell blinks fast in red; the status LEDs
   show that colour. Once the game is over, the winners' camps blink in their colours.

On a map of another shape the LEDs are left to Mâamut: nothing is lit that would lie.
The state's JSON is all this module reads (docs/vallee-web.md «The public state»); it
imports nothing of La Vallée.

>>> BOARD_CELLS >= {"0,0", "3,-3", "-3,3"}, len(BOARD_CELLS)
(True, 37)
>>> event_cells([{"type": "animals_moved", "moves": [{"from": "0,-1", "to": "1,-1", "path": ["1,-1"]}]},
...              {"type": "food", "player": "red", "delta": -1}])
['0,-1', '1,-1']
"""

from __future__ import annotations

import logging
from typing import Iterable, Mapping

from engine.hexgrid import CELL_NAMES

from .scenes import (
    BLINK_MS, DANGER, FAST_BLINK_MS, MAMMOTH_COLOUR, PULSE_MS, WHITE, Animation, LedScene, SceneError,
    SceneMaker, parse_colour,
)

log = logging.getLogger(__name__)

#: The 37 cells under the LED board, by their ``q,r`` names.
BOARD_CELLS = frozenset(CELL_NAMES)
#: The keys of an event that name cells (a cell, a list of cells, a path).
CELL_KEYS = ("cell", "cells", "from", "to", "path", "target", "moves")
#: Events that say nothing about a place (a food change names no cell worth lighting).
QUIET_EVENTS = ("food", "ledger", "turn", "trick_drawn", "order", "first_player")


def fits_the_board(cells: Iterable[str], orientation: str) -> bool:
    """Whether a map of these cells lies exactly on the LED board's 37 hexes.

    >>> fits_the_board(sorted(BOARD_CELLS), "pointy"), fits_the_board(sorted(BOARD_CELLS), "flat")
    (True, False)
    >>> fits_the_board(["0,0", "1,0"], "pointy")
    False
    """
    return orientation == "pointy" and frozenset(cells) == BOARD_CELLS


def _cells_in(value) -> list[str]:
    if isinstance(value, str):
        return [value] if value in BOARD_CELLS else []
    if isinstance(value, Mapping):
        return [c for key in CELL_KEYS if key in value for c in _cells_in(value[key])]
    if isinstance(value, (list, tuple)):
        return [c for item in value for c in _cells_in(item)]
    return []


def event_cells(events: Iterable[Mapping]) -> list[str]:
    """The board cells the events name, each once, in the order they come."""
    found = [c for e in events if e.get("type") not in QUIET_EVENTS for c in _cells_in(e)]
    return list(dict.fromkeys(found))


def fight_cells(events: Iterable[Mapping]) -> list[str]:
    return list(dict.fromkeys(e["cell"] for e in events if e.get("type") == "fight" and e.get("cell") in BOARD_CELLS))


class ValleeLeds:
    """Lights the cells of La Vallée's current step (see the module docstring)."""

    def __init__(self, director, maker: SceneMaker | None = None):
        self.director = director
        self.maker = maker or director.maker
        self.table = None
        #: Scenes played since the start (for logs and tests).
        self.played = 0

    def follow(self, table) -> "ValleeLeds":
        self.table = table
        table.subscribe(self.on_state)
        return self

    def on_state(self, state: Mapping) -> None:
        """A change of the table (its subscriber's argument: the public state)."""
        game = self.table.game if self.table is not None else None
        if game is None or not fits_the_board((f"{q},{r}" for q, r in game.valley.cells), game.valley.orientation):
            return
        try:
            scenes = self.scenes(state, list(getattr(self.table, "last_events", []) or []))
        except (SceneError, ValueError, KeyError, TypeError):
            log.exception("no LED scene for this La Vallée state")
            return
        self.played += len(scenes)
        self.director.play(scenes)

    # -- the scenes ---------------------------------------------------------------------
    def scenes(self, state: Mapping, events: list) -> list[LedScene]:
        """What happened (when the change named cells), then the step asked now."""
        happened = self.happened(events)
        return ([happened] if happened else []) + [self.now(state)]

    def happened(self, events: list) -> LedScene | None:
        cells = event_cells(events)
        if not cells:
            return None
        fights = fight_cells(events)
        others = [c for c in cells if c not in fights]
        animations = []
        if others:
            animations.append(Animation("blink", self._leds(others), MAMMOTH_COLOUR, BLINK_MS))
        if fights:
            animations.append(Animation("blink", self._leds(fights), DANGER, FAST_BLINK_MS))
        return LedScene("vallee_happened", tuple(self.maker.ledmap.blank_frame()), tuple(animations),
                        {"cells": cells, "fights": fights})

    def now(self, state: Mapping) -> LedScene:
        game = state.get("game") or {}
        colours = state.get("colours") or {}
        frame = self.maker.ledmap.blank_frame()
        if game.get("over"):
            return self._winners(frame, game, colours)
        pending = game.get("pending") or {}
        lit = [c for c in state.get("lit") or [] if c in BOARD_CELLS]
        player = pending.get("player")
        colour = self._colour(colours.get(player)) if player else WHITE
        self._status(frame, colour)
        if pending.get("step") == "fight" and pending.get("cell") in BOARD_CELLS:
            animations = (Animation("blink", self._leds([pending["cell"]]), DANGER, FAST_BLINK_MS),)
        else:
            animations = (Animation("pulse", self._leds(lit), colour, PULSE_MS),) if lit else ()
        return LedScene("vallee_step", tuple(frame), animations,
                        {"step": pending.get("step"), "player": player, "cells": lit})

    def _winners(self, frame, game: Mapping, colours: Mapping) -> LedScene:
        animations = []
        for winner in game.get("winners") or []:
            camps = [c for c in ((game.get("tribes") or {}).get(winner) or {}).get("camps") or {} if c in BOARD_CELLS]
            colour = self._colour(colours.get(winner))
            self._status(frame, colour)
            if camps:
                animations.append(Animation("blink", self._leds(camps), colour, BLINK_MS))
        return LedScene("vallee_over", tuple(frame), tuple(animations), {"winners": list(game.get("winners") or [])})

    def _leds(self, cells) -> tuple[int, ...]:
        return tuple(self.maker.ledmap.indices_of(cells))

    def _status(self, frame: list, colour) -> None:
        for led in self.maker.ledmap.status_leds:
            frame[led] = colour

    @staticmethod
    def _colour(value) -> tuple[int, int, int]:
        try:
            return parse_colour(value)
        except SceneError:
            return WHITE


__all__ = ["ValleeLeds", "BOARD_CELLS", "event_cells", "fits_the_board"]

"""``maamut demo``: a self-playing table for convention stands, through the real camera loop.

The demo is the product with simulated people and a simulated camera: the table's
session, the page, the LEDs and the very camera loop of ``maamut serve`` run as they do
at a real table. Only the frame source is simulated (:mod:`sim.camera`, registered as
the source ``sim``, which the simulation plugs in), and the players are bots with hands (:mod:`sim.players`): they
move pieces on the simulated board, press *done* to pass, obey the table when a referee
takes a turn back or enters one on the page (they put the pieces right), answer the
camera's questions as the referee would on the page (from the board they see), and
hold *undo* for a new game when one ends.

Every error (a move the camera did not follow, a table that shows another board than
was played) is counted: the soak benchmark's figure.
"""

from __future__ import annotations

import os
import random
import threading

from engine.game import Game
from vision.calibration import Calibration, CalibrationError

from maamut.app import say
from vision.camera_loop import CameraLoop

#: The demo's cardboard set: the same kit at every start, so a saved calibration stays valid.
DEMO_KIT_SEED = 2009


class Demo:
    """Bots play games forever (or ``max_games``) on the companion's table."""

    def __init__(self, companion, seed: int | None = None, turn_s: float = 2.0, attract_s: float = 8.0,
                 vision: bool = True, max_games: int | None = None, max_turns: int = 120,
                 stop: threading.Event | None = None, fps: float | None = 10.0, patience_s: float = 30.0,
                 kit_seed: int = DEMO_KIT_SEED):
        from maamut.app import CameraQuestionDesk

        from .players import SimulatedPlayers, TableReferee

        self.companion = companion
        self.rng = random.Random(seed)
        self.vision = vision
        self.max_games = max_games
        self.stop = stop or threading.Event()
        self.fps = fps
        self.kit_seed = kit_seed
        self.board = self._lay_the_board() if vision else None
        self.players = SimulatedPlayers(companion.table, self.board, companion.handle_button, self.rng,
                                        turn_s=turn_s, attract_s=attract_s, patience_s=patience_s,
                                        max_turns=max_turns,
                                        referee=TableReferee(companion.hub, CameraQuestionDesk(companion)))
        self.camera: CameraLoop | None = None
        self.camera_source = None

    @property
    def stats(self):
        return self.players.stats

    def _lay_the_board(self):
        """The simulated cardboard: the game in progress (resumed), else the layout the
        camera knows, else new tiles."""
        from .camera import SimulatedBoard
        from .players import board_of

        table, cfg = self.companion.table, self.companion.cfg
        path = cfg.path(cfg.camera.get("calibration", "var/calibration.json"))
        try:
            known = Calibration.load(path).tiles
        except (OSError, CalibrationError, ValueError):
            known = None
        if table.game is not None:
            tiles = tuple(t.value for t in table.game.tiles)
            if known is not None and tuple(known) != tiles:
                os.remove(path)  # learnt on another layout: learn again at the next setup
        elif known is not None:
            tiles = tuple(known)
        else:
            tiles = tuple(t.value for t in Game.new(["A", "B"], seed=self.rng.randrange(2**31)).tiles)
        board = SimulatedBoard(tiles, seed=self.kit_seed)
        if table.game is not None:
            board.current = board_of(table.snapshot())  # the people set the game up again
        return board

    def run(self):
        """Play until ``max_games`` games ended (or ``stop``); returns the statistics."""
        loop_stop = threading.Event()
        if self.board is not None:
            from .camera import install

            spec = install(self.board, fps=self.fps)
            self.companion.cfg.camera["source"] = spec
            self.camera = self.companion.camera_loop(spec, loop_stop, required=3)
            self.camera.start()
        try:
            stats = self.players.run(self.stop, self.max_games, tick_s=0.05 if self.fps else 0.01)
        finally:
            loop_stop.set()
            if self.camera is not None:
                self.camera.join(timeout=10)
                if self.companion.camera is self.camera:
                    self.companion.camera = None
        if self.camera is not None:
            stats.frames += self.camera.frames
        return stats


__all__ = ["Demo", "DEMO_KIT_SEED", "say"]

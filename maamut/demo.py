"""``maamut demo``: a self-playing table for convention stands.

Bots play the hunters of a game that exists only as ground truth; every change they
make to the "table" is drawn as camera frames (a hand reaches in, the token moves, the
hand leaves) by :mod:`vision.render`, and those frames go through the real reader and
tracker, exactly as a live camera's would. What the tracker commits is what the page
and the LEDs show, and the demo checks it against the truth after every turn: a
mismatch is counted as an error (the soak benchmark's figure).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

import numpy as np

from engine import Pass, action_to_json, choices_to_json
from engine.game import Game
from engine.hexgrid import cell_name, parse_cell
from engine.notation import tiles_to_text
from vision.render import Kit, Scene, random_hand, render_frame
from vision.track_commands import TrackRun
from vision.tracker_bench import Snapshot, table_transition

from .bots import Bot


@dataclass
class DemoStats:
    games: int = 0
    turns: int = 0
    errors: int = 0
    frames: int = 0
    winners: dict = field(default_factory=dict)
    messages: list = field(default_factory=list)

    def error(self, message: str) -> None:
        self.errors += 1
        if len(self.messages) < 20:  # keep memory flat over hours
            self.messages.append(message)


class OutOfStep(Exception):
    """The table no longer shows the game the bots play (already counted as an error)."""


class RenderedTable:
    """The demo's physical table: one kit under one lamp, drawn frame by frame."""

    def __init__(self, tiles, seed: int, hold: int = 4, hand_frames: int = 2):
        self.rng = np.random.default_rng(seed)
        self.kit = Kit.random(self.rng)
        self.look = self.kit.look
        self.tiles = tuple(t.value for t in tiles)
        self.hold = hold
        self.hand_frames = hand_frames
        self._on_top: list[str] = []
        self._previous: dict = {}

    def frames(self, mammoth, hunters: dict, traps: dict, hand: bool = True):
        """Frames of a hand putting the table into this state, then the still board."""
        for label, cell in hunters.items():
            if self._previous.get(label) != cell:
                # the hunter put down last stands on top of any other on his cell
                self._on_top = [x for x in self._on_top if x != label] + [label]
        self._previous = dict(hunters)
        ordered = {label: hunters[label] for label in self._on_top if label in hunters}
        scene = Scene(self.tiles, mammoth, ordered, dict(traps))
        if hand:
            for _ in range(self.hand_frames):
                yield render_frame(scene, self.kit.palette, self.look, self.rng, hand=random_hand(self.rng))[0]
            self.look = Kit(self.kit.palette, self.look).nudged(self.rng)
        still = render_frame(scene, self.kit.palette, self.look, self.rng)[0]
        for _ in range(self.hold):
            yield still


class TrackerBridge:
    """Carries what the tracker commits into the table game (journal, page, LEDs)."""

    def __init__(self, table, run: TrackRun, players: list[dict]):
        self.table = table
        self.run = run
        self.players = players
        self.started = False
        #: False while the table plays a game the camera did not see start (it is then
        #: played on the page); the tracker's commits are not carried over.
        self.following = True
        self.placements = 0
        self.actions = 0
        self.reports = 0

    def sync(self) -> None:
        if not self.following:
            return
        tracker = self.run.tracker
        if not self.started and tracker.tiles is not None:
            self.table.new_game(self.players, tiles=tiles_to_text(tracker.tiles))
            self.started = True
        for placement in tracker.placements[self.placements:]:
            self.table.place_hunter(placement["hunter"], placement["cell"])
            self.placements += 1
        for entry in tracker.actions[self.actions:]:
            self.table.play(entry["action"], entry["choices"])
            self.actions += 1
        if len(tracker.reports) > self.reports:
            fresh = tracker.reports[self.reports:]
            self.reports = len(tracker.reports)
            self.table.mark_illegal([{"cell": c, "reason": r.get("message", r["type"])}
                                     for r in fresh for c in r.get("cells", [])])


class DirectDriver:
    """The bots' moves go straight to the table game (no camera path)."""

    def __init__(self, demo, truth: Game, players: list[dict]):
        self.table = demo.companion.table
        self.table.new_game(players, tiles=tiles_to_text(truth.tiles))

    def placed(self, player: str, cell: int) -> None:
        self.table.place_hunter(player, cell_name(cell))

    def played(self, action, choices, outcome) -> None:
        self.table.play(action_to_json(action), choices_to_json(choices))


class CameraDriver:
    """The bots' moves are drawn as camera frames and read back by the reader and tracker.

    People move one token at a time, the mover first (``table_transition``); every board
    is seen through a hand reaching in and out, as a real camera would see it.
    """

    def __init__(self, demo, truth: Game, players: list[dict]):
        self.demo = demo
        self.truth = truth
        self.labels = {p["id"]: f"c{i}" for i, p in enumerate(players)}
        self.camera = RenderedTable(truth.tiles, demo.rng.randrange(2**31))
        self.run = TrackRun([p["id"] for p in players], variants=truth.variants, required=3)
        self.bridge = TrackerBridge(demo.companion.table, self.run, players)
        self.clock = 0.0
        self.board = Snapshot(truth.position.mammoth)
        self.show([self.board], hand=False)  # the empty board: the set is learnt from it

    def show(self, boards, hand: bool = True) -> None:
        for snapshot in boards:
            for frame in self.camera.frames(snapshot.mammoth, dict(snapshot.hunters), dict(snapshot.traps), hand):
                self.run.feed(self.clock, frame)
                self.clock += 1 / 30
                self.demo.stats.frames += 1
            hand = True
            self.demo.companion.show_camera(frame, self.run.tracker.last_observation)
        self.bridge.sync()

    def placed(self, player: str, cell: int) -> None:
        self.board = Snapshot.of(self.truth.position, self.labels)
        self.show([self.board])

    def played(self, action, choices, outcome) -> None:
        if isinstance(action, Pass):
            self.run.press_pass(self.clock)  # the done button: a pass leaves the board as it is
            self.bridge.sync()
            return
        after = Snapshot.of(self.truth.position, self.labels)
        moved = next((e for e in outcome.events if e["type"] == "hunter_moved"), None)
        via = parse_cell(moved["to"]) if moved else None
        self.show(table_transition(self.board, after, self.labels[action.hunter], via))
        self.board = after

    def describe(self) -> str:
        tracker = self.run.tracker
        return (f" (tracker {tracker.phase}, waiting for {tracker.waiting_for()}, "
                f"last report {tracker.reports[-1] if tracker.reports else None})")


class Demo:
    """Plays games forever (or ``max_games``), with an attract animation in between."""

    def __init__(self, companion, seed: int | None = None, turn_s: float = 2.0, attract_s: float = 8.0,
                 vision: bool = True, max_games: int | None = None, max_turns: int = 120,
                 stop: threading.Event | None = None):
        self.companion = companion
        self.rng = random.Random(seed)
        self.turn_s = turn_s
        self.attract_s = attract_s
        self.vision = vision
        self.max_games = max_games
        self.max_turns = max_turns
        self.stop = stop or threading.Event()
        self.stats = DemoStats()

    def _sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.stop.wait(seconds)

    def run(self) -> DemoStats:
        while not self.stop.is_set() and (self.max_games is None or self.stats.games < self.max_games):
            try:
                self.play_one_game()
            except OutOfStep:
                pass  # counted where it was seen; the next game starts afresh
            except Exception as exc:  # the stand keeps running; the error is counted and shown
                self.stats.error(f"game {self.stats.games + 1}: {type(exc).__name__}: {exc}")
            self.stats.games += 1
            if self.attract_s:
                self.companion.director.attract()
                self._sleep(self.attract_s)
        return self.stats

    # -- one game -------------------------------------------------------------------
    def play_one_game(self) -> None:
        cfg_players = self.companion.cfg.players()
        ids = [p["id"] for p in cfg_players]
        players = [{"id": p["id"], "name": p.get("name", p["id"]), "colour": p.get("colour")} for p in cfg_players]
        truth = Game.new(ids, seed=self.rng.randrange(2**31), variants=self.companion.cfg.variants())
        bot = Bot(random.Random(self.rng.randrange(2**31)))
        driver = (CameraDriver if self.vision else DirectDriver)(self, truth, players)
        for player in ids:
            cell = bot.choose_start(truth)
            truth.place_hunter(player, cell)
            driver.placed(player, cell)
            self._sleep(self.turn_s / 2)
        while not truth.is_over and truth.turns_played() < self.max_turns and not self.stop.is_set():
            action, choices = bot.choose_turn(truth)
            outcome = truth.play(action, choices)
            driver.played(action, choices, outcome)
            self.stats.turns += 1
            self._check(truth, driver)
            self._sleep(self.turn_s)
        if truth.winner:
            side = "mammoth" if truth.winner == "mammoth" else "hunters"
            self.stats.winners[side] = self.stats.winners.get(side, 0) + 1

    def _check(self, truth: Game, driver) -> None:
        table_game = self.companion.table.game
        if table_game is None:
            self.stats.error("the table has no game although the bots are playing")
            raise OutOfStep()
        seen, real = table_game.position, truth.position
        if (seen.mammoth, seen.hunters, seen.traps, seen.eliminated) != (real.mammoth, real.hunters, real.traps,
                                                                          real.eliminated):
            detail = driver.describe() if hasattr(driver, "describe") else ""
            self.stats.error(f"turn {truth.turns_played()}: the table shows a different board than was played{detail}")
            # Start a new game so that one misread does not spoil the rest of the stand's day.
            raise OutOfStep()


__all__ = ["Demo", "DemoStats", "RenderedTable", "TrackerBridge", "CameraDriver", "DirectDriver"]

"""What every generator of camera frames shares: legal boards and the samples' folders.

The boards all come from the engine itself. The setup follows the rules (RULINGS
"Setup" 4: hunters in seat order on free outer cells that are not rock); read positions
come from random legal play; whole games keep the turns a still camera can see (a move
that starts no flight, setting or lifting a trap), so each turn is one visible change of
the board.

A generator draws these boards its own way and hands back :class:`TableSample` and
:class:`GameSample`; :func:`write_table` and :func:`write_game` lay them out in the
folder format of the shared vision samples: a table is its setup frames
(``calib_00.jpg`` the empty board with the mammoth on the cross, ``calib_01.jpg …`` one
more hunter each, in seat order), read frames with their truth (``read_000.jpg`` +
``read_000.json``) and ``table.json``; a game is ``frames/`` (every board held for
:data:`HOLD_FRAMES` frames) and ``expected.json`` (``players``, ``tiles``, the
``expected`` actions, the ``final`` board) and ``boards.json`` (every board shown, and
which one each frame shows: what a referee at the table would answer the camera's
questions from, :func:`sim.samples_bench.track_game`).

>>> import random
>>> setup = table_setup(random.Random(4), 3)
>>> [len(b["hunters"]) for b in setup.boards]
[0, 1, 2, 3]
>>> sorted(truth(setup, setup.boards[0]))
['hunters', 'mammoth', 'players', 'tiles', 'traps']
"""
from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

import engine
from engine.core import Move, Pass, PlaceTrap, Position, RemoveTrap
from engine.game import Game
from engine.hexgrid import CELL_NAMES
from engine.playout import choose_turn

#: Event types of a turn that only moved a hunter or set or lifted a trap.
_QUIET_EVENTS = {"hunter_moved", "trap_placed", "trap_removed"}


def board_of(pos: Position) -> dict:
    """The truth's form of a position: mammoth, living hunters, traps (``"q,r"`` cells)."""
    return {"mammoth": CELL_NAMES[pos.mammoth],
            "hunters": {p: CELL_NAMES[c] for p, c in pos.hunters.items()},
            "traps": {CELL_NAMES[c]: owner for c, owner in sorted(pos.traps.items())}}


@dataclass
class Setup:
    game: Game               # the game after every hunter is placed
    boards: list[dict]       # the empty board, then one more hunter each

    @property
    def tiles(self) -> dict[str, str]:
        return {CELL_NAMES[i]: t.value for i, t in enumerate(self.game.tiles)}


def table_setup(rng: random.Random, players: int) -> Setup:
    """A dealt game and the setup boards: mammoth on the cross, hunters put down in seat order."""
    names = "ABCD"[:players]
    game = Game.new(names, seed=rng.randrange(2**31))
    boards = [board_of(game.position)]
    for name in names:
        game.place_hunter(name, rng.choice(game.start_cells()))
        boards.append(board_of(game.position))
    return Setup(game, boards)


def _interest(board: dict) -> int:
    """How much a board shows of what sets make hard: hunters on traps, shared cells."""
    cells = list(board["hunters"].values())
    shared = len(cells) - len(set(cells))
    on_traps = sum(1 for c in cells if c in board["traps"])
    return 1 + 3 * shared + 2 * on_traps + min(len(board["traps"]), 4)


def read_boards(setup: Setup, rng: random.Random, count: int, turns: int = 60, off_board: float = 0.0) -> list[dict]:
    """``count`` boards of one random legal game (never a finished one), favouring rich ones;
    with ``off_board``, each board (of two hunters and more) leaves one player's hunter
    off the board at that chance, his traps kept (an eliminated player under the
    ``eliminated_traps`` variants that keep them, or a hunter lifted in hand): the shared
    samples do so in 30 % of their frames. The boards before that draw are the same."""
    game = Game(setup.game.players, setup.game.seed, tiles=setup.game.tiles)
    for name, cell in setup.game.position.hunters.items():
        game.place_hunter(name, cell)
    seen: list[dict] = []
    while not game.is_over and game.turns_played() < turns:
        action, choices = choose_turn(game, rng, trap_bias=0.35)
        game.play(action, choices)
        if not game.is_over:
            seen.append(board_of(game.position))
    if not seen:
        return [board_of(game.position)] * count
    weights = [_interest(b) for b in seen]
    picks = sorted(rng.choices(range(len(seen)), weights=weights, k=count))
    boards = [seen[i] for i in picks]
    return [_one_off(b, rng) if off_board and rng.random() < off_board else b for b in boards]


def _one_off(board: dict, rng: random.Random) -> dict:
    """``board`` with one random player's hunter taken off (boards of two hunters and more)."""
    if len(board["hunters"]) < 2:
        return board
    gone = rng.choice(sorted(board["hunters"]))
    return {**board, "hunters": {p: c for p, c in board["hunters"].items() if p != gone}}


def visible_turn(game: Game, rng: random.Random, trap_bias: float = 0.3):
    """A random legal turn whose whole effect is one hunter or one trap appearing or moving."""
    actions = [a for a in game.legal_actions() if not isinstance(a, Pass)]
    rng.shuffle(actions)
    if rng.random() < trap_bias:
        actions.sort(key=lambda a: not isinstance(a, (PlaceTrap, RemoveTrap)))
    for action in actions:
        outcome = engine.apply_action(game.position, action, (), game.variants)
        if outcome.needs is None and all(e["type"] in _QUIET_EVENTS for e in outcome.events):
            return action
    return None


def expected_entry(action) -> dict:
    """An action as ``maamut track --json`` lists it: moves with their choices and events."""
    out = engine.action_to_json(action)
    if isinstance(action, Move):
        out.update({"choices": [], "events": []})
    return out


def game_turns(setup: Setup, rng: random.Random, turns: int) -> tuple[list[dict], list[dict]]:
    """Up to ``turns`` visible turns: the boards after each, and the expected actions."""
    game = setup.game
    boards, expected = [], []
    for _ in range(turns):
        action = visible_turn(game, rng)
        if action is None:
            break
        game.play(action)
        boards.append(board_of(game.position))
        expected.append(expected_entry(action))
    return boards, expected


# -- the samples' folders ---------------------------------------------------------------------

#: Frames each board is held for in a game (a still camera at 30 frames a second).
HOLD_FRAMES = 8


@dataclass(frozen=True)
class Frame:
    """One camera frame: its file name and JPEG bytes (exactly what is written)."""
    name: str
    jpeg: bytes

    def image(self) -> np.ndarray:
        return cv2.imdecode(np.frombuffer(self.jpeg, np.uint8), cv2.IMREAD_COLOR)


@dataclass
class TableSample:
    seed: int
    table: dict                  # table.json
    calib: list[Frame]
    reads: list[tuple[Frame, dict]]    # each read frame with its truth (read_XXX.json)
    homography: np.ndarray = field(repr=False)   # board units -> pixels on the cards' plane (no lens distortion)
    prefix: str = "flat"         # the folder is PREFIX-SEED/


@dataclass
class GameSample:
    seed: int
    table: dict
    frames: list[Frame]
    expected: dict               # expected.json
    boards: list[dict] = field(repr=False)       # every board shown, in order (setup first)
    prefix: str = "game"         # the folder is PREFIX-SEED/
    #: Which board each frame shows (index into ``boards``); empty: each board held for
    #: :data:`HOLD_FRAMES` frames, nothing between.
    shown: list[int] = field(default_factory=list, repr=False)

    def boards_shown(self) -> dict:
        """``boards.json``: ``{"boards": [...], "frames": [board index of each frame]}``."""
        shown = self.shown or [i // HOLD_FRAMES for i in range(len(self.frames))]
        return {"boards": self.boards, "frames": shown}


def truth(setup: Setup, board: dict) -> dict:
    """A read frame's truth: the table's tiles and players, then the board."""
    return {"tiles": setup.tiles, "players": list(setup.game.players), **board}


def game_expected(setup: Setup, expected: list[dict], final: dict) -> dict:
    """``expected.json``: players, tiles, the actions in order and the final board."""
    return {"players": list(setup.game.players), "tiles": setup.tiles, "expected": expected,
            "final": {"mammoth": final["mammoth"], "hunters": final["hunters"], "traps": final["traps"]}}


def changed_cell(before: dict, after: dict) -> str:
    """The cell a turn changed: where a hunter arrived, else where a trap came or went."""
    for player, cell in after["hunters"].items():
        if before["hunters"].get(player) != cell:
            return cell
    changed = set(before["traps"].items()) ^ set(after["traps"].items())
    return sorted(changed)[0][0] if changed else after["mammoth"]


def _write_json(path: str, obj) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


def _write_frame(folder: str, frame: Frame) -> None:
    with open(os.path.join(folder, frame.name), "wb") as fh:
        fh.write(frame.jpeg)


def write_table(sample: TableSample, out: str) -> str:
    """Write ``PREFIX-SEED/`` under ``out``; returns its path."""
    folder = os.path.join(out, f"{sample.prefix}-{sample.seed}")
    os.makedirs(folder, exist_ok=True)
    for frame in sample.calib:
        _write_frame(folder, frame)
    for frame, read_truth in sample.reads:
        _write_frame(folder, frame)
        with open(os.path.join(folder, frame.name[:-4] + ".json"), "w", encoding="utf-8") as fh:
            json.dump(read_truth, fh, ensure_ascii=False)
    _write_json(os.path.join(folder, "table.json"), sample.table)
    return folder


def write_game(sample: GameSample, out: str) -> str:
    """Write ``PREFIX-SEED/`` (``frames/``, ``expected.json``, ``table.json``) under ``out``."""
    folder = os.path.join(out, f"{sample.prefix}-{sample.seed}")
    frames = os.path.join(folder, "frames")
    os.makedirs(frames, exist_ok=True)
    for frame in sample.frames:
        _write_frame(frames, frame)
    _write_json(os.path.join(folder, "expected.json"), sample.expected)
    _write_json(os.path.join(folder, "table.json"), sample.table)
    _write_json(os.path.join(folder, "boards.json"), sample.boards_shown())
    return folder

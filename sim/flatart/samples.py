"""Tables and whole games in the folder format of the shared vision samples.

A table is its setup frames (``calib_00.jpg`` the empty board with the mammoth on the
cross, ``calib_01.jpg …`` one more hunter each, in seat order), read frames with their
truth (``read_000.jpg`` + ``read_000.json``) and ``table.json``. A game is ``frames/``
(every board held for eight frames, hands reaching in between boards if asked) and
``expected.json`` (``players``, ``tiles``, the ``expected`` actions, the ``final`` board).
"""
from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.hexgrid import CELL_NAMES, pixel_of

from . import art, camera
from .play import Setup, game_turns, read_boards, table_setup
from .style import TableStyle, random_style

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
    homography: np.ndarray = field(repr=False)   # board units -> pixels (table.json "cards": hand-laid offsets)


@dataclass
class GameSample:
    seed: int
    table: dict
    frames: list[Frame]
    expected: dict               # expected.json
    boards: list[dict] = field(repr=False)       # every board shown, in order (setup first)


class TablePainter:
    """Draws one table's frames: the static art is painted once, pieces on each frame."""

    def __init__(self, style: TableStyle, tiles, seed: int):
        self.style = style
        self.layer, self.mask = art.board_layer(style, tiles)
        rng = np.random.default_rng([seed, 1])
        self.background = camera.table_background(style.table_colour, rng)
        self.gain = camera.light_field(style.camera)
        self.seed = seed

    def composed(self, board: dict, index: int) -> np.ndarray:
        """The position under the camera, before light and sensor (BGR)."""
        rng = np.random.default_rng([self.seed, 2, index])
        canvas = art.draw_pieces(self.layer, self.style, board, rng)
        return camera.compose(canvas, self.mask, self.background, self.style.camera)

    def shoot(self, image: np.ndarray, name: str, index: int) -> Frame:
        return Frame(name, camera.photograph(image, self.style.camera, self.gain, self.seed * 100_003 + index))

    def cell_pixel(self, cell: str) -> tuple[float, float]:
        h = camera.board_to_image(self.style.camera)
        x, y = pixel_of(CELL_NAMES.index(cell), 1.0)
        p = h @ np.array([x, y, 1.0])
        return (float(p[0] / p[2]), float(p[1] / p[2]))


def _truth(setup: Setup, board: dict) -> dict:
    return {"tiles": setup.tiles, "players": list(setup.game.players), **board}


def plan_table(seed: int, kind: str = "table") -> tuple[Setup, TableStyle, random.Random]:
    """What a seed's table is, before anything is drawn: the dealt game with its setup
    boards, the set's style, and the generator that goes on choosing the boards."""
    rng = random.Random(f"flatart-{kind}:{seed}")
    setup = table_setup(rng, rng.choice((2, 3, 3, 4, 4)))
    style = camera.framed(random_style(np.random.default_rng([seed, 0 if kind == "table" else 4]),
                                       len(setup.game.players)))
    return setup, style, rng


def generate_table(seed: int, reads: int = 4) -> TableSample:
    """One table: setup frames, ``reads`` read frames with their truth, ``table.json``."""
    setup, style, rng = plan_table(seed)
    painter = TablePainter(style, setup.game.tiles, seed)
    calib = [painter.shoot(painter.composed(b, i), f"calib_{i:02d}.jpg", i) for i, b in enumerate(setup.boards)]
    frames = []
    for k, board in enumerate(read_boards(setup, rng, reads)):
        index = 100 + k
        frames.append((painter.shoot(painter.composed(board, index), f"read_{k:03d}.jpg", index),
                       _truth(setup, board)))
    return TableSample(seed, style.to_json(setup.tiles), calib, frames, camera.board_to_image(style.camera))


def generate_game(seed: int, turns: int = 8, hands: bool = False) -> GameSample:
    """A whole game filmed by a still camera: setup, then ``turns`` visible turns.

    Each board is held for ``HOLD_FRAMES`` frames with fresh sensor noise; with
    ``hands``, a hand reaches over the changed cell for two to four frames before the
    new board (the board already changed under it)."""
    setup, style, rng = plan_table(seed, "game")
    tiles = setup.tiles
    painter = TablePainter(style, setup.game.tiles, seed)
    boards, expected = game_turns(setup, rng, turns)
    boards = setup.boards + boards
    frames: list[Frame] = []
    hand_rng = np.random.default_rng([seed, 3])
    for b, board in enumerate(boards):
        image = painter.composed(board, b)
        if hands and b > 0:
            changed = _changed_cell(boards[b - 1], board)
            for _ in range(int(hand_rng.integers(2, 5))):
                occluded = camera.draw_hand(image, painter.cell_pixel(changed), style.camera.pixels_per_unit, hand_rng)
                frames.append(painter.shoot(occluded, f"f{len(frames):05d}.jpg", 10_000 + len(frames)))
        for _ in range(HOLD_FRAMES):
            frames.append(painter.shoot(image, f"f{len(frames):05d}.jpg", 10_000 + len(frames)))
    final = boards[-1]
    return GameSample(seed, style.to_json(tiles), frames,
                      {"players": list(setup.game.players), "tiles": tiles, "expected": expected,
                       "final": {"mammoth": final["mammoth"], "hunters": final["hunters"], "traps": final["traps"]}},
                      boards)


def _changed_cell(before: dict, after: dict) -> str:
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
    """Write ``flat-SEED/`` under ``out``; returns its path."""
    folder = os.path.join(out, f"flat-{sample.seed}")
    os.makedirs(folder, exist_ok=True)
    for frame in sample.calib:
        _write_frame(folder, frame)
    for frame, truth in sample.reads:
        _write_frame(folder, frame)
        with open(os.path.join(folder, frame.name[:-4] + ".json"), "w", encoding="utf-8") as fh:
            json.dump(truth, fh, ensure_ascii=False)
    _write_json(os.path.join(folder, "table.json"), sample.table)
    return folder


def write_game(sample: GameSample, out: str) -> str:
    """Write ``game-SEED/`` (``frames/``, ``expected.json``, ``table.json``) under ``out``."""
    folder = os.path.join(out, f"game-{sample.seed}")
    frames = os.path.join(folder, "frames")
    os.makedirs(frames, exist_ok=True)
    for frame in sample.frames:
        _write_frame(frames, frame)
    _write_json(os.path.join(folder, "expected.json"), sample.expected)
    _write_json(os.path.join(folder, "table.json"), sample.table)
    return folder

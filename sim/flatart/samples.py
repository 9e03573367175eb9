"""Flat-art tables and whole games in the folder format of the shared vision samples
(:mod:`sim.tables` holds the format and the legal boards every generator shares).
"""
from __future__ import annotations

import random

import numpy as np

from engine.hexgrid import CELL_NAMES, pixel_of

from ..tables import (HOLD_FRAMES, Frame, GameSample, Setup, TableSample, changed_cell, game_expected, game_turns,
                      read_boards, table_setup, truth, write_game, write_table)
from . import art, camera
from .style import TableStyle, random_style

__all__ = ["HOLD_FRAMES", "Frame", "GameSample", "TableSample", "generate_game", "generate_table", "plan_table",
           "write_game", "write_table"]


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


def plan_table(seed: int, kind: str = "table") -> tuple[Setup, TableStyle, random.Random]:
    """What a seed's table is, before anything is drawn: the dealt game with its setup
    boards, the set's style, and the generator that goes on choosing the boards."""
    rng = random.Random(f"flatart-{kind}:{seed}")
    setup = table_setup(rng, rng.choice((2, 3, 3, 4, 4)))
    style = camera.framed(random_style(np.random.default_rng([seed, 0 if kind == "table" else 4]),
                                       len(setup.game.players)))
    return setup, style, rng


def generate_table(seed: int, reads: int = 4, off_board: float = 0.0) -> TableSample:
    """One table: setup frames, ``reads`` read frames with their truth, ``table.json``."""
    setup, style, rng = plan_table(seed)
    painter = TablePainter(style, setup.game.tiles, seed)
    calib = [painter.shoot(painter.composed(b, i), f"calib_{i:02d}.jpg", i) for i, b in enumerate(setup.boards)]
    frames = []
    for k, board in enumerate(read_boards(setup, rng, reads, off_board=off_board)):
        index = 100 + k
        frames.append((painter.shoot(painter.composed(board, index), f"read_{k:03d}.jpg", index),
                       truth(setup, board)))
    return TableSample(seed, style.to_json(setup.tiles), calib, frames, camera.board_to_image(style.camera))


def generate_game(seed: int, turns: int = 8, hands: bool = False) -> GameSample:
    """A whole game filmed by a still camera: setup, then ``turns`` visible turns.

    Each board is held for ``HOLD_FRAMES`` frames with fresh sensor noise; with
    ``hands``, a hand reaches over the changed cell for two to four frames before the
    new board (the board already changed under it)."""
    setup, style, rng = plan_table(seed, "game")
    painter = TablePainter(style, setup.game.tiles, seed)
    boards, expected = game_turns(setup, rng, turns)
    boards = setup.boards + boards
    frames: list[Frame] = []
    shown: list[int] = []      # (a hand reaches over the board already changed under it)
    hand_rng = np.random.default_rng([seed, 3])
    for b, board in enumerate(boards):
        image = painter.composed(board, b)
        if hands and b > 0:
            changed = changed_cell(boards[b - 1], board)
            for _ in range(int(hand_rng.integers(2, 5))):
                occluded = camera.draw_hand(image, painter.cell_pixel(changed), style.camera.pixels_per_unit, hand_rng)
                frames.append(painter.shoot(occluded, f"f{len(frames):05d}.jpg", 10_000 + len(frames)))
                shown.append(b)
        for _ in range(HOLD_FRAMES):
            frames.append(painter.shoot(image, f"f{len(frames):05d}.jpg", 10_000 + len(frames)))
            shown.append(b)
    return GameSample(seed, style.to_json(setup.tiles), frames, game_expected(setup, expected, boards[-1]), boards,
                      shown=shown)

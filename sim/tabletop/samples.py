"""Photographed tables and whole games in the folder format of the shared vision samples
(:mod:`sim.tables` holds the format and the legal boards every generator shares)."""
from __future__ import annotations

import random

import numpy as np

from ..tables import (HOLD_FRAMES, Frame, GameSample, Setup, TableSample, game_expected, game_turns, read_boards,
                      table_setup, truth)
from .lens import framed
from .scene import TableScene
from .style import TableLook, random_look

#: Folder names: ``tabletop-SEED/`` for a table, ``tabletop-game-SEED/`` for a game.
TABLE_PREFIX, GAME_PREFIX = "tabletop", "tabletop-game"


def plan_table(seed: int, kind: str = "table") -> tuple[Setup, TableLook, random.Random]:
    """What a seed's table is before anything is drawn: the dealt game with its setup
    boards, the look of the set, room and camera, and the generator choosing the boards."""
    rng = random.Random(f"tabletop-{kind}:{seed}")
    setup = table_setup(rng, rng.choice((2, 3, 3, 4, 4)))
    look = framed(random_look(np.random.default_rng([seed, 0 if kind == "table" else 4]),
                              len(setup.game.players)))
    return setup, look, rng


def generate_table(seed: int, reads: int = 4, off_board: float = 0.0) -> TableSample:
    """One table: setup frames, ``reads`` read frames with their truth, ``table.json``."""
    setup, look, rng = plan_table(seed)
    scene = TableScene(look, setup.game.tiles, seed)
    calib = [scene.shoot(scene.render(b, i), f"calib_{i:02d}.jpg", i) for i, b in enumerate(setup.boards)]
    frames = []
    for k, board in enumerate(read_boards(setup, rng, reads, off_board=off_board)):
        index = 100 + k
        frames.append((scene.shoot(scene.render(board, index), f"read_{k:03d}.jpg", index), truth(setup, board)))
    return TableSample(seed, look.to_json(setup.tiles), calib, frames, scene.camera.homography(scene.card_z),
                       prefix=TABLE_PREFIX)


def generate_game(seed: int, turns: int = 8) -> GameSample:
    """A whole game filmed by a still camera: the setup, then ``turns`` visible turns, every
    board held for ``HOLD_FRAMES`` frames that differ only in their sensor noise."""
    setup, look, rng = plan_table(seed, "game")
    scene = TableScene(look, setup.game.tiles, seed)
    boards, expected = game_turns(setup, rng, turns)
    boards = setup.boards + boards
    frames: list[Frame] = []
    for b, board in enumerate(boards):
        radiance = scene.render(board, b)
        for _ in range(HOLD_FRAMES):
            frames.append(scene.shoot(radiance, f"f{len(frames):05d}.jpg", 10_000 + len(frames)))
    return GameSample(seed, look.to_json(setup.tiles), frames, game_expected(setup, expected, boards[-1]), boards,
                      prefix=GAME_PREFIX)

"""Training and measuring the fine cell models (``vision.cell_model.FineModel``): two
yes/no questions about a few cells, asked on 64-pixel pairs.

Simulation and training only, like :mod:`sim.cell_training`, whose tables, board
location, training loop and augmentation it shares (torch is the ``[train]`` extra; the
product runs the exported ONNX files through ``cv2.dnn``).

Why models of their own: a hunter on a trap of his own colour passes for the trap alone,
and a trap under a hunter shows only a crescent beyond him. The board classifier's
32-pixel crops show a pawn's head in a handful of pixels; on the development tables its
odds answered these questions with an AUC of 0.79 and 0.90 (sim.flatart), 0.87 and 0.81
(sim.tabletop). Each model sees only the cells its question is about, twice as finely:

* ``hunter-on-trap`` (``vision/models/hunter_on_trap.onnx``): on a cell where a trap
  lies, does a hunter (anyone's) stand on it?
* ``trap-under-hunter`` (``vision/models/trap_under_hunter.onnx``): on a grass cell where
  a hunter stands, does a trap (anyone's) lie under him?

Data recipe:

1. The same tables as the cell classifier's (development seeds only, 8 read frames each):
   ``python -m sim.tabletop --out DIR --tables 300 --seed 5100000 --reads 8`` and
   ``python -m sim.flatart --out DIR --tables 300 --seed 3100000 --reads 8``.
2. ``python -m sim.fine_training extract --question Q --out q.npz DIR...``: the cells of
   every read frame the question is about, cropped 64×64 beside the same cell of the
   empty board, and labelled from the frame's truth.
3. ``python -m sim.fine_training train --out vision/models/Q.onnx q.npz...`` (30 passes
   of 12,000 pairs, as many yes as no; about 12 minutes on two cores): five 3×3 layers
   on the pair, augmented as the cell classifier's are. The shipped
   ``trap_under_hunter.onnx`` is ``train --epochs 40 --width 1.5`` (about 20 minutes);
   ``hunter_on_trap.onnx`` too since session 26 (the first width at 30 passes before).
4. ``python -m sim.fine_training measure MODEL q.npz``: AUC, and accuracy at 0.5.

Held-out seeds (7,000,000+, 7,500,000+, 8,000,000+, 8,500,000+) are never generated here.
"""
from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from engine.hexgrid import parse_cell
from vision.cell_model import FINE_CROP, PLANES, FineModel, cell_crops

from .cell_training import export, extracted_tables, fit, homography, table_locator, training_commands


def hunter_on_trap(truth: dict, tiles: dict) -> list[tuple[str, bool, bool]]:
    """Each trap's cell, whether a hunter stands on it, and whether it is its owner.

    >>> hunter_on_trap({"traps": {"1,0": "A", "2,0": "B"}, "hunters": {"A": "1,0", "B": "0,1"}}, {})
    [('1,0', True, True), ('2,0', False, False)]
    """
    standing = set(truth["hunters"].values())
    return [(cell, cell in standing, truth["hunters"].get(owner) == cell) for cell, owner in truth["traps"].items()]


def trap_under_hunter(truth: dict, tiles: dict) -> list[tuple[str, bool, bool]]:
    """Each grass cell a hunter stands on, whether a trap lies there, and whether it is his.

    >>> trap_under_hunter({"traps": {"1,0": "A"}, "hunters": {"A": "1,0", "B": "0,1", "C": "2,0"}},
    ...                   {"1,0": "grass", "0,1": "grass", "2,0": "rock"})
    [('0,1', False, False), ('1,0', True, True)]
    """
    cells = sorted({cell for cell in truth["hunters"].values() if tiles[cell] == "grass"})
    return [(cell, cell in truth["traps"], truth["hunters"].get(truth["traps"].get(cell)) == cell) for cell in cells]


QUESTIONS = {"hunter-on-trap": hunter_on_trap, "trap-under-hunter": trap_under_hunter}


def extract_table(folder: Path, question=hunter_on_trap) -> dict | None:
    """One table's cells ``question`` is about: fine crops now and on the empty board,
    its answer ``y``, and ``own`` (the trap is the hunter's own). None when there are none."""
    empty = cv2.imread(str(folder / "calib_00.jpg"))
    locator = table_locator(empty)
    reference = cell_crops(empty, homography(locator, empty), size=FINE_CROP)
    tiles = json.loads((folder / "table.json").read_text())["tiles"]
    now, refs, answers = [], [], []
    for image in sorted(folder.glob("read_*.jpg")):
        asked = question(json.loads(image.with_suffix(".json").read_text()), tiles)
        frame = cv2.imread(str(image))
        if not asked:
            continue
        try:
            h = homography(locator, frame)
        except ValueError:
            continue
        cells = [parse_cell(cell) for cell, _, _ in asked]
        now.append(cell_crops(frame, h, size=FINE_CROP, cells=cells))
        refs.append(reference[cells])
        answers += [(yes, own) for _, yes, own in asked]
    if not now:
        return None
    y, own = np.array(answers, bool).T
    return {"now": np.concatenate(now), "ref": np.concatenate(refs), "y": y, "own": own}


def extract(folders: list[Path], out: Path, question: str = "hunter-on-trap") -> None:
    tables, parts = extracted_tables(folders, partial(extract_table, question=QUESTIONS[question]))
    data = {k: np.concatenate([p[k] for p in parts]) for k in ("now", "ref", "y", "own")}
    np.savez_compressed(out, **data)
    print(f"{out}: {tables} tables, {len(data['y'])} cells ({question}), {int(data['y'].sum())} answered yes")


def network(width: float = 1.0):
    """Five 3×3 convolutions (``width`` times 8 to 48 channels) and two dense layers onto
    one answer."""
    import torch.nn as nn

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU()]

    c = [round(k * width) for k in (8, 16, 24, 32, 48)]
    return nn.Sequential(*block(PLANES, c[0]), nn.MaxPool2d(2), *block(c[0], c[1]), nn.MaxPool2d(2),
                         *block(c[1], c[2]), nn.MaxPool2d(2), *block(c[2], c[3]), nn.MaxPool2d(2),
                         *block(c[3], c[4]), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(c[4] * (FINE_CROP // 32) ** 2, 32), nn.ReLU(), nn.Linear(32, 1))


def train(data_files: list[Path], out: Path, epochs: int, seed: int = 0, batch: int = 128,
          per_epoch: int = 12000, width: float = 1.0) -> None:
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    parts = [np.load(f) for f in data_files]
    now = np.concatenate([p["now"] for p in parts])
    ref = np.concatenate([p["ref"] for p in parts])
    y = np.concatenate([p["y"] for p in parts]).astype(np.float32)[:, None]
    # As many cells answered yes as no, whichever is rarer drawn again.
    groups = (np.flatnonzero(y[:, 0] > 0), np.flatnonzero(y[:, 0] == 0))
    net = network(width)
    fit(net, (now, ref, np.zeros(len(y), bool)), y, groups, per_epoch // 2, epochs, rng, batch)
    export(net, out, FINE_CROP)


def auc(labels: np.ndarray, scores: np.ndarray) -> float:
    """The area under the ROC curve: the chance a cell answered yes scores above one answered no.

    >>> auc(np.array([0, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8]))
    0.75
    """
    labels = np.asarray(labels, bool)
    pos, neg = scores[labels], scores[~labels]
    if not len(pos) or not len(neg):
        return float("nan")
    greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(greater / (len(pos) * len(neg)))


def measure(model: Path, data_file: Path, threshold: float = 0.5) -> dict:
    """The model on stored cells: AUC over all and on the hunters' own traps alone
    (a hunter on his own trap against none), and accuracy at ``threshold``."""
    data = np.load(data_file)
    fine = FineModel(model)
    odds = np.concatenate([fine.odds(data["now"][i:i + 256], data["ref"][i:i + 256])
                           for i in range(0, len(data["y"]), 256)])
    y, own = data["y"].astype(bool), data["own"].astype(bool)
    mine = own | ~y
    return {"cells": int(len(y)), "yes": int(y.sum()), "auc": round(auc(y, odds), 4),
            "auc_own": round(auc(own[mine], odds[mine]), 4),
            "right_at_threshold": round(float(((odds >= threshold) == y).mean()), 4)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sim.fine_training", description=__doc__.split("\n")[0])
    sub = training_commands(parser, "the cells a question is about", epochs=30, per_epoch=12000)
    sub.choices["extract"].add_argument("--question", choices=sorted(QUESTIONS), default="hunter-on-trap")
    sub.choices["train"].add_argument("--width", type=float, default=1.0, help="channels, times the first net's")
    args = parser.parse_args(argv)
    if args.command == "extract":
        extract(args.folders, args.out, args.question)
    elif args.command == "train":
        train(args.data, args.out, args.epochs, args.seed, per_epoch=args.per_epoch, width=args.width)
    else:
        print(json.dumps(measure(args.model, args.data), indent=1))


if __name__ == "__main__":
    main()

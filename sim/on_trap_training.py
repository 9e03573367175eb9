"""Training and measuring the hunter-on-trap model (``vision.cell_model.HunterOnTrap``).

Simulation and training only, like :mod:`sim.cell_training`, whose tables, board
location and augmentation it shares (torch is the ``[train]`` extra; the product runs
the exported ONNX file through ``cv2.dnn``).

Why a model of its own: a hunter on a trap of his own colour passes for the trap alone.
The board classifier's 32-pixel crops show a pawn's head in a handful of pixels, and on
the development tables its hunter odds told a trap with a hunter on it from a bare one
with an AUC of 0.79 (sim.flatart) and 0.87 (sim.tabletop). This model sees only trap
cells, twice as finely (``FINE_CROP``).

Data recipe:

1. The same tables as the cell classifier's (development seeds only, 8 read frames each):
   ``python -m sim.tabletop --out DIR --tables 300 --seed 5100000 --reads 8`` and
   ``python -m sim.flatart --out DIR --tables 300 --seed 3100000 --reads 8``.
2. ``python -m sim.on_trap_training extract --out traps.npz DIR...``: every cell of a read
   frame where a trap lies, cropped 64×64 beside the same cell of the empty board, and
   labelled: does a hunter (any player's) stand on it.
3. ``python -m sim.on_trap_training train --out vision/models/hunter_on_trap.onnx *.npz``
   (30 passes of 12,000 pairs, as many with a hunter as without; about 13 minutes on two
   cores): five 3×3 layers on the pair, augmented as the cell classifier's are.
4. ``python -m sim.on_trap_training measure MODEL traps.npz``: AUC, and accuracy at 0.5.

Held-out seeds (7,000,000+, 7,500,000+, 8,000,000+, 8,500,000+) are never generated here.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from engine.hexgrid import parse_cell
from vision.cell_model import FINE_CROP, PLANES, HunterOnTrap, cell_crops

from .cell_training import export, extracted_tables, fit, homography, table_locator, training_commands


def extract_table(folder: Path) -> dict | None:
    """One table's trap cells: fine crops now and on the empty board, and whether a
    hunter stands there (``own``: his own trap). None when the table has none."""
    empty = cv2.imread(str(folder / "calib_00.jpg"))
    locator = table_locator(empty)
    reference = cell_crops(empty, homography(locator, empty), size=FINE_CROP)
    now, refs, hunter, own = [], [], [], []
    for image in sorted(folder.glob("read_*.jpg")):
        truth = json.loads(image.with_suffix(".json").read_text())
        frame = cv2.imread(str(image))
        try:
            h = homography(locator, frame)
        except ValueError:
            continue
        cells = [parse_cell(c) for c in truth["traps"]]
        if not cells:
            continue
        now.append(cell_crops(frame, h, size=FINE_CROP, cells=cells))
        refs.append(reference[cells])
        standing = set(truth["hunters"].values())
        hunter += [c in standing for c in truth["traps"]]
        own += [truth["hunters"].get(owner) == c for c, owner in truth["traps"].items()]
    if not now:
        return None
    return {"now": np.concatenate(now), "ref": np.concatenate(refs), "y": np.array(hunter), "own": np.array(own)}


def extract(folders: list[Path], out: Path) -> None:
    tables, parts = extracted_tables(folders, extract_table)
    data = {k: np.concatenate([p[k] for p in parts]) for k in ("now", "ref", "y", "own")}
    np.savez_compressed(out, **data)
    print(f"{out}: {tables} tables, {len(data['y'])} trap cells, {int(data['y'].sum())} with a hunter")


def network():
    import torch.nn as nn

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU()]

    return nn.Sequential(*block(PLANES, 8), nn.MaxPool2d(2), *block(8, 16), nn.MaxPool2d(2),
                         *block(16, 24), nn.MaxPool2d(2), *block(24, 32), nn.MaxPool2d(2),
                         *block(32, 48), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(48 * (FINE_CROP // 32) ** 2, 32), nn.ReLU(), nn.Linear(32, 1))


def train(data_files: list[Path], out: Path, epochs: int, seed: int = 0, batch: int = 128,
          per_epoch: int = 12000) -> None:
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    parts = [np.load(f) for f in data_files]
    now = np.concatenate([p["now"] for p in parts])
    ref = np.concatenate([p["ref"] for p in parts])
    y = np.concatenate([p["y"] for p in parts]).astype(np.float32)[:, None]
    # As many trap cells with a hunter as without, whichever is rarer drawn again.
    groups = (np.flatnonzero(y[:, 0] > 0), np.flatnonzero(y[:, 0] == 0))
    net = network()
    fit(net, (now, ref, np.zeros(len(y), bool)), y, groups, per_epoch // 2, epochs, rng, batch)
    export(net, out, FINE_CROP)


def auc(labels: np.ndarray, scores: np.ndarray) -> float:
    """The area under the ROC curve: the chance a cell with a hunter scores above one without.

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
    """The model on stored trap cells: AUC over all, and on a player's own traps (his
    hunter on it, against bare ones), and accuracy at ``threshold``."""
    data = np.load(data_file)
    classifier = HunterOnTrap(model)
    odds = np.concatenate([classifier.odds(data["now"][i:i + 256], data["ref"][i:i + 256])
                           for i in range(0, len(data["y"]), 256)])
    y, own = data["y"].astype(bool), data["own"].astype(bool)
    mine = own | ~y
    return {"trap_cells": int(len(y)), "with_hunter": int(y.sum()), "auc": round(auc(y, odds), 4),
            "auc_own": round(auc(own[mine], odds[mine]), 4),
            "right_at_threshold": round(float(((odds >= threshold) == y).mean()), 4)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sim.on_trap_training", description=__doc__.split("\n")[0])
    training_commands(parser, "the trap cells", epochs=30, per_epoch=12000)
    args = parser.parse_args(argv)
    if args.command == "extract":
        extract(args.folders, args.out)
    elif args.command == "train":
        train(args.data, args.out, args.epochs, args.seed, per_epoch=args.per_epoch)
    else:
        print(json.dumps(measure(args.model, args.data), indent=1))


if __name__ == "__main__":
    main()

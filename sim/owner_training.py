"""Training and measuring the owner model (``vision.cell_model.OwnerModel``): whose piece
stands on a cell, told by likeness to each player's hunter as setup saw him.

Simulation and training only, like :mod:`sim.cell_training`, whose board location and
export it shares (torch is the ``[train]`` extra; the product runs the exported ONNX
file through ``cv2.dnn``).

Why a model of its own: the reader names players by the colours setup learnt, and on
sim.tabletop development tables one hunter in six was read on another player's cell
(a pawn's shaded side, a lamp's tint, two close colours). The model embeds a cell's
pair of 32-pixel crops (now, and on the empty board) as a unit vector; a player's
piece lies near his own hunter's setup crop embedded the same way. It is trained on
whole tables at a time: each pass draws eight of a table's cells (lone hunters, hunters
on traps, lone traps) and asks which of the table's players each is, under one random
colour mix for the whole table (players and tiles alike), so what it learns is
likeness, not any generator's palette. Its input keeps each piece's own colour: both
crops less one level for the whole board (``vision.cell_model.owner_input``), the
frame's change of light divided out of the crops first.

Data recipe:

1. The same tables as the cell classifier's (development seeds only, 8 read frames each):
   ``python -m sim.tabletop --out DIR --tables 300 --seed 5100000 --reads 8`` and
   ``python -m sim.flatart --out DIR --tables 300 --seed 3100000 --reads 8``.
2. ``python -m sim.owner_training extract --out owners.npz DIR...``: each table is
   calibrated as ``maamut calibrate`` does (its setup crops kept), then every read
   frame's lone hunters and traps are cropped with their owner's seat.
3. ``python -m sim.owner_training train --epochs 40 --width 1.5 --out vision/models/owner.onnx owners.npz...``
   (the shipped model: 40 passes of 300 batches of 8 tables × 8 cells; about 12 minutes
   on two cores).
4. ``python -m sim.owner_training measure MODEL owners.npz``: how often the likeliest
   player is the owner, by kind of cell, and how often when the model is sure.

Held-out seeds (7,000,000+, 7,500,000+, 8,000,000+, 8,500,000+) are never generated here.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from engine.hexgrid import parse_cell
from vision.calibration import CalibrationError, learn
from vision.cell_model import CROP, OWNER_SHARPNESS, PLANES, OwnerModel, board_level, cell_crops, light_change, owner_input

from .cell_training import export, extracted_tables, homography, table_locator, to_uint8, turned

#: Kinds of cell asked about (``kind`` in the extracted data).
KINDS = ("hunter", "hunter on his trap", "hunter on another's trap", "lone trap")
#: Seats a table may have.
SEATS = 4


def asked_cells(truth: dict) -> list[tuple[str, int, int]]:
    """The cells of one frame whose owner is asked: ``(cell, owner's seat, kind)``
    (:data:`KINDS`); not the mammoth's, nor a cell two hunters share.

    >>> asked_cells({"players": ["A", "B"], "mammoth": "0,0", "hunters": {"A": "1,0", "B": "2,0"},
    ...              "traps": {"1,0": "A", "2,0": "A", "0,1": "B"}})
    [('1,0', 0, 1), ('2,0', 1, 2), ('0,1', 1, 3)]
    """
    seat = {p: k for k, p in enumerate(truth["players"])}
    standing: dict[str, list] = {}
    for player, cell in truth["hunters"].items():
        standing.setdefault(cell, []).append(player)
    asked = []
    for cell, players in standing.items():
        if len(players) == 1 and cell != truth["mammoth"]:
            trap = truth["traps"].get(cell)
            asked.append((cell, seat[players[0]], 0 if trap is None else 1 if trap == players[0] else 2))
    asked += [(cell, seat[owner], 3) for cell, owner in truth["traps"].items()
              if cell not in standing and cell != truth["mammoth"]]
    return asked


def extract_table(folder: Path) -> dict | None:
    """One table: its players' setup crops (as calibration keeps them) and the asked cells."""
    setup = [cv2.imread(str(f)) for f in sorted(folder.glob("calib_*.jpg"))]
    try:
        calibration = learn(setup)
    except CalibrationError as error:
        raise ValueError(str(error)) from None
    if calibration.setup_hunters is None:
        return None
    seats = len(calibration.setup_cells)
    players = np.zeros((SEATS, CROP, CROP, 3), np.uint8)
    players_ref = players.copy()
    players[:seats] = calibration.setup_hunters
    players_ref[:seats] = calibration.empty_cells[list(calibration.setup_cells)]
    locator = table_locator(setup[0])
    now, refs, owners, kinds = [], [], [], []
    for image in sorted(folder.glob("read_*.jpg")):
        asked = asked_cells(json.loads(image.with_suffix(".json").read_text()))
        frame = cv2.imread(str(image))
        try:
            h = homography(locator, frame)
        except ValueError:
            continue
        cells = [parse_cell(cell) for cell, _, _ in asked]
        if cells:
            light = light_change(cell_crops(frame, h), calibration.empty_cells)
            crops = cell_crops(frame, h, cells=cells).astype(np.float32) / light
            now.append(np.clip(crops, 0, 255).astype(np.uint8))
            refs.append(calibration.empty_cells[cells])
            owners += [seat for _, seat, _ in asked]
            kinds += [kind for _, _, kind in asked]
    if not now:
        return None
    empty_mean = np.asarray(calibration.empty_cells, np.float64).reshape(-1, 3).mean(axis=0)
    return {"players": players[None], "players_ref": players_ref[None], "seats": np.array([seats]),
            "empty_mean": empty_mean[None],
            "now": np.concatenate(now), "ref": np.concatenate(refs), "owner": np.array(owners),
            "kind": np.array(kinds)}


def extract(folders: list[Path], out: Path) -> None:
    tables, parts = extracted_tables(folders, extract_table)
    data = {k: np.concatenate([p[k] for p in parts]) for k in ("players", "players_ref", "seats", "empty_mean",
                                                                 "now", "ref", "owner", "kind")}
    data["table"] = np.concatenate([np.full(len(p["owner"]), t) for t, p in enumerate(parts)])
    np.savez_compressed(out, **data)
    print(f"{out}: {tables} tables, {len(parts)} with setup crops, {len(data['owner'])} cells")


# --- training ----------------------------------------------------------------------------

def augment_table(now: np.ndarray, ref: np.ndarray, empty_mean: np.ndarray, rng: np.random.Generator
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One table's crop pairs ``(n, s, s, 3)`` under one random colour mix and light (its
    players' pieces stay told apart by the same likeness), each pair turned, scaled,
    blurred and shifted on its own; with the board's level (:func:`board_level`) under
    the same mix, from the empty board's mean colour ``empty_mean``."""
    n = len(now)
    now, ref = now.astype(np.float32) / 255, ref.astype(np.float32) / 255
    mix = np.eye(3)[rng.permutation(3)] + rng.normal(0, 0.25, (3, 3))
    gain = np.exp(rng.normal(0, 0.3))
    now = np.einsum("nhwc,dc->nhwd", now, mix) * gain
    ref = np.einsum("nhwc,dc->nhwd", ref, mix) * gain
    mean = np.clip(mix @ (np.asarray(empty_mean) / 255) * gain, 0, 1) * 255
    now = now * np.exp(rng.normal(0, 0.05, (n, 1, 1, 3)) + rng.normal(0, 0.08, (n, 1, 1, 1)))
    out_now, out_ref = turned(now, ref, rng, scale=0.1)
    noise = rng.uniform(0, 0.03)
    out_now += rng.normal(0, noise, out_now.shape).astype(np.float32)
    out_ref += rng.normal(0, noise, out_ref.shape).astype(np.float32)
    return to_uint8(out_now), to_uint8(out_ref), board_level(mean.reshape(1, 1, 1, 3))


def network(dim: int = 32, width: float = 1.0):
    """The embedding net: five 3×3 convolutions (``width`` times 8 to 48 channels) and
    two dense layers onto ``dim`` numbers."""
    import torch.nn as nn

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU()]

    c = [round(k * width) for k in (8, 16, 24, 32, 48)]
    return nn.Sequential(*block(PLANES, c[0]), nn.MaxPool2d(2), *block(c[0], c[1]), nn.MaxPool2d(2),
                         *block(c[1], c[2]), nn.MaxPool2d(2), *block(c[2], c[3]), nn.MaxPool2d(2),
                         *block(c[3], c[4]), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(c[4] * (CROP // 32) ** 2, 64), nn.ReLU(), nn.Linear(64, dim))


def _batch(data: dict, tables: list, rng, per_table: int):
    """One batch: each table's asked cells and its players' setup pairs, augmented together."""
    now, ref, players, players_ref, owners, seats, levels = [], [], [], [], [], [], []
    for t in tables:
        cells = rng.choice(data["by_table"][t], per_table, replace=len(data["by_table"][t]) < per_table)
        a_now, a_ref, level = augment_table(np.concatenate([data["now"][cells], data["players"][t]]),
                                            np.concatenate([data["ref"][cells], data["players_ref"][t]]),
                                            data["empty_mean"][t], rng)
        now.append(a_now[:per_table])
        ref.append(a_ref[:per_table])
        players.append(a_now[per_table:])
        players_ref.append(a_ref[per_table:])
        owners.append(data["owner"][cells])
        seats.append(data["seats"][t])
        levels.append(level)
    levels = np.stack(levels)
    return ([np.concatenate(x) for x in (now, ref, players, players_ref)]
            + [np.stack(owners), np.array(seats), np.repeat(levels, per_table, 0), np.repeat(levels, SEATS, 0)])


def train(data_files: list[Path], out: Path, epochs: int, seed: int = 0, batches: int = 300,
          tables_a_batch: int = 8, per_table: int = 8, width: float = 1.0) -> None:
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    parts = [dict(np.load(f)) for f in data_files]
    offsets = np.cumsum([0] + [len(p["seats"]) for p in parts])[:-1]
    data = {k: np.concatenate([p[k] for p in parts]) for k in ("players", "players_ref", "seats", "empty_mean",
                                                                "now", "ref", "owner")}
    table = np.concatenate([p["table"] + o for p, o in zip(parts, offsets)])
    data["by_table"] = [np.flatnonzero(table == t) for t in range(len(data["seats"]))]
    usable = [t for t, cells in enumerate(data["by_table"]) if len(cells)]
    net = network(width=width)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=epochs * batches)

    def embed(now, ref, level):
        return F.normalize(net(torch.from_numpy(owner_input(now, ref, level))), dim=1)

    for epoch in range(epochs):
        start, total, right, count = time.time(), 0.0, 0, 0
        net.train()
        for _ in range(batches):
            now, ref, players, players_ref, owners, seats, level, players_level = _batch(
                data, rng.choice(usable, tables_a_batch, False), rng, per_table)
            cells = embed(now, ref, level).view(tables_a_batch, per_table, -1)
            seen = embed(players, players_ref, players_level).view(tables_a_batch, SEATS, -1)
            logits = OWNER_SHARPNESS * torch.einsum("tcd,tkd->tck", cells, seen)
            absent = torch.arange(SEATS)[None, :] >= torch.from_numpy(seats)[:, None]
            logits = logits.masked_fill(absent[:, None, :], -1e4)
            y = torch.from_numpy(owners).long()
            loss = F.cross_entropy(logits.reshape(-1, SEATS), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
            right += int((logits.argmax(-1) == y).sum())
            count += y.numel()
        print(f"epoch {epoch}: loss {total / batches:.4f}, right {right / count:.3f} ({time.time() - start:.0f} s)",
              flush=True)
    export(net, out, CROP)


def measure(model: Path, data_file: Path, sure: float = 0.9) -> dict:
    """The model on stored cells: how often its likeliest player is the owner, by kind
    of cell; how often it is ``sure`` of one, and then right."""
    data = np.load(data_file)
    owner = OwnerModel(model)
    seats = data["seats"]
    odds = np.zeros((len(data["owner"]), SEATS))
    for t, n in enumerate(seats):
        cells = np.flatnonzero(data["table"] == t)
        level = board_level(data["empty_mean"][t].reshape(1, 1, 1, 3))
        players = owner.embeddings(data["players"][t][:n], data["players_ref"][t][:n], level)
        odds[cells, :n] = owner.odds(data["now"][cells], data["ref"][cells], players, level)
    said, truth = odds.argmax(axis=1), data["owner"]
    result = {}
    for k, kind in enumerate(KINDS):
        mine = data["kind"] == k
        confident = mine & (odds.max(axis=1) >= sure)
        result[kind] = {"cells": int(mine.sum()), "right": round(float((said == truth)[mine].mean()), 4),
                        "sure": round(float(confident.sum() / max(mine.sum(), 1)), 4),
                        "right_when_sure": round(float((said == truth)[confident].mean()), 4)}
    return result


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sim.owner_training", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("extract", help="calibrate tables and crop their lone hunters and traps with their owner")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("folders", type=Path, nargs="+")
    p = sub.add_parser("train", help="train on extracted cells and export the ONNX model")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--width", type=float, default=1.0, help="channels, times the shipped net's")
    p.add_argument("data", type=Path, nargs="+")
    p = sub.add_parser("measure", help="how often a model names the owner, by kind of cell")
    p.add_argument("model", type=Path)
    p.add_argument("data", type=Path)
    args = parser.parse_args(argv)
    if args.command == "extract":
        extract(args.folders, args.out)
    elif args.command == "train":
        train(args.data, args.out, args.epochs, args.seed, width=args.width)
    else:
        print(json.dumps(measure(args.model, args.data), indent=1))


if __name__ == "__main__":
    main()

"""Training and measuring the per-cell pair classifier (``vision/cell_model.py``).

Simulation and training only: the product never imports this module, and torch is the
training-only extra ``[train]`` (``pip install -e '.[train]'``); the product runs the
exported ONNX file through ``cv2.dnn``.

Data recipe (every table in the vision samples' folder format, see ``sim/tables.py``):

1. Tables from the generators, development seeds only, 8 read frames each:
   ``python -m sim.tabletop --out DIR --tables 300 --seed 5100000 --reads 8`` and
   ``python -m sim.flatart --out DIR --tables 300 --seed 3100000 --reads 8``; and
   ``sim.render``'s kit sets (``render`` below, seeds 4,000,000-4,000,149). The
   development tables the reader is tuned and measured on (3,000,000-3,000,049,
   5,000,000-5,000,049) are not trained on.
2. ``python -m sim.cell_training extract --out train.npz DIR...``: each table's board is
   located as calibration does (cards learnt on the tiles when they disagree), every
   cell of every read frame is cropped beside the same cell of the empty board
   (``calib_00.jpg``), and labelled from the frame's truth: a hunter on it, a trap, the
   mammoth.
3. ``python -m sim.cell_training train --out vision/models/cell_pair.onnx *.npz``
   (40 passes of 16,000 pairs, about 9 minutes on one core):
   a tiny convolutional net (four 3×3 layers, 33 k weights) on 32×32 pairs, with
   what sets vary in drawn at random on every pass: one random colour mix applied to
   both crops (a new art), the light drifting between setup and now, turns and
   mirrors, a change of scale, the board fit a pixel off, blur and noise.
4. ``python -m sim.cell_training measure MODEL tables.npz``: per-cell presence accuracy.

Held-out seeds (7,000,000+, 7,500,000+, 8,000,000+, 8,500,000+) are never generated here.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from engine.hexgrid import CENTRE, NUM_CELLS, parse_cell
from vision.cell_model import CROP, LABELS, PLANES, cell_crops, pair_input
from vision.geometry import CARDS_AGREE, BoardLocator, learn_cards, refine_on_tiles


def table_locator(empty: np.ndarray) -> BoardLocator:
    """A locator for one table, its cards learnt on the empty board as calibration does."""
    locator = BoardLocator()
    geometry = locator.locate(empty)
    if geometry is None:
        raise ValueError("board markers not found on the empty board")
    if geometry.error > CARDS_AGREE * geometry.pixels_per_unit():
        refined = refine_on_tiles(empty, geometry.homography)
        locator.cards = learn_cards([(geometry.homography if refined is None else refined, geometry.seen)])
    return locator


def homography(locator: BoardLocator, frame: np.ndarray) -> np.ndarray:
    geometry = locator.fit(locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)))
    if geometry is None:
        raise ValueError("board markers not found")
    return geometry.homography


def labels(truth: dict) -> np.ndarray:
    """``(37, 4)`` yes/no per cell: a hunter on it, a trap, the mammoth, any piece."""
    out = np.zeros((NUM_CELLS, len(LABELS)), np.uint8)
    for cell in truth["hunters"].values():
        out[parse_cell(cell), 0] = 1
    for cell in truth["traps"]:
        out[parse_cell(cell), 1] = 1
    if truth.get("mammoth"):
        out[parse_cell(truth["mammoth"]), 2] = 1
    out[:, 3] = out[:, :3].any(axis=1)
    return out


def extract_table(folder: Path) -> dict:
    """Every read frame's cells of one table: crops now, crops on the empty board, labels."""
    empty = cv2.imread(str(folder / "calib_00.jpg"))
    locator = table_locator(empty)
    reference = cell_crops(empty, homography(locator, empty))
    now, refs, ys, keys = [], [], [], []
    for image in sorted(folder.glob("read_*.jpg")):
        truth = json.loads(image.with_suffix(".json").read_text())
        try:
            h = homography(locator, cv2.imread(str(image)))
        except ValueError:
            continue
        now.append(cell_crops(cv2.imread(str(image)), h))
        refs.append(reference)
        ys.append(labels(truth))
        keys.append(f"{folder.name}/{image.stem}")
    return {"now": np.concatenate(now), "ref": np.concatenate(refs), "y": np.concatenate(ys),
            "frames": np.array(keys)}


def extracted_tables(folders: list[Path], extract_one) -> tuple[int, list[dict]]:
    """``(tables, parts)``: ``extract_one`` of every table in ``folders`` (a table or a
    folder of tables); a table whose board is not found is skipped, and said so."""
    tables = sorted(t for f in folders for t in ([f] if (f / "calib_00.jpg").exists() else f.iterdir())
                    if (t / "read_000.json").exists())
    parts = []
    for table in tables:
        try:
            part = extract_one(table)
        except ValueError as error:
            print(table.name, "skipped:", error)
            continue
        if part is not None:
            parts.append(part)
    return len(tables), parts


def extract(folders: list[Path], out: Path) -> None:
    tables, parts = extracted_tables(folders, extract_table)
    data = {k: np.concatenate([p[k] for p in parts]) for k in ("now", "ref", "y")}
    data["frames"] = np.concatenate([p["frames"] for p in parts])
    np.savez_compressed(out, **data)
    print(f"{out}: {tables} tables, {len(data['y'])} cells, pieces per label {data['y'].sum(axis=0).tolist()}")


def extract_rendered(seeds: range, reads: int, out: Path) -> None:
    """Cells of ``sim.render``'s kit sets (flat tokens of every shape it draws, a
    near-black player on one set in four): per seed one set, its empty board and
    ``reads`` random positions (a few with every hunter on a trap of his colour)."""
    from sim.render import Kit, Scene, own_colour_stacks, random_layout, random_scene, render_frame
    from sim.render_palette import HELD_OUT_HUNTER_SHAPES, HELD_OUT_TRAP_SHAPES, HUNTER_SHAPES, TRAP_SHAPES

    now, refs, ys, keys = [], [], [], []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        kit = Kit.random(rng, hunter_shapes=HUNTER_SHAPES + HELD_OUT_HUNTER_SHAPES,
                         trap_shapes=TRAP_SHAPES + HELD_OUT_TRAP_SHAPES, near_black=rng.random() < 0.25)
        tiles = random_layout(rng)
        empty, truth = render_frame(Scene(tiles, CENTRE, {}, {}), kit.palette, kit.nudged(rng), rng)
        reference = cell_crops(empty, truth["homography"])
        n_hunters = int(rng.integers(2, 5))
        for k in range(reads):
            scene = (own_colour_stacks(rng, tiles, n_hunters) if k % 4 == 3
                     else random_scene(rng, tiles=tiles, n_hunters=n_hunters))
            image, truth = render_frame(scene, kit.palette, kit.nudged(rng), rng)
            now.append(cell_crops(image, truth["homography"]))
            refs.append(reference)
            ys.append(labels(scene.to_json()))
            keys.append(f"render-{seed}/{k}")
    data = {"now": np.concatenate(now), "ref": np.concatenate(refs), "y": np.concatenate(ys), "frames": np.array(keys)}
    np.savez_compressed(out, **data)
    print(f"{out}: {len(seeds)} sets, {len(data['y'])} cells, pieces per label {data['y'].sum(axis=0).tolist()}")


def _with_piece(y: np.ndarray) -> np.ndarray:
    """Labels with the "any piece" column (files extracted before it had three)."""
    return y if y.shape[1] == len(LABELS) else np.concatenate([y, y.any(axis=1, keepdims=True)], axis=1)


def _cross(n: int) -> np.ndarray:
    """The cross flag of cells stored board by board (37 a frame)."""
    return np.arange(n) % NUM_CELLS == CENTRE


# --- augmentation: what players' sets and tables vary in -------------------------------

def augment(now: np.ndarray, ref: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One random variant of a batch of crop pairs (uint8 BGR ``(n, s, s, 3)``)."""
    n = len(now)
    now, ref = now.astype(np.float32) / 255, ref.astype(np.float32) / 255
    # A new art: one random colour mix (a channel permutation and a near-identity matrix)
    # for both crops of a pair, so tiles and pieces take colours no generator drew.
    mix = np.stack([np.eye(3)[rng.permutation(3)] for _ in range(n)]) + rng.normal(0, 0.25, (n, 3, 3))
    gain = np.exp(rng.normal(0, 0.3, (n, 1, 1, 1)))
    now = np.einsum("nhwc,ndc->nhwd", now, mix) * gain
    ref = np.einsum("nhwc,ndc->nhwd", ref, mix) * gain
    # The light drifts between setup and now (per channel and overall).
    now = now * np.exp(rng.normal(0, 0.08, (n, 1, 1, 3)) + rng.normal(0, 0.15, (n, 1, 1, 1)))
    out_now, out_ref = turned(now, ref, rng)
    noise = rng.uniform(0, 0.03, (n, 1, 1, 1))
    out_now += rng.normal(0, 1, out_now.shape).astype(np.float32) * noise
    out_ref += rng.normal(0, 1, out_ref.shape).astype(np.float32) * noise
    return to_uint8(out_now), to_uint8(out_ref)


def turned(now: np.ndarray, ref: np.ndarray, rng: np.random.Generator,
           scale: float = 0.12) -> tuple[np.ndarray, np.ndarray]:
    """Each pair of float crops ``(n, s, s, 3)`` turned (any angle) and maybe mirrored,
    rescaled (log-normal, ``scale``), the crop now a pixel off, and both blurred alike."""
    out_now, out_ref = np.empty_like(now), np.empty_like(ref)
    size = now.shape[1]    # the crops' own side: the pair model's, or a finer model's
    centre = (size - 1) / 2
    for i in range(len(now)):
        m = cv2.getRotationMatrix2D((centre, centre), rng.uniform(0, 360), np.exp(rng.normal(0, scale)))
        if rng.random() < 0.5:
            m[0] = -m[0]
            m[0, 2] += size - 1
        shift = rng.normal(0, 0.7, 2)
        m_now = m.copy()
        m_now[:, 2] += shift
        out_now[i] = cv2.warpAffine(now[i], m_now, (size, size), borderMode=cv2.BORDER_REFLECT)
        out_ref[i] = cv2.warpAffine(ref[i], m, (size, size), borderMode=cv2.BORDER_REFLECT)
        sigma = rng.uniform(0, 1.2)
        if sigma > 0.3:
            out_now[i] = cv2.GaussianBlur(out_now[i], (0, 0), sigma)
            out_ref[i] = cv2.GaussianBlur(out_ref[i], (0, 0), sigma * rng.uniform(0.7, 1.3))
    return out_now, out_ref


def to_uint8(crops: np.ndarray) -> np.ndarray:
    """Float crops (0 to 1) back to 8-bit values."""
    return np.clip(crops * 255, 0, 255).astype(np.uint8)


# --- the network -----------------------------------------------------------------------

def network():
    import torch.nn as nn

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU()]

    return nn.Sequential(*block(PLANES, 8), nn.MaxPool2d(2), *block(8, 16), nn.MaxPool2d(2),
                         *block(16, 32), nn.MaxPool2d(2), *block(32, 48), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(48 * (CROP // 16) ** 2, 64), nn.ReLU(),
                         nn.Linear(64, len(LABELS)))


def train(data_files: list[Path], out: Path, epochs: int, seed: int = 0, batch: int = 128,
          per_epoch: int = 8000) -> None:
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    parts = [np.load(f) for f in data_files]
    now = np.concatenate([p["now"] for p in parts])
    ref = np.concatenate([p["ref"] for p in parts])
    y = np.concatenate([_with_piece(p["y"]) for p in parts]).astype(np.float32)
    cross = np.concatenate([_cross(len(p["y"])) for p in parts])
    # Pieces are rare against empty cells: each pass sees as many empty cells as pieces.
    pieces, empties = np.flatnonzero(y.any(axis=1)), np.flatnonzero(~y.any(axis=1))
    net = network()
    fit(net, (now, ref, cross), y, (pieces, empties), min(len(pieces), per_epoch // 2), epochs, rng, batch)
    export(net, out)


def fit(net, pairs: tuple, y: np.ndarray, groups: tuple, half: int, epochs: int, rng: np.random.Generator,
        batch: int = 128) -> None:
    """Train ``net`` on crop pairs (``pairs``: now, reference, cross flag) towards ``y``
    ``(n, answers)``: each pass draws ``half`` pairs from each of the two ``groups`` of
    indices (again when a group is smaller) and redraws every pair's look (:func:`augment`)."""
    import torch

    now, ref, cross = pairs
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=epochs * (2 * half // batch + 1))
    loss_fn = torch.nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        start = time.time()
        order = rng.permutation(np.concatenate([rng.choice(g, half, replace=len(g) < half) for g in groups]))
        net.train()
        total = 0.0
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            a_now, a_ref = augment(now[idx], ref[idx], rng)
            x = torch.from_numpy(pair_input(a_now, a_ref, cross[idx]))
            loss = loss_fn(net(x), torch.from_numpy(y[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch}: loss {total / len(order):.4f} ({time.time() - start:.0f} s)", flush=True)


def export(net, out: Path, size: int = CROP) -> None:
    import torch

    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, PLANES, size, size), str(out), input_names=["pair"],
                      output_names=["logits"], dynamic_axes={"pair": {0: "n"}, "logits": {0: "n"}},
                      opset_version=13, dynamo=False)
    print(f"{out}: {out.stat().st_size / 1e3:.0f} kB")


def measure(model: Path, data_file: Path, threshold: float = 0.5) -> dict:
    """Per-cell accuracy of the ONNX model on stored cells (each label, and all three)."""
    from vision.cell_model import CellClassifier

    data = np.load(data_file)
    classifier = CellClassifier(model)
    cross = _cross(len(data["y"]))
    probs = np.concatenate([classifier.probabilities(pair_input(data["now"][i:i + 370], data["ref"][i:i + 370],
                                                                cross[i:i + 370]))
                            for i in range(0, len(data["y"]), 370)])
    said = probs >= threshold
    truth = _with_piece(data["y"]).astype(bool)
    right = said == truth
    return {"cells": int(len(truth)), "presence_right": float(right.all(axis=1).mean()),
            **{f"{name}_right": float(right[:, k].mean()) for k, name in enumerate(LABELS)},
            **{f"{name}_missed": int((truth[:, k] & ~said[:, k]).sum()) for k, name in enumerate(LABELS)},
            **{f"{name}_phantoms": int((~truth[:, k] & said[:, k]).sum()) for k, name in enumerate(LABELS)},
            "probabilities": probs}


def training_commands(parser: argparse.ArgumentParser, cells: str, epochs: int, per_epoch: int):
    """The ``extract``, ``train`` and ``measure`` commands of a pair model's trainer, on
    ``cells`` of the tables' read frames; returns the subparsers for more."""
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("extract", help=f"crop and label {cells} of tables' read frames")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("folders", type=Path, nargs="+")
    p = sub.add_parser("train", help="train on extracted cells and export the ONNX model")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--epochs", type=int, default=epochs)
    p.add_argument("--per-epoch", type=int, default=per_epoch, help="pairs a pass")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("data", type=Path, nargs="+")
    p = sub.add_parser("measure", help="how right a model is on extracted cells")
    p.add_argument("model", type=Path)
    p.add_argument("data", type=Path)
    return sub


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sim.cell_training", description=__doc__.split("\n")[0])
    sub = training_commands(parser, "every cell", epochs=40, per_epoch=16000)
    p = sub.add_parser("render", help="crop and label cells of sim.render's kit sets")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seed", type=int, default=4_000_000)
    p.add_argument("--sets", type=int, default=60)
    p.add_argument("--reads", type=int, default=8)
    args = parser.parse_args(argv)
    if args.command == "extract":
        extract(args.folders, args.out)
    elif args.command == "render":
        extract_rendered(range(args.seed, args.seed + args.sets), args.reads, args.out)
    elif args.command == "train":
        train(args.data, args.out, args.epochs, args.seed, per_epoch=args.per_epoch)
    else:
        result = measure(args.model, args.data)
        result.pop("probabilities")
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()

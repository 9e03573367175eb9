"""Render photographed tables: setup frames, then positions, with ground truth.

``python -m sim.photo.generate --out DIR --seed S --tables N --positions P`` writes per
table ``tNNN/setup-K.jpg`` (the empty board with the mammoth on the cross, then one
hunter more per frame, in seat order), ``tNNN/frame-KKK.jpg`` and ``tNNN/truth.json``.
Needs ``bpy`` (``pip install -e .[photo]``).
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from engine.hexgrid import cell_name

from .blender import HUNTER_KINDS


def render_table(seed: int, out: str, n_positions: int = 3, n_hunters: int | None = None, samples: int = 16,
                 threads: int = 2, max_tilt_deg: float = 22.0, hunter_kinds=None, lens_mm: float | None = None) -> dict:
    from sim.render import random_layout, random_scene, setup_scenes
    from .blender import BlenderScene, place_pieces, random_photo_look

    rng = np.random.default_rng(seed)
    look = random_photo_look(rng, max_tilt_deg=max_tilt_deg, hunter_kinds=hunter_kinds or HUNTER_KINDS)
    look.seed = seed
    if lens_mm is not None:
        look.camera["lens"] = float(lens_mm)
    tiles = random_layout(rng)
    n_hunters = int(rng.integers(2, 5)) if n_hunters is None else n_hunters
    os.makedirs(out, exist_ok=True)
    table = BlenderScene(look, tiles, samples=samples, threads=threads)
    truth = {"seed": seed, "look": look.to_json(), "tiles": {cell_name(i): t for i, t in enumerate(tiles)},
             "setup": [], "frames": [], "seconds_per_frame": None}
    timings = []
    # Hunters keep their physical spot from one setup frame to the next.
    setup = setup_scenes(tiles, rng, n_hunters)
    placed = {}
    for index, scene in enumerate(setup):
        placements = place_pieces(scene, rng)
        for p in placements:
            key = (p.kind, p.owner)
            placed.setdefault(key, p)
        placements = [placed[(p.kind, p.owner)] for p in placements]
        table.clear_pieces()
        table.add_pieces(placements)
        name = f"setup-{index}.jpg"
        start = time.perf_counter()
        table.render(os.path.join(out, name))
        timings.append(time.perf_counter() - start)
        truth["setup"].append({"file": name, **scene.to_json(), "pieces": [p.__dict__ for p in placements]})
    for index in range(n_positions):
        scene = random_scene(rng, tiles=tiles, n_hunters=n_hunters)
        placements = place_pieces(scene, rng)
        table.clear_pieces()
        table.add_pieces(placements)
        name = f"frame-{index:03d}.jpg"
        start = time.perf_counter()
        table.render(os.path.join(out, name))
        timings.append(time.perf_counter() - start)
        truth["frames"].append({"file": name, **scene.to_json(), "pieces": [p.__dict__ for p in placements]})
    truth["seconds_per_frame"] = round(float(np.mean(timings)), 2)
    truth["camera"] = table.camera_matrix()
    with open(os.path.join(out, "truth.json"), "w", encoding="utf-8") as fh:
        json.dump(truth, fh, indent=1)
    return truth


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tables", type=int, default=1)
    p.add_argument("--positions", type=int, default=3)
    p.add_argument("--samples", type=int, default=16)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-tilt", type=float, default=22.0, help="the camera's largest tilt from straight down (degrees)")
    p.add_argument("--lens", type=float, default=None, help="the camera's lens (mm, 36 mm sensor; default: random)")
    p.add_argument("--hunter-kind", choices=HUNTER_KINDS, default=None,
                   help="draw only this kind of hunter (default: any, per table)")
    args = p.parse_args(argv)
    for k in range(args.tables):
        seed = args.seed + k
        truth = render_table(seed, os.path.join(args.out, f"t{seed:06d}"), args.positions, samples=args.samples,
                             threads=args.threads, max_tilt_deg=args.max_tilt, lens_mm=args.lens, hunter_kinds=(args.hunter_kind,) if args.hunter_kind else None)
        print(f"table {seed}: {len(truth['setup'])} setup + {len(truth['frames'])} frames, "
              f"{truth['seconds_per_frame']} s/frame", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

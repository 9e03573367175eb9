"""Render a kept photo table's positions again under another light.

``python -m sim.photo.relight TABLE_DIR --out DIR`` reads ``TABLE_DIR/truth.json`` (a
table made by :mod:`sim.photo.generate`), keeps the set, the camera and every piece
where it stood, and changes only the light: a warm lamp low on the other side of the
board and brighter daylight (Blender's world light, which no print reflects the way a
lamp's gain would). It writes ``relit-KKK.jpg`` for each position and ``truth.json``
(the positions, and the look with its new light). Needs ``bpy`` (``.[photo]``).
"""
from __future__ import annotations

import argparse
import json
import os
import time

#: The light that replaces the table's own (board units; powers as in ``random_photo_look``).
RELIT_LAMPS = [{"position": (9.0, 6.0, 9.0), "size": 3.0, "power": 1.1, "colour": (1.0, 0.78, 0.55)}]
RELIT_AMBIENT = 2.2


def relight_table(folder: str, out: str, samples: int = 4, threads: int = 2, frames=None) -> dict:
    from .blender import Placement, PhotoLook, BlenderScene

    with open(os.path.join(folder, "truth.json"), encoding="utf-8") as fh:
        truth = json.load(fh)
    look_json = dict(truth["look"])
    look_json["lamps"], look_json["ambient"] = RELIT_LAMPS, RELIT_AMBIENT
    look = PhotoLook(**{k: tuple(v) if isinstance(v, list) and k not in ("players", "card_offsets", "lamps")
                        else v for k, v in look_json.items()})
    tiles = tuple(truth["tiles"][name] for name in truth["tiles"])
    os.makedirs(out, exist_ok=True)
    table = BlenderScene(look, tiles, samples=samples, threads=threads)
    relit = {"seed": truth["seed"], "from": os.path.basename(os.path.normpath(folder)), "look": look.to_json(),
             "tiles": truth["tiles"], "frames": []}
    timings = []
    for index, frame in enumerate(truth["frames"]):
        if frames is not None and index not in frames:
            continue
        table.clear_pieces()
        table.add_pieces([Placement(**p) for p in frame["pieces"]])
        name = f"relit-{index:03d}.jpg"
        start = time.perf_counter()
        table.render(os.path.join(out, name))
        timings.append(time.perf_counter() - start)
        relit["frames"].append({**frame, "file": name})
    relit["seconds_per_frame"] = round(sum(timings) / max(len(timings), 1), 2)
    with open(os.path.join(out, "truth.json"), "w", encoding="utf-8") as fh:
        json.dump(relit, fh, indent=1)
    return relit


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("table")
    p.add_argument("--out", required=True)
    p.add_argument("--samples", type=int, default=4)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--frames", default=None, help="positions to render, e.g. 0,2 (default: all)")
    args = p.parse_args(argv)
    frames = None if args.frames is None else {int(i) for i in args.frames.split(",")}
    relit = relight_table(args.table, args.out, args.samples, args.threads, frames)
    print(f"wrote {len(relit['frames'])} relit frames to {args.out} ({relit['seconds_per_frame']} s a frame)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

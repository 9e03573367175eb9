"""``maamut bench vision --photo``: calibrate and read path-traced tables.

Each table folder (made by :mod:`sim.photo.generate`) holds setup frames, position
frames and ``truth.json``. The reader is calibrated from the table's own setup frames
(as ``maamut calibrate`` does) and then reads every position frame (as ``maamut read``
does). Needs no Blender: the frames are files.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import cv2
import numpy as np

from engine.hexgrid import NUM_CELLS, parse_cell
from vision.calibration import CalibrationError, learn
from vision.reader import BoardReader

#: The frames kept in the repository.
DEFAULT_SET = Path(__file__).resolve().parents[2] / "tests" / "vision" / "data" / "photo"


def table_dirs(root=DEFAULT_SET) -> list[Path]:
    root = Path(root)
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / "truth.json").is_file())


def load_table(folder: Path):
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    return truth


def _image(folder: Path, name: str) -> np.ndarray:
    frame = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
    if frame is None:
        raise ValueError(f"cannot read {folder / name}")
    return frame


def score_frame(obs, expected: dict) -> dict:
    """Compare one observation with the truth of a frame; counts per kind of piece."""
    tiles = [None] * NUM_CELLS
    for name, tile in expected["tiles"].items():
        tiles[parse_cell(name)] = tile
    seen_tiles = obs.tiles if obs.tiles is not None else (None,) * NUM_CELLS
    tile_wrong = sum(seen_tiles[c] != tiles[c] for c in range(NUM_CELLS))
    mammoth = None if expected["mammoth"] is None else parse_cell(expected["mammoth"])
    hunters = {k: parse_cell(v) for k, v in expected["hunters"].items()}
    traps = {parse_cell(c): o for c, o in expected["traps"].items()}
    hunters_ok = sum(obs.hunters.get(k) == c for k, c in hunters.items())
    phantom_hunters = sum(hunters.get(k) != c for k, c in obs.hunters.items())
    traps_ok = sum(obs.traps.get(c) == o for c, o in traps.items())
    phantom_traps = sum(traps.get(c) != o for c, o in obs.traps.items())
    mammoth_ok = obs.mammoth == mammoth
    right = (obs.board_found and tile_wrong == 0 and mammoth_ok and hunters_ok == len(hunters)
             and phantom_hunters == 0 and traps_ok == len(traps) and phantom_traps == 0)
    return {"tile_wrong": tile_wrong, "mammoth_ok": mammoth_ok, "hunters": len(hunters), "hunters_ok": hunters_ok,
            "phantom_hunters": phantom_hunters, "traps": len(traps), "traps_ok": traps_ok,
            "phantom_traps": phantom_traps, "fully_right": bool(right), "occluded_cells": len(obs.occluded_cells)}


def run_photo_bench(root=DEFAULT_SET, reader_options: dict | None = None, pieces: str | None = None) -> dict:
    """Figures over every table in ``root``. ``pieces="kit"`` forces the kit's token
    model whatever calibration learnt: the reader as it was before figures were learnt."""
    cv2.setNumThreads(1)
    tables = table_dirs(root)
    totals = {"tables": len(tables), "calibration_failed": 0, "frames": 0, "fully_right": 0, "cells": 0,
              "tile_wrong": 0, "mammoth_found": 0, "hunters": 0, "hunters_found": 0, "phantom_hunters": 0,
              "traps": 0, "traps_found": 0, "phantom_traps": 0, "occluded_cells_reported": 0}
    timings, failures, per_table = [], [], []
    for folder in tables:
        truth = load_table(folder)
        try:
            calibration = learn([_image(folder, f["file"]) for f in truth["setup"]], pieces=pieces)
        except CalibrationError as exc:
            totals["calibration_failed"] += 1
            per_table.append({"table": folder.name, "calibration": str(exc)})
            calibration = None
        right_here = 0
        for frame in truth["frames"]:
            totals["frames"] += 1
            totals["cells"] += NUM_CELLS
            totals["hunters"] += len(frame["hunters"])
            totals["traps"] += len(frame["traps"])
            if calibration is None:
                totals["tile_wrong"] += NUM_CELLS
                failures.append(f"{folder.name}/{frame['file']}")
                continue
            image = _image(folder, frame["file"])
            reader = BoardReader(calibration, **(reader_options or {}))
            start = time.perf_counter()
            obs = reader.read(image, timestamp=0.0)
            timings.append(time.perf_counter() - start)
            s = score_frame(obs, frame)
            totals["fully_right"] += s["fully_right"]
            totals["tile_wrong"] += s["tile_wrong"]
            totals["mammoth_found"] += s["mammoth_ok"]
            totals["hunters_found"] += s["hunters_ok"]
            totals["phantom_hunters"] += s["phantom_hunters"]
            totals["traps_found"] += s["traps_ok"]
            totals["phantom_traps"] += s["phantom_traps"]
            totals["occluded_cells_reported"] += s["occluded_cells"]
            right_here += s["fully_right"]
            if not s["fully_right"]:
                failures.append(f"{folder.name}/{frame['file']}")
        per_table.append({"table": folder.name, "frames": len(truth["frames"]), "fully_right": right_here,
                          "hunter_kind": truth["look"]["hunter_kind"], "trap_kind": truth["look"]["trap_kind"]})
    frames = max(totals["frames"], 1)
    ms = 1000 * np.array(timings) if timings else np.zeros(1)
    return {
        "photo_tables": totals["tables"],
        "photo_frames": totals["frames"],
        "photo_calibration_failed": totals["calibration_failed"],
        "photo_tile_cell_error": round(totals["tile_wrong"] / max(totals["cells"], 1), 6),
        "photo_frames_fully_right": round(totals["fully_right"] / frames, 4),
        "photo_mammoth_found": round(totals["mammoth_found"] / frames, 4),
        "photo_hunters_found": f"{totals['hunters_found']}/{totals['hunters']}",
        "photo_phantom_hunters": totals["phantom_hunters"],
        "photo_traps_found": f"{totals['traps_found']}/{totals['traps']}",
        "photo_phantom_traps": totals["phantom_traps"],
        "photo_occluded_cells_reported": totals["occluded_cells_reported"],
        "photo_ms_per_frame": round(float(ms.mean()), 2),
        "photo_failed_frames": failures[:30],
        "photo_per_table": per_table,
        "photo_set": os.path.relpath(str(root)),
    }

"""``maamut bench vision --photo-games DIR``: track whole path-traced games.

Each game folder (made by :mod:`sim.photo.game`) holds the frames of one scripted game
and ``game.json``. The frames go through :class:`vision.pipeline.TrackRun` as
``maamut track`` sends a recording: 30 frames a second, each still frame repeated for
as long as the table stood still (with a little sensor noise, so no two camera frames
are bit-identical), hand frames once or twice, the pass button pressed where the game
passed. The tracked game is then compared with the script
(:func:`sim.tracker_bench.compare`). Needs no Blender: the frames are files.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np

#: The game kept in the repository.
DEFAULT_GAMES = Path(__file__).resolve().parents[2] / "tests" / "vision" / "data" / "photo_games"


def game_dirs(root) -> list[Path]:
    """Game folders under ``root`` (``root`` itself if it is one).

    >>> game_dirs("/nonexistent")
    []
    """
    root = Path(root)
    if (root / "game.json").is_file():
        return [root]
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / "game.json").is_file())


def load_game(folder) -> dict:
    return json.loads((Path(folder) / "game.json").read_text(encoding="utf-8"))


def camera_frames(folder, manifest: dict, fps: float = 30.0, noise: float = 2.0, seed: int = 0):
    """The recording: ``(timestamp, BGR frame or None for a pass press, manifest entry)``.

    ``noise`` is the sensor noise's standard deviation (grey levels) added to every
    camera frame, drawn from a generator seeded with ``seed``.
    """
    rng = np.random.default_rng(seed)
    folder = Path(folder)
    t = 0.0
    for entry in manifest["frames"]:
        if entry["kind"] == "pass":
            yield t, None, entry
            continue
        image = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"cannot read {folder / entry['file']}")
        for _ in range(entry["hold"]):
            frame = image
            if noise > 0:
                frame = np.clip(image + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
            yield t, frame, entry
            t += 1.0 / fps


def track_game(folder, required: int = 5, noise: float = 2.0):
    """Track one game folder like ``maamut track``; returns ``(run, compare result, ms per frame)``."""
    from sim.tracker_bench import compare
    from vision.pipeline import TrackRun
    from .game import script_from_json

    manifest = load_game(folder)
    script = script_from_json(manifest["script"])
    run = TrackRun(script.players, required=required)
    spent, frames = 0.0, 0
    for t, frame, _ in camera_frames(folder, manifest, noise=noise, seed=manifest["seed"]):
        if frame is None:
            run.press_pass(t)
            continue
        start = time.perf_counter()
        run.feed(t, frame)
        spent += time.perf_counter() - start
        frames += 1
    run.finish()
    return run, compare(script, run.tracker), 1000.0 * spent / max(frames, 1)


def run_photo_games_bench(root) -> dict:
    """Figures over every game folder in ``root`` (the keys ``maamut bench vision`` adds)."""
    cv2.setNumThreads(1)
    games = game_dirs(root)
    exact = false_commits = setup_failed = 0
    failed, timings = [], []
    for folder in games:
        run, result, ms = track_game(folder)
        timings.append(ms)
        exact += result["exact"]
        false_commits += result["false_commits"]
        setup_failed += run.reader is None
        if not result["exact"]:
            failed.append(folder.name)
    return {
        "photo_games": len(games),
        "photo_games_tracked_exactly": exact,
        "photo_games_false_commits": false_commits,
        "photo_games_setup_failed": setup_failed,
        "photo_games_failed": failed,
        "photo_games_ms_per_frame": round(float(np.mean(timings)), 2) if timings else 0.0,
    }

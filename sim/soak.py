"""``maamut bench soak``: the demo accelerated, for hours of stand time in minutes.

Games are played back to back by the demo with no pauses; every ``vision_every``-th
game goes through rendered frames, the reader and the tracker (the others feed the
bots' turns straight to the table). Reports games, turns, errors and the resident
memory at start and end (flat memory is the target).
"""

from __future__ import annotations

import os
import tempfile
import time

try:
    import psutil
except ImportError:  # psutil comes with the optional [bench] extra only
    def _psutil_missing(*_args, **_kwargs):
        raise SystemExit("maamut bench soak measures memory with psutil, which is not installed: "
                         "pip install 'maamut-companion[bench]'")

    class psutil:  # noqa: N801 - stands in for the module until the soak needs it
        Process = staticmethod(_psutil_missing)

from maamut.app import Companion
from maamut.config import Config

from .demo import Demo


def run_soak(games: int = 200, vision_every: int = 10, seed: int = 7) -> dict:
    process = psutil.Process()
    folder = tempfile.mkdtemp(prefix="maamut-soak-")
    cfg = Config(base_dir=folder)
    cfg.game["journal"] = os.path.join(folder, "demo-game.jsonl")
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    companion = Companion(cfg)
    rss_start = process.memory_info().rss
    start = time.monotonic()
    totals = {"games": 0, "turns": 0, "errors": 0, "vision_games": 0, "frames": 0}
    messages = []
    rss_samples = []
    try:
        for index in range(games):
            vision = bool(vision_every) and index % vision_every == 0
            demo = Demo(companion, seed=seed + index, turn_s=0, attract_s=0, vision=vision, max_games=1, fps=None)
            stats = demo.run()
            totals["games"] += stats.games
            totals["turns"] += stats.turns
            totals["errors"] += stats.errors
            totals["frames"] += stats.frames
            totals["vision_games"] += vision
            messages.extend(stats.messages[:2])
            if index % 10 == 9:
                rss_samples.append(process.memory_info().rss)
    finally:
        companion.close()
    elapsed = time.monotonic() - start
    return {
        **totals,
        "seconds": round(elapsed, 1),
        "rss_start_mb": round(rss_start / 2**20, 1),
        "rss_end_mb": round(process.memory_info().rss / 2**20, 1),
        "rss_max_mb": round(max(rss_samples or [rss_start]) / 2**20, 1),
        # the first camera game loads OpenCV's and scipy's code and buffers once; flat
        # memory means no growth after that
        "rss_after_first_10_games_mb": round(rss_samples[0] / 2**20, 1) if rss_samples else None,
        "journals_archived": len([f for f in os.listdir(folder) if f.endswith(".jsonl")]) - 1,
        "first_errors": messages[:5],
    }

"""``maamut bench web``'s La Vallée live figures: every device of the table's network
receives every update of the live game (a count, not a timing: the latency is the
benchmark's figure, never a test's assert)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from maamut.web_bench import vallee_live

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_every_device_receives_every_update_of_the_live_game(tmp_path):
    figures = vallee_live(str(tmp_path / "maps"), str(tmp_path / "vallee.jsonl"), viewers=4, updates=6)
    assert figures["vallee_missed_updates"] == 0 and figures["vallee_devices"] == 4 and figures["vallee_updates"] == 6
    latency = figures["vallee_update_latency_ms"]
    assert figures["vallee_update_p95_ms"] == latency["p95"] and 0 < latency["p50"] <= latency["p95"] <= latency["max"]


def test_bench_web_adds_the_vallee_keys_beside_the_existing_ones(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "maamut.cli", "bench", "web", "--json", "--viewers", "3",
                           "--updates", "3", "--idle", "0", "--soak-seconds", "0"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode in (0, 1), proc.stderr  # 1: a target missed on a loaded machine, still figures
    figures = json.loads(proc.stdout)
    for key in ("vallee_page_weight_kb", "vallee_editor_weight_kb", "mammut_page_weight_kb",
                "vallee_game_weight_kb", "vallee_update_p95_ms", "vallee_missed_updates"):
        assert key in figures, key
    assert figures["vallee_missed_updates"] == 0 and figures["vallee_devices"] == 3

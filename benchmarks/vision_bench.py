"""Run the vision reader benchmark outside the CLI: ``python benchmarks/vision_bench.py [SCENES]``.

Same as ``maamut bench vision --json``; see :mod:`sim.vision_bench`.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sim.vision_bench import run_vision_bench  # noqa: E402

if __name__ == "__main__":
    scenes = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(json.dumps(run_vision_bench(scenes, 1_000_000, scenes // 2), indent=1))

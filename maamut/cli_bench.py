"""``maamut bench cli``: how long the real ``maamut`` command takes to answer.

Each figure is the median wall time of ``runs`` starts of the installed ``maamut``
console command as a child process pinned to one core, stdin fed and stdout read to
the end: what an outside script that calls the referee once per position pays each
time. The targets (README, "Tests and benchmarks") are for an idle core; a machine
shared with other work gives larger figures, never smaller ones.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

#: A legal opening move (docs/engine-api.md): what ``maamut resolve`` is timed on.
RESOLVE_REQUEST = json.dumps({
    "position": "gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@0,-3;B@0,3 - A",
    "action": {"type": "move", "hunter": "A", "direction": "SE", "distance": 1},
})
#: The two-player round of docs/mammut-api.md.
MAMMUT_SCORE_REQUEST = json.dumps({
    "players": ["Ana", "Bo"], "round": 1, "shaman": {"holder": "Ana", "arrow": "red"},
    "tiles": {"Ana": {"meat": 2}, "Bo": {"fire": 1}},
})

#: figure → (arguments after ``maamut``, standard input).
COMMANDS = {
    "resolve_ms": (["resolve"], RESOLVE_REQUEST),
    "help_ms": (["--help"], ""),
    "mammut_score_ms": (["mammut", "score"], MAMMUT_SCORE_REQUEST),
    "legal_ms": (["legal"], json.dumps({"position": json.loads(RESOLVE_REQUEST)["position"]})),
}


def maamut_executable() -> list[str]:
    """The console command this interpreter installed, else the same entry run with ``-m``."""
    beside = Path(sys.executable).with_name("maamut")
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("maamut")
    return [found] if found else [sys.executable, "-m", "maamut.cli"]


def one_core() -> int | None:
    """The first core this process may run on (Linux), or None where affinity is unknown."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    return min(os.sched_getaffinity(0))


def time_command(command: list[str], stdin: str, core: int | None) -> float:
    """Wall time in ms of one run; a failed run is an error, not a fast figure."""
    pin = (lambda: os.sched_setaffinity(0, {core})) if core is not None else None
    start = time.perf_counter()
    done = subprocess.run(command, input=stdin.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          preexec_fn=pin, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "0"})
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return elapsed


def run_cli_bench(runs: int = 20) -> dict:
    """``{"resolve_ms", "help_ms", "mammut_score_ms", ...}``: medians of ``runs`` pinned starts."""
    executable = maamut_executable()
    core = one_core()
    figures: dict = {}
    for figure, (arguments, stdin) in COMMANDS.items():
        time_command(executable + arguments, stdin, core)  # warm the file cache and bytecode
        samples = [time_command(executable + arguments, stdin, core) for _ in range(runs)]
        figures[figure] = round(statistics.median(samples), 1)
    figures.update({"runs": runs, "core": core, "command": executable[0]})
    return figures


def cmd_bench_cli(args) -> dict | int:
    if args.runs < 1:
        print("maamut bench cli: --runs must be at least 1", file=sys.stderr)
        return 2
    return run_cli_bench(args.runs)


def register_bench(bench_targets) -> None:
    p = bench_targets.add_parser(
        "cli", help="start-up time of maamut resolve, legal, mammut score and --help (one core)",
        description="Run the installed maamut command as a child process pinned to one core, RUNS times per "
                    "command, and print the median wall time of each in ms (target: 300 ms or less).")
    p.add_argument("--runs", type=int, default=20, help="runs per command (default 20)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.set_defaults(handler=cmd_bench_cli)

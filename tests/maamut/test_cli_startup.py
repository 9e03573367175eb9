"""The command line imports a part's stack only when one of its commands runs.

Each command is run as its own process with ``python -X importtime``, which lists on
stderr every module the process imported: the referee's commands, Mammut's scorer,
``replay`` and the help pages must list no NumPy, OpenCV or SciPy. Speed itself is a
benchmark (``maamut bench cli``), never asserted here.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from maamut.cli import BENCHMARKS_GROUP, COMMANDS_GROUP, build_parser, plugged
from maamut.cli_bench import COMMANDS, MAMMUT_SCORE_REQUEST, RESOLVE_REQUEST

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAMERA_STACK = {"numpy", "cv2", "scipy"}


def imported_modules(arguments: list[str], stdin: str = "", code: int = 0, python: tuple = ("-m", "maamut.cli")):
    """Run ``python -X importtime`` with ``arguments``; the top-level packages it imported."""
    done = subprocess.run([sys.executable, "-X", "importtime", *python, *arguments], input=stdin.encode(),
                          capture_output=True, cwd=ROOT, timeout=120)
    assert done.returncode == code, done.stderr.decode()[-2000:]
    names = set()
    for line in done.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    assert "maamut" in names or python[0] == "-c"  # the listing was read
    return names


def test_the_import_listing_does_see_the_camera_stack():
    """The check below can fail: the camera pipeline's import shows NumPy, OpenCV and SciPy."""
    assert CAMERA_STACK <= imported_modules(["import vision.pipeline"], python=("-c",))


@pytest.mark.parametrize("arguments, stdin", [
    (["resolve"], RESOLVE_REQUEST),
    (["legal"], COMMANDS["legal_ms"][1]),
    (["mammut", "score"], MAMMUT_SCORE_REQUEST),
    (["--help"], ""),
    (["bench", "--help"], ""),
    (["mammut", "--help"], ""),
], ids=" ".join)
def test_the_referee_scorer_and_help_load_no_numpy_opencv_or_scipy(arguments, stdin):
    assert imported_modules(arguments, stdin) & CAMERA_STACK == set()


def test_replay_loads_no_numpy_opencv_or_scipy(tmp_path):
    from engine.playout import random_game

    record = tmp_path / "game.jsonl"
    record.write_text("\n".join(random_game(random.Random(4), players=2, max_turns=20).record_lines()) + "\n")
    assert imported_modules(["replay", str(record)]) & CAMERA_STACK == set()


def test_a_referee_command_declares_only_its_own_part():
    """``maamut resolve`` builds a parser with the referee's subcommands and ``bench`` alone."""
    parser = build_parser(["resolve"])
    choices = next(a for a in parser._actions if a.dest == "command").choices
    assert set(choices) == {"bench", "resolve", "legal", "replay"}


@pytest.mark.parametrize("group, path", [(COMMANDS_GROUP, []), (BENCHMARKS_GROUP, ["bench"])])
def test_every_subcommand_is_reached_by_its_own_entry_point(group, path):
    """Lazy loading finds a subcommand only by its entry point's name: the whole tree's
    subcommands and the entry points' names are the same set."""
    parser = build_parser()
    for word in path:
        parser = next(a for a in parser._actions if a.dest == "command").choices[word]
    declared = set(next(a for a in parser._actions if a.dest in ("command", "target")).choices) - {"bench"}
    assert declared == set(plugged(group))


def test_bench_cli_prints_the_three_figures_as_json():
    done = subprocess.run([sys.executable, "-m", "maamut.cli", "bench", "cli", "--runs", "1", "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert {"resolve_ms", "help_ms", "mammut_score_ms"} <= set(figures)
    assert all(figures[key] > 0 for key in ("resolve_ms", "help_ms", "mammut_score_ms"))


def test_bench_cli_refuses_zero_runs():
    done = subprocess.run([sys.executable, "-m", "maamut.cli", "bench", "cli", "--runs", "0"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and "--runs" in done.stderr and "Traceback" not in done.stderr

"""``maamut`` command line: gathers the subcommands the parts of the product plug in.

Each part declares its subcommands in a command-line module of its own and plugs them
in as entry points of this distribution (``pyproject.toml``), the way gpiozero finds
its pin factories: group ``maamut.commands`` names each subcommand and the function
that declares it on the ``maamut`` parser, group ``maamut.benchmarks`` each
``maamut bench`` target. This module names no part, so the simulation plugs in like
any other and the product never imports it.

Only the declarations a command line needs are imported: ``maamut resolve`` loads the
referee's and nothing else, ``maamut --help`` every part's but no handler's stack
(handlers import what they use when they run), so no command but the camera's pays
for NumPy, OpenCV or SciPy.
"""

from __future__ import annotations

import argparse
import json
import functools
import os
import sys
from importlib.metadata import EntryPoint, entry_points

#: Entry-point groups: subcommand name → ``module:function(subparsers)`` declaring it.
COMMANDS_GROUP = "maamut.commands"
BENCHMARKS_GROUP = "maamut.benchmarks"


@functools.cache
def plugged(group: str) -> dict[str, EntryPoint]:
    """The entry points of ``group`` by name, in the order they are declared."""
    return {point.name: point for point in entry_points(group=group)}


def wanted(argv: list[str] | None, commands: dict, benchmarks: dict) -> tuple[list, list]:
    """The command and benchmark entry points ``argv`` needs declared (``None``: all).

    ``maamut resolve ...`` needs ``resolve`` only; ``maamut bench engine ...`` the
    ``engine`` benchmark only; a help request, a typo or no command needs every
    subcommand of that level, so that argparse can list them.

    >>> wanted(["resolve"], {"resolve": 1, "legal": 2}, {"engine": 3})
    ([1], [])
    >>> wanted(["bench", "--help"], {"resolve": 1}, {"engine": 3, "web": 4})
    ([], [3, 4])
    >>> wanted(["--help"], {"resolve": 1, "legal": 2}, {"engine": 3})
    ([1, 2], [])
    """
    if argv is None:
        return list(commands.values()), list(benchmarks.values())
    first = argv[0] if argv else None
    if first in commands:
        return [commands[first]], []
    if first == "bench":
        target = argv[1] if len(argv) > 1 else None
        return [], [benchmarks[target]] if target in benchmarks else list(benchmarks.values())
    return list(commands.values()), []


def _declare(points, subparsers, declared: set) -> None:
    for point in points:
        if point.value in declared:
            continue  # one function declaring several subcommands is called once
        declared.add(point.value)
        try:
            declare = point.load()
        except ImportError as exc:
            # A part whose dependency is missing must not take the referee down with
            # it; only its own subcommands disappear, and we say why.
            print(f"maamut: {point.name} unavailable ({exc})", file=sys.stderr)
            continue
        declare(subparsers)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The ``maamut`` parser: every subcommand, or only those ``argv`` needs (see :func:`wanted`)."""
    parser = argparse.ArgumentParser(
        prog="maamut",
        description="Mâamut table companion: referee, camera reader, LEDs and web page.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    bench = subparsers.add_parser("bench", help="run a benchmark and print its figures",
                                  description="Speed, accuracy and memory figures of one part of the product "
                                              "(targets in the README); add --json for machine-readable output.")
    bench_targets = bench.add_subparsers(dest="target", metavar="TARGET")
    bench_targets.required = True
    commands, benchmarks = wanted(argv, plugged(COMMANDS_GROUP), plugged(BENCHMARKS_GROUP))
    _declare(commands, subparsers, set())
    _declare(benchmarks, bench_targets, set())
    return parser


def main(argv: list[str] | None = None) -> int:
    # OpenCV's own probing messages (no camera at /dev/video0...) would drown ours
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    argv = sys.argv[1:] if argv is None else list(argv)
    if not plugged(COMMANDS_GROUP):
        print("maamut: no subcommands are installed: install the package again (pip install -e .) so that "
              "its entry points are registered", file=sys.stderr)
        return 2
    args = build_parser(argv).parse_args(argv)
    try:
        return _finish(args, args.handler(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _finish(args, result) -> int:
    """A handler returns its exit code, or a benchmark its figures (``dict``), or its
    figures and exit code: every benchmark's figures are printed here, one way."""
    if isinstance(result, tuple):
        figures, code = result
    elif isinstance(result, dict):
        figures, code = result, 0
    else:
        return int(result or 0)
    print_figures(figures, getattr(args, "json", False))
    return code


def print_figures(figures: dict, as_json: bool) -> None:
    """A benchmark's figures: one JSON object, or one aligned line per figure.

    >>> print_figures({"games_per_s": 1580.2, "runs": 20}, as_json=False)
    games_per_s: 1580.2
           runs: 20
    >>> print_figures({"runs": 20}, as_json=True)
    {"runs": 20}
    """
    if as_json:
        print(json.dumps(figures, ensure_ascii=False))
        return
    width = max((len(key) for key in figures), default=0)
    for key, value in figures.items():
        print(f"{key:>{width}}: {value}")


if __name__ == "__main__":
    sys.exit(main())

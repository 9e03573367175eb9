"""``maamut`` command line.

Each part of the product owns its subcommands in a ``commands`` module exposing
``register(subparsers)``; this module only gathers them, so the engine never imports
the camera, LED or web code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

#: Modules that contribute subcommands, in the order they appear in ``--help``.
COMMAND_MODULES = (
    "engine.referee_cli",
    "vision.camera_cli",
    "firmware_bridge.leds_cli",
    "companion_web.web_cli",
    "maamut.table_cli",
    "sim.simulation_cli",
    "ostby_mammut.mammut_cli",
    "ai.ai_cli",
)


def build_parser() -> argparse.ArgumentParser:
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
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # that part has no subcommands
            # A part whose dependency is missing must not take the referee down with
            # it; only its own subcommands disappear, and we say why.
            print(f"maamut: {name} unavailable ({exc})", file=sys.stderr)
            continue
        module.register(subparsers)
        if hasattr(module, "register_bench"):
            module.register_bench(bench_targets)
    return parser


def main(argv: list[str] | None = None) -> int:
    # OpenCV's own probing messages (no camera at /dev/video0...) would drown ours
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

"""The web part's command line: ``maamut bench web``.

The page is served by the app's ``maamut serve`` / ``maamut demo`` (which call
``companion_web.create_app`` and ``companion_web.serve.serve``), so the web adds no
subcommand of its own.
"""

from __future__ import annotations


def register_bench(bench_subparsers, handler=None) -> None:
    """``maamut bench web``; ``handler`` (the app wiring's) measures the other games'
    pages too, which the web part does not know (``maamut.web_bench``)."""
    parser = bench_subparsers.add_parser(
        "web", help="page weight and live-update latency with many viewers (waitress, loopback)",
        description="Measure the page weight and the live-update latency with many viewers, served by "
                    "waitress on the loopback.")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--viewers", type=int, default=100, help="concurrent event-stream viewers (default 100)")
    parser.add_argument("--updates", type=int, default=40, help="state updates to time (default 40)")
    parser.add_argument("--interval", type=float, default=0.1, help="seconds between updates (default 0.1)")
    parser.add_argument("--idle", type=int, default=500,
                        help="silent connections held open for the idle-flood figure (default 500; 0 skips it)")
    parser.add_argument("--soak-pages", type=int, default=150, help="live pages of the memory soak (default 150)")
    parser.add_argument("--soak-seconds", type=float, default=600,
                        help="length of the memory soak in seconds (default 600; 0 skips it)")
    parser.set_defaults(handler=handler or _bench)


def arguments_ok(args) -> bool:
    if args.viewers < 1 or args.updates < 1 or args.interval < 0 or args.idle < 0 or args.soak_seconds < 0:
        print("maamut bench web: --viewers and --updates must be positive, --interval not negative")
        return False
    return True


def _bench(args, modes=()) -> dict | int:
    from .bench import main

    if not arguments_ok(args):
        return 2
    return main(args, modes)

"""The AI's command line: ``maamut bench ai`` (AI seats and hints are served by ``maamut serve``)."""

from __future__ import annotations

import sys


def register_bench(bench_targets) -> None:
    p = bench_targets.add_parser(
        "ai", help="the search player's win rate against the demo's bots and random hunters",
        description="One AI seat against demo bots in dealt 4-player games, seats rotated; then 2- and "
                    "3-player games and 4-player games against random hunters (--extra-games each). "
                    "ms_per_move is CPU time per AI decision on one core.")
    p.add_argument("--games", type=int, default=400, help="4-player games against the demo bots (default 400)")
    p.add_argument("--extra-games", type=int, default=100,
                   help="games of each extra figure: 2 and 3 players, random opponents (default 100; 0 skips)")
    p.add_argument("--iterations", type=int, default=300, help="search iterations per decision (default 300)")
    p.add_argument("--ms", type=float, default=1000, help="time cap per decision in ms (default 1000)")
    p.add_argument("--opponent", default="demo",
                   help="the opponents: a bot plugged in under maamut.bots (default demo, the demo's bot), "
                        "module:Class, or random")
    p.add_argument("--seed", type=int, default=20261124, help="first deal's seed")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=_bench)


def _bench(args) -> dict | int:
    from .bench import opponent_source, run_ai_bench
    from .search import Level

    if args.games < 1 or args.iterations < 1 or args.extra_games < 0:
        print("maamut bench ai: --games and --iterations must be positive", file=sys.stderr)
        return 2
    try:
        opponent_source(args.opponent)
    except ValueError as exc:
        print(f"maamut bench ai: --opponent: {exc}", file=sys.stderr)
        return 2
    level = Level(iterations=args.iterations, time_ms=args.ms)

    def progress(label):
        def report(done, wins):
            if done % 20 == 0:
                print(f"{label}: {done} games, AI won {wins}", file=sys.stderr, flush=True)
        return report

    figures = run_ai_bench(args.games, 4, level, args.opponent, args.seed, progress=progress("4 players"))
    if args.extra_games:
        figures["more"] = {
            "2_players": run_ai_bench(args.extra_games, 2, level, args.opponent, args.seed,
                                      progress=progress("2 players")),
            "3_players": run_ai_bench(args.extra_games, 3, level, args.opponent, args.seed,
                                      progress=progress("3 players")),
            "4_players_vs_random": run_ai_bench(args.extra_games, 4, level, "random", args.seed,
                                                progress=progress("vs random")),
        }
    return figures

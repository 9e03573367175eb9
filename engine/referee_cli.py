"""The referee's command line: ``resolve``, ``legal``, ``replay`` and ``bench engine``.

Declaring the arguments imports nothing else; each handler imports the engine part it
runs.
"""

from __future__ import annotations

import sys


def cmd_resolve(args) -> int:
    from rulekit.jsonrequest import serve_stdin

    from .api import resolve_request

    return serve_stdin(resolve_request)


def cmd_legal(args) -> int:
    from rulekit.jsonrequest import serve_stdin

    from .api import legal_request

    return serve_stdin(legal_request)


def cmd_replay(args) -> int:
    from rulekit.jsonrequest import print_json

    from .api import EXIT_MALFORMED
    from .explain import explain
    from .game import Game, RecordError
    from .jsonio import position_to_json
    from .notation import position_to_text

    try:
        # Undecodable bytes (a damaged file) become a bad line that replay names, not a crash.
        with open(args.record, encoding="utf-8", errors="replace") as fh:
            game = Game.replay(fh)
    except (OSError, RecordError) as exc:
        print(f"maamut replay: {exc}", file=sys.stderr)
        return EXIT_MALFORMED
    if args.json:
        print_json({"position": position_to_json(game.position), "notation": position_to_text(game.position),
                    "winner": game.winner, "turns": game.turns_played()})
    else:
        names = _display_names(game)
        for entry in game.history:
            for line in explain(_named(entry["events"], names), args.lang, with_rules=False):
                print(line)
        print(position_to_text(game.position))
    return 0


def _display_names(game) -> dict:
    """The players' names kept in the record's header (ids where it has none): what
    people read uses names, the notation keeps its ids."""
    stored = game.table.get("players") if isinstance(game.table, dict) else None
    stored = stored if isinstance(stored, dict) else {}
    return {p: stored[p]["name"] for p in game.players
            if isinstance(stored.get(p), dict) and isinstance(stored[p].get("name"), str) and stored[p]["name"].strip()}


def _named(events, names: dict) -> list:
    from .events import to_json

    return [{k: names.get(v, v) if k in ("hunter", "owner", "winner") and isinstance(v, str) else v
             for k, v in event.items()} for event in to_json(events)]


def cmd_bench(args) -> dict:
    from .bench import run_engine_bench

    return run_engine_bench(seconds=args.seconds)


def register(subparsers) -> None:
    p = subparsers.add_parser("resolve", help="apply an action to a position (JSON on stdin)",
                              description="Read one JSON request (or JSON Lines) on stdin and print the outcome. "
                                          "The position may be a JSON object or the text notation. "
                                          "Exit 0 legal, 1 illegal action, 2 malformed input. "
                                          "Forms and examples: docs/engine-api.md.")
    p.set_defaults(handler=cmd_resolve)
    p = subparsers.add_parser("legal", help="list the legal actions of the player to move (JSON on stdin)",
                              description="Read one JSON request {\"position\": ...} (or JSON Lines) on stdin and "
                                          "print the legal actions of the player to move, as JSON and in the text "
                                          "notation. The position may be a JSON object or the text notation. "
                                          "Exit 0, or 2 for malformed input. Forms and examples: "
                                          "docs/engine-api.md.")
    p.set_defaults(handler=cmd_legal)
    p = subparsers.add_parser("replay", help="replay a game record and print the trace and final position",
                              description="Replay a JSON-lines game record (see docs/notation.md), explain every "
                                          "turn and print the final position in the text notation. "
                                          "Exit 2 when the record cannot be read or replayed.")
    p.add_argument("record", help="a JSON-lines game record")
    p.add_argument("--json", action="store_true", help="print the final position as JSON")
    p.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the explanations (default en)")
    p.set_defaults(handler=cmd_replay)


def register_bench(bench_targets) -> None:
    p = bench_targets.add_parser("engine", help="flights, legal-move generation and random games per second",
                                 description="Time the engine: flights, legal-move generation, random games and "
                                             "resolve requests per second.")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--seconds", type=float, default=2.0, help="time spent on each figure")
    p.set_defaults(handler=cmd_bench)

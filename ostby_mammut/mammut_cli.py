"""Mammut's command line: ``maamut mammut score`` (JSON on stdin) and ``maamut mammut rules``.

Declaring the arguments imports nothing else; each handler imports what it runs.
"""

from __future__ import annotations

import json
import sys


def _emit(obj) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _malformed(message: str) -> dict:
    return {"ok": False, "error": {"code": "bad_request", "field": "request", "message": message,
                                   "rule": "request.format"}}


def cmd_score(args) -> int:
    from .api import EXIT_MALFORMED, score_request

    try:
        data = sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError:
        _emit(_malformed("input is not UTF-8"))
        return EXIT_MALFORMED
    if not data.strip():
        _emit(_malformed("no request on standard input"))
        return EXIT_MALFORMED
    try:
        obj = json.loads(data)
    except json.JSONDecodeError as exc:
        _emit(_malformed(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"))
        return EXIT_MALFORMED
    code, response = score_request(obj)
    if args.text and response.get("ok"):
        for line in response["lines"]:
            print(f"{line['player']:>12}  {line['points']:+3d}  {line[args.lang]}  [{line['rule']}]")
        return code
    _emit(response)
    return code


def cmd_rules(args) -> int:
    from .rulebook import RULES

    for rule in RULES.values():
        text = rule.fr if args.lang == "fr" else rule.en
        print(f"{rule.id}: {text} ({rule.section})")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("mammut", help="companion for Mammut (Kristian Amundsen Østby), the loot-sharing game",
                              description="Mammut, a different game from Mâamut: scoring and rule references.")
    sub = p.add_subparsers(dest="mammut_command", metavar="SUBCOMMAND")
    sub.required = True
    s = sub.add_parser("score", help="score one round of Mammut (one JSON request on stdin, see docs/mammut-api.md)",
                       description="Read one JSON request on stdin and print the points, skins track, species and "
                                   "card draws after the round, with a line per scored item and its rule. "
                                   "Exit 0 scored, 1 the rules forbid it, 2 malformed input.")
    s.add_argument("--text", action="store_true", help="print the scoring lines as text instead of JSON")
    s.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the --text lines (default en)")
    s.set_defaults(handler=cmd_score)
    r = sub.add_parser("rules", help="list the Mammut rule ids with their rulebook sections and our paraphrases",
                       description="Print every rule id the Mammut referee and scoring cite, with the section of the "
                                   "French rulebook (or of docs/rulings-mammut.md) and our own paraphrase.")
    r.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the paraphrases (default en)")
    r.set_defaults(handler=cmd_rules)

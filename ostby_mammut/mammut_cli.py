"""Mammut's command line: ``maamut mammut score`` and ``share`` (JSON on stdin) and ``maamut mammut rules``.

Declaring the arguments imports nothing else; each handler imports what it runs.
"""

from __future__ import annotations


def cmd_score(args) -> int:
    from rulekit.jsonrequest import answer_bytes, print_text, read_stdin, write

    from .api import score_request

    answer = answer_bytes(score_request, read_stdin())
    response = answer.responses[0]
    if args.text and not answer.lines and response.get("ok"):
        print_text("".join(f"{line['player']:>12}  {line['points']:+3d}  {line[args.lang]}  [{line['rule']}]\n"
                           for line in response["lines"]))
        return answer.code
    return write(answer)


def cmd_share(args) -> int:
    from rulekit.jsonrequest import serve_stdin

    from .api import share_request

    return serve_stdin(share_request)


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
                       description="Read one JSON request (or JSON Lines) on stdin and print the points, skins "
                                   "track, species and card draws after the round, with a line per scored item and "
                                   "its rule. Exit 0 scored, 1 the rules forbid it, 2 malformed input; JSON Lines "
                                   "get one response line each, exit 0.")
    s.add_argument("--text", action="store_true", help="print the scoring lines as text instead of JSON")
    s.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the --text lines (default en)")
    s.set_defaults(handler=cmd_score)
    h = sub.add_parser("share", help="referee one action of the sharing phase (JSON on stdin, see docs/mammut-api.md)",
                       description="Read one JSON request {\"state\": ..., \"action\": ...} (or JSON Lines) on "
                                   "stdin and print whether the action is legal, the rule it breaks or its events, "
                                   "the state after it and what the next player may do. Exit 0 legal, 1 illegal, "
                                   "2 malformed input; JSON Lines get one response line each, exit 0.")
    h.set_defaults(handler=cmd_share)
    r = sub.add_parser("rules", help="list the Mammut rule ids with their rulebook sections and our paraphrases",
                       description="Print every rule id the Mammut referee and scoring cite, with the section of the "
                                   "French rulebook (or of docs/rulings-mammut.md) and our own paraphrase.")
    r.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the paraphrases (default en)")
    r.set_defaults(handler=cmd_rules)

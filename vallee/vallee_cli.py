"""La Vallée's command line, ``maamut vallee …``: JSON on stdin (or a map file), JSON on
stdout, exit 0/1/2 (docs/vallee-api.md).

Declaring the arguments imports nothing else; each handler imports what it runs.
"""

from __future__ import annotations


def _run(handler_name: str):
    """A command answering JSON on stdin (one document, or JSON Lines) with a handler of
    :mod:`vallee.api`, through the shared request reader."""
    def command(args) -> int:
        from rulekit.jsonrequest import serve_stdin

        from . import api

        handler = getattr(api, handler_name)
        return serve_stdin(lambda request: api.answer(handler, request))
    return command


def cmd_calendar(args) -> int:
    from rulekit.jsonrequest import print_json

    from . import api

    if args.turn is None:
        return _run("calendar")(args)
    request = {"turn": args.turn, "players": args.players, "held": args.held or []}
    code, response = api.answer(api.calendar, request)
    print_json(response)
    return code


def cmd_rules(args) -> int:
    from .rulebook import RULES

    for rule in RULES.values():
        print(f"{rule.id}: {rule.fr if args.lang == 'fr' else rule.en} ({rule.section})")
    return 0


def cmd_map_check(args) -> int:
    from rulekit.jsonrequest import MAX_REQUEST_CHARS, RequestError, decode, malformed, print_json, read_json

    from .api import EXIT_MALFORMED, map_check_request

    try:
        with open(args.file, "rb") as stream:
            document = read_json(decode(stream.read(4 * MAX_REQUEST_CHARS + 1)), "file")
    except OSError as exc:
        print_json(malformed("file", f"cannot read {args.file}: {exc.strerror}"))
        return EXIT_MALFORMED
    except RequestError as exc:
        print_json(exc.to_json())
        return EXIT_MALFORMED
    code, response = map_check_request(document)
    print_json(response)
    return code


def cmd_replay(args) -> int:
    from rulekit.jsonrequest import malformed, print_json, print_text

    from .api import EXIT_MALFORMED
    from .replay import RecordProblem, replay_file

    try:
        game, phases = replay_file(args.file, args.lang)
    except RecordProblem as exc:
        if args.json:
            print_json(malformed(exc.field, exc.message))
        else:
            print_text(f"maamut vallee replay: {exc.message}\n")
        return EXIT_MALFORMED
    if args.json:
        print_json({"ok": True, "entries": len(game.entries), "phases": phases, "state": game.to_json()})
        return 0
    lines = []
    for phase in phases:
        lines.append(f"[{phase['turn']}] {phase['title']}")
        lines.extend(f"  {line}" for line in phase["lines"])
    asked = game.pending()
    if asked:
        lines.append(("Maintenant : " if args.lang == "fr" else "Now: ") + asked[args.lang])
    print_text("\n".join(lines) + "\n")
    return 0


def cmd_bench(args) -> dict:
    from .bench import run_vallee_bench

    return run_vallee_bench(seconds=args.seconds)


def register_bench(bench_targets) -> None:
    p = bench_targets.add_parser("vallee", help="La Vallée: animal phases per second, combat odds, random games per second",
                                 description="Time La Vallée's referee on one core: a whole animal phase with 40 units, "
                                             "the exact odds of 10 warriors against 10 wolves, whole random games.")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--seconds", type=float, default=2.0, help="time spent on each figure (default 2)")
    p.set_defaults(handler=cmd_bench)


def register(subparsers) -> None:
    p = subparsers.add_parser("vallee", help="companion for La Vallée des Mammouths (Bruno Faidutti)",
                              description="La Vallée des Mammouths: maps, calendar, animal movement, combat odds, "
                                          "survival ledger (docs/vallee-api.md). JSON on stdin, JSON on stdout; "
                                          "exit 0 answered, 1 the rules forbid it, 2 malformed input.")
    sub = p.add_subparsers(dest="vallee_command", metavar="SUBCOMMAND")
    sub.required = True
    m = sub.add_parser("map", help="map files: check one",
                       description="Map files of the valley (docs/vallee-api.md «Map files»): the board a group "
                                   "enters once from its own copy.")
    msub = m.add_subparsers(dest="map_command", metavar="ACTION")
    msub.required = True
    c = msub.add_parser("check", help="validate a map file and name every problem",
                        description="Exit 0 the map is a playable valley, 1 it has problems (all listed), "
                                    "2 the file is not a map file of the documented form.")
    c.add_argument("file", help="the map file (JSON, docs/vallee-api.md «Map files»)")
    c.set_defaults(handler=cmd_map_check)

    a = sub.add_parser("animals", help="move every animal for one die roll (JSON on stdin)",
                       description="Each unit's path, end cell and stop reason, the herds formed and the fields "
                                   "trampled (docs/vallee-api.md).")
    a.set_defaults(handler=_run("animals"))
    f = sub.add_parser("combat", help="exact odds of the combats on one cell; with rolls, the fight played out",
                       description="The chance each side holds the cell and the survivors' distribution, per loss "
                                   "policy; with \"rolls\", each roll with its totals and losses (docs/vallee-api.md).")
    f.set_defaults(handler=_run("combat"))
    s = sub.add_parser("survival", help="one tribe's food ledger for a turn (JSON on stdin)",
                       description="Fishing, gathering, harvest and cost lines with their rules, the balance, "
                                   "the food left and how many pawns must starve (docs/vallee-api.md).")
    s.set_defaults(handler=_run("survival"))
    e = sub.add_parser("event", help="an event card's text and the cells it hits for a die face (JSON on stdin)",
                       description="The card's deck, duration and paraphrase, and the cells a region or river die "
                                   "picks on the map, or that the die must be rolled again (docs/vallee-api.md).")
    e.set_defaults(handler=_run("event"))
    v = sub.add_parser("arrivals", help="place the animals drawn this turn on their letters' cells (JSON on stdin)",
                       description="The tokens typed in, or drawn from a seeded virtual bag, each on the edge cell "
                                   "of its letter: a new unit, joining its species' herd, or back to the bag.")
    v.set_defaults(handler=_run("arrivals"))
    b = sub.add_parser("births", help="one tribe's births at the end of a season, from given dice (JSON on stdin)",
                       description="Births per camp, each newborn's sex from its die (twins on a 6), the caps of "
                                   "ten warriors and six women (docs/vallee-api.md).")
    b.set_defaults(handler=_run("births"))
    o = sub.add_parser("standing", help="this turn's first player and order, and the victory check (JSON on stdin)",
                       description="First player by camps, pawns, food, then a draw; who must announce four camps "
                                   "and who has won at the end of the turn (docs/vallee-api.md).")
    o.set_defaults(handler=_run("standing"))
    t = sub.add_parser("move", help="is one group's move legal, and where does it stop (JSON on stdin)",
                       description="Checks a tribe's group move step by step (rivers, lake, mountains, contact, "
                                   "pass-through, events and cards); exit 1 names the rule it breaks.")
    t.set_defaults(handler=_run("move"))
    c2 = sub.add_parser("camp", help="may a tribe set up, found a camp or sow on a cell (JSON on stdin)",
                        description="Setup spacing, founding a camp, sowing a field; exit 1 names the rule broken.")
    c2.set_defaults(handler=_run("camp"))
    k = sub.add_parser("calendar", help="which phases run on a game turn, the season and the arrivals count",
                       description="With --turn, answer for that game turn; without it, read a JSON request "
                                   "({\"turn\": N, \"players\": P, \"held\": [...], \"variants\": {...}}) on stdin.")
    k.add_argument("--turn", type=int, help="the game turn, 1 for the first (summer turn 2)")
    k.add_argument("--players", type=int, default=4, help="players still in play (2 to 6, default 4)")
    k.add_argument("--held", type=int, action="append", metavar="TURN",
                   help="a turn whose season marker stayed (long winter, mild autumn); repeatable")
    k.set_defaults(handler=cmd_calendar)
    y = sub.add_parser("replay", help="replay a game journal and tell it phase by phase",
                       description="Replay a game journal (docs/vallee-game.md «The record»): every roll, draw and "
                                   "choice recorded, explained phase by phase in French or English. Exit 2 when the "
                                   "file cannot be read or one of its lines cannot be replayed.")
    y.add_argument("file", help="the game's journal (JSON lines)")
    y.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the story (default en)")
    y.add_argument("--json", action="store_true", help="print the story and the final state as one JSON object")
    y.set_defaults(handler=cmd_replay)
    r = sub.add_parser("rules", help="list the rule ids with their rulebook sections and our paraphrases",
                       description="Print every rule id the Vallée referee cites (event.* and trick.* cards "
                                   "included), with the rulebook section and our own paraphrase.")
    r.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the paraphrases (default en)")
    r.set_defaults(handler=cmd_rules)

"""La Vallée's command line, ``maamut vallee …``: JSON on stdin (or a map file), JSON on
stdout, exit 0/1/2 (docs/vallee-api.md).

Declaring the arguments imports nothing else; each handler imports what it runs.
"""

from __future__ import annotations

import json
import sys


def _emit(response: dict) -> None:
    sys.stdout.write(json.dumps(response, ensure_ascii=False) + "\n")


def _malformed(message: str, field: str = "request") -> dict:
    return {"ok": False, "error": {"code": "bad_request", "field": field, "message": message,
                                   "rule": "request.format"}}


def read_json(stream, field: str = "request"):
    """The one reader of a JSON document (stdin or a map file): ``(document, None)`` or
    ``(None, error response)``. To be replaced by the shared request reader once it lands."""
    try:
        text = stream.read(4_000_001)
        if isinstance(text, bytes):
            text = text.decode("utf-8")
    except UnicodeDecodeError:
        return None, _malformed("input is not UTF-8", field)
    if len(text) > 4_000_000:
        return None, _malformed("input is longer than 4 000 000 characters", field)
    if not text.strip():
        return None, _malformed("no JSON document given", field)
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, _malformed(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", field)
    except RecursionError:
        return None, _malformed("JSON nested too deeply", field)


def _run(handler_name: str):
    def command(args) -> int:
        from . import api

        request, error = read_json(sys.stdin.buffer)
        if error:
            _emit(error)
            return api.EXIT_MALFORMED
        code, response = api.answer(getattr(api, handler_name), request)
        _emit(response)
        return code
    return command


def cmd_calendar(args) -> int:
    from . import api

    if args.turn is None:
        return _run("calendar")(args)
    request = {"turn": args.turn, "players": args.players, "held": args.held or []}
    code, response = api.answer(api.calendar, request)
    _emit(response)
    return code


def cmd_rules(args) -> int:
    from .rulebook import RULES

    for rule in RULES.values():
        print(f"{rule.id}: {rule.fr if args.lang == 'fr' else rule.en} ({rule.section})")
    return 0


def cmd_map_check(args) -> int:
    from .api import EXIT_MALFORMED, map_check_request

    try:
        with open(args.file, "rb") as stream:
            document, error = read_json(stream, "file")
    except OSError as exc:
        document, error = None, _malformed(f"cannot read {args.file}: {exc.strerror}", "file")
    if error:
        _emit(error)
        return EXIT_MALFORMED
    code, response = map_check_request(document)
    _emit(response)
    return code


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
    r = sub.add_parser("rules", help="list the rule ids with their rulebook sections and our paraphrases",
                       description="Print every rule id the Vallée referee cites (event.* and trick.* cards "
                                   "included), with the rulebook section and our own paraphrase.")
    r.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the paraphrases (default en)")
    r.set_defaults(handler=cmd_rules)

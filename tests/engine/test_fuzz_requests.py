"""Hostile input never crashes a command or a route: every request gets the contract's answer.

Two kinds of proof. Hypothesis corrupts one field of a valid ``resolve`` request at a
time (the engine's parser names the field). A mutation corpus, built from the documented
examples, sends every command (``resolve``, ``legal``, ``mammut score``, ``mammut
share``) and every route of the app (listed from ``app.url_map``, so a new route is
fuzzed without being named here) the mutations outside testers used: 5,000-digit
integers, JSON nested 30,000 deep, lone surrogates, ``NaN``, lists or strings where
objects belong, cells written in other scripts' digits, ``+1`` and ``0_0``, ``1.0`` for
an integer, unknown keys, invalid UTF-8, and the referee PIN with spaces. The proof:
no exception escapes, no HTTP 500, no "unexpected error" in the server log, and in a
JSON Lines batch each bad line is answered alone while the good lines keep their answers.
"""

from __future__ import annotations

import copy
import json
import logging
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import legal_request, resolve_request
from engine.jsonio import position_to_json
from ostby_mammut.api import score_request, share_request
from rulekit.jsonrequest import answer_bytes

from .api_doc import examples
from .helpers import make

BASE = {"position": position_to_json(make(mammoth="0,2", rocks=["0,1"], hunters={"A": "-2,2", "B": "3,-3"})),
        "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 2}}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8)

paths = st.sampled_from([
    ("position",), ("action",), ("choices",), ("variants",),
    ("position", "tiles"), ("position", "tiles", "0,0"), ("position", "mammoth"), ("position", "players"),
    ("position", "hunters"), ("position", "hunters", "A"), ("position", "traps"), ("position", "to_move"),
    ("position", "eliminated"), ("position", "hands"), ("action", "type"), ("action", "hunter"),
    ("action", "direction"), ("action", "distance"),
])


@settings(max_examples=400, deadline=None)
@given(path=paths, value=json_values)
def test_any_corrupted_field_gives_an_answer_or_a_named_error(path, value):
    request = copy.deepcopy(BASE)
    target = request
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    code, response = resolve_request(request)
    json.dumps(response)  # always serialisable
    assert code in (0, 1, 2)
    if code == 2:
        assert response["error"]["code"] == "bad_request" and response["error"]["field"]
    if code == 1:
        assert response["error"]["code"] == "illegal_move" and response["error"]["rule"]
    legal_code, _ = legal_request({"position": request.get("position")})
    assert legal_code in (0, 2)


NOTATION = "gggg/ggggg/gggggg/gggxggg/gggrgg/ggggg/gggg 0,2 A@-2,2;B@3,-3 - A A:123;B:-"


@settings(max_examples=300, deadline=None)
@given(edits=st.lists(st.tuples(st.integers(0, len(NOTATION)), st.integers(0, 3),
                                st.text(alphabet="gsrx0123456789-,;@!:/* ABZ\u00b2\t", max_size=3)),
                      min_size=1, max_size=4))
def test_a_corrupted_text_notation_position_gives_an_answer_or_a_named_error(edits):
    text = NOTATION
    for at, cut, insert in edits:
        text = text[:at] + insert + text[at + cut:]
    request = dict(BASE, position=text)
    code, response = resolve_request(request)
    json.dumps(response)
    assert code in (0, 1, 2)
    if code == 2:
        assert response["error"]["field"].startswith("position")
    if code == 0:
        assert response["notation"]
    assert legal_request({"position": text})[0] in (0, 2)


@settings(max_examples=200, deadline=None)
@given(value=json_values)
def test_whole_requests_of_random_json_are_refused_cleanly(value):
    code, response = resolve_request(value)
    assert code in (0, 1, 2) and "ok" in response


# The mutation corpus ------------------------------------------------------------------

#: Raw JSON texts put where a value was (some are not expressible as Python values).
HOSTILE = [
    "9" * 5000, "-" + "9" * 5000, "[" * 30000 + "]" * 30000, '{"a":' * 30000 + "1" + "}" * 30000,
    '"\\ud800"', '"A\\udfff"', "NaN", "-Infinity", "1e400", "1.0", "2.0", "-1", "0", "true", "null",
    "[]", "{}", '"x"', "[1, 2]", '[{"a": 1}]', '"\u0661,\u0660"', '"\uff11,\uff10"', '"+1,0"', '"0_0"',
    '"0 ,0"', '"1,-2 "', '" A"', '"\u00e9\u00e8"', '"' + "x" * 3000 + '"', '{"type": "move"}', "12345678901234567890",
]
#: Mutations of the whole text (cut, doubled, invalid UTF-8, empty).
_MARK = "\u0000hostile\u0000"


def _paths(value, prefix=()):
    """Every path to a value inside ``value`` (dict keys and list indexes)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, prefix + (i,))


def _set(value, path, new):
    if not path:
        return new
    value = copy.deepcopy(value)
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return value


def _delete(value, path):
    value = copy.deepcopy(value)
    target = value
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return value


def mutations(seed_request, rng: random.Random, count: int) -> list[bytes]:
    """``count`` mutated request bodies made from one valid request."""
    paths = list(_paths(seed_request))
    out = []
    for _ in range(count):
        path = rng.choice(paths)
        roll = rng.random()
        if roll < 0.7:
            text = json.dumps(_set(seed_request, path, _MARK)).replace(json.dumps(_MARK), rng.choice(HOSTILE))
        elif roll < 0.8 and path:
            text = json.dumps(_delete(seed_request, path))
        elif roll < 0.9 and isinstance(_get(seed_request, path), dict):
            text = json.dumps(_set(seed_request, path, {**_get(seed_request, path), "unknown_key": 1}))
        else:
            text = json.dumps(seed_request)
            cut = rng.randrange(len(text))
            text = rng.choice([text[:cut], text[:cut] + text[cut + 1:], text + text, text[:cut] + "\u0000" + text[cut:]])
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.03:
            data = data[:len(data) // 2] + b"\xff\xfe" + data[len(data) // 2:]
        out.append(data)
    return out


def _get(value, path):
    for key in path:
        value = value[key]
    return value


def _doc_requests(command: str) -> list:
    return [json.loads(r) for e in examples() if e.command == command for r in e.requests() if _is_json(r)]


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def mammut_score_seeds() -> list:
    return [{"players": ["Ana", "Bo", "Cy"], "round": 2, "shaman": {"holder": "Bo", "arrow": "red"},
             "points": {"Ana": 3, "Bo": 0, "Cy": 6}, "skins_track": {"Ana": 1, "Bo": 0, "Cy": 2},
             "species": {"Ana": ["bear"]},
             "tiles": {"Ana": {"axe": 1, "meat": 3, "bear": 1, "wolf": 1}, "Bo": {"skin": 2, "meat": 3, "fire": 1},
                       "Cy": {"tusk": 2, "fire": 1, "axe": 2}},
             "cards": [{"card": "axes_bonus", "player": "Cy"},
                       {"card": "animal_exchange", "player": "Ana", "give": "wolf", "take": "horse"}],
             "draw_pile": 2, "discard_pile": 5, "variants": {"penalty_ties": "all"},
             "config": {"supply_per_species": 4, "skins_points": [1, 2, 3, 4, 5]}}]


def mammut_share_seeds() -> list:
    state = {"players": ["Ana", "Bo", "Cy"], "start": "Ana", "pool": {"meat": 3, "fire": 2, "skin": 1, "shaman": 1},
             "lots": {"Ana": [{"meat": 2, "tusk": 1}], "Bo": [], "Cy": []}, "to_move": "Bo", "arrow": "red",
             "hands": {"Ana": ["hidden"], "Bo": ["flip", "recall"], "Cy": []}, "played": [], "moves": 1}
    return [{"state": state, "action": {"type": "steal", "player": "Bo", "victim": "Ana", "lot": 0,
                                        "give_back": {"meat": 1}}},
            {"state": state, "action": {"type": "card", "player": "Bo", "card": "flip",
                                        "flips": [{"where": "middle", "lot": 0, "face": "meat", "to": "fire"}]}},
            {"state": state, "action": {"type": "card", "player": "Bo", "card": "recall",
                                        "targets": [{"player": "Ana", "lot": None}]}}]


COMMANDS = {"resolve": (resolve_request, lambda: _doc_requests("resolve")),
            "legal": (legal_request, lambda: _doc_requests("legal") + [{"position": BASE["position"]}]),
            "mammut score": (score_request, mammut_score_seeds),
            "mammut share": (share_request, mammut_share_seeds)}


def fuzz_commands(per_seed: int, seed: int = 23) -> Counter:
    """Send every command its mutated requests, alone and as one JSON Lines batch; count the exit codes."""
    rng = random.Random(seed)
    counts = Counter()
    for name, (handler, seeds) in COMMANDS.items():
        good = json.dumps(seeds()[0]).encode()
        good_answer = answer_bytes(handler, good).responses[0]
        for seed_request in seeds():
            bodies = mutations(seed_request, rng, per_seed)
            for body in bodies:
                answer = answer_bytes(handler, body)  # the commands' own stdin loop
                assert answer.code in (0, 1, 2), (name, body[:200])
                for response in answer.responses:
                    _is_contract_answer(response)
                    counts[(name, "ok" if response["ok"] else response["error"]["code"])] += 1
                json.dumps(answer.responses, ensure_ascii=False).encode("utf-8")  # printable as UTF-8
            single_lines = [b for b in bodies if b"\n" not in b and b.strip()]
            batch = answer_bytes(handler, b"\n".join([good, *single_lines, good]))
            assert batch.lines and batch.code == 0
            assert len(batch.responses) == len(single_lines) + 2, "one response per line"
            assert batch.responses[0] == batch.responses[-1] == good_answer, "good lines keep their answers"
            counts[(name, "batch lines")] += len(batch.responses)
    return counts


def _is_contract_answer(response) -> None:
    assert isinstance(response, dict) and isinstance(response.get("ok"), bool)
    if not response["ok"]:
        error = response["error"]
        assert error["code"] in ("bad_request", "illegal_move", "illegal_request") and error["message"]
        if error["code"] == "bad_request":
            assert error["field"] and error["rule"] == "request.format"


def test_mutated_requests_to_every_command_get_the_contract_answer_and_bad_lines_are_answered_alone():
    counts = fuzz_commands(per_seed=25)
    for name in COMMANDS:
        assert counts[(name, "bad_request")] > 0, f"{name}: the corpus reached no malformed answer"


@pytest.mark.slow
def test_many_mutated_requests_to_every_command():
    counts = fuzz_commands(per_seed=600, seed=2326)
    sent = sum(n for (_, outcome), n in counts.items() if outcome != "batch lines")
    print(f"\ncommands: {sent} mutated requests alone, {counts.total() - sent} batch lines;",
          {" ".join(k): v for k, v in sorted(counts.items())})


def test_a_batch_with_hostile_lines_through_the_real_commands_answers_every_line(monkeypatch, capsys):
    """The commands as the command line runs them (``maamut.cli.main``), stdin to stdout."""
    import io
    import sys

    from maamut.cli import main

    hostile = ['{"position": ' + "[" * 30000, '{"round": ' + "9" * 5000 + "}", '{"state": "\\ud800"}', "[1, 2]",
               '{"position": {"tiles": NaN}}']
    for argv, handler, seeds in (["resolve"], *COMMANDS["resolve"]), (["legal"], *COMMANDS["legal"]), \
            (["mammut", "score"], *COMMANDS["mammut score"]), (["mammut", "share"], *COMMANDS["mammut share"]):
        good = json.dumps(seeds()[0])
        lines = [good, *hostile, good]
        monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": io.BytesIO("\n".join(lines).encode())}))
        assert main(argv) == 0
        answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert len(answers) == len(lines)
        assert answers[0] == answers[-1] == handler(seeds()[0])[1]
        assert all(a["error"]["code"] == "bad_request" for a in answers[1:-1])
        monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": io.BytesIO(hostile[1].encode())}))
        assert main(argv) == 2
        assert json.loads(capsys.readouterr().out)["error"]["field"] in ("round", "request")


def _mammut_game_at_evaluation():
    from ostby_mammut.game import Game

    game = Game.new(["Ana", "Bo", "Cy"], seed=3, mode="page")
    game.play({"type": "take", "player": "Ana", "tiles": {"meat": 2}})
    game.play({"type": "take", "player": "Bo", "tiles": {"fire": 1}})
    game.play({"type": "take", "player": "Cy", "tiles": dict(game.sharing.pool)})
    animals = {s: 1 for s in ("bear", "bison", "boar", "deer", "horse", "ibex", "wolf")}
    evaluation = {"type": "evaluate", "arrow": "red", "cards": [],
                  "tiles": {"Ana": {"meat": 2}, "Bo": {"fire": 1},
                            "Cy": {"meat": 4, "skin": 5, "fire": 3, "tusk": 4, "axe": 5, **animals}}}
    return game, evaluation


def test_mutated_evaluations_of_a_mammut_round_get_a_named_error_or_score():
    """The page's evaluation form (``/mammut/api/action`` in the evaluation phase) on the same corpus."""
    from ostby_mammut.core import BadRequest, IllegalAction
    from rulekit.jsonrequest import RequestError, read_json

    game, evaluation = _mammut_game_at_evaluation()
    assert copy.deepcopy(game).play(evaluation)[0]["type"] == "round_scored"
    outcomes = Counter()
    for body in mutations(evaluation, random.Random(5), 150):
        try:
            action = read_json(body.decode("utf-8"))
            copy.deepcopy(game).play(action)
            outcomes["scored"] += 1
        except (RequestError, UnicodeDecodeError, BadRequest) as exc:
            outcomes["malformed"] += 1
            assert getattr(exc, "field", "request")
        except IllegalAction as exc:
            outcomes["illegal"] += 1
            assert exc.rule
    assert outcomes["malformed"] and outcomes["illegal"]


# Every route of the app ----------------------------------------------------------------

PIN = "246810"
FIGURE = "gggg/ggggg/gggggg/gggxggg/gggrgg/ggggg/gggg 0,2 A@-2,2;B@3,-3 - A"
MOVE = {"type": "move", "hunter": "A", "direction": "E", "distance": 2}
#: A documented body for each write route; a route not listed gets ``{}`` and is fuzzed all the same.
ROUTE_BODIES = {
    "/api/resolve": {"position": FIGURE, "action": MOVE, "choices": [{"hunter": "B", "to": "1,1"}]},
    "/api/legal": {"position": FIGURE, "variants": {"flee_target": "unoccupied"}},
    "/api/render": {"position": FIGURE, "events": resolve_request({"position": FIGURE, "action": MOVE})[1]["events"],
                    "marks": [{"cell": "1,1", "text": "2", "kind": "legal"}],
                    "needs": {"hunter": "B", "cell": "1,0", "options": ["1,1", "2,-1"], "rule": "flight.frighten"},
                    "players": {"A": {"name": "Ann", "colour": "#d62828"}}, "labels": True},
    "/api/notation": {"position": BASE["position"]},
    "/api/notation/parse": {"text": FIGURE},
    "/api/whatif": {"position": FIGURE, "hunter": "A", "variants": {}},
    "/api/analyse": {"position": FIGURE, "player": "A", "hand": [1, 2, 3]},
    "/api/ai/hand": {"player": "A", "cards": [1, 2]},
    "/api/game/new": {"players": [{"id": "A", "name": "Ann", "colour": "#d62828"}, {"id": "B", "name": "Bo"}],
                      "seed": 7, "variants": {"flee_target": "unoccupied"}},
    "/api/game/place": {"player": "A", "cell": "-3,0"},
    "/api/game/play": {"action": MOVE, "choices": [{"hunter": "B", "to": "1,1"}]},
    "/api/game/flee": {"cell": "1,1"},
    "/mammut/api/new": {"players": ["Ana", "Bo", "Cy"], "seed": 3, "variants": {"penalty_ties": "all"},
                        "start": "Bo"},
    "/mammut/api/action": {"action": {"type": "take", "player": "Bo", "tiles": {"meat": 2}}},
}
#: Query strings and path values for the read routes.
QUERIES = ["", "?p=" + FIGURE.replace(" ", "+"), "?p=%ED%A0%80", "?player=A", "?player=\u0661", "?since=" + "9" * 5000,
           "?since=-1", "?lang=en", "?p=" + "g" * 5000]
PATH_VALUES = {"int": ["0", "1", "9" * 5000, "-1"], "path": ["mammut.css", "../../etc/passwd", "x" * 300],
               "default": ["x"]}
PINS = [PIN, f" {PIN} ", "2468 10", "", "\u0661\u0662", PIN + "\t", "0" * 5000]


def _companion(tmp_path):
    from maamut.app import Companion
    from maamut.config import Config

    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}]
    cfg.game["journal"] = str(tmp_path / "game.jsonl")
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    cfg.web["pin"] = PIN
    return Companion(cfg, web_config={"PIN_MAX_FAILURES": 10 ** 9})


_VARIABLE = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?\w+>")


def _concrete(rule) -> list[str]:
    """Paths that exercise ``rule``, each variable filled with ordinary and hostile values."""
    paths = [rule.rule]
    while _VARIABLE.search(paths[0]):
        kind = _VARIABLE.search(paths[0]).group(1) or "default"
        paths = [_VARIABLE.sub(value, p, count=1) for p in paths for value in PATH_VALUES.get(kind, ["x"])]
    return paths


def fuzz_routes(tmp_path, per_route: int, seed: int = 23) -> Counter:
    rng = random.Random(seed)
    companion = _companion(tmp_path)
    app = companion.app
    client = app.test_client()
    counts = Counter()
    try:
        rules = [r for r in app.url_map.iter_rules()]
        assert any(r.rule.startswith("/mammut/") for r in rules), "the app factory adds every game"
        for rule in rules:
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                for path in _concrete(rule):
                    for body in _route_bodies(rule.rule, method, rng, per_route):
                        headers = {"X-Referee-PIN": rng.choice(PINS) if rng.random() < 0.2 else PIN, "X-Mammut": "1",
                                   "Last-Event-ID": rng.choice(["", "12", "9" * 5000, "\u0661"])}
                        query = rng.choice(QUERIES) if method == "GET" else ""
                        response = client.open(path + query, method=method, data=body, headers=headers,
                                               content_type="application/json")
                        status = response.status_code
                        response.close()  # the event stream: free its slot without reading it
                        assert status != 500, (method, path + query, body[:300], response.get_data()[:300])
                        counts[(method, rule.rule, status)] += 1
    finally:
        companion.close()
    return counts


def _route_bodies(route: str, method: str, rng: random.Random, per_route: int) -> list[bytes]:
    if method == "GET":
        return [b""] * max(3, per_route // 8)
    if route == "/api/game/record":
        record = json.dumps({"record": "maamut-record/1"})
        lines = [record, '{"place": "A", "cell": "\u0661,0"}', '{"seed": ' + "9" * 5000 + "}", "[" * 30000,
                 '{"place": "\\ud800"}']
        return [("\n".join(rng.sample(lines, rng.randint(1, len(lines))))).encode() for _ in range(per_route)]
    seed_body = ROUTE_BODIES.get(route, {})
    return [json.dumps(seed_body).encode()] + mutations(seed_body, rng, per_route)


def test_mutated_requests_to_every_route_never_answer_500_nor_log_a_traceback(tmp_path, caplog):
    caplog.set_level(logging.ERROR)
    counts = fuzz_routes(tmp_path, per_route=12)
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert tracebacks == [], tracebacks[0].getMessage()
    routes = {route for _, route, _ in counts}
    assert "/mammut/api/action" in routes and "/api/resolve" in routes and "/api/history/<int:turn>" in routes
    assert sum(n for (_, _, status), n in counts.items() if status == 400) > 50, "the corpus reached the parsers"


@pytest.mark.slow
def test_many_mutated_requests_to_every_route(tmp_path, caplog):
    caplog.set_level(logging.ERROR)
    counts = fuzz_routes(tmp_path, per_route=300, seed=2326)
    assert [r for r in caplog.records if r.exc_info] == []
    by_status = Counter()
    for (_, _, status), n in counts.items():
        by_status[status] += n
    print(f"\nroutes: {counts.total()} requests over {len({route for _, route, _ in counts})} routes;",
          dict(sorted(by_status.items())))

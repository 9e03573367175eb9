"""The ``maamut resolve`` / ``maamut legal`` command-line contract, run as a real process."""

import json
import os
import subprocess
import sys

import pytest

from engine.jsonio import position_to_json

from .helpers import make

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(args, stdin: str):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "maamut.cli", *args], input=stdin.encode(),
                          capture_output=True, env=env, timeout=60)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


FIGURE = position_to_json(make(mammoth="0,2", rocks=["0,1"], hunters={"A": "-2,2", "B": "3,-3"}))


def test_resolve_legal_move_exits_0_with_the_contract_fields():
    request = {"position": FIGURE, "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 2}}
    code, out, err = run(["resolve"], json.dumps(request))
    assert code == 0, err
    response = json.loads(out)
    assert set(response) == {"ok", "position", "events", "winner", "needs"}
    assert response["position"]["mammoth"] == "2,0"
    fled = [e for e in response["events"] if e["type"] == "mammoth_fled"][0]
    assert [t["direction"] for t in fled["tried"]] == ["E", "SE", "SW", "NW", "NE"]


def test_resolve_illegal_move_exits_1_with_code_and_rule():
    request = {"position": FIGURE, "action": {"type": "move", "hunter": "A", "direction": "W", "distance": 3}}
    code, out, _ = run(["resolve"], json.dumps(request))
    assert code == 1
    error = json.loads(out)["error"]
    assert error["code"] == "illegal_move" and error["rule"] == "move.straight" and error["message"]


@pytest.mark.parametrize("stdin, field", [
    ("{not json", "request"),
    (json.dumps({"position": {**FIGURE, "mammoth": "9,9"},
                 "action": {"type": "pass", "hunter": "A"}}), "position.mammoth"),
    (json.dumps({"position": FIGURE, "action": {"type": "move", "hunter": "A", "direction": "UP",
                                                "distance": 1}}), "action.direction"),
    (json.dumps({"position": FIGURE, "action": {"type": "pass", "hunter": "A"}, "variants": {"x": 1}}),
     "variants"),
    (json.dumps([1, 2]), "request"),
    ("", "request"),
])
def test_malformed_requests_exit_2_and_name_the_field_without_a_traceback(stdin, field):
    code, out, err = run(["resolve"], stdin)
    assert code == 2
    error = json.loads(out)["error"]
    assert error["code"] == "bad_request" and error["field"] == field
    assert "Traceback" not in err and "Traceback" not in out


def test_json_lines_give_one_response_per_line_in_order_and_exit_0():
    good = {"position": FIGURE, "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 2}}
    illegal = {"position": FIGURE, "action": {"type": "move", "hunter": "B", "direction": "E", "distance": 2}}
    stdin = "\n".join([json.dumps(good), "garbage", json.dumps(illegal), json.dumps(good)]) + "\n"
    code, out, _ = run(["resolve"], stdin)
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [r["ok"] for r in lines] == [True, False, False, True]
    assert lines[1]["error"]["code"] == "bad_request" and lines[2]["error"]["code"] == "illegal_move"


def test_resolve_asks_for_a_flee_choice_then_consumes_it():
    pos = position_to_json(make(mammoth="0,0", hunters={"A": "-1,0", "B": "1,0", "C": "2,0"}))
    request = {"position": pos, "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 1}}
    _, out, _ = run(["resolve"], json.dumps(request))
    needs = json.loads(out)["needs"]
    assert needs["hunter"] == "B" and sorted(needs["options"]) == ["0,1", "1,-1", "1,1", "2,-1"]
    request["choices"] = [{"hunter": "B", "to": "2,-1"}]
    code, out, _ = run(["resolve"], json.dumps(request))
    response = json.loads(out)
    assert code == 0 and response["needs"] is None and response["position"]["hunters"]["B"] == "2,-1"


def test_legal_lists_the_actions_limited_to_the_hand():
    pos = position_to_json(make(mammoth="0,0", hunters={"A": "-3,0", "B": "3,-3"},
                                hands={"A": (2, 2), "B": (1, 1, 1)}))
    code, out, _ = run(["legal"], json.dumps({"position": pos}))
    response = json.loads(out)
    assert code == 0 and response["to_move"] == "A"
    moves = [a for a in response["actions"] if a["type"] == "move"]
    assert moves and {a["distance"] for a in moves} == {2}
    assert {"type": "pass", "hunter": "A", "card": 2} in response["actions"]
    assert {"type": "place_trap", "hunter": "A"} in response["actions"]


def test_replay_prints_the_final_position_of_a_record(tmp_path):
    import random

    from engine.playout import random_game

    game = random_game(random.Random(4), players=2, max_turns=30)
    record = tmp_path / "game.jsonl"
    record.write_text("\n".join(game.record_lines()) + "\n")
    code, out, _ = run(["replay", str(record), "--json"], "")
    assert code == 0
    assert json.loads(out)["position"] == position_to_json(game.position)


FIGURE_TEXT = "gggg/ggggg/gggggg/gggxggg/gggrgg/ggggg/gggg 0,2 A@-2,2;B@3,-3 - A"


def test_resolve_and_legal_take_a_position_in_the_text_notation():
    """The text notation wherever a JSON position goes; the answer keeps the JSON form and adds it."""
    action = {"type": "move", "hunter": "A", "direction": "E", "distance": 2}
    as_text = {"position": FIGURE_TEXT, "action": action}
    as_json = {"position": FIGURE, "action": action}
    code, out, err = run(["resolve"], json.dumps(as_text) + "\n" + json.dumps(as_json) + "\n")
    assert code == 0, err
    text_answer, json_answer = (json.loads(line) for line in out.splitlines())
    assert text_answer.pop("notation") == "gggg/ggggg/gggggg/gggxggg/gggrgg/ggggg/gggg 2,0 A@0,2;B@3,-3 - B"
    assert text_answer == json_answer and "notation" not in json_answer
    code, out, _ = run(["legal"], json.dumps({"position": FIGURE_TEXT}))
    assert code == 0
    assert json.loads(out) == json.loads(run(["legal"], json.dumps({"position": FIGURE}))[1])
    code, out, _ = run(["resolve"], json.dumps({"position": FIGURE_TEXT.replace(" - A", " - Z"), "action": action}))
    assert code == 2 and json.loads(out)["error"]["field"] == "position.to_move"


def test_resolve_accepts_the_choice_of_a_forced_flee_and_refuses_another_cell():
    # B on 1,0 can only flee to 2,-1, C on 2,0 only to 3,0 (see test_golden_rulings.TWO_FORCED)
    request = {"position": "gggg/ggggg/gggrgr/gggxggg/gggrrr/ggggg/gggg 0,0 A@-1,0;B@1,0;C@2,0 - A",
               "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 2}}
    described = dict(request, choices=[{"hunter": "B", "to": "2,-1"}, {"hunter": "C", "to": "3,0"}])
    wrong = dict(request, choices=[{"hunter": "B", "to": "2,-1"}, {"hunter": "C", "to": "2,1"}])
    code, out, _ = run(["resolve"], "\n".join(json.dumps(r) for r in (request, described, wrong)) + "\n")
    plain, accepted, refused = (json.loads(line) for line in out.splitlines())
    assert accepted == plain and accepted["position"]["hunters"] == {"A": "1,0", "B": "2,-1", "C": "3,0"}
    assert refused["error"]["code"] == "illegal_move" and refused["error"]["reason"] == "bad_flee_choice"
    assert refused["error"]["options"] == ["3,0"] and refused["error"]["rule"] == "flight.frighten"
    code, _, _ = run(["resolve"], json.dumps(wrong))
    assert code == 1


def test_replay_of_a_record_with_invalid_utf8_names_the_bad_line_without_a_traceback(tmp_path):
    import random

    from engine.playout import random_game

    game = random_game(random.Random(4), players=2, max_turns=10)
    record = tmp_path / "game.jsonl"
    lines = [line.encode() for line in game.record_lines()]
    lines.insert(3, b'{"undo": tr\xff\xfeue}')
    record.write_bytes(b"\n".join(lines) + b"\n")
    code, _, err = run(["replay", str(record)], "")
    assert code == 2 and "line 4" in err and "Traceback" not in err

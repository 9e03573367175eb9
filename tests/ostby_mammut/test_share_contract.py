"""``maamut mammut share``: the examples of docs/mammut-api.md hold through the real command."""

from __future__ import annotations

import io
import json
import os
import re
import sys

import pytest

from maamut.cli import main
from ostby_mammut.api import share_request

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs",
                   "mammut-api.md")


def _block(marker: str) -> str:
    text = open(DOC, encoding="utf-8").read()
    found = re.search(rf"<!-- {re.escape(marker)} -->\n```jsonl?\n(.*?)\n```", text, re.S)
    assert found, f"docs/mammut-api.md has no block marked {marker!r}"
    return found.group(1)


def _run(argv, stdin: str, monkeypatch, capsys) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": io.BytesIO(stdin.encode("utf-8"))}))
    code = main(argv)
    return code, capsys.readouterr().out


def test_the_documented_request_gives_the_documented_response_and_exit_0(monkeypatch, capsys):
    code, out = _run(["mammut", "share"], _block("share request"), monkeypatch, capsys)
    assert code == 0 and json.loads(out) == json.loads(_block("share response: exit 0"))


def test_the_documented_json_lines_get_one_documented_line_each(monkeypatch, capsys):
    code, out = _run(["mammut", "share"], _block("share lines request"), monkeypatch, capsys)
    expected = [json.loads(line) for line in _block("share lines response: exit 0").splitlines()]
    assert code == 0 and [json.loads(line) for line in out.splitlines()] == expected
    for line, answer in zip(_block("share lines request").splitlines(), expected):
        assert share_request(json.loads(line)) == (1 if answer["error"]["code"] == "illegal_move" else 2, answer)


def test_the_state_after_feeds_the_next_request_through_a_whole_phase():
    """Chained responses referee a whole sharing phase to its end."""
    state = {"players": ["A", "B", "C"], "start": "A", "pool": {"meat": 4, "fire": 2, "shaman": 1}}
    for action in ({"type": "take", "player": "A", "tiles": {"meat": 2}},
                   {"type": "steal", "player": "B", "victim": "A", "give_back": {"meat": 1}},
                   {"type": "take", "player": "C", "tiles": {"fire": 2}},
                   {"type": "take", "player": "A", "tiles": {"meat": 3, "shaman": 1}}):
        code, out = share_request({"state": state, "action": action})
        assert code == 0, out
        state = out["state"]
    assert state["to_move"] is None and state["ended_by"] == "A" and out["options"]["over"] is True
    assert out["events"][-1] == {"type": "phase_ended", "player": "A", "rule": "share.end"}


@pytest.mark.parametrize("request_, field", [
    ({"state": {"players": ["A", "B"], "start": "A", "pool": {"meat": 9}}}, "action"),
    ({"state": {"players": ["A", "B"], "start": "A", "pool": ["meat"]}, "action": {}}, "state.pool"),
    ({"state": {"players": ["A", "B"], "start": "A", "pool": {"meat": 9}, "lots": {"A": "x"}},
      "action": {"type": "take", "player": "A", "tiles": {}}}, "state.lots.A"),
    ({"state": {"players": ["A", "B"], "start": "A", "pool": {"gold": 9}}, "action": {}}, "state.pool.gold"),
    ({"state": {"players": ["A", "B"], "start": "A", "pool": {"meat": 9}},
      "action": {"type": "take", "player": "A", "tiles": {"meat": 1}, "from": "bag"}}, "action.from"),
    ({"state": {"players": ["A", "B"], "start": "A", "pool": {"meat": 9}},
      "action": {"type": "card", "player": "A", "card": "flip", "flips": [{"where": "middle", "face": "meat",
                                                                           "to": "fire", "lot": "0"}]}},
     "action.flips.0.lot"),
    ({"state": {"players": ["A", "B"], "start": "A", "pool": {"meat": 9}, "to_move": "Z"},
      "action": {"type": "take", "player": "A", "tiles": {"meat": 1}}}, "state.to_move"),
])
def test_malformed_share_requests_exit_2_naming_the_field(request_, field):
    code, out = share_request(request_)
    assert code == 2 and out["error"]["field"] == field, out


def test_a_state_that_does_not_fit_in_the_set_is_refused_by_its_rule():
    code, out = share_request({"state": {"players": ["A", "B"], "start": "A", "pool": {"meat": 40}},
                               "action": {"type": "take", "player": "A", "tiles": {"meat": 1}}})
    assert code == 1 and out["error"]["rule"] == "request.tiles"

"""docs/engine-api.md: every request shown gives exactly the response shown, through the
command's own code and through the real ``maamut`` process; every error code and every
reason the engine can give has an example."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from .api_doc import ROOT, doc_text, examples, run_command

EXAMPLES = examples()


def _id(example):
    return f"{example.command}-line{example.line}"


def test_the_page_has_a_complete_example_of_each_command_and_exit_code():
    seen = {(e.command, e.exit_code) for e in EXAMPLES if not e.lines}
    assert {("resolve", 0), ("resolve", 1), ("resolve", 2), ("legal", 0), ("legal", 2)} <= seen
    # a complete JSON position (all 37 tiles), copyable as it stands
    full = [e for e in EXAMPLES if not e.lines and isinstance(json.loads(e.request).get("position"), dict)]
    assert full and len(json.loads(full[0].request)["position"]["tiles"]) == 37
    # and the text notation in its place
    assert any(isinstance(json.loads(e.request).get("position"), str) for e in EXAMPLES if not e.lines)


@pytest.mark.parametrize("example", EXAMPLES, ids=_id)
def test_each_documented_request_gives_exactly_the_documented_response(example):
    stdin = example.request + "\n"
    code, output = run_command(example.command, stdin)
    assert code == example.exit_code
    got = [json.loads(line) for line in output.splitlines()]
    assert got == example.responses()


def _engine_reasons() -> set[str]:
    """The reason codes ``engine.rules`` raises: ``_illegal(message, "rule.id", "reason")``."""
    with open(os.path.join(ROOT, "engine", "rules.py"), encoding="utf-8") as fh:
        source = fh.read()
    return set(re.findall(r'"[a-z_]+\.[a-z_]+",\s*"([a-z_]+)"\)', source))


#: Reasons a JSON request cannot reach: the request parser refuses these first (bad_request).
UNREACHABLE_FROM_JSON = {"bad_direction", "unknown_action"}


def test_every_error_code_and_every_reason_has_an_example():
    errors = [r["error"] for e in EXAMPLES for r in e.responses() if not r["ok"]]
    assert {err["code"] for err in errors} == {"bad_request", "illegal_move"}
    reasons = _engine_reasons()
    assert "bad_flee_choice" in reasons and "unused_choice" in reasons  # the pattern still reads rules.py
    documented = {err.get("reason") for err in errors}
    assert reasons - UNREACHABLE_FROM_JSON <= documented, reasons - UNREACHABLE_FROM_JSON - documented
    for err in errors:
        if err["code"] == "bad_request":
            assert err["field"] and err["rule"] == "request.format"
        else:
            assert err["reason"] and err["rule"]


def test_the_reasons_table_matches_the_json_lines_example():
    text = doc_text()
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \| `([^`]+)` \| `([^`]+)` \| [^|]+ \|$", text, re.M)
    (block,) = [e for e in EXAMPLES if e.lines]
    responses = block.responses()
    assert len(rows) == len(responses)
    for (number, code, what, rule), response in zip(rows, responses):
        error = response["error"]
        assert (code, rule) == (error["code"], error["rule"]), number
        assert what == (error.get("reason") or error.get("field")), number


def _run_maamut(command: str, stdin: str):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "maamut.cli", command], input=stdin.encode(),
                          capture_output=True, env=env, timeout=120)
    return proc.returncode, proc.stdout.decode()


def test_the_examples_hold_through_the_real_maamut_command():
    """One process per command: the single examples sent as JSON Lines, then the first one alone."""
    for command in ("resolve", "legal"):
        singles = [e for e in EXAMPLES if e.command == command and not e.lines]
        stdin = "\n".join(json.dumps(json.loads(e.request)) for e in singles) + "\n"
        code, output = _run_maamut(command, stdin)
        assert code == 0
        assert [json.loads(line) for line in output.splitlines()] == [e.responses()[0] for e in singles]
    first = EXAMPLES[0]
    code, output = _run_maamut(first.command, first.request)
    assert code == first.exit_code and json.loads(output) == first.responses()[0]

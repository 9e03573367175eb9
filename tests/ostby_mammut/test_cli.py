"""The command-line contract of ``maamut mammut score`` (docs/mammut-api.md), through a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAAMUT = ROOT / ".venv" / "bin" / "maamut"


def run(stdin: str, *args):
    exe = [str(MAAMUT)] if MAAMUT.exists() else [sys.executable, "-m", "maamut.cli"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(exe + ["mammut", "score", *args], input=stdin.encode(), capture_output=True, env=env,
                          cwd=str(ROOT), timeout=60)
    return proc.returncode, proc.stdout.decode()


GOOD = {"players": ["Ana", "Bo", "Cy"], "round": 5, "shaman": {"holder": "Cy", "arrow": "blue"},
        "points": {"Ana": 30, "Bo": 25, "Cy": 2}, "skins_track": {"Ana": 4, "Bo": 6, "Cy": 1},
        "species": {"Ana": ["bear", "wolf"], "Bo": ["deer"]},
        "tiles": {"Ana": {"axe": 1, "bison": 1}, "Bo": {"meat": 2}, "Cy": {"fire": 2, "tusk": 1}}}


def test_scores_a_last_round_with_final():
    code, out = run(json.dumps(GOOD))
    assert code == 0
    body = json.loads(out)
    assert body["ok"] is True and body["next_round"] is None
    assert body["species"]["Ana"] == ["bear", "wolf", "bison"]
    assert body["final"]["winners"] == [body["final"]["ranking"][0]]
    assert all({"player", "item", "rule", "points", "total", "en", "fr"} <= set(l) for l in body["lines"])


def test_text_output_in_french():
    code, out = run(json.dumps(GOOD), "--text", "--lang", "fr")
    assert code == 0 and "hache" in out and "[eval.axe_last_round]" in out


@pytest.mark.parametrize("stdin, code, key, value", [
    ("", 2, "field", "request"),
    ("{not json", 2, "field", "request"),
    (json.dumps({**GOOD, "round": 0}), 2, "field", "round"),
    (json.dumps({**GOOD, "extra": 1}), 2, "field", "extra"),
    (json.dumps({**GOOD, "tiles": {"Ana": {"question": 1}}}), 1, "rule", "eval.reveal"),
    (json.dumps({**GOOD, "cards": [{"card": "skin", "player": "Bo"}] * 3}), 1, "rule", "card.count"),
])
def test_exit_codes_and_errors(stdin, code, key, value):
    got, out = run(stdin)
    body = json.loads(out)
    assert got == code and body["ok"] is False and body["error"][key] == value
    assert {"code", "message", "rule"} <= set(body["error"])


def test_help_lines():
    exe = [str(MAAMUT)] if MAAMUT.exists() else [sys.executable, "-m", "maamut.cli"]
    proc = subprocess.run(exe + ["mammut", "--help"], capture_output=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          timeout=60)
    assert proc.returncode == 0 and b"score" in proc.stdout and b"rules" in proc.stdout

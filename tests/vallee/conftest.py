"""Helpers for the Vallée tests: the sample map's JSON and the ``maamut vallee`` command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vallee.board import shipped_map_json

ROOT = Path(__file__).resolve().parents[2]
MAAMUT = ROOT / ".venv" / "bin" / "maamut"


def run_cli(args, stdin: str = "") -> tuple[int, dict]:
    """Run ``maamut vallee ARGS`` with ``stdin``; the exit code and the parsed JSON output."""
    exe = [str(MAAMUT)] if MAAMUT.exists() else [sys.executable, "-m", "maamut.cli"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(exe + ["vallee", *args], input=stdin.encode(), capture_output=True, env=env,
                          cwd=str(ROOT), timeout=120)
    return proc.returncode, json.loads(proc.stdout.decode())


@pytest.fixture
def sample_json():
    return shipped_map_json("sample")


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, one per test module (the browser tests' shared fixture)."""
    from tests.chromium import launched
    with launched() as running:
        yield running

"""Every example of docs/vallee-api.md, run exactly as written, prints exactly the response shown."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .api_doc import examples
from .conftest import ROOT



def test_the_doc_has_an_example_for_every_command():
    commands = " ".join(command for command, _, _ in examples())
    for name in ("map check", "calendar", "animals", "combat", "survival", "event", "arrivals", "births", "standing", "move", "camp",
                 "replay"):
        assert f"maamut vallee {name}" in commands


@pytest.mark.parametrize("command, exit_code, response", examples(), ids=lambda v: str(v)[:40])
def test_doc_example_gives_exactly_the_response_shown(command, exit_code, response):
    bin_dir = ROOT / ".venv" / "bin"
    path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}" if (bin_dir / "maamut").exists() else os.environ["PATH"]
    if not (bin_dir / "maamut").exists():
        command = command.replace("maamut ", f"{sys.executable} -m maamut.cli ")
    proc = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=str(ROOT),
                          env=dict(os.environ, PATH=path, PYTHONPATH=str(ROOT)), timeout=120)
    assert (proc.returncode, json.loads(proc.stdout)) == (exit_code, response)

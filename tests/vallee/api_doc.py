"""The copyable examples of docs/vallee-api.md, read once for the tests that run them."""

from __future__ import annotations

import json
import re

from .conftest import ROOT

DOC = ROOT / "docs" / "vallee-api.md"
EXAMPLE = re.compile(r"```sh\n\$ (?P<command>.+?)   # exit (?P<exit>\d)\n```\n\n```json\n(?P<response>.+?)\n```", re.S)


def examples() -> list[tuple[str, int, dict]]:
    """``(command, exit code, response)`` of each example, in the document's order."""
    return [(m["command"], int(m["exit"]), json.loads(m["response"])) for m in EXAMPLE.finditer(DOC.read_text())]

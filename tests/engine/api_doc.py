"""The request/response examples of docs/engine-api.md, read from the page itself.

An example is a request block marked ``<!-- example: resolve -->`` (or ``legal``, or
``resolve lines`` for JSON Lines) followed by its response block marked
``<!-- response: exit N -->``.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "engine-api.md")

_EXAMPLE = re.compile(
    r"<!-- example: (resolve|legal)( lines)? -->\n```(?:json|jsonl)\n(.*?)\n```"
    r"(.*?)<!-- response: exit (\d) -->\n```(?:json|jsonl)\n(.*?)\n```", re.S)


@dataclass
class Example:
    command: str       # "resolve" or "legal"
    lines: bool        # JSON Lines: one request, and one response, per line
    request: str       # the text sent on standard input
    exit_code: int
    response: str      # the text documented for standard output
    line: int          # where the example starts in the page

    def responses(self) -> list:
        """The documented response(s) as JSON values."""
        if self.lines:
            return [json.loads(line) for line in self.response.splitlines()]
        return [json.loads(self.response)]

    def requests(self) -> list[str]:
        return self.request.splitlines() if self.lines else [self.request]


def doc_text() -> str:
    with open(DOC, encoding="utf-8") as fh:
        return fh.read()


def examples(text: str | None = None) -> list[Example]:
    text = doc_text() if text is None else text
    out = []
    for m in _EXAMPLE.finditer(text):
        if "<!-- example:" in m.group(4):
            raise AssertionError(f"example at line {text.count(chr(10), 0, m.start()) + 1} has no response block")
        out.append(Example(m.group(1), bool(m.group(2)), m.group(3), int(m.group(5)), m.group(6),
                           text.count("\n", 0, m.start()) + 1))
    return out


def run_command(command: str, stdin: str) -> tuple[int, str]:
    """The commands' own stdin → stdout loop (``rulekit.jsonrequest``), run in this process."""
    from engine.api import legal_request, resolve_request
    from rulekit.jsonrequest import answer_bytes

    answer = answer_bytes(resolve_request if command == "resolve" else legal_request, stdin.encode("utf-8"))
    return answer.code, answer.text()

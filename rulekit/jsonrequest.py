"""The one reader of JSON requests, for every game's command line and web API.

A request is read within limits, so that no input can exhaust the stack, the CPU or
the memory before a game's own parser sees it, and every refusal is the contract's
malformed answer (exit 2 / HTTP 400) naming the field at fault:

- at most :data:`MAX_DEPTH` nested arrays and objects;
- integers of at most :data:`MAX_INT_DIGITS` digits (Python would spend quadratic time
  converting longer ones, then refuse them past 4,300);
- at most :data:`MAX_REQUEST_CHARS` characters per document (per line in JSON Lines);
- no ``NaN``, ``Infinity`` nor numbers too large for a float (they are not JSON);
- no lone surrogate escape such as ``"\\ud800"``: it cannot be written as UTF-8, so it
  could never be answered, logged or journaled.

>>> read_json('{"players": ["A", "B"], "seed": 7}')
{'players': ['A', 'B'], 'seed': 7}
>>> read_json('{"seed": ' + "9" * 5000 + '}')
Traceback (most recent call last):
...
rulekit.jsonrequest.RequestError: seed: an integer of 5000 digits (at most 30)
>>> read_json('[' * 30000)
Traceback (most recent call last):
...
rulekit.jsonrequest.RequestError: request: nested more than 64 levels deep
>>> read_json('{"players": [{"name": "\\\\ud800"}]}')
Traceback (most recent call last):
...
rulekit.jsonrequest.RequestError: players[0].name: a lone surrogate escape (\\ud800) is not text
>>> read_json('{"x": NaN}')
Traceback (most recent call last):
...
rulekit.jsonrequest.RequestError: x: NaN is not a JSON number

The one loop of the commands that read requests on standard input (``maamut resolve``,
``legal``, ``mammut score``, ``mammut share``) is :func:`answer_bytes`: one JSON document
gets one response and its exit code; JSON Lines get one response line per request line,
a bad line answered alone, exit 0.

>>> def echo(request):
...     return (0, {"ok": True, "echo": request}) if isinstance(request, dict) else (2, malformed("request", "not an object"))
>>> answer = answer_bytes(echo, b'{"a": 1}')
>>> answer.code, answer.lines, answer.responses
(0, False, [{'ok': True, 'echo': {'a': 1}}])
>>> answer = answer_bytes(echo, b'{"a": 1}\\n{oops\\n[2]\\n')
>>> answer.code, answer.lines, [r["ok"] for r in answer.responses]
(0, True, [True, False, False])
>>> answer.responses[1]["error"]["message"]
'line 2 is not JSON: Expecting property name enclosed in double quotes'
"""

from __future__ import annotations

import itertools
import json
import math
import re
import sys
from dataclasses import dataclass

#: Deepest nesting of arrays and objects accepted (a real request nests fewer than 10).
MAX_DEPTH = 64
#: Most digits in an integer (seeds and counts need far fewer).
MAX_INT_DIGITS = 30
#: Longest document, or line of a JSON Lines batch, in characters.
MAX_REQUEST_CHARS = 1_000_000

EXIT_OK, EXIT_MALFORMED = 0, 2

#: A string (its closing quote optional, so that the scan never backtracks: linear time
#: whatever the input), or a bracket, captured.
_TOKEN = re.compile(r'"(?:[^"\\]+|\\.)*"?|([\[\]{}])', re.S)


class RequestError(ValueError):
    """A request refused before any game reads it; ``field`` names the part at fault
    (``request`` for the whole document)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def to_json(self) -> dict:
        # Request-wide problems read as the command line has always said them ("not JSON: …").
        return malformed(self.field, self.message if self.field == "request" else str(self))


def malformed(field: str, message: str) -> dict:
    """The contract's answer to a malformed request (exit 2, HTTP 400).

    >>> malformed("request", "no request on standard input")["error"]["rule"]
    'request.format'
    """
    return {"ok": False, "error": {"code": "bad_request", "field": field, "message": message,
                                   "rule": "request.format"}}


class _Refused:
    """Stands in the parsed value for a number the reader refuses, until the walk
    over the value can name its field."""

    def __init__(self, reason: str):
        self.reason = reason


def _parse_int(text: str):
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        return _Refused(f"an integer of {digits} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _parse_float(text: str):
    value = float(text)
    if not math.isfinite(value):
        return _Refused(f"the number {text[:20]}{'…' if len(text) > 20 else ''} is too large")
    return value


def _parse_constant(name: str):
    return _Refused(f"{name} is not a JSON number")


def _depth(text: str) -> int:
    """How deep arrays and objects nest, counted outside strings (no recursion)."""
    steps = (1 if b in "[{" else -1 for b in _TOKEN.findall(text) if b)
    return max(itertools.accumulate(steps), default=0)


def _child(field: str, key) -> str:
    if isinstance(key, int):
        return f"{field}[{key}]"
    return key if field == "request" else f"{field}.{key}"


def _lone_surrogate(text: str) -> str | None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # only a lone surrogate cannot be encoded
        return text[exc.start]
    return None


def _check_value(value, field: str) -> None:
    """Name the first refused number or lone surrogate inside ``value``."""
    if isinstance(value, _Refused):
        raise RequestError(field, value.reason)
    if isinstance(value, str):
        bad = _lone_surrogate(value)
        if bad is not None:
            raise RequestError(field, f"a lone surrogate escape (\\u{ord(bad):04x}) is not text")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_value(item, _child(field, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            bad = _lone_surrogate(key)
            if bad is not None:
                raise RequestError(field, f"a key holds a lone surrogate escape (\\u{ord(bad):04x})")
            _check_value(item, _child(field, key))


def read_json(text: str, field: str = "request"):
    """One JSON value from ``text`` within the limits, or :class:`RequestError`."""
    if len(text) > MAX_REQUEST_CHARS:
        raise RequestError(field, f"{len(text)} characters, more than the {MAX_REQUEST_CHARS} a request may hold")
    if _depth(text) > MAX_DEPTH:
        raise RequestError(field, f"nested more than {MAX_DEPTH} levels deep")
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise _NotJSON(field, exc) from None
    except RecursionError:  # the depth check counts every bracket; kept as a last guard
        raise RequestError(field, f"nested more than {MAX_DEPTH} levels deep") from None
    _check_value(value, field)
    return value


class _NotJSON(RequestError):
    def __init__(self, field: str, exc: json.JSONDecodeError):
        super().__init__(field, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
        self.short = exc.msg


def decode(data: bytes) -> str:
    """``data`` as UTF-8 text, or :class:`RequestError`."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestError("request", f"input is not UTF-8 (byte {exc.start})") from None


def read_object(data: bytes, field: str = "request") -> dict:
    """The JSON object in a request body (bytes), within the limits, or :class:`RequestError`.

    >>> read_object(b'{"a": 1}')
    {'a': 1}
    >>> read_object(b'[1]')
    Traceback (most recent call last):
    ...
    rulekit.jsonrequest.RequestError: request: must be a JSON object, got list
    """
    value = read_json(decode(data), field)
    if not isinstance(value, dict):
        raise RequestError(field, f"must be a JSON object, got {type(value).__name__}")
    return value


@dataclass
class Answer:
    """The responses to what was read: one (``lines`` false) or one per request line."""

    code: int
    responses: list
    lines: bool = False

    def text(self) -> str:
        """The answer as printed: one JSON document, or one JSON line per response."""
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.responses)


def answer_text(handler, text: str) -> Answer:
    """Answer ``text`` with ``handler(request) -> (exit code, response)``.

    One JSON document gets its response and exit code. Several lines (JSON Lines) get
    one response each, in order, exit 0: a line that cannot be read is answered alone
    with the malformed answer and the other lines are still answered.
    """
    stripped = text.strip()
    if not stripped:
        return Answer(EXIT_MALFORMED, [malformed("request", "no request on standard input")])
    try:
        request = read_json(stripped)
    except RequestError as exc:
        several = "\n" in stripped or (isinstance(exc, _NotJSON) and exc.short == "Extra data")
        if not several:
            return Answer(EXIT_MALFORMED, [exc.to_json()])
    else:
        code, response = handler(request)
        return Answer(code, [response])
    return _answer_lines(handler, text.split("\n"))


def _answer_lines(handler, lines: list) -> Answer:
    # Lines end at "\n" only: JSON strings may hold U+2028 and the like, which str.splitlines would cut at.
    return Answer(EXIT_OK, [_answer_line(handler, number, line)
                            for number, line in enumerate(lines, start=1) if line.strip()], lines=True)


def _answer_line(handler, number: int, line) -> dict:
    if isinstance(line, bytes):
        try:
            line = decode(line)
        except RequestError as exc:
            return malformed("request", f"line {number}: {exc.message}")
    try:
        request = read_json(line)
    except _NotJSON as exc:
        return malformed("request", f"line {number} is not JSON: {exc.short}")
    except RequestError as exc:
        return malformed(exc.field, f"line {number}: {exc.to_json()['error']['message']}")
    return handler(request)[1]


def answer_bytes(handler, data: bytes) -> Answer:
    """:func:`answer_text` for raw bytes (standard input, an HTTP body): not UTF-8 is malformed."""
    try:
        text = decode(data)
    except RequestError as exc:
        lines = data.split(b"\n")
        if sum(1 for line in lines if line.strip()) < 2:
            return Answer(EXIT_MALFORMED, [malformed(exc.field, exc.message)])
        return _answer_lines(handler, lines)  # JSON Lines: the line that is not UTF-8 is answered alone
    return answer_text(handler, text)


def read_stdin(stdin=None) -> bytes:
    stdin = sys.stdin if stdin is None else stdin
    return stdin.buffer.read()


def print_text(text: str, stdout=None) -> None:
    """Print ``text`` as UTF-8 whatever the locale's encoding."""
    stdout = sys.stdout if stdout is None else stdout
    binary = getattr(stdout, "buffer", None)
    if binary is None:
        stdout.write(text)
    else:
        stdout.flush()
        binary.write(text.encode("utf-8"))
        binary.flush()


def print_json(value, stdout=None) -> None:
    """Print one JSON document on a line (UTF-8, non-ASCII kept readable)."""
    print_text(json.dumps(value, ensure_ascii=False) + "\n", stdout)


def write(answer: Answer, stdout=None) -> int:
    """Print ``answer`` and return its exit code."""
    print_text(answer.text(), stdout)
    return answer.code


def serve_stdin(handler, stdin=None, stdout=None) -> int:
    """The whole command: read standard input, answer, print; returns the exit code."""
    return write(answer_bytes(handler, read_stdin(stdin)), stdout)

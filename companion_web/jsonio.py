"""Reading JSON request bodies without ever raising a traceback at the client.

Errors use the command-line contract's shape: ``{"ok": false, "error": {"code",
"message", "rule", "field"}}``.
"""

from __future__ import annotations

import json

from flask import jsonify, request

#: HTTP status for each exit code of ``maamut resolve`` / ``maamut legal``.
STATUS_OF_EXIT = {0: 200, 1: 422, 2: 400}


class BadBody(ValueError):
    def __init__(self, message: str, field: str = "request"):
        super().__init__(message)
        self.message, self.field = message, field


def error_response(status: int, code: str, message: str, field: str = "", rule: str = ""):
    body = {"code": code, "message": message, "rule": rule}
    if field:
        body["field"] = field
    response = jsonify({"ok": False, "error": body})
    response.status_code = status
    return response


def parse_json_text(text: str):
    """``json.loads`` that turns every failure into :class:`BadBody`.

    >>> parse_json_text('{"a": 1}')
    {'a': 1}
    >>> parse_json_text("[" * 100000)
    Traceback (most recent call last):
    ...
    companion_web.jsonio.BadBody: request: nested too deeply
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadBody(f"request: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise BadBody("request: nested too deeply") from None


def body_text() -> str:
    try:
        return request.get_data(cache=True).decode("utf-8")
    except UnicodeDecodeError:
        raise BadBody("request: the body is not UTF-8 text") from None


def read_json_object() -> dict:
    """The request body as a JSON object, or :class:`BadBody`."""
    obj = parse_json_text(body_text())
    if not isinstance(obj, dict):
        raise BadBody("request: must be a JSON object")
    return obj


def bad_body_response(exc: BadBody):
    return error_response(400, "bad_request", exc.message, exc.field)

"""Reading JSON request bodies without ever raising a traceback at the client.

Bodies are read by the games' one request reader (:mod:`rulekit.jsonrequest`): the same
limits as the command line (nesting depth, integer size, length, no NaN, no lone
surrogate), refused with HTTP 400 naming the field. Errors use the command-line
contract's shape: ``{"ok": false, "error": {"code", "message", "rule", "field"}}``.
"""

from __future__ import annotations

from flask import Response, jsonify, request

from rulekit.jsonrequest import RequestError, answer_bytes, decode, read_json

#: HTTP status for each exit code of ``maamut resolve`` / ``maamut legal``.
STATUS_OF_EXIT = {0: 200, 1: 422, 2: 400}


class BadBody(ValueError):
    def __init__(self, message: str, field: str = "request"):
        super().__init__(message)
        self.message, self.field = message, field


def error_response(status: int, code: str, message: str, field: str = "", rule: str = "", message_fr: str = ""):
    body = {"code": code, "message": message, "rule": rule}
    if message_fr:
        body["message_fr"] = message_fr
    if field:
        body["field"] = field
    response = jsonify({"ok": False, "error": body})
    response.status_code = status
    return response


def parse_json_text(text: str):
    """One JSON value within the reader's limits, every failure a :class:`BadBody`.

    >>> parse_json_text('{"a": 1}')
    {'a': 1}
    >>> parse_json_text("[" * 100000)
    Traceback (most recent call last):
    ...
    companion_web.jsonio.BadBody: request: nested more than 64 levels deep
    """
    try:
        return read_json(text)
    except RequestError as exc:
        raise BadBody(str(exc), exc.field) from None


def body_text() -> str:
    try:
        return decode(request.get_data(cache=True))
    except RequestError:
        raise BadBody("request: the body is not UTF-8 text") from None


def read_json_object() -> dict:
    """The request body as a JSON object, or :class:`BadBody`."""
    obj = parse_json_text(body_text())
    if not isinstance(obj, dict):
        raise BadBody(f"request: must be a JSON object, got {type(obj).__name__}")
    return obj


def contract_response(handler):
    """A command-line contract over HTTP (``handler(request) -> (exit code, response)``):
    one JSON body gets the response with the exit code's status; several JSON lines get
    one response line each (``application/x-ndjson``, 200), a bad line answered alone."""
    answer = answer_bytes(handler, request.get_data(cache=True))
    if answer.lines:
        return Response(answer.text(), mimetype="application/x-ndjson")
    result = jsonify(answer.responses[0])
    result.status_code = STATUS_OF_EXIT.get(answer.code, 400)
    return result


def bad_body_response(exc: BadBody):
    return error_response(400, "bad_request", exc.message, exc.field)

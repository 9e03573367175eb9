"""The base of a game's errors: a code for programs, a message for people, the rule applied.

>>> RuleError("no such cell", rule="request.format", code="bad_request").to_json()
{'code': 'bad_request', 'message': 'no such cell', 'rule': 'request.format'}
"""
from __future__ import annotations


class RuleError(Exception):
    """An error that names its code and the rule id it applies (empty when none)."""

    code = "error"

    def __init__(self, message: str, rule: str = "", code: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        if code:
            self.code = code

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message, "rule": self.rule}


class MalformedRequest(RuleError):
    """Input that does not follow the documented form; ``field`` names the part at fault.

    A game's own error for it inherits this and its game's base error, so that catching
    the game's base catches it too.

    >>> MalformedRequest("cells.3", "not a cell").to_json()
    {'code': 'bad_request', 'message': 'cells.3: not a cell', 'rule': 'request.format', 'field': 'cells.3'}
    """

    code = "bad_request"

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message, rule="request.format")
        self.field = field

    def to_json(self) -> dict:
        out = super().to_json()
        out["field"] = self.field
        return out

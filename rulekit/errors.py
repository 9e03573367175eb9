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

"""A rulebook of rule ids, each with its citation and our own paraphrase in two languages.

>>> book = Rulebook([("turn.draw", "FR «Tour» ¶1", "Draw a card.", "Piochez une carte.")])
>>> book.rules["turn.draw"].section
'FR «Tour» ¶1'
>>> book.cite("turn.draw", "fr")
'Piochez une carte.'
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    id: str
    section: str
    en: str
    fr: str


class Rulebook:
    """Rules by id from ``(id, section, en, fr)`` rows; ids must be unique."""

    def __init__(self, rows):
        self.rules: dict[str, Rule] = {}
        for rule_id, section, en, fr in rows:
            if rule_id in self.rules:
                raise ValueError(f"rule id {rule_id!r} is listed twice")
            self.rules[rule_id] = Rule(rule_id, section, en, fr)

    def cite(self, rule_id: str, lang: str = "en") -> str:
        """Our paraphrase of a rule in ``"en"`` or ``"fr"``."""
        rule = self.rules[rule_id]
        return rule.fr if lang == "fr" else rule.en

"""A problem a map validator found: a stable code, where it is, and what is wrong in two languages.

>>> Problem("letter_missing", "letters", "no cell carries the letter C", "aucune case ne porte la lettre C").to_json()
{'code': 'letter_missing', 'where': 'letters', 'en': 'no cell carries the letter C', 'fr': 'aucune case ne porte la lettre C'}
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Problem:
    code: str
    where: str
    en: str
    fr: str

    def to_json(self) -> dict:
        return asdict(self)

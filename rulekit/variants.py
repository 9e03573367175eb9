"""A frozen set of named variants, each checked against its allowed readings.

A game declares its variants as a frozen dataclass that inherits :class:`VariantSet`
and a ``CHOICES`` table (allowed values per variant, default first):

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo(VariantSet):
...     CHOICES = {"pace": ("slow", "fast")}
...     pace: str = "slow"
>>> Demo.from_json({"pace": "fast"}).changed()
{'pace': 'fast'}
>>> Demo(pace="wild")
Traceback (most recent call last):
...
ValueError: variants.pace must be one of 'slow', 'fast', not 'wild'
>>> Demo.from_json({"speed": 1})
Traceback (most recent call last):
...
ValueError: variants.speed is not a known variant (known: pace)
"""
from __future__ import annotations

from dataclasses import asdict, fields
from typing import ClassVar


class VariantSet:
    """Validation, JSON and "what differs from the defaults" for a variants dataclass."""

    CHOICES: ClassVar[dict[str, tuple]] = {}

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if self.check_free_value(f.name, value):
                continue
            allowed = self.CHOICES[f.name]
            # bool is an int: a reading of True must not pass for the number 1, nor "1" for 1.
            if value not in allowed or type(value) is not type(allowed[0]):
                shown = ", ".join(repr(a) for a in allowed)
                raise ValueError(f"variants.{f.name} must be one of {shown}, not {value!r}")

    def check_free_value(self, name: str, value) -> bool:
        """Hook for a variant whose values are not a fixed list: validate it and return
        True, or return False to check it against ``CHOICES``."""
        return False

    @classmethod
    def from_json(cls, obj):
        """Variants from a JSON object; unknown names are an error, missing ones default."""
        if obj is None:
            return cls()
        if not isinstance(obj, dict):
            raise ValueError("variants must be an object of variant names to values")
        known = {f.name for f in fields(cls)}
        for key in obj:
            if key not in known:
                raise ValueError(f"variants.{key} is not a known variant (known: {', '.join(sorted(known))})")
        return cls(**obj)

    def to_json(self) -> dict:
        return asdict(self)

    def changed(self) -> dict:
        """Only the variants that differ from the defaults."""
        default = type(self)()
        return {k: v for k, v in asdict(self).items() if getattr(default, k) != v}

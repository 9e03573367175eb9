"""Named variants for the points where the Mammut rulebook leaves room for readings.

The first value of each is the default (our reading of the French text);
``docs/rulings-mammut.md`` explains each one.

>>> Variants().steal_return
'at_least_one'
>>> Variants.from_json({"penalty_ties": "all"}).penalty_ties
'all'
>>> Variants.from_json({"steal_return": "two"})
Traceback (most recent call last):
...
ValueError: variants.steal_return must be one of 'at_least_one', 'exactly_one', not 'two'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

#: Allowed values per variant, default first.
CHOICES: dict[str, tuple] = {
    "steal_return": ("at_least_one", "exactly_one"),
    "single_tile_steal": ("forbidden", "allowed"),
    "penalty_ties": ("shaman", "all"),
    "floor": ("each_item", "round_end"),
    "empty_draw_pile": ("reshuffle", "no_card"),
    "shaman_flip": ("reverse_arrow", "no_effect"),
}


@dataclass(frozen=True)
class Variants:
    steal_return: str = "at_least_one"
    single_tile_steal: str = "forbidden"
    penalty_ties: str = "shaman"
    floor: str = "each_item"
    empty_draw_pile: str = "reshuffle"
    shaman_flip: str = "reverse_arrow"

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            allowed = CHOICES[f.name]
            if value not in allowed or not isinstance(value, str):
                shown = ", ".join(repr(a) for a in allowed)
                raise ValueError(f"variants.{f.name} must be one of {shown}, not {value!r}")

    @classmethod
    def from_json(cls, obj) -> "Variants":
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
        default = Variants()
        return {k: v for k, v in asdict(self).items() if getattr(default, k) != v}


DEFAULT = Variants()

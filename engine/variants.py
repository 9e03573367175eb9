"""Named variants for every point where the rulebooks are ambiguous or disagree.

Each field's default is the ruling of ``RULINGS.md``; the other allowed values are the
alternative readings. ``docs/rulings.md`` explains each one and the rule section it
comes from.

>>> Variants().flee_target
'unoccupied'
>>> Variants.from_json({"flee_target": "empty"}).flee_target
'empty'
>>> Variants.from_json({"flee_target": "anywhere"})
Traceback (most recent call last):
...
ValueError: variants.flee_target must be one of 'unoccupied', 'accessible', 'empty', not 'anywhere'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

#: Allowed values per variant, default first.
CHOICES: dict[str, tuple] = {
    "start_cells": ("ring3", "any_but_centre"),
    "first_player": ("first_placer", "last_placer"),
    "alone_required_for_recover": (True, False),
    "reshuffle": ("immediate", "on_draw"),
    "trigger_on_pass_through": (True, False),
    "flight_distance": ("card", "steps_walked"),
    "trap_truncates_path_check": (False, True),
    "flee_target": ("unoccupied", "accessible", "empty"),
    "eliminated_traps": ("remove", "keep_live", "keep_inert"),
    "stall_limit": (None,),  # or a positive number of quiet turns
}


@dataclass(frozen=True)
class Variants:
    start_cells: str = "ring3"
    first_player: str = "first_placer"
    alone_required_for_recover: bool = True
    reshuffle: str = "immediate"
    trigger_on_pass_through: bool = True
    flight_distance: str = "card"
    trap_truncates_path_check: bool = False
    flee_target: str = "unoccupied"
    eliminated_traps: str = "remove"
    stall_limit: int | None = None

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "stall_limit":
                if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                    raise ValueError("variants.stall_limit must be null (off) or a positive number of turns")
                continue
            allowed = CHOICES[f.name]
            if value not in allowed or type(value) is not type(allowed[0]):
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
        """Only the variants that differ from the defaults."""
        default = Variants()
        return {k: v for k, v in asdict(self).items() if getattr(default, k) != v}


DEFAULT = Variants()

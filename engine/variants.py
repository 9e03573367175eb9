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

from dataclasses import dataclass

from rulekit.variants import VariantSet

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
class Variants(VariantSet):
    CHOICES = CHOICES

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

    def check_free_value(self, name: str, value) -> bool:
        if name != "stall_limit":
            return False
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError("variants.stall_limit must be null (off) or a positive number of turns")
        return True


DEFAULT = Variants()

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

from dataclasses import dataclass

from rulekit.variants import VariantSet

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
class Variants(VariantSet):
    CHOICES = CHOICES

    steal_return: str = "at_least_one"
    single_tile_steal: str = "forbidden"
    penalty_ties: str = "shaman"
    floor: str = "each_item"
    empty_draw_pile: str = "reshuffle"
    shaman_flip: str = "reverse_arrow"


DEFAULT = Variants()

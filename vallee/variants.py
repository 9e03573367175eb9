"""Named variants for the points where the Vallée rulebook allows more than one reading.

The first value of each is our default reading; docs/rulings-vallee.md explains each
one with the gap (V-number of ../shared/VALLEE.md §4) it settles.

>>> Variants().herd_order
'max_merges'
>>> Variants.from_json({"trample_per": "animal"}).changed()
{'trample_per': 'animal'}
>>> Variants.from_json({"herd_order": "front_first"})
Traceback (most recent call last):
...
ValueError: variants.herd_order must be one of 'max_merges', 'rear_first', not 'front_first'
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekit.variants import VariantSet

#: Allowed values per variant, default first (gap number in docs/rulings-vallee.md).
CHOICES: dict[str, tuple] = {
    "first_turn_animals_small": (6, 5),                           # V4
    "season_end_with_extra_turn": ("last_turn", "printed_turn"),  # V6
    "locator_token": ("back", "arrives"),                         # V10
    "solitaire_moves": ("after_animals", "before_animals"),       # V13
    "cave_bear_stays": (False, True),                             # V15
    "frozen_lake": ("cross_only", "walkable"),                    # V23
    "blocked_arrival": ("back_to_bag", "place_anyway"),           # V26
    "herd_order": ("max_merges", "rear_first"),                   # V31
    "trample_per": ("unit", "animal"),                            # V34
    "camp_after_move": (False, True),                             # V40
    "hunt_food": ("winner_only", "per_kill"),                     # V49
    "food_timing": ("at_combat", "at_survival"),                  # V50
    "harvest_stack": (False, True),                               # V57
    "fertility_caves": (False, True),                             # V60
    "fire_at_both_checks": (True, False),                         # V72
    "simultaneous_win": ("tiebreak", "shared"),                   # V73
    "last_tribe_wins": (True, False),                             # V74
    "fire_without_camp": ("forbidden", "kept_until_camp"),        # V76
}


@dataclass(frozen=True)
class Variants(VariantSet):
    CHOICES = CHOICES

    first_turn_animals_small: int = 6
    season_end_with_extra_turn: str = "last_turn"
    locator_token: str = "back"
    solitaire_moves: str = "after_animals"
    cave_bear_stays: bool = False
    frozen_lake: str = "cross_only"
    blocked_arrival: str = "back_to_bag"
    herd_order: str = "max_merges"
    trample_per: str = "unit"
    camp_after_move: bool = False
    hunt_food: str = "winner_only"
    food_timing: str = "at_combat"
    harvest_stack: bool = False
    fertility_caves: bool = False
    fire_at_both_checks: bool = True
    simultaneous_win: str = "tiebreak"
    last_tribe_wins: bool = True
    fire_without_camp: str = "forbidden"


DEFAULT = Variants()

"""The births phase (rules §7): at the end of each season, camps with women give births.

A camp with one woman gives one birth, with two or more two births (the women on the
camp cell at this phase, gap V59; the player orders his camps). A die gives each
newborn's sex: 1–2 a woman, 3–5 a warrior, 6 twins, two more dice where a 6 counts as a
warrior. A tribe never has more than ten warriors and six women: a birth of a sex with
no piece left is lost. Herbes de fertilité adds one birth to each village (gap V60;
variant ``fertility_caves``); Bonnes herbes lets the player pick the sex of one camp's
newborns, without dice.

>>> camps = [Camp((0, 1), "village", 2), Camp((0, -2), "cave", 1)]
>>> result = resolve_births(camps, rolls=[6, 2, 6, 4, 1], warriors=9, women=5)
>>> [(b.camp, b.dice, b.sex) for b in result.births]
[((0, 1), (6, 2), 'woman'), ((0, 1), (6, 6), 'warrior'), ((0, 1), (4,), 'cancelled'), ((0, -2), (1,), 'cancelled')]
>>> result.warriors, result.women, result.awaiting
(10, 6, None)
"""

from __future__ import annotations

from dataclasses import dataclass

from .core import BadRequest
from .variants import DEFAULT, Variants

MAX_WARRIORS, MAX_WOMEN = 10, 6
WOMAN, WARRIOR, CANCELLED = "woman", "warrior", "cancelled"


@dataclass(frozen=True)
class Camp:
    cell: tuple[int, int]
    kind: str    # village or cave
    women: int   # women on the camp's cell at the birth phase


@dataclass(frozen=True)
class Birth:
    camp: tuple[int, int]
    dice: tuple[int, ...]   # the die, or the 6 and its twin die; () when the sex was chosen
    sex: str                # woman, warrior or cancelled (no piece of that sex left)


@dataclass(frozen=True)
class BirthResult:
    births: tuple[Birth, ...]
    warriors: int
    women: int
    awaiting: dict | None   # {"camp": cell} when the dice ran out


def births_due(camp: Camp, fertility: bool, variants: Variants = DEFAULT) -> int:
    due = min(camp.women, 2)
    if due and fertility and (camp.kind == "village" or variants.fertility_caves):
        due += 1
    return due


def sex_of(die: int) -> str:
    """The newborn a die other than a first 6 gives (a twin's 6 is a warrior)."""
    return WOMAN if die <= 2 else WARRIOR


def resolve_births(camps, rolls, warriors: int, women: int, fertility: bool = False, chosen=None,
                   variants: Variants = DEFAULT) -> BirthResult:
    """Births camp by camp, in the order given; ``chosen``: {camp cell: sex} (Bonnes herbes)."""
    chosen = chosen or {}
    dice = list(rolls)
    used = 0
    births = []

    def take():
        nonlocal used
        if used >= len(dice):
            return None
        value = dice[used]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise BadRequest(f"rolls.{used}", "a die shows 1 to 6")
        used += 1
        return value

    def born(camp, shown, sex):
        nonlocal warriors, women
        if sex == WARRIOR and warriors < MAX_WARRIORS:
            warriors += 1
        elif sex == WOMAN and women < MAX_WOMEN:
            women += 1
        else:
            sex = CANCELLED
        births.append(Birth(camp.cell, shown, sex))

    for camp in camps:
        for _ in range(births_due(camp, fertility, variants)):
            if camp.cell in chosen:
                born(camp, (), chosen[camp.cell])
                continue
            start = used
            first = take()
            if first is None:
                return BirthResult(tuple(births), warriors, women, {"camp": camp.cell})
            if first != 6:
                born(camp, (first,), sex_of(first))
                continue
            twins = [take(), take()]
            if None in twins:
                used = start
                return BirthResult(tuple(births), warriors, women, {"camp": camp.cell})
            for twin in twins:
                born(camp, (6, twin), sex_of(twin))
    return BirthResult(tuple(births), warriors, women, None)

"""The survival phase (rules §6) as a ledger: one tribe's food earned and eaten in a turn.

Income per occupied cell (a cell counts once, whatever the number of pawns): fishing by a
river or the lake, gathering in a forest in summer, the harvest of a field on the last
summer turn. Cost: a food per pawn, or 1.5 per pawn (total rounded down) in the cold.
A tribe that cannot pay lets the fewest pawns starve that balance the account (gap V58).

>>> from vallee.board import sample_valley
>>> ledger = survival_ledger(sample_valley(), Situation(season="summer", harvest=True),
...                          food=2, cells={(0, 1): (2, 1), (1, 0): (1, 0)}, fields={(0, 1): "intact"})
>>> [(l.item, l.cell, l.food) for l in ledger.lines]
[('fishing', (1, 0), 1), ('gathering', (1, 0), 1), ('fishing', (0, 1), 1), ('harvest', (0, 1), 8), ('cost', None, -4)]
>>> ledger.balance, ledger.food_after, ledger.starve
(7, 9, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Valley
from .core import FOREST, SUMMER, WINTER, Cell, reading_key
from .variants import DEFAULT, Variants

#: Trick cards played at survival (rules «Texte des cartes astuces»).
SURVIVAL_CARDS = ("filet", "racines", "engrais_naturel")


@dataclass(frozen=True)
class Situation:
    """What this turn's survival depends on besides the tribe's pawns."""

    season: str
    harvest: bool = False       # the last summer turn (vallee.calendar)
    drought: bool = False       # Sécheresse: no fishing anywhere
    cold_snap: bool = False     # Froidure: 1.5 per pawn for everyone
    good_rains: bool = False    # Bonnes pluies: this year's harvests 12 / 8
    fire_rules: bool = False
    has_fire: bool = False
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Line:
    item: str          # fishing, gathering, harvest, cost
    cell: Cell | None
    food: int
    rule: str
    detail: dict


@dataclass(frozen=True)
class Ledger:
    lines: tuple[Line, ...]
    income: int
    cost: int
    food_before: int
    starve: int         # pawns that must starve (the player picks which)
    cost_after: int     # what the pawns left eat

    @property
    def balance(self) -> int:
        return self.income - self.cost

    @property
    def food_after(self) -> int:
        return self.food_before + self.income - self.cost_after


def cost_of(pawns: int, cold: bool) -> int:
    return (3 * pawns) // 2 if cold else pawns


def harvest_value(state: str, situation: Situation, variants: Variants) -> int:
    boosts = [situation.good_rains, "engrais_naturel" in situation.cards]
    steps = sum(boosts) if variants.harvest_stack else min(1, sum(boosts))
    return (8 if state == "intact" else 4) + 4 * steps


def survival_ledger(valley: Valley, situation: Situation, food: int, cells: dict, fields: dict,
                    variants: Variants = DEFAULT) -> Ledger:
    """``cells``: cell → (warriors, women) of the tribe; ``fields``: cell → intact/damaged."""
    lines = []
    for cell in sorted(cells, key=reading_key):
        if not any(cells[cell]):
            continue
        lines.extend(_cell_income(valley, situation, cell, fields.get(cell), variants))
    pawns = sum(w + f for w, f in cells.values())
    cold = situation.cold_snap or (situation.season == WINTER and situation.fire_rules and not situation.has_fire)
    cost = cost_of(pawns, cold)
    lines.append(Line("cost", None, -cost, "survival.cold" if cold else "survival.cost",
                      {"pawns": pawns, "per_pawn": "1.5" if cold else "1"}))
    income = sum(l.food for l in lines if l.item != "cost")
    starve = 0
    while cost_of(pawns - starve, cold) > food + income:
        starve += 1
    return Ledger(tuple(lines), income, cost, food, starve, cost_of(pawns - starve, cold))


def _cell_income(valley: Valley, situation: Situation, cell: Cell, field_state, variants: Variants):
    river, lake = valley.on_a_river(cell), valley.by_the_lake(cell)
    if (river or lake) and not situation.drought:
        net = "filet" in situation.cards
        yield Line("fishing", cell, 2 if net else 1, "survival.net" if net else "survival.fishing",
                   {"river": river, "lake": lake})
    if valley.terrain[cell] == FOREST and (situation.season == SUMMER or "racines" in situation.cards):
        yield Line("gathering", cell, 1, "survival.gathering", {})
    if situation.harvest and field_state:
        yield Line("harvest", cell, harvest_value(field_state, situation, variants), "survival.harvest",
                   {"field": field_state})

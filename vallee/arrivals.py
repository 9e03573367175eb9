"""The arrivals phase (rules §2): animals drawn from the bag enter on their letter's cell.

A token's letter names its entry cell (the map's lettered edge cells). An arrival on a
cell holding its species' herd joins it at once (gap V27); on a flooded, burning or
closed cell it goes back into the bag, unreplaced (gap V26; variant ``blocked_arrival:
place_anyway``). Under Épizootie the struck species' arrivals leave at once. The bag can
be physical (the drawn tokens are typed in) or virtual: :func:`draw` takes tokens from it
with a seeded generator, so a recorded seed replays the same draw.

>>> from vallee.board import sample_valley
>>> from vallee.animals import Conditions, Unit
>>> result = place_arrivals(sample_valley(), [Token("bison", "a"), Token("wolf", "A")],
...                         [Unit("old", "bison", (-1, -2), 2)], Conditions())
>>> [(p.token.letter, p.cell, p.outcome, p.unit) for p in result.placements]
[('a', (-1, -2), 'joined', 'old'), ('A', (0, -3), 'new', 'wolf@0,-3')]
>>> [(u.id, u.count) for u in result.units]
[('old', 3), ('wolf@0,-3', 1)]
>>> len(full_bag()), draw(full_bag(), 3, seed=7) == draw(full_bag(), 3, seed=7)
(54, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .animals import Conditions, Unit
from .board import Valley
from .core import Cell, cell_name
from .tokens import DEFAULT_TOKENS
from .variants import DEFAULT, Variants


@dataclass(frozen=True, order=True)
class Token:
    species: str
    letter: str


@dataclass(frozen=True)
class Placement:
    token: Token
    cell: Cell
    outcome: str       # new, joined, back_to_bag, removed
    unit: str | None   # the unit it became or joined


@dataclass(frozen=True)
class Arrivals:
    placements: tuple[Placement, ...]
    units: tuple[Unit, ...]          # the animals on the board afterwards
    back_to_bag: tuple[Token, ...]


def full_bag(tokens=DEFAULT_TOKENS) -> list[Token]:
    """Every lettered token (the unlettered wolves stay out of the bag)."""
    return sorted(Token(species, letter) for species, letters in tokens.items() for letter in letters)


def draw(bag: list[Token], count: int, seed: int) -> list[Token]:
    """A virtual draw: ``count`` tokens (fewer if the bag runs short, gap V28), seeded."""
    return random.Random(seed).sample(sorted(bag), min(count, len(bag)))


def place_arrivals(valley: Valley, drawn, units, conditions: Conditions, variants: Variants = DEFAULT,
                   epizootie: str | None = None) -> Arrivals:
    """Place drawn tokens in the order drawn; ``units``: the animals already on the board."""
    board = {(u.species, u.cell): u for u in units}
    order = [(u.species, u.cell) for u in units]
    placements, back = [], []
    closed = conditions.flooded | conditions.burning | conditions.closed
    for token in drawn:
        cell = valley.cell_of_letter[token.letter]
        if token.species == epizootie:
            placements.append(Placement(token, cell, "removed", None))
            continue
        if cell in closed and variants.blocked_arrival == "back_to_bag":
            placements.append(Placement(token, cell, "back_to_bag", None))
            back.append(token)
            continue
        key = (token.species, cell)
        if key in board:
            board[key] = replace(board[key], count=board[key].count + 1)
            placements.append(Placement(token, cell, "joined", board[key].id))
        else:
            uid = f"{token.species}@{cell_name(cell)}"
            while any(u.id == uid for u in board.values()):
                uid += "'"
            board[key] = Unit(uid, token.species, cell, 1)
            order.append(key)
            placements.append(Placement(token, cell, "new", uid))
    return Arrivals(tuple(placements), tuple(board[k] for k in order), tuple(back))

"""Tribe movement (rules §4): is one group's move legal, and where does it stop?

A group of one tribe's pawns leaves a cell and enters one or two cells in a row. It may
not leave a cell it shares with animals or another tribe unless it is more numerous than
them, and it must leave at least as many pawns behind as they are (gap V37: all opposing
pieces together, women included). It may not enter the lake, a closed cell (flooded,
burning, snowed in) or cross a river (frozen rivers and droughts aside). Entering a
mountain ends the move (V39); so does entering a cell with opponents, unless the group
outnumbers them and leaves at least as many pawns there (V42). Cards: a bridge (Pont,
Nage, Troncs d'arbre, Radeau) crosses one river and ends the move at once; the raft may
instead cross the lake, its cells not counted as steps, landing on the first shore cell
after them, where the move ends (V38); Endurance or Marche
forcée allows three cells, or crossing one mountain cell in summer without stopping.
Events: Blizzard, no move; Tempête and Orages, one cell.

>>> from vallee.board import sample_valley
>>> board = Board({(0, 1): {"red": (2, 1)}, (1, 1): {"blue": (1, 0)}}, animals={(2, 1): 2})
>>> check_move(sample_valley(), board, Move("red", (0, 1), ((1, 1), (2, 1)), 2, 0, {(1, 1): (1, 0)})).stops
(((1, 1), 'passed'), ((2, 1), 'contact'))
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .animals import Conditions
from .board import Valley
from .core import MOUNTAIN, SUMMER, VOLCANO, Cell, IllegalRequest, cell_name
from .variants import DEFAULT, Variants

RAFT = "radeau"
BRIDGE_CARDS = ("pont", "nage", "troncs_d_arbre", RAFT)
LONG_MARCH_CARDS = ("endurance", "marche_forcee")


@dataclass(frozen=True)
class Board:
    """Who stands where: cell → {tribe: (warriors, women)}; cell → number of animals."""

    pawns: dict
    animals: dict = field(default_factory=dict)

    def opponents(self, cell: Cell, tribe: str) -> int:
        """Opposing pieces on a cell: other tribes' pawns and every animal (gap V37)."""
        others = sum(w + f for name, (w, f) in self.pawns.get(cell, {}).items() if name != tribe)
        return others + self.animals.get(cell, 0)


@dataclass(frozen=True)
class Move:
    tribe: str
    start: Cell
    path: tuple[Cell, ...]
    warriors: int
    women: int
    leave: dict = field(default_factory=dict)  # cell passed through → (warriors, women) left there


@dataclass(frozen=True)
class Limits:
    season: str = SUMMER
    max_cells: int = 2
    cards: tuple[str, ...] = ()
    frozen: frozenset = frozenset()  # cells whose pawns may not move this turn


@dataclass(frozen=True)
class Checked:
    end: Cell
    stops: tuple  # (cell, "passed" | why it stopped)


def _illegal(en: str, fr: str, rule: str):
    raise IllegalRequest(en, fr, rule)


def check_move(valley: Valley, board: Board, move: Move, conditions: Conditions = Conditions(),
               limits: Limits = Limits(), variants: Variants = DEFAULT) -> Checked:
    """Raise :class:`IllegalRequest` naming the rule a move breaks; else where it stops."""
    here = board.pawns.get(move.start, {}).get(move.tribe, (0, 0))
    size = move.warriors + move.women
    if size == 0 or move.warriors > here[0] or move.women > here[1]:
        _illegal(f"{move.tribe} has not {move.warriors} warriors and {move.women} women on {cell_name(move.start)}",
                 f"{move.tribe} n'a pas {move.warriors} guerriers et {move.women} femmes en {cell_name(move.start)}",
                 "tribes.pieces")
    if move.start in limits.frozen:
        _illegal(f"pawns on {cell_name(move.start)} cannot move this turn",
                 f"les pions en {cell_name(move.start)} ne peuvent pas bouger ce tour", "tribes.frozen")
    if limits.max_cells == 0:
        _illegal("no human moves this turn (Blizzard)", "aucun humain ne bouge ce tour (Blizzard)", "event.blizzard")
    longest = limits.max_cells + (1 if limits.max_cells == 2 and set(limits.cards) & set(LONG_MARCH_CARDS) else 0)
    rafting = RAFT in limits.cards and not conditions.lake_frozen(valley)
    steps = len([c for c in move.path if not (rafting and c in valley.lake)])
    if not move.path or steps > longest:
        _illegal(f"a group moves 1 to {longest} cells, not {steps}",
                 f"un groupe avance de 1 à {longest} cases, pas {steps}", "tribes.steps")
    against = board.opponents(move.start, move.tribe)
    if against and (sum(here) <= against or sum(here) - size < against):
        _illegal(f"on {cell_name(move.start)} the group must outnumber its {against} opponents and leave as many",
                 f"en {cell_name(move.start)} le groupe doit être plus nombreux que ses {against} adversaires et en laisser autant",
                 "tribes.pinned")
    return _walk(valley, board, move, conditions, limits, variants, (move.warriors, move.women))


def _walk(valley, board, move, conditions, limits, variants, group) -> Checked:
    stops, here, bridged, mountain_crossed, afloat = [], move.start, False, False, False
    lake_frozen = conditions.lake_frozen(valley)
    for i, cell in enumerate(move.path):
        name, last = cell_name(cell), i == len(move.path) - 1
        if cell not in valley.neighbours(here):
            _illegal(f"step {i + 1}: {name} does not touch {cell_name(here)}",
                     f"pas {i + 1} : {name} ne touche pas {cell_name(here)}", "tribes.steps")
        river = valley.river_between(here, cell)
        if river and river not in conditions.frozen_rivers and not conditions.drought:
            if bridged or not set(limits.cards) & set(BRIDGE_CARDS):
                _illegal(f"step {i + 1}: river {river} bars the way", f"pas {i + 1} : la rivière {river} barre la route",
                         "tribes.river")
            bridged = True
        if cell in valley.lake and not lake_frozen:
            if RAFT not in limits.cards or bridged or last:
                _illegal(f"step {i + 1}: nobody walks into the lake" + (", and a raft lands on a shore" if last else ""),
                         f"pas {i + 1} : on n'entre pas dans le lac" + (", et un radeau accoste sur une rive" if last else ""),
                         "tribes.lake")
            stops.append((cell, "afloat"))
            here, afloat = cell, True
            continue
        if afloat and not last:
            _illegal(f"step {i + 1}: the move ends on the shore where the raft lands",
                     f"pas {i + 1} : le déplacement s'arrête sur la rive où le radeau accoste", "tribes.lake")
        if cell in valley.lake and last and variants.frozen_lake == "cross_only":
            _illegal("the move cannot end on the frozen lake", "le déplacement ne peut pas finir sur le lac gelé",
                     "animals.frozen_lake")
        if cell in conditions.flooded | conditions.burning | conditions.closed:
            _illegal(f"step {i + 1}: {name} is closed this turn", f"pas {i + 1} : {name} est fermée ce tour",
                     "tribes.closed")
        why = "lake" if afloat else _stop_reason(valley, board, move, cell, limits, mountain_crossed, bridged)
        if why == "mountain_crossed":
            mountain_crossed, why = True, None
        if why and not last:
            if why != "contact":
                _illegal(f"step {i + 1}: the group must stop on {name} ({why})",
                         f"pas {i + 1} : le groupe doit s'arrêter en {name} ({why})", f"tribes.{why}")
            group = _pass_through(board, move, cell, group, i)
            why = None
        elif cell in move.leave and not last:  # some pawns of the group stop after one cell
            group = _drop(move, cell, group, i)
        stops.append((cell, why or ("end" if last else "passed")))
        here = cell
    return Checked(here, tuple(stops))


def _stop_reason(valley, board, move, cell, limits, mountain_crossed, bridged):
    if bridged:
        return "river"
    if valley.terrain[cell] in (MOUNTAIN, VOLCANO):
        crossing = (limits.season == SUMMER and not mountain_crossed
                    and set(limits.cards) & set(LONG_MARCH_CARDS))
        return "mountain_crossed" if crossing else "mountain"
    if board.opponents(cell, move.tribe):
        return "contact"
    return None


def _drop(move, cell, group, i):
    lw, lf = move.leave[cell]
    if lw > group[0] or lf > group[1] or lw + lf >= sum(group):
        _illegal(f"step {i + 1}: the group cannot leave {lw} warriors and {lf} women on {cell_name(cell)} and go on",
                 f"pas {i + 1} : le groupe ne peut pas laisser {lw} guerriers et {lf} femmes en {cell_name(cell)} "
                 f"et continuer", "tribes.pieces")
    return (group[0] - lw, group[1] - lf)


def _pass_through(board, move, cell, group, i):
    """A group passing a cell with opponents: more numerous, leaving at least as many (V37, V42)."""
    against = board.opponents(cell, move.tribe)
    left = move.leave.get(cell, (0, 0))
    if sum(group) <= against or sum(left) < against:
        _illegal(f"step {i + 1}: to pass {cell_name(cell)} the group must outnumber its {against} opponents "
                 f"and leave at least {against} pawns there",
                 f"pas {i + 1} : pour traverser {cell_name(cell)} le groupe doit dépasser ses {against} adversaires "
                 f"et y laisser au moins {against} pions", "tribes.contact")
    return _drop(move, cell, group, i)

"""The animal movement phase (rules §3): one die moves every unit, herds form, fields suffer.

A *unit* is one animal or a herd of one species. Each unit's walk depends only on the map,
the markers and the humans, except for one thing: it stops on entering a cell where
units of its species *end* their move, so the result can depend on the order of moves.
Species never stop each other, so each species is solved on its own, and within it only
units whose walks cross can interact.

Our ruling (docs/rulings-vallee.md «Herd order», gap V31): among the outcomes some move
order can produce, take one with the fewest units (most herds); among those, the first
met when orders are tried rear-first along each unit's travel direction, then by cell in
reading order. The variant ``herd_order: rear_first`` simply moves the units in that
order. Either way the result does not depend on the order units are listed in.

>>> from vallee.board import sample_valley
>>> wolves = [Unit("front", "wolf", (-3, 1)), Unit("rear", "wolf", (-3, 0))]
>>> phase = move_animals(sample_valley(), Conditions(), 2, wolves)
>>> [(m.unit.id, m.end, m.stop) for m in phase.moves]
[('front', (-3, 3), 'herd'), ('rear', (-3, 3), 'range')]
>>> phase.herds[0].units, phase.order["wolf"]
(('rear', 'front'), ('rear', 'front'))
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import Valley
from .core import MOUNTAIN, SPECIES, VOLCANO, Cell, add, reading_key
from .core import STEPS, DIRECTION_NAMES
from .variants import DEFAULT, Variants

INTACT, DAMAGED, DESTROYED = "intact", "damaged", "destroyed"


@dataclass(frozen=True)
class Unit:
    id: str
    species: str
    cell: Cell
    count: int = 1


@dataclass(frozen=True)
class Field:
    cell: Cell
    state: str = INTACT
    palisade: bool = False


@dataclass(frozen=True)
class Conditions:
    """What stands in the animals' way this turn besides the map itself."""

    humans: frozenset = frozenset()        # cells with warriors, women or the solitaire
    flooded: frozenset = frozenset()
    burning: frozenset = frozenset()
    closed: frozenset = frozenset()        # closed this turn by an event (snowed mountains…)
    frozen_rivers: frozenset = frozenset()  # river numbers
    drought: bool = False

    def lake_frozen(self, valley: Valley) -> bool:
        """The lake freezes with any frozen river that flows into it (card Fleuve gelé)."""
        return any(valley.rivers[n].joins_lake for n in self.frozen_rivers if n in valley.rivers)


@dataclass(frozen=True)
class Walk:
    """A unit's walk as if no unit of its species stopped it."""

    direction: str | None
    reversed: bool
    cells: tuple[Cell, ...]
    stop: str              # why the walk ends: range, obstacle, humans, frozen_lake, pinned, blocked
    obstacle: str | None   # edge, river, lake, flooded, burning, closed, mountain


@dataclass(frozen=True)
class Move:
    unit: Unit
    walk: Walk
    path: tuple[Cell, ...]  # cells entered, in order
    end: Cell
    stop: str               # the walk's reason, or "herd" when it stopped to join its species
    trampled: tuple[Cell, ...] = ()

    @property
    def rule(self) -> str:
        return {"range": "animals.range", "obstacle": "animals.obstacle", "humans": "animals.humans",
                "herd": "animals.herd", "frozen_lake": "animals.frozen_lake", "pinned": "animals.pinned",
                "blocked": "animals.blocked"}[self.stop]


@dataclass(frozen=True)
class Herd:
    species: str
    cell: Cell
    units: tuple[str, ...]  # in the order they ended there
    count: int


@dataclass(frozen=True)
class FieldChange:
    cell: Cell
    before: str
    after: str
    by: tuple[str, ...]   # ids of the units that entered it
    protected: bool


@dataclass(frozen=True)
class Outcome:
    species: str
    order: tuple[str, ...]
    ends: dict
    units_after: int


@dataclass
class AnimalPhase:
    direction: str
    moves: list[Move]
    herds: list[Herd]
    fields: list[FieldChange]
    order: dict[str, tuple[str, ...]]
    alternatives: list[Outcome] = field(default_factory=list)


# -- one unit's walk ------------------------------------------------------------------

class _Terrain:
    """The obstacles of one phase, for one valley."""

    def __init__(self, valley: Valley, conditions: Conditions, variants: Variants):
        self.valley, self.conditions = valley, conditions
        self.lake_frozen = conditions.lake_frozen(valley)
        self.lake_walkable = self.lake_frozen and variants.frozen_lake == "walkable"

    def obstacle(self, cell: Cell, nxt: Cell, species: str) -> str | None:
        """What bars the step from ``cell`` to ``nxt`` for that species, or None."""
        v, c, kind = self.valley, self.conditions, SPECIES[species]
        if nxt not in v.terrain:
            return "edge"
        river = v.river_between(cell, nxt)
        if river and not kind.crosses_rivers and river not in c.frozen_rivers and not c.drought:
            return "river"
        if nxt in v.lake and not self.lake_frozen:
            return "lake"
        for name in ("flooded", "burning", "closed"):
            if nxt in getattr(c, name):
                return name
        if v.terrain[nxt] in (MOUNTAIN, VOLCANO) and not kind.enters_mountains:
            return "mountain"
        return None


def walk_of(unit: Unit, terrain: _Terrain, face: int) -> Walk:
    """Where a unit would go if no unit of its species stopped it (rules §3, gaps V29–V30)."""
    valley = terrain.valley
    if unit.cell in terrain.conditions.humans:
        return Walk(None, False, (), "pinned", None)
    names = DIRECTION_NAMES[valley.orientation]
    direction = valley.direction_of_face(face)
    step = STEPS[names.index(direction)]
    reversed_ = False
    if terrain.obstacle(unit.cell, add(unit.cell, step), unit.species):
        back = (-step[0], -step[1])
        if terrain.obstacle(unit.cell, add(unit.cell, back), unit.species):
            return Walk(None, False, (), "blocked", None)
        step, reversed_ = back, True
        direction = names[STEPS.index(step)]
    cells, here, stop, obstacle = [], unit.cell, "range", None
    for _ in range(SPECIES[unit.species].range):
        nxt = add(here, step)
        obstacle = terrain.obstacle(here, nxt, unit.species)
        if obstacle:
            stop = "obstacle"
            break
        cells.append(nxt)
        here = nxt
        if nxt in terrain.conditions.humans:
            stop = "humans"
            break
    if not terrain.lake_walkable:
        while cells and cells[-1] in valley.lake:  # a frozen lake is crossed, never stopped on (V23)
            cells.pop()
            stop, obstacle = "frozen_lake", None
    return Walk(direction, reversed_, tuple(cells), stop, obstacle)


# -- the order search ---------------------------------------------------------------

def _rank_key(unit: Unit, walk: Walk, orientation: str):
    """Rear-first along the unit's own travel direction, then reading order (gap V31)."""
    step = STEPS[DIRECTION_NAMES[orientation].index(walk.direction)]
    q, r = unit.cell
    # The cube dot product grows as the cell lies further ahead along the step.
    ahead = q * step[0] + r * step[1] + (-q - r) * (-step[0] - step[1])
    return (ahead, reading_key(unit.cell))


def _end_of(walk: Walk, start: Cell, settled) -> tuple[Cell, bool]:
    for cell in walk.cells:
        if cell in settled:
            return cell, True
    return (walk.cells[-1] if walk.cells else start), False


def _components(movers, walks):
    """Groups of movers whose walks can meet (a mover only stops where another one ends)."""
    parent = list(range(len(movers)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    reach = [set(walks[u.id].cells) | {u.cell} for u in movers]
    for i in range(len(movers)):
        for j in range(i + 1, len(movers)):
            if set(walks[movers[i].id].cells) & reach[j] or set(walks[movers[j].id].cells) & reach[i]:
                parent[root(i)] = root(j)
    groups: dict[int, list] = {}
    for i, unit in enumerate(movers):
        groups.setdefault(root(i), []).append(unit)
    return list(groups.values())


def _best_order(group, walks, settled0) -> tuple[int, tuple[int, ...]]:
    """The order (indexes into ``group``, ranked) giving the fewest end cells; first such."""
    memo: dict = {}
    full = (1 << len(group)) - 1

    def best(mask, settled):
        if mask == full:
            return len(settled), ()
        key = (mask, settled)
        if key not in memo:
            found = None
            for i, unit in enumerate(group):
                if mask & (1 << i):
                    continue
                end, _ = _end_of(walks[unit.id], unit.cell, settled)
                count, rest = best(mask | (1 << i), settled | {end})
                if found is None or count < found[0]:
                    found = (count, (i,) + rest)
            memo[key] = found
        return memo[key]

    return best(0, frozenset(settled0))


def _reachable(group, walks, settled0) -> dict:
    """Every outcome some order of ``group`` gives: ends tuple → the first order found."""
    memo: dict = {}
    full = (1 << len(group)) - 1

    def reach(mask, settled, ends):
        if mask == full:
            return {ends: ()}
        key = (mask, settled, ends)
        if key not in memo:
            out = {}
            for i, unit in enumerate(group):
                if not mask & (1 << i):
                    end, _ = _end_of(walks[unit.id], unit.cell, settled)
                    new_ends = ends[:i] + (end,) + ends[i + 1:]
                    for outcome, rest in reach(mask | (1 << i), settled | {end}, new_ends).items():
                        out.setdefault(outcome, (i,) + rest)
            memo[key] = out
        return memo[key]

    return reach(0, frozenset(settled0), tuple(u.cell for u in group))


# -- the phase --------------------------------------------------------------------------

def move_animals(valley: Valley, conditions: Conditions, face: int, units, fields=(),
                 variants: Variants = DEFAULT) -> AnimalPhase:
    """Move every unit for die ``face``; see the module docstring for the herd order."""
    terrain = _Terrain(valley, conditions, variants)
    walks = {u.id: walk_of(u, terrain, face) for u in units}
    moves: dict[str, Move] = {}
    order: dict[str, tuple[str, ...]] = {}
    alternatives: list[Outcome] = []
    for species in SPECIES:
        mine = [u for u in units if u.species == species]
        if not mine:
            continue
        static = [u for u in mine if not walks[u.id].cells]
        movers = [u for u in mine if walks[u.id].cells]
        settled = {u.cell for u in static}
        for u in static:
            moves[u.id] = Move(u, walks[u.id], (), u.cell, walks[u.id].stop)
        sequence = []
        for group in sorted(_components(movers, walks), key=lambda g: min(reading_key(u.cell) for u in g)):
            group.sort(key=lambda u: _rank_key(u, walks[u.id], valley.orientation))
            local = {c for c in settled if any(c in walks[u.id].cells for u in group)}
            if variants.herd_order == "max_merges" and len(group) > 1:
                _, picked = _best_order(group, walks, local)
                alternatives += _other_outcomes(species, group, walks, local, picked)
            else:
                picked = tuple(range(len(group)))
            for i in picked:
                unit = group[i]
                end, joined = _end_of(walks[unit.id], unit.cell, local)
                local.add(end)
                path = walks[unit.id].cells[:walks[unit.id].cells.index(end) + 1]
                moves[unit.id] = Move(unit, walks[unit.id], path, end, "herd" if joined else walks[unit.id].stop)
                sequence.append(unit.id)
        order[species] = tuple(sequence)
    ordered = [moves[u.id] for u in units]
    changes, ordered = _trample(ordered, fields, variants)
    return AnimalPhase(valley.direction_of_face(face), ordered, _herds(ordered, order), changes, order, alternatives)


def _other_outcomes(species, group, walks, settled, picked) -> list[Outcome]:
    outcomes = _reachable(group, walks, settled)
    chosen = tuple(_replay(group, walks, settled, picked))
    out = []
    for ends, sequence in sorted(outcomes.items(), key=lambda kv: (len(set(kv[0])), kv[1])):
        if ends != chosen:
            out.append(Outcome(species, tuple(group[i].id for i in sequence),
                               {group[i].id: ends[i] for i in range(len(group))}, len(set(ends))))
    return out


def _replay(group, walks, settled, sequence):
    local, ends = set(settled), [u.cell for u in group]
    for i in sequence:
        end, _ = _end_of(walks[group[i].id], group[i].cell, local)
        local.add(end)
        ends[i] = end
    return ends


def _herds(moves, order) -> list[Herd]:
    by_end: dict[tuple, list[Move]] = {}
    for m in moves:
        by_end.setdefault((m.unit.species, m.end), []).append(m)
    herds = []
    for (species, cell), found in by_end.items():
        if len(found) > 1:
            rank = {uid: i for i, uid in enumerate(order.get(species, ()))}
            found.sort(key=lambda m: (m.path != (), rank.get(m.unit.id, -1)))
            herds.append(Herd(species, cell, tuple(m.unit.id for m in found), sum(m.unit.count for m in found)))
    return sorted(herds, key=lambda h: (reading_key(h.cell), list(SPECIES).index(h.species)))


def _trample(moves, fields, variants: Variants):
    """Fields entered by bison, rhinos and mammoths (rules §3, gap V34); the order of entries
    does not matter: each entry moves a field one step from intact to destroyed."""
    by_cell = {f.cell: f for f in fields}
    entries: dict[Cell, list[str]] = {}
    hits: dict[Cell, int] = {}
    updated = []
    for m in moves:
        trampled = []
        if SPECIES[m.unit.species].tramples:
            for cell in m.path:
                if cell in by_cell:
                    entries.setdefault(cell, []).append(m.unit.id)
                    hits[cell] = hits.get(cell, 0) + (m.unit.count if variants.trample_per == "animal" else 1)
                    trampled.append(cell)
        updated.append(Move(m.unit, m.walk, m.path, m.end, m.stop, tuple(trampled)))
    changes = []
    for cell in sorted(entries, key=reading_key):
        f = by_cell[cell]
        damage = 0 if f.palisade else hits[cell] + (1 if f.state == DAMAGED else 0)
        after = f.state if f.palisade else (INTACT, DAMAGED, DESTROYED)[min(damage, 2)]
        changes.append(FieldChange(cell, f.state, after, tuple(entries[cell]), f.palisade))
    return changes, updated

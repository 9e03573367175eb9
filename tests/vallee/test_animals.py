"""Animal movement on the sample valley: every stop reason, herds, trampling, the herd
ruling against brute force, and independence from the order units are listed in.

The sample's compass: 1 NE, 2 SE, 3 W, 4 E, 5 NW, 6 SW.
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings, strategies as st

from vallee.animals import Conditions, Field, Unit, move_animals, walk_of, _Terrain
from vallee.board import sample_valley
from vallee.core import MOUNTAIN, SPECIES, VOLCANO
from vallee.variants import Variants

from .conftest import run_cli

V = sample_valley()


def one(species, cell, die, conditions=Conditions(), variants=Variants(), count=1, fields=()):
    phase = move_animals(V, conditions, die, [Unit("u", species, cell, count)], fields, variants)
    return phase.moves[0], phase


@pytest.mark.parametrize("species, cell, die, conditions, path, stop, obstacle, reversed_", [
    ("wolf", (0, 1), 4, Conditions(humans=frozenset({(0, 1)})), (), "pinned", None, False),
    ("mammoth", (0, -1), 5, Conditions(), (), "blocked", None, False),
    ("mammoth", (0, -1), 4, Conditions(), ((-1, -1),), "range", None, True),
    ("wolf", (3, 0), 4, Conditions(), ((2, 0), (1, 0)), "obstacle", "lake", True),
    ("bison", (0, 2), 3, Conditions(), ((-1, 2),), "obstacle", "river", False),
    ("bear", (0, 2), 3, Conditions(), ((-1, 2), (-2, 2)), "range", None, False),
    ("bison", (0, 2), 3, Conditions(frozen_rivers=frozenset({3})), ((-1, 2), (-2, 2)), "range", None, False),
    ("bison", (0, 2), 3, Conditions(drought=True), ((-1, 2), (-2, 2)), "range", None, False),
    ("bison", (3, -1), 5, Conditions(), ((3, -2),), "obstacle", "mountain", False),
    ("wolf", (-3, 1), 4, Conditions(), ((-2, 1), (-1, 1), (0, 1)), "range", None, False),
    ("wolf", (-3, 1), 4, Conditions(burning=frozenset({(-1, 1)})), ((-2, 1),), "obstacle", "burning", False),
    ("wolf", (-3, 1), 4, Conditions(flooded=frozenset({(-1, 1)})), ((-2, 1),), "obstacle", "flooded", False),
    ("wolf", (-3, 1), 4, Conditions(closed=frozenset({(0, 1)})), ((-2, 1), (-1, 1)), "obstacle", "closed", False),
    ("wolf", (-3, 1), 4, Conditions(closed=frozenset({(-2, 1)})), (), "blocked", None, False),
    ("wolf", (-3, 1), 4, Conditions(humans=frozenset({(-1, 1)})), ((-2, 1), (-1, 1)), "humans", None, False),
    ("wolf", (2, -1), 1, Conditions(), ((3, -2),), "obstacle", "edge", False),
])
def test_each_stop_reason_on_the_sample_valley(species, cell, die, conditions, path, stop, obstacle, reversed_):
    move, _ = one(species, cell, die, conditions)
    assert (move.path, move.stop, move.walk.obstacle if stop == "obstacle" else None, move.walk.reversed) == \
        (path, stop, obstacle, reversed_)
    assert move.end == (path[-1] if path else cell)


def test_a_frozen_lake_is_crossed_but_not_stopped_on_unless_walkable():
    frozen = Conditions(frozen_rivers=frozenset({1}))  # river 1 flows into the lake: it freezes too
    move, _ = one("wolf", (-3, 0), 4, frozen)
    assert (move.path, move.stop) == (((-2, 0),), "frozen_lake")
    move, _ = one("tiger", (-2, 0), 4, frozen)
    assert (move.path, move.stop) == (((-1, 0), (0, 0), (1, 0)), "range")
    move, _ = one("wolf", (-3, 0), 4, frozen, Variants(frozen_lake="walkable"))
    assert move.end == (0, 0)
    move, _ = one("tiger", (-2, 0), 4, Conditions(frozen_rivers=frozenset({3})))  # river 3 misses the lake
    assert (move.path, move.stop, move.walk.reversed) == (((-3, 0),), "obstacle", True)


def test_the_rear_wolf_passes_the_unmoved_front_one_and_they_form_a_herd():
    units = [Unit("front", "wolf", (-2, 1)), Unit("rear", "wolf", (-3, 1))]
    for variants in (Variants(), Variants(herd_order="rear_first")):
        phase = move_animals(V, Conditions(), 4, units, variants=variants)
        assert [(m.unit.id, m.end, m.stop) for m in phase.moves] == [("front", (0, 1), "herd"), ("rear", (0, 1), "range")]
        assert [(h.cell, h.units, h.count) for h in phase.herds] == [((0, 1), ("rear", "front"), 2)]


def test_three_bears_form_one_herd_by_default_and_two_units_rear_first():
    """The bear on 3,-1 is turned back by the board's edge and walks west into the others."""
    units = [Unit("a", "bear", (0, -1)), Unit("b", "bear", (3, -1)), Unit("c", "bear", (1, -1))]
    phase = move_animals(V, Conditions(), 4, units)
    assert {m.unit.id: m.end for m in phase.moves} == {"a": (2, -1), "b": (2, -1), "c": (2, -1)}
    assert phase.order["bear"] == ("a", "b", "c") and phase.herds[0].count == 3
    assert {o.units_after for o in phase.alternatives} >= {2}
    rear = move_animals(V, Conditions(), 4, units, variants=Variants(herd_order="rear_first"))
    assert {m.unit.id: m.end for m in rear.moves} == {"a": (1, -1), "b": (1, -1), "c": (3, -1)}
    assert rear.order["bear"] == ("b", "a", "c") and rear.alternatives == []


def test_big_animals_trample_fields_once_per_unit_and_a_palisade_protects():
    herd = Unit("h", "bison", (0, 1), 2)
    phase = move_animals(V, Conditions(), 2, [herd], [Field((0, 2))])
    assert [(f.cell, f.before, f.after, f.by) for f in phase.fields] == [((0, 2), "intact", "damaged", ("h",))]
    assert phase.moves[0].trampled == ((0, 2),)
    per_animal = move_animals(V, Conditions(), 2, [herd], [Field((0, 2))], Variants(trample_per="animal"))
    assert per_animal.fields[0].after == "destroyed"
    fenced = move_animals(V, Conditions(), 2, [herd], [Field((0, 2), palisade=True)])
    assert (fenced.fields[0].after, fenced.fields[0].protected) == ("intact", True)
    damaged = move_animals(V, Conditions(), 2, [herd], [Field((0, 2), "damaged")])
    assert damaged.fields[0].after == "destroyed"
    two = move_animals(V, Conditions(), 2, [Unit("m", "mammoth", (0, 1)), herd], [Field((0, 2))])
    assert (two.fields[0].after, two.fields[0].by) == ("destroyed", ("m", "h"))
    wolves = move_animals(V, Conditions(), 2, [Unit("w", "wolf", (0, 1))], [Field((0, 2))])
    assert wolves.fields == []


# -- properties over random positions ----------------------------------------------------

LAND = [c for c in V.cells if c not in V.lake]


@st.composite
def positions(draw, most=10):
    units, taken = [], set()
    for i in range(draw(st.integers(1, most))):
        species = draw(st.sampled_from(list(SPECIES)))
        allowed = [c for c in LAND if SPECIES[species].enters_mountains or V.terrain[c] not in (MOUNTAIN, VOLCANO)]
        cell = draw(st.sampled_from(allowed))
        if (species, cell) in taken:
            continue
        taken.add((species, cell))
        units.append(Unit(f"u{i}", species, cell, draw(st.integers(1, 2))))
    humans = frozenset(draw(st.sets(st.sampled_from(LAND), max_size=3)))
    burning = frozenset(draw(st.sets(st.sampled_from(LAND), max_size=2))) - {u.cell for u in units}
    frozen = frozenset(draw(st.sets(st.sampled_from([1, 2, 3]), max_size=2)))
    fields = [Field(c, draw(st.sampled_from(["intact", "damaged"])), draw(st.booleans()))
              for c in draw(st.sets(st.sampled_from(LAND), max_size=4))]
    return units, Conditions(humans=humans, burning=burning, frozen_rivers=frozen), draw(st.integers(1, 6)), fields


def summary(phase):
    return ({m.unit.id: (m.path, m.end, m.stop, m.trampled) for m in phase.moves},
            sorted((h.species, h.cell, frozenset(h.units), h.count) for h in phase.herds),
            [(f.cell, f.before, f.after, frozenset(f.by)) for f in phase.fields], phase.order)


@settings(max_examples=150, deadline=None)
@given(positions(), st.randoms(use_true_random=False), st.sampled_from(["max_merges", "rear_first"]))
def test_the_result_does_not_depend_on_the_order_units_are_listed_in(position, rnd, herd_order):
    units, conditions, die, fields = position
    shuffled = list(units)
    rnd.shuffle(shuffled)
    variants = Variants(herd_order=herd_order)
    assert summary(move_animals(V, conditions, die, units, fields, variants)) == \
        summary(move_animals(V, conditions, die, shuffled, fields, variants))


def sequential_ends(order, walks, static):
    settled, ends = set(static), {}
    for unit in order:
        end = next((c for c in walks[unit.id].cells if c in settled), walks[unit.id].cells[-1])
        settled.add(end)
        ends[unit.id] = end
    return ends, len(settled)


@settings(max_examples=150, deadline=None)
@given(positions(most=7))
def test_the_herd_ruling_reaches_the_fewest_units_by_an_actual_order(position):
    """Brute force over every move order of each species: ours is reachable (its own order
    replays it) and no order leaves fewer units; animals are neither lost nor made."""
    units, conditions, die, fields = position
    phase = move_animals(V, conditions, die, units, fields)
    terrain = _Terrain(V, conditions, Variants())
    walks = {u.id: walk_of(u, terrain, die) for u in units}
    ends = {m.unit.id: m.end for m in phase.moves}
    for species in SPECIES:
        mine = [u for u in units if u.species == species]
        static = {u.cell for u in mine if not walks[u.id].cells}
        movers = {u.id: u for u in mine if walks[u.id].cells}
        if not movers:
            continue
        replay, ours = sequential_ends([movers[i] for i in phase.order[species]], walks, static)
        assert replay == {i: ends[i] for i in movers}
        best = min(sequential_ends(p, walks, static)[1] for p in itertools.permutations(movers.values()))
        assert ours == best
        herds = [h for h in phase.herds if h.species == species]
        alone = [m for m in phase.moves if m.unit.species == species and
                 not any(m.unit.id in h.units for h in herds)]
        assert sum(h.count for h in herds) + sum(m.unit.count for m in alone) == sum(u.count for u in mine)


@settings(max_examples=100, deadline=None)
@given(positions())
def test_every_animal_ends_on_a_cell_it_may_stand_on(position):
    units, conditions, die, fields = position
    for m in move_animals(V, conditions, die, units, fields).moves:
        assert m.end in V.terrain and m.end not in V.lake and m.end not in conditions.burning
        assert SPECIES[m.unit.species].enters_mountains or V.terrain[m.end] not in (MOUNTAIN, VOLCANO)
        assert len(m.path) <= SPECIES[m.unit.species].range


# -- the command --------------------------------------------------------------------------

BEARS = {"map": "sample", "die": 4, "season": "winter",
         "units": [{"id": "a", "species": "bear", "cell": "0,-1"}, {"id": "b", "species": "bear", "cell": "3,-1"},
                   {"id": "c", "species": "bear", "cell": "1,-1"}]}


def test_animals_command_answers_paths_herds_and_explanations():
    code, out = run_cli(["animals"], json.dumps(BEARS))
    assert code == 0 and out["direction"] == "E"
    assert [(u["id"], u["end"], u["stop"]) for u in out["units"]] == [
        ("a", "2,-1", "range"), ("b", "2,-1", "herd"), ("c", "2,-1", "herd")]
    assert out["herds"] == [{"species": "bear", "cell": "2,-1", "units": ["a", "b", "c"], "count": 3}]
    b = out["units"][1]
    assert b["reversed"] and b["direction"] == "W" and "turned back" in b["en"] and "demi-tour" in b["fr"]


@pytest.mark.parametrize("change, code, key, value", [
    ({"die": 7}, 2, "field", "die"),
    ({"season": "spring"}, 2, "field", "season"),
    ({"units": [{"species": "dodo", "cell": "0,1"}]}, 2, "field", "units.0.species"),
    ({"units": [{"species": "wolf", "cell": "9,9"}]}, 2, "field", "units.0.cell"),
    ({"units": [{"species": "bison", "cell": "0,-3"}]}, 1, "rule", "animals.obstacle"),
    ({"units": [{"species": "wolf", "cell": "0,1"}, {"species": "wolf", "cell": "0,1"}]}, 1, "rule", "animals.herd"),
    ({"units": [{"species": "bison", "cell": "0,1", "count": 9}, {"species": "bison", "cell": "0,2"}]}, 1, "rule",
     "pieces.animals"),
    ({"markers": {"frozen_rivers": [9]}}, 2, "field", "markers.frozen_rivers.0"),
    ({"season": "summer", "markers": {"frozen_rivers": [1]}}, 1, "rule", "animals.frozen_river"),
    ({"map": "published"}, 2, "field", "map"),
    ({"variants": {"herd_order": "front_first"}}, 2, "field", "variants.herd_order"),
])
def test_animals_command_errors(change, code, key, value):
    got, out = run_cli(["animals"], json.dumps({**BEARS, **change}))
    assert got == code and out["ok"] is False and out["error"][key] == value

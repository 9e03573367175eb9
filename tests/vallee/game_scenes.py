"""Games set up in a given position on the sample valley, for the golden tests.

A scene is a real :class:`vallee.game.Game` (physical components: every die, card and
token is given by the test) whose pieces are placed where the test says, stopped at the
step the test names of the turn it names.
"""

from __future__ import annotations

from vallee.core import parse_cell
from vallee.game import Game
from vallee.game_turn import next_turn, take_from_bag

# The sample valley's cells used by the scenes (docs/vallee-api.md «The sample valley»).
PLAIN_RIVER = "0,1"  # plain, region 4, on the lake
FOREST = "1,1"  # forest, region 4


def scene(
    tribes: dict,
    turn: int = 3,
    stop: str = "event_draw",
    animals=(),
    fields=None,
    fire_rules=False,
    variants=None,
    hands=None,
    held=(),
    random="physical",
    first=None,
    markers=None,
) -> Game:
    """``tribes``: name → {"pawns": {cell: [w, f]}, "camps": {cell: kind}, "food": n, "fire": bool};
    ``animals``: (species, cell, count); ``fields``: cell → state; ``hands``: name → card ids."""
    names = list(tribes)
    game = Game.new(
        {
            "players": names,
            "map": "sample",
            "seed": 1,
            "random": random,
            "first": first or names[0],
            "fire_rules": fire_rules,
            "variants": variants or {},
        }
    )
    game.agenda = []
    game.held = list(held)
    game.turn = turn - 1
    for name, spec in tribes.items():
        t = game.tribes[name]
        t.pawns = {parse_cell(c, "cell"): list(v) for c, v in spec.get("pawns", {}).items()}
        t.camps = {parse_cell(c, "cell"): k for c, k in spec.get("camps", {}).items()}
        t.food = spec.get("food", 12)
        t.fire = spec.get("fire", False)
        t.hand = list((hands or {}).get(name, []))
    for species, cell, count in animals:
        cell = parse_cell(cell, "cell")
        letters = []
        for _ in range(count):
            token = next(tk for tk in game.bag if tk[0] == species)
            take_from_bag(game, token)
            letters.append(token[1])
        unit_id = f"{species}@{cell[0]},{cell[1]}"
        from vallee.game import Animal

        game.animals[unit_id] = Animal(unit_id, species, cell, letters)
    for cell, state in (fields or {}).items():
        owner = next((n for n, s in tribes.items() if cell in s.get("camps", {})), names[0])
        game.fields[parse_cell(cell, "cell")] = {"state": state, "palisade": False, "owner": owner}
    game.turn_log = {}
    next_turn(game)
    for key, value in (markers or {}).items():
        setattr(game.markers, key, value)
    while game.agenda and game.agenda[0]["step"] != stop:
        if game.agenda[0]["step"] == "order":  # skipped: the seats in order, as the step would say
            game.order = tuple(p for p in game.seats if game.tribes[p].count)
        game.agenda.pop(0)
    game._events = []
    game._run()
    return game


def pawns(game, name: str) -> dict:
    return {f"{c[0]},{c[1]}": tuple(v) for c, v in game.tribes[name].pawns.items()}


def play(game, *entries) -> list:
    """Apply entries in turn; all their events."""
    out = []
    for entry in entries:
        out += game.apply(entry)
    return out


def types(events) -> list:
    return [e["type"] for e in events]

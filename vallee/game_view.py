"""The game's state as JSON: what a page draws and what ``maamut vallee replay --json`` prints.

Hidden information stays hidden where the table keeps it hidden: with virtual decks the
hands and piles are known to the companion and shown; a page for the players decides what
to show to whom.
"""

from __future__ import annotations

from .core import cell_name, reading_key


def _cells(mapping) -> dict:
    return {cell_name(c): v for c, v in sorted(mapping.items(), key=lambda kv: reading_key(kv[0]))}


def tribe_view(t) -> dict:
    return {
        "pawns": _cells({c: list(v) for c, v in t.pawns.items()}),
        "camps": _cells(t.camps),
        "food": t.food,
        "warriors": t.warriors,
        "women": t.women,
        "hand": list(t.hand),
        "fire": t.fire,
        "returned": t.returned,
        "out": t.out,
        "announced": t.announced,
        "wolf": cell_name(t.wolf) if t.wolf else None,
        "turn_cards": list(t.turn_cards),
    }


def view(game) -> dict:
    info = game.info
    m = game.markers
    return {
        "turn": game.turn,
        "year": info.year,
        "season": info.season,
        "season_turn": info.season_turn,
        "phases": list(info.phases),
        "held": list(game.held),
        "order": list(game.order),
        "players": list(game.seats),
        "fire_rules": game.fire_rules,
        "random": dict(game.modes),
        "tribes": {name: tribe_view(t) for name, t in game.tribes.items()},
        "animals": [
            {"id": a.id, "species": a.species, "cell": cell_name(a.cell), "count": a.count}
            for a in sorted(game.animals.values(), key=lambda a: (reading_key(a.cell), a.species))
        ],
        "neutrals": [{"cell": cell_name(n["cell"]), "sex": n["sex"]} for n in game.neutrals],
        "fields": _cells(game.fields),
        "markers": {
            "flooded": _names(m.flooded),
            "burning": _names(m.burning),
            "closed": _names(m.closed),
            "frozen_cells": _names(m.frozen_cells),
            "lava": _names(m.lava),
            "frozen_rivers": sorted(m.frozen_rivers),
            "drought": m.drought,
            "lean_meat": m.lean_meat,
            "good_rains": m.good_rains,
            "cold_snap": m.cold_snap,
            "no_arrivals": m.no_arrivals,
            "epizootie": m.epizootie,
            "move_limit": m.move_limit,
        },
        "bag": len(game.bag),
        "wolves_reserve": game.wolves_reserve,
        "decks": {season: len(pile) for season, pile in game.decks.items()},
        "lasting": [card for card, _ in game.lasting],
        "trick_pile": len(game.trick_pile),
        "over": game.over,
        "winners": list(game.winners),
        "reason": game.reason,
        "pending": game.pending(),
        "entries": len(game.entries),
    }


def _names(cells) -> list:
    return [cell_name(c) for c in sorted(cells, key=reading_key)]

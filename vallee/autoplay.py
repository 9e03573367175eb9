"""A seeded random player: it answers whatever :meth:`Game.pending` asks with one of the
legal options, for the random-play tests and ``maamut bench vallee``.

It is not a strategy, only a fair sampler of legal play, nudged toward what ends a game
(founding camps, keeping conquered ones) so that whole games reach their end.

>>> from vallee.game import Game
>>> game = Game.new({"players": ["red", "blue", "green"], "map": "sample", "seed": 5})
>>> play_game(game, random.Random(5), max_turns=60).over
True
"""

from __future__ import annotations

import random

from .core import DIRECTION_NAMES, SPECIES, BadRequest, IllegalRequest, cell_name, parse_cell

#: Chance that a player plays a card offered at a question.
TRICK_CHANCE = 0.1


def answer(game, rng: random.Random) -> dict:
    """One legal entry for the question asked now."""
    ask = game.pending()
    kind = ask["kind"]
    if ask["tricks"] and rng.random() < TRICK_CHANCE:
        trick = trick_entry(game, rng, ask)
        if trick is not None:
            return trick
    if kind in ("roll", "card", "tokens", "lot"):
        return physical(game, ask, rng) if ask.get("random") == "physical" else {"kind": kind}
    if kind == "pass":
        return {"kind": "pass"}
    if kind == "place_camp":
        cell = rng.choice(ask["options"])
        return {"kind": kind, "cell": cell, "field": cell in ask["field_options"] and rng.random() < 0.7}
    if kind in ("return", "combat_cell"):
        return {"kind": kind, "cell": rng.choice(ask["options"])}
    if kind == "lose":
        if "pawn" in ask:
            return {"kind": kind, "cell": rng.choice(ask["options"])}
        return {"kind": kind, "pawn": rng.choice(ask["options"])}
    if kind == "species_order":
        order = list(ask["options"])
        rng.shuffle(order)
        return {"kind": kind, "order": order}
    if kind == "camp_taken":
        return {"kind": kind, "choice": "keep" if rng.random() < 0.8 else "burn"}
    if kind == "sow":
        return {"kind": kind, "cells": [c for c in ask["options"] if rng.random() < 0.5][:1]}
    if kind == "feed":
        return {"kind": kind, "starve": starving(game, ask, rng)}
    if kind == "move":
        return movement(game, ask, rng)
    raise ValueError(f"no answer for {kind!r}")


def physical(game, ask, rng) -> dict:
    """What a table would type for a physical draw: a die, a card of the deck, tokens of the bag."""
    kind = ask["kind"]
    if kind == "roll":
        return {"kind": kind, "dice": [rng.randint(1, 6) for _ in range(ask["count"])]}
    if kind == "lot":
        return {"kind": kind, "player": rng.choice(ask["options"])}
    if kind == "card":
        pile = game.decks[ask["deck"]] or game.discards[ask["deck"]]
        return {"kind": kind, "card": rng.choice(sorted(pile))}
    drawn = rng.sample(sorted(game.bag), ask["count"])
    return {"kind": kind, "tokens": [{"species": sp, "letter": le} for sp, le in drawn]}


def starving(game, ask, rng) -> list:
    pawns = [(cell, "warriors") for cell, (w, _) in ask["options"].items() for _ in range(w)]
    pawns += [(cell, "women") for cell, (_, f) in ask["options"].items() for _ in range(f)]
    out = {}
    for cell, sex in rng.sample(pawns, ask["starve"]):
        out.setdefault(cell, {"cell": cell, "warriors": 0, "women": 0})[sex] += 1
    return list(out.values())


def movement(game, ask, rng) -> dict:
    options = ask["options"]
    if options["camps"] and rng.random() < 0.7:
        return {"kind": "found_camp", "cell": rng.choice(options["camps"])}
    if options["fire"] and rng.random() < 0.5:
        return {"kind": "take_fire", "cell": rng.choice(options["fire"])}
    groups = options["groups"]
    if not groups or rng.random() < 0.25:
        return {"kind": "done"}
    start = rng.choice(sorted(groups))
    w, f = groups[start]
    if parse_cell(start, "from") in game.tribes[ask["player"]].camps:
        f = min(f, max(0, game.tribes[ask["player"]].at(parse_cell(start, "from"))[1] - 1))  # keep the camp
    if w and f and rng.random() < 0.5:
        mw, mf = 1, 1  # a couple, to found a camp further on
    else:
        mw = rng.randint(0, w)
        mf = rng.randint(0 if mw else min(1, f), f)
    if mw + mf == 0:
        return {"kind": "done"}
    reach = game.destinations(start, mw, mf)
    if not reach:
        return {"kind": "done"}
    end = rng.choice(sorted(reach))
    return {"kind": "move", "from": start, "path": reach[end], "warriors": mw, "women": mf}


def trick_entry(game, rng, ask) -> dict | None:
    """A card offered now, with its choices sampled among plausible ones (the game refuses
    the implausible: the caller tries it on a copy)."""
    offered = [t for t in ask["tricks"] if "via" not in t]
    if not offered:
        return None
    pick = rng.choice(offered)
    player = pick["player"]
    entry = {"kind": "trick", "player": player, "card": pick["card"]}
    mine = sorted(game.tribes[player].pawns) or [game.valley.cells[0]]
    cell = rng.choice(mine + sorted(c for c, f in game.fields.items() if f["owner"] == player))
    near = game.valley.neighbours(cell)
    others = [p for p in game.seats if p != player] or [player]
    entry.update({
        "cell": cell_name(cell), "target": cell_name(rng.choice(near)), "to": cell_name(rng.choice(near)),
        "from": rng.choice(others + [cell_name(rng.choice(near))]), "pawn": rng.choice(("warrior", "woman")),
        "sex": rng.choice(("warrior", "woman")), "species": rng.choice(sorted(SPECIES)),
        "direction": rng.choice(DIRECTION_NAMES[game.valley.orientation]), "steal": rng.choice(("food", "fire")),
        "use": rng.choice(("bonus", "fire")),
    })
    if pick["card"] == "appeau":
        entry["from"] = cell_name(rng.choice(near))
    if pick["card"] == "fievre_puerperale":
        done = [(p, c) for p, cells in game.turn_log.get("births", {}).items() if p != player for c in cells]
        entry["targets"] = [{"player": p, "cell": c} for p, c in rng.sample(done, min(2, len(done)))]
    return entry


def play_game(game, rng: random.Random, max_turns: int = 200, check=None):
    """Play ``game`` to its end (or ``max_turns``); ``check(game, events)`` after each entry.
    Returns the game played (a card is tried on a copy, which then becomes the game)."""
    while not game.over and game.turn <= max_turns:
        entry = answer(game, rng)
        if entry["kind"] == "trick":
            trial = game.copy()
            try:
                events = trial.apply(entry)
            except (IllegalRequest, BadRequest):
                continue  # choices the sampler got wrong: the card is not played
            game = trial
        else:
            events = game.apply(entry)
        if check is not None:
            check(game, events)
    return game

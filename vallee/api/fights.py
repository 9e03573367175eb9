"""Request form of ``combat``: the odds of one cell and its fight played from given dice."""

from __future__ import annotations

from ..core import BadRequest
from .shared import chance


def _tribes(value):
    from rulekit.players import PLAYER_ID_RULE, is_player_id

    from .. import requests as rq
    from ..combat import CARDS, MAX_WOMEN, Tribe
    from ..core import IllegalRequest

    tribes = []
    for i, t in enumerate(rq.items(value, "tribes", 6)):
        where = f"tribes.{i}"
        rq.only_fields(rq.obj(t, where), ("name", "warriors", "women", "camp", "fire", "cards", "women_in_reserve"),
                       where, ("name",))
        name = t["name"]
        if not is_player_id(name) or name == "animals":
            raise BadRequest(f"{where}.name", f"{str(name)[:30]!r} {PLAYER_ID_RULE} (and is not 'animals')")
        if name in {x.name for x in tribes}:
            raise BadRequest(f"{where}.name", f"tribe {name!r} is listed twice")
        cards = tuple(rq.choice({j: c}, j, CARDS, None, f"{where}.cards")
                      for j, c in enumerate(rq.items(t.get("cards", []), f"{where}.cards", 8)))
        reserve = t.get("women_in_reserve")
        tribe = Tribe(name, rq.count(t, "warriors", 0, 10, 0, where), rq.count(t, "women", 0, MAX_WOMEN, 0, where),
                      rq.choice(t, "camp", (None, "village", "cave"), None, where), rq.flag(t, "fire", False, where),
                      cards, None if reserve is None else rq.count(t, "women_in_reserve", 0, MAX_WOMEN, parent=where))
        tribe.check()
        tribes.append(tribe)
    if sum(1 for t in tribes if t.camp) > 1:
        raise IllegalRequest("two camps on one cell", "deux camps sur une même case", "camps.one_per_cell")
    return tribes


def combat(request) -> dict:
    """``maamut vallee combat``: exact odds for one cell, and its fight played from given dice."""
    from .. import requests as rq
    from ..combat import POLICIES, cell_odds
    from ..core import IllegalRequest
    from ..tokens import animals_of

    request = rq.obj(request, "request")
    rq.only_fields(request, ("tribes", "animals", "species_order", "loss_policy", "lean_meat", "rolls", "losses",
                             "variants"), "", ("tribes",))
    tribes = _tribes(request["tribes"])
    animals = {}
    for species, n in rq.obj(request.get("animals", {}), "animals").items():
        rq.species(species, f"animals.{species}")
        animals[species] = rq.count({species: n}, species, 1, animals_of(species), parent="animals")
    order = request.get("species_order", list(animals))
    if not isinstance(order, list) or sorted(order) != sorted(animals):
        raise BadRequest("species_order", "must list each species of animals once, in fighting order")
    policy = rq.choice(request, "loss_policy", POLICIES, "women_first")
    lean = rq.flag(request, "lean_meat")
    variants = rq.variants(request)
    parties = sum(1 for t in tribes if t.pawns) + (1 if animals else 0)
    if parties < 2 or not any(t.pawns for t in tribes):
        raise IllegalRequest("no combat: the cell needs two tribes, or a tribe and animals",
                             "pas de combat : il faut deux tribus, ou une tribu et des animaux, sur la case",
                             "combat.none")
    out = {"odds": _odds_json(cell_odds(tribes, animals, order, policy, lean, variants))}
    if "rolls" in request:
        losses = rq.items(request.get("losses", []), "losses", 40)
        out["play"] = _play_json(tribes, animals, order, rq.items(request["rolls"], "rolls", 400), losses,
                                 policy, lean, variants)
    elif "losses" in request:
        raise BadRequest("losses", "only goes with rolls")
    return out


def _odds_json(odds) -> dict:
    return {
        "holder": {k: chance(v) for k, v in odds.holder.items()},
        "by_policy": {p: {k: chance(v) for k, v in h.items()} for p, h in odds.by_policy.items()},
        "survivors": [{"holder": h, "warriors": w, "women": f, **chance(q)}
                      for (h, w, f), q in sorted(odds.survivors.items(), key=lambda kv: (-kv[1], kv[0]))],
        "hunting_food": {k: round(float(v), 3) for k, v in odds.food.items()},
        "expected_rolls": round(float(odds.expected_rolls), 3),
        "tribe_fight": {"kind": odds.stage.kind, "fighters": list(odds.stage.fighters)},
    }


def _play_json(tribes, animals, order, rolls, losses, policy, lean, variants) -> dict:
    from dataclasses import replace

    from ..combat import _cell_odds
    from ..combat_play import play_cell

    log = play_cell(tribes, animals, order, rolls, losses, lean, variants)
    out = {"rolls": log.rolls, "done": log.done, "holder": log.holder, "awaiting": log.awaiting,
           "state": {k: (list(v) if k != "animals" else dict(v)) for k, v in log.state.items()},
           "captured": log.captured, "food": log.food}
    if log.done:
        return out
    if log.stage == "tribes":
        now = [replace(t, warriors=log.state[t.name][0], women=log.state[t.name][1]) for t in tribes]
        out["odds_now"] = {k: chance(v) for k, v in _cell_odds(now, animals, order, policy, lean, variants).holder.items()}
        return out
    holder = next(t for t in tribes if t.name == log.fighter)
    rest = [s for s in order[order.index(log.stage):] if log.state["animals"][s]]
    left = {s: log.state["animals"][s] for s in rest}
    w, f = log.state[holder.name]
    if log.awaiting["kind"] == "loss":
        out["next_loss"] = {}
        for pawn, (w2, f2) in (("warrior", (w - 1, f)), ("woman", (w, f - 1))):
            after = replace(holder, warriors=w2, women=f2)
            out["next_loss"][pawn] = chance(_cell_odds([after], left, rest, policy, lean, variants).holder[holder.name])
    else:
        now = replace(holder, warriors=w, women=f)
        out["odds_now"] = {k: chance(v) for k, v in _cell_odds([now], left, rest, policy, lean, variants).holder.items()}
    return out

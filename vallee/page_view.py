"""What the game master's page and a player's phone are shown of a game.

- :func:`public_view`: the game's state (:func:`vallee.game_view.view`) with every hand
  replaced by its size and the cards playable now left out (they are each player's own
  business), plus what the page draws and says: the pieces over the valley
  (:func:`vallee.board_svg.render_pieces`), the calendar strip, the cells the current
  step concerns, the fight now being played (each side's bonus broken down, the exact
  odds before the roll and, for "which pawn do you remove?", the odds of each answer),
  the survival ledger of the tribe asked, and the victory watch.
- :func:`private_view`: one player's tribe, food and hand, each card with whether it may
  be played now or why not (its moment still to come, or passed this turn).
"""

from __future__ import annotations

import re
from dataclasses import replace

from .board_svg import render_pieces
from .calendar import PHASE_EN, PHASE_FR
from .core import DIRECTION_NAMES, SEASON_FR, SPECIES, IllegalRequest, ValleeError, cell_name, parse_cell
from .game_view import view
from .tokens import LETTERS

CELL = re.compile(r"^-?\d{1,3},-?\d{1,3}$")


def public_view(game, colours: dict) -> dict:
    state = view(game)
    for tribe in state["tribes"].values():
        tribe["cards"] = len(tribe.pop("hand"))
    pending = state["pending"]
    if pending is not None:
        pending.pop("tricks", None)
    return {
        "game": state, "colours": colours, "pieces": render_pieces(game.valley, state, colours),
        "map": {"name": game.valley.name, "title": game.valley.title, "sample": game.valley.sample,
                "orientation": game.valley.orientation},
        "calendar": calendar(game, pending), "lit": lit_cells(pending), "fight": fight_view(game),
        "ledger": ledger_view(game, pending), "watch": victory_watch(game), "reach": reach(game, pending),
    }


def reach(game, pending) -> dict | None:
    """During a movement question: where a pawn of each group of the player to move may
    go, ``{group cell: {end cell: path}}`` (the move form offers these; whether the group
    chosen may leave its cell — a camp keeps its woman — is the game's to say when it
    moves)."""
    if not pending or pending.get("step") != "movement":
        return None
    out = {}
    for cell, (w, f) in pending["options"]["groups"].items():
        try:
            out[cell] = game.destinations(cell, int(w > 0), int(w == 0 and f > 0))
        except (ValleeError, ValueError):
            out[cell] = {}
    return out


#: Species named in the plural (English, French), as people say "3 wolves", "2 ours".
PLURAL = {"wolf": ("wolves", "loups"), "tiger": ("tigers", "tigres"), "bear": ("bears", "ours"),
          "bison": ("bison", "bisons"), "rhino": ("rhinos", "rhinocéros"), "mammoth": ("mammoths", "mammouths")}


def _beasts(species: str, n: int) -> tuple[str, str]:
    """``n`` animals of a species in both languages.

    >>> _beasts("wolf", 1), _beasts("wolf", 3)
    (('1 wolf', '1 loup'), ('3 wolves', '3 loups'))
    """
    if n == 1 or species not in PLURAL:
        return f"{n} {species}", f"{n} {SPECIES[species].fr if species in SPECIES else species}"
    return f"{n} {PLURAL[species][0]}", f"{n} {PLURAL[species][1]}"


def animal_phase(events) -> dict | None:
    """The animal phase of one entry (the animal die), for the page to animate and say:
    the die and direction, each unit's walk with its stop reason, the herds formed and
    the fields trampled, in both languages; None when the entry moved no animal.

    >>> said = animal_phase([{"type": "animals_moved", "face": 2, "direction": "SE", "moves": [
    ...     {"species": "wolf", "count": 1, "from": "0,1", "to": "0,3", "path": ["0,2", "0,3"], "stop": "herd"}]},
    ...     {"type": "herd", "species": "wolf", "cell": "0,3", "count": 2}])
    >>> said["moves"][0]["en"], said["herds"][0]["fr"]
    ('1 wolf 0,1 → 0,3: stopped to join its kind: a herd', '2 loups forment un troupeau en 0,3')
    """
    from .explain import DIRECTION_FR, FIELD_FR, STOP_SAID

    moved = next((e for e in events if e["type"] == "animals_moved"), None)
    if moved is None:
        return None
    moves = []
    for m in moved["moves"]:
        en, fr = STOP_SAID.get(m["stop"], (m["stop"], m["stop"]))
        who = _beasts(m["species"], m["count"])
        moves.append({"species": m["species"], "count": m["count"], "from": m["from"], "to": m["to"], "path": m["path"],
                      "stop": m["stop"], "en": f"{who[0]} {m['from']} → {m['to']}: {en}",
                      "fr": f"{who[1]} {m['from']} → {m['to']} : {fr}"})
    herds = [{"cell": e["cell"], "en": f"{_beasts(e['species'], e['count'])[0]} form a herd on {e['cell']}",
              "fr": f"{_beasts(e['species'], e['count'])[1]} forment un troupeau en {e['cell']}"}
             for e in events if e["type"] == "herd"]
    fields = [{"cell": e["cell"], "en": f"the field on {e['cell']} is trampled: {e['before']} → {e['after']}",
               "fr": f"le champ en {e['cell']} est piétiné : {FIELD_FR.get(e['before'], e['before'])} → "
                     f"{FIELD_FR.get(e['after'], e['after'])}"}
              for e in events if e["type"] == "field" and e.get("rule") == "animals.trample"]
    direction = moved["direction"]
    return {"face": moved["face"], "direction": {"en": direction, "fr": DIRECTION_FR.get(direction, direction)},
            "moves": moves, "herds": herds, "fields": fields}


def card_choices(card: str) -> list:
    """The choices a trick entry of ``card`` gives (:data:`vallee.game_tricks.CHOICES`), as JSON.

    >>> [c["field"] for c in card_choices("vol")], card_choices("espionnage")
    (['cell', 'from', 'steal'], [])
    """
    from .game_tricks import CHOICES

    return [{"field": f, "kind": k, "en": en, "fr": fr} for f, k, en, fr in CHOICES.get(card, ())]


def private_view(game, player: str, colours: dict) -> dict:
    from .game_view import tribe_view
    from .live import timing
    from .tricks import TRICKS

    tribe = tribe_view(game.tribes[player])
    ask = game.pending()
    mine = [t for t in (ask or {}).get("tricks", []) if t["player"] == player]
    playable = {t["card"] for t in mine}
    via = {t["card"]: t["via"] for t in mine if "via" in t}
    hand = []
    for card in tribe.pop("hand"):
        trick = TRICKS.get(card)
        when = timing(game, player, card, playable)
        hand.append({"card": card, "title": trick.title if trick else "?", "en": trick.en if trick else "",
                     "fr": trick.fr if trick else "", "now": when["now"], "why": {"en": when["en"], "fr": when["fr"]},
                     "choices": card_choices(card), "via": via.get(card)})
    pending = {k: v for k, v in (ask or {}).items() if k != "tricks"} or None
    yours = bool(ask and ask.get("player") == player)
    return {"player": player, "colour": colours.get(player), "tribe": tribe, "hand": hand,
            "pending": pending, "yours": yours, "reach": reach(game, pending) if yours else None,
            "players": list(game.seats), "cells": [cell_name(c) for c in game.valley.cells],
            "directions": list(DIRECTION_NAMES[game.valley.orientation]), "random": dict(game.modes),
            "species": [[s.name, s.fr] for s in SPECIES.values()], "letters": list(LETTERS)}


def calendar(game, pending) -> dict:
    """The calendar strip: season, turn, and the phases of this turn (done, now, to come)."""
    info = game.info
    now = pending["phase"] if pending else None
    phases, seen_now = [], False
    for phase in info.phases:
        status = "now" if phase == now else ("todo" if seen_now or now in (None, "setup") else "done")
        seen_now = seen_now or phase == now
        phases.append({"id": phase, "en": PHASE_EN[phase], "fr": PHASE_FR[phase], "status": status})
    return {"turn": game.turn, "year": info.year, "season": {"en": info.season, "fr": SEASON_FR[info.season]},
            "season_turn": info.season_turn, "phases": phases, "setup": game.turn == 0}


def lit_cells(pending) -> list:
    """The cells the step asked now is about, for the page to light them."""
    if not pending:
        return []
    cells = []
    if isinstance(pending.get("cell"), str):
        cells.append(pending["cell"])
    options = pending.get("options")
    if isinstance(options, list):
        cells += [o for o in options if isinstance(o, str) and CELL.match(o)]
    elif isinstance(options, dict):
        cells += [c for c in options.get("groups", {})] if "groups" in options else [c for c in options if CELL.match(c)]
    return list(dict.fromkeys(cells))


def _breakdown(f, animals: bool, state) -> dict:
    from .combat import CAMP_BONUS, CARD_BONUS, CARD_BONUS_ANIMALS

    w, women = state
    parts = [{"en": f"{w} warrior(s)", "fr": f"{w} guerrier(s)", "value": w}]
    if f.camp:
        parts.append({"en": f.camp, "fr": "village" if f.camp == "village" else "grotte", "value": CAMP_BONUS[f.camp]})
    if animals and f.fire:
        parts.append({"en": "fire", "fr": "feu", "value": 1})
    for card in f.cards:
        value = CARD_BONUS.get(card, 0) + (CARD_BONUS_ANIMALS.get(card, 0) if animals else 0)
        if value:
            parts.append({"en": card, "fr": card, "value": value})
    return {"side": f.name, "warriors": w, "women": women, "parts": parts, "bonus": sum(p["value"] for p in parts)}


def fight_state(game):
    """The fight being played now, replayed from its recorded dice: ``(step, fighters as
    they stand, animals left, species order, stage)``, or None."""
    from .combat_play import play_cell
    from .game_combat import beasts_of, fighter, holder_of

    step = game.agenda[0] if game.agenda else None
    if not step or step.get("step") != "fight" or game.pending() is None:
        return None
    cell = parse_cell(step["cell"], "cell")
    lean, variants = game.markers.lean_meat, game.variants
    beasts = beasts_of(game, step)
    if step["stage"] == "tribes":
        present = [p for p in step["tribes"] if cell in game.tribes[p].pawns]
        fighters = [fighter(game, step, p, False) for p in present]
        log = play_cell(fighters, {}, [], step["rolls"], step["losses"], variants=variants)
        order = step["order"] or sorted(beasts, key=list(SPECIES).index)
        left = beasts
    else:
        holder = holder_of(game, step)
        if holder is None:
            return None
        fighters = [fighter(game, step, holder, True)]
        order = step["order"] or sorted(beasts, key=list(SPECIES).index)
        log = play_cell(fighters, beasts, order, step["rolls"], step["losses"], lean, variants)
        left = {s: n for s, n in log.state["animals"].items() if n}
        order = [s for s in order if s in left]
    now = [replace(f, warriors=log.state[f.name][0], women=log.state[f.name][1]) for f in fighters]
    return step, now, left, order, step["stage"]


def fight_pawns(game, player: str):
    """(warriors, women) a side has left in the fight asked now, or None."""
    try:
        found = fight_state(game)
    except (ValueError, KeyError, TypeError, ValleeError):
        return None
    if not found:
        return None
    side = next((f for f in found[1] if f.name == player), None)
    return (side.warriors, side.women) if side else None


def fight_view(game) -> dict | None:
    """The fight now: sides and bonuses, the last roll, the odds of holding the cell
    before the next roll, and for a loss the odds after each answer."""
    from .combat import cell_odds, next_loss_odds

    try:
        found = fight_state(game)
        if not found:
            return None
        step, now, left, order, stage = found
        pending = game.pending()
        against = stage != "tribes"
        sides = [_breakdown(f, against, (f.warriors, f.women)) for f in now]
        if against:
            sides += [{"side": s, "animals": n, "bonus": n, "parts": [{"en": f"{n} {s}", "fr": f"{n} {SPECIES[s].fr}",
                                                                      "value": n}]} for s, n in left.items()][:1]
        lean = game.markers.lean_meat
        odds = cell_odds(now, left, order, lean=lean, variants=game.variants) if any(f.pawns for f in now) else None
        out = {"cell": step["cell"], "stage": stage, "sides": sides, "last": pending.get("last"),
               "order": order,
               "odds": {k: round(float(v), 4) for k, v in odds.holder.items()} if odds else None}
        if pending["kind"] == "lose" and "pawn" not in pending:
            loser = next(f for f in now if f.name == pending["player"])
            out["answers"] = {}
            for pawn in ("warrior", "woman"):
                chance = next_loss_odds(now, left, order, "women_first", lean, game.variants, loser, pawn)
                out["answers"][pawn] = None if chance is None else round(float(chance), 4)
        return out
    except (ValueError, KeyError, TypeError, StopIteration, IllegalRequest, ValleeError, ZeroDivisionError):
        return None  # the page then shows the question without odds, never an error


LEDGER_ITEMS = {"fishing": ("fishing", "pêche"), "gathering": ("gathering in the forest", "cueillette en forêt"),
                "harvest": ("harvest", "récolte"), "cost": ("the tribe eats", "la tribu mange")}


def ledger_view(game, pending) -> dict | None:
    """The survival ledger of the tribe asked to feed, line by line."""
    if not pending or pending.get("step") != "survival":
        return None
    from .core import cell_name
    from .game_turn import ledger_of

    try:
        ledger = ledger_of(game, game.agenda[0], pending["player"])
    except (KeyError, IndexError, ValleeError):
        return None
    lines = []
    for line in ledger.lines:
        en, fr = LEDGER_ITEMS.get(line.item, (line.item, line.item))
        where = f" ({cell_name(line.cell)})" if line.cell else ""
        if line.item == "cost":
            pawns, per = line.detail.get("pawns"), line.detail.get("per_pawn")
            en, fr = f"{pawns} pawns eat {per} each", f"{pawns} pions mangent {per} chacun"
        lines.append({"en": en + where, "fr": fr + where, "food": line.food, "rule": line.rule})
    return {"player": pending["player"], "lines": lines, "food_before": ledger.food_before,
            "balance": ledger.balance, "starve": ledger.starve, "food_after": ledger.food_after}


def victory_watch(game) -> list:
    """Who is close to winning: four camps held (announced, or to hold one more turn)."""
    out = []
    for name, tribe in game.tribes.items():
        camps = len(tribe.camps)
        if camps < 4 or tribe.out:
            continue
        needs_fire = game.fire_rules and not tribe.fire
        if tribe.announced:
            en = f"{name} announced {camps} camps: wins at the end of this turn if still four or more"
            fr = f"{name} a annoncé {camps} camps : gagne à la fin de ce tour s'il en a encore quatre ou plus"
        else:
            en = f"{name} holds {camps} camps: one more turn"
            fr = f"{name} tient {camps} camps : encore un tour"
        if needs_fire:
            en += " (and needs fire)"
            fr += " (et doit avoir le feu)"
        out.append({"player": name, "camps": camps, "en": en, "fr": fr})
    return out


__all__ = ["public_view", "private_view", "reach", "card_choices", "animal_phase", "fight_view", "fight_pawns", "calendar", "lit_cells", "victory_watch"]

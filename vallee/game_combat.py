"""Phase 5, combat across the valley: which cells fight, in which order, and each fight
played roll by roll by :func:`vallee.combat_play.play_cell` from the recorded dice.

Order (rules §5; gap V5): every combat of the first player, in the order he picks, then
the next player's clockwise; last, a solitaire alone with animals. On a cell the tribes
fight first (only warriors; women alone facing warriors are captured without a fight),
then the tribe left faces each species in the order it picks (gap V48). A camp whose
owner lost the cell is taken: the winner takes a quarter of the loser's food (half for
his last camp, gap V51) and keeps or burns it; with the fire rules he takes fire too.
"""

from __future__ import annotations

from .combat import Tribe as Fighter
from .combat_play import play_cell
from .core import BadRequest, SPECIES, cell_name, parse_cell
from .game import _fail
from .game_turn import names, read_cell, return_to_bag, step

FOOD_SHARE = {False: 4, True: 2}  # divisor: a quarter, or half for the loser's last camp


def combat_cells(game, player: str | None = None) -> list:
    """Cells where a combat is due now (rules §5 ¶1), optionally only those of one player."""
    cells = set()
    hidden = game.turn_log["hidden"]
    for t in game.tribes.values():
        cells.update(t.pawns)
    cells.update(n["cell"] for n in game.neutrals)
    out = []
    for cell in cells:
        if cell in hidden:
            continue
        tribes = game.occupants(cell)
        beasts = game.animals_at(cell)
        neutral = any(n["cell"] == cell for n in game.neutrals)
        due = len(tribes) >= 2 or (tribes and beasts) or (neutral and beasts and not tribes)
        if due and (player is None or player in tribes):
            out.append(cell)
    from .game import sorted_cells

    return sorted_cells(out)


@step("combat")
def combat(game, s, entry):
    game.then(
        *({"step": "combat_player", "phase": "combat", "player": p} for p in game.order),
        {"step": "combat_neutrals", "phase": "combat"},
    )
    return True


@step("combat_player")
def combat_player(game, s, entry):
    player = s["player"]
    cells = combat_cells(game, player)
    if not cells:
        return True
    if len(cells) == 1 and entry is None:
        game.first(fight_step(game, cells[0]))
        return False
    if entry is None:
        return {
            "kind": "combat_cell",
            "player": player,
            "options": names(cells),
            "en": f"{player}: which of your combats first?",
            "fr": f"{player} : lequel de vos combats d'abord ?",
        }
    cell = read_cell(game, entry.get("cell"), "cell")
    if cell not in cells:
        _fail(
            f"no combat of {player} on {cell_name(cell)}",
            f"pas de combat de {player} en {cell_name(cell)}",
            "phase.combat",
        )
    game.first(fight_step(game, cell))
    return False


@step("combat_neutrals")
def combat_neutrals(game, s, entry):
    cells = [c for c in combat_cells(game) if not game.occupants(c)]
    if cells:
        game.first(fight_step(game, cells[0]))
        return False
    return True


def fight_step(game, cell, bear: bool = False) -> dict:
    tribes = [p for p in (game.order or game.seats) if cell in game.tribes[p].pawns]
    return {
        "step": "fight",
        "phase": "events" if bear else "combat",
        "cell": cell_name(cell),
        "bear": bear,
        "stage": "tribes",
        "tribes": tribes,
        "rolls": [],
        "losses": [],
        "order": None,
        "cards": {},
        "fortes": [],
        "captured": 0,
    }


def fighter(game, s, name: str, animals: bool) -> Fighter:
    cell = parse_cell(s["cell"], "cell")
    if name == "neutral":
        sex = next(n["sex"] for n in game.neutrals if n["cell"] == cell)
        return Fighter("neutral", int(sex == "warrior"), int(sex == "woman"), women_in_reserve=0)
    tribe = game.tribes[name]
    w, f = tribe.at(cell)
    cards = tuple(s["cards"].get(name, ())) + tuple(c for c in tribe.turn_cards if c in ("silax", "torches"))
    if tribe.wolf == cell:
        cards += ("louveteau",)
    camp = None if s["bear"] else tribe.camps.get(cell)
    free_women = game.free_pieces(name)[1]
    if name in s["fortes"]:  # Fortes têtes: the women fight as warriors and capture nobody
        return Fighter(name, w + f, 0, camp, game.fire_rules and tribe.fire, cards, 0)
    return Fighter(name, w, f, camp, game.fire_rules and tribe.fire, cards, free_women)


def holder_of(game, s) -> str | None:
    cell = parse_cell(s["cell"], "cell")
    on = [p for p in s["tribes"] if game.tribes[p].at(cell) != (0, 0)]
    if on:
        return on[0]
    return "neutral" if any(n["cell"] == cell for n in game.neutrals) else None


def beasts_of(game, s) -> dict:
    if s["bear"]:
        return {"bear": 1}
    cell = parse_cell(s["cell"], "cell")
    return {a.species: a.count for a in game.animals_at(cell)}


@step("fight")
def fight(game, s, entry):
    if s["stage"] == "tribes":
        return tribe_stage(game, s, entry)
    return animal_stage(game, s, entry)


def record(game, s, entry, awaiting) -> None:
    """Write an answer to the awaited roll or loss into the fight's record."""
    if awaiting["kind"] == "roll":
        s["rolls"].append(game.dice(entry, len(awaiting["sides"])))
    else:
        pawn = entry.get("pawn")
        if pawn not in ("warrior", "woman"):
            raise BadRequest("pawn", "must be 'warrior' or 'woman'")
        s["losses"].append(pawn)


def ask_of(game, s, log) -> dict:
    a = log.awaiting
    if a["kind"] == "roll":
        shown = " — ".join(a["sides"])
        return {
            "kind": "roll",
            "count": len(a["sides"]),
            "sides": a["sides"],
            "cell": s["cell"],
            "stage": a["stage"],
            "random": game.modes["dice"],
            "player": None,
            "last": log.rolls[-1] if log.rolls else None,
            "en": f"Combat on {s['cell']} ({shown}): roll one die per side",
            "fr": f"Combat en {s['cell']} ({shown}) : un dé par camp",
        }
    return {
        "kind": "lose",
        "player": a["side"],
        "cell": s["cell"],
        "options": ["warrior", "woman"],
        "last": log.rolls[-1] if log.rolls else None,
        "en": f"{a['side']} loses the roll on {s['cell']}: a warrior or a woman?",
        "fr": f"{a['side']} perd le jet en {s['cell']} : un guerrier ou une femme ?",
    }


def tribe_stage(game, s, entry):
    cell = parse_cell(s["cell"], "cell")
    present = [p for p in s["tribes"] if cell in game.tribes[p].pawns]
    if len(present) < 2:
        s["stage"] = "animals"
        return animal_stage(game, s, entry)
    fighters = [fighter(game, s, p, False) for p in present]
    log = play_cell(fighters, {}, [], s["rolls"], s["losses"], variants=game.variants)
    if not log.done and entry is not None:
        record(game, s, entry, log.awaiting)
        log = play_cell(fighters, {}, [], s["rolls"], s["losses"], variants=game.variants)
        entry = None
    if not log.done:
        return ask_of(game, s, log)
    game.emit("fight", "combat.tribes_first", cell=s["cell"], stage="tribes", rolls=log.rolls, winner=log.fighter)
    winner = log.fighter
    killed = 0
    for f in fighters:
        before = game.tribes[f.name].at(cell)
        after = log.state[f.name]
        if f.name in s["fortes"]:  # survivors keep their women first
            women = min(before[1], sum(after))
            after = (sum(after) - women, women)
        dw, df = after[0] - before[0], after[1] - before[1]
        if f.name != winner:
            killed += before[0] + before[1]
        if dw or df:
            game.change_pawns(
                f.name,
                cell,
                dw,
                df,
                "combat",
                "combat.roll" if f.name != winner or dw < 0 else "combat.women_change_sides",
            )
    captured = log.captured.get(winner, 0)
    killed -= captured
    if killed and "cannibales" in game.tribes[winner].turn_cards:
        game.change_food(winner, killed, "cannibales", "trick.cannibales")
    s["captured"] = captured
    for loser in [p for p in present if p != winner]:
        if cell in game.tribes[loser].camps:
            take_camp(game, s, winner, loser, cell)
    s["stage"] = "animals"
    s["rolls"], s["losses"] = [], []
    return False


def take_camp(game, s, winner: str, loser: str, cell) -> None:
    """A camp conquered (rules «Prise des camps»; gaps V45, V51)."""
    lost = game.tribes[loser]
    last = len(lost.camps) == 1
    share = lost.food // FOOD_SHARE[last]
    if share:
        game.change_food(loser, -share, "camp_taken", "camps.taken")
        game.change_food(winner, share, "camp_taken", "camps.taken")
    kind = lost.camps[cell]
    fire = game.fire_rules and lost.fire
    game.remove_camp(loser, cell, "taken", "camps.taken")
    game.emit("camp_taken", "camps.taken", player=winner, loser=loser, cell=cell_name(cell), food=share, last=last)
    if fire:
        game.set_fire(winner, True, "camp_taken", "fire.camp")
    game.then(
        {
            "step": "camp_choice",
            "phase": s["phase"],
            "player": winner,
            "loser": loser,
            "cell": cell_name(cell),
            "kind": kind,
            "captured": s["captured"],
        }
    )


@step("camp_choice")
def camp_choice(game, s, entry):
    """Keep the conquered camp (own marker, the women stay) or burn it and kill its women."""
    player, cell = s["player"], parse_cell(s["cell"], "cell")
    tribe = game.tribes[player]
    can_keep = len(tribe.camps) < 5 and tribe.at(cell)[1] > 0 and game.camp_owner(cell) is None
    if entry is None:
        if not can_keep:
            burn(game, s, player, cell)
            return True
        return {
            "kind": "camp_taken",
            "player": player,
            "cell": s["cell"],
            "options": ["keep", "burn"],
            "en": f"{player} takes the camp on {s['cell']}: keep it or burn it?",
            "fr": f"{player} prend le camp en {s['cell']} : le garder ou le brûler ?",
        }
    choice = entry.get("choice")
    if choice not in ("keep", "burn"):
        raise BadRequest("choice", "must be 'keep' or 'burn'")
    if choice == "burn":
        burn(game, s, player, cell)
    else:
        tribe.camps[cell] = s["kind"]
        game.emit("camp_founded", "camps.taken", player=player, cell=s["cell"], camp=s["kind"])
    return True


def burn(game, s, player, cell, fields: bool = False) -> None:
    """The camp burnt: its women (those just captured) die; Terre brûlée takes its field too."""
    women = min(s["captured"], game.tribes[player].at(cell)[1])
    if women:
        game.change_pawns(player, cell, 0, -women, "camp_burnt", "camps.taken")
    field = game.fields.pop(cell, None) if fields else None
    if field:
        game.emit("field", "trick.terre_brulee", cell=s["cell"], before=field["state"], after="destroyed")
    game.emit("camp_burnt", "camps.taken", player=player, cell=s["cell"])
    game.check_camps()


def animal_stage(game, s, entry):
    cell = parse_cell(s["cell"], "cell")
    holder = holder_of(game, s)
    beasts = beasts_of(game, s)
    if holder is None or not beasts:
        return True
    if s["order"] is None:
        if len(beasts) > 1 and holder != "neutral":
            if entry is None:
                return {
                    "kind": "species_order",
                    "player": holder,
                    "cell": s["cell"],
                    "options": sorted(beasts),
                    "en": f"{holder}: in which order do you face the species on {s['cell']}?",
                    "fr": f"{holder} : dans quel ordre affrontez-vous les espèces en {s['cell']} ?",
                }
            order = entry.get("order")
            if not isinstance(order, list) or sorted(order) != sorted(beasts):
                raise BadRequest("order", "must list each species on the cell once")
            s["order"] = order
            entry = None
        else:
            s["order"] = sorted(beasts, key=list(SPECIES).index)
    lean = game.markers.lean_meat
    side = fighter(game, s, holder, True)
    log = play_cell([side], beasts, s["order"], s["rolls"], s["losses"], lean, game.variants)
    if not log.done and entry is not None:
        record(game, s, entry, log.awaiting)
        log = play_cell([side], beasts, s["order"], s["rolls"], s["losses"], lean, game.variants)
    if not log.done:
        return ask_of(game, s, log)
    game.emit("fight", "combat.animals", cell=s["cell"], stage="animals", rolls=log.rolls, winner=log.holder)
    settle_animals(game, s, holder, cell, beasts, log.state, log.food.get(holder, 0))
    return True


def settle_animals(game, s, holder, cell, beasts, state, food) -> None:
    """Write a fight against animals into the game: pawns lost, animals killed, food."""
    after = state[holder]
    if holder == "neutral":
        if not any(after):
            game.neutrals = [n for n in game.neutrals if n["cell"] != cell]
            game.emit("neutral_gone", "combat.animals", cell=s["cell"], why="combat")
    else:
        before = game.tribes[holder].at(cell)
        if holder in s["fortes"]:
            women = min(before[1], sum(after))
            after = (sum(after) - women, women)
        dw, df = after[0] - before[0], after[1] - before[1]
        if dw or df:
            game.change_pawns(holder, cell, dw, df, "combat", "combat.animals")
    for species, count in beasts.items():
        killed = count - state["animals"].get(species, count)
        if s["bear"]:
            token = next((t for t in game.bag if t[0] == "bear"), None)
            if killed == 0 and game.variants.cave_bear_stays and token:
                from .game_turn import add_animals

                game.bag.remove(token)
                add_animals(game, "bear", cell, [token[1]], "cave_bear", "event.ours_des_cavernes")
            continue
        unit = next(a for a in game.animals_at(cell) if a.species == species)
        if killed:
            return_to_bag(game, unit, killed, "killed", "combat.animals")
    if holder != "neutral" and food:
        if game.variants.food_timing == "at_combat":
            game.change_food(holder, food, "hunt", "combat.hunt_food")
        else:
            game.turn_log["hunt"][holder] = game.turn_log["hunt"].get(holder, 0) + food
    game.check_camps()

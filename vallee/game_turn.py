"""The steps of a game turn, each calling the phase module that holds its rules.

A step is a dict in :attr:`Game.agenda` (``{"step": name, ...}``); its function
``step(game, step, entry)`` is called with ``entry=None`` to ask what it needs (it
returns the question, a dict) or to run on its own (it returns True when finished), and
with the entry that answers its question (True when finished, False to ask again).
Events, combat and trick cards have their own modules; they register their steps here.
"""

from __future__ import annotations

from .animals import Conditions, Field, Unit, move_animals
from .arrivals import Token, place_arrivals
from .births import Camp, resolve_births
from .calendar import arrivals_count
from .camps import camp_kind, sowing_problem, start_camp_problem
from .core import PLAIN, SUMMER, BadRequest, cell_name, parse_cell, reading_key
from .game import HIDDEN, Animal, _fail, sorted_cells
from .game_setup import START_WARRIORS, START_WOMEN, deal, draw_trick, lot, setup_order
from .standing import victory
from .survival import Situation, survival_ledger
from .tricks import trick_draws

STEPS: dict = {}


def step(name: str):
    def register(fn):
        STEPS[name] = fn
        return fn

    return register


def read_cell(game, value, field: str):
    cell = parse_cell(value, field)
    if not game.valley.on_board(cell):
        raise BadRequest(field, f"cell {value} is not on the map")
    return cell


def names(cells) -> list[str]:
    return [cell_name(c) for c in sorted_cells(cells)]


# -- setup ------------------------------------------------------------------------------------


@step("first_player_lot")
def first_player_lot(game, s, entry):
    if entry is None:
        return {
            "kind": "lot",
            "options": list(game.seats),
            "random": game.modes["dice"],
            "en": "Draw lots for the first player",
            "fr": "Tirez au sort le premier joueur",
        }
    first = lot(game, game.seats, entry)
    game.emit("first_player", "setup.first_player", player=first)
    setup_order(game, first)
    return True


@step("setup_order")
def _setup_order(game, s, entry):
    game.emit("first_player", "setup.first_player", player=s["first"])
    setup_order(game, s["first"])
    return True


def start_cells(game) -> list:
    camps = {c: name for name, t in game.tribes.items() for c in t.camps}
    occupied = {c for t in game.tribes.values() for c in t.pawns}
    return [c for c in game.valley.cells if start_camp_problem(game.valley, c, camps, occupied) is None]


@step("place_camp")
def place_camp(game, s, entry):
    player = s["player"]
    cells = start_cells(game)
    if entry is None:
        plains = [c for c in cells if game.valley.terrain[c] == PLAIN] if game.tribes[player].food >= 1 else []
        return {
            "kind": "place_camp",
            "player": player,
            "options": names(cells),
            "field_options": names(plains),
            "en": f"{player}: set up your camp, five warriors and two women on a free cell",
            "fr": f"{player} : installez votre camp, cinq guerriers et deux femmes sur une case libre",
        }
    cell = read_cell(game, entry.get("cell"), "cell")
    if cell not in cells:
        camps = {c: name for name, t in game.tribes.items() for c in t.camps}
        rule = start_camp_problem(game.valley, cell, camps) or "camps.free_cell"
        _fail(
            f"{player} cannot set up on {cell_name(cell)}",
            f"{player} ne peut pas s'installer en {cell_name(cell)}",
            rule,
        )
    sow = entry.get("field", False)
    if not isinstance(sow, bool):
        raise BadRequest("field", "must be true or false")
    if sow and (game.valley.terrain[cell] != PLAIN or game.tribes[player].food < 1):
        _fail(
            "a field at setup needs a plain camp and 1 food",
            "un champ au départ demande un camp en plaine et 1 nourriture",
            "sowing.where",
        )
    tribe = game.tribes[player]
    tribe.camps[cell] = camp_kind(game.valley, cell)
    game.change_pawns(player, cell, START_WARRIORS, START_WOMEN, "setup", "setup.camp")
    game.emit("camp_founded", "setup.camp", player=player, cell=cell_name(cell), camp=tribe.camps[cell])
    if sow:
        sow_field(game, player, cell, "sowing.setup")
    return True


def sow_field(game, player: str, cell, rule: str) -> None:
    game.change_food(player, -1, "sowing", rule)
    game.fields[cell] = {"state": "intact", "palisade": False, "owner": player}
    game.emit("sown", rule, player=player, cell=cell_name(cell))


@step("deal")
def _deal(game, s, entry):
    deal(game)
    return True


# -- the turn's plan -------------------------------------------------------------------------------


def next_turn(game) -> None:
    """Start the next game turn: clear this-turn markers, plan its phases (rules «Les phases»)."""
    game.turn += 1
    game._info = None
    m = game.markers
    m.flooded, m.burning, m.closed, m.frozen_cells, m.lava = set(), set(), set(), set(), set()
    m.cold_snap, m.no_arrivals, m.epizootie, m.move_limit = False, False, None, 2
    for tribe in game.tribes.values():
        tribe.turn_cards = []
    returning = [
        p
        for p in game.seats
        if game.tribes[p].out is False and not game.tribes[p].count and game.turn_log.get("may_return", {}).get(p)
    ]
    game.turn_players = len(game.on_board()) + len(returning)
    game.turn_log = {"hunt": {}, "births": {}, "killed": {}, "hidden": set(), "returning": returning}
    info = game.info
    game._phase = "start"
    game.emit(
        "turn", "phase.end", season=info.season, season_turn=info.season_turn, year=info.year, phases=list(info.phases)
    )
    plan = []
    if info.runs("events"):
        plan.append({"step": "event_draw", "phase": "events"})
    plan += [{"step": "arrivals", "phase": "arrivals"}]
    plan += [{"step": "return", "phase": "arrivals", "player": p} for p in returning]
    plan += [
        {"step": "animal_die", "phase": "animals"},
        {"step": "after_animals", "phase": "animals", "passed": []},
        {"step": "order", "phase": "tribes"},
        {"step": "combat", "phase": "combat"},
        {"step": "survival_all", "phase": "survival"},
    ]
    if info.season == SUMMER and info.season_turn == 1 and not info.extra_turn:
        plan.append({"step": "late_sowing", "phase": "survival", "passed": []})
    if info.runs("births"):
        plan.append({"step": "births_all", "phase": "births"})
    if info.runs("sowing"):
        plan.append({"step": "sowing_all", "phase": "sowing"})
    if info.runs("tricks"):
        plan.append({"step": "trick_draw", "phase": "tricks"})
    plan.append({"step": "end", "phase": "end"})
    game.agenda.extend(plan)


# -- 2) arrivals and the return ---------------------------------------------------------------------


def read_tokens(game, entry, count: int, field: str = "tokens") -> list:
    """The tokens of a draw entry (given, or drawn from the virtual bag), taken out of the bag."""
    drawn = None
    if game.virtual("bag"):
        drawn = game.rng("bag").sample(sorted(game.bag), min(count, len(game.bag)))
        drawn = [{"species": s, "letter": l} for s, l in drawn]
    given = entry.get(field)
    if given is None:
        if drawn is None:
            raise BadRequest(field, f"the bag is physical: list the {count} token(s) drawn")
        given = drawn
    from . import requests as rq

    rq.items(given, field, 20)
    if len(given) != min(count, len(game.bag)):
        raise BadRequest(field, f"must list {min(count, len(game.bag))} token(s)")
    tokens = []
    for i, t in enumerate(given):
        rq.obj(t, f"{field}.{i}")
        rq.only_fields(t, ("species", "letter"), f"{field}.{i}", ("species", "letter"))
        tokens.append((rq.species(t["species"], f"{field}.{i}.species"), t["letter"]))
    if drawn is not None and given != drawn:
        _fail(
            "the bag is virtual: the companion draws (leave the tokens out)",
            "le sac est virtuel : le compagnon tire (omettez les pions)",
            "random.virtual",
        )
    for token in tokens:
        take_from_bag(game, token)
    game.drew("bag")
    entry[field] = [{"species": s, "letter": l} for s, l in tokens]
    return tokens


def take_from_bag(game, token) -> None:
    """Take a drawn token out of the bag. Tokens in a herd are stacked letters hidden: if the
    table put back another token of that species than the one we noted, swap them."""
    if token in game.bag:
        game.bag.remove(token)
        return
    species, letter = token
    holder = next((a for a in game.animals.values() if a.species == species and letter in a.letters), None)
    spare = next((t for t in game.bag if t[0] == species), None)
    if holder is None or spare is None:
        _fail(
            f"no {species} token {letter} is in the bag",
            f"aucun pion {species} {letter} n'est dans le sac",
            "pieces.animals",
        )
    holder.letters[holder.letters.index(letter)] = spare[1]
    game.bag.remove(spare)


def return_to_bag(game, animal: Animal, how_many: int, why: str, rule: str) -> None:
    """Animals leave the board: lettered tokens into the bag, unlettered wolves to their reserve."""
    for _ in range(min(how_many, animal.count)):
        letter = animal.letters.pop()
        if letter:
            game.bag.append((animal.species, letter))
        else:
            game.wolves_reserve += 1
    game.emit("animals_removed", rule, species=animal.species, cell=cell_name(animal.cell), count=how_many, why=why)
    if not animal.letters:
        del game.animals[animal.id]


def new_unit_id(game, species: str, cell) -> str:
    uid = f"{species}@{cell_name(cell)}"
    while uid in game.animals:
        uid += "'"
    return uid


def add_animals(game, species: str, cell, letters: list, why: str, rule: str) -> None:
    """Animals arrive on a cell: they join a unit of their species there (gap V27)."""
    unit = next((a for a in game.animals.values() if a.species == species and a.cell == cell), None)
    if unit is None:
        unit = Animal(new_unit_id(game, species, cell), species, cell, [])
        game.animals[unit.id] = unit
    unit.letters.extend(letters)
    game.emit("animals_arrived", rule, species=species, cell=cell_name(cell), count=len(letters), unit=unit.id, why=why)


def conditions(game, humans=None) -> Conditions:
    m = game.markers
    return Conditions(
        humans=frozenset(game.human_cells() if humans is None else humans),
        flooded=frozenset(m.flooded),
        burning=frozenset(m.burning),
        closed=frozenset(m.closed),
        frozen_rivers=frozenset(m.frozen_rivers),
        drought=m.drought,
    )


def units(game) -> list[Unit]:
    return [Unit(a.id, a.species, a.cell, a.count) for a in game.animals.values()]


@step("arrivals")
def arrivals(game, s, entry):
    info = game.info
    count = 0 if game.markers.no_arrivals else arrivals_count(game.turn, info.season, game.turn_players, game.variants)
    count = min(count, len(game.bag))
    if count == 0:
        game.emit("no_arrivals", "phase.arrivals", why="viande_rare" if game.markers.no_arrivals else "none")
        return True
    if entry is None:
        return {
            "kind": "tokens",
            "count": count,
            "random": game.modes["bag"],
            "en": f"Draw {count} animal token(s) from the bag",
            "fr": f"Tirez {count} pion(s) animal du sac",
        }
    tokens = read_tokens(game, entry, count)
    place_tokens(game, tokens, "arrival", "phase.arrivals")
    return True


def place_tokens(game, tokens, why: str, rule: str) -> None:
    result = place_arrivals(
        game.valley,
        [Token(sp, le) for sp, le in tokens],
        units(game),
        conditions(game),
        game.variants,
        epizootie=game.markers.epizootie,
    )
    for p in result.placements:
        token = (p.token.species, p.token.letter)
        if p.outcome in ("back_to_bag", "removed"):
            game.bag.append(token)
            game.emit(
                "arrival_refused",
                "phase.arrivals",
                species=token[0],
                letter=token[1],
                cell=cell_name(p.cell),
                why=p.outcome,
            )
        else:
            add_animals(game, token[0], p.cell, [token[1]], why, rule)


def free_edge_cells(game) -> list:
    """Edge cells with no pawn, animal or camp, open this turn (gap V75)."""
    taken = (
        game.human_cells()
        | {a.cell for a in game.animals.values()}
        | {c for t in game.tribes.values() for c in t.camps}
        | game.closed_cells()
    )
    return [
        c for c in game.valley.cells if game.valley.on_perimeter(c) and c not in game.valley.lake and c not in taken
    ]


@step("return")
def return_player(game, s, entry):
    player = s["player"]
    cells = free_edge_cells(game)
    if not cells:
        game.emit("return_impossible", "return.window", player=player)
        return True
    if entry is None:
        return {
            "kind": "return",
            "player": player,
            "options": names(cells),
            "en": f"{player} comes back: pick a free edge cell for three warriors and a woman",
            "fr": f"{player} revient : choisissez une case libre du bord pour trois guerriers et une femme",
        }
    cell = read_cell(game, entry.get("cell"), "cell")
    if cell not in cells:
        _fail(
            "a returning tribe enters on a free edge cell",
            "une tribu qui revient entre sur une case libre du bord",
            "return.window",
        )
    tribe = game.tribes[player]
    tribe.returned = True
    game.trick_discards.extend(c for c in tribe.hand if c != HIDDEN)
    tribe.hand = [draw_trick(game) for _ in range(3)]
    tribe.hand = [c for c in tribe.hand if c]
    game.change_food(player, 8 - tribe.food, "return", "return.window")
    game.change_pawns(player, cell, 3, 1, "return", "return.window")
    game.emit("returned", "return.window", player=player, cell=cell_name(cell))
    return True


# -- 3) animals -----------------------------------------------------------------------------------


@step("animal_die")
def animal_die(game, s, entry):
    if entry is None:
        return {
            "kind": "roll",
            "count": 1,
            "random": game.modes["dice"],
            "en": "Roll the die: the compass rose sends every animal one way",
            "fr": "Lancez le dé : la rose des vents envoie tous les animaux dans une direction",
        }
    face = game.dice(entry, 1)[0]
    game.turn_log["animal_face"] = face
    from .game_events import move_solitaire

    if game.variants.solitaire_moves == "before_animals":
        move_solitaire(game, face)
    move_all_animals(game, face)
    if game.variants.solitaire_moves == "after_animals":
        move_solitaire(game, face)
    return True


def move_all_animals(game, face: int) -> None:
    """The animal phase on the board (rules §3): units move, herds merge, fields suffer."""
    fields = [Field(c, f["state"], f["palisade"]) for c, f in game.fields.items()]
    phase = move_animals(game.valley, conditions(game), face, units(game), fields, game.variants)
    game.emit(
        "animals_moved",
        "phase.animals",
        face=face,
        direction=phase.direction,
        moves=[
            {
                "unit": m.unit.id,
                "species": m.unit.species,
                "count": m.unit.count,
                "from": cell_name(m.unit.cell),
                "to": cell_name(m.end),
                "path": [cell_name(c) for c in m.path],
                "stop": m.stop,
                "rule": m.rule,
            }
            for m in phase.moves
            if m.path or m.stop != "pinned"
        ],
    )
    for m in phase.moves:
        game.animals[m.unit.id].cell = m.end
    for herd in phase.herds:
        keep = game.animals[herd.units[0]]
        for uid in herd.units[1:]:
            keep.letters.extend(game.animals.pop(uid).letters)
        game.emit(
            "herd", "animals.herd", species=herd.species, cell=cell_name(herd.cell), count=herd.count, unit=keep.id
        )
    for change in phase.fields:
        if change.after == change.before:
            continue
        if change.after == "destroyed":
            del game.fields[change.cell]
        else:
            game.fields[change.cell]["state"] = change.after
        game.emit("field", "animals.trample", cell=cell_name(change.cell), before=change.before, after=change.after)


@step("after_animals")
def after_animals(game, s, entry):
    """The moment for cards played after the animals move (Enfant sauvage, Louveteau,
    Visite de famille, Tambour de guerre): asked only when someone may play one."""
    from .game_tricks import window

    return window(
        game,
        s,
        entry,
        "after_animals",
        "Cards after the animals' move?",
        "Des cartes après le déplacement des animaux ?",
    )


# -- 6) survival ------------------------------------------------------------------------------------------


@step("survival_all")
def survival_all(game, s, entry):
    game.then(
        *(
            {"step": "survival", "phase": "survival", "player": p, "cards": []}
            for p in game.order
            if game.tribes[p].count
        ),
        {"step": "harvest_end", "phase": "survival"},
    )
    return True


def ledger_of(game, s, player):
    tribe = game.tribes[player]
    info = game.info
    m = game.markers
    situation = Situation(
        season=info.season,
        harvest=info.harvest,
        drought=m.drought,
        cold_snap=m.cold_snap,
        good_rains=m.good_rains,
        fire_rules=game.fire_rules,
        has_fire=tribe.fire,
        cards=tuple(s["cards"]),
    )
    cells = {c: tuple(v) for c, v in tribe.pawns.items()}
    fields = {c: game.fields[c]["state"] for c in cells if c in game.fields}
    return survival_ledger(game.valley, situation, tribe.food, cells, fields, game.variants)


@step("survival")
def survival(game, s, entry):
    from .game_tricks import may_play

    player = s["player"]
    tribe = game.tribes[player]
    if not tribe.count:
        return True
    ledger = ledger_of(game, s, player)
    if entry is None:
        if ledger.starve == 0 and not may_play(game, player, "survival"):
            feed(game, player, ledger, [])
            return True
        return {
            "kind": "feed",
            "player": player,
            "starve": ledger.starve,
            "balance": ledger.balance,
            "options": {cell_name(c): list(v) for c, v in tribe.pawns.items()},
            "en": f"{player}: survival, balance {ledger.balance:+d}"
            + (f"; pick {ledger.starve} pawn(s) who starve" if ledger.starve else ""),
            "fr": f"{player} : survie, solde {ledger.balance:+d}"
            + (f" ; choisissez {ledger.starve} pion(s) qui meurent de faim" if ledger.starve else ""),
        }
    starving = read_pawn_list(game, player, entry.get("starve", []), "starve")
    if sum(w + f for _, w, f in starving) != ledger.starve:
        _fail(
            f"{player} must let exactly {ledger.starve} pawn(s) starve",
            f"{player} doit laisser mourir exactement {ledger.starve} pion(s)",
            "survival.starve",
        )
    feed(game, player, ledger, starving)
    return True


def read_pawn_list(game, player, value, field) -> list:
    from . import requests as rq

    out, seen = [], {}
    for i, item in enumerate(rq.items(value, field, 20)):
        rq.obj(item, f"{field}.{i}")
        rq.only_fields(item, ("cell", "warriors", "women"), f"{field}.{i}", ("cell",))
        cell = read_cell(game, item["cell"], f"{field}.{i}.cell")
        w, f = rq.count(item, "warriors", 0, 10, 0, f"{field}.{i}"), rq.count(item, "women", 0, 6, 0, f"{field}.{i}")
        sw, sf = seen.get(cell, (0, 0))
        seen[cell] = (sw + w, sf + f)
        have = game.tribes[player].at(cell)
        if seen[cell][0] > have[0] or seen[cell][1] > have[1]:
            _fail(
                f"{player} has not those pawns on {cell_name(cell)}",
                f"{player} n'a pas ces pions en {cell_name(cell)}",
                "tribes.pieces",
            )
        out.append((cell, w, f))
    return out


def feed(game, player, ledger, starving) -> None:
    game.emit(
        "ledger",
        "phase.survival",
        player=player,
        lines=[
            {"item": l.item, "cell": cell_name(l.cell) if l.cell else None, "food": l.food, "rule": l.rule}
            for l in ledger.lines
        ],
        balance=ledger.balance,
        starve=ledger.starve,
    )
    hunt = game.turn_log["hunt"].pop(player, 0)
    if hunt:
        game.change_food(player, hunt, "hunt", "combat.hunt_food")
    for cell, w, f in starving:
        game.change_pawns(player, cell, -w, -f, "starved", "survival.starve")
    game.change_food(player, ledger.food_after - ledger.food_before, "survival", "phase.survival")
    if starving and "cannibales" in game.tribes[player].turn_cards:
        game.change_food(player, sum(w + f for _, w, f in starving), "cannibales", "trick.cannibales")
    game.check_camps()


@step("harvest_end")
def harvest_end(game, s, entry):
    if game.info.harvest and game.fields:
        game.fields.clear()
        game.emit("fields_removed", "survival.harvest")
    return True


@step("late_sowing")
def late_sowing(game, s, entry):
    from .game_tricks import window

    return window(game, s, entry, "late_sowing", "Late sowing (Semailles tardives)?", "Semailles tardives ?")


# -- 7) births ---------------------------------------------------------------------------------------


@step("births_all")
def births_all(game, s, entry):
    players = [p for p in game.order if game.tribes[p].count]
    game.then(
        *(
            {
                "step": "births",
                "phase": "births",
                "player": p,
                "rolls": [],
                "first": None,
                "cards": [],
                "chosen": {},
                "extra": [],
            }
            for p in players
        ),
        {"step": "after_births", "phase": "births", "passed": []},
    )
    return True


def birth_camps(game, s, player) -> list:
    tribe = game.tribes[player]
    camps = [
        Camp(c, kind, tribe.at(c)[1])
        for c, kind in sorted(tribe.camps.items(), key=lambda kv: reading_key(kv[0]))
        if tribe.at(c)[1]
    ]
    camps += [Camp(parse_cell(c, "extra"), "outside", 1) for c in s["extra"]]
    if s["first"]:
        camps.sort(key=lambda c: cell_name(c.cell) != s["first"])
    return camps


@step("births")
def births(game, s, entry):
    player = s["player"]
    tribe = game.tribes[player]
    camps = birth_camps(game, s, player)
    if entry is not None:
        if entry.get("camp") is not None and not s["rolls"]:
            camp = read_cell(game, entry["camp"], "camp")
            if camp not in [c.cell for c in camps]:
                _fail(
                    "births happen in a camp with women",
                    "les naissances ont lieu dans un camp avec des femmes",
                    "births.count",
                )
            s["first"] = cell_name(camp)
            camps = birth_camps(game, s, player)
        s["rolls"].extend(game.dice(entry, 1))
    chosen = {parse_cell(k, "chosen"): v for k, v in s["chosen"].items()}
    result = resolve_births(
        camps,
        s["rolls"],
        tribe.warriors,
        tribe.women,
        fertility="herbes_de_fertilite" in s["cards"],
        chosen=chosen,
        variants=game.variants,
    )
    if result.awaiting is not None:
        if entry is None and not s["rolls"] and not camps:
            return True
        return {
            "kind": "roll",
            "count": 1,
            "player": player,
            "random": game.modes["dice"],
            "camp": cell_name(result.awaiting["camp"]),
            "options": [cell_name(c.cell) for c in camps] if not s["rolls"] else [],
            "en": f"{player}: roll a birth die for the camp on {cell_name(result.awaiting['camp'])}",
            "fr": f"{player} : lancez un dé de naissance pour le camp en {cell_name(result.awaiting['camp'])}",
        }
    gave = []
    for b in result.births:
        if b.sex == "cancelled":
            game.emit("birth", "births.caps", player=player, cell=cell_name(b.camp), dice=list(b.dice), sex=b.sex)
            continue
        game.change_pawns(player, b.camp, int(b.sex == "warrior"), int(b.sex == "woman"), "birth", "births.count")
        game.emit("birth", "births.count", player=player, cell=cell_name(b.camp), dice=list(b.dice), sex=b.sex)
        gave.append(cell_name(b.camp))
    game.turn_log["births"][player] = sorted(set(gave))
    return True


@step("after_births")
def after_births(game, s, entry):
    from .game_tricks import window

    return window(
        game, s, entry, "end_of_births", "Cards at the end of births?", "Des cartes à la fin des naissances ?"
    )


# -- 8) sowing ------------------------------------------------------------------------------------------


@step("sowing_all")
def sowing_all(game, s, entry):
    game.then(
        *(
            {"step": "sowing", "phase": "sowing", "player": p, "terrace": False}
            for p in game.order
            if game.tribes[p].count
        )
    )
    return True


def sowing_cells(game, player, terrace: bool) -> list:
    tribe = game.tribes[player]
    return [
        c
        for c, kind in tribe.camps.items()
        if sowing_problem(game.valley, c, kind, c in game.fields, len(game.fields), tribe.food, terrace) is None
    ]


@step("sowing")
def sowing(game, s, entry):
    from .game_tricks import may_play

    player = s["player"]
    cells = sowing_cells(game, player, s["terrace"])
    if not cells and not (may_play(game, player, "sowing") and not s["terrace"]):
        return True
    if entry is None:
        return {
            "kind": "sow",
            "player": player,
            "options": names(cells),
            "en": f"{player}: sow fields (1 food each)?",
            "fr": f"{player} : semer des champs (1 nourriture chacun) ?",
        }
    from . import requests as rq

    wanted = [read_cell(game, c, f"cells.{i}") for i, c in enumerate(rq.items(entry.get("cells", []), "cells", 9))]
    for i, cell in enumerate(wanted):
        tribe = game.tribes[player]
        problem = sowing_problem(
            game.valley, cell, tribe.camps.get(cell), cell in game.fields, len(game.fields), tribe.food, s["terrace"]
        )
        if problem:
            _fail(
                f"{player} cannot sow on {cell_name(cell)}", f"{player} ne peut pas semer en {cell_name(cell)}", problem
            )
        sow_field(game, player, cell, "phase.sowing")
    return True


# -- 9) trick draw, 10) end of turn --------------------------------------------------------------------


@step("trick_draw")
def trick_draw(game, s, entry):
    players = [p for p in game.seats if not game.tribes[p].out and game.tribes[p].count]
    hands = {p: len(game.tribes[p].hand) for p in players}
    drawing, _ = trick_draws(hands, len(players), len(game.trick_pile), len(game.trick_discards))
    for p in drawing:
        card = draw_trick(game)
        if card is not None:
            game.tribes[p].hand.append(card)
            game.emit("trick_drawn", "phase.tricks", player=p)
    return True


@step("end")
def end(game, s, entry):
    """Phase 10 (rules §10): victory, eliminations and the return, lasting effects, the season marker."""
    from .game_events import end_of_turn_effects
    from .game_moves import standings

    info = game.info
    order_now = list(game.order) + [p for p in game.seats if p not in game.order and not game.tribes[p].out]
    may_return = {}
    for p in game.seats:
        tribe = game.tribes[p]
        if tribe.out or tribe.count:
            continue
        if info.return_window and not tribe.returned:
            may_return[p] = True
            game.emit("eliminated", "return.window", player=p, may_return=True)
        else:
            tribe.out = True
            game.trick_discards.extend(c for c in tribe.hand if c != HIDDEN)
            tribe.hand = []
            game.emit("eliminated", "standing.extinct", player=p, may_return=False)
    game.turn_log["may_return"] = may_return
    verdict = victory(
        order_now,
        standings(game),
        [p for p in game.seats if game.tribes[p].announced],
        game.fire_rules,
        bool(may_return),
        game.variants,
    )
    for p in game.seats:
        game.tribes[p].announced = p in verdict.announced
    if verdict.announced:
        game.emit("four_camps", "standing.victory", players=list(verdict.announced))
    if verdict.reason is not None:
        game.over, game.winners, game.reason = True, verdict.winners, verdict.reason
        game.emit(
            "game_over",
            "standing.extinct"
            if verdict.reason == "extinct"
            else ("standing.last_tribe" if verdict.reason == "last_tribe" else "standing.victory"),
            winners=list(verdict.winners),
            reason=verdict.reason,
        )
        return True
    end_of_turn_effects(game, info)
    for tribe in game.tribes.values():
        for cell, founded in list(tribe.pacs.items()):
            if founded < game.turn:
                del tribe.pacs[cell]
    game.check_camps()
    return True

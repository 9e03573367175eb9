"""Phase 1, events: the card drawn, its die, and its effects applied to the game.

:mod:`vallee.events` holds the 30 cards as data and finds the cells a card hits for a
die face; this module applies what the card does: kills (one human per cell, chosen by
its owner: asked), markers closing cells this turn, lasting effects (frozen rivers, lean
meat, drought, good rains), the wolf hordes and the solitaire, the fire text of the fire
rules. docs/rulings-vallee.md «The game model» lists the rulings it follows.
"""

from __future__ import annotations

from .core import MOUNTAIN, SUMMER, VOLCANO, WINTER, BadRequest, cell_name
from .events import CARDS, target
from .game import _fail, sorted_cells
from .game_setup import shuffled
from .game_turn import add_animals, names, place_tokens, read_cell, read_tokens, return_to_bag, step

#: Species by die face when a draw finds the bag empty (gap V11).
SPECIES_BY_FACE = {1: "wolf", 2: "tiger", 3: "bear", 4: "bison", 5: "rhino", 6: "mammoth"}
#: Cards that end a drought when drawn (rules «Sécheresse»; gap V22).
DROUGHT_ENDERS = ("bonnes_pluies", "orages", "inondation")
#: Card → the season at whose end its lasting effect stops (gap V7).
LASTING = {"fleuve_gele": WINTER, "viande_maigre": WINTER, "secheresse": SUMMER, "bonnes_pluies": SUMMER}


# -- the draw ------------------------------------------------------------------------------------


@step("event_draw")
def event_draw(game, s, entry):
    season = game.info.season
    if entry is None:
        return {
            "kind": "card",
            "deck": season,
            "random": game.modes["events"],
            "en": f"Draw the {season} event card",
            "fr": f"Piochez la carte événement d'{'été' if season == SUMMER else 'hiver'}",
        }
    pile = game.decks[season]
    if not pile:
        refill(game, season)
        pile = game.decks[season]
    drawn = pile[-1] if game.virtual("events") else None
    card = entry.get("card", drawn) if entry.get("card") is not None else drawn
    if card is None:
        raise BadRequest("card", "the event decks are physical: name the card drawn")
    if card not in CARDS:
        raise BadRequest("card", f"{str(card)[:40]!r} is not an event card id (maamut vallee rules lists them)")
    if card not in pile:
        _fail(
            f"{card} is not in the {season} deck now",
            f"{card} n'est pas dans la pioche d'{season} maintenant",
            "phase.events",
        )
    if drawn is not None and card != drawn:
        _fail(
            'the event decks are virtual: the companion draws (leave "card" out)',
            'les pioches d\'événements sont virtuelles : le compagnon pioche (omettez "card")',
            "random.virtual",
        )
    pile.remove(card)
    entry["card"] = card
    game.emit("event", f"event.{card}", card=card, title=CARDS[card].title, deck=season)
    base = card.removesuffix("_ete")
    if base in LASTING:
        game.lasting.append((card, season))
    else:
        game.discards[season].append(card)
    if game.markers.drought and base in DROUGHT_ENDERS:
        end_drought(game)
    start_card(game, base, card)
    return True


def refill(game, season: str) -> None:
    """An empty event deck: its discards shuffled become the deck (rules §1, gap V7)."""
    cards = game.discards[season]
    game.discards[season] = []
    game.decks[season] = shuffled(game, "events", cards) if game.virtual("events") else sorted(cards)
    game.emit("reshuffled", "phase.events", deck=season)


def end_drought(game) -> None:
    game.markers.drought = False
    discard_lasting(game, lambda card: card.removesuffix("_ete") == "secheresse")
    game.emit("drought_over", "event.secheresse")


def discard_lasting(game, which) -> None:
    for card, season in list(game.lasting):
        if which(card):
            game.lasting.remove((card, season))
            game.discards[season].append(card)


def start_card(game, base: str, card: str) -> None:
    m = game.markers
    if CARDS[card].die or base == "ours_des_cavernes":
        game.then({"step": "event_die", "phase": "events", "card": card})
    elif base in ("horde_4", "horde_3", "epizootie"):
        game.then({"step": "locator", "phase": "events", "card": base})
    elif base == "solitaire":
        solitaire_card(game)
    elif base == "blizzard":
        m.move_limit = 0
        if game.fire_rules:
            for p in game.seats:
                game.set_fire(p, False, "blizzard", "event.blizzard")
    elif base in ("tempete", "orages"):
        m.move_limit = min(m.move_limit, 1)
        if game.fire_rules:
            game.then(*fire_rolls(game, base))
    elif base == "froidure":
        m.cold_snap = True
    elif base in ("hiver_long", "automne_clement"):
        hold_season(game)
    elif base == "viande_maigre":
        m.lean_meat = True
    elif base == "viande_rare":
        m.no_arrivals = True
    elif base == "bonnes_pluies":
        m.good_rains = True
    elif base == "rongeurs":
        for p in game.seats:
            villages = sum(1 for kind in game.tribes[p].camps.values() if kind == "village")
            if villages:
                game.change_food(p, -2 * villages, "rongeurs", "event.rongeurs")
    elif base == "chutes_de_neige":
        snowfall(game)
    elif base == "eruption":
        eruption(game)


def hold_season(game) -> None:
    """Hiver long / Automne clément: the marker stays at this turn's end (gap V24); the
    end-of-season phases move to the turn that really ends the season (gap V6)."""
    if game.turn not in game.held:
        game.held.append(game.turn)
    game._info = None
    info = game.info
    drop = {"births_all": "births", "sowing_all": "sowing", "trick_draw": "tricks"}
    game.agenda = [s for s in game.agenda if s["step"] not in drop or info.runs(drop[s["step"]])]
    game.emit("season_held", "calendar.held", turn=game.turn)


def fire_rolls(game, base: str) -> list:
    holders = [p for p in game.seats if game.tribes[p].fire]
    steps = [{"step": "fire_roll", "phase": "events", "player": p, "card": base, "lose": True} for p in holders]
    if base == "orages":
        steps += [
            {"step": "fire_roll", "phase": "events", "player": p, "card": base, "lose": False}
            for p in game.seats
            if game.may_take_fire(p) and game.tribes[p].count
        ]
    return steps


#: Faces on which a fire die loses fire (holders) or finds it (others, Orages).
FIRE_FACES = {
    ("tempete", True): (4, 5, 6),
    ("orages", True): (3, 4, 5, 6),
    ("orages", False): (1, 2),
    ("chutes_de_neige", True): (5, 6),
}


@step("fire_roll")
def fire_roll(game, s, entry):
    player = s["player"]
    if entry is None:
        what = "keep" if s["lose"] else "find"
        return {
            "kind": "roll",
            "count": 1,
            "player": player,
            "random": game.modes["dice"],
            "en": f"{player}: roll to {what} fire",
            "fr": f"{player} : lancez le dé pour {'garder' if s['lose'] else 'trouver'} le feu",
        }
    face = game.dice(entry, 1)[0]
    hit = face in FIRE_FACES[(s["card"], s["lose"])]
    if hit:
        game.set_fire(player, not s["lose"], s["card"], f"event.{s['card']}")
    else:
        game.emit("fire_roll", f"event.{s['card']}", player=player, face=face, changed=False)
    return True


# -- the die and the cells hit --------------------------------------------------------------------------


def caves(game) -> list:
    return [c for t in game.tribes.values() for c, kind in t.camps.items() if kind == "cave"]


@step("event_die")
def event_die(game, s, entry):
    card = CARDS[s["card"]]
    base = s["card"].removesuffix("_ete")
    if base == "ours_des_cavernes" and not caves(game):
        game.emit("no_effect", "event.ours_des_cavernes", why="no_cave")
        return True
    if entry is None:
        return {
            "kind": "roll",
            "count": 1,
            "random": game.modes["dice"],
            "card": s["card"],
            "en": f"{card.title}: roll the die",
            "fr": f"{card.title} : lancez le dé",
        }
    face = game.dice(entry, 1)[0]
    if base == "epidemie":
        sex = "woman" if face <= 3 else "warrior"
        game.emit("epidemic", "event.epidemie", face=face, sex=sex)
        game.then(
            *(
                {"step": "epidemic_loss", "phase": "events", "player": p, "sex": sex}
                for p in game.seats
                if getattr(game.tribes[p], "women" if sex == "woman" else "warriors")
            )
        )
        return True
    hit = target(game.valley, card, face, caves(game))
    if hit.reroll:
        game.emit("reroll", f"event.{base}", face=face)
        return False
    game.emit("event_cells", f"event.{base}", face=face, cells=names(hit.cells), river=hit.river)
    EFFECTS[base](game, list(hit.cells), hit)
    return True


def kill_all(game, cells, why: str, rule: str, humans: bool = True, animals: bool = True) -> None:
    for cell in cells:
        if animals:
            for a in list(game.animals_at(cell)):
                return_to_bag(game, a, a.count, why, rule)
        if humans:
            for name, (w, f) in game.occupants(cell).items():
                game.change_pawns(name, cell, -w, -f, why, rule)
            for n in [n for n in game.neutrals if n["cell"] == cell]:
                game.neutrals.remove(n)
                game.emit("neutral_gone", rule, cell=cell_name(cell), why=why)
    game.check_camps()


def one_human_per_cell(game, cells, card: str) -> None:
    """One human dies on each cell, chosen by its owner (asked when he has both sexes there)."""
    steps = []
    for cell in sorted_cells(cells):
        for name in game.seats:
            if cell in game.tribes[name].pawns:
                steps.append(
                    {"step": "human_loss", "phase": "events", "player": name, "cell": cell_name(cell), "card": card}
                )
        if not game.occupants(cell):
            for n in [n for n in game.neutrals if n["cell"] == cell][:1]:
                game.neutrals.remove(n)
                game.emit("neutral_gone", f"event.{card}", cell=cell_name(cell), why=card)
    game.then(*steps)


@step("human_loss")
def human_loss(game, s, entry):
    from .game_turn import parse_cell

    player, cell = s["player"], parse_cell(s["cell"], "cell")
    w, f = game.tribes[player].at(cell)
    if not w and not f:
        return True
    if entry is None and w and f:
        return {
            "kind": "lose",
            "player": player,
            "cell": s["cell"],
            "options": ["warrior", "woman"],
            "card": s["card"],
            "en": f"{player}: one of your pawns on {s['cell']} dies — a warrior or a woman?",
            "fr": f"{player} : un de vos pions en {s['cell']} meurt — un guerrier ou une femme ?",
        }
    pawn = "warrior" if not f else "woman" if not w else entry.get("pawn")
    if pawn not in ("warrior", "woman"):
        raise BadRequest("pawn", "must be 'warrior' or 'woman'")
    game.change_pawns(player, cell, -int(pawn == "warrior"), -int(pawn == "woman"), s["card"], f"event.{s['card']}")
    game.turn_log.setdefault("event_losses", set()).add(player)
    game.check_camps()
    return True


@step("epidemic_loss")
def epidemic_loss(game, s, entry):
    player, sex = s["player"], s["sex"]
    index = 0 if sex == "warrior" else 1
    cells = [c for c, pair in game.tribes[player].pawns.items() if pair[index]]
    if not cells:
        return True
    if entry is None and len(cells) > 1:
        return {
            "kind": "lose",
            "player": player,
            "options": names(cells),
            "pawn": sex,
            "en": f"{player}: the epidemic takes a {sex}: on which cell?",
            "fr": f"{player} : l'épidémie emporte {'un guerrier' if sex == 'warrior' else 'une femme'} : "
            "sur quelle case ?",
        }
    cell = cells[0] if len(cells) == 1 else read_cell(game, entry.get("cell"), "cell")
    if cell not in cells:
        _fail(
            f"{player} has no {sex} on {cell_name(cell)}",
            f"{player} n'a pas ce pion en {cell_name(cell)}",
            "event.epidemie",
        )
    game.change_pawns(player, cell, -int(sex == "warrior"), -int(sex == "woman"), "epidemie", "event.epidemie")
    game.check_camps()
    return True


# -- each card's effect on the cells it hits ------------------------------------------------------------


def avalanche(game, cells, hit):
    kill_all(game, cells, "avalanches", "event.avalanches", humans=False)
    one_human_per_cell(game, cells, "avalanches")


def earthquake(game, cells, hit):
    kill_all(game, cells, "tremblement_de_terre", "event.tremblement_de_terre", humans=False)
    one_human_per_cell(game, cells, "tremblement_de_terre")


def forest_fire(game, cells, hit):
    """Incendie de forêt: the region burns (closed this turn) and every piece there dies."""
    game.markers.burning.update(cells)
    kill_all(game, cells, "incendie_de_foret", "event.incendie_de_foret")


def flood(game, cells, hit):
    """Inondation (gaps V18, V77): banks flooded this turn, villages and fields lost,
    animals killed, one human per cell, survivors frozen (they may still fish)."""
    m = game.markers
    m.flooded.update(cells)
    m.frozen_cells.update(cells)
    for cell in cells:
        game.fields.pop(cell, None)
        owner = game.camp_owner(cell)
        if owner and game.tribes[owner].camps[cell] == "village":
            if game.fire_rules:
                game.set_fire(owner, False, "flood", "event.inondation")
            game.remove_camp(owner, cell, "flooded", "event.inondation")
    kill_all(game, cells, "inondation", "event.inondation", humans=False)
    one_human_per_cell(game, cells, "inondation")


def frozen_river(game, cells, hit):
    game.markers.frozen_rivers.add(hit.river)
    game.emit("river_frozen", "event.fleuve_gele", river=hit.river, lake=hit.lake)


def locusts(game, cells, hit, rule="event.sauterelles"):
    for cell in cells:
        f = game.fields.get(cell)
        if f is None:
            continue
        before = f["state"]
        if before == "intact":
            f["state"] = after = "damaged"
        else:
            del game.fields[cell]
            after = "destroyed"
        game.emit("field", rule, cell=cell_name(cell), before=before, after=after)
    if rule == "event.sauterelles":
        for p in game.seats:
            game.change_food(p, -(game.tribes[p].food // 2), "sauterelles", rule)


def drought(game, cells, hit):
    locusts(game, cells, hit, "event.secheresse")
    game.markers.drought = True


def cave_bear(game, cells, hit):
    """Ours des cavernes (gap V15): each group in a cave of the region fights a bear there."""
    from .game_combat import fight_step

    for cell in cells:
        if game.occupants(cell):
            game.then(fight_step(game, cell, bear=True))


EFFECTS = {
    "avalanches": avalanche,
    "tremblement_de_terre": earthquake,
    "incendie_de_foret": forest_fire,
    "inondation": flood,
    "fleuve_gele": frozen_river,
    "sauterelles": locusts,
    "secheresse": drought,
    "ours_des_cavernes": cave_bear,
}


def snowfall(game) -> None:
    """Chutes de neige (gap V14): one human per mountain cell dies, none on a cave cell;
    mountains closed this turn and their pawns frozen; fire holders who lost a pawn roll."""
    mountains = [c for c in game.valley.cells if game.valley.terrain[c] in (MOUNTAIN, VOLCANO)]
    game.markers.closed.update(mountains)
    game.markers.frozen_cells.update(mountains)
    cave_cells = set(caves(game))
    game.turn_log["event_losses"] = set()
    one_human_per_cell(game, [c for c in mountains if c not in cave_cells], "chutes_de_neige")
    if game.fire_rules:
        game.agenda.insert(_after_losses(game), {"step": "snow_fire", "phase": "events"})


def _after_losses(game) -> int:
    i = 1
    while i < len(game.agenda) and game.agenda[i]["step"] == "human_loss":
        i += 1
    return i


@step("snow_fire")
def snow_fire(game, s, entry):
    losers = game.turn_log.get("event_losses", set())
    game.then(
        *(
            {"step": "fire_roll", "phase": "events", "player": p, "card": "chutes_de_neige", "lose": True}
            for p in game.seats
            if p in losers and game.tribes[p].fire
        )
    )
    return True


def eruption(game) -> None:
    """Éruption volcanique (gap V17): every volcano burns (closed this turn) and its pieces
    die; on the lava cells animals die and one human per cell; fire may be taken there."""
    volcanoes = list(game.valley.volcanoes)
    lava = sorted_cells({c for v in volcanoes for c in game.valley.lava_of(v)})
    game.markers.burning.update(volcanoes)
    game.markers.lava.update(lava)
    game.emit("event_cells", "event.eruption", cells=names(volcanoes + lava))
    kill_all(game, volcanoes, "eruption", "event.eruption")
    kill_all(game, lava, "eruption", "event.eruption", humans=False)
    one_human_per_cell(game, lava, "eruption")


# -- tokens drawn to find a cell: hordes, the solitaire, epizootics ---------------------------------------


@step("locator")
def locator(game, s, entry):
    card = s["card"]
    if not game.bag:
        if card == "epizootie":
            return epizootic_without_bag(game, s, entry)
        game.emit("no_effect", f"event.{card}", why="empty_bag")
        return True
    if entry is None:
        return {
            "kind": "tokens",
            "count": 1,
            "random": game.modes["bag"],
            "card": card,
            "en": "Draw a token from the bag to find the cell",
            "fr": "Tirez un pion du sac pour trouver la case",
        }
    token = read_tokens(game, entry, 1)[0]
    cell = game.valley.cell_of_letter[token[1]]
    if card == "epizootie":
        game.bag.append(token)
        epizootic(game, token[0])
        return True
    if game.variants.locator_token == "arrives":
        place_tokens(game, [token], "locator", f"event.{card}")
    else:
        game.bag.append(token)
    if card in ("horde_4", "horde_3"):
        wanted = 4 if card == "horde_4" else 3
        placed = min(wanted, game.wolves_reserve)
        game.wolves_reserve -= placed
        if placed:
            add_animals(game, "wolf", cell, [""] * placed, "horde", f"event.{card}")
    else:
        place_neutral(game, cell, s["sex"])
    return True


def epizootic_without_bag(game, s, entry):
    """The bag is empty: a die names the species (gap V11)."""
    if entry is None:
        return {
            "kind": "roll",
            "count": 1,
            "random": game.modes["dice"],
            "card": "epizootie",
            "en": "The bag is empty: roll for the species",
            "fr": "Le sac est vide : lancez le dé pour l'espèce",
        }
    epizootic(game, SPECIES_BY_FACE[game.dice(entry, 1)[0]])
    return True


def epizootic(game, species: str) -> None:
    game.markers.epizootie = species
    game.emit("epizootic", "event.epizootie", species=species)
    for a in [a for a in game.animals.values() if a.species == species]:
        return_to_bag(game, a, a.count, "epizootie", "event.epizootie")


def solitaire_card(game) -> None:
    """Solitaire (gap V13): the neutral pawn not on the board; a die when both are free."""
    on_board = {n["sex"] for n in game.neutrals}
    free = [sex for sex in ("woman", "warrior") if sex not in on_board]
    if not free:
        game.emit("no_effect", "event.solitaire", why="both_on_board")
    elif len(free) == 1:
        game.then({"step": "locator", "phase": "events", "card": "solitaire", "sex": free[0]})
    else:
        game.then({"step": "solitaire_sex", "phase": "events"})


@step("solitaire_sex")
def solitaire_sex(game, s, entry):
    if entry is None:
        return {
            "kind": "roll",
            "count": 1,
            "random": game.modes["dice"],
            "en": "Solitaire: roll, 1–3 a woman, 4–6 a warrior",
            "fr": "Solitaire : lancez, 1–3 une femme, 4–6 un guerrier",
        }
    sex = "woman" if game.dice(entry, 1)[0] <= 3 else "warrior"
    game.then({"step": "locator", "phase": "events", "card": "solitaire", "sex": sex})
    return True


def place_neutral(game, cell, sex: str) -> None:
    game.neutrals.append({"cell": cell, "sex": sex})
    game.emit("neutral", "event.solitaire", cell=cell_name(cell), sex=sex)
    owners = [p for p in game.seats if cell in game.tribes[p].pawns]
    if owners:
        solitaire_meets(game, cell, owners[0])


def solitaire_meets(game, cell, player: str) -> None:
    """A neutral pawn joins the first tribe it meets, if that tribe has a piece of its sex left."""
    for n in [n for n in game.neutrals if n["cell"] == cell]:
        game.neutrals.remove(n)
        free_w, free_f = game.free_pieces(player)
        if (free_w if n["sex"] == "warrior" else free_f) > 0:
            game.change_pawns(
                player, cell, int(n["sex"] == "warrior"), int(n["sex"] == "woman"), "solitaire", "event.solitaire"
            )
            game.emit("neutral_joined", "event.solitaire", player=player, cell=cell_name(cell), sex=n["sex"])
        else:
            game.emit("neutral_gone", "event.solitaire", cell=cell_name(cell), why="no_piece")


def move_solitaire(game, face: int) -> None:
    """Each turn a neutral pawn moves one cell the animals' way, if a human could step there."""
    direction = game.valley.direction_of_face(face)
    for n in list(game.neutrals):
        here = n["cell"]
        nxt = game.valley.step(here, direction)
        v, m = game.valley, game.markers
        river = v.on_board(nxt) and v.river_between(here, nxt)
        if (
            not v.on_board(nxt)
            or nxt in v.lake
            or nxt in game.closed_cells()
            or (river and river not in m.frozen_rivers and not m.drought)
        ):
            game.emit("neutral_moved", "event.solitaire", start=cell_name(here), end=cell_name(here), blocked=True)
            continue
        n["cell"] = nxt
        game.emit("neutral_moved", "event.solitaire", start=cell_name(here), end=cell_name(nxt), blocked=False)
        owners = [p for p in (game.order or game.seats) if nxt in game.tribes[p].pawns]
        if owners:
            solitaire_meets(game, nxt, owners[0])


# -- end of a season ---------------------------------------------------------------------------------------


def end_of_turn_effects(game, info) -> None:
    """Lasting effects that stop at the end of a season (gap V7), and the marker (rules §10)."""
    m = game.markers
    if info.ends_season and info.season == WINTER:
        if m.frozen_rivers or m.lean_meat:
            game.emit("winter_over", "calendar.year", frozen_rivers=sorted(m.frozen_rivers), lean_meat=m.lean_meat)
        m.frozen_rivers, m.lean_meat = set(), False
        discard_lasting(game, lambda c: LASTING.get(c.removesuffix("_ete")) == WINTER)
    if info.ends_season and info.season == SUMMER:
        if m.drought:
            end_drought(game)
        m.good_rains = False
        discard_lasting(game, lambda c: LASTING.get(c.removesuffix("_ete")) == SUMMER)

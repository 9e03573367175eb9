"""Trick cards in a game: when each may be played, and what it does to the game.

:mod:`vallee.tricks` holds the 40 cards as data. Here :func:`tricks_now` lists, for the
question asked now, the cards each player may play (its moment of play: rules «Texte
des cartes astuces»; simultaneous plays in turn order, gap V64), and :func:`play_trick`
applies one: the mechanical effects on the game (bonuses, crossings, kills, food,
births, fields, fire), with the choices a card needs given in the entry (its cell, its
target…). Movement cards (Pont, Nage, Troncs d'arbre, Radeau, Endurance, Marche
forcée, Camouflage, Fuite, Tambour de guerre) ride on a ``move`` entry's ``cards``;
Pacs on a ``found_camp`` entry's ``card``. With a physical trick deck the hands are
hidden: a player may play any card while he holds cards (gap V70).
"""

from __future__ import annotations

from .core import FOREST, MOUNTAIN, SUMMER, VOLCANO, BadRequest, cell_name, parse_cell
from .game import HIDDEN, _fail
from .tricks import TRICKS

#: The ask steps at which each card may be played (the "any time" cards: every step).
MOVE_CARDS = (
    "pont",
    "nage",
    "troncs_d_arbre",
    "radeau",
    "endurance",
    "marche_forcee",
    "camouflage",
    "fuite",
    "tambour_de_guerre",
)
AT_STEP = {
    "movement": ("coup_de_foudre", "vol", "chute_de_pierre", "incendiaire") + MOVE_CARDS + ("pacs",),
    "after_animals": ("enfant_sauvage", "louveteau", "visite_de_famille", "tambour_de_guerre"),
    "animal_die": ("palissade",),
    "fight": (
        "pierre_taillee",
        "propulseur",
        "silax",
        "torches",
        "fortes_tetes",
        "pieges",
        "grimper_aux_arbres",
        "fuite",
        "ami",
        "appeau",
    ),
    "combat_cell": ("appeau",),
    "human_loss": ("nage", "troncs_d_arbre", "grimper_aux_arbres"),
    "survival": ("filet", "racines", "engrais_naturel"),
    "late_sowing": ("semailles_tardives",),
    "births": ("herbes_de_fertilite", "bonnes_herbes", "comme_une_bete"),
    "after_births": ("fievre_puerperale",),
    "sowing": ("terrasse",),
    "camp_choice": ("terre_brulee",),
}
ANY_TIME = ("cannibales", "espionnage", "intuition", "silax")
#: The choices a ``trick`` entry gives per card (docs/vallee-game.md «the entries»):
#: ``(field, kind, en, fr)``, the kind saying what a value is — ``cell`` ("q,r"),
#: ``player``, ``pawn`` (warrior, woman), ``direction`` (of the map's orientation),
#: ``species``, ``steal`` (food, fire), ``use`` (bonus, fire), ``targets`` (up to two
#: ``{"player", "cell"}``), ``tokens`` (one bag token, with a physical bag). The page
#: builds each card's form from this; a card not listed needs no choice.
CHOICES = {
    "palissade": (("cell", "cell", "your field", "votre champ"),),
    "enfant_sauvage": (("cell", "cell", "your forest village", "votre village en forêt"),
                       ("pawn", "pawn", "who joins it", "qui le rejoint")),
    "louveteau": (("cell", "cell", "the lone wolf's cell", "la case du loup seul"),),
    "tambour_de_guerre": (("cell", "cell", "your cell with animals", "votre case avec des animaux"),
                          ("direction", "direction", "driven toward", "chassés vers")),
    "bonnes_herbes": (("cell", "cell", "your camp", "votre camp"), ("sex", "pawn", "newborns", "naissances")),
    "comme_une_bete": (("cell", "cell", "your woman outside a camp", "votre femme hors d'un camp"),),
    "semailles_tardives": (("cell", "cell", "where to sow", "où semer"),),
    "appeau": (("cell", "cell", "your group", "votre groupe"), ("from", "cell", "the animal's cell", "la case de l'animal"),
               ("species", "species", "the animal", "l'animal")),
    "coup_de_foudre": (("cell", "cell", "your pawn", "votre pion"), ("target", "cell", "the enemy's cell", "la case de l'ennemi"),
                       ("from", "player", "the enemy tribe", "la tribu ennemie"), ("pawn", "pawn", "the enemy pawn", "le pion ennemi")),
    "vol": (("cell", "cell", "your group", "votre groupe"), ("from", "player", "the tribe robbed", "la tribu volée"),
            ("steal", "steal", "what is stolen", "ce qui est volé")),
    "chute_de_pierre": (("cell", "cell", "your pawn in the mountains", "votre pion en montagne"),
                        ("target", "cell", "the cell buried", "la case ensevelie")),
    "incendiaire": (("cell", "cell", "your pawn", "votre pion"), ("target", "cell", "the forest set on fire", "la forêt incendiée")),
    "fuite": (("to", "cell", "flee to (in a fight)", "fuir vers (en combat)"),),
    "fievre_puerperale": (("targets", "targets", "one or two enemy women who just gave birth",
                           "une ou deux femmes ennemies qui viennent d'accoucher"),),
    "silax": (("use", "use", "use", "usage"),),
    "visite_de_famille": (("tokens", "tokens", "the token drawn (physical bag)", "le pion tiré (sac physique)"),),
}
#: Window steps: the moment name used by :func:`may_play`.
WINDOW_OF = {
    "after_animals": "after_animals",
    "late_sowing": "late_sowing",
    "end_of_births": "after_births",
    "survival": "survival",
    "sowing": "sowing",
}
COMBAT_BONUS = ("pierre_taillee", "propulseur")


def holds(game, player: str, card: str) -> bool:
    hand = game.tribes[player].hand
    return card in hand or (HIDDEN in hand)


def may_play(game, player: str, moment: str) -> bool:
    """Might the player play a card of that moment now? (always, with a hidden hand)."""
    step = WINDOW_OF.get(moment, moment)
    return any(holds(game, player, c) and allowed(game, player, c, step) for c in AT_STEP.get(step, ()))


def allowed(game, player: str, card: str, step: str) -> bool:
    """The conditions a card states beyond its moment (fire, season)."""
    tribe = game.tribes[player]
    if TRICKS[card].fire == "needs" and not (game.fire_rules and tribe.fire):
        return False
    if card == "incendiaire" and game.info.season != SUMMER:
        return False
    if card == "engrais_naturel" and not game.info.harvest:
        return False
    if card == "racines" and game.info.season == SUMMER:
        return False
    return True


def window(game, s, entry, moment: str, en: str, fr: str):
    """A moment for cards: asked (``pass`` closes it) only when someone may play one."""
    if entry is not None:
        return True
    if any(may_play(game, p, moment) for p in game.seats if game.tribes[p].count):
        return {"kind": "pass", "en": en, "fr": fr}
    return True


def tricks_now(game, ask: dict) -> list:
    """The cards each player may play while this question is asked: ``{"player", "card"}``
    (``"via": "move"`` for the cards given in a move entry)."""
    step = ask["step"]
    out = []
    players = [p for p in (game.order or game.seats) if game.tribes[p].count and game.tribes[p].hand]
    for p in players:
        cards = list(AT_STEP.get(step, ()))
        if step == "fight" and (p not in ask.get("sides", []) or ask.get("last") is not None):
            cards = []
        if step in ("movement", "survival", "births", "sowing", "human_loss") and ask.get("player") != p:
            cards = []
        if step == "camp_choice":
            cards = cards if game.agenda[0].get("loser") == p else []
        if step == "combat_cell" and ask.get("player") != p:
            cards = []
        for card in cards + [c for c in ANY_TIME if c not in cards]:
            if holds(game, p, card) and allowed(game, p, card, step):
                item = {"player": p, "card": card}
                if step == "movement" and card in MOVE_CARDS + ("pacs",):
                    item["via"] = "found_camp" if card == "pacs" else "move"
                out.append(item)
    return out


def use_cards(game, player: str, cards, moment: str) -> None:
    """Take cards out of a hand into the discards (checked against the hand)."""
    tribe = game.tribes[player]
    for card in cards:
        if card not in TRICKS:
            raise BadRequest("cards", f"{str(card)[:40]!r} is not a trick card id")
        if card in tribe.hand:
            tribe.hand.remove(card)
        elif HIDDEN in tribe.hand:
            tribe.hand.remove(HIDDEN)
        else:
            _fail(f"{player} does not hold {card}", f"{player} n'a pas la carte {card}", f"trick.{card}")
        game.trick_discards.append(card)
        game.emit("trick", f"trick.{card}", player=player, card=card, moment=moment)


def play_trick(game, ask, entry) -> None:
    """A ``trick`` entry: ``{"kind": "trick", "player", "card", ...its choices}``."""
    player, card = entry.get("player"), entry.get("card")
    if card not in TRICKS:
        raise BadRequest("card", f"{str(card)[:40]!r} is not a trick card id")
    if player not in game.tribes:
        raise BadRequest("player", "must be one of the players")
    if ask is None:
        _fail("nothing is asked now", "rien n'est demandé maintenant", "request.format")
    listed = {(t["player"], t["card"]) for t in ask.get("tricks", ()) if "via" not in t}
    if (player, card) not in listed:
        _fail(
            f"{player} cannot play {TRICKS[card].title} now",
            f"{player} ne peut pas jouer {TRICKS[card].title} maintenant",
            f"trick.{card}",
        )
    effect = EFFECTS.get(card, recorded)
    effect(game, ask, entry, player, card)
    game._ask = None  # the question is asked again, with what the card changed


def _cell(game, entry, key="cell"):
    from .game_turn import read_cell

    return read_cell(game, entry.get(key), key)


def _neighbour(game, a, b, across_river: bool = False) -> bool:
    return b in game.valley.neighbours(a) and (across_river or game.valley.river_between(a, b) is None)


def recorded(game, ask, entry, player, card) -> None:
    """Cards that change nothing the companion tracks (Espionnage; Intuition with
    physical decks): the play is recorded (gap V70)."""
    use_cards(game, player, (card,), ask["step"])


def intuition(game, ask, entry, player, card) -> None:
    use_cards(game, player, (card,), ask["step"])
    if game.virtual("events"):
        season = "winter" if game.info.season == "summer" and game.info.ends_season else game.info.season
        pile = game.decks[season]
        game.emit("next_event", "trick.intuition", player=player, card=pile[-1] if pile else None)


def turn_card(game, ask, entry, player, card) -> None:
    """Cards lasting the turn: Silax (+1 in every combat, or find fire), Torches, Cannibales."""
    if card == "silax" and entry.get("use") == "fire":
        if not game.may_take_fire(player):
            _fail(
                "Silax finds fire only with the fire rules, for a tribe without it",
                "Silax ne trouve le feu qu'avec les règles du feu, pour une tribu qui ne l'a pas",
                "trick.silax",
            )
        use_cards(game, player, (card,), ask["step"])
        game.set_fire(player, True, "silax", "trick.silax")
        return
    if card == "silax" and not (ask["step"] == "fight" and player in ask.get("sides", [])):
        _fail(
            "Silax's bonus is played before your first combat",
            "le bonus de Silax se joue avant votre premier combat",
            "trick.silax",
        )
    use_cards(game, player, (card,), ask["step"])
    game.tribes[player].turn_cards.append(card)


def fight_card(game, ask, entry, player, card) -> None:
    """Pierre taillée, Propulseur (+2 this combat), Fortes têtes (women fight as warriors)."""
    s = game.agenda[0]
    use_cards(game, player, (card,), "fight")
    if card == "fortes_tetes":
        s["fortes"].append(player)
    else:
        s["cards"].setdefault(player, []).append(card)


def traps(game, ask, entry, player, card) -> None:
    """Pièges: the animals on the cell are beaten without a fight, and give their food (gap V69)."""
    from .game_combat import beasts_of, settle_animals

    s = game.agenda[0]
    if s["stage"] != "animals" or s["bear"]:
        _fail(
            "traps beat animals, before that fight", "les pièges battent des animaux, avant ce combat", "trick.pieges"
        )
    cell = parse_cell(s["cell"], "cell")
    beasts = beasts_of(game, s)
    use_cards(game, player, (card,), "fight")
    from .combat import hunt_food

    food = sum(hunt_food(sp, n, game.markers.lean_meat) for sp, n in beasts.items())
    settle_animals(
        game, s, player, cell, beasts, {player: game.tribes[player].at(cell), "animals": {sp: 0 for sp in beasts}}, food
    )
    game._finish_step(s)


def hide(game, ask, entry, player, card) -> None:
    """Grimper aux arbres: in a forest, survive a flood (staying put) or hide from the
    fight on the cell; either way a village there is destroyed."""
    s = game.agenda[0]
    cell = parse_cell(s["cell"], "cell")
    if game.valley.terrain[cell] != FOREST or (s["step"] == "human_loss" and s.get("card") != "inondation"):
        _fail(
            "one climbs trees in a forest, against a flood or a fight",
            "on grimpe aux arbres en forêt, contre une inondation ou un combat",
            "trick.grimper_aux_arbres",
        )
    use_cards(game, player, (card,), ask["step"])
    if s["step"] == "fight":
        game.turn_log["hidden"].add(cell)
    owner = game.camp_owner(cell)
    if owner and game.tribes[owner].camps[cell] == "village":
        game.remove_camp(owner, cell, "grimper_aux_arbres", "trick.grimper_aux_arbres")
    game.emit("hidden" if s["step"] == "fight" else "saved", "trick.grimper_aux_arbres", player=player, cell=s["cell"])
    game._finish_step(s)


def survive_flood(game, ask, entry, player, card) -> None:
    """Nage, Troncs d'arbre: the group survives the flood and stays put."""
    s = game.agenda[0]
    if s.get("card") != "inondation":
        _fail("this card saves a group from a flood", "cette carte sauve un groupe d'une inondation", f"trick.{card}")
    use_cards(game, player, (card,), "events")
    game.emit("saved", f"trick.{card}", player=player, cell=s["cell"])
    game._finish_step(s)


def flee(game, ask, entry, player, card) -> None:
    """Fuite in combat: the group leaves a fight against a tribe for a free neighbouring cell."""
    s = game.agenda[0]
    if s["stage"] != "tribes":
        _fail("Fuite leaves a fight against a tribe", "Fuite quitte un combat contre une tribu", "trick.fuite")
    cell = parse_cell(s["cell"], "cell")
    to = _cell(game, entry, "to")
    river = game.valley.river_between(cell, to)
    free = (
        to in game.valley.neighbours(cell)
        and to not in game.valley.lake
        and to not in game.closed_cells()
        and not game.occupants(to)
        and not game.animals_at(to)
        and (not river or river in game.markers.frozen_rivers or game.markers.drought)
    )
    if not free:
        _fail("Fuite leads to a free neighbouring cell", "Fuite mène à une case voisine libre", "trick.fuite")
    use_cards(game, player, (card,), "fight")
    w, f = game.tribes[player].at(cell)
    game.change_pawns(player, cell, -w, -f, "fuite", "trick.fuite")
    game.change_pawns(player, to, w, f, "fuite", "trick.fuite")
    game.check_camps()


def friend(game, ask, entry, player, card) -> None:
    """Ami: a lone enemy warrior on the cell joins the player."""
    s = game.agenda[0]
    cell = parse_cell(s["cell"], "cell")
    lone = [p for p, (w, f) in game.occupants(cell).items() if p != player and (w, f) == (1, 0)]
    if not lone or not game.free_pieces(player)[0]:
        _fail("Ami wins over a lone enemy warrior", "Ami rallie un guerrier ennemi seul", "trick.ami")
    use_cards(game, player, (card,), "fight")
    game.change_pawns(lone[0], cell, -1, 0, "ami", "trick.ami")
    game.change_pawns(player, cell, 1, 0, "ami", "trick.ami")


def lure(game, ask, entry, player, card) -> None:
    """Appeau (gap V66): one animal from a neighbouring cell without humans joins the animals
    on one of the player's cells; only a bear crosses a river; species limits hold."""
    from .game_turn import add_animals

    cell, source = _cell(game, entry), _cell(game, entry, "from")
    species = entry.get("species")
    unit = next((a for a in game.animals_at(source) if a.species == species), None)
    river = game.valley.river_between(source, cell)
    mountain = game.valley.terrain[cell] in (MOUNTAIN, VOLCANO)
    from .core import SPECIES

    if (
        cell not in game.tribes[player].pawns
        or unit is None
        or source in game.human_cells()
        or source not in game.valley.neighbours(cell)
        or (river and species != "bear")
        or (mountain and not SPECIES[species].enters_mountains)
    ):
        _fail(
            "Appeau lures one animal from a neighbouring cell without humans onto your group",
            "Appeau attire un animal d'une case voisine sans humains vers votre groupe",
            "trick.appeau",
        )
    use_cards(game, player, (card,), "combat")
    letter = unit.letters.pop()
    if not unit.letters:
        del game.animals[unit.id]
    add_animals(game, species, cell, [letter], "appeau", "trick.appeau")


def survival_card(game, ask, entry, player, card) -> None:
    use_cards(game, player, (card,), "survival")
    game.agenda[0]["cards"].append(card)


def births_card(game, ask, entry, player, card) -> None:
    """Herbes de fertilité, Bonnes herbes (the sex of one camp's newborns), Comme une bête."""
    s = game.agenda[0]
    if s["rolls"]:
        _fail(
            "birth cards are played before the first birth die",
            "les cartes de naissance se jouent avant le premier dé",
            f"trick.{card}",
        )
    tribe = game.tribes[player]
    if card == "bonnes_herbes":
        cell = _cell(game, entry)
        if cell not in tribe.camps or entry.get("sex") not in ("warrior", "woman"):
            _fail(
                "Bonnes herbes names one of your camps and a sex",
                "Bonnes herbes désigne un de vos camps et un sexe",
                "trick.bonnes_herbes",
            )
        s["chosen"][cell_name(cell)] = entry["sex"]
    elif card == "comme_une_bete":
        cell = _cell(game, entry)
        if cell in tribe.camps or not tribe.at(cell)[1] or cell_name(cell) in s["extra"]:
            _fail(
                "Comme une bête: one of your women outside a camp",
                "Comme une bête : une de vos femmes hors d'un camp",
                "trick.comme_une_bete",
            )
        s["extra"].append(cell_name(cell))
    use_cards(game, player, (card,), "births")
    s["cards"].append(card)


def puerperal(game, ask, entry, player, card) -> None:
    """Fièvre puerpérale: two enemy women who just gave birth die (the cells where births were)."""
    from . import requests as rq

    targets = rq.items(entry.get("targets"), "targets", 2)
    picks = []
    for i, t in enumerate(targets):
        rq.obj(t, f"targets.{i}")
        victim = t.get("player")
        cell = _cell(game, t)
        if (
            victim == player
            or victim not in game.tribes
            or cell_name(cell) not in game.turn_log["births"].get(victim, [])
        ):
            _fail(
                "Fièvre puerpérale strikes enemy women who just gave birth",
                "Fièvre puerpérale frappe des femmes ennemies qui viennent d'accoucher",
                "trick.fievre_puerperale",
            )
        picks.append((victim, cell))
    if not picks:
        raise BadRequest("targets", 'name one or two women: [{"player", "cell"}]')
    use_cards(game, player, (card,), "births")
    for victim, cell in picks:
        if game.tribes[victim].at(cell)[1]:
            game.change_pawns(victim, cell, 0, -1, "fievre_puerperale", "trick.fievre_puerperale")
    game.check_camps()


def terrace(game, ask, entry, player, card) -> None:
    use_cards(game, player, (card,), "sowing")
    game.agenda[0]["terrace"] = True


def late_sowing(game, ask, entry, player, card) -> None:
    from .camps import sowing_problem
    from .game_turn import sow_field

    cell = _cell(game, entry)
    tribe = game.tribes[player]
    problem = sowing_problem(
        game.valley, cell, tribe.camps.get(cell), cell in game.fields, len(game.fields), tribe.food
    )
    if problem:
        _fail(f"{player} cannot sow on {cell_name(cell)}", f"{player} ne peut pas semer en {cell_name(cell)}", problem)
    use_cards(game, player, (card,), "survival")
    sow_field(game, player, cell, "trick.semailles_tardives")


def scorched(game, ask, entry, player, card) -> None:
    """Terre brûlée: the camp just taken is destroyed, its women killed, its field too."""
    s = game.agenda[0]
    cell = parse_cell(s["cell"], "cell")
    use_cards(game, player, (card,), "combat")
    from .game_combat import burn

    burn(game, s, s["player"], cell, fields=True)
    game._finish_step(s)


def palisade(game, ask, entry, player, card) -> None:
    cell = _cell(game, entry)
    f = game.fields.get(cell)
    if f is None or f["owner"] != player or f["palisade"]:
        _fail("a palisade protects one of your fields", "une palissade protège un de vos champs", "trick.palissade")
    use_cards(game, player, (card,), "animals")
    f["palisade"] = True


def wild_child(game, ask, entry, player, card) -> None:
    cell = _cell(game, entry)
    pawn = entry.get("pawn")
    tribe = game.tribes[player]
    if tribe.camps.get(cell) != "village" or game.valley.terrain[cell] != FOREST or pawn not in ("warrior", "woman"):
        _fail(
            "Enfant sauvage: a warrior or a woman joins your forest village",
            "Enfant sauvage : un guerrier ou une femme rejoint votre village en forêt",
            "trick.enfant_sauvage",
        )
    use_cards(game, player, (card,), "after_animals")
    if game.free_pieces(player)[pawn == "woman"]:
        game.change_pawns(
            player, cell, int(pawn == "warrior"), int(pawn == "woman"), "enfant_sauvage", "trick.enfant_sauvage"
        )


def cub(game, ask, entry, player, card) -> None:
    """Louveteau (gap V53): a lone wolf on one of your cells is tamed."""
    cell = _cell(game, entry)
    wolf = next((a for a in game.animals_at(cell) if a.species == "wolf" and a.count == 1), None)
    tribe = game.tribes[player]
    if wolf is None or cell not in tribe.pawns or tribe.wolf is not None:
        _fail(
            "Louveteau tames a lone wolf on one of your cells",
            "Louveteau apprivoise un loup seul sur une de vos cases",
            "trick.louveteau",
        )
    use_cards(game, player, (card,), "after_animals")
    tribe.wolf = cell
    tribe.wolf_letter = wolf.letters[0]
    del game.animals[wolf.id]
    game.emit("wolf_tamed", "trick.louveteau", player=player, cell=cell_name(cell))


def wolf_goes_wild(game, player: str) -> None:
    from .game_turn import add_animals

    tribe = game.tribes[player]
    cell, tribe.wolf = tribe.wolf, None
    add_animals(game, "wolf", cell, [tribe.wolf_letter], "wild_again", "trick.louveteau")


def family(game, ask, entry, player, card) -> None:
    """Visite de famille: a couple arrives on the cell of a token drawn from the bag."""
    from .game_turn import read_tokens

    if not game.bag:
        _fail("the bag is empty", "le sac est vide", "trick.visite_de_famille")
    use_cards(game, player, (card,), "after_animals")
    token = read_tokens(game, entry, 1)[0]
    cell = game.valley.cell_of_letter[token[1]]
    game.bag.append(token)
    w, f = game.free_pieces(player)
    game.change_pawns(player, cell, min(w, 1), min(f, 1), "visite_de_famille", "trick.visite_de_famille")
    if game.neutrals:
        from .game_events import solitaire_meets

        solitaire_meets(game, cell, player)


def drum(game, ask, entry, player, card) -> None:
    """Tambour de guerre after the animals: drive the animals of your cell one cell away."""
    cell = _cell(game, entry)
    if cell not in game.tribes[player].pawns:
        _fail(
            "the drum drives the animals of one of your cells",
            "le tambour chasse les animaux d'une de vos cases",
            "trick.tambour_de_guerre",
        )
    from .core import DIRECTION_NAMES, direction_step

    if entry.get("direction") not in DIRECTION_NAMES[game.valley.orientation]:
        raise BadRequest("direction", f"must be one of {', '.join(DIRECTION_NAMES[game.valley.orientation])}")
    step = direction_step(game.valley.orientation, entry["direction"])
    drum_push(game, player, cell, step, check_only=True)
    use_cards(game, player, (card,), "after_animals")
    drum_push(game, player, cell, step)


def drum_push(game, player, cell, step, check_only: bool = False) -> None:
    """Push every animal unit on ``cell`` one cell along ``step`` (gap V67: only where it
    could step; a grazer pushed onto a field tramples it)."""
    from .animals import _Terrain
    from .game_turn import add_animals, conditions

    terrain = _Terrain(game.valley, conditions(game), game.variants)
    to = (cell[0] + step[0], cell[1] + step[1])
    here = game.animals_at(cell)
    if not here:
        _fail("no animal to drive there", "aucun animal à chasser là", "trick.tambour_de_guerre")
    for unit in here:
        if terrain.obstacle(cell, to, unit.species) or to in game.valley.lake:
            _fail(
                f"the {unit.species} cannot be driven that way",
                "ces animaux ne peuvent pas fuir par là",
                "trick.tambour_de_guerre",
            )
    if check_only:
        return
    for unit in here:
        del game.animals[unit.id]
        add_animals(game, unit.species, to, unit.letters, "tambour", "trick.tambour_de_guerre")
        from .core import SPECIES

        f = game.fields.get(to)
        if SPECIES[unit.species].tramples and f and not f["palisade"]:
            before = f["state"]
            if before == "intact":
                f["state"] = "damaged"
            else:
                del game.fields[to]
            game.emit(
                "field",
                "animals.trample",
                cell=cell_name(to),
                before=before,
                after=game.fields[to]["state"] if to in game.fields else "destroyed",
            )


def love(game, ask, entry, player, card) -> None:
    """Coup de foudre: an enemy pawn next to one of yours of the other sex (not across a
    river) joins your pawn's cell."""
    cell, target = _cell(game, entry), _cell(game, entry, "target")
    victim, pawn = entry.get("from"), entry.get("pawn")
    mine = game.tribes[player].at(cell)
    other_sex = {"warrior": 1, "woman": 0}.get(pawn)
    if (
        victim not in game.tribes
        or victim == player
        or other_sex is None
        or not mine[other_sex]
        or not _neighbour(game, cell, target)
        or not game.tribes[victim].at(target)[1 - other_sex]
        or not game.free_pieces(player)[1 - other_sex]
    ):
        _fail(
            "Coup de foudre: an enemy pawn next to one of yours of the other sex",
            "Coup de foudre : un pion ennemi voisin d'un des vôtres de l'autre sexe",
            "trick.coup_de_foudre",
        )
    use_cards(game, player, (card,), "movement")
    w, f = int(pawn == "warrior"), int(pawn == "woman")
    game.change_pawns(victim, target, -w, -f, "coup_de_foudre", "trick.coup_de_foudre")
    game.change_pawns(player, cell, w, f, "coup_de_foudre", "trick.coup_de_foudre")
    mark = game.agenda[0]
    if mark.get("step") == "movement":
        from .game_moves import mark_moved

        mark_moved(mark, cell, w, f)
    game.check_camps()


def theft(game, ask, entry, player, card) -> None:
    """Vol: steal up to 4 food (or, with the fire rules, the fire) of a tribe with a camp
    next to one of your groups (not across a river)."""
    cell, victim = _cell(game, entry), entry.get("from")
    what = entry.get("steal", "food")
    camps = game.tribes[victim].camps if victim in game.tribes else {}
    if (
        victim == player
        or cell not in game.tribes[player].pawns
        or not any(_neighbour(game, cell, c) for c in camps)
        or what not in ("food", "fire")
        or (what == "fire" and not (game.fire_rules and game.tribes[victim].fire))
    ):
        _fail(
            "Vol robs a tribe with a camp next to your group",
            "Vol dépouille une tribu dont un camp est voisin de votre groupe",
            "trick.vol",
        )
    use_cards(game, player, (card,), "movement")
    if what == "fire":
        game.set_fire(victim, False, "vol", "trick.vol")
        if game.may_take_fire(player):
            game.set_fire(player, True, "vol", "trick.vol")
        return
    taken = -game.change_food(victim, -4, "vol", "trick.vol")
    game.change_food(player, taken, "vol", "trick.vol")


def rockfall(game, ask, entry, player, card) -> None:
    """Chute de pierre / Incendiaire (gap V68): a pawn that did not move and will not
    fight buries (or burns, a forest in summer) every piece on a neighbouring cell."""
    from .game_events import kill_all
    from .game_moves import moved_here

    s = game.agenda[0]
    cell, target = _cell(game, entry), _cell(game, entry, "target")
    w, f = game.tribes[player].at(cell)
    still = w + f > sum(moved_here(s, cell))
    from .game_moves import board

    quiet = not board(game).opponents(cell, player)
    terrain = game.valley.terrain
    place_ok = (terrain[cell] in (MOUNTAIN, VOLCANO)) if card == "chute_de_pierre" else terrain[target] == FOREST
    if not (still and quiet and place_ok and _neighbour(game, cell, target)):
        _fail(
            f"{TRICKS[card].title}: a pawn that neither moved nor fights, next to the target (not across a river)",
            f"{TRICKS[card].title} : un pion qui n'a ni bougé ni combattu, voisin de la cible "
            "(pas au-delà d'une rivière)",
            f"trick.{card}",
        )
    use_cards(game, player, (card,), "movement")
    if card == "incendiaire":
        game.markers.burning.add(target)
    kill_all(game, [target], card, f"trick.{card}")


EFFECTS = {
    "espionnage": recorded,
    "intuition": intuition,
    "silax": turn_card,
    "torches": turn_card,
    "cannibales": turn_card,
    "pierre_taillee": fight_card,
    "propulseur": fight_card,
    "fortes_tetes": fight_card,
    "pieges": traps,
    "grimper_aux_arbres": hide,
    "nage": survive_flood,
    "troncs_d_arbre": survive_flood,
    "fuite": flee,
    "ami": friend,
    "appeau": lure,
    "filet": survival_card,
    "racines": survival_card,
    "engrais_naturel": survival_card,
    "herbes_de_fertilite": births_card,
    "bonnes_herbes": births_card,
    "comme_une_bete": births_card,
    "fievre_puerperale": puerperal,
    "terrasse": terrace,
    "semailles_tardives": late_sowing,
    "terre_brulee": scorched,
    "palissade": palisade,
    "enfant_sauvage": wild_child,
    "louveteau": cub,
    "visite_de_famille": family,
    "tambour_de_guerre": drum,
    "coup_de_foudre": love,
    "vol": theft,
    "chute_de_pierre": rockfall,
    "incendiaire": rockfall,
}

"""Request forms of the turn's bookkeeping: ``calendar``, ``arrivals``, ``births``, ``standing``."""

from __future__ import annotations

from ..core import BadRequest
from .shared import read_cell, read_conditions, read_units


def calendar(request) -> dict:
    """``maamut vallee calendar``: the phases, season and arrivals of one game turn."""
    from .. import requests as rq
    from ..calendar import MAX_TURN, PHASE_EN, PHASE_FR, PHASES, turn_info

    request = rq.obj(request, "request")
    rq.only_fields(request, ("turn", "players", "held", "variants"), "", ("turn",))
    turn = rq.count(request, "turn", 1, MAX_TURN)
    players = rq.count(request, "players", 2, 6, default=4)
    held = rq.held_turns(request)
    info = turn_info(turn, players, held, rq.variants(request))
    phases = []
    for number, phase in enumerate(PHASES, 1):
        rule = {"births": "calendar.season_end", "sowing": "calendar.season_end",
                "tricks": "calendar.season_end"}.get(phase, f"phase.{phase}")
        phases.append({"number": number, "phase": phase, "runs": info.runs(phase), "rule": rule,
                       "name_en": PHASE_EN[phase], "name_fr": PHASE_FR[phase]})
    return {"turn": info.turn, "year": info.year, "season": info.season, "season_turn": info.season_turn,
            "extra_turn": info.extra_turn, "held": info.held, "ends_season": info.ends_season,
            "deck": info.deck, "arrivals": info.arrivals, "players": info.players, "harvest": info.harvest,
            "return_window": info.return_window, "phases": phases}


def _token(value, field: str):
    from .. import requests as rq
    from ..arrivals import Token
    from ..core import IllegalRequest, SPECIES
    from ..tokens import DEFAULT_TOKENS

    rq.only_fields(rq.obj(value, field), ("species", "letter"), field, ("species", "letter"))
    species = rq.species(value["species"], f"{field}.species")
    letter = value["letter"]
    if letter not in DEFAULT_TOKENS[species]:
        raise IllegalRequest(f"no {species} token carries the letter {str(letter)[:3]!r}",
                             f"aucun pion {SPECIES[species].fr} ne porte la lettre {str(letter)[:3]!r}", "pieces.animals")
    return Token(species, letter)


def arrivals(request) -> dict:
    """``maamut vallee arrivals``: the animals drawn this turn placed on their letters' cells."""
    from .. import requests as rq
    from ..arrivals import draw, full_bag, place_arrivals
    from ..calendar import MAX_TURN, turn_info
    from ..core import SUMMER, WINTER, IllegalRequest, cell_name

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "turn", "players", "held", "units", "humans", "markers", "events", "drawn",
                             "seed", "bag", "variants"), "", ("map", "turn"))
    valley = rq.valley(request)
    variants = rq.variants(request)
    held = rq.held_turns(request)
    info = turn_info(rq.count(request, "turn", 1, MAX_TURN), rq.count(request, "players", 2, 6, 4), held, variants)
    conditions = read_conditions(request, valley, info.season)
    units = read_units(request.get("units", []), valley, conditions)
    events = rq.obj(request.get("events", {}), "events")
    rq.only_fields(events, ("viande_rare", "epizootie"), "events")
    rare = rq.flag(events, "viande_rare", parent="events")
    sick = events.get("epizootie")
    if sick is not None:
        rq.species(sick, "events.epizootie")
    if rare and info.season != WINTER:
        raise IllegalRequest("Viande rare is a winter card", "Viande rare est une carte d'hiver", "event.viande_rare")
    if sick and info.season != SUMMER:
        raise IllegalRequest("Épizootie is a summer card", "Épizootie est une carte d'été", "event.epizootie")
    expected = 0 if rare else info.arrivals
    if ("drawn" in request) == ("seed" in request):
        raise BadRequest("drawn", "give either the tokens drawn (drawn) or a seed for a virtual draw (seed)")
    if "drawn" in request:
        drawn = [_token(t, f"drawn.{i}") for i, t in enumerate(rq.items(request["drawn"], "drawn", 6))]
        bag = []
        if len(drawn) > expected:
            raise IllegalRequest(f"{len(drawn)} animals drawn, {expected} arrive this turn",
                                 f"{len(drawn)} animaux tirés, {expected} arrivent ce tour", "phase.arrivals")
        seed = None
    else:
        seed = rq.count(request, "seed", 0, 2**53)
        bag = ([_token(t, f"bag.{i}") for i, t in enumerate(rq.items(request["bag"], "bag", 54))]
               if "bag" in request else full_bag())
        drawn = draw(bag, expected, seed)
    if len(set(drawn)) != len(drawn) or ("bag" in request and len(set(bag)) != len(bag)):
        raise IllegalRequest("a token can be drawn only once", "un pion ne peut être tiré qu'une fois", "pieces.animals")
    result = place_arrivals(valley, drawn, units, conditions, variants, sick)
    return {
        "turn": info.turn, "season": info.season, "expected": expected, "seed": seed,
        "drawn": [{"species": t.species, "letter": t.letter} for t in drawn],
        "placements": [{"species": p.token.species, "letter": p.token.letter, "cell": cell_name(p.cell),
                        "outcome": p.outcome, "unit": p.unit} for p in result.placements],
        "units": [{"id": u.id, "species": u.species, "cell": cell_name(u.cell), "count": u.count} for u in result.units],
        "back_to_bag": [{"species": t.species, "letter": t.letter} for t in result.back_to_bag],
    }


def births(request) -> dict:
    """``maamut vallee births``: one tribe's births at the end of a season, from given dice."""
    from .. import requests as rq
    from ..births import MAX_WARRIORS, MAX_WOMEN, Camp, resolve_births
    from ..calendar import MAX_TURN, turn_info
    from ..core import MOUNTAIN, VOLCANO, IllegalRequest, cell_name

    request = rq.obj(request, "request")
    rq.only_fields(request, ("map", "turn", "held", "tribe", "rolls", "variants"), "", ("map", "turn", "tribe"))
    valley = rq.valley(request)
    variants = rq.variants(request)
    held = rq.held_turns(request)
    info = turn_info(rq.count(request, "turn", 1, MAX_TURN), held=held, variants=variants)
    tribe = rq.obj(request["tribe"], "tribe")
    rq.only_fields(tribe, ("name", "warriors", "women", "camps", "cards", "chosen"), "tribe",
                   ("warriors", "women", "camps"))
    warriors = rq.count(tribe, "warriors", 0, MAX_WARRIORS, parent="tribe")
    women = rq.count(tribe, "women", 0, MAX_WOMEN, parent="tribe")
    camps = []
    for i, c in enumerate(rq.items(tribe["camps"], "tribe.camps", 5)):
        where = f"tribe.camps.{i}"
        rq.only_fields(rq.obj(c, where), ("cell", "women"), where, ("cell", "women"))
        cell = read_cell(valley, c["cell"], f"{where}.cell")
        if cell in valley.lake or any(x.cell == cell for x in camps):
            raise BadRequest(f"{where}.cell", "a camp stands on land, one per cell")
        kind = "cave" if valley.terrain[cell] in (MOUNTAIN, VOLCANO) else "village"
        camps.append(Camp(cell, kind, rq.count(c, "women", 0, MAX_WOMEN, parent=where)))
    if sum(c.women for c in camps) > women:
        raise BadRequest("tribe.women", "is fewer than the women in its camps")
    cards = [rq.choice({j: c}, j, ("herbes_de_fertilite", "bonnes_herbes"), None, "tribe.cards")
             for j, c in enumerate(rq.items(tribe.get("cards", []), "tribe.cards", 2))]
    chosen = {}
    for key, sex in rq.obj(tribe.get("chosen", {}), "tribe.chosen").items():
        cell = read_cell(valley, key, f"tribe.chosen.{key}")
        chosen[cell] = rq.choice({key: sex}, key, ("woman", "warrior"), None, "tribe.chosen")
    if chosen and ("bonnes_herbes" not in cards or len(chosen) > 1 or not set(chosen) <= {c.cell for c in camps}):
        raise IllegalRequest("choosing the newborns' sex needs Bonnes herbes, for one of your camps",
                             "choisir le sexe des naissances demande Bonnes herbes, pour un de vos camps",
                             "births.cards")
    if not info.runs("births"):
        raise IllegalRequest(f"no births on turn {info.turn}: they come at the end of a season",
                             f"pas de naissances au tour {info.turn} : elles viennent en fin de saison", "phase.births")
    result = resolve_births(camps, rq.items(request.get("rolls", []), "rolls", 30), warriors, women,
                            "herbes_de_fertilite" in cards, chosen, variants)
    return {"turn": info.turn, "season": info.season,
            "births": [{"camp": cell_name(b.camp), "dice": list(b.dice), "sex": b.sex,
                        "rule": "births.caps" if b.sex == "cancelled" else "births.cards" if not b.dice else "births.count"}
                       for b in result.births],
            "warriors": result.warriors, "women": result.women,
            "awaiting": None if result.awaiting is None else {"kind": "roll", "camp": cell_name(result.awaiting["camp"])}}


def standing(request) -> dict:
    """``maamut vallee standing``: this turn's first player and order, and the victory check."""
    from rulekit.players import SeatError, read_ids

    from .. import requests as rq
    from ..calendar import MAX_TURN
    from ..core import IllegalRequest
    from ..standing import Standing, first_player, victory

    request = rq.obj(request, "request")
    rq.only_fields(request, ("turn", "seats", "setup_first", "tribes", "drawn", "announced_last_turn", "fire_rules",
                             "return_possible", "variants"), "", ("turn", "seats", "tribes"))
    turn = rq.count(request, "turn", 1, MAX_TURN)
    try:
        seats = read_ids(request["seats"], 2, 6)
    except SeatError as exc:
        raise BadRequest("seats" if exc.seat is None else f"seats.{exc.seat}", exc.reason) from None
    tribes = rq.obj(request["tribes"], "tribes")
    standings = {}
    for name in seats:
        where = f"tribes.{name}"
        t = rq.obj(tribes.get(name, {}), where)
        rq.only_fields(t, ("camps", "pawns", "food", "fire"), where)
        standings[name] = Standing(rq.count(t, "camps", 0, 5, 0, where), rq.count(t, "pawns", 0, 16, 0, where),
                                   rq.count(t, "food", 0, 10_000, 0, where), rq.flag(t, "fire", parent=where))
    for name in tribes:
        if name not in seats:
            raise BadRequest(f"tribes.{name}", "is not one of the seats")
    setup_first = request.get("setup_first")
    if setup_first is not None and setup_first not in seats:
        raise BadRequest("setup_first", "must be one of the seats")
    announced = rq.items(request.get("announced_last_turn", []), "announced_last_turn", 6)
    for i, name in enumerate(announced):
        if name not in seats:
            raise BadRequest(f"announced_last_turn.{i}", "must be one of the seats")
    drawn = request.get("drawn")
    first = first_player(seats, standings, turn, setup_first, drawn)
    if drawn is not None and drawn not in first.tied:
        raise IllegalRequest(f"no draw is needed for {drawn!r}: only tied players draw",
                             f"pas de tirage pour {drawn!r} : seuls les ex aequo tirent au sort", "standing.first_player")
    verdict = victory(first.order or seats, standings, announced, rq.flag(request, "fire_rules"),
                      rq.flag(request, "return_possible"), rq.variants(request))
    reason_rule = {"four_camps": "standing.victory", "last_tribe": "standing.last_tribe", "extinct": "standing.extinct",
                   None: "standing.victory"}
    return {"turn": turn,
            "first_player": {"order": list(first.order), "decided_by": first.decided_by, "tied": list(first.tied),
                             "awaiting": None if first.order else {"kind": "draw", "among": list(first.tied)},
                             "rule": "standing.first_player"},
            "victory": {"announced": list(verdict.announced), "winners": list(verdict.winners),
                        "reason": verdict.reason, "rule": reason_rule[verdict.reason]}}

"""The request/response forms of ``maamut mammut score`` and ``maamut mammut share``
(documented in docs/mammut-api.md).

Exit codes as ``maamut resolve``: 0 scored, 1 the rules forbid it, 2 malformed input.

>>> code, out = score_request({"players": ["A", "B", "C"], "round": 1, "shaman": {"holder": "A", "arrow": "red"},
...                            "tiles": {"A": {"tusk": 2}, "B": {"meat": 1}, "C": {}}})
>>> code, out["points"]
(0, {'A': 5, 'B': 8, 'C': 0})
>>> score_request({"players": ["A", "B", "C"], "round": 1, "shaman": {"holder": "A", "arrow": "red"},
...                "tiles": {"A": {"question": 1}}})[0]
1
>>> score_request({"players": ["A", "B"], "round": 1})[1]["error"]["field"]
'shaman'
"""

from __future__ import annotations

from rulekit.players import SeatError, read_ids

from .core import (
    ARROWS,
    DEFAULT_CONFIG,
    EVALUATION_CARDS,
    GOODS,
    LAST_ROUND,
    QUESTION,
    SHAMAN,
    UNSORTED,
    BadRequest,
    Config,
    IllegalAction,
    MammutError,
)
from .scoring import EvalCard, RoundInput, score_round
from .sharing import action_from_json, apply, options, state_from_json, state_to_json
from .variants import Variants

EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED = 0, 1, 2

FIELDS = ("players", "round", "shaman", "points", "skins_track", "species", "tiles", "cards",
          "draw_pile", "discard_pile", "variants", "config")


def _error(exc: MammutError) -> dict:
    return {"ok": False, "error": exc.to_json()}


def _obj(value, field):
    if not isinstance(value, dict):
        raise BadRequest(field, f"must be an object, got {type(value).__name__}")
    return value


def _count(value, field):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadRequest(field, f"must be an integer ≥ 0, got {value!r}")
    return value


def _per_player(obj, field, players, parse):
    if obj is None:
        return {}
    obj = _obj(obj, field)
    out = {}
    for name, value in obj.items():
        if name not in players:
            raise BadRequest(f"{field}.{name}", "is not one of the players")
        out[name] = parse(value, f"{field}.{name}")
    return out


def _config(obj) -> Config:
    if obj is None:
        return DEFAULT_CONFIG
    obj = _obj(obj, "config")
    kwargs = {}
    for key, value in obj.items():
        if key == "species":
            if (not isinstance(value, list) or len(value) != 7 or len(set(value)) != 7
                    or not all(isinstance(s, str) and s and s not in GOODS + (QUESTION, SHAMAN, UNSORTED) for s in value)):
                raise BadRequest("config.species", "must list 7 different species names")
            kwargs["species"] = tuple(value)
        elif key == "tiles":
            if not isinstance(value, list) or not all(
                    isinstance(t, list) and len(t) == 2 and all(isinstance(side, str) for side in t) for t in value):
                raise BadRequest("config.tiles", "must be a list of [side, other side] pairs of names")
            kwargs["tiles"] = tuple(tuple(t) for t in value)
        elif key == "supply_per_species":
            kwargs[key] = _count(value, "config.supply_per_species")
        elif key == "skins_points":
            if not isinstance(value, list) or len(value) != 5:
                raise BadRequest("config.skins_points", "must list the points of rounds 1 to 5")
            kwargs[key] = tuple(_count(v, f"config.skins_points.{i}") for i, v in enumerate(value))
        else:
            raise BadRequest(f"config.{key}", "is not a configuration field")
    try:
        return Config(**kwargs)
    except ValueError as exc:
        raise BadRequest("config.tiles", str(exc).split(": ", 1)[-1]) from None


def parse_request(obj) -> RoundInput:
    if not isinstance(obj, dict):
        raise BadRequest("request", "must be a JSON object")
    for key in obj:
        if key not in FIELDS:
            raise BadRequest(key, "is not a field of a score request")
    for key in ("players", "round", "shaman", "tiles"):
        if key not in obj:
            raise BadRequest(key, "is missing")
    config = _config(obj.get("config"))
    try:
        players = read_ids(obj["players"], least=2, most=5)
    except SeatError as exc:
        raise BadRequest("players" if exc.seat is None else f"players.{exc.seat}", exc.reason) from None
    rnd = obj["round"]
    if isinstance(rnd, bool) or not isinstance(rnd, int) or not 1 <= rnd <= LAST_ROUND:
        raise BadRequest("round", f"must be an integer from 1 to {LAST_ROUND}, got {rnd!r}")
    shaman = _obj(obj["shaman"], "shaman")
    for key in shaman:
        if key not in ("holder", "arrow"):
            raise BadRequest(f"shaman.{key}", "is not a field of shaman")
    if shaman.get("holder") not in players:
        raise BadRequest("shaman.holder", "must name the player who holds the shaman tile")
    if shaman.get("arrow") not in ARROWS:
        raise BadRequest("shaman.arrow", "must be 'red' (clockwise) or 'blue' (counter-clockwise)")
    species_names = set(config.species)

    def species_list(value, field):
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise BadRequest(field, "must be a list of species names")
        for s in value:
            if s not in species_names:
                raise BadRequest(field, f"unknown species {s!r} (known: {', '.join(config.species)})")
        if len(set(value)) != len(value):
            raise BadRequest(field, "a player owns at most one token of each species")
        return tuple(value)

    kinds = set(config.kinds())

    def tile_counts(value, field):
        value = _obj(value, field)
        out = {}
        for kind, n in value.items():
            if kind in (QUESTION, UNSORTED):
                raise IllegalAction(f"{field}: every question tile is turned over before scoring; give its revealed side",
                                    "eval.reveal", code="illegal_request",
                                    fr=f"{field} : chaque tuile point d'interrogation est retournée avant le décompte ; "
                                       "indiquez sa face révélée")
            if kind == SHAMAN:
                raise BadRequest(f"{field}.shaman", "the shaman tile is given by shaman.holder, not as a tile")
            if kind not in kinds:
                raise BadRequest(f"{field}.{kind}", f"unknown tile kind (known: {', '.join(config.kinds())})")
            out[kind] = _count(n, f"{field}.{kind}")
        return out

    tiles = _per_player(obj["tiles"], "tiles", players, tile_counts)
    points = _per_player(obj.get("points"), "points", players, _count)
    track = _per_player(obj.get("skins_track"), "skins_track", players, _count)
    species = _per_player(obj.get("species"), "species", players, species_list)
    cards = []
    raw_cards = obj.get("cards") or []
    if not isinstance(raw_cards, list):
        raise BadRequest("cards", "must be a list of evaluation cards")
    for i, c in enumerate(raw_cards):
        c = _obj(c, f"cards.{i}")
        for key in c:
            if key not in ("card", "player", "give", "take"):
                raise BadRequest(f"cards.{i}.{key}", "is not a field of a card")
        if not isinstance(c.get("card"), str) or c["card"] not in EVALUATION_CARDS:
            raise BadRequest(f"cards.{i}.card", f"must be an evaluation card: {', '.join(EVALUATION_CARDS)}")
        if c.get("player") not in players:
            raise BadRequest(f"cards.{i}.player", "must name the player who played the card")
        for key in ("give", "take"):
            if c.get(key) is not None and (not isinstance(c[key], str) or c[key] not in species_names):
                raise BadRequest(f"cards.{i}.{key}", f"unknown species {c[key]!r}")
        if c.get("give") is not None and c["card"] != "animal_exchange":
            raise BadRequest(f"cards.{i}.give", "only the animal_exchange card gives an animal tile up")
        if c.get("take") is not None and c["card"] not in ("animal_exchange", "skins_most_animal"):
            raise BadRequest(f"cards.{i}.take", "only animal_exchange and skins_most_animal take a species")
        cards.append(EvalCard(c["card"], c["player"], c.get("give"), c.get("take")))
    piles = {}
    for key in ("draw_pile", "discard_pile"):
        value = obj.get(key)
        piles[key] = None if value is None else _count(value, key)
    if piles["discard_pile"] is not None and piles["draw_pile"] is None:
        raise BadRequest("draw_pile", "is needed when discard_pile is given")
    try:
        variants = Variants.from_json(obj.get("variants"))
    except (ValueError, TypeError) as exc:
        raise BadRequest("variants", str(exc)) from None
    return RoundInput(players=players, round=rnd, holder=shaman["holder"], arrow=shaman["arrow"], points=points,
                      track=track, species=species, tiles=tiles, cards=tuple(cards), draw_pile=piles["draw_pile"],
                      discard_pile=piles["discard_pile"], variants=variants, config=config)


def score_request(obj) -> tuple[int, dict]:
    """Score one round; returns ``(exit code, response)``."""
    try:
        inp = parse_request(obj)
        result = score_round(inp)
    except BadRequest as exc:
        return EXIT_MALFORMED, _error(exc)
    except IllegalAction as exc:
        return EXIT_ILLEGAL, _error(exc)
    return EXIT_OK, {
        "ok": True,
        "round": inp.round,
        "tie_order": list(result.order),
        "points": result.points,
        "skins_track": result.track,
        "species": result.species,
        "draws": result.draws,
        "draw_pile": result.draw_pile,
        "discard_pile": result.discard_pile,
        "lines": result.lines,
        "next_round": inp.round + 1 if inp.round < LAST_ROUND else None,
        "final": result.final,
    }


SHARE_FIELDS = ("state", "action", "variants")


def share_request(obj) -> tuple[int, dict]:
    """Referee one action of the sharing phase; returns ``(exit code, response)``.

    >>> state = {"players": ["A", "B", "C"], "start": "A", "pool": {"meat": 3, "fire": 2, "shaman": 1}}
    >>> code, out = share_request({"state": state, "action": {"type": "take", "player": "A", "tiles": {"meat": 2}}})
    >>> code, out["state"]["to_move"], out["state"]["lots"]["A"], [e["rule"] for e in out["events"]]
    (0, 'B', [{'meat': 2}], ['share.take', 'share.turn_order'])
    >>> code, out = share_request({"state": state, "action": {"type": "take", "player": "B", "tiles": {"meat": 1}}})
    >>> code, out["error"]["rule"]
    (1, 'share.not_your_turn')
    """
    try:
        if not isinstance(obj, dict):
            raise BadRequest("request", "must be a JSON object")
        for key in obj:
            if key not in SHARE_FIELDS:
                raise BadRequest(key, "is not a field of a share request")
        for key in ("state", "action"):
            if key not in obj:
                raise BadRequest(key, "is missing")
        try:
            variants = Variants.from_json(obj.get("variants"))
        except (ValueError, TypeError) as exc:
            raise BadRequest("variants", str(exc)) from None
        state = state_from_json(obj["state"], variants)
        action = action_from_json(obj["action"])
        try:
            outcome = apply(state, action)
        except BadRequest as exc:  # the referee names the action's own fields without their prefix
            raise BadRequest(exc.field if exc.field.startswith("action") else f"action.{exc.field}",
                             exc.message.split(": ", 1)[-1]) from None
    except BadRequest as exc:
        return EXIT_MALFORMED, _error(exc)
    except IllegalAction as exc:
        return EXIT_ILLEGAL, _error(exc)
    return EXIT_OK, {"ok": True, "events": outcome.events, "state": state_to_json(outcome.state),
                     "options": options(outcome.state)}

"""A game's setup (rules «Mise en place»): the request that starts it, and its first steps.

The setup names the players clockwise from the first seat, the map (a shipped map's
name or a whole map file), the seed of the virtual components, which components are
physical, the fire rules, the starting food (12, or 15 for beginners) and the
variants. Then the steps: a lot for the first player (unless ``first`` names him), each
player in turn sets up a camp with five warriors and two women (a field at once on a
plain, for 1 food), and the trick cards are dealt: five each, four with five or six
players.

>>> s = read_setup({"players": ["red", "blue"], "map": "sample", "random": "physical"})
>>> s["random"], s["food"], s["fire_rules"]
({'dice': 'physical', 'events': 'physical', 'tricks': 'physical', 'bag': 'physical'}, 12, False)
>>> read_setup({"players": ["red"], "map": "sample"})
Traceback (most recent call last):
...
vallee.core.BadRequest: players: La Vallée is played by 2 to 6 players with different names (gap V3)
"""

from __future__ import annotations


from . import requests as rq
from .arrivals import full_bag
from .events import deck
from .tokens import UNLETTERED_WOLVES
from .tricks import TRICKS, hand_limit

#: Names the fights use for the other sides.
RESERVED_NAMES = ("animals", "neutral")
SETUP_FIELDS = ("players", "map", "seed", "random", "fire_rules", "food", "variants", "first")
START_WARRIORS, START_WOMEN = 5, 2


def read_setup(setup) -> dict:
    """The setup checked; ``json`` keeps the request as given (the journal's header)."""
    from .game import COMPONENTS, MODES

    rq.obj(setup, "setup")
    rq.only_fields(setup, SETUP_FIELDS, "", ("players", "map"))
    from rulekit.players import PLAYER_ID_RULE, is_player_id

    players = rq.items(setup["players"], "players", 6)
    if not 2 <= len(players) <= 6 or len(set(map(str, players))) != len(players):
        raise rq.BadRequest("players", "La Vallée is played by 2 to 6 players with different names (gap V3)")
    for i, name in enumerate(players):
        if not is_player_id(name) or name in RESERVED_NAMES:
            raise rq.BadRequest(
                f"players.{i}", f"{str(name)[:30]!r} {PLAYER_ID_RULE} (and is not {' or '.join(RESERVED_NAMES)})"
            )
    modes = setup.get("random", "virtual")
    if isinstance(modes, str):
        modes = {c: modes for c in COMPONENTS}
    rq.obj(modes, "random")
    rq.only_fields(modes, COMPONENTS, "random")
    modes = {c: rq.choice(modes, c, MODES, "virtual", "random") for c in COMPONENTS}
    first = setup.get("first")
    if first is not None and first not in players:
        raise rq.BadRequest("first", "must be one of the players")
    import json

    return {
        "json": json.loads(json.dumps(setup)),
        "players": list(players),
        "valley": rq.valley(setup),
        "variants": rq.variants(setup),
        "seed": rq.count(setup, "seed", 0, 2**62, default=0),
        "random": modes,
        "fire_rules": rq.flag(setup, "fire_rules", False),
        "food": rq.count(setup, "food", 0, 99, default=12),
        "first": first,
    }


def shuffled(game, component: str, cards: list) -> list:
    """A virtual pile shuffled by the component's generator (counted as one draw)."""
    cards = sorted(cards)
    game.rng(component).shuffle(cards)
    game.drew(component)
    return cards


def start(game) -> None:
    """The bag, the decks, the first steps (rules «Mise en place»)."""
    from .game import HIDDEN

    game.bag = [(t.species, t.letter) for t in full_bag()]
    game.wolves_reserve = UNLETTERED_WOLVES
    for season in ("summer", "winter"):
        cards = deck(season)
        game.decks[season] = shuffled(game, "events", cards) if game.virtual("events") else sorted(cards)
        game.discards[season] = []
    game.trick_pile = shuffled(game, "tricks", list(TRICKS)) if game.virtual("tricks") else [HIDDEN] * len(TRICKS)
    if game.setup["first"]:
        game.agenda.append({"step": "setup_order", "first": game.setup["first"]})
    else:
        game.agenda.append({"step": "first_player_lot"})
    game.agenda.append({"step": "deal"})


def setup_order(game, first: str) -> None:
    from .standing import clockwise_from

    game.first_setup = first
    game.then(*({"step": "place_camp", "player": p} for p in clockwise_from(game.seats, first)))


def deal(game) -> None:
    """Five trick cards each, four with five or six players (rules «Mise en place»)."""
    size = hand_limit(len(game.seats))
    for player in game.seats:
        game.tribes[player].hand = [draw_trick(game) for _ in range(size)]
    game.emit("dealt", "setup.deal", cards=size)


def draw_trick(game) -> str:
    """The top card of the trick pile, the discards shuffled in when it is empty (rules §9)."""
    from .game import HIDDEN

    if not game.trick_pile:
        if not game.trick_discards:
            return None
        pile = game.trick_discards
        game.trick_discards = []
        game.trick_pile = shuffled(game, "tricks", pile) if game.virtual("tricks") else [HIDDEN] * len(pile)
        game.emit("reshuffled", "phase.tricks", deck="tricks")
    return game.trick_pile.pop()


def lot(game, among, entry) -> str:
    """A random pick among players (first player, tie-breaks): given or drawn (dice)."""
    among = list(among)
    drawn = game.rng("dice").choice(among) if game.virtual("dice") else None
    pick = entry.get("player", drawn) if entry.get("player") is not None else drawn
    if pick is None:
        raise rq.BadRequest("player", f"the lot is physical: name the player drawn among {', '.join(among)}")
    if pick not in among:
        raise rq.BadRequest("player", f"must be one of {', '.join(among)}")
    if drawn is not None and pick != drawn:
        from .core import IllegalRequest

        raise IllegalRequest(
            'the lot is virtual: the companion draws it (leave "player" out)',
            'le tirage est virtuel : le compagnon le fait (omettez "player")',
            "random.virtual",
        )
    game.drew("dice")
    entry["player"] = pick
    return pick

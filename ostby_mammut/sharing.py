"""The sharing phase as a referee: whose turn it is, what is legal, what happened.

Tiles are tracked by the side that lies face up (``axe``, ``skin``, ``tusk``, ``meat``,
``fire``, a species, ``question``, ``shaman``); a pool tile nobody described is
``unsorted``. A player's share is a tuple of lots (one lot, or two with two players).

>>> s = new_sharing(("A", "B", "C"), "A", {"meat": 3, "fire": 2, "shaman": 1})
>>> s.to_move
'A'
>>> s = apply(s, Take("A", {"meat": 2})).state
>>> s.to_move, s.pool_size()
('B', 4)
>>> s = apply(s, Steal("B", "A", {"meat": 1})).state
>>> s.to_move, s.lots["B"], s.lots["A"]
('C', ({'meat': 1},), ())
>>> apply(s, Take("C", {"fire": 1})).state.to_move
'A'
>>> apply(s, Steal("C", "B", {"meat": 1}))
Traceback (most recent call last):
...
ostby_mammut.core.IllegalAction: B holds a single tile: robbing him would leave the thief nothing
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .core import (
    CARD_COUNTS,
    DEFAULT_CONFIG,
    EVALUATION_CARDS,
    GOODS,
    HIDDEN_CARD,
    QUESTION,
    SHAMAN,
    UNSORTED,
    BadRequest,
    IllegalAction,
    counter,
)
from .variants import Variants

MIDDLE = "middle"


@dataclass(frozen=True)
class Take:
    player: str
    tiles: dict


@dataclass(frozen=True)
class Steal:
    player: str
    victim: str
    give_back: dict
    lot: int = 0


@dataclass(frozen=True)
class Flip:
    """One tile turned over: where it lies, the side that was up, the side now up."""

    where: str  # "middle" or a player's name
    face: str
    to: str
    lot: int = 0


@dataclass(frozen=True)
class PlayCard:
    """A card played before taking. ``flips`` for ``flip``; ``targets`` (player, lot or
    ``None`` for all his tiles) for ``recall``; evaluation cards may be ``hidden``."""

    player: str
    card: str
    flips: tuple = ()
    targets: tuple = ()


Action = Take | Steal | PlayCard


@dataclass(frozen=True)
class Sharing:
    players: tuple[str, ...]
    start: str
    pool: dict
    lots: dict
    to_move: str | None
    arrow: str = "red"
    hands: dict | None = None
    played: tuple = ()
    moves: int = 0
    ended_by: str | None = None
    variants: Variants = field(default_factory=Variants)

    @property
    def lots_needed(self) -> int:
        return 2 if len(self.players) == 2 else 1

    def complete(self, player: str) -> bool:
        return len(self.lots[player]) >= self.lots_needed

    def incomplete(self) -> list[str]:
        return [p for p in self.players if not self.complete(p)]

    def pool_size(self) -> int:
        return sum(self.pool.values())

    def held(self, player: str) -> dict:
        total = counter()
        for lot in self.lots[player]:
            total.update(lot)
        return dict(total)

    def total(self) -> dict:
        """Every tile of the phase by visible side: the middle plus every share."""
        total = counter(self.pool)
        for p in self.players:
            total.update(self.held(p))
        return dict(total)

    def holder(self) -> str | None:
        """Who has the shaman tile in front of him (``None`` while it is in the middle)."""
        for p in self.players:
            if self.held(p).get(SHAMAN):
                return p
        return None

    @property
    def over(self) -> bool:
        return self.to_move is None

    def is_last(self, player: str) -> bool:
        """The last player without loot: his next take from the middle ends the phase."""
        missing = self.lots_needed - len(self.lots[player])
        others = [p for p in self.incomplete() if p != player]
        return missing == 1 and not others

    def with_(self, **changes) -> "Sharing":
        return replace(self, **changes)


@dataclass
class Outcome:
    state: Sharing
    events: list = field(default_factory=list)


def new_sharing(players, start: str, pool: dict, hands: dict | None = None, arrow: str = "red",
                variants: Variants | None = None) -> Sharing:
    players = tuple(players)
    if not 2 <= len(players) <= 5 or len(set(players)) != len(players):
        raise BadRequest("players", "Mammut is played by 2 to 5 different players")
    if start not in players:
        raise BadRequest("start", f"{start!r} is not a player")
    pool = dict(counter(pool))
    need = 2 * len(players) * (2 if len(players) == 2 else 1)
    if sum(pool.values()) < need:
        raise BadRequest("pool", f"at least {need} tiles are needed so that someone can always act")
    return Sharing(players=players, start=start, pool=pool, lots={p: () for p in players}, to_move=start,
                   arrow=arrow, hands=None if hands is None else {p: tuple(hands.get(p, ())) for p in players},
                   variants=variants or Variants())


def _ill(rule: str, en: str, fr: str) -> IllegalAction:
    return IllegalAction(en, rule, fr=fr)


def _remove(source: dict, tiles: dict, where_en: str, where_fr: str, rule: str) -> dict:
    """``source`` minus ``tiles``; a described kind may come out of the unsorted tiles."""
    left = dict(source)
    for kind, n in tiles.items():
        own = min(n, left.get(kind, 0))
        rest = n - own
        if own:
            left[kind] -= own
        if rest:
            if kind == UNSORTED or left.get(UNSORTED, 0) < rest:
                raise _ill(rule, f"there are not {n} {kind} tiles {where_en}",
                           f"il n'y a pas {n} tuiles {kind} {where_fr}")
            left[UNSORTED] -= rest
    return dict(counter(left))


#: The sides a tile may show face up, and ``unsorted`` for a pool tile nobody described.
TILE_SIDES = GOODS + DEFAULT_CONFIG.species + (QUESTION, SHAMAN, UNSORTED)


def _check_tiles(tiles, field_name: str) -> dict:
    if not isinstance(tiles, dict):
        raise BadRequest(field_name, f"must be an object of kind → count, got {type(tiles).__name__}")
    for kind, n in tiles.items():
        if kind not in TILE_SIDES:
            raise BadRequest(f"{field_name}.{kind}", f"unknown tile side (known: {', '.join(TILE_SIDES)})")
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 99:
            raise BadRequest(f"{field_name}.{kind}", f"must be a count (integer from 0 to 99), got {n!r}")
    return dict(counter(tiles))


def _regular_steals(state: Sharing, player: str) -> list:
    out = []
    for victim in state.players:
        if victim == player:
            continue
        for i, lot in enumerate(state.lots[victim]):
            n = sum(lot.values())
            if n > 1 or state.variants.single_tile_steal == "allowed":
                out.append((victim, i, n))
    return out


def _stuck(state: Sharing, player: str) -> bool:
    """Two players: an empty middle and only single-tile lots to rob (ruling «Nowhere to act»)."""
    return (state.lots_needed == 2 and state.pool_size() == 0 and not _regular_steals(state, player)
            and not (state.moves == 0 and player == state.start))


def _next_player(state: Sharing, after: str) -> str | None:
    n = len(state.players)
    i = state.players.index(after)
    for k in range(1, n + 1):
        p = state.players[(i + k) % n]
        if not state.complete(p):
            return p
    return None


def _turn(state: Sharing, player: str) -> None:
    if player not in state.players:
        raise BadRequest("player", f"{player!r} is not a player")
    if state.over:
        raise _ill("share.phase_over", "the sharing is over", "le partage est terminé")
    if player != state.to_move:
        raise _ill("share.not_your_turn", f"it is {state.to_move}'s turn, not {player}'s",
                   f"c'est au tour de {state.to_move}, pas de {player}")


def _after_move(state: Sharing, actor: str, events: list) -> Sharing:
    state = state.with_(moves=state.moves + 1)
    nxt = _next_player(state, actor)
    if nxt is None:
        events.append({"type": "phase_ended", "player": actor, "rule": "share.end"})
        return state.with_(to_move=None, ended_by=actor)
    events.append({"type": "turn", "player": nxt, "rule": "share.turn_order"})
    return state.with_(to_move=nxt)


def apply(state: Sharing, action: Action) -> Outcome:
    """Apply one action; raises :class:`IllegalAction` with the rule it breaks."""
    if isinstance(action, Take):
        return _take(state, action)
    if isinstance(action, Steal):
        return _steal(state, action)
    if isinstance(action, PlayCard):
        return _play(state, action)
    raise BadRequest("action", f"unknown action {action!r}")


def _take(state: Sharing, action: Take) -> Outcome:
    _turn(state, action.player)
    tiles = _check_tiles(action.tiles, "tiles")
    n = sum(tiles.values())
    if n == 0:
        raise _ill("share.take_some", "taking from the middle means taking at least one tile",
                   "prendre au milieu, c'est prendre au moins une tuile")
    pool = _remove(state.pool, tiles, "in the middle", "au milieu", "share.take")
    if state.is_last(action.player) and pool:
        left = state.pool_size()
        raise _ill("share.last_takes_all",
                   f"{action.player} is the last without loot: he must take all {left} tiles of the middle",
                   f"{action.player} est le dernier sans butin : il doit prendre les {left} tuiles du milieu")
    lots = dict(state.lots)
    lots[action.player] = state.lots[action.player] + (tiles,)
    events = [{"type": "took", "player": action.player, "tiles": tiles, "rule": "share.take"}]
    return Outcome(_after_move(state.with_(pool=pool, lots=lots), action.player, events), events)


def _steal(state: Sharing, action: Steal) -> Outcome:
    _turn(state, action.player)
    if action.victim not in state.players:
        raise BadRequest("victim", f"{action.victim!r} is not a player")
    give = _check_tiles(action.give_back, "give_back")
    if state.moves == 0 and action.player == state.start:
        raise _ill("share.first_move", "the start player's first move takes from the middle",
                   "le premier coup du premier joueur se fait au milieu")
    if action.victim == action.player:
        raise _ill("share.steal", "a player cannot rob himself", "on ne peut pas se voler soi-même")
    victim_lots = state.lots[action.victim]
    if not victim_lots:
        raise _ill("share.steal", f"{action.victim} has no tiles to take", f"{action.victim} n'a pas de tuiles à prendre")
    if not 0 <= action.lot < len(victim_lots):
        raise BadRequest("lot", f"{action.victim} has {len(victim_lots)} lot(s)")
    lot = victim_lots[action.lot]
    size = sum(lot.values())
    n_back = sum(give.values())
    if size == 1 and _stuck(state, action.player):
        if n_back:
            raise _ill("share.two_stuck", "with nothing else to do, the single tile is kept: nothing goes back",
                       "faute d'autre choix, la tuile unique est gardée : rien ne retourne au milieu")
    elif size == 1 and state.variants.single_tile_steal == "forbidden":
        raise _ill("share.steal_single", f"{action.victim} holds a single tile: robbing him would leave the thief nothing",
                   f"{action.victim} n'a qu'une tuile : le voler ne laisserait rien au voleur")
    stuck = size == 1 and _stuck(state, action.player)
    if n_back < 1 and not stuck:
        raise _ill("share.steal", "at least one of the taken tiles goes back to the middle",
                   "au moins une des tuiles prises retourne au milieu")
    if state.variants.steal_return == "exactly_one" and n_back != 1 and not stuck:
        raise _ill("share.steal_return", "under the exactly-one variant a single tile goes back",
                   "avec la variante « exactement une », une seule tuile retourne au milieu")
    if n_back > max(size - 1, 1):
        raise _ill("share.steal", f"the thief keeps at least one of the {size} tiles",
                   f"le voleur garde au moins une des {size} tuiles")
    kept = _remove(lot, give, f"in {action.victim}'s loot", f"dans le butin de {action.victim}", "share.steal")
    lots = dict(state.lots)
    lots[action.victim] = victim_lots[:action.lot] + victim_lots[action.lot + 1:]
    if kept:
        lots[action.player] = state.lots[action.player] + (kept,)
    pool = dict(counter(state.pool) + counter(give))
    events = [{"type": "stole", "player": action.player, "victim": action.victim, "lot": action.lot,
               "kept": kept, "given_back": give, "rule": "share.steal"},
              {"type": "robbed", "player": action.victim, "rule": "share.robbed_again"}]
    return Outcome(_after_move(state.with_(pool=pool, lots=lots), action.player, events), events)


def _use_card(state: Sharing, player: str, card: str) -> Sharing:
    if card not in CARD_COUNTS and card != HIDDEN_CARD:
        raise BadRequest("card", f"unknown card {card!r}")
    played_same = sum(1 for _, c in state.played if c == card)
    if card != HIDDEN_CARD and played_same >= CARD_COUNTS[card]:
        raise _ill("card.count", f"the deck has only {CARD_COUNTS[card]} {card} card(s)",
                   f"le paquet n'a que {CARD_COUNTS[card]} carte(s) {card}")
    if state.hands is None:
        return state
    hand = list(state.hands[player])
    if card in hand:
        hand.remove(card)
    elif HIDDEN_CARD in hand:
        hand.remove(HIDDEN_CARD)
    else:
        raise _ill("card.in_hand", f"{player} has no {card} card in hand", f"{player} n'a pas de carte {card} en main")
    hands = dict(state.hands)
    hands[player] = tuple(hand)
    return state.with_(hands=hands)


def _play(state: Sharing, action: PlayCard) -> Outcome:
    _turn(state, action.player)
    card = action.card
    state = _use_card(state, action.player, card)
    state = state.with_(played=state.played + ((action.player, card),))
    if card in EVALUATION_CARDS or card == HIDDEN_CARD:
        return Outcome(state, [{"type": "card_played", "player": action.player, "card": "face_down",
                                "rule": "card.evaluation"}])
    if card == "peek":
        return Outcome(state, [{"type": "card_played", "player": action.player, "card": "peek", "rule": "card.peek"}])
    if card == "flip":
        return _flip(state, action)
    return _recall(state, action)


def _flip(state: Sharing, action: PlayCard) -> Outcome:
    if not 1 <= len(action.flips) <= 2:
        raise _ill("card.flip", "the card turns one or two tiles over", "la carte retourne une ou deux tuiles")
    pool, lots, arrow = dict(state.pool), dict(state.lots), state.arrow
    turnable = set(GOODS) | {QUESTION, SHAMAN}
    events = [{"type": "card_played", "player": action.player, "card": "flip", "rule": "card.flip"}]
    for flip in action.flips:
        if flip.face not in turnable or flip.to not in turnable:
            raise _ill("card.flip", "only loot tiles other than animals can be turned over",
                       "seules les tuiles de butin autres que les animaux peuvent être retournées")
        if (flip.face == SHAMAN) != (flip.to == SHAMAN):
            raise _ill("card.flip_shaman", "the shaman tile shows the shaman on both sides",
                       "la tuile chamane montre le chamane des deux côtés")
        if flip.face == QUESTION == flip.to:
            raise _ill("card.flip", "a question tile hides a loot side", "une tuile point d'interrogation cache une face de butin")
        if flip.where == MIDDLE:
            pool = _remove(pool, {flip.face: 1}, "in the middle", "au milieu", "card.flip")
            pool = dict(counter(pool) + counter({flip.to: 1}))
        elif flip.where in state.players:
            share = list(lots[flip.where])
            if not 0 <= flip.lot < len(share):
                raise _ill("card.flip", f"{flip.where} has no such lot", f"{flip.where} n'a pas ce lot")
            lot = _remove(share[flip.lot], {flip.face: 1}, f"in {flip.where}'s loot", f"dans le butin de {flip.where}",
                          "card.flip")
            share[flip.lot] = dict(counter(lot) + counter({flip.to: 1}))
            lots[flip.where] = tuple(share)
        else:
            raise BadRequest("flips.where", f"must be 'middle' or a player, got {flip.where!r}")
        if flip.face == SHAMAN and state.variants.shaman_flip == "reverse_arrow":
            arrow = "blue" if arrow == "red" else "red"
        events.append({"type": "tile_flipped", "where": flip.where, "from": flip.face, "to": flip.to,
                       "rule": "card.flip_shaman" if flip.face == SHAMAN else "card.flip"})
    return Outcome(state.with_(pool=pool, lots=lots, arrow=arrow), events)


def _recall(state: Sharing, action: PlayCard) -> Outcome:
    if not action.targets:
        raise _ill("card.recall", "name at least one player whose tiles go back", "nommez au moins un joueur qui rend ses tuiles")
    lots = dict(state.lots)
    pool = counter(state.pool)
    events = [{"type": "card_played", "player": action.player, "card": "recall", "rule": "card.recall"}]
    two = state.lots_needed == 2
    seen = set()
    for target, lot in action.targets:
        if target not in state.players:
            raise BadRequest("targets", f"{target!r} is not a player")
        if (target, lot) in seen:
            raise BadRequest("targets", f"{target} named twice")
        seen.add((target, lot))
        if not two:
            if target == action.player or not lots[target]:
                raise _ill("card.recall", f"{target} has no tiles to give back", f"{target} n'a pas de tuiles à rendre")
            for one in lots[target]:
                pool.update(one)
            lots[target] = ()
        else:
            if lot is None or not 0 <= lot < len(state.lots[target]):
                raise _ill("card.recall", "with two players, name the lot that goes back",
                           "à deux, désignez le lot qui retourne au milieu")
            pool.update(state.lots[target][lot])
        events.append({"type": "recalled", "player": target, "lot": lot, "rule": "card.recall"})
    if two:
        for target in state.players:
            drop = {lot for t, lot in seen if t == target}
            lots[target] = tuple(one for i, one in enumerate(state.lots[target]) if i not in drop)
    return Outcome(state.with_(pool=dict(+pool), lots=lots), events)


def options(state: Sharing) -> dict:
    """What the player to move may do, for a page or a bot."""
    if state.over:
        return {"to_move": None, "over": True, "ended_by": state.ended_by}
    p = state.to_move
    size = state.pool_size()
    first = state.moves == 0 and p == state.start
    steals = []
    if not first:
        for victim, i, n in _regular_steals(state, p):
            high = 1 if state.variants.steal_return == "exactly_one" else max(n - 1, 1)
            steals.append({"victim": victim, "lot": i, "size": n, "give_back_min": 1, "give_back_max": high})
        if _stuck(state, p):
            steals = [{"victim": q, "lot": i, "size": 1, "give_back_min": 0, "give_back_max": 0}
                      for q in state.players if q != p for i, _ in enumerate(state.lots[q])]
    last = state.is_last(p)
    cards = None
    if state.hands is not None:
        cards = sorted(set(state.hands[p]))
    return {"to_move": p, "over": False, "can_take": size > 0, "take_min": size if last else min(1, size),
            "take_max": size, "must_take_all": last, "steals": steals, "first_move": first,
            "cards": cards, "pool": dict(state.pool)}


# JSON forms of the actions (the page's journal and API) ---------------------------------


def action_to_json(action: Action) -> dict:
    if isinstance(action, Take):
        return {"type": "take", "player": action.player, "tiles": dict(action.tiles)}
    if isinstance(action, Steal):
        return {"type": "steal", "player": action.player, "victim": action.victim, "lot": action.lot,
                "give_back": dict(action.give_back)}
    out = {"type": "card", "player": action.player, "card": action.card}
    if action.flips:
        out["flips"] = [{"where": f.where, "lot": f.lot, "face": f.face, "to": f.to} for f in action.flips]
    if action.targets:
        out["targets"] = [{"player": t, "lot": lot} for t, lot in action.targets]
    return out


def _fields(obj, field: str, allowed: tuple) -> dict:
    if not isinstance(obj, dict):
        raise BadRequest(field, f"must be an object, got {type(obj).__name__}")
    for key in obj:
        if key not in allowed:
            raise BadRequest(f"{field}.{key}", f"is not a field here (fields: {', '.join(allowed)})")
    return obj


def _index(value, field: str, default=0):
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 16:
        raise BadRequest(field, f"must be a lot number (integer from 0), got {value!r}")
    return value


def _string(value, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise BadRequest(field, "is missing" if value is None else f"must be a name, got {value!r}")
    return value


_ACTION_FIELDS = {"take": ("type", "player", "tiles"), "steal": ("type", "player", "victim", "lot", "give_back"),
                  "card": ("type", "player", "card", "flips", "targets")}


def action_from_json(obj) -> Action:
    """An action of the sharing phase from its JSON form (the page's journal, ``maamut mammut share``)."""
    if not isinstance(obj, dict):
        raise BadRequest("action", f"must be an object, got {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_FIELDS:
        raise BadRequest("action.type", "must be one of take, steal, card")
    _fields(obj, "action", _ACTION_FIELDS[kind])
    player = _string(obj.get("player"), "action.player")
    if kind == "take":
        return Take(player, _check_tiles(obj.get("tiles"), "action.tiles"))
    if kind == "steal":
        victim = _string(obj.get("victim"), "action.victim")
        return Steal(player, victim, _check_tiles(obj.get("give_back"), "action.give_back"),
                     _index(obj.get("lot"), "action.lot"))
    card = _string(obj.get("card"), "action.card")
    flips = []
    for i, f in enumerate(_list(obj.get("flips"), "action.flips")):
        f = _fields(f, f"action.flips.{i}", ("where", "lot", "face", "to"))
        flips.append(Flip(_string(f.get("where"), f"action.flips.{i}.where"),
                          _string(f.get("face"), f"action.flips.{i}.face"),
                          _string(f.get("to"), f"action.flips.{i}.to"), _index(f.get("lot"), f"action.flips.{i}.lot")))
    targets = []
    for i, t in enumerate(_list(obj.get("targets"), "action.targets")):
        t = _fields(t, f"action.targets.{i}", ("player", "lot"))
        lot = t.get("lot")
        targets.append((_string(t.get("player"), f"action.targets.{i}.player"),
                        None if lot is None else _index(lot, f"action.targets.{i}.lot")))
    return PlayCard(player, card, tuple(flips), tuple(targets))


def _list(value, field: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadRequest(field, f"must be a list, got {type(value).__name__}")
    return value


# JSON form of the phase's state (``maamut mammut share``) ------------------------------

_STATE_FIELDS = ("players", "start", "pool", "lots", "to_move", "arrow", "hands", "played", "moves", "ended_by")


def state_to_json(state: Sharing) -> dict:
    """The phase's state as ``maamut mammut share`` reads and answers it (docs/mammut-api.md)."""
    return {"players": list(state.players), "start": state.start, "pool": dict(state.pool),
            "lots": {p: [dict(lot) for lot in state.lots[p]] for p in state.players}, "to_move": state.to_move,
            "arrow": state.arrow,
            "hands": None if state.hands is None else {p: list(h) for p, h in state.hands.items()},
            "played": [{"player": p, "card": c} for p, c in state.played], "moves": state.moves,
            "ended_by": state.ended_by}


def state_from_json(obj, variants: Variants | None = None) -> Sharing:
    """A state from its JSON form; every field but ``players``, ``start`` and ``pool`` may be left out
    (no lots yet, the start player to move, red arrow, hands unknown, no card played)."""
    from rulekit.players import SeatError, read_ids

    from .core import ARROWS

    obj = _fields(obj, "state", _STATE_FIELDS)
    for key in ("players", "start", "pool"):
        if key not in obj:
            raise BadRequest(f"state.{key}", "is missing")
    try:
        players = read_ids(obj["players"], least=2, most=5)
    except SeatError as exc:
        raise BadRequest("state.players" if exc.seat is None else f"state.players.{exc.seat}", exc.reason) from None

    def player(value, field, allow_none=False):
        if value is None and allow_none:
            return None
        if not isinstance(value, str) or value not in players:
            raise BadRequest(field, f"must name one of the players, got {value!r}")
        return value

    start = player(obj["start"], "state.start")
    pool = _check_tiles(obj["pool"], "state.pool")
    lots_needed = 2 if len(players) == 2 else 1
    lots_obj = _fields(obj.get("lots") or {}, "state.lots", players)
    lots = {}
    for p in players:
        share = _list(lots_obj.get(p), f"state.lots.{p}")
        if len(share) > lots_needed:
            raise BadRequest(f"state.lots.{p}", f"a player holds at most {lots_needed} lot(s)")
        lots[p] = tuple(_lot(lot, f"state.lots.{p}.{i}") for i, lot in enumerate(share))
    hands = None
    if obj.get("hands") is not None:
        hands_obj = _fields(obj["hands"], "state.hands", players)
        hands = {}
        for p in players:
            cards = _list(hands_obj.get(p), f"state.hands.{p}")
            for i, card in enumerate(cards):
                if not isinstance(card, str) or (card not in CARD_COUNTS and card != HIDDEN_CARD):
                    raise BadRequest(f"state.hands.{p}.{i}", f"unknown card {card!r}")
            hands[p] = tuple(cards)
    played = []
    for i, row in enumerate(_list(obj.get("played"), "state.played")):
        row = _fields(row, f"state.played.{i}", ("player", "card"))
        card = row.get("card")
        if not isinstance(card, str) or (card not in CARD_COUNTS and card != HIDDEN_CARD):
            raise BadRequest(f"state.played.{i}.card", f"unknown card {card!r}")
        played.append((player(row.get("player"), f"state.played.{i}.player"), card))
    moves = obj.get("moves", 0)
    if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
        raise BadRequest("state.moves", f"must be an integer ≥ 0, got {moves!r}")
    arrow = obj.get("arrow", "red")
    if arrow not in ARROWS:
        raise BadRequest("state.arrow", "must be 'red' (clockwise) or 'blue' (counter-clockwise)")
    state = Sharing(players=players, start=start, pool=pool, lots=lots, to_move=None, arrow=arrow, hands=hands,
                    played=tuple(played), moves=moves, ended_by=player(obj.get("ended_by"), "state.ended_by", True),
                    variants=variants or Variants())
    to_move = player(obj.get("to_move", start), "state.to_move", allow_none=True)
    if to_move is not None and state.complete(to_move):
        raise BadRequest("state.to_move", f"{to_move} already has his share: he takes no more turns")
    if to_move is None and state.incomplete():
        raise BadRequest("state.to_move", "is null only when every player has his share")
    _check_set(state)
    return state.with_(to_move=to_move)


def _lot(value, field: str) -> dict:
    lot = _check_tiles(value, field)
    if not lot:
        raise BadRequest(field, "a lot holds at least one tile")
    return lot


def _check_set(state: Sharing) -> None:
    """The tiles of a state must fit in the box: the loot tiles plus the one shaman tile."""
    total = state.total()
    if total.get(SHAMAN, 0) > 1:
        raise IllegalAction("there is one shaman tile", "request.tiles", code="illegal_request",
                            fr="il n'y a qu'une tuile chamane")
    if sum(total.values()) > DEFAULT_CONFIG.tile_count + 1:
        raise IllegalAction(f"{sum(total.values())} tiles, the set has {DEFAULT_CONFIG.tile_count + 1}",
                            "request.tiles", code="illegal_request",
                            fr=f"{sum(total.values())} tuiles, le jeu en compte {DEFAULT_CONFIG.tile_count + 1}")

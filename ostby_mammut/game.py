"""A whole game of Mammut: rounds, the deck, hands, the sharing referee and the scoring.

A game is rebuilt from its list of actions (JSON objects), which is what the page's
journal stores; ``undo`` replays all but the last one. Two modes:

- ``"page"``: the companion cannot see the tiles in the bag nor the cards in hand;
  the middle starts as 31 ``unsorted`` tiles and the shaman tile, hands hold
  ``hidden`` cards, and the players describe what they took and what they revealed.
- ``"sim"``: everything is dealt from a seed (tests and bots): the tiles land on a
  random side, the cards are known.

>>> g = Game.new(["A", "B", "C"], seed=3, mode="page")
>>> g.round, g.phase, g.sharing.to_move, g.sharing.pool
(1, 'sharing', 'A', {'unsorted': 31, 'shaman': 1})
>>> g.play({"type": "take", "player": "A", "tiles": {"meat": 2, "shaman": 1}})[0]["type"]
'took'
>>> g.sharing.to_move, g.sharing.holder()
('B', 'A')
"""

from __future__ import annotations

import json
import random
from collections import Counter
from copy import deepcopy

from .core import (
    CARD_COUNTS,
    DEFAULT_CONFIG,
    EVALUATION_CARDS,
    FIRST_ROUND,
    GOODS,
    HAND_AT_START,
    HIDDEN_CARD,
    LAST_ROUND,
    QUESTION,
    SHAMAN,
    UNSORTED,
    BadRequest,
    Config,
    IllegalAction,
    counter,
)
from .scoring import EvalCard, RoundInput, score_round
from .sharing import action_from_json, apply, new_sharing
from .variants import Variants

MODES = ("page", "sim")


class Game:
    def __init__(self, setup: dict):
        self.setup = setup
        self.players = tuple(setup["players"])
        self.mode = setup.get("mode", "page")
        if self.mode not in MODES:
            raise BadRequest("mode", "must be 'page' or 'sim'")
        if not 2 <= len(self.players) <= 5 or len(set(self.players)) != len(self.players):
            raise BadRequest("players", "Mammut is played by 2 to 5 different players")
        try:
            self.variants = Variants.from_json(setup.get("variants"))
        except (ValueError, TypeError) as exc:
            raise BadRequest("variants", str(exc)) from None
        self.config: Config = DEFAULT_CONFIG
        self.rng = random.Random(setup.get("seed", 0))
        self.actions: list[dict] = []
        self.results: list[dict] = []
        self.round = FIRST_ROUND[len(self.players)]
        self.start = setup.get("start") or self.players[0]
        if self.start not in self.players:
            raise BadRequest("start", "must be one of the players")
        self.points = {p: 0 for p in self.players}
        self.track = {p: 0 for p in self.players}
        self.species = {p: [] for p in self.players}
        self.final = None
        self._deal()
        self._start_round()

    # setting up ----------------------------------------------------------------------
    @classmethod
    def new(cls, players, seed: int = 0, mode: str = "page", variants: dict | None = None, start: str | None = None,
            species: dict | None = None) -> "Game":
        setup = {"players": list(players), "seed": seed, "mode": mode}
        if variants:
            setup["variants"] = variants
        if start:
            setup["start"] = start
        if species:
            setup["species"] = species
        return cls(setup)

    def _deal(self):
        n = len(self.players)
        if self.mode == "sim":
            deck = [card for card, k in CARD_COUNTS.items() for _ in range(k)]
            self.rng.shuffle(deck)
        else:
            deck = [HIDDEN_CARD] * sum(CARD_COUNTS.values())
        self.hands = {p: [deck.pop() for _ in range(HAND_AT_START)] for p in self.players}
        self.draw = deck
        self.discard: list[str] = []
        chosen = self.setup.get("species") or {}
        if n >= 4:
            if self.mode == "sim" and not chosen:
                picks = self.rng.sample(list(self.config.species), n)
                chosen = dict(zip(self.players, picks))
            for p, s in chosen.items():
                if p not in self.players or s not in self.config.species:
                    raise BadRequest("species", f"unknown player or species {p!r}: {s!r}")
                self.species[p] = [s]
            if len(set(chosen.values())) != len(chosen):
                raise BadRequest("species", "each player starts with a different species")

    def _start_round(self):
        self.phase = "sharing"
        self.hidden = Counter()  # sim: the hidden sides of the question tiles
        if self.mode == "sim":
            pool = Counter({SHAMAN: 1})
            for a, b in self.config.tiles:
                up, down = (a, b) if self.rng.random() < 0.5 else (b, a)
                pool[up] += 1
                if up == QUESTION:
                    self.hidden[down] += 1
            arrow = self.rng.choice(("red", "blue"))
        else:
            pool = Counter({UNSORTED: self.config.tile_count, SHAMAN: 1})
            arrow = "red"
        self.sharing = new_sharing(self.players, self.start, dict(pool),
                                   hands={p: tuple(h) for p, h in self.hands.items()}, arrow=arrow,
                                   variants=self.variants)

    # playing ---------------------------------------------------------------------------
    def play(self, action: dict) -> list:
        """Apply one action (JSON form) and record it; returns its events."""
        if not isinstance(action, dict):
            raise BadRequest("action", "must be an object")
        if self.phase == "over":
            raise IllegalAction("the game is over", "end.winner", fr="la partie est terminée")
        if action.get("type") == "evaluate":
            events = self._evaluate(action)
        else:
            if self.phase != "sharing":
                raise IllegalAction("the sharing is over: evaluate the round", "share.phase_over",
                                    fr="le partage est terminé : passez à l'évaluation")
            out = apply(self.sharing, action_from_json(action))
            self.sharing = out.state
            if self.sharing.hands is not None:
                self.hands = {p: list(h) for p, h in self.sharing.hands.items()}
            events = out.events
            if self.sharing.over:
                self.phase = "evaluation"
        self.actions.append(action)
        return events

    def evaluation_defaults(self) -> dict:
        """What the page pre-fills before the reveal: the described tiles of each share
        and the number of face-down cards each player played."""
        tiles = {}
        for p in self.players:
            held = counter(self.sharing.held(p))
            held.pop(SHAMAN, None)
            tiles[p] = {"known": {k: v for k, v in held.items() if k not in (QUESTION, UNSORTED)},
                        "to_reveal": held[QUESTION] + held[UNSORTED], "total": sum(held.values())}
        face_down = Counter(p for p, c in self.sharing.played if c in EVALUATION_CARDS or c == HIDDEN_CARD)
        return {"tiles": tiles, "face_down": {p: face_down[p] for p in self.players},
                "holder": self.sharing.holder(), "arrow": self.sharing.arrow}

    def sim_evaluation(self, rng: random.Random) -> dict:
        """The evaluate action of a simulated game: question tiles turn to their hidden
        side, evaluation cards keep their identity, choices are made at random."""
        hidden = list(self.hidden.elements())
        rng.shuffle(hidden)
        tiles = {}
        for p in self.players:
            held = counter(self.sharing.held(p))
            held.pop(SHAMAN, None)
            for _ in range(held.pop(QUESTION, 0)):
                held[hidden.pop()] += 1
            tiles[p] = dict(held)
        cards = []
        spare = {p: Counter({s: tiles[p][s] for s in self.config.species if tiles[p].get(s)}) for p in self.players}
        owned = {p: set(self.species[p]) for p in self.players}
        for p, c in self.sharing.played:
            if c not in EVALUATION_CARDS:
                continue
            entry = {"card": c, "player": p}
            if c == "animal_exchange":
                mine = sorted(+spare[p])
                free = [s for s in self.config.species if s not in owned[p]]
                if mine and free:
                    entry["give"], entry["take"] = rng.choice(mine), rng.choice(free)
                    spare[p][entry["give"]] -= 1
                    owned[p].add(entry["take"])
            cards.append(entry)
        return {"type": "evaluate", "tiles": tiles, "arrow": self.sharing.arrow, "cards": cards}

    def _evaluate(self, action: dict) -> list:
        if self.phase != "evaluation":
            raise IllegalAction("the sharing is not over yet", "share.turn_order", fr="le partage n'est pas terminé")
        defaults = self.evaluation_defaults()
        tiles = action.get("tiles")
        if not isinstance(tiles, dict):
            raise BadRequest("tiles", "must give each player's revealed tiles")
        revealed = {}
        kinds = set(self.config.kinds())
        for p in self.players:
            got = tiles.get(p, {})
            if not isinstance(got, dict):
                raise BadRequest(f"tiles.{p}", "must be an object of kind → count")
            for k, v in got.items():
                if k not in kinds:
                    raise BadRequest(f"tiles.{p}.{k}", "unknown kind")
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    raise BadRequest(f"tiles.{p}.{k}", "must be a count")
            got = counter(got)
            want = defaults["tiles"][p]
            if sum(got.values()) != want["total"]:
                raise IllegalAction(f"{p} holds {want['total']} loot tiles, {sum(got.values())} were described",
                                    "eval.reveal", fr=f"{p} a {want['total']} tuiles de butin, {sum(got.values())} décrites")
            for k, v in want["known"].items():
                if got[k] < v:
                    raise IllegalAction(f"{p} took {v} {k} tile{'s' if v != 1 else ''} face up: they still count", "eval.reveal",
                                        fr=f"{p} a pris {v} tuile{'s' if v != 1 else ''} {k} face visible : elles comptent toujours")
            revealed[p] = dict(got)
        arrow = action.get("arrow", self.sharing.arrow)
        if arrow not in ("red", "blue"):
            raise BadRequest("arrow", "must be red or blue")
        cards = []
        if not isinstance(action.get("cards") or [], list):
            raise BadRequest("cards", "must be a list of the evaluation cards turned up")
        for i, c in enumerate(action.get("cards") or []):
            if (not isinstance(c, dict) or not isinstance(c.get("card"), str) or c["card"] not in EVALUATION_CARDS
                    or c.get("player") not in self.players):
                raise BadRequest(f"cards.{i}", "needs an evaluation card and the player who played it")
            for key in ("give", "take"):
                if c.get(key) is not None and c[key] not in self.config.species:
                    raise BadRequest(f"cards.{i}.{key}", "unknown species")
            cards.append(EvalCard(c["card"], c["player"], c.get("give"), c.get("take")))
        per_player = Counter(c.player for c in cards)
        for p in self.players:
            if per_player[p] != defaults["face_down"][p]:
                raise IllegalAction(f"{p} played {defaults['face_down'][p]} card(s) face down, {per_player[p]} turned up",
                                    "card.evaluation",
                                    fr=f"{p} a joué {defaults['face_down'][p]} carte(s) face cachée, {per_player[p]} retournée(s)")
        if self.mode == "sim":
            known = Counter((p, c) for p, c in self.sharing.played if c in EVALUATION_CARDS)
            if Counter((c.player, c.card) for c in cards) != known:
                raise IllegalAction("the cards turned up are not the cards played", "card.evaluation",
                                    fr="les cartes retournées ne sont pas celles jouées")
        inp = RoundInput(players=self.players, round=self.round, holder=defaults["holder"], arrow=arrow,
                         points=self.points, track=self.track, species=self.species, tiles=revealed,
                         cards=tuple(cards), draw_pile=len(self.draw), discard_pile=len(self.discard),
                         variants=self.variants, config=self.config)
        result = score_round(inp)
        self.points, self.track = dict(result.points), dict(result.track)
        self.species = {p: list(v) for p, v in result.species.items()}
        for entry in result.draws:
            hand = self.hands[entry["player"]]
            for _ in range(entry["cards"]):
                if not self.draw and self.variants.empty_draw_pile == "reshuffle" and self.discard:
                    self.draw = self.discard
                    self.discard = []
                    self.rng.shuffle(self.draw)
                hand.append(self.draw.pop())
        self.discard += [c for _, c in self.sharing.played]
        summary = {"round": self.round, "lines": result.lines, "order": list(result.order),
                   "points": dict(result.points), "track": dict(result.track), "draws": result.draws,
                   "revealed": revealed, "holder": defaults["holder"], "arrow": arrow}
        self.results.append(summary)
        events = [{"type": "round_scored", "round": self.round, "rule": "round.end"}]
        if result.final is not None or self.round >= LAST_ROUND:
            self.final = result.final
            self.phase = "over"
            events.append({"type": "game_over", "winners": result.final["winners"], "rule": "end.winner"})
        else:
            self.round += 1
            self.start = self.sharing.ended_by
            self._start_round()
        return events

    # journal support -------------------------------------------------------------------
    @classmethod
    def replay(cls, setup: dict, actions) -> "Game":
        game = cls(setup)
        for action in actions:
            game.play(action)
        return game

    def copy(self) -> "Game":
        """An independent copy: the page's table changes a copy and keeps it only once
        the change is journaled (the rules' configuration is shared, never changed)."""
        return deepcopy(self, {id(self.config): self.config})

    def undone(self) -> "Game":
        """The same game without its last action."""
        if not self.actions:
            raise IllegalAction("nothing to undo", "request.format", fr="rien à annuler")
        return Game.replay(self.setup, self.actions[:-1])


# The page's journal (``rulekit.journal``): one JSON record a line, ``{"type": "setup",
# "setup": {...}}`` starts a game, ``{"type": "action", "action": {...}}`` plays one,
# ``{"type": "undo"}`` takes the last one back.
def setup_line(setup: dict) -> str:
    return _record_line({"type": "setup", "setup": setup})


def action_line(action: dict) -> str:
    return _record_line({"type": "action", "action": action})


def undo_line() -> str:
    return _record_line({"type": "undo"})


def _record_line(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True)


def replay_prefix(lines) -> tuple[Game, str | None, int]:
    """The game of the journal's longest valid beginning, why it stopped (``None`` when
    every line replayed) and how many lines it used: the replay function the journal
    (``rulekit.journal.Journal.load``) takes. ``ValueError`` when no line starts a game.

    >>> lines = [setup_line({"players": ["A", "B", "C"], "mode": "page"}),
    ...          action_line({"type": "take", "player": "A", "tiles": {"meat": 1}}),
    ...          action_line({"type": "take", "player": "A", "tiles": {"meat": 1}}), undo_line()]
    >>> game, problem, kept = replay_prefix(lines)
    >>> game.sharing.to_move, kept, problem.split(":")[0]
    ('B', 2, 'line 3')
    """
    game, kept = None, 0
    for number, line in enumerate(lines, start=1):
        try:
            game = _replay_record(game, json.loads(line))
        except Exception as exc:  # any broken record is reported with its line number
            if game is None:
                raise ValueError(f"line {number}: {exc}") from None
            # a record that failed half-way: back to the game before it
            return Game.replay(game.setup, game.actions), f"line {number}: {exc}", kept
        kept += 1
    if game is None:
        raise ValueError("no line starts a game")
    return game, None, kept


def _replay_record(game: Game | None, record) -> Game | None:
    kind = record.get("type") if isinstance(record, dict) else None
    if kind == "setup":
        return Game(record["setup"])
    if game is None:
        raise ValueError("the journal does not start with a setup record")
    if kind == "undo":
        return game.undone()
    if kind != "action":
        raise ValueError(f"unknown record type {kind!r}")
    game.play(record["action"])
    return game


def random_action(game: Game, rng: random.Random) -> dict:
    """A random legal action for the player to move (or the evaluation), for bots and tests."""
    if game.phase == "evaluation":
        return game.sim_evaluation(rng)
    s = game.sharing
    p = s.to_move
    hand = s.hands[p] if s.hands is not None else ()
    if hand and rng.random() < 0.25:
        card = rng.choice(hand)
        action = {"type": "card", "player": p, "card": card}
        if card == "flip":
            where = "middle" if s.pool.get(SHAMAN) else s.holder()
            lot = 0
            if where != "middle":
                lot = next(i for i, one in enumerate(s.lots[where]) if one.get(SHAMAN))
            action["flips"] = [{"where": where, "lot": lot, "face": SHAMAN, "to": SHAMAN}]
        elif card == "recall":
            two = s.lots_needed == 2
            targets = [{"player": q, "lot": i if two else None} for q in s.players
                       for i, _ in enumerate(s.lots[q]) if (two or q != p) and (two or i == 0)]
            if not targets:
                action = None
            else:
                action["targets"] = rng.sample(targets, rng.randint(1, min(2, len(targets))))
        if action is not None:
            return action
    from .sharing import options

    opts = options(s)
    choices = []
    if opts["can_take"]:
        choices.append("take")
    if opts["steals"]:
        choices.append("steal")
    if rng.choice(choices) == "take":
        n = rng.randint(max(1, opts["take_min"]), opts["take_max"])
        tiles = rng.sample(list(Counter(s.pool).elements()), n)
        return {"type": "take", "player": p, "tiles": dict(Counter(tiles))}
    st = rng.choice(opts["steals"])
    lot = s.lots[st["victim"]][st["lot"]]
    k = rng.randint(st["give_back_min"], st["give_back_max"])
    back = rng.sample(list(Counter(lot).elements()), k)
    return {"type": "steal", "player": p, "victim": st["victim"], "lot": st["lot"], "give_back": dict(Counter(back))}


__all__ = ["Game", "random_action", "GOODS", "setup_line", "action_line", "undo_line", "replay_prefix"]

"""The search player: information-set Monte-Carlo tree search over the playout kernel.

What the AI knows is an :class:`InfoSetObservation`: the public position (hunters, traps,
mammoth, who is out), its own hand, the face-up discard pile and how many cards the
others hold. Every iteration samples one *determinisation* consistent with it (the
unseen cards dealt at random to the other hands and the draw pile), walks a single
tree shared by all determinisations (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012: a child's chance to be chosen counts only the iterations where its
action was legal, and each node keeps the win rate of the player who moved into it),
and finishes the game with a fast playout policy: take a push that drops the mammoth
into your own trap, never push it into someone else's or into your own death, like
setting traps, otherwise move at random. The result is a win chance per action.

>>> import random
>>> from engine.game import Game
>>> game = Game.new("AB", seed=4)
>>> for p in "AB":
...     game.place_hunter(p, game.start_cells()[0 if p == "A" else -1])
>>> ai = SearchPlayer(Level(iterations=60), random.Random(1))
>>> decision = ai.decide(observe(game, "A"))
>>> decision.action in game.legal_actions(), decision.iterations
(True, 60)
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from engine.cards import COMPOSITION
from engine.core import HAND_SIZE
from engine.notation import turn_to_text
from engine.rules import apply_action, legal_actions
from engine.variants import DEFAULT, Variants

from engine.fastplay import NO_WINNER, PLACE, REMOVE, PlayoutState, code_of


@dataclass(frozen=True)
class Level:
    """A strength: stop after ``iterations`` or ``time_ms``, whichever comes first."""

    iterations: int | None = None
    time_ms: float | None = None
    exploration: float = 0.7
    rollout_turns: int = 60


#: The strengths a seat may be given in the configuration (``ai = "normal"``).
LEVELS = {
    "easy": Level(iterations=40, time_ms=300),
    "normal": Level(iterations=300, time_ms=1000),   # the level `maamut bench ai` measures
    "hard": Level(iterations=2000, time_ms=3000),
}


@dataclass(frozen=True)
class InfoSetObservation:
    """What one player may know: nothing here depends on the others' hidden cards."""

    position: object          # engine.Position with hands=None
    me: str
    hand: tuple               # my cards (values)
    discard: tuple = ()       # face-up discard pile since the last reshuffle
    hand_sizes: tuple = ()    # (player, cards in hand) of the others
    variants: Variants = DEFAULT  # the table's rules, which the search plays too


def observe(game, me: str, hand=None) -> InfoSetObservation:
    """The observation of ``me`` in a :class:`engine.game.Game`.

    With a dealt game the hand comes from the game and the discard pile is the deck's
    (face up on the table); with a cardboard game (``deal=False``) pass ``hand``: the
    discards are counted from the turns played (:func:`public_discards`) and the
    others are assumed to hold three cards.
    """
    pos = game.position
    if pos.hands is not None:
        hand = pos.hands.get(me, ()) if hand is None else hand
        sizes = tuple((p, len(pos.hands.get(p, ()))) for p in pos.players if p != me)
        discard = tuple(game.deck.discard_pile)
    else:
        sizes = tuple((p, HAND_SIZE if p in pos.hunters else 0) for p in pos.players if p != me)
        discard = public_discards(game)
    return InfoSetObservation(pos.with_(hands=None), me, tuple(hand or ()), discard, sizes, game.variants)


def public_discards(game) -> tuple:
    """The face-up discard pile as everyone at the table saw it form: the cards played
    since the last reshuffle, counted from the game's turns (a pass that names no card,
    an eliminated hunter's hand: cards of unknown value, counted but not listed).

    >>> from engine.game import Game
    >>> game = Game.new("AB", seed=4)
    >>> for p in "AB":
    ...     game.place_hunter(p, game.start_cells()[0 if p == "A" else -1])
    >>> for _ in range(30):
    ...     _ = game.play(game.legal_actions()[0])
    >>> sorted(public_discards(game)) == sorted(game.deck.discard_pile)
    True
    """
    immediate = game.variants.reshuffle == "immediate"
    pile = sum(COMPOSITION.values()) - HAND_SIZE * len(game.players)
    known: list = []
    unknown = 0
    for entry, applied in zip(game.entries(), game.history):
        if "action" not in entry:
            continue
        mover = entry["action"].get("hunter")
        out = False
        draws = 0  # a trap set or taken up spends no card and draws none
        for event in applied.get("events", ()):
            kind = event.get("type")
            spent = []
            if kind == "hunter_moved" and not event.get("continued"):
                spent = [event.get("distance")]
            elif kind == "passed" and (event.get("card") or not game.deal):
                spent = [event.get("card")]  # a dealt game's pass without a card spends none
            elif kind == "hunter_eliminated":
                out = out or event.get("hunter") == mover
                spent = list(event.get("discarded") or ()) if game.deal else [None] * HAND_SIZE
            if kind in ("hunter_moved", "passed") and spent:
                draws += 1
            for card in spent:
                if card:
                    known.append(card)
                else:
                    unknown += 1
            if spent and pile == 0 and immediate:
                pile, known, unknown = len(known) + unknown, [], 0
        for _ in range(0 if out else draws):
            if pile == 0:
                pile, known, unknown = len(known) + unknown, [], 0
            pile = max(0, pile - 1)
            if pile == 0 and immediate and (known or unknown):
                pile, known, unknown = len(known) + unknown, [], 0
    return tuple(known)


def determinise(obs: InfoSetObservation, rng: random.Random) -> PlayoutState:
    """One deal of the unseen cards consistent with ``obs`` (the player to move may be anyone)."""
    pool = Counter(COMPOSITION)
    pool.subtract(obs.hand)
    pool.subtract(obs.discard)
    unseen = [v for v, count in pool.items() for _ in range(max(0, count))]
    rng.shuffle(unseen)
    hands = {obs.me: obs.hand}
    for player, size in obs.hand_sizes:
        if player in obs.position.hunters:
            hands[player], unseen = unseen[:size], unseen[size:]
    return PlayoutState.from_position(obs.position, hands, unseen, obs.discard, rng, variants=obs.variants)


def rollout_move(state: PlayoutState, rng: random.Random) -> int:
    """The playout policy (see the module docstring)."""
    me = state.me
    safe = []
    legal = state.legal()
    for code in legal:
        result = state.push_result(code)
        if result == me:
            return code
        if result == NO_WINNER:
            safe.append(code)
    if not safe:
        return rng.choice(legal)
    if PLACE in safe and rng.random() < 0.5:
        return PLACE
    if REMOVE in safe and state.traps[state.at[me]] != me and rng.random() < 0.7:
        return REMOVE
    return rng.choice(safe)


def rollout(state: PlayoutState, rng: random.Random, turns: int) -> int:
    limit = state.turns + turns
    while state.winner == NO_WINNER and state.turns < limit:
        state.play(rollout_move(state, rng))
    return state.winner


class _Node:
    __slots__ = ("children", "visits", "avail", "wins", "player")

    def __init__(self, player: int):
        self.children: dict = {}
        self.visits = 0
        self.avail = 1
        self.wins = 0.0
        self.player = player


@dataclass
class Decision:
    """The AI's turn and how it came to it; ``analysis`` lists every legal action."""

    action: object
    choices: tuple = ()
    iterations: int = 0
    elapsed_ms: float = 0.0
    budget_ms: float | None = None
    analysis: list = field(default_factory=list)  # [{"action", "notation", "win_chance", "visits"}]


class SearchPlayer:
    """One AI hunter; ``decide`` for its turns, ``choose_flee`` when it is frightened."""

    def __init__(self, level: Level | str = "normal", rng: random.Random | None = None,
                 clock=time.perf_counter):
        self.level = LEVELS[level] if isinstance(level, str) else level
        self.rng = rng or random.Random()
        self.clock = clock

    # -- budget --------------------------------------------------------------------
    def _budget(self):
        start = self.clock()
        level = self.level
        deadline = None if level.time_ms is None else start + level.time_ms / 1000.0
        limit = level.iterations

        def more(done: int) -> bool:
            if limit is not None and done >= limit:
                return False
            if deadline is not None and done > 0 and self.clock() >= deadline:
                return False
            return limit is not None or deadline is not None or done < 500

        return start, more

    # -- turns ---------------------------------------------------------------------
    def decide(self, obs: InfoSetObservation) -> Decision:
        """Choose the turn of ``obs.me`` (who must be the player to move)."""
        pos = obs.position
        if pos.to_move != obs.me:
            raise ValueError(f"it is {pos.to_move}'s turn, not {obs.me}'s")
        real = pos.with_(hands={obs.me: obs.hand})
        legal = {code_of(a): a for a in legal_actions(real, obs.variants)}
        if not legal:
            raise ValueError("no legal action: the game is over")
        rng = self.rng
        start, more = self._budget()
        me_seat = pos.players.index(obs.me)
        # A push into my own trap wins whatever the others hold: no search needed.
        probe = determinise(obs, rng)
        winning = [c for c in legal if probe.push_result(c) == me_seat]
        root = _Node(-1)
        done = 0
        if winning or len(legal) == 1:
            chosen = (winning or list(legal))[0]
        else:
            c_explore = self.level.exploration
            rollout_turns = self.level.rollout_turns
            while more(done):
                self._iterate(root, determinise(obs, rng), rng, c_explore, rollout_turns)
                done += 1
            chosen = max(legal, key=lambda c: (root.children[c].visits, root.children[c].wins)
                         if c in root.children else (-1, 0))
        elapsed = (self.clock() - start) * 1000.0
        analysis = []
        for code, action in legal.items():
            child = root.children.get(code)
            if code in winning:
                chance = 1.0
            elif child is None or child.visits == 0:
                chance = None
            else:
                chance = child.wins / child.visits
            analysis.append({"action": action, "notation": turn_to_text(action),
                             "win_chance": chance, "visits": child.visits if child else 0})
        analysis.sort(key=lambda a: -1 if a["win_chance"] is None else a["win_chance"], reverse=True)
        return Decision(legal[chosen], (), done, elapsed, self.level.time_ms, analysis)

    def _iterate(self, root: _Node, state: PlayoutState, rng, c_explore: float, rollout_turns: int) -> None:
        node = root
        path = []
        while state.winner == NO_WINNER:
            legal = state.legal()
            children = node.children
            untried = [c for c in legal if c not in children]
            if untried:
                code = rng.choice(untried)
                child = children[code] = _Node(state.me)
                for c in legal:
                    if c in children and c != code:
                        children[c].avail += 1
                state.play(code)
                path.append(child)
                break
            best, best_score = None, -1.0
            for c in legal:
                ch = children[c]
                ch.avail += 1
                score = ch.wins / ch.visits + c_explore * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_score = c, score
            node = children[best]
            state.play(best)
            path.append(node)
        winner = rollout(state, rng, rollout_turns) if state.winner == NO_WINNER else state.winner
        for n in path:
            n.visits += 1
            if n.player == winner:
                n.wins += 1.0

    # -- flee choices ----------------------------------------------------------------
    def choose_flee(self, obs: InfoSetObservation, action, choices, needs) -> tuple[int, dict]:
        """Where the frightened hunter ``needs.hunter`` (ours) flees, with each option's
        estimated win chance. ``obs`` is our view *before* ``action`` was played;
        ``choices`` the flee choices already made for it."""
        options = list(needs.options)
        if len(options) == 1:
            return options[0], {options[0]: None}
        rng = self.rng
        start, more = self._budget()
        me_seat = obs.position.players.index(obs.me)
        wins = {o: 0 for o in options}
        tries = {o: 0 for o in options}
        done = 0
        while more(done):
            option = options[done % len(options)]
            done += 1
            tries[option] += 1
            outcome = _complete(obs.position, action, tuple(choices) + ((needs.hunter, option),), rng,
                                obs.variants)
            if outcome.winner is not None:
                wins[option] += 1 if outcome.winner == obs.me else 0
                continue
            after = InfoSetObservation(outcome.position, obs.me, obs.hand, obs.discard, obs.hand_sizes,
                                       obs.variants)
            state = determinise(after, rng)
            # the mover spent a card: one of his cards in this deal stands for the one he drew
            if rollout(state, rng, self.level.rollout_turns) == me_seat:
                wins[option] += 1
        chances = {o: wins[o] / tries[o] if tries[o] else None for o in options}
        best = max(options, key=lambda o: -1 if chances[o] is None else chances[o])
        return best, chances


def _complete(position, action, choices, rng, variants: Variants):
    """Resolve ``action`` with ``choices``, further flee choices at random (hands unknown)."""
    pos = position.with_(hands=None)
    while True:
        outcome = apply_action(pos, action, choices, variants)
        if outcome.needs is None:
            return outcome
        choices = choices + ((outcome.needs.hunter, rng.choice(outcome.needs.options)),)


__all__ = ["Decision", "LEVELS", "Level", "InfoSetObservation", "SearchPlayer", "determinise", "observe"]

"""A playout kernel: whole random games on flat integer state, for bots and benchmarks.

It applies the same rules as :mod:`engine.rules` under the default variants, on lists
indexed by player and cell instead of immutable positions, with the flight direction of
every (cell, direction, card) precomputed per layout. ``tests/engine/test_fastplay.py``
plays the same random games through both and checks they agree turn by turn.

>>> import random
>>> result = play_random_game(random.Random(5), players=3)
>>> result.turns > 0 and (result.winner is not None or result.turns == 400)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .core import HAND_SIZE, MAMMOTH, TRAPS_PER_PLAYER
from .game import Game
from .hexgrid import NEIGHBOURS, NUM_CELLS, RAYS
from .rules import layout_of
from .variants import Variants

DEFAULT_VARIANTS = Variants()
#: (open ray lengths of a cell, card values bitmask) -> the moves, shared by every layout.
_MOVES: dict = {}
#: Card values bitmask (bit v set when a card of value v is in hand) -> sorted distinct values.
_VALUES = tuple(tuple(v for v in (1, 2, 3) if mask >> v & 1) for mask in range(16))


@dataclass
class PlayoutResult:
    winner: str | None
    turns: int
    mammoth: int
    hunters: dict
    traps: dict
    eliminated: tuple
    hands: dict


class Table:
    """Flat mutable state of one game for the kernel: lists indexed by seat and cell."""

    __slots__ = ("layout", "names", "at", "occ", "traps", "trap_count", "hands", "alive", "discard")

    def __init__(self, pos, discard=None):
        self.layout = layout_of(pos)
        self.names = pos.players
        n = len(self.names)
        self.at = [pos.hunters.get(p, -1) for p in self.names]   # cell of each living hunter, -1 if out
        self.occ = [0] * NUM_CELLS                                  # hunters per cell
        for c in self.at:
            if c >= 0:
                self.occ[c] += 1
        self.traps = [-1] * NUM_CELLS                               # owner seat per cell
        self.trap_count = [0] * n
        for c, owner in pos.traps.items():
            seat = self.names.index(owner)
            self.traps[c] = seat
            self.trap_count[seat] += 1
        self.hands = [list(pos.hands[p]) if pos.hands else [] for p in self.names]
        self.alive = sum(1 for c in self.at if c >= 0)
        self.discard = discard or (lambda cards: None)

    def eliminate(self, seat: int) -> None:
        self.occ[self.at[seat]] -= 1
        self.at[seat] = -1
        self.alive -= 1
        traps = self.traps
        for c in range(NUM_CELLS):
            if traps[c] == seat:
                traps[c] = -1
        self.trap_count[seat] = 0
        hand = self.hands[seat]
        self.hands[seat] = []
        self.discard(hand)

    def flight(self, origin: int, a: int, k: int, mover: int, choose) -> tuple[int, int]:
        """Resolve the mammoth's flight from ``origin`` (the mover standing there).

        Returns ``(mammoth cell, result)``: result -1 when the mammoth faced the mover
        (eliminated), -2 when it fled, or the seat of the trap's owner it fell to.
        ``choose(seat, options)`` picks a frightened hunter's cell when he has several.
        """
        layout = self.layout
        fd = layout.flight_direction(origin, a, k)
        if fd < 0:
            self.eliminate(mover)
            return origin, -1
        at, occ, traps, walkable = self.at, self.occ, self.traps, layout.walkable
        n = len(at)
        prev = mammoth = origin
        for mc in RAYS[origin][fd][:k]:
            mammoth = mc
            owner = traps[mc]
            if owner >= 0:
                return mammoth, owner
            if occ[mc]:
                for off in range(n):
                    j = (mover + off) % n
                    if at[j] != mc:
                        continue
                    options = [nb for nb in NEIGHBOURS[mc]
                               if nb is not None and nb != prev and walkable[nb] and not occ[nb]]
                    if not options:
                        self.eliminate(j)
                        continue
                    target = options[0] if len(options) == 1 else choose(j, options)
                    occ[mc] -= 1
                    occ[target] += 1
                    at[j] = target
            prev = mc
        return mammoth, -2


def play_random_game(rng: random.Random, players: int = 4, max_turns: int = 400) -> PlayoutResult:
    """Play one uniformly random game, consuming ``rng`` exactly as :func:`engine.playout.random_game`."""
    names = "ABCD"[:players]
    game = Game.new(names, seed=rng.randrange(2**31))
    for name in names:
        game.place_hunter(name, rng.choice(game.start_cells()))
    return _play(game, rng, max_turns)


def _play(game: Game, rng: random.Random, max_turns: int) -> PlayoutResult:
    pos = game.position
    layout = layout_of(pos)
    grass, open_len = layout.grass, layout.open_len
    survives = layout.survives
    deck = game.deck
    discard = deck.discard
    # the deck's piles are changed in place, so the kernel works on them directly with the
    # same reshuffle points as Deck.draw and Deck.discard
    pile, discarded, refill = deck.draw_pile, deck.discard_pile, deck._refill
    immediate = deck.reshuffle == "immediate"
    choice = rng.choice

    def flee_choice(seat, options):
        return choice(options)
    # rng.choice(seq) is rng._randbelow(len(seq)), which draws bit_length(n) random bits
    # until the value is below n: doing the same here consumes the generator exactly as
    # the reference engine's choice among its list of legal actions
    getrandbits = rng.getrandbits
    row_code = [sum(r << (2 * d) for d, r in enumerate(row)) for row in open_len]
    names = pos.players
    n = len(names)
    table = Table(pos, discard)
    at, occ, traps, trap_count, hands = table.at, table.occ, table.traps, table.trap_count, table.hands
    mammoth = pos.mammoth
    me = names.index(pos.to_move)
    winner = None
    turns = 0
    proven_at = mammoth
    safe_from_start = survives(mammoth)
    after = [(seat + 1) % n for seat in range(n)]

    while winner is None and turns < max_turns:
        cell = at[me]
        hand = hands[me]
        mask = 0
        for v in hand:
            mask |= 1 << v
        key = row_code[cell] << 4 | mask
        moves = _MOVES.get(key)
        if moves is None:
            row = open_len[cell]
            values = _VALUES[mask]
            moves = _MOVES[key] = [(d, k) for d in range(6) for k in values if k <= row[d]]
        alone = occ[cell] == 1
        can_place = grass[cell] and traps[cell] < 0 and alone and trap_count[me] < TRAPS_PER_PLAYER
        can_remove = traps[cell] >= 0 and alone
        passes = _VALUES[mask] or (0,)
        nm = len(moves)
        total = nm + can_place + can_remove + len(passes)
        bits = total.bit_length()
        i = getrandbits(bits)
        while i >= total:
            i = getrandbits(bits)
        if i < nm:
            kind = 0
            x, k = moves[i]
        else:
            i -= nm
            if can_place and i == 0:
                kind = 1
            elif can_remove and i == can_place:
                kind = 2
            else:
                kind = 3
                x = passes[i - can_place - can_remove]
        if kind == 0:
            hand.remove(k)
            discarded.append(k)
            if not pile and immediate:
                refill()
            path = RAYS[cell][x][:k]
            occ[cell] -= 1
            stop = path[-1]
            if mammoth in path:
                # the mover stands on the mammoth's cell while it flees; under the
                # defaults he cannot meet it again on the rest of his walk
                c = mammoth
                occ[c] += 1
                at[me] = c
                mammoth, result = table.flight(c, x, k, me, flee_choice)
                if result == -1:
                    stop = -1
                else:
                    occ[c] -= 1
                    if result >= 0:
                        winner = names[result]
                        stop = c
                if winner is None:
                    if table.alive == 0:
                        winner = MAMMOTH
                    elif mammoth != proven_at:
                        # the proof depends on the mammoth's cell only: ask again when it moved
                        proven_at = mammoth
                        if survives(mammoth):
                            winner = MAMMOTH
            if stop >= 0:
                at[me] = stop
                occ[stop] += 1
        elif kind == 1:
            traps[cell] = me
            trap_count[me] += 1
        elif kind == 2:
            owner = traps[cell]
            traps[cell] = -1
            trap_count[owner] -= 1
        elif x:
            hand.remove(x)
            discarded.append(x)
            if not pile and immediate:
                refill()
        if at[me] >= 0:
            while len(hand) < HAND_SIZE:
                if not pile:
                    if not discarded:
                        break
                    refill()
                hand.append(pile.pop())
                if not pile and immediate and discarded:
                    refill()
        turns += 1
        if safe_from_start and winner is None:
            winner = MAMMOTH  # the referee's proof ends the game after the first action
        j = after[me]
        while at[j] < 0 and j != me:
            j = after[j]
        me = j

    return PlayoutResult(
        winner, turns, mammoth,
        {names[j]: at[j] for j in range(n) if at[j] >= 0},
        {c: names[traps[c]] for c in range(NUM_CELLS) if traps[c] >= 0},
        tuple(p for p, c in zip(names, at) if c < 0),
        {names[j]: tuple(hands[j]) for j in range(n)},
    )

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
    walkable, grass, open_len = layout.walkable, layout.grass, layout.open_len
    flight_direction = layout.flight_direction
    survives = layout.survives
    moves_by_hand = layout.moves_by_hand
    deck = game.deck
    draw, discard = deck.draw, deck.discard
    choice = rng.choice
    # rng.choice(seq) is rng._randbelow(len(seq)): drawing the index directly consumes the
    # generator exactly as the reference engine's choice among its list of legal actions
    randbelow = rng._randbelow
    names = pos.players
    n = len(names)
    at = [pos.hunters.get(p, -1) for p in names]          # cell of each living hunter, -1 if out
    occ = [0] * NUM_CELLS                                   # hunters per cell
    for c in at:
        if c >= 0:
            occ[c] += 1
    traps = [-1] * NUM_CELLS                                # owner index per cell
    trap_count = [0] * n
    hands = [list(pos.hands[p]) for p in names]
    mammoth = pos.mammoth
    me = names.index(pos.to_move)
    alive = n
    winner = None
    turns = 0

    def eliminate(j):
        nonlocal alive
        occ[at[j]] -= 1
        at[j] = -1
        alive -= 1
        for c in range(NUM_CELLS):
            if traps[c] == j:
                traps[c] = -1
        trap_count[j] = 0
        hand = hands[j]
        hands[j] = []
        discard(hand)

    while winner is None and turns < max_turns:
        cell = at[me]
        hand = hands[me]
        mask = 0
        for v in hand:
            mask |= 1 << v
        key = cell << 4 | mask
        moves = moves_by_hand.get(key)
        if moves is None:
            row = open_len[cell]
            values = _VALUES[mask]
            moves = moves_by_hand[key] = tuple((d, k) for d in range(6) for k in values if k <= row[d])
        alone = occ[cell] == 1
        can_place = grass[cell] and traps[cell] < 0 and alone and trap_count[me] < TRAPS_PER_PLAYER
        can_remove = traps[cell] >= 0 and alone
        passes = _VALUES[mask] or (0,)
        nm = len(moves)
        i = randbelow(nm + can_place + can_remove + len(passes))
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
            discard([k])
            d = x
            path = RAYS[cell][d][:k]
            occ[cell] -= 1
            stop = path[-1]
            for step, c in enumerate(path):
                if c != mammoth:
                    continue
                # the mover stands on the mammoth's cell while it flees
                origin = c
                fd = flight_direction(origin, d, k)
                if fd < 0:
                    occ[origin] += 1
                    at[me] = origin
                    eliminate(me)
                    stop = -1
                    break
                prev = origin
                for mc in RAYS[origin][fd][:k]:
                    mammoth = mc
                    owner = traps[mc]
                    if owner >= 0:
                        winner = names[owner]
                        stop = origin
                        break
                    if occ[mc]:
                        for off in range(n):
                            j = (me + off) % n
                            if at[j] != mc:
                                continue
                            options = [nb for nb in NEIGHBOURS[mc]
                                       if nb is not None and nb != prev and walkable[nb] and not occ[nb]]
                            if not options:
                                eliminate(j)
                                continue
                            target = options[0] if len(options) == 1 else choice(options)
                            occ[mc] -= 1
                            occ[target] += 1
                            at[j] = target
                    prev = mc
                break  # under the defaults the mover cannot meet the mammoth again
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
            discard([x])
        if at[me] >= 0:
            while len(hand) < HAND_SIZE:
                card = draw()
                if card is None:
                    break
                hand.append(card)
        turns += 1
        if winner is None:
            if alive == 0:
                winner = MAMMOTH
            elif survives(mammoth):
                winner = MAMMOTH
        for step in range(1, n + 1):
            j = (me + step) % n
            if at[j] >= 0:
                me = j
                break

    return PlayoutResult(
        winner, turns, mammoth,
        {names[j]: at[j] for j in range(n) if at[j] >= 0},
        {c: names[traps[c]] for c in range(NUM_CELLS) if traps[c] >= 0},
        tuple(p for p, c in zip(names, at) if c < 0),
        {names[j]: tuple(hands[j]) for j in range(n)},
    )

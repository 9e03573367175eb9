"""A mutable game state for search: one determinised deal on the playout kernel's tables.

It plays the rules of :mod:`engine.fastplay` (default variants) one chosen action at a
time, so that a tree search can step through it and copy it cheaply. Actions are small
integers (see :func:`code_of`); frightened hunters flee where ``flee(state, seat,
options)`` says (a random one by default).

>>> import random
>>> from engine.game import Game
>>> game = Game.new("AB", seed=4)
>>> for p in "AB":
...     game.place_hunter(p, game.start_cells()[0 if p == "A" else -1])
>>> state = FastState.from_position(game.position, game.position.hands, list(game.deck.draw_pile))
>>> {action_of(game.position, c) for c in state.legal()} == set(game.legal_actions())
True
"""

from __future__ import annotations

import random

from engine.core import HAND_SIZE, TRAPS_PER_PLAYER, Move, Pass, PlaceTrap, RemoveTrap
from engine.hexgrid import DIRECTION_INDEX, DIRECTIONS, NUM_CELLS, RAYS
from engine.fastplay import Table
from engine.rules import layout_of

#: Action codes: a move is ``d * 4 + k`` (direction 0-5, distance 1-3); then these.
PLACE, REMOVE, PASS0 = 24, 25, 26  # pass with card v is PASS0 + v (v = 0: no card)
NO_WINNER, MAMMOTH_WINS = -1, -2


def code_of(action) -> int:
    if isinstance(action, Move):
        return DIRECTION_INDEX[action.direction] * 4 + action.distance
    if isinstance(action, PlaceTrap):
        return PLACE
    if isinstance(action, RemoveTrap):
        return REMOVE
    return PASS0 + (action.card or 0)


def action_of(position, code: int):
    """The engine's action for ``code``, played by the player to move in ``position``."""
    player = position.to_move
    if code < PLACE:
        return Move(player, DIRECTIONS[code // 4], code % 4)
    if code == PLACE:
        return PlaceTrap(player)
    if code == REMOVE:
        return RemoveTrap(player)
    card = code - PASS0
    return Pass(player, card or None) if position.hands is not None else Pass(player)


def _random_flee(state, seat, options):
    return state.rng.choice(options)


class FastState(Table):
    """Flat state of one game (see the module docstring); seats index ``names``.

    The kernel's :class:`engine.fastplay.Table` with a deck, the seat to move and the
    result, so that eliminations and flights are the kernel's own."""

    __slots__ = ("n", "pile", "disc", "me", "mammoth", "winner", "turns", "rng", "flee", "proven_at")

    def copy(self) -> "FastState":
        s = FastState.__new__(FastState)
        s.layout, s.names, s.n = self.layout, self.names, self.n
        s.at, s.occ, s.traps = self.at[:], self.occ[:], self.traps[:]
        s.trap_count = self.trap_count[:]
        s.hands = [h[:] for h in self.hands]
        s.alive, s.pile, s.disc = self.alive, self.pile[:], self.disc[:]
        s.me, s.mammoth, s.winner, s.turns = self.me, self.mammoth, self.winner, self.turns
        s.rng, s.flee, s.proven_at = self.rng, self.flee, self.proven_at
        return s

    @classmethod
    def from_position(cls, pos, hands: dict, pile: list, discard=(), rng=None, flee=None) -> "FastState":
        """``hands`` complete (one determinisation); ``pile`` the draw pile, top last."""
        s = cls.__new__(cls)
        s.layout = layout_of(pos)
        s.names = pos.players
        s.n = n = len(s.names)
        s.at = [pos.hunters.get(p, -1) for p in s.names]
        s.occ = [0] * NUM_CELLS
        for c in s.at:
            if c >= 0:
                s.occ[c] += 1
        s.traps = [-1] * NUM_CELLS
        s.trap_count = [0] * n
        for c, owner in pos.traps.items():
            seat = s.names.index(owner)
            s.traps[c] = seat
            s.trap_count[seat] += 1
        s.hands = [list(hands.get(p, ())) if s.at[i] >= 0 else [] for i, p in enumerate(s.names)]
        s.alive = sum(1 for c in s.at if c >= 0)
        s.pile, s.disc = list(pile), list(discard)
        s.me = s.names.index(pos.to_move)
        s.mammoth = pos.mammoth
        s.winner = NO_WINNER
        s.turns = 0
        s.rng = rng or random.Random()
        s.flee = flee or _random_flee
        s.proven_at = pos.mammoth
        return s

    # -- rules -------------------------------------------------------------------
    def legal(self) -> list[int]:
        me = self.me
        cell = self.at[me]
        layout = self.layout
        row = layout.open_len[cell]
        values = sorted(set(self.hands[me]))
        out = [d * 4 + k for d in range(6) for k in values if k <= row[d]]
        alone = self.occ[cell] == 1
        if layout.grass[cell] and self.traps[cell] < 0 and alone and self.trap_count[me] < TRAPS_PER_PLAYER:
            out.append(PLACE)
        if self.traps[cell] >= 0 and alone:
            out.append(REMOVE)
        if values:
            out.extend(PASS0 + v for v in values)
        else:
            out.append(PASS0)
        return out

    def push_result(self, code: int) -> int:
        """Without playing it: the seat that wins by this move (a trap in the flight),
        -3 when the mover would be eliminated facing the mammoth, else ``NO_WINNER``."""
        if code >= PLACE:
            return NO_WINNER
        d, k = divmod(code, 4)
        cell = self.at[self.me]
        m = self.mammoth
        if m not in RAYS[cell][d][:k]:
            return NO_WINNER
        fd = self.layout.flight_direction(m, d, k)
        if fd < 0:
            return -3
        traps = self.traps
        for c in RAYS[m][fd][:k]:
            if traps[c] >= 0:
                return traps[c]
        return NO_WINNER

    def discard(self, cards) -> None:  # the kernel discards through this
        self.disc.extend(cards)
        if not self.pile and self.disc:
            self._refill()

    def _refill(self) -> None:
        self.pile[:] = self.disc
        self.disc.clear()
        self.rng.shuffle(self.pile)

    def _flight(self, origin: int, a: int, k: int) -> int:
        self.mammoth, result = self.flight(origin, a, k, self.me, self._choose_flee)
        return result

    def _choose_flee(self, seat: int, options: list) -> int:
        return self.flee(self, seat, options)

    def play(self, code: int) -> None:
        """Play ``code`` for the seat to move, draw, and pass the turn on."""
        me = self.me
        at, occ = self.at, self.occ
        cell = at[me]
        hand = self.hands[me]
        if code < PLACE:
            d, k = divmod(code, 4)
            hand.remove(k)
            self.discard((k,))
            path = RAYS[cell][d][:k]
            occ[cell] -= 1
            stop = path[-1]
            m = self.mammoth
            if m in path:
                occ[m] += 1
                at[me] = m
                result = self._flight(m, d, k)
                if result == -1:
                    stop = -1
                else:
                    occ[m] -= 1
                    if result >= 0:
                        self.winner = result
                        stop = m
                if self.winner == NO_WINNER:
                    if self.alive == 0:
                        self.winner = MAMMOTH_WINS
                    elif self.mammoth != self.proven_at:
                        self.proven_at = self.mammoth
                        if self.layout.survives(self.mammoth):
                            self.winner = MAMMOTH_WINS
            if stop >= 0:
                at[me] = stop
                occ[stop] += 1
        elif code == PLACE:
            self.traps[cell] = me
            self.trap_count[me] += 1
        elif code == REMOVE:
            owner = self.traps[cell]
            self.traps[cell] = -1
            self.trap_count[owner] -= 1
        elif code > PASS0:
            hand.remove(code - PASS0)
            self.discard((code - PASS0,))
        if at[me] >= 0:
            pile = self.pile
            while len(hand) < HAND_SIZE:
                if not pile:
                    if not self.disc:
                        break
                    self._refill()
                hand.append(pile.pop())
                if not pile and self.disc:
                    self._refill()
        self.turns += 1
        if self.winner == NO_WINNER and self.alive:
            n = self.n
            j = (me + 1) % n
            while at[j] < 0:
                j = (j + 1) % n
            self.me = j

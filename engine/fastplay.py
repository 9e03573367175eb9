"""The playout kernel: the rules on flat integer state, one action at a time, for
the AI's search and playouts, random games and benchmarks.

It applies the same rules as the referee (:mod:`engine.rules`), under every variant of
:mod:`engine.variants`, on lists indexed by seat and cell instead of immutable
positions, with the flight direction of every (cell, direction, card) taken from the
layout tables. It emits no events and explains nothing: that is the referee's work.
``tests/engine/test_fastplay.py`` plays the same random games through both, under
every reading of every variant, and compares the legal actions, the flee questions,
the events' outcome, the position, the hands and the deck after every action.

Actions are small integers: a move is ``d * 4 + k`` (direction 0-5, distance 1-3),
then :data:`PLACE`, :data:`REMOVE` and ``PASS0 + v`` (a pass discarding a card of
value ``v``, 0 for none); :func:`code_of` and :func:`action_of` translate.

>>> import random
>>> result = play_random_game(random.Random(5), players=3)
>>> result.turns > 0 and (result.winner is not None or result.turns == 400)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import CARD_VALUES
from .core import HAND_SIZE, MAMMOTH, TRAPS_PER_PLAYER, Move, Pass, PlaceTrap, RemoveTrap
from .game import Game
from .hexgrid import DIRECTION_INDEX, DIRECTIONS, NEIGHBOURS, NUM_CELLS, RAYS
from .rules import FLIGHT_TURNS, layout_of
from .variants import DEFAULT, Variants

PLACE, REMOVE, PASS0 = 24, 25, 26
#: ``PlayoutState.winner`` while nobody has won, and when the mammoth has.
NO_WINNER, MAMMOTH_WINS = -1, -2
#: What :meth:`PlayoutState.push_result` answers when the mover would face the mammoth.
MOVER_FACES = -3

#: ``flee_target`` readings, as the kernel stores them.
_FLEE_TARGETS = {"unoccupied": 0, "accessible": 1, "empty": 2}
#: Card values bitmask (bit v set when a card of value v is in hand) -> sorted distinct values.
_VALUES = tuple(tuple(v for v in CARD_VALUES if mask >> v & 1) for mask in range(1 << (max(CARD_VALUES) + 1)))
#: A cell's open ray lengths (the layout's ``ray_codes``) and cards in hand (bitmask) ->
#: the legal codes when a trap may be set or taken up, (neither, take, set, both); shared
#: by every layout and every state.
_LEGAL: dict = {}


def code_of(action) -> int:
    """The kernel's code of an engine action.

    >>> code_of(Move("A", "SE", 2)), code_of(PlaceTrap("A")), code_of(Pass("A", 3))
    (6, 24, 29)
    """
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


def _legal_codes(reach, values, place: bool, remove: bool) -> list[int]:
    """Moves the open ray lengths ``reach`` allow with these card values, then the traps, then the passes."""
    codes = [d * 4 + k for d in range(6) for k in values if k <= reach[d]]
    if place:
        codes.append(PLACE)
    if remove:
        codes.append(REMOVE)
    codes.extend(PASS0 + v for v in values or (0,))
    return codes


def _random_flee(state: "PlayoutState", seat: int, options: list) -> int:
    return state.rng.choice(options)


class PlayoutState:
    """One game's mutable state: seats index ``names``, cells index the board.

    ``at[seat]`` is a hunter's cell (-1 once out), ``occ[cell]`` the hunters on it,
    ``traps[cell]`` the owner's seat (-1: none); ``pile`` (top last) and ``disc`` are
    the deck, reshuffled with ``rng``; ``flee(state, seat, options)`` picks a
    frightened hunter's cell when he has more than one. The variants are flags read
    where each rule applies.
    """

    __slots__ = ("layout", "names", "n", "at", "occ", "traps", "trap_count", "hands", "alive",
                 "pile", "disc", "immediate", "rng", "flee", "me", "mammoth", "winner", "turns",
                 "proven_at", "quiet", "eventful", "recover_alone", "flee_target", "traps_stay", "inert",
                 "truncate", "trigger_anywhere", "steps_walked", "stall_limit", "ray_code")

    @classmethod
    def from_position(cls, pos, hands: dict, pile, discard=(), rng=None, flee=None,
                      variants: Variants = DEFAULT) -> "PlayoutState":
        """``hands`` complete (one deal); ``pile`` the draw pile, top last (both piles copied)."""
        s = cls.__new__(cls)
        s.layout = layout = layout_of(pos)
        s.ray_code = layout.ray_codes
        s.names = names = pos.players
        s.n = n = len(names)
        s.at = at = [pos.hunters.get(p, -1) for p in names]
        s.occ = occ = [0] * NUM_CELLS
        for c in at:
            if c >= 0:
                occ[c] += 1
        s.traps = [-1] * NUM_CELLS
        s.trap_count = [0] * n
        for c, owner in pos.traps.items():
            seat = names.index(owner)
            s.traps[c] = seat
            s.trap_count[seat] += 1
        s.hands = [list(hands.get(p, ())) if at[i] >= 0 else [] for i, p in enumerate(names)]
        s.alive = sum(1 for c in at if c >= 0)
        s.pile, s.disc = list(pile), list(discard)
        s.immediate = variants.reshuffle == "immediate"
        s.recover_alone = variants.alone_required_for_recover
        s.flee_target = _FLEE_TARGETS[variants.flee_target]
        s.traps_stay = variants.eliminated_traps != "remove"
        s.inert = variants.eliminated_traps == "keep_inert"
        s.truncate = variants.trap_truncates_path_check
        s.trigger_anywhere = variants.trigger_on_pass_through
        s.steps_walked = variants.flight_distance == "steps_walked"
        s.stall_limit = variants.stall_limit
        s.quiet = pos.quiet_turns
        s.eventful = False
        s.rng = rng or random.Random()
        s.flee = flee or _random_flee
        s.me = names.index(pos.to_move)
        s.mammoth = pos.mammoth
        s.winner = NO_WINNER
        s.turns = 0
        s.proven_at = -1  # the referee's proof is asked after the first action, then whenever the mammoth moves
        return s

    def copy(self) -> "PlayoutState":
        s = PlayoutState.__new__(PlayoutState)
        s.layout, s.ray_code, s.names, s.n = self.layout, self.ray_code, self.names, self.n
        s.at, s.occ, s.traps = self.at[:], self.occ[:], self.traps[:]
        s.trap_count = self.trap_count[:]
        s.hands = [h[:] for h in self.hands]
        s.alive, s.pile, s.disc, s.immediate = self.alive, self.pile[:], self.disc[:], self.immediate
        s.me, s.mammoth, s.winner, s.turns = self.me, self.mammoth, self.winner, self.turns
        s.rng, s.flee, s.proven_at = self.rng, self.flee, self.proven_at
        s.quiet, s.eventful, s.recover_alone, s.flee_target = self.quiet, False, self.recover_alone, self.flee_target
        s.traps_stay, s.inert, s.truncate = self.traps_stay, self.inert, self.truncate
        s.trigger_anywhere, s.steps_walked, s.stall_limit = self.trigger_anywhere, self.steps_walked, self.stall_limit
        return s

    # -- the rules ---------------------------------------------------------------------
    def legal(self) -> list[int]:
        """The codes of :func:`engine.rules.legal_actions`, in the same order (a shared
        list: read it, never change it)."""
        me = self.me
        cell = self.at[me]
        mask = 0
        for v in self.hands[me]:
            mask |= 1 << v
        # RULINGS "Traps": set on grass, alone, with one left in supply; taken up when alone
        # (variant alone_required_for_recover)
        alone = self.occ[cell] == 1
        trap_here = self.traps[cell] >= 0
        place = self.layout.grass[cell] and not trap_here and alone and self.trap_count[me] < TRAPS_PER_PLAYER
        remove = trap_here and (alone or not self.recover_alone)
        key = self.ray_code[cell] << 4 | mask
        cases = _LEGAL.get(key)
        if cases is None:
            cases = _LEGAL[key] = [None, None, None, None]
        case = place << 1 | remove
        codes = cases[case]
        if codes is None:
            codes = cases[case] = _legal_codes(self.layout.open_len[cell], _VALUES[mask], place, remove)
        return codes

    def push_result(self, code: int) -> int:
        """Without playing it: the seat that wins by this move (a trap in the flight),
        :data:`MOVER_FACES` when the mover would be eliminated facing the mammoth, else
        :data:`NO_WINNER`."""
        if code >= PLACE:
            return NO_WINNER
        d, k = divmod(code, 4)
        m = self.mammoth
        path = RAYS[self.at[self.me]][d][:k]
        if m not in path:
            return NO_WINNER
        step = path.index(m)
        if not self.trigger_anywhere and step != k - 1:
            return NO_WINNER
        flee_k = step + 1 if self.steps_walked else k
        fd = self.direction(m, d, flee_k)
        if fd < 0:
            return MOVER_FACES
        for c in RAYS[m][fd][:flee_k]:
            owner = self.live_trap_owner(c)
            if owner >= 0:
                return owner
        return NO_WINNER

    def play(self, code: int) -> None:
        """Play ``code`` for the seat to move, draw, and pass the turn on."""
        me = self.me
        at = self.at
        cell = at[me]
        hand = self.hands[me]
        self.eventful = code == PLACE or code == REMOVE
        if code < PLACE:
            d, k = divmod(code, 4)
            hand.remove(k)
            self.disc.append(k)
            if not self.pile and self.immediate:
                self._refill()
            path = RAYS[cell][d][:k]
            occ = self.occ
            occ[cell] -= 1
            # the mammoth moves only when met, so a walk that misses it is just a walk
            stop = self._walk(path, d, k) if self.mammoth in path else path[-1]
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
        # then the game's end (RULINGS "the end"), the mover's draw, the next player
        limit = self.stall_limit
        if limit is not None:
            self.quiet = 0 if self.eventful else self.quiet + 1
        if at[me] >= 0 and len(hand) < HAND_SIZE:
            pile = self.pile
            if len(pile) > 1 and len(hand) == HAND_SIZE - 1:
                hand.append(pile.pop())  # the usual draw: one card, the pile not emptied
            else:
                self._draw(hand)
        self.turns += 1
        if self.winner != NO_WINNER:
            return
        mammoth = self.mammoth
        if mammoth != self.proven_at:
            # the proof depends on the mammoth's cell only
            self.proven_at = mammoth
            if self.layout.survives(mammoth):
                self.winner = MAMMOTH_WINS
                return
        if self.alive == 0 or (limit is not None and self.quiet >= limit):
            self.winner = MAMMOTH_WINS  # no hunter left, or variant stall_limit
            return
        n = self.n
        j = (me + 1) % n
        while at[j] < 0:
            j = (j + 1) % n
        self.me = j

    def _walk(self, path, d: int, k: int) -> int:
        """The mover walks ``path``, which crosses the mammoth (RULINGS flight 1): where he
        meets it sets it off (on his last step only, variant trigger_on_pass_through), for
        the card's distance (variant flight_distance); he stands on its cell while it
        flees. Returns where he stops (-1: eliminated)."""
        at, occ, me = self.at, self.occ, self.me
        for step, c in enumerate(path):
            if c == self.mammoth and (self.trigger_anywhere or step == k - 1):
                occ[c] += 1
                at[me] = c
                result = self.flight(c, d, step + 1 if self.steps_walked else k)
                if result == -1:
                    return -1
                occ[c] -= 1
                if result >= 0:
                    self.winner = result
                    return c
        return path[-1]

    def live_trap_owner(self, cell: int) -> int:
        """The seat whose trap on ``cell`` can catch the mammoth, or -1 (variant eliminated_traps)."""
        owner = self.traps[cell]
        if owner >= 0 and self.inert and self.at[owner] < 0:
            return -1
        return owner

    def direction(self, origin: int, a: int, k: int) -> int:
        """Where a flight of ``k`` from ``origin`` goes (RULINGS flight 2), or -1 when it
        faces the hunter; variant trap_truncates_path_check stops the check at a trap."""
        if not self.truncate:
            return self.layout.flight_direction(origin, a, k)
        return self._truncated_direction(origin, a, k)

    def _truncated_direction(self, origin: int, a: int, k: int) -> int:
        """:meth:`direction` under trap_truncates_path_check: the mammoth falls in before
        meeting what lies beyond a trap."""
        walkable = self.layout.walkable
        for turn in FLIGHT_TURNS:
            d = (a + turn) % 6
            ray = RAYS[origin][d]
            for step in range(k):
                if step >= len(ray):
                    break  # the edge
                c = ray[step]
                if self.live_trap_owner(c) >= 0:
                    return d  # it falls in before meeting what lies beyond
                if not walkable[c]:
                    break
            else:
                return d
        return -1

    def flee_options(self, cell: int, came_from: int) -> list:
        """Where a hunter frightened on ``cell`` may flee (RULINGS flight 5, variant flee_target)."""
        occ, walkable, target = self.occ, self.layout.walkable, self.flee_target
        if target == 0:
            return [nb for nb in NEIGHBOURS[cell] if nb is not None and nb != came_from and walkable[nb]
                    and not occ[nb]]
        if target == 1:
            return [nb for nb in NEIGHBOURS[cell] if nb is not None and nb != came_from and walkable[nb]]
        traps = self.traps
        return [nb for nb in NEIGHBOURS[cell] if nb is not None and nb != came_from and walkable[nb]
                and not occ[nb] and traps[nb] < 0]

    def flight(self, origin: int, a: int, k: int) -> int:
        """The mammoth flees from ``origin``, where the mover stands (RULINGS flight 2-5).

        Returns -1 when it faced the mover (eliminated), -2 when it fled, or the seat
        of the trap's owner it fell to; ``mammoth`` is where it stopped.
        """
        mover = self.me
        fd = self.layout.flight_direction(origin, a, k) if not self.truncate else self._truncated_direction(origin, a, k)
        if fd < 0:
            self.eliminate(mover)
            return -1
        self.eventful = True
        at, occ, traps, inert = self.at, self.occ, self.traps, self.inert
        n = self.n
        prev = origin
        path = RAYS[origin][fd][:k]
        stop = -1  # a trap ahead whose owner went out during this flight: it still ends there
        for mc in path:
            self.mammoth = mc
            owner = traps[mc]
            if owner >= 0 and not (inert and at[owner] < 0):
                return owner
            if occ[mc]:
                for off in range(n):  # in turn order from the mover
                    j = (mover + off) % n
                    if at[j] != mc:
                        continue
                    options = self.flee_options(mc, prev)
                    if not options:
                        if stop < 0:
                            stop = self._trap_ahead(path, mc)
                        self.eliminate(j)
                        continue
                    target = options[0] if len(options) == 1 else self.flee(self, j, options)
                    occ[mc] -= 1
                    occ[target] += 1
                    at[j] = target
            if mc == stop:
                break
            prev = mc
        return -2

    def _trap_ahead(self, path, cell: int) -> int:
        """The first cell after ``cell`` on the flight's ``path`` holding a live trap, or -1."""
        for c in path[path.index(cell) + 1:]:
            if self.live_trap_owner(c) >= 0:
                return c
        return -1

    def eliminate(self, seat: int) -> None:
        """Out of the game: his hand is discarded, his traps go (variant eliminated_traps)."""
        self.occ[self.at[seat]] -= 1
        self.at[seat] = -1
        self.alive -= 1
        if not self.traps_stay:
            traps = self.traps
            for c in range(NUM_CELLS):
                if traps[c] == seat:
                    traps[c] = -1
            self.trap_count[seat] = 0
        hand = self.hands[seat]
        self.hands[seat] = []
        self.discard(hand)

    # -- the deck, as engine.cards.Deck ------------------------------------------------
    def discard(self, cards) -> None:
        self.disc.extend(cards)
        if not self.pile and self.immediate and self.disc:
            self._refill()

    def _draw(self, hand: list) -> None:
        pile = self.pile
        while len(hand) < HAND_SIZE:
            if not pile:
                if not self.disc:
                    break
                self._refill()
            hand.append(pile.pop())
            if not pile and self.immediate and self.disc:
                self._refill()

    def _refill(self) -> None:
        self.pile[:] = self.disc
        self.disc.clear()
        self.rng.shuffle(self.pile)

    def winner_name(self) -> str | None:
        if self.winner == NO_WINNER:
            return None
        return MAMMOTH if self.winner == MAMMOTH_WINS else self.names[self.winner]


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
    deck = game.deck
    pos = game.position
    state = PlayoutState.from_position(pos, pos.hands, (), (), deck.rng,
                                      lambda _state, _seat, options: rng.choice(options), game.variants)
    state.pile, state.disc = deck.draw_pile, deck.discard_pile  # played on the game's own deck
    # the same draws as the referee's random game: one choice among the legal actions, in
    # the same order (rng.choice(seq) draws bit_length(len(seq)) random bits until they
    # name an element), then one among a frightened hunter's options
    getrandbits = rng.getrandbits
    legal, play = state.legal, state.play
    while state.winner == NO_WINNER and state.turns < max_turns:
        codes = legal()
        count = len(codes)
        bits = count.bit_length()
        i = getrandbits(bits)
        while i >= count:
            i = getrandbits(bits)
        play(codes[i])
    at, traps, n = state.at, state.traps, state.n
    return PlayoutResult(
        state.winner_name(), state.turns, state.mammoth,
        {names[j]: at[j] for j in range(n) if at[j] >= 0},
        {c: names[traps[c]] for c in range(NUM_CELLS) if traps[c] >= 0},
        tuple(p for p, c in zip(names, at) if c < 0),
        {names[j]: tuple(state.hands[j]) for j in range(n)},
    )

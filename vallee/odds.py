"""Exact odds of a fight (rules §5) as a small Markov chain in rational arithmetic.

Each roll, every side throws a d6 and adds its bonus; equal totals roll again; the lower
total loses one pawn; bonuses are recounted after every loss (gap V44). A side's state is
a tuple of counts (warriors, women…); it is out when every count is 0.

>>> decisive(1)
(Fraction(21, 31), Fraction(5, 36))
>>> [str(decisive(k)[0]) for k in range(6)]
['1/2', '21/31', '13/16', '10/11', '33/34', '1']
>>> d = duel((1,), (1,), lambda s: s[0], lambda s: s[0], lambda s: (s[0] - 1,), lambda s: (s[0] - 1,))
>>> d.win, d.expected_rolls
(Fraction(1, 2), Fraction(6, 5))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product


@lru_cache(maxsize=None)
def decisive(k: int) -> tuple[Fraction, Fraction]:
    """For a bonus lead of ``k`` (may be negative): the chance to win a roll that is not a
    tie, and the chance that a roll is a tie."""
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a + k > b)
    ties = sum(1 for a in range(1, 7) for b in range(1, 7) if a + k == b)
    if ties == 36:
        raise ValueError("a roll cannot always tie")
    return Fraction(wins, 36 - ties), Fraction(ties, 36)


def alive(state: tuple) -> bool:
    return any(state)


def _spread(start, successors):
    """Push the chance of ``start`` through a chain whose every step removes a pawn.

    ``successors(state)`` gives ``(tie chance, [(weight, next state), …])``, or None when
    the state ends the fight. Returns the chance of each end state and the expected
    number of rolls (ties included). States are visited by decreasing pawn count, so each
    one has all its chance when it is expanded.
    """
    mass = {start: Fraction(1)}
    buckets: dict[int, list] = {sum(map(sum, start)): [start]}
    ends: dict = {}
    rolls = Fraction(0)
    for total in range(sum(map(sum, start)), -1, -1):
        for state in buckets.pop(total, ()):
            here = mass.pop(state)
            step = successors(state)
            if step is None:
                ends[state] = ends.get(state, 0) + here
                continue
            tie, moves = step
            rolls += here / (1 - tie)
            for weight, nxt in moves:
                if nxt not in mass:
                    mass[nxt] = Fraction(0)
                    buckets.setdefault(sum(map(sum, nxt)), []).append(nxt)
                mass[nxt] += here * weight
    return ends, rolls


@dataclass(frozen=True)
class Duel:
    win: Fraction              # chance that side A is left standing
    ends: dict                 # (state A, state B) at the end → chance
    expected_rolls: Fraction   # dice rolls thrown on average, re-rolled ties included


def duel(a, b, bonus_a, bonus_b, lose_a, lose_b) -> Duel:
    """Two sides fight to the end. ``bonus_x(state)`` is the side's bonus in that state;
    ``lose_x(state)`` the state after it loses a pawn (the owner's choice, as a policy)."""

    def successors(pair):
        sa, sb = pair
        if not alive(sa) or not alive(sb):
            return None
        p, tie = decisive(bonus_a(sa) - bonus_b(sb))
        moves = [(w, nxt) for w, nxt in ((p, (sa, tuple(lose_b(sb)))), (1 - p, (tuple(lose_a(sa)), sb))) if w]
        return tie, moves

    ends, rolls = _spread((tuple(a), tuple(b)), successors)
    return Duel(sum((q for (ea, _), q in ends.items() if alive(ea)), Fraction(0)), ends, rolls)


@lru_cache(maxsize=None)
def _melee_roll(relative: tuple[int, ...]):
    """For bonuses relative to the lowest: the tie chance and, for a roll that is not an
    all-equal tie, the chance of each set of losers (everyone below the top, gap V47)."""
    counts: dict[frozenset, int] = {}
    ties = 0
    for dice in product(range(1, 7), repeat=len(relative)):
        totals = [d + b for d, b in zip(dice, relative)]
        top = max(totals)
        losers = frozenset(i for i, t in enumerate(totals) if t < top)
        if losers:
            counts[losers] = counts.get(losers, 0) + 1
        else:
            ties += 1
    decided = 6 ** len(relative) - ties
    chances = tuple((who, Fraction(n, decided)) for who, n in sorted(counts.items(), key=lambda kv: sorted(kv[0])))
    return Fraction(ties, 6 ** len(relative)), chances


def melee_roll(bonuses: tuple[int, ...]):
    low = min(bonuses)
    return _melee_roll(tuple(b - low for b in bonuses))


@dataclass(frozen=True)
class Melee:
    ends: dict                # tuple of pawns per tribe at the end → chance (one tribe left)
    expected_rolls: Fraction


def melee(pawns: tuple[int, ...], fixed: tuple[int, ...], per_pawn: int = 1) -> Melee:
    """Several tribes' pawns fight all at once until one tribe is left; a tribe's bonus is
    ``per_pawn`` × its pawns + its ``fixed`` bonus; each loser loses one pawn per roll.

    >>> m = melee((1, 1, 1), (0, 0, 0))
    >>> sorted(m.ends.values()) == [Fraction(1, 3)] * 3
    True
    """

    def successors(wrapped):
        state = wrapped[0]
        fighting = [i for i, n in enumerate(state) if n]
        if len(fighting) <= 1:
            return None
        tie, chances = melee_roll(tuple(per_pawn * state[i] + fixed[i] for i in fighting))
        moves = []
        for losers, weight in chances:
            nxt = list(state)
            for k in losers:
                nxt[fighting[k]] -= 1
            moves.append((weight, (tuple(nxt),)))
        return tie, moves

    ends, rolls = _spread((tuple(pawns),), successors)
    return Melee({state[0]: q for state, q in ends.items()}, rolls)

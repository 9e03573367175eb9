"""Who plays first this turn (rules §4) and who has won at the end of it (rules §10).

First player: on the first turn, the player who set up his camp first; later, the most
camps, then the most pawns, then the most food, then a draw among those still tied. The
order is worked out once, before the tribes move, and kept for the rest of the turn (gap
V5); play then goes clockwise.

Victory, checked at the end of each turn: a tribe with at least four camps announces it
(V71); if it still has four at the end of the next turn, it wins (with the fire rules it
must hold fire at both checks, V72). Several winners at once: the most camps, then the
first-player order (V73; variant ``simultaneous_win: shared``). No human left: everyone
has lost. One tribe left once no return is possible: it wins (V74; variant
``last_tribe_wins: false``).

>>> seats = ("Ana", "Bo", "Cy")
>>> first_player(seats, {"Ana": Standing(2, 7, 3), "Bo": Standing(2, 7, 5), "Cy": Standing(1, 9, 9)}, 4).order
('Bo', 'Cy', 'Ana')
>>> first_player(seats, {"Ana": Standing(2, 7, 3), "Bo": Standing(2, 7, 3), "Cy": Standing(1, 9, 9)}, 4).tied
('Ana', 'Bo')
"""

from __future__ import annotations

from dataclasses import dataclass

from .variants import DEFAULT, Variants


@dataclass(frozen=True)
class Standing:
    camps: int
    pawns: int        # warriors and women on the board
    food: int
    fire: bool = False


@dataclass(frozen=True)
class FirstPlayer:
    order: tuple[str, ...]   # seats clockwise from the first player; () while a draw is awaited
    decided_by: str          # setup, camps, pawns, food or draw
    tied: tuple[str, ...]    # the players a draw must choose between, when it is awaited


def clockwise_from(seats, first: str) -> tuple[str, ...]:
    i = seats.index(first)
    return tuple(seats[i:]) + tuple(seats[:i])


def first_player(seats, standings: dict, turn: int, setup_first: str | None = None,
                 drawn: str | None = None) -> FirstPlayer:
    """``seats``: players still in play, clockwise; ``drawn``: the winner of a draw, if held."""
    if turn == 1:
        first = setup_first or seats[0]
        return FirstPlayer(clockwise_from(seats, first), "setup", ())
    contenders = list(seats)
    for criterion in ("camps", "pawns", "food"):
        best = max(getattr(standings[p], criterion) for p in contenders)
        contenders = [p for p in contenders if getattr(standings[p], criterion) == best]
        if len(contenders) == 1:
            return FirstPlayer(clockwise_from(seats, contenders[0]), criterion, ())
    if drawn in contenders:
        return FirstPlayer(clockwise_from(seats, drawn), "draw", tuple(contenders))
    return FirstPlayer((), "draw", tuple(contenders))


@dataclass(frozen=True)
class Verdict:
    announced: tuple[str, ...]   # tribes that must announce four camps now
    winners: tuple[str, ...]     # empty when nobody has won yet
    reason: str | None           # four_camps, last_tribe, extinct, or None


def qualifies(standing: Standing, fire_rules: bool) -> bool:
    return standing.camps >= 4 and (standing.fire or not fire_rules)


def victory(order, standings: dict, announced_last_turn, fire_rules: bool = False, return_possible: bool = False,
            variants: Variants = DEFAULT) -> Verdict:
    """The end-of-turn check; ``order``: this turn's players from the first player on."""
    alive = [p for p in order if standings[p].pawns]
    if not alive:
        return Verdict((), (), "extinct")
    # Announcing needs fire too unless the variant asks for it only at the winning check.
    fire_to_announce = fire_rules and variants.fire_at_both_checks
    now = [p for p in order if qualifies(standings[p], fire_to_announce)]
    winners = [p for p in order if qualifies(standings[p], fire_rules) and p in set(announced_last_turn)]
    if winners:
        if len(winners) > 1 and variants.simultaneous_win == "tiebreak":
            most = max(standings[p].camps for p in winners)
            winners = [next(p for p in winners if standings[p].camps == most)]
        return Verdict(tuple(now), tuple(winners), "four_camps")
    if len(alive) == 1 and len(order) > 1 and not return_possible and variants.last_tribe_wins:
        return Verdict(tuple(now), (alive[0],), "last_tribe")
    return Verdict(tuple(now), (), None)

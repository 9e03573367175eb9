"""The combats on one cell (rules §5): tribes first, then each animal species in turn.

Stage 1, when two tribes or more have warriors there: only warriors fight (two tribes
duel, three or more roll together); the other tribes' women then go to the winner
(pieces permitting) and die otherwise. With no warrior on the cell, women of two tribes
or more fight each other with camp and card bonuses only, and the losers' women die
(gap V46). Stage 2: the tribe left fights each species in the order chosen (gap V48),
all its pawns taking part, women adding no bonus; each loss is a warrior or a woman at
the player's choice, given here as a policy (``women_first`` or ``warriors_first``) for
the odds, or one by one in ``losses`` when the fight is played out.

>>> red = Tribe("red", warriors=2, women=1, camp="village")
>>> odds = cell_odds([red], {"wolf": 2})
>>> odds.holder["red"], odds.holder["animals"]
(Fraction(3471153, 3813248), Fraction(342095, 3813248))
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from .core import SPECIES, IllegalRequest
from .odds import duel, melee
from .variants import DEFAULT, Variants

CAMP_BONUS = {None: 0, "village": 1, "cave": 2}
#: Trick cards that add to rolls (rules «Texte des cartes astuces»): all fights / only animals.
#: A tamed wolf (Louveteau) adds 1 like a warrior (gap V53).
CARD_BONUS = {"pierre_taillee": 2, "propulseur": 2, "silax": 1, "louveteau": 1}
CARD_BONUS_ANIMALS = {"torches": 2}
CARDS = tuple(CARD_BONUS) + tuple(CARD_BONUS_ANIMALS)
POLICIES = ("women_first", "warriors_first")
MAX_WOMEN = 6


@dataclass(frozen=True)
class Tribe:
    """One tribe's pawns on the cell. ``camp``: its own camp here (village, cave or None)."""

    name: str
    warriors: int = 0
    women: int = 0
    camp: str | None = None
    fire: bool = False
    cards: tuple[str, ...] = ()
    women_in_reserve: int | None = None  # its women pieces off the board; default 6 − women here

    @property
    def pawns(self) -> int:
        return self.warriors + self.women

    def reserve(self) -> int:
        return MAX_WOMEN - self.women if self.women_in_reserve is None else self.women_in_reserve

    def fixed_bonus(self, against_animals: bool) -> int:
        """Every bonus but the per-warrior one (rules «Calcul des points», fire, cards)."""
        bonus = CAMP_BONUS[self.camp] + sum(CARD_BONUS.get(c, 0) for c in self.cards)
        if against_animals:
            bonus += (1 if self.fire else 0) + sum(CARD_BONUS_ANIMALS.get(c, 0) for c in self.cards)
        return bonus

    def check(self) -> None:
        if "torches" in self.cards and not self.fire:
            raise IllegalRequest(f"{self.name} plays torches without holding fire",
                                 f"{self.name} joue les torches sans avoir le feu", "combat.cards")


def lose(state: tuple[int, int], policy: str) -> tuple[int, int]:
    """The (warriors, women) left after one loss chosen by ``policy``."""
    w, f = state
    if (policy == "women_first" and f) or not w:
        return (w, f - 1)
    return (w - 1, f)


def hunt_food(species: str, killed: int, lean: bool) -> int:
    """Food for the animals killed (rules «Combat contre des animaux»; Viande maigre)."""
    kind = SPECIES[species]
    return killed * (kind.lean_food if lean else kind.food)


# -- stage 1: tribes --------------------------------------------------------------------

@dataclass(frozen=True)
class TribeStage:
    kind: str                 # "warriors", "women" or "none"
    fighters: tuple[str, ...]
    ends: dict                # winner name → {(warriors, women) of the winner after capture: chance}
    expected_rolls: Fraction


def tribe_stage(tribes: list[Tribe]) -> TribeStage:
    """Who is left on the cell after the tribes' fight, with what, and how likely."""
    armed = [t for t in tribes if t.warriors]
    if len(armed) >= 2:
        kind, fighters = "warriors", armed
        counts, fixed = tuple(t.warriors for t in armed), tuple(t.fixed_bonus(False) for t in armed)
        per_pawn = 1
    elif not armed and len([t for t in tribes if t.women]) >= 2:
        kind, fighters = "women", [t for t in tribes if t.women]
        counts, fixed = tuple(t.women for t in fighters), tuple(t.fixed_bonus(False) for t in fighters)
        per_pawn = 0
    else:
        holder = armed[0] if armed else next((t for t in tribes if t.pawns), None)
        if holder is None:
            return TribeStage("none", (), {}, Fraction(0))
        others = sum(t.women for t in tribes if t is not holder)
        return TribeStage("none", (), {holder.name: {(holder.warriors, holder.women + min(others, holder.reserve())):
                                                     Fraction(1)}}, Fraction(0))
    fight = melee(counts, fixed, per_pawn)
    ends: dict = {}
    for end, chance in fight.ends.items():
        i = next(k for k, n in enumerate(end) if n)
        winner = fighters[i]
        if kind == "warriors":
            others = sum(t.women for t in tribes if t is not winner)
            state = (end[i], winner.women + min(others, winner.reserve()))
        else:  # women against women: the losers' women die, none change sides (V46)
            state = (winner.warriors, end[i])
        bucket = ends.setdefault(winner.name, {})
        bucket[state] = bucket.get(state, 0) + chance
    return TribeStage(kind, tuple(t.name for t in fighters), ends, fight.expected_rolls)


# -- stage 2: animals -------------------------------------------------------------------

def animal_fight(tribe: Tribe, state: tuple[int, int], species: str, count: int, policy: str):
    """A tribe with (warriors, women) against ``count`` animals of one species."""
    fixed = tribe.fixed_bonus(True)
    return duel(state, (count,), lambda s: s[0] + fixed, lambda s: s[0],
                lambda s: lose(s, policy), lambda s: (s[0] - 1,))


@dataclass
class CellOdds:
    holder: dict                  # tribe name or "animals" → chance of holding the cell at the end
    survivors: dict               # (holder, warriors, women) → chance
    food: dict                    # tribe name → expected hunting food
    expected_rolls: Fraction
    stage: TribeStage
    by_policy: dict = field(default_factory=dict)  # policy → holder chances


def cell_odds(tribes: list[Tribe], animals: dict, order=None, policy: str = "women_first",
              lean: bool = False, variants: Variants = DEFAULT) -> CellOdds:
    """Exact chances for the whole cell; ``order``: the species in fighting order."""
    main = _cell_odds(tribes, animals, order, policy, lean, variants)
    for other in POLICIES:
        main.by_policy[other] = (main if other == policy else
                                 _cell_odds(tribes, animals, order, other, lean, variants)).holder
    return main


def _cell_odds(tribes, animals, order, policy, lean, variants) -> CellOdds:
    order = list(order or animals)
    stage = tribe_stage(tribes)
    by_name = {t.name: t for t in tribes}
    holder: dict = {t.name: Fraction(0) for t in tribes}
    holder["animals"] = Fraction(0)
    survivors: dict = {}
    food: dict = {t.name: Fraction(0) for t in tribes}
    rolls = stage.expected_rolls
    if not stage.ends:
        holder["animals"] = Fraction(1) if animals else Fraction(0)
    for name, states in stage.ends.items():
        for state, chance in states.items():
            # A distribution over (warriors, women) fighting each species in turn.
            current = {state: chance}
            for species in order:
                nxt: dict = {}
                for st, q in current.items():
                    fight = animal_fight(by_name[name], st, species, animals[species], policy)
                    rolls += q * fight.expected_rolls
                    for (end, beasts), r in fight.ends.items():
                        killed = animals[species] - beasts[0]
                        if any(end) or variants.hunt_food == "per_kill":
                            food[name] += q * r * hunt_food(species, killed, lean)
                        if any(end):
                            nxt[end] = nxt.get(end, 0) + q * r
                        else:
                            holder["animals"] += q * r
                current = nxt
            for st, q in current.items():
                holder[name] += q
                survivors[(name,) + st] = survivors.get((name,) + st, 0) + q
    return CellOdds(holder, survivors, food, rolls, stage)


def next_loss_odds(tribes, animals, order, policy, lean, variants, loser: Tribe, pawn: str):
    """The chance the losing tribe still holds the cell if it now gives up ``pawn``."""
    w, f = loser.warriors, loser.women
    if (pawn == "warrior" and not w) or (pawn == "woman" and not f):
        return None
    after = replace(loser, warriors=w - (pawn == "warrior"), women=f - (pawn == "woman"))
    rest = [after if t.name == loser.name else t for t in tribes]
    return _cell_odds(rest, animals, order, policy, lean, variants).holder[loser.name]


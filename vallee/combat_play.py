"""A cell's combats played out roll by roll from recorded dice and loss choices.

The dice are given, never drawn here (a roll is recorded once; replay is exact). When
the dice run out, or a tribe must choose between losing a warrior and a woman and no
choice is left in ``losses``, the play stops and says what it waits for.

>>> log = play_cell([Tribe("red", 1, 1)], {"bear": 1}, ["bear"], [[2, 5], [6, 1]], ["woman"])
>>> [(r["stage"], r["totals"], r["losers"]) for r in log.rolls]
[('bear', {'red': 3, 'animals': 6}, [{'side': 'red', 'pawn': 'woman'}]), ('bear', {'red': 7, 'animals': 2}, [{'side': 'animals', 'pawn': 'bear'}])]
>>> log.done, log.holder, log.state["red"], log.food["red"]
(True, 'red', (1, 0), 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .combat import Tribe, hunt_food
from .core import BadRequest
from .variants import DEFAULT, Variants


@dataclass
class PlayLog:
    rolls: list = field(default_factory=list)
    state: dict = field(default_factory=dict)     # tribe → (warriors, women); "animals" → {species: n}
    captured: dict = field(default_factory=dict)  # tribe → women taken over
    food: dict = field(default_factory=dict)      # tribe → hunting food earned
    done: bool = False
    holder: str | None = None
    awaiting: dict | None = None
    stage: str | None = None
    fighter: str | None = None  # the tribe left to face the animals


class _Dice:
    def __init__(self, rolls, losses):
        self.rolls, self.losses, self.next_roll, self.next_loss = rolls, losses, 0, 0

    def roll(self, size: int):
        if self.next_roll >= len(self.rolls):
            return None
        dice = self.rolls[self.next_roll]
        where = f"rolls.{self.next_roll}"
        if not isinstance(dice, list) or len(dice) != size:
            raise BadRequest(where, f"must list {size} dice, one per side in the order given")
        for i, d in enumerate(dice):
            if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
                raise BadRequest(f"{where}.{i}", "a die shows 1 to 6")
        self.next_roll += 1
        return dice

    def loss(self):
        if self.next_loss >= len(self.losses):
            return None
        pawn = self.losses[self.next_loss]
        if pawn not in ("warrior", "woman"):
            raise BadRequest(f"losses.{self.next_loss}", "must be 'warrior' or 'woman'")
        self.next_loss += 1
        return pawn


def play_cell(tribes: list[Tribe], animals: dict, order, rolls, losses=(), lean: bool = False,
              variants: Variants = DEFAULT) -> PlayLog:
    log = PlayLog(state={t.name: (t.warriors, t.women) for t in tribes},
                  food={t.name: 0 for t in tribes})
    log.state["animals"] = dict(animals)
    dice = _Dice(list(rolls), list(losses))
    by_name = {t.name: t for t in tribes}
    holder = _tribes(tribes, log, dice)
    if holder is None:
        return log
    log.fighter = holder
    for species in order:
        if not animals.get(species):
            continue
        if not _animals(by_name[holder], species, log, dice, lean, variants):
            return log
        if not any(log.state[holder]):
            log.done, log.holder = True, "animals"
            return log
    log.done, log.holder = True, holder
    return log


def _tribes(tribes, log: PlayLog, dice: _Dice):
    """Stage 1; returns the tribe left on the cell, or None when waiting."""
    armed = [t for t in tribes if t.warriors]
    women_only = not armed and len([t for t in tribes if t.women]) >= 2
    fighters = armed if len(armed) >= 2 else ([t for t in tribes if t.women] if women_only else [])
    index = 0 if women_only else 1  # whose pawns fight: warriors (0) or women (1)
    log.stage = "tribes" if fighters else None
    while len([t for t in fighters if log.state[t.name][1 - index]]) >= 2:
        alive = [t for t in fighters if log.state[t.name][1 - index]]
        got = dice.roll(len(alive))
        if got is None:
            log.awaiting = {"kind": "roll", "stage": "tribes", "sides": [t.name for t in alive]}
            return None
        bonus = {t.name: (log.state[t.name][0] if not women_only else 0) + t.fixed_bonus(False) for t in alive}
        totals = {t.name: d + bonus[t.name] for t, d in zip(alive, got)}
        top = max(totals.values())
        losers = [name for name, total in totals.items() if total < top]
        entry = {"stage": "tribes", "dice": dict(zip(totals, got)), "bonus": bonus, "totals": totals, "losers": []}
        for name in losers:
            w, f = log.state[name]
            log.state[name] = (w, f - 1) if women_only else (w - 1, f)
            entry["losers"].append({"side": name, "pawn": "woman" if women_only else "warrior"})
        entry["tie"] = not losers
        entry["after"] = {name: list(log.state[name]) for name in totals}
        log.rolls.append(entry)
    standing = [t for t in tribes if any(log.state[t.name])]
    if fighters:
        winner = next(t for t in fighters if log.state[t.name][1 - index])
    elif standing:
        winner = armed[0] if armed else standing[0]
    else:
        return None
    if not women_only:  # the other tribes' women change sides while pieces last, else die
        others = sum(log.state[t.name][1] for t in tribes if t is not winner)
        taken = min(others, winner.reserve())
        if others:
            log.captured[winner.name] = taken
        for t in tribes:
            if t is not winner:
                log.state[t.name] = (log.state[t.name][0], 0)
        w, f = log.state[winner.name]
        log.state[winner.name] = (w, f + taken)
    else:
        for t in tribes:
            if t is not winner:
                log.state[t.name] = (0, 0)
    return winner.name


def _animals(tribe: Tribe, species: str, log: PlayLog, dice: _Dice, lean: bool, variants: Variants) -> bool:
    """Stage 2 against one species; False when waiting for a roll or a loss choice."""
    log.stage = species
    start = log.state["animals"][species]
    while any(log.state[tribe.name]) and log.state["animals"][species]:
        w, f = log.state[tribe.name]
        n = log.state["animals"][species]
        got = dice.roll(2)
        if got is None:
            log.awaiting = {"kind": "roll", "stage": species, "sides": [tribe.name, "animals"]}
            return False
        bonus = {tribe.name: w + tribe.fixed_bonus(True), "animals": n}
        totals = {tribe.name: got[0] + bonus[tribe.name], "animals": got[1] + n}
        entry = {"stage": species, "dice": {tribe.name: got[0], "animals": got[1]}, "bonus": bonus,
                 "totals": totals, "losers": [], "tie": totals[tribe.name] == totals["animals"]}
        log.rolls.append(entry)
        if entry["tie"]:
            entry["after"] = {tribe.name: [w, f], "animals": n}
            continue
        if entry["totals"][tribe.name] > entry["totals"]["animals"]:
            log.state["animals"][species] = n - 1
            entry["losers"].append({"side": "animals", "pawn": species})
        else:
            pawn = "warrior" if not f else "woman" if not w else dice.loss()
            if pawn is None:  # the roll is lost; the player has not said which pawn yet
                log.awaiting = {"kind": "loss", "stage": species, "side": tribe.name, "choices": ["warrior", "woman"]}
                return False
            log.state[tribe.name] = (w - 1, f) if pawn == "warrior" else (w, f - 1)
            entry["losers"].append({"side": tribe.name, "pawn": pawn})
        entry["after"] = {tribe.name: list(log.state[tribe.name]), "animals": log.state["animals"][species]}
    killed = start - log.state["animals"][species]
    if any(log.state[tribe.name]) or variants.hunt_food == "per_kill":
        log.food[tribe.name] += hunt_food(species, killed, lean)
    return True

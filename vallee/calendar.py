"""The season calendar: which of the ten phases run on a game turn, the season, arrivals.

The season marker starts on the second summer turn (rules «Mise en place») and moves one
step at the end of every turn, except a turn on which a long winter or a mild autumn was
drawn (``held`` turns): that season then lasts four turns (gaps V6, V24).

>>> t = turn_info(2)
>>> t.season, t.season_turn, t.ends_season, t.harvest, t.runs("births"), t.runs("sowing")
('summer', 3, True, True, True, False)
>>> [turn_info(n).arrivals for n in range(1, 9)]
[6, 4, 2, 2, 2, 4, 4, 4]
>>> turn_info(5).runs("sowing"), turn_info(5).year, turn_info(6).year, turn_info(6).deck
(True, 1, 2, 'summer')
>>> held = turn_info(6, held=(5,)); held.season, held.season_turn, held.extra_turn, held.ends_season
('winter', 3, True, True)
>>> turn_info(5, held=(5,)).ends_season
False
"""

from __future__ import annotations

from dataclasses import dataclass

from .core import SUMMER, WINTER
from .variants import DEFAULT, Variants

#: The marker's six places: (season, turn of the season).
MARKER = ((SUMMER, 1), (SUMMER, 2), (SUMMER, 3), (WINTER, 1), (WINTER, 2), (WINTER, 3))
START = 1  # summer turn 2 (rule calendar.start)
MAX_TURN = 1000

#: The ten phases in order (rules «Les phases du tour»).
PHASES = ("events", "arrivals", "animals", "tribes", "combat", "survival", "births", "sowing", "tricks", "end")
PHASE_FR = {"events": "événement", "arrivals": "arrivée des animaux", "animals": "déplacement des animaux",
            "tribes": "déplacement et installation des tribus", "combat": "combats", "survival": "survie",
            "births": "naissances", "sowing": "semailles", "tricks": "cartes astuce", "end": "fin du tour"}
PHASE_EN = {"events": "event", "arrivals": "new animals", "animals": "animal movement",
            "tribes": "tribe movement and camps", "combat": "combat", "survival": "survival",
            "births": "births", "sowing": "sowing", "tricks": "trick cards", "end": "end of turn"}


@dataclass(frozen=True)
class TurnInfo:
    turn: int
    year: int
    season: str
    season_turn: int   # the marker's place: 1, 2 or 3
    extra_turn: bool   # the marker stayed on this place at the end of the previous turn
    ends_season: bool  # the end-of-season phases run this turn
    held: bool         # the marker will not move at the end of this turn
    arrivals: int
    players: int
    phases: tuple[str, ...]  # the ids of the phases that run, in order

    @property
    def deck(self):
        """The event deck drawn from this turn, or None before the third turn."""
        return self.season if "events" in self.phases else None

    @property
    def harvest(self) -> bool:
        """Fields are harvested at this turn's survival (the last summer turn)."""
        return self.ends_season and self.season == SUMMER

    @property
    def return_window(self) -> bool:
        """A tribe wiped out on this turn may come back next turn (the first year only)."""
        return self.year == 1

    def runs(self, phase: str) -> bool:
        return phase in self.phases


def arrivals_count(turn: int, season: str, players: int, variants: Variants = DEFAULT) -> int:
    """Animals drawn from the bag (rule phase.arrivals); ``players`` still in play (gap V25)."""
    small = players <= 3
    if turn == 1:
        return variants.first_turn_animals_small if small else 6
    if season == SUMMER:
        return 3 if small else 4
    return 1 if small else 2


def turn_info(turn: int, players: int = 4, held=(), variants: Variants = DEFAULT) -> TurnInfo:
    """The calendar of game turn ``turn`` (1-based); ``held``: turns whose marker stayed."""
    if not 1 <= turn <= MAX_TURN:
        raise ValueError(f"turn must be 1 to {MAX_TURN}")
    held = set(held)
    place, year, previous = START, 1, None
    for t in range(1, turn):
        previous = place
        if t not in held:
            place = (place + 1) % 6
            if place == 0:
                year += 1
    season, season_turn = MARKER[place]
    extra = previous == place
    if variants.season_end_with_extra_turn == "last_turn":
        ends = season_turn == 3 and turn not in held
    else:
        ends = season_turn == 3 and not extra
    phases = [p for p in PHASES if p not in ("events", "births", "sowing", "tricks")]
    if turn >= 3:
        phases.insert(0, "events")
    if ends:
        phases += ["births", "tricks"] + (["sowing"] if season == WINTER else [])
    phases.sort(key=PHASES.index)
    return TurnInfo(turn, year, season, season_turn, extra, ends, turn in held,
                    arrivals_count(turn, season, players, variants), players, tuple(phases))

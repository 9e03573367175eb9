"""Plain types of the Mammut rules: kinds of loot, tie order, errors, configuration.

Mammut (Kristian Amundsen Østby) is a different game from Mâamut; nothing here
imports the Mâamut engine (both share only ``rulekit``'s game-agnostic scaffolding). Section references cite the French rulebook
of Mammut by its section titles (see ``ostby_mammut.rulebook``).

>>> tie_order(("A", "B", "C", "D"), "B", "red")
('B', 'C', 'D', 'A')
>>> tie_order(("A", "B", "C", "D"), "B", "blue")
('B', 'A', 'D', 'C')
>>> DEFAULT_CONFIG.tile_count, len(DEFAULT_CONFIG.species)
(31, 7)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rulekit.errors import MalformedRequest, RuleError

#: Loot kinds printed on the tiles (besides the animal species).
AXE, SKIN, TUSK, MEAT, FIRE = "axe", "skin", "tusk", "meat", "fire"
GOODS = (AXE, SKIN, TUSK, MEAT, FIRE)
#: The face of a tile that hides its other side until the evaluation.
QUESTION = "question"
#: The shaman tile (its two faces carry a red and a blue arrow).
SHAMAN = "shaman"
#: A pool tile nobody described yet (the web page does not ask for the spread).
UNSORTED = "unsorted"

#: Red arrow: clockwise; blue arrow: counter-clockwise (FR «Le chamane»).
ARROWS = ("red", "blue")

#: Our labels for the seven species: the rulebook's figures are missing, so these
#: are names of our own choosing (docs/rulings-mammut.md, «Species names»).
DEFAULT_SPECIES = ("bear", "bison", "boar", "deer", "horse", "ibex", "wolf")
SPECIES_FR = {"bear": "ours", "bison": "bison", "boar": "sanglier", "deer": "cerf",
              "horse": "cheval", "ibex": "bouquetin", "wolf": "loup"}
KIND_FR = {AXE: "hache", SKIN: "peau", TUSK: "défense", MEAT: "viande", FIRE: "feu",
           QUESTION: "point d'interrogation", SHAMAN: "chamane", UNSORTED: "non triée"}

#: Evaluation cards (11) and loot cards (8) with their number of copies (FR page 4).
EVALUATION_CARDS = {
    "skin": 2,               # counts as one skin tile for the player who played it
    "skins_most_points": 1,  # most skin tiles: +4
    "skins_most_animal": 1,  # most skin tiles: an animal token of one's choice
    "axes_most_skin": 1,     # most axe tiles: counts as a skin tile for that player
    "axes_most_fire": 1,     # most axe tiles: counts as a fire tile for that player
    "tusks_most_fire": 1,    # most tusk tiles: counts as a fire tile for that player
    "tusks_most_points": 1,  # most tusk tiles: +4
    "animal_exchange": 2,    # swap an animal tile for any species not owned yet
    "axes_bonus": 1,         # every axe tile of every player: +2
}
LOOT_CARDS = {
    "peek": 3,    # look at the hidden side of one or two question tiles
    "flip": 3,    # turn one or two non-animal tiles over, the shaman tile included
    "recall": 2,  # one or more players put all their tiles back in the middle
}
CARD_COUNTS = {**EVALUATION_CARDS, **LOOT_CARDS}
#: A card in someone's hand that the companion cannot see.
HIDDEN_CARD = "hidden"

FIRST_ROUND = {2: 1, 3: 1, 4: 2, 5: 2}  # FR «Préparation» 5
LAST_ROUND = 5
HAND_AT_START = 2
SPECIES_BONUS = {0: 0, 1: 0, 2: 0, 3: 4, 4: 9, 5: 15, 6: 22, 7: 30}  # FR «Fin du jeu»



def _default_tiles(species) -> tuple[tuple[str, str], ...]:
    """Our default two-sided loot tiles (the published list is not in the rulebook)."""
    pairs = ([(MEAT, FIRE)] * 4 + [(MEAT, SKIN)] * 3 + [(SKIN, TUSK)] * 3 + [(AXE, MEAT)] * 2
             + [(TUSK, FIRE)] * 2 + [(AXE, SKIN)] * 2
             + [(QUESTION, MEAT)] * 2 + [(QUESTION, SKIN)] * 2 + [(QUESTION, TUSK)]
             + [(QUESTION, AXE)] + [(QUESTION, FIRE)] * 2)
    return tuple(pairs) + tuple((s, s) for s in species)


@dataclass(frozen=True)
class Config:
    """What the rulebook leaves to the box: the tiles, the species, the supply.

    ``tiles`` lists the loot tiles as (side, other side); an animal tile shows its
    species on both sides; a question side hides the other one. The shaman tile is
    always there in addition.
    """

    species: tuple[str, ...] = DEFAULT_SPECIES
    tiles: tuple[tuple[str, str], ...] = field(default=None)
    supply_per_species: int = 5
    #: Points for the most/fewest skins on the track, by round number (1-5).
    skins_points: tuple[int, ...] = (1, 2, 3, 4, 5)

    def __post_init__(self):
        if self.tiles is None:
            object.__setattr__(self, "tiles", _default_tiles(self.species))
        known = set(GOODS) | set(self.species) | {QUESTION}
        for pair in self.tiles:
            if len(pair) != 2 or not set(pair) <= known:
                raise ValueError(f"config.tiles: unknown tile {pair!r}")
            if QUESTION == pair[0] == pair[1]:
                raise ValueError("config.tiles: a tile cannot show a question mark on both sides")

    @property
    def tile_count(self) -> int:
        return len(self.tiles)

    def kinds(self) -> tuple[str, ...]:
        return GOODS + tuple(self.species)

    def max_of(self, kind: str) -> int:
        """How many tiles can show ``kind`` at the evaluation (either side)."""
        return sum(1 for pair in self.tiles if kind in pair)


DEFAULT_CONFIG = Config()


def tie_order(players, holder: str, arrow: str) -> tuple[str, ...]:
    """Players from the best placed to the worst in a tie: the shaman holder first,
    then following the arrow (players are listed clockwise)."""
    players = tuple(players)
    i = players.index(holder)
    step = 1 if arrow == "red" else -1
    return tuple(players[(i + step * k) % len(players)] for k in range(len(players)))


def clockwise_from(players, first: str) -> tuple[str, ...]:
    players = tuple(players)
    i = players.index(first)
    return players[i:] + players[:i]


def counter(obj=None) -> Counter:
    """A Counter without zero entries."""
    c = Counter(obj or {})
    return +c


class MammutError(RuleError):
    """Base of the errors: a code, a message and the rule it applies."""


class IllegalAction(MammutError):
    """An action or a scoring request the rules do not allow; ``fr`` is shown to players."""

    code = "illegal_move"

    def __init__(self, message: str, rule: str = "", code: str | None = None, fr: str = ""):
        super().__init__(message, rule, code)
        self.fr = fr or message

    def to_json(self) -> dict:
        out = super().to_json()
        out["message_fr"] = self.fr
        return out


class BadRequest(MalformedRequest, MammutError):
    """Malformed input; ``field`` names the offending part of the request."""

"""Plain types of the Mâamut engine: tiles, positions, actions, outcomes, errors.

>>> Tile("grass").holds_traps, Tile.CROSS.walkable
(True, True)
>>> Move("A", "NE", 2)
Move(hunter='A', direction='NE', distance=2)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from rulekit.errors import MalformedRequest, RuleError
from rulekit.players import PLAYER_ID

from .events import Event
from .hexgrid import NUM_CELLS


class Tile(str, Enum):
    GRASS = "grass"
    SNOW = "snow"
    ROCK = "rock"
    CROSS = "cross"

    @property
    def walkable(self) -> bool:
        """Rock is the only tile that neither hunters nor the mammoth may enter."""
        return self is not Tile.ROCK

    @property
    def holds_traps(self) -> bool:
        """Traps go on grass only; the cross behaves as snow."""
        return self is Tile.GRASS

    def __str__(self) -> str:
        return self.value


#: A player name: anything printable without the separators of the text notation (every
#: game seats players by the same rule, kept in :mod:`rulekit.players`).
PLAYER_NAME = PLAYER_ID

MAMMOTH = "mammoth"
HAND_SIZE = 3
TRAPS_PER_PLAYER = 4


@dataclass(frozen=True)
class Position:
    """Everything the rules need to decide a turn.

    ``tiles`` is indexed by cell id; ``hunters`` holds living hunters only; ``hands`` is
    ``None`` when the cards in hand are unknown (a referee's what-if), in which case any
    card value may be played. ``quiet_turns`` counts turns without a flight or a trap
    change, used only by the ``stall_limit`` variant.
    """

    tiles: tuple[Tile, ...]
    mammoth: int
    players: tuple[str, ...]
    hunters: dict[str, int]
    traps: dict[int, str]
    to_move: str
    eliminated: tuple[str, ...] = ()
    hands: dict[str, tuple[int, ...]] | None = None
    quiet_turns: int = 0
    #: Derived from ``tiles`` and shared between the positions of one game (see rules.layout_of).
    layout: object = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if len(self.tiles) != NUM_CELLS:
            raise ValueError(f"a position needs {NUM_CELLS} tiles, got {len(self.tiles)}")

    def __hash__(self):
        return hash((self.tiles, self.mammoth, self.players, tuple(sorted(self.hunters.items())),
                     tuple(sorted(self.traps.items())), self.to_move, self.eliminated))

    def traps_of(self, player: str) -> int:
        return sum(1 for owner in self.traps.values() if owner == player)

    def active_players(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.eliminated)

    def with_(self, **changes) -> "Position":
        return replace(self, **changes)


@dataclass(frozen=True)
class Move:
    hunter: str
    direction: str
    distance: int


@dataclass(frozen=True)
class PlaceTrap:
    hunter: str


@dataclass(frozen=True)
class RemoveTrap:
    hunter: str


@dataclass(frozen=True)
class Pass:
    """Discard a card and pass; ``card`` is the value discarded (``None``: unspecified)."""

    hunter: str
    card: int | None = None


Action = Move | PlaceTrap | RemoveTrap | Pass


@dataclass(frozen=True)
class FleeRequest:
    """The flight stopped: the owner of ``hunter`` must choose one of ``options``."""

    hunter: str
    options: tuple[int, ...]
    cell: int  # where the hunter stands, frightened


@dataclass
class Outcome:
    position: Position
    events: list[Event] = field(default_factory=list)
    winner: str | None = None
    needs: FleeRequest | None = None
    consumed_choices: int = 0


class EngineError(RuleError):
    """Base of the engine's errors: a code, a message and the rule it applies."""


class IllegalAction(EngineError):
    code = "illegal_move"


class BadRequest(MalformedRequest, EngineError):
    """Malformed input; ``field`` names the offending part of the request."""

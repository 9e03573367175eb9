"""What happened during a turn, as plain typed values.

Each event is a frozen dataclass (``HunterMoved``, ``MammothFled``, ...) carrying the
rule it applies. Its contract JSON form is produced on request by :meth:`Event.to_json`,
like python-chess's ``Move.uci()``: a turn read by the camera goes from the engine to the
table, the LEDs and the page as values, and becomes JSON only where it leaves the
program (the page, ``maamut resolve``, a record).

Events can also be read like their JSON form (``event["type"]``, ``event.get("to")``),
which is what explanations, LED scenes and the board drawing do with either form.

>>> event = HunterMoved("A", "-3,0", "-1,0", ("-2,0", "-1,0"), "E", 2)
>>> event.to_json()
{'type': 'hunter_moved', 'hunter': 'A', 'from': '-3,0', 'to': '-1,0', 'path': ['-2,0', '-1,0'], 'direction': 'E', 'distance': 2, 'rule': 'move.straight'}
>>> event["to"], event.get("continued"), event.type
('-1,0', None, 'hunter_moved')
>>> from_json(event.to_json()) == event
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

#: JSON key of each field whose Python name differs from it.
_JSON_NAMES = {"start": "from"}


class Event(Mapping):
    """Base of every engine event: a read-only mapping over its JSON form."""

    type = "event"

    def to_json(self) -> dict:
        """The contract's JSON object (optional fields left out when unset)."""
        out = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.metadata.get("optional"):
                continue
            if isinstance(value, tuple):
                value = [dict(v) if isinstance(v, Mapping) else v for v in value]
            out[_JSON_NAMES.get(f.name, f.name)] = value
        return out

    # Read access as the JSON form, for code that takes either form.
    def _json(self) -> dict:
        cached = self.__dict__.get("_json_cache")
        if cached is None:
            cached = self.to_json()
            object.__setattr__(self, "_json_cache", cached)
        return cached

    def __getitem__(self, key):
        return self._json()[key]

    def __iter__(self):
        return iter(self._json())

    def __len__(self) -> int:
        return len(self._json())

    def __eq__(self, other):
        if isinstance(other, Event):
            return type(self) is type(other) and self.to_json() == other.to_json()
        if isinstance(other, Mapping):
            return self.to_json() == dict(other)
        return NotImplemented

    def __hash__(self):
        return hash((self.type, tuple(getattr(self, f.name) for f in fields(self)
                                      if not isinstance(getattr(self, f.name), tuple))))


def _optional(default=None):
    from dataclasses import field

    return field(default=default, metadata={"optional": True})


@dataclass(frozen=True, eq=False)
class HunterPlaced(Event):
    hunter: str
    cell: str
    rule: str = "setup.hunter_placement"
    type = "hunter_placed"


@dataclass(frozen=True, eq=False)
class HunterMoved(Event):
    hunter: str
    start: str
    to: str
    path: tuple
    direction: str
    distance: int
    rule: str = "move.straight"
    #: True for the walk on after the mammoth fled from the mover's way.
    continued: bool | None = _optional()
    type = "hunter_moved"


@dataclass(frozen=True, eq=False)
class MammothFaced(Event):
    cell: str
    hunter: str
    distance: int
    tried: tuple
    arrival: str
    rule: str = "flight.faced"
    type = "mammoth_faced"


@dataclass(frozen=True, eq=False)
class MammothFled(Event):
    start: str
    to: str
    path: tuple
    direction: str
    distance: int
    hunter: str
    tried: tuple
    arrival: str
    rule: str = "flight.order"
    type = "mammoth_fled"


@dataclass(frozen=True, eq=False)
class MammothTrapped(Event):
    cell: str
    owner: str
    rule: str = "flight.trap"
    type = "mammoth_trapped"


@dataclass(frozen=True, eq=False)
class HunterFled(Event):
    hunter: str
    start: str
    to: str
    options: tuple
    rule: str = "flight.frighten"
    type = "hunter_fled"


@dataclass(frozen=True, eq=False)
class HunterEliminated(Event):
    hunter: str
    cell: str
    reason: str
    rule: str
    #: The cards he held (only when hands are known).
    discarded: tuple | None = _optional()
    #: His traps taken off the board (variant ``eliminated_traps = "remove"``).
    traps_removed: tuple | None = _optional()
    type = "hunter_eliminated"


@dataclass(frozen=True, eq=False)
class TrapPlaced(Event):
    hunter: str
    cell: str
    rule: str = "trap.place"
    type = "trap_placed"


@dataclass(frozen=True, eq=False)
class TrapRemoved(Event):
    hunter: str
    cell: str
    owner: str
    rule: str = "trap.remove"
    type = "trap_removed"


@dataclass(frozen=True, eq=False)
class Passed(Event):
    hunter: str
    card: int | None
    rule: str = "turn.pass"
    type = "passed"


@dataclass(frozen=True, eq=False)
class GameOver(Event):
    winner: str
    reason: str
    rule: str
    type = "game_over"


EVENT_TYPES = {cls.type: cls for cls in (HunterPlaced, HunterMoved, MammothFaced, MammothFled, MammothTrapped,
                                          HunterFled, HunterEliminated, TrapPlaced, TrapRemoved, Passed, GameOver)}


def from_json(obj: Mapping) -> Event:
    """The typed event of a JSON event object (``ValueError`` for an unknown type)."""
    cls = EVENT_TYPES.get(obj.get("type"))
    if cls is None:
        raise ValueError(f"unknown event type {obj.get('type')!r}")
    values = {}
    for f in fields(cls):
        key = _JSON_NAMES.get(f.name, f.name)
        if key in obj:
            value = obj[key]
            values[f.name] = tuple(value) if isinstance(value, list) else value
    return cls(**values)


def to_json(events) -> list[dict]:
    """JSON forms of a list of events (typed or already JSON)."""
    return [e.to_json() if isinstance(e, Event) else dict(e) for e in events]


__all__ = ["Event", "HunterPlaced", "HunterMoved", "MammothFaced", "MammothFled", "MammothTrapped", "HunterFled",
           "HunterEliminated", "TrapPlaced", "TrapRemoved", "Passed", "GameOver", "EVENT_TYPES", "from_json",
           "to_json"]

"""Players at the table: their ids, display names and token colours, checked in one place.

Every game and every way in (the configuration file, the page's setup, the JSON
command line) seats players through :func:`read_seats` (players given as objects) or
:func:`read_ids` (players given by name alone, as Mammut's requests do). A seat that
cannot be used is a :class:`SeatError` saying which seat, which key and why; each
caller words the place in its own contract (``[game] players[1] colour``,
``players[0].colour``, ``players.0``).

>>> seats = read_seats([{"id": "A"}, {"id": "B", "name": " Bo ", "colour": "#00FF00"}])
>>> seats[1]
Seat(id='B', name='Bo', colour='#00ff00')
>>> seats[0].name, seats[0].colour == DEFAULT_COLOURS[0]
('A', True)
>>> read_seats([{"id": "A"}, {"id": "A"}])
Traceback (most recent call last):
...
rulekit.players.SeatError: seat 1 id: 'A' is already an earlier seat's id; each player needs his own
>>> read_ids(["Ann", "Bo b"], least=2, most=5)
Traceback (most recent call last):
...
rulekit.players.SeatError: seat 1: 'Bo b' must be 1 to 24 characters, no spaces and none of @;:!,/>[]{}"
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

#: A player id: printable, without the separators of the games' text notations.
PLAYER_ID = re.compile(r"^[^\s@;:!,/>\[\]{}\"]{1,24}$")
PLAYER_ID_RULE = 'must be 1 to 24 characters, no spaces and none of @;:!,/>[]{}"'
#: Longest display name: a name tag on a phone, not a paragraph.
MAX_DISPLAY_NAME = 40
#: ``#rrggbb`` and nothing else: a colour goes into SVG attributes and LED frames.
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
#: Token colours of seats whose colour was not given (the kit's four hunters: red,
#: blue, yellow, purple), by seat.
DEFAULT_COLOURS = ("#d7263d", "#1b6ec2", "#f4c20d", "#7b3fa0")
SEAT_KEYS = ("id", "name", "colour")


class SeatError(ValueError):
    """A seat that cannot be used.

    ``seat`` is its index in the list (``None``: the list itself), ``key`` the key at
    fault (``None``: the seat as a whole), ``reason`` what is wrong with it.
    """

    def __init__(self, reason: str, seat: int | None = None, key: str | None = None):
        place = "players" if seat is None else f"seat {seat}" + (f" {key}" if key else "")
        super().__init__(f"{place}: {reason}")
        self.reason, self.seat, self.key = reason, seat, key


@dataclass(frozen=True)
class Seat:
    id: str
    name: str
    colour: str


def is_player_id(value) -> bool:
    """>>> is_player_id("Ann"), is_player_id("A b"), is_player_id(7)
    (True, False, False)
    """
    return isinstance(value, str) and PLAYER_ID.match(value) is not None


def is_colour(value) -> bool:
    """``#rrggbb`` only.

    >>> is_colour("#D7263D"), is_colour("red"), is_colour("#12345"), is_colour("#d7263d\\n")
    (True, False, False, False)
    """
    return isinstance(value, str) and COLOUR.fullmatch(value) is not None


def default_colour(seat: int) -> str:
    """The token colour of ``seat`` when none was chosen (the palette repeats).

    >>> default_colour(0), default_colour(4) == default_colour(0)
    ('#d7263d', True)
    """
    return DEFAULT_COLOURS[seat % len(DEFAULT_COLOURS)]


def read_ids(ids, least: int, most: int) -> tuple[str, ...]:
    """Players given by id alone, ``least`` to ``most`` different ones, in seat order."""
    if not isinstance(ids, list) or not least <= len(ids) <= most:
        raise SeatError(f"give {least} to {most} players in seat order (clockwise)")
    for seat, ident in enumerate(ids):
        if not is_player_id(ident):
            raise SeatError(f"{ident!r} {PLAYER_ID_RULE}", seat)
    if len(set(ids)) != len(ids):
        raise SeatError("the players' names must be different")
    return tuple(ids)


def read_seats(players, least: int = 2, most: int = 4, known_keys: Iterable[str] | None = None) -> list[Seat]:
    """Players given as objects ``{"id", "name"?, "colour"?}``, in seat order.

    The name defaults to the id and is stored stripped, as typed (escaping happens where
    it is shown); the colour defaults to the seat's and is stored in lower case. With
    ``known_keys``, any other key is refused (a typo in a configuration file).
    """
    if not isinstance(players, list) or not least <= len(players) <= most:
        raise SeatError(f"give {least} to {most} players in seat order (clockwise)")
    seats = []
    for seat, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise SeatError(f"each player is a table (an object) with an id, not {player!r}", seat)
        if known_keys is not None:
            unknown = sorted(set(player) - set(known_keys))
            if unknown:
                raise SeatError(f"unknown key(s) {', '.join(unknown)} (known: {', '.join(known_keys)})", seat)
        if "id" not in player:
            raise SeatError('id is missing (a short name like "A", used in game records)', seat)
        ident = player["id"]
        if not is_player_id(ident):
            raise SeatError(f"{ident!r} {PLAYER_ID_RULE}", seat, "id")
        if any(earlier.id == ident for earlier in seats):
            raise SeatError(f"{ident!r} is already an earlier seat's id; each player needs his own", seat, "id")
        name = player.get("name")
        name = ident if name is None else name
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_DISPLAY_NAME:
            raise SeatError(f"{name!r} must be text of 1 to {MAX_DISPLAY_NAME} characters", seat, "name")
        colour = player.get("colour") or default_colour(seat)
        if not is_colour(colour):
            raise SeatError(f'{colour!r} is not a colour like "#d7263d"', seat, "colour")
        seats.append(Seat(ident, name.strip(), colour.lower()))
    return seats


@dataclass(frozen=True)
class PlayerRights:
    """What a player's own link may write in a game mode on the site (the rest needs the
    referee): the site's guard (``companion_web.games``) reads it, the game's routes declare it."""

    #: The request header carrying the player's link (their token).
    header: str
    #: The player a token belongs to in the game on the table, or ``None``.
    player_of: Callable[[str], str | None]
    #: The endpoints a player may write to; each checks the write is the player's own.
    endpoints: frozenset[str]



__all__ = ["PlayerRights", "PLAYER_ID", "PLAYER_ID_RULE", "MAX_DISPLAY_NAME", "DEFAULT_COLOURS", "SEAT_KEYS", "Seat", "SeatError",
           "is_player_id", "is_colour", "default_colour", "read_ids", "read_seats"]

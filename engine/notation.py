"""Text notation for positions and actions (specified in ``docs/notation.md``).

A position is one line of space-separated fields, like FEN for chess::

    TILES MAMMOTH PLAYERS TRAPS TO_MOVE [HANDS] [QUIET]

>>> text = "gsrg/ggggg/gsgrgs/grgxsgg/gggsgr/sgrsg/gsgs 0,0 A@0,-3;B@3,-3;C! A@2,-1 B A:123;B:22;C:-"
>>> position_to_text(position_from_text(text)) == text
True
>>> action_to_text(action_from_text("A:NE2")), action_to_text(action_from_text("B:T+"))
('A:NE2', 'B:T+')
>>> turn_from_text("A:E2 B>1,1")
(Move(hunter='A', direction='E', distance=2), (('B', 26),))
"""

from __future__ import annotations

import re

from .core import PLAYER_NAME, Action, BadRequest, Move, Pass, PlaceTrap, Position, RemoveTrap, Tile
from .hexgrid import CELL_NAMES, NUM_CELLS, ROW_LENGTHS, parse_cell

TILE_LETTERS = {Tile.GRASS: "g", Tile.SNOW: "s", Tile.ROCK: "r", Tile.CROSS: "x"}
LETTER_TILES = {v: k for k, v in TILE_LETTERS.items()}


def tiles_to_text(tiles) -> str:
    """The 37 tiles as letters, rows north to south separated by ``/``."""
    letters = "".join(TILE_LETTERS[t] for t in tiles)
    rows, i = [], 0
    for n in ROW_LENGTHS:
        rows.append(letters[i:i + n])
        i += n
    return "/".join(rows)


def tiles_from_text(text: str) -> tuple[Tile, ...]:
    rows = text.split("/")
    if len(rows) != len(ROW_LENGTHS) or any(len(r) != n for r, n in zip(rows, ROW_LENGTHS)):
        raise BadRequest("tiles", f"need 7 rows of {'/'.join(map(str, ROW_LENGTHS))} letters, got {text!r}")
    try:
        return tuple(LETTER_TILES[ch] for ch in "".join(rows))
    except KeyError as exc:
        raise BadRequest("tiles", f"unknown tile letter {exc.args[0]!r} (g grass, s snow, r rock, x cross)") from None


def _cell(text: str, field: str) -> int:
    try:
        return parse_cell(text)
    except ValueError as exc:
        raise BadRequest(field, str(exc)) from None


def _player(text: str, field: str) -> str:
    if not PLAYER_NAME.match(text):
        raise BadRequest(field, f"bad player name {text!r}")
    return text


def position_to_text(pos: Position) -> str:
    players = []
    for p in pos.players:
        if p in pos.eliminated:
            players.append(f"{p}!")
        elif p in pos.hunters:
            players.append(f"{p}@{CELL_NAMES[pos.hunters[p]]}")
        else:
            players.append(p)
    traps = ";".join(f"{o}@{CELL_NAMES[c]}" for c, o in sorted(pos.traps.items())) or "-"
    fields = [tiles_to_text(pos.tiles), CELL_NAMES[pos.mammoth], ";".join(players), traps, pos.to_move]
    if pos.hands is not None or pos.quiet_turns:
        if pos.hands is None:
            fields.append("*")
        else:
            fields.append(";".join(f"{p}:{''.join(map(str, pos.hands.get(p, ()))) or '-'}" for p in pos.players))
    if pos.quiet_turns:
        fields.append(str(pos.quiet_turns))
    return " ".join(fields)


def position_from_text(text: str) -> Position:
    """Parse the one-line notation; :class:`BadRequest` names the broken field."""
    from .jsonio import position_from_json  # the JSON parser holds every consistency check

    if not isinstance(text, str):
        raise BadRequest("notation", "must be a string")
    fields = text.split()
    if not 5 <= len(fields) <= 7:
        raise BadRequest("notation", "expected TILES MAMMOTH PLAYERS TRAPS TO_MOVE [HANDS] [QUIET]")
    tiles = tiles_from_text(fields[0])
    _cell(fields[1], "mammoth")
    players, hunters, eliminated = [], {}, []
    for part in fields[2].split(";"):
        if part.endswith("!"):
            name = _player(part[:-1], "players")
            eliminated.append(name)
        elif "@" in part:
            name, cell = part.split("@", 1)
            name = _player(name, "players")
            hunters[name] = CELL_NAMES[_cell(cell, f"players.{name}")]
        else:
            name = _player(part, "players")
        players.append(name)
    traps = {}
    if fields[3] != "-":
        for part in fields[3].split(";"):
            if "@" not in part:
                raise BadRequest("traps", f"expected OWNER@q,r, got {part!r}")
            owner, cell = part.split("@", 1)
            traps[CELL_NAMES[_cell(cell, "traps")]] = owner
    obj = {"tiles": {CELL_NAMES[i]: tiles[i].value for i in range(NUM_CELLS)}, "mammoth": fields[1],
           "players": players, "hunters": hunters, "traps": traps, "to_move": fields[4], "eliminated": eliminated}
    if len(fields) >= 6 and fields[5] != "*":
        hands = {}
        for part in fields[5].split(";"):
            if ":" not in part:
                raise BadRequest("hands", f"expected NAME:cards, got {part!r}")
            name, cards = part.split(":", 1)
            if cards != "-" and not re.fullmatch(r"[123]{1,3}", cards):
                raise BadRequest("hands", f"cards of {name} must be up to three digits 1-3 or '-', got {cards!r}")
            hands[name] = [] if cards == "-" else [int(c) for c in cards]
        obj["hands"] = hands
    if len(fields) == 7:
        if not re.fullmatch(r"[0-9]{1,9}", fields[6]):
            raise BadRequest("quiet_turns", f"must be a number, got {fields[6]!r}")
        obj["quiet_turns"] = int(fields[6])
    return position_from_json(obj)


_MOVE = re.compile(r"^(E|SE|SW|W|NW|NE)([0-9])$")


def action_to_text(action: Action) -> str:
    """``A:NE2`` move, ``A:T+`` place a trap, ``A:T-`` remove one, ``A:P`` / ``A:P2`` pass."""
    if isinstance(action, Move):
        body = f"{action.direction}{action.distance}"
    elif isinstance(action, PlaceTrap):
        body = "T+"
    elif isinstance(action, RemoveTrap):
        body = "T-"
    else:
        body = "P" if action.card is None else f"P{action.card}"
    return f"{action.hunter}:{body}"


def action_from_text(text: str) -> Action:
    if not isinstance(text, str) or ":" not in text:
        raise BadRequest("action", f"expected HUNTER:ACTION such as A:NE2, got {text!r}")
    hunter, body = text.strip().rsplit(":", 1)
    hunter = _player(hunter, "action.hunter")
    m = _MOVE.match(body)
    if m:
        return Move(hunter, m.group(1), int(m.group(2)))
    if body == "T+":
        return PlaceTrap(hunter)
    if body == "T-":
        return RemoveTrap(hunter)
    if body == "P":
        return Pass(hunter)
    if re.fullmatch(r"P[123]", body):
        return Pass(hunter, int(body[1]))
    raise BadRequest("action", f"unknown action {body!r} (NE2, T+, T-, P, P1-P3)")


def turn_to_text(action: Action, choices=()) -> str:
    """An action followed by its flee choices: ``A:E2 B>1,1``."""
    return " ".join([action_to_text(action)] + [f"{h}>{CELL_NAMES[c]}" for h, c in choices])


def turn_from_text(text: str):
    parts = text.split()
    if not parts:
        raise BadRequest("turn", "is empty")
    action = action_from_text(parts[0])
    choices = []
    for part in parts[1:]:
        if ">" not in part:
            raise BadRequest("turn", f"expected HUNTER>q,r for a flee choice, got {part!r}")
        hunter, cell = part.split(">", 1)
        choices.append((_player(hunter, "turn.hunter"), _cell(cell, "turn.choice")))
    return action, tuple(choices)

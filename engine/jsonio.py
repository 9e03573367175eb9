"""The JSON forms of positions, actions and choices (the command-line contract).

Parsing never trusts its input: every problem raises :class:`BadRequest` naming the
offending field, e.g. ``position.hunters.B``.

>>> from engine.notation import position_from_text
>>> pos = position_from_text("gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@0,-3;B@0,3 - A")
>>> position_from_json(position_to_json(pos)) == pos
True
>>> position_from_json("gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@0,-3;B@0,3 - A") == pos
True
>>> position_from_json("gggg/ggggg 0,0 A@0,-3 - A")
Traceback (most recent call last):
...
engine.core.BadRequest: position.tiles: need 7 rows of 4/5/6/7/6/5/4 letters, got 'gggg/ggggg' (text notation, see docs/notation.md)
>>> action_from_json({"type": "move", "hunter": "A", "direction": "NE", "distance": 2})
Move(hunter='A', direction='NE', distance=2)
>>> action_from_json({"type": "jump", "hunter": "A"})
Traceback (most recent call last):
...
engine.core.BadRequest: action.type: must be one of move, place_trap, remove_trap, pass
"""

from __future__ import annotations

from .cards import CARD_VALUES
from .core import (
    HAND_SIZE,
    PLAYER_NAME,
    Action,
    BadRequest,
    Move,
    Pass,
    PlaceTrap,
    Position,
    RemoveTrap,
    Tile,
)
from .hexgrid import CELL_NAMES, DIRECTIONS, NUM_CELLS, parse_cell

_TILES = {t.value: t for t in Tile}


def _cell(value, field: str) -> int:
    try:
        return parse_cell(value)
    except ValueError as exc:
        raise BadRequest(field, str(exc)) from None


def _name(value, field: str) -> str:
    if not isinstance(value, str) or not PLAYER_NAME.match(value):
        raise BadRequest(field, f"player name must be 1-24 characters without spaces or any of @;:!,/>[]{{}}\", "
                                f"got {value!r}")
    return value


def _obj(value, field: str) -> dict:
    if not isinstance(value, dict):
        raise BadRequest(field, f"must be an object, got {type(value).__name__}")
    return value


def _int(value, field: str) -> int:
    if type(value) is not int:  # neither true nor 1.0
        raise BadRequest(field, f"must be an integer, got {value!r}")
    return value


#: Longest text notation accepted in place of a JSON position (a real one is under 700 characters).
MAX_NOTATION = 2000


def _position_from_notation(text: str) -> Position:
    from .notation import position_from_text

    if len(text) > MAX_NOTATION:
        raise BadRequest("position", f"too long for a position in the text notation ({len(text)} characters)")
    try:
        return position_from_text(text)
    except BadRequest as exc:
        if exc.field.startswith("position"):
            raise
        prefix = f"{exc.field}: "
        message = exc.message[len(prefix):] if exc.message.startswith(prefix) else exc.message
        field = "position" if exc.field in ("", "notation") else f"position.{exc.field}"
        raise BadRequest(field, f"{message} (text notation, see docs/notation.md)") from None


def position_from_json(obj) -> Position:
    """A position from its JSON object, or from its one-line text notation given as a
    JSON string (``docs/notation.md``)."""
    if isinstance(obj, str):
        return _position_from_notation(obj)
    if not isinstance(obj, dict):
        raise BadRequest("position", f"must be an object or a string in the text notation, got {type(obj).__name__}")
    for key in ("tiles", "mammoth", "players", "hunters", "to_move"):
        if key not in obj:
            raise BadRequest(f"position.{key}", "is missing")
    known = {"tiles", "mammoth", "players", "hunters", "traps", "to_move", "eliminated", "hands", "quiet_turns"}
    for key in obj:
        if key not in known:
            raise BadRequest(f"position.{key}", "is not a field of a position")

    tiles_obj = _obj(obj["tiles"], "position.tiles")
    tiles: list[Tile | None] = [None] * NUM_CELLS
    for name, value in tiles_obj.items():
        cell = _cell(name, f"position.tiles.{name}")
        if not isinstance(value, str) or value not in _TILES:
            raise BadRequest(f"position.tiles.{name}", f"must be grass, snow, rock or cross, got {value!r}")
        tiles[cell] = _TILES[value]
    missing = [CELL_NAMES[i] for i, t in enumerate(tiles) if t is None]
    if missing:
        raise BadRequest("position.tiles", f"all 37 cells are needed; missing {', '.join(missing[:5])}"
                                           f"{' …' if len(missing) > 5 else ''}")
    tiles_t = tuple(tiles)

    mammoth = _cell(obj["mammoth"], "position.mammoth")
    if tiles_t[mammoth] is Tile.ROCK:
        raise BadRequest("position.mammoth", "the mammoth cannot stand on rock")

    players_v = obj["players"]
    if not isinstance(players_v, list) or not 1 <= len(players_v) <= 4:
        raise BadRequest("position.players", "must be a list of 1 to 4 player names in seating order")
    players = tuple(_name(p, f"position.players[{i}]") for i, p in enumerate(players_v))
    if len(set(players)) != len(players):
        raise BadRequest("position.players", "player names must be distinct")

    eliminated_v = obj.get("eliminated", [])
    if not isinstance(eliminated_v, list):
        raise BadRequest("position.eliminated", "must be a list of player names")
    for i, p in enumerate(eliminated_v):
        if p not in players:
            raise BadRequest(f"position.eliminated[{i}]", f"{p!r} is not one of the players")
    eliminated = tuple(p for p in players if p in eliminated_v)

    hunters: dict[str, int] = {}
    for name, cell_v in _obj(obj["hunters"], "position.hunters").items():
        field = f"position.hunters.{name}"
        if name not in players:
            raise BadRequest(field, f"{name!r} is not one of the players")
        if name in eliminated:
            raise BadRequest(field, f"{name} is eliminated and has no hunter on the board")
        cell = _cell(cell_v, field)
        if tiles_t[cell] is Tile.ROCK:
            raise BadRequest(field, f"a hunter cannot stand on rock ({cell_v})")
        hunters[name] = cell
    hunters = {p: hunters[p] for p in players if p in hunters}

    traps: dict[int, str] = {}
    for name, owner in _obj(obj.get("traps", {}), "position.traps").items():
        field = f"position.traps.{name}"
        cell = _cell(name, field)
        if owner not in players:
            raise BadRequest(field, f"owner {owner!r} is not one of the players")
        if tiles_t[cell] is not Tile.GRASS:
            raise BadRequest(field, "traps lie on grass only")
        traps[cell] = owner
    for p in players:
        if sum(1 for o in traps.values() if o == p) > 4:
            raise BadRequest("position.traps", f"{p} has more than 4 traps on the board")

    # Only a finished game shows the mammoth in a trap, possibly under a hunter who stood there.
    if mammoth not in traps:
        for name, cell in hunters.items():
            if cell == mammoth:
                raise BadRequest(f"position.hunters.{name}", "a hunter at rest never shares the mammoth's cell")
    to_move = obj["to_move"]
    if to_move not in players:
        raise BadRequest("position.to_move", f"{to_move!r} is not one of the players")

    hands = None
    if obj.get("hands") is not None:
        hands = {}
        for name, cards in _obj(obj["hands"], "position.hands").items():
            field = f"position.hands.{name}"
            if name not in players:
                raise BadRequest(field, f"{name!r} is not one of the players")
            # type(c) is int: neither true nor 1.0 is a card value
            if not isinstance(cards, list) or len(cards) > HAND_SIZE or any(
                    type(c) is not int or c not in CARD_VALUES for c in cards):
                raise BadRequest(field, "must be a list of at most 3 card values among 1, 2, 3")
            hands[name] = tuple(cards)
        for p in players:
            hands.setdefault(p, ())
    quiet = _int(obj.get("quiet_turns", 0), "position.quiet_turns")
    if quiet < 0:
        raise BadRequest("position.quiet_turns", "must not be negative")
    return Position(tiles_t, mammoth, players, hunters, traps, to_move, eliminated, hands, quiet)


def position_to_json(pos: Position) -> dict:
    out = {
        "tiles": {CELL_NAMES[i]: t.value for i, t in enumerate(pos.tiles)},
        "mammoth": CELL_NAMES[pos.mammoth],
        "players": list(pos.players),
        "hunters": {p: CELL_NAMES[c] for p, c in pos.hunters.items()},
        "traps": {CELL_NAMES[c]: o for c, o in sorted(pos.traps.items())},
        "to_move": pos.to_move,
        "eliminated": list(pos.eliminated),
    }
    if pos.hands is not None:
        out["hands"] = {p: list(h) for p, h in pos.hands.items()}
    if pos.quiet_turns:
        out["quiet_turns"] = pos.quiet_turns
    return out


_ACTION_TYPES = ("move", "place_trap", "remove_trap", "pass")


def action_from_json(obj) -> Action:
    obj = _obj(obj, "action")
    kind = obj.get("type")
    if kind not in _ACTION_TYPES:
        raise BadRequest("action.type", f"must be one of {', '.join(_ACTION_TYPES)}")
    if "hunter" not in obj:
        raise BadRequest("action.hunter", "is missing")
    hunter = _name(obj["hunter"], "action.hunter")
    allowed = {"type", "hunter"} | ({"direction", "distance"} if kind == "move" else set()) | (
        {"card"} if kind == "pass" else set())
    for key in obj:
        if key not in allowed:
            raise BadRequest(f"action.{key}", f"is not a field of a {kind} action")
    if kind == "move":
        direction = obj.get("direction")
        if direction not in DIRECTIONS:
            raise BadRequest("action.direction", f"must be one of {' '.join(DIRECTIONS)}, got {direction!r}")
        if "distance" not in obj:
            raise BadRequest("action.distance", "is missing")
        return Move(hunter, direction, _int(obj["distance"], "action.distance"))
    if kind == "place_trap":
        return PlaceTrap(hunter)
    if kind == "remove_trap":
        return RemoveTrap(hunter)
    card = obj.get("card")
    return Pass(hunter, None if card is None else _int(card, "action.card"))


def action_to_json(action: Action) -> dict:
    if isinstance(action, Move):
        return {"type": "move", "hunter": action.hunter, "direction": action.direction, "distance": action.distance}
    if isinstance(action, PlaceTrap):
        return {"type": "place_trap", "hunter": action.hunter}
    if isinstance(action, RemoveTrap):
        return {"type": "remove_trap", "hunter": action.hunter}
    out = {"type": "pass", "hunter": action.hunter}
    if action.card is not None:
        out["card"] = action.card
    return out


def choices_from_json(value) -> tuple[tuple[str, int], ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise BadRequest("choices", "must be a list of {\"hunter\": name, \"to\": \"q,r\"}")
    out = []
    for i, item in enumerate(value):
        item = _obj(item, f"choices[{i}]")
        if "hunter" not in item or "to" not in item:
            raise BadRequest(f"choices[{i}]", "needs \"hunter\" and \"to\"")
        for key in item:
            if key not in ("hunter", "to"):
                raise BadRequest(f"choices[{i}].{key}", "is not a field of a choice (fields: hunter, to)")
        out.append((_name(item["hunter"], f"choices[{i}].hunter"), _cell(item["to"], f"choices[{i}].to")))
    return tuple(out)


def choices_to_json(choices) -> list[dict]:
    return [{"hunter": h, "to": CELL_NAMES[c]} for h, c in choices]


def needs_to_json(needs) -> dict | None:
    if needs is None:
        return None
    return {"hunter": needs.hunter, "cell": CELL_NAMES[needs.cell],
            "options": [CELL_NAMES[o] for o in needs.options], "rule": "flight.frighten"}

"""From the app's live state to what a page shows: board SVG, explained log, LEDs.

Built once per update by the hub, then sent unchanged to every viewer.

>>> view = live_view({})
>>> view["svg"].count('class="cell"'), view["log"], view["players"]
(37, [], [])
>>> live_view({"leds": [[255, 0, 16], "bad"]})["leds"]
['#ff0010', '#000000']
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from engine import events as engine_events, explain

from engine.hexgrid import CELL_NAMES, CELLS, parse_cell

from .board_svg import player_colours, render_board

LANGS = ("en", "fr")
_EXPLAINED: dict[str, dict] = {}


def explain_events(events, names: Mapping | None = None) -> dict[str, list[str]]:
    """The step-by-step explanation of a turn in every language (each event, each
    direction a flight tried and why, the rule section). ``names`` maps player ids to
    the display names the table chose; the sentences are shown as text, never markup.

    >>> explain_events([{"type": "passed", "hunter": "A", "card": 1}], {"A": "Zoé"})["fr"]
    ['Zoé défausse une carte et passe.']
    """
    events = engine_events.to_json(e for e in events or () if isinstance(e, Mapping))
    try:
        key = json.dumps([events, names or {}], sort_keys=True)
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _EXPLAINED:
        return _EXPLAINED[key]
    if names:
        events = [{k: names.get(v, v) if k in ("hunter", "owner", "winner") and isinstance(v, str) else v
                   for k, v in e.items()} for e in events]
    result = {lang: [polish(line, lang) for line in explain.explain(events, lang)] for lang in LANGS}
    if key is not None:
        if len(_EXPLAINED) > 4096:  # a memo of past turns, so each update explains only the new one
            _EXPLAINED.clear()
        _EXPLAINED[key] = result
    return result


def turn_in_words(events, names: Mapping | None = None) -> dict[str, str]:
    """A turn named in a few words, in every language: its first sentence without the
    rule citation (what the undo button and the correction notices say).

    >>> turn_in_words([{"type": "hunter_moved", "hunter": "C", "from": "2,0", "to": "4,0", "path": ["3,0", "4,0"],
    ...                 "direction": "E", "distance": 2}], {"C": "Yellow"})["en"]
    'Yellow moves 2 E from 2,0 to 4,0'
    """
    said = explain_events(events, names)
    out = {}
    for lang in LANGS:
        first = next((line for line in said[lang] if line and not line.startswith(" ")), "")
        out[lang] = first.partition("  [")[0].rstrip(". ")
    return out


def named_notation(notation: str, names: Mapping | None) -> str:
    """The notation as people read it: each player's id replaced by his name (the API
    keeps the ids: ``notation``).

    >>> named_notation("A:E2 B>1,1", {"A": "Yellow", "B": "Blue"}), named_notation("C@0,-3", {"C": "Red"})
    ('Yellow:E2 Blue>1,1', 'Red@0,-3')
    >>> named_notation("A:T", {})
    'A:T'
    """
    def name(match):
        return str((names or {}).get(match.group(1), match.group(1))) + match.group(2)

    return re.sub(r"(?:(?<=^)|(?<=\s))([^\s:@>]+)([:@>])", name, notation)


def actor_of(notation: str) -> str | None:
    """The player whose entry it is (the id before ``:`` or ``@``).

    >>> actor_of("B:W1 A>0,1"), actor_of("C@0,-3"), actor_of("")
    ('B', 'C', None)
    """
    match = re.match(r"([^\s:@>]+)[:@]", notation)
    return match.group(1) if match else None


#: The rule citation's tags as a French reader reads them.
_FR_TAGS = (("RULINGS «Mammoth flight»", "Arbitrages «Fuite du mammouth»"),
            ("RULINGS «Elimination and the end»", "Arbitrages «Élimination et fin»"),
            ("RULINGS «Actions»", "Arbitrages «Actions»"), ("RULINGS «Setup»", "Arbitrages «Mise en place»"),
            ("RULINGS", "Arbitrages"), ("EN «", "trad. anglaise «"), ("FR «", "règle «"), (" note", " remarque"))


def polish(line: str, lang: str) -> str:
    """A sentence of the explanation as the page shows it: one cell, not "1 cells";
    in French, the citation's tags in French (the French rulebook first).

    >>> polish("The mammoth flees 1 cells NE from 0,2 to 1,1.  [RULINGS «Mammoth flight» 2]", "en")
    'The mammoth flees 1 cell NE from 0,2 to 1,1.  [RULINGS «Mammoth flight» 2]'
    >>> polish("Le mammouth fuit de 1 cases vers NE.  [FR «Tour de jeu» 1; RULINGS «Actions» Move]", "fr")
    'Le mammouth fuit de 1 case vers NE.  [règle «Tour de jeu» 1; Arbitrages «Actions» Move]'
    """
    line = re.sub(r"\b1 cells\b", "1 cell", line)
    line = re.sub(r"\b1 cases\b", "1 case", line)
    if lang == "fr" and "  [" in line:
        text, _, cite = line.partition("  [")
        for en, fr in _FR_TAGS:
            cite = cite.replace(en, fr)
        line = f"{text}  [{cite}"
    return line


def _led_colour(value) -> str:
    try:
        r, g, b = (max(0, min(255, int(c))) for c in value)
    except (TypeError, ValueError):
        return "#000000"
    return f"#{r:02x}{g:02x}{b:02x}"


def players_view(position: Mapping, info: Mapping | None) -> list[dict]:
    players = [p for p in position.get("players") or [] if isinstance(p, str)]
    colours = player_colours(players, info)
    eliminated = set(position.get("eliminated") or [])
    hands = position.get("hands") if isinstance(position.get("hands"), Mapping) else {}
    out = []
    for player in players:
        name = ((info or {}).get(player) or {}).get("name") if isinstance(info, Mapping) else None
        out.append({"id": player, "name": str(name or player), "colour": colours[player],
                    "eliminated": player in eliminated, "to_move": position.get("to_move") == player,
                    "cards": len(hands.get(player) or ()) if hands else None})
    return out


def default_led_layout() -> list[str | None]:
    """The cell under each LED of the default chain (``firmware_bridge.ledmap``'s
    serpentine from the north-west corner), then ``None`` for the 4 status LEDs. The
    app may publish its own as ``led_cells`` (a list of ``"q,r"`` or ``None``).

    >>> layout = default_led_layout()
    >>> len(layout), layout[:5], layout[37:]
    (41, ['0,-3', '1,-3', '2,-3', '3,-3', '3,-2'], [None, None, None, None])
    """
    rows = sorted({CELLS[parse_cell(name)][1] for name in CELL_NAMES})
    chain: list[str | None] = []
    for k, r in enumerate(rows):
        row = sorted((n for n in CELL_NAMES if CELLS[parse_cell(n)][1] == r), key=lambda n: CELLS[parse_cell(n)][0])
        chain.extend(row if k % 2 == 0 else reversed(row))
    return chain + [None] * 4


_DEFAULT_LEDS = default_led_layout()


def _led_cells(count: int, cells) -> list[str | None]:
    """The cell under each of the ``count`` LEDs (``None``: a status LED), for the
    referee's mirror drawn as the board; the page places each LED at its cell."""
    layout = cells if isinstance(cells, list) else _DEFAULT_LEDS
    out = []
    for i in range(count):
        cell = layout[i] if i < len(layout) else None
        out.append(cell if isinstance(cell, str) and cell in _CELL_SET else None)
    return out


_CELL_SET = frozenset(CELL_NAMES)


def result_of(log: list, winner) -> dict | None:
    """How the game ended, from the last turn's events: the winner, the reason, and who
    set the trap the mammoth fell into (``None`` while the game goes on)."""
    if not winner:
        return None
    events = log[-1].get("events", []) if log else []
    over = next((e for e in events if isinstance(e, Mapping) and e.get("type") == "game_over"), {})
    trapped = next((e for e in events if isinstance(e, Mapping) and e.get("type") == "mammoth_trapped"), {})
    return {"winner": winner, "reason": over.get("reason"), "trap_owner": trapped.get("owner"),
            "cell": trapped.get("cell"), "turns": len(log)}


def live_view(state: Mapping) -> dict:
    position = state.get("position") if isinstance(state.get("position"), Mapping) else {}
    # Cards in hand are secret at the table: the public view shows how many, never which.
    public = {k: v for k, v in position.items() if k != "hands"}
    info = state.get("players") if isinstance(state.get("players"), Mapping) else None
    log = [entry for entry in state.get("log") or [] if isinstance(entry, Mapping)]
    last_events = log[-1].get("events", []) if log else []
    # While a frightened hunter's owner chooses, the waiting turn's events (when the
    # table publishes them as ``pending_events``) show the move and the mammoth's path.
    pending = state.get("pending_events")
    if state.get("needs") and isinstance(pending, list):
        last_events = [e for e in pending if isinstance(e, Mapping)]
    svg = render_board(position, events=last_events, players_info=info, flee=state.get("needs"),
                       illegal=state.get("illegal") or [])
    names = {p["id"]: p["name"] for p in players_view(position, info)}
    camera = state.get("camera") if isinstance(state.get("camera"), Mapping) else {}
    leds = [_led_colour(v) for v in state.get("leds") or []]
    return {
        "position": public or None,
        "players": players_view(position, info),
        "svg": svg,
        "log": [_log_entry(str(entry.get("notation", "")), entry.get("events"), names) for entry in log],
        "winner": state.get("winner"),
        "needs": state.get("needs"),
        "phase": state.get("phase"),
        "next_to_place": state.get("next_to_place"),
        "illegal": state.get("illegal") or [],
        "leds": leds,
        # Where each LED sits under the board, for the referee's mirror.
        "led_cells": _led_cells(len(leds), state.get("led_cells")),
        "result": result_of(log, state.get("winner")),
        # The page's own address (published by the app), shown with a QR code to join.
        # The game's entity tag (``If-Match`` of the referee's writes, ``docs/web-api.md``).
        "etag": state.get("etag") if isinstance(state.get("etag"), str) else None,
        # The referee's last correction ("taken_back" / "entered" and the turn), until the next change.
        "correction": _correction_view(state.get("correction")),
        "url": state.get("url") if isinstance(state.get("url"), str) and len(state.get("url")) < 200 else None,
        "camera": {"frame": int(camera.get("frame", 0) or 0),
                   "confidence": camera.get("confidence") if isinstance(camera.get("confidence"), Mapping) else {},
                   # Only when the camera loop has a word on the light: the keys stay as they were.
                   **({"light": _light_view(camera["light"])} if isinstance(camera.get("light"), Mapping) else {})},
    }


def _log_entry(notation: str, events, names: Mapping) -> dict:
    """A log entry as pages show it: the notation with ids (the API's), with names
    (``named``, what people read), whose entry it is, and the explanation."""
    return {"notation": notation, "named": named_notation(notation, names), "player": actor_of(notation),
            **explain_events(events, names)}


def _correction_view(correction) -> dict | None:
    if not isinstance(correction, Mapping) or correction.get("kind") not in ("taken_back", "entered"):
        return None
    return {key: str(correction.get(key, ""))[:200] for key in ("kind", "notation", "named", *LANGS)}


_LIGHT_KINDS = ("glare", "dark", "unreadable")
_RELEARN_STATES = ("waiting", "done", "failed")


def _light_view(light) -> dict | None:
    """The camera's word on the light, keeping only what the page words (codes, not prose).

    >>> _light_view({"warnings": [{"kind": "glare", "where": "south-east", "cells": ["1,2"]}, {"kind": "x"}],
    ...              "relearn": {"by": "auto", "state": "done", "reason": None}})["warnings"]
    [{'kind': 'glare', 'where': 'south-east', 'seconds': None}]
    """
    if not isinstance(light, Mapping):
        return None
    warnings = []
    for w in light.get("warnings") or []:
        if isinstance(w, Mapping) and w.get("kind") in _LIGHT_KINDS:
            where = w.get("where") if isinstance(w.get("where"), str) and len(w.get("where")) < 20 else None
            seconds = w.get("seconds") if isinstance(w.get("seconds"), int) else None
            warnings.append({"kind": w["kind"], "where": where, "seconds": seconds})
    relearn = light.get("relearn")
    if isinstance(relearn, Mapping) and relearn.get("state") in _RELEARN_STATES:
        reason = relearn.get("reason") if isinstance(relearn.get("reason"), str) and len(relearn.get("reason")) < 30 else None
        relearn = {"by": "button" if relearn.get("by") == "button" else "auto", "state": relearn["state"],
                   "reason": reason}
    else:
        relearn = None
    return {"warnings": warnings, "relearn": relearn}

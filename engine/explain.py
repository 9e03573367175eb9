"""Sentences for events, in English and French: the referee's explanation trace.

>>> event = {"type": "mammoth_fled", "from": "0,2", "to": "2,0", "path": ["1,1", "2,0"], "direction": "NE",
...          "distance": 2, "hunter": "A", "rule": "flight.order",
...          "tried": [{"direction": "E", "open": False, "reason": "edge", "cell": "3,2"},
...                    {"direction": "NE", "open": True, "reason": "open", "cell": None}]}
>>> describe(event)
'The mammoth flees 2 cells NE from 0,2 to 2,0.'
>>> explain_flight(event, "fr")[0]
'E : refusée, 3,2 est hors du plateau.'
"""

from __future__ import annotations

from .rulebook import RULES

DIRECTION_NAMES = {
    "en": {"E": "E", "SE": "SE", "SW": "SW", "W": "W", "NW": "NW", "NE": "NE"},
    "fr": {"E": "E", "SE": "SE", "SW": "SO", "W": "O", "NW": "NO", "NE": "NE"},
}

_TEXT = {
    "en": {
        "hunter_placed": "{hunter} places the hunter on {cell}.",
        "hunter_moved": "{hunter} moves {distance} {direction} from {from_} to {to}.",
        "hunter_moved_continued": "{hunter} walks on from {from_} to {to}.",
        "mammoth_fled": "The mammoth flees {distance} {cells} {direction} from {from_} to {to}.",
        "mammoth_faced": "The mammoth at {cell} cannot flee and turns on {hunter}.",
        "hunter_fled": "{hunter}, frightened, flees from {from_} to {to}.",
        "hunter_eliminated": "{hunter} is out of the game ({reason}).",
        "trap_placed": "{hunter} sets a trap on {cell}.",
        "trap_removed": "{hunter} removes {owner}'s trap from {cell}.",
        "passed": "{hunter} discards a card and passes.",
        "mammoth_trapped": "The mammoth falls into {owner}'s trap on {cell}!",
        "game_over": "Game over: {winner} wins ({reason}).",
        "open": "{direction}: open, the mammoth takes it.",
        "edge": "{direction}: refused, {cell} is off the board.",
        "rock": "{direction}: refused, {cell} is rock.",
        "arrival": "{direction}: never taken, the hunter came from there.",
        "reasons": {"mammoth_faced": "the mammoth turned on him", "no_escape": "nowhere to flee",
                    "trap": "the mammoth is trapped", "no_hunters": "no hunter is left",
                    "mammoth_safe": "no trap can ever catch the mammoth", "stall": "the hunt went round in circles"},
        "mammoth": "the mammoth",
        "cell": ("cell", "cells"),
    },
    "fr": {
        "hunter_placed": "{hunter} pose son chasseur sur {cell}.",
        "hunter_moved": "{hunter} avance de {distance} vers {direction}, de {from_} à {to}.",
        "hunter_moved_continued": "{hunter} termine son déplacement de {from_} à {to}.",
        "mammoth_fled": "Le mammouth fuit de {distance} {cells} vers {direction}, de {from_} à {to}.",
        "mammoth_faced": "Le mammouth en {cell} ne peut pas fuir et fait face à {hunter}.",
        "hunter_fled": "{hunter}, effrayé, fuit de {from_} à {to}.",
        "hunter_eliminated": "{hunter} est éliminé ({reason}).",
        "trap_placed": "{hunter} pose un piège sur {cell}.",
        "trap_removed": "{hunter} retire le piège de {owner} sur {cell}.",
        "passed": "{hunter} défausse une carte et passe.",
        "mammoth_trapped": "Le mammouth tombe dans le piège de {owner} en {cell} !",
        "game_over": "Fin de la partie : {winner} gagne ({reason}).",
        "open": "{direction} : libre, le mammouth la prend.",
        "edge": "{direction} : refusée, {cell} est hors du plateau.",
        "rock": "{direction} : refusée, {cell} est un rocher.",
        "arrival": "{direction} : jamais prise, le chasseur vient de là.",
        "reasons": {"mammoth_faced": "le mammouth lui a fait face", "no_escape": "aucune case pour fuir",
                    "trap": "le mammouth est piégé", "no_hunters": "il ne reste aucun chasseur",
                    "mammoth_safe": "aucun piège ne pourra jamais l'attraper",
                    "stall": "la chasse tournait en rond"},
        "mammoth": "le mammouth",
        "cell": ("case", "cases"),
    },
}

LANGUAGES = tuple(_TEXT)


def _lang(lang: str) -> dict:
    return _TEXT.get(lang, _TEXT["en"])


def describe(event: dict, lang: str = "en") -> str:
    """One sentence for one event."""
    text = _lang(lang)
    kind = event.get("type", "")
    key = "hunter_moved_continued" if kind == "hunter_moved" and event.get("continued") else kind
    template = text.get(key)
    if template is None or not isinstance(template, str):
        return kind
    values = {k: v for k, v in event.items() if isinstance(v, (str, int))}
    values["from_"] = event.get("from", "")
    if "direction" in event:
        values["direction"] = DIRECTION_NAMES.get(lang, DIRECTION_NAMES["en"]).get(event["direction"], event["direction"])
    if "reason" in event:
        values["reason"] = text["reasons"].get(event["reason"], event["reason"])
    if event.get("winner") == "mammoth":
        values["winner"] = text["mammoth"]
    singular, plural = text["cell"]
    values["cells"] = singular if event.get("distance") == 1 else plural
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return kind


def explain_flight(event: dict, lang: str = "en") -> list[str]:
    """One line per direction the mammoth tried, in the order it tried them."""
    text = _lang(lang)
    names = DIRECTION_NAMES.get(lang, DIRECTION_NAMES["en"])
    lines = []
    for attempt in event.get("tried", ()):
        template = text.get(attempt.get("reason"), "{direction}")
        lines.append(template.format(direction=names.get(attempt["direction"], attempt["direction"]),
                                     cell=attempt.get("cell")))
    if event.get("arrival"):
        lines.append(text["arrival"].format(direction=names.get(event["arrival"], event["arrival"])))
    return lines


def explain(events: list[dict], lang: str = "en", with_rules: bool = True) -> list[str]:
    """The whole trace of a turn: each event, the directions a flight tried, the rule."""
    lines = []
    for event in events:
        line = describe(event, lang)
        rule = event.get("rule")
        if with_rules and rule in RULES:
            line += f"  [{RULES[rule].section}]"
        lines.append(line)
        if event.get("type") in ("mammoth_fled", "mammoth_faced"):
            lines.extend("    " + step for step in explain_flight(event, lang))
    return lines

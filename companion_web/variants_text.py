"""The named variants in plain words (English and French), each with its rule section,
for the setup wizard and the sandbox (``docs/rulings.md`` is the reference).

>>> help = variant_help()
>>> help["flee_target"]["en"]["label"]
'Where may a frightened hunter flee?'
>>> help["flee_target"]["fr"]["values"]["empty"]
'sur une case sans chasseur ni piège'
>>> sorted(help) == sorted(CHOICES)
True
"""

from __future__ import annotations

from engine.variants import CHOICES

_TEXT = {
    "start_cells": ("Setup 4 · FR «Mise en place», EN «Setting up the game»",
                    ("Where may hunters start?", {"ring3": "on the outer ring (rulebook)",
                                                  "any_but_centre": "on any free cell but the cross"}),
                    ("Où les chasseurs peuvent-ils commencer ?", {"ring3": "sur le bord (règle)",
                                                                   "any_but_centre": "sur toute case libre sauf la croix"})),
    "first_player": ("Setup 5", ("Who plays first?", {"first_placer": "whoever placed first (rulebook)",
                                                       "last_placer": "whoever placed last"}),
                     ("Qui joue en premier ?", {"first_placer": "celui qui a posé en premier (règle)",
                                                "last_placer": "celui qui a posé en dernier"})),
    "alone_required_for_recover": ("FR «Tour de jeu» 3 · EN «Flow of play» 3",
                                   ("Must a hunter be alone to take back or destroy a trap?",
                                    {"true": "yes, alone on the cell (rulebook)", "false": "no"}),
                                   ("Faut-il être seul pour reprendre ou détruire un piège ?",
                                    {"true": "oui, seul sur la case (règle)", "false": "non"})),
    "reshuffle": ("Actions · end of «Tour de jeu»",
                  ("When the draw pile is empty", {"immediate": "reshuffle the discards at once (rulebook)",
                                                   "on_draw": "reshuffle only when a card must be drawn"}),
                  ("Quand la pioche est vide", {"immediate": "remélanger la défausse aussitôt (règle)",
                                                "on_draw": "remélanger seulement au moment de piocher"})),
    "trigger_on_pass_through": ("Mammoth rules ¶1",
                                ("Does walking over the mammoth scare it?",
                                 {"true": "yes, passing over it is enough (French rulebook)",
                                  "false": "no, only stopping on it (English rulebook)"}),
                                ("Passer sur le mammouth l'effraie-t-il ?",
                                 {"true": "oui, le traverser suffit (règle française)",
                                  "false": "non, seulement s'arrêter dessus (règle anglaise)"})),
    "flight_distance": ("Flight 1 · mammoth rules ¶1",
                        ("How far does the mammoth run?", {"card": "as many cells as the card played (rulebook)",
                                                           "steps_walked": "as many cells as the hunter walked"}),
                        ("Jusqu'où fuit le mammouth ?", {"card": "autant de cases que la carte jouée (règle)",
                                                         "steps_walked": "autant de cases que le chasseur a marché"})),
    "trap_truncates_path_check": ("Flight 3 · mammoth rules ¶2 and ¶6",
                                  ("Does a trap before a rock or the edge still catch the mammoth?",
                                   {"false": "no, the whole run must be free (rulebook)",
                                    "true": "yes, it falls into the trap first"}),
                                  ("Un piège avant un rocher ou le bord attrape-t-il le mammouth ?",
                                   {"false": "non, toute la course doit être libre (règle)",
                                    "true": "oui, il tombe d'abord dans le piège"})),
    "flee_target": ("Flight 5 · «case adjacente libre» / “free adjacent hexagon”",
                    ("Where may a frightened hunter flee?", {"unoccupied": "to a cell with no other hunter (rulebook)",
                                                             "accessible": "to any cell he could walk on",
                                                             "empty": "to a cell with no hunter and no trap"}),
                    ("Où un chasseur effrayé peut-il fuir ?", {"unoccupied": "sur une case sans autre chasseur (règle)",
                                                               "accessible": "sur toute case où il peut marcher",
                                                               "empty": "sur une case sans chasseur ni piège"})),
    "eliminated_traps": ("Elimination (not in the rulebooks)",
                         ("An eliminated player's traps", {"remove": "leave the board",
                                                           "keep_live": "stay and can still win for him",
                                                           "keep_inert": "stay as harmless tokens"}),
                         ("Les pièges d'un joueur éliminé", {"remove": "quittent le plateau",
                                                             "keep_live": "restent et peuvent encore le faire gagner",
                                                             "keep_inert": "restent sans effet"})),
    "stall_limit": ("FR «Cas particulier» · EN «Particular case»",
                    ("Does a hunt going round in circles end?", {"null": "no (rulebook)"}),
                    ("Une chasse qui tourne en rond s'arrête-t-elle ?", {"null": "non (règle)"})),
}


#: The rule sections' words as a French reader reads them (the sections of docs/rulings.md).
_RULE_FR = (("Setup", "Mise en place"), ("mammoth rules", "règles du mammouth"), ("Mammoth rules", "Règles du mammouth"),
            ("Flight", "Fuite"), ("Elimination (not in the rulebooks)", "Élimination (absente des règles)"),
            ("end of", "fin de"), (" and ", " et "), ("EN «", "trad. anglaise «"), ("FR «", "règle «"))


def rule_in_french(rule: str) -> str:
    """A variant's rule section in French words.

    >>> rule_in_french("Flight 3 · mammoth rules ¶2 and ¶6")
    'Fuite 3 · règles du mammouth ¶2 et ¶6'
    """
    for en, fr in _RULE_FR:
        rule = rule.replace(en, fr)
    return rule


def variant_help() -> dict:
    """``{name: {"rule": section, "rule_fr": section in French, "en": {"label", "values"},
    "fr": {...}}}``; value keys are the values as the setup form sends them (strings, or
    JSON for true/false/null)."""
    out = {}
    for name in CHOICES:
        rule, (en_label, en_values), (fr_label, fr_values) = _TEXT.get(name, ("", (name, {}), (name, {})))
        out[name] = {"rule": rule, "rule_fr": rule_in_french(rule), "en": {"label": en_label, "values": en_values},
                     "fr": {"label": fr_label, "values": fr_values}}
    return out


__all__ = ["variant_help"]

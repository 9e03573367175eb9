"""A game's events told in French or English, phase by phase (``maamut vallee replay``).

>>> say({"type": "food", "rule": "phase.survival", "player": "red", "delta": -3, "reason": "survival", "food": 9}, "fr")
'red : -3 nourriture (survie), il en reste 9'
>>> say({"type": "herd", "rule": "animals.herd", "species": "wolf", "cell": "0,1", "count": 2, "unit": "w"}, "en")
'2 wolf form a herd on 0,1'
"""

from __future__ import annotations

from .calendar import PHASE_EN, PHASE_FR
from .core import SEASON_FR, SPECIES
from .events import CARDS
from .tricks import TRICKS

REASON_FR = {
    "survival": "survie",
    "hunt": "chasse",
    "camp_taken": "camp pris",
    "sowing": "semailles",
    "return": "retour",
    "vol": "vol",
    "rongeurs": "rongeurs",
    "sauterelles": "sauterelles",
    "cannibales": "cannibales",
    "move": "déplacement",
    "combat": "combat",
    "starved": "famine",
    "birth": "naissance",
    "setup": "mise en place",
    "killed": "tués",
    "camp_burnt": "camp brûlé",
    "epidemie": "épidémie",
    "arrival": "arrivée",
}
STOP_FR = {
    "range": "portée",
    "obstacle": "obstacle",
    "humans": "humains",
    "herd": "troupeau",
    "frozen_lake": "lac gelé",
    "pinned": "retenu",
    "blocked": "bloqué",
}
#: Why an animal's walk ended, said to the table (``vallee.animals`` Walk.stop).
STOP_SAID = {
    "range": ("went as far as its species goes", "est allé aussi loin que va son espèce"),
    "obstacle": ("stopped before an obstacle", "s'est arrêté devant un obstacle"),
    "humans": ("stopped on meeting humans", "s'est arrêté en rencontrant des humains"),
    "herd": ("stopped to join its kind: a herd", "s'est arrêté pour rejoindre les siens : un troupeau"),
    "frozen_lake": ("may not stop on the frozen lake: stopped on its shore",
                    "ne s'arrête pas sur le lac gelé : arrêté sur la rive"),
    "pinned": ("held where it is by the humans on its cell", "retenu sur place par les humains de sa case"),
    "blocked": ("blocked both ways: did not move", "bloqué dans les deux sens : n'a pas bougé"),
}
FIELD_FR = {"intact": "intact", "damaged": "abîmé", "destroyed": "détruit"}
DIRECTION_FR = {
    "E": "l'est",
    "W": "l'ouest",
    "NE": "le nord-est",
    "NW": "le nord-ouest",
    "SE": "le sud-est",
    "SW": "le sud-ouest",
    "N": "le nord",
    "S": "le sud",
}
DECIDED_FR = {
    "setup": "la mise en place",
    "camps": "les camps",
    "pawns": "les pions",
    "food": "la nourriture",
    "draw": "tirage au sort",
}
#: Pawn changes the story leaves out: the event that caused them says it already.
QUIET_REASONS = ("move", "birth", "setup", "return")
SEX = {
    "warrior": ("a warrior", "un guerrier"),
    "woman": ("a woman", "une femme"),
    "cancelled": ("no birth (no piece left)", "pas de naissance (plus de pion)"),
}


def _fr_species(name: str) -> str:
    return SPECIES[name].fr if name in SPECIES else name


def _pawns(e) -> tuple[str, str]:
    w, f = e["warriors"], e["women"]
    parts_en = [f"{w:+d} warrior(s)"] * bool(w) + [f"{f:+d} woman/women"] * bool(f)
    parts_fr = [f"{w:+d} guerrier(s)"] * bool(w) + [f"{f:+d} femme(s)"] * bool(f)
    why = e.get("reason", "")
    return (
        f"{e['player']}: {', '.join(parts_en)} on {e['cell']} ({why})",
        f"{e['player']} : {', '.join(parts_fr)} en {e['cell']} ({REASON_FR.get(why, why)})",
    )


def _fight(e) -> tuple[str, str]:
    rolls = len(e["rolls"])
    return (
        f"Combat on {e['cell']} ({e['stage']}): {rolls} roll(s), {e['winner']} holds the cell",
        f"Combat en {e['cell']} ({'tribus' if e['stage'] == 'tribes' else 'animaux'}) : {rolls} jet(s), "
        f"{'les animaux tiennent' if e['winner'] == 'animals' else e['winner'] + ' tient'} la case",
    )


def _moved(e) -> tuple[str, str]:
    return (
        f"{e['player']} moves {e['warriors']} warrior(s) and {e['women']} woman/women {e['start']} → {e['end']}",
        f"{e['player']} déplace {e['warriors']} guerrier(s) et {e['women']} femme(s) {e['start']} → {e['end']}",
    )


def _animals_moved(e) -> tuple[str, str]:
    en = [f"Die {e['face']}: the animals go {e['direction']}"]
    fr = [f"Dé {e['face']} : les animaux vont vers {DIRECTION_FR[e['direction']]}"]
    for m in e["moves"]:
        en.append(f"  {m['species']} ×{m['count']} {m['from']} → {m['to']} ({m['stop']})")
        fr.append(
            f"  {_fr_species(m['species'])} ×{m['count']} {m['from']} → {m['to']} ({STOP_FR.get(m['stop'], m['stop'])})"
        )
    return "\n".join(en), "\n".join(fr)


def _turn(e) -> tuple[str, str]:
    return (
        f"== Turn {e['turn']}: {e['season']}, turn {e['season_turn']} of the season, year {e['year']}",
        f"== Tour {e['turn']} : {SEASON_FR[e['season']]}, tour {e['season_turn']} de la saison, année {e['year']}",
    )


def _game_over(e) -> tuple[str, str]:
    if e["reason"] == "extinct":
        return "Game over: mankind is extinct, everybody loses", "Fin : l'espèce humaine est éteinte, tous ont perdu"
    who = ", ".join(e["winners"])
    why = {
        "four_camps": ("four camps two turns running", "quatre camps deux tours de suite"),
        "last_tribe": ("the last tribe standing", "la dernière tribu en vie"),
    }[e["reason"]]
    return f"Game over: {who} wins ({why[0]})", f"Fin : {who} gagne ({why[1]})"


TEXTS = {
    "turn": _turn,
    "first_player": lambda e: (f"{e['player']} sets up first", f"{e['player']} s'installe en premier"),
    "dealt": lambda e: (
        f"Each player is dealt {e['cards']} trick cards",
        f"Chaque joueur reçoit {e['cards']} cartes astuce",
    ),
    "camp_founded": lambda e: (
        f"{e['player']} has a {e['camp']} on {e['cell']}",
        f"{e['player']} a {'un village' if e['camp'] == 'village' else 'une grotte'} en {e['cell']}",
    ),
    "camp_lost": lambda e: (
        f"{e['player']} loses the camp on {e['cell']} ({e['why']})",
        f"{e['player']} perd le camp en {e['cell']} ({e['why']})",
    ),
    "camp_taken": lambda e: (
        f"{e['player']} takes {e['loser']}'s camp on {e['cell']} and {e['food']} food",
        f"{e['player']} prend le camp de {e['loser']} en {e['cell']} et {e['food']} nourriture",
    ),
    "camp_burnt": lambda e: (
        f"{e['player']} burns the camp on {e['cell']}",
        f"{e['player']} brûle le camp en {e['cell']}",
    ),
    "pawns": _pawns,
    "food": lambda e: (
        f"{e['player']}: {e['delta']:+d} food ({e['reason']}), {e['food']} left",
        f"{e['player']} : {e['delta']:+d} nourriture ({REASON_FR.get(e['reason'], e['reason'])}), "
        f"il en reste {e['food']}",
    ),
    "sown": lambda e: (f"{e['player']} sows a field on {e['cell']}", f"{e['player']} sème un champ en {e['cell']}"),
    "event": lambda e: (
        f"Event: {e['title']} — {CARDS[e['card']].en}",
        f"Événement : {e['title']} — {CARDS[e['card']].fr}",
    ),
    "event_cells": lambda e: (
        f"Cells hit: {', '.join(e['cells']) or 'none'}",
        f"Cases touchées : {', '.join(e['cells']) or 'aucune'}",
    ),
    "reroll": lambda e: (
        f"The die shows {e['face']}: nothing to pick, roll again",
        f"Le dé montre {e['face']} : rien à désigner, on relance",
    ),
    "no_effect": lambda e: ("The card has no effect", "La carte n'a pas d'effet"),
    "no_arrivals": lambda e: ("No animal arrives", "Aucun animal n'arrive"),
    "animals_arrived": lambda e: (
        f"{e['count']} {e['species']} on {e['cell']} ({e['why']})",
        f"{e['count']} {_fr_species(e['species'])} en {e['cell']} ({REASON_FR.get(e['why'], e['why'])})",
    ),
    "arrival_refused": lambda e: (
        f"{e['species']} {e['letter']}: back to the bag ({e['why']})",
        f"{_fr_species(e['species'])} {e['letter']} : retour au sac ({e['why']})",
    ),
    "animals_moved": _animals_moved,
    "herd": lambda e: (
        f"{e['count']} {e['species']} form a herd on {e['cell']}",
        f"{e['count']} {_fr_species(e['species'])} forment un troupeau en {e['cell']}",
    ),
    "field": lambda e: (
        f"Field on {e['cell']}: {e['before']} → {e['after']}",
        f"Champ en {e['cell']} : {e['before']} → {e['after']}",
    ),
    "fields_removed": lambda e: (
        "Harvest over: every field marker is removed",
        "Récolte finie : tous les champs sont retirés",
    ),
    "animals_removed": lambda e: (
        f"{e['count']} {e['species']} leave {e['cell']} ({e['why']})",
        f"{e['count']} {_fr_species(e['species'])} quittent {e['cell']} ({REASON_FR.get(e['why'], e['why'])})",
    ),
    "order": lambda e: (
        f"Turn order: {', '.join(e['order'])} (first by {e['decided_by']})",
        f"Ordre du tour : {', '.join(e['order'])} (premier par {DECIDED_FR[e['decided_by']]})",
    ),
    "moved": _moved,
    "moves_done": lambda e: (f"{e['player']} has moved", f"{e['player']} a fini ses déplacements"),
    "fight": _fight,
    "ledger": lambda e: (
        f"{e['player']}: survival balance {e['balance']:+d}" + (f", {e['starve']} starve" if e["starve"] else ""),
        f"{e['player']} : solde de survie {e['balance']:+d}"
        + (f", {e['starve']} meurent de faim" if e["starve"] else ""),
    ),
    "birth": lambda e: (
        f"{e['player']}: {SEX[e['sex']][0]} on {e['cell']} (dice {e['dice']})",
        f"{e['player']} : {SEX[e['sex']][1]} en {e['cell']} (dés {e['dice']})",
    ),
    "trick": lambda e: (
        f"{e['player']} plays {TRICKS[e['card']].title}: {TRICKS[e['card']].en}",
        f"{e['player']} joue {TRICKS[e['card']].title} : {TRICKS[e['card']].fr}",
    ),
    "trick_drawn": lambda e: (f"{e['player']} draws a trick card", f"{e['player']} pioche une carte astuce"),
    "reshuffled": lambda e: (
        f"The {e['deck']} discards are shuffled into a new deck",
        f"La défausse ({e['deck']}) est mélangée",
    ),
    "fire": lambda e: (
        f"{e['player']} {'has' if e['fire'] else 'loses'} fire ({e['why']})",
        f"{e['player']} {'a' if e['fire'] else 'perd'} le feu ({e['why']})",
    ),
    "fire_roll": lambda e: (
        f"{e['player']} rolls {e['face']}: fire unchanged",
        f"{e['player']} fait {e['face']} : le feu ne change pas",
    ),
    "epidemic": lambda e: (
        f"The die shows {e['face']}: every tribe loses {SEX[e['sex']][0]}",
        f"Le dé montre {e['face']} : chaque tribu perd {SEX[e['sex']][1]}",
    ),
    "epizootic": lambda e: (
        f"Every {e['species']} leaves the board",
        f"Tous les {_fr_species(e['species'])} quittent le plateau",
    ),
    "river_frozen": lambda e: (
        f"River {e['river']} freezes" + (" and the lake with it" if e["lake"] else ""),
        f"La rivière {e['river']} gèle" + (" et le lac avec elle" if e["lake"] else ""),
    ),
    "drought_over": lambda e: ("The drought is over", "La sécheresse cesse"),
    "season_held": lambda e: ("The season lasts one more turn", "La saison dure un tour de plus"),
    "winter_over": lambda e: (
        "Winter ends: rivers thaw, meat is fat again",
        "L'hiver finit : les rivières dégèlent, la viande regraisse",
    ),
    "neutral": lambda e: (
        f"A lone {e['sex']} appears on {e['cell']}",
        f"{SEX[e['sex']][1].capitalize()} solitaire apparaît en {e['cell']}",
    ),
    "neutral_moved": lambda e: (
        f"The solitaire goes {e['start']} → {e['end']}",
        f"Le solitaire va de {e['start']} à {e['end']}",
    ),
    "neutral_joined": lambda e: (
        f"The solitaire joins {e['player']} on {e['cell']}",
        f"Le solitaire rejoint {e['player']} en {e['cell']}",
    ),
    "neutral_gone": lambda e: (
        f"The solitaire on {e['cell']} is gone ({e['why']})",
        f"Le solitaire en {e['cell']} disparaît ({e['why']})",
    ),
    "eliminated": lambda e: (
        f"{e['player']}'s tribe is wiped out" + (" (it may come back)" if e["may_return"] else ""),
        f"La tribu de {e['player']} est anéantie" + (" (elle peut revenir)" if e["may_return"] else ""),
    ),
    "returned": lambda e: (f"{e['player']} comes back on {e['cell']}", f"{e['player']} revient en {e['cell']}"),
    "return_impossible": lambda e: (
        f"{e['player']} finds no free edge cell to come back",
        f"{e['player']} ne trouve pas de case libre pour revenir",
    ),
    "four_camps": lambda e: (
        f"{', '.join(e['players'])}: four camps announced",
        f"{', '.join(e['players'])} : quatre camps annoncés",
    ),
    "game_over": _game_over,
    "warning": lambda e: (
        f"{e['player']}: the camp on {', '.join(e['cells'])} has no woman left",
        f"{e['player']} : le camp en {', '.join(e['cells'])} n'a plus de femme",
    ),
    "hidden": lambda e: (
        f"{e['player']} hides in the trees on {e['cell']}",
        f"{e['player']} se cache dans les arbres en {e['cell']}",
    ),
    "saved": lambda e: (
        f"{e['player']}'s group on {e['cell']} survives the flood",
        f"Le groupe de {e['player']} en {e['cell']} survit à l'inondation",
    ),
    "wolf_tamed": lambda e: (
        f"{e['player']} tames the wolf on {e['cell']}",
        f"{e['player']} apprivoise le loup en {e['cell']}",
    ),
    "next_event": lambda e: (
        f"{e['player']} looks at the next event card",
        f"{e['player']} regarde la prochaine carte événement",
    ),
}


def say(event: dict, lang: str = "en") -> str:
    """One event as a sentence (``lang``: "en" or "fr")."""
    text = TEXTS.get(event["type"])
    if text is None:
        return f"{event['type']} ({event['rule']})"
    en, fr = text(event)
    return fr if lang == "fr" else en


def phase_title(phase: str, lang: str) -> str:
    if phase in ("setup", "start"):
        return {"setup": ("setup", "mise en place"), "start": ("new turn", "nouveau tour")}[phase][lang == "fr"]
    return PHASE_FR[phase] if lang == "fr" else PHASE_EN[phase]


def story(events, lang: str = "en", phases=None) -> list[dict]:
    """Events grouped by turn and phase, in order: ``[{"turn", "phase", "title", "lines"}]``."""
    phases = [] if phases is None else phases
    for event in events:
        if event["type"] == "pawns" and event.get("reason") in QUIET_REASONS:
            continue  # the move, birth or setup line says it
        where = (event["turn"], event["phase"])
        if not phases or (phases[-1]["turn"], phases[-1]["phase"]) != where:
            phases.append({"turn": where[0], "phase": where[1], "title": phase_title(where[1], lang), "lines": []})
        phases[-1]["lines"].extend(say(event, lang).split("\n"))
    return phases


def replay_story(setup: dict, entries, lang: str = "en"):
    """Replay a game entry by entry: the game and its story (see :func:`story`)."""
    from .game import Game

    game = Game.new(setup)
    phases = story(game.setup_events, lang)
    for entry in entries:
        story(game.apply(entry), lang, phases)
    return game, phases

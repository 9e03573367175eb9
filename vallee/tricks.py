"""The 40 trick cards as data, and the trick draw at the end of each season (rules §9).

Each card has its moment of play (rules «Texte des cartes astuces»), whether it needs
the fire rules, and our paraphrase in two languages (never the printed text). At the
end of a season, every player holding fewer cards than the hand limit (five, four with
five or six players) draws exactly one; an empty pile is remade from the discards
(rules «9) Astuces»).

>>> len(TRICKS), TRICKS["radeau"].when
(40, 'movement')
>>> trick_draws({"Ana": 5, "Bo": 2, "Cy": 4}, players=3, pile=1, discards=6)
(('Bo', 'Cy'), True)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Trick:
    id: str
    title: str
    when: str        # movement, combat, births, survival, sowing, after_animals, animals, events, any, …
    fire: str        # "" no fire text, "needs" fire to play, "option" a fire-rules alternative
    en: str
    fr: str


def _t(*args) -> Trick:
    return Trick(*args)


_ROWS = (
    _t("ami", "Ami", "combat", "", "A lone enemy warrior on a cell with your pawns joins your tribe.",
       "Un guerrier ennemi seul sur une case avec vos pions passe dans votre tribu."),
    _t("appeau", "Appeau", "before_combat", "", "Just before your combats, lure one animal (even out of a herd) from a neighbouring cell without humans onto one of your groups; a bear may be lured across a river.",
       "Juste avant vos combats, attirez un animal (même d'un troupeau) d'une case voisine sans humains vers un de vos groupes ; un ours peut traverser une rivière."),
    _t("bonnes_herbes", "Bonnes herbes", "births", "", "Choose the sex of this turn's newborns in one of your camps.",
       "Choisissez le sexe des naissances de ce tour dans un de vos camps."),
    _t("camouflage", "Camouflage", "movement", "", "A group passes through a cell with animals or enemies without stopping.",
       "Un groupe traverse sans s'arrêter une case occupée par des animaux ou des ennemis."),
    _t("cannibales", "Cannibales", "any", "", "Until the turn ends, gain 1 food for each enemy pawn you kill and each of your pawns you let starve.",
       "Jusqu'à la fin du tour, gagnez 1 nourriture par pion ennemi tué et par pion à vous mort de faim."),
    _t("chute_de_pierre", "Chute de pierre", "end_of_movement", "", "A pawn of yours in the mountains that neither moved nor fights buries every pawn on a neighbouring cell (not across a river); they give no food.",
       "Un de vos pions en montagne qui n'a ni bougé ni combattu ensevelit tous les pions d'une case voisine (pas au-delà d'une rivière) ; ils ne donnent pas de nourriture."),
    _t("comme_une_bete", "Comme une bête", "births", "", "One of your women outside a camp gives a normal birth.",
       "Une de vos femmes hors d'un camp a une naissance normale."),
    _t("coup_de_foudre", "Coup de foudre", "movement", "", "An enemy pawn on a cell next to one of your pawns of the other sex (not across a river) joins your tribe there.",
       "Un pion ennemi voisin d'un de vos pions de l'autre sexe (pas au-delà d'une rivière) le rejoint et passe dans votre tribu."),
    _t("endurance", "Endurance", "movement", "", "A group moves three cells, or crosses a mountain cell in summer without stopping.",
       "Un groupe avance de trois cases, ou traverse en été une case de montagne sans s'arrêter."),
    _t("enfant_sauvage", "Enfant sauvage", "after_animals", "", "If you have a village in a forest, a warrior or a woman of your choice joins it.",
       "Si vous avez un village en forêt, un guerrier ou une femme à votre choix l'y rejoint."),
    _t("engrais_naturel", "Engrais naturel", "survival", "", "This harvest, your fields give 12 food (8 when damaged).",
       "À cette récolte vos champs rapportent 12 (8 endommagés)."),
    _t("espionnage", "Espionnage", "any", "", "Look at the trick cards of a player with a pawn next to one of yours.",
       "Regardez les cartes astuce d'un joueur dont un pion est voisin d'un des vôtres."),
    _t("fievre_puerperale", "Fièvre puerpérale", "end_of_births", "", "Two enemy women of your choice who just gave birth die.",
       "Deux femmes ennemies de votre choix qui viennent d'accoucher meurent."),
    _t("filet", "Filet", "survival", "", "Your fishing cells give 2 food this turn.", "Vos cases de pêche rapportent 2 ce tour-ci."),
    _t("fortes_tetes", "Fortes têtes", "before_combat", "", "On one cell your women fight as warriors, against animals and tribes, but capture no women.",
       "Sur une case vos femmes combattent comme des guerriers, contre animaux et tribus, sans capturer de femmes."),
    _t("fuite", "Fuite", "movement_or_combat", "", "A group moves despite enemies on its cell, or leaves a fight against a tribe for a free neighbouring cell.",
       "Un groupe bouge malgré des ennemis sur sa case, ou quitte un combat contre une tribu vers une case voisine libre."),
    _t("grimper_aux_arbres", "Grimper aux arbres", "events_or_combat", "", "In a forest, a group survives a flood (and stays put) or hides from a fight on its cell; a village there is destroyed either way.",
       "En forêt, un groupe survit à une inondation (sans bouger) ou se cache pour éviter un combat ; un village sur la case est détruit de toute façon."),
    _t("herbes_de_fertilite", "Herbes de fertilité", "births", "", "One more birth in each of your villages.",
       "Une naissance de plus dans chacun de vos villages."),
    _t("incendiaire", "Incendiaire", "end_of_movement", "option", "In summer, a pawn that neither moved nor fights sets fire to a neighbouring forest cell (not across a river): every pawn there dies. Fire rules: fire may be taken next to it.",
       "En été, un pion qui n'a ni bougé ni combattu incendie une forêt voisine (pas au-delà d'une rivière) : tous ses pions meurent. Feu : on peut prendre le feu à côté."),
    _t("intuition", "Intuition", "any", "", "Look at next turn's event card.", "Regardez la carte événement du prochain tour."),
    _t("louveteau", "Louveteau", "after_animals", "", "A lone wolf on one of your groups' cells is tamed: it moves and fights with you, and goes wild again if left alone.",
       "Un loup seul sur la case d'un de vos groupes est apprivoisé : il vous suit et combat avec vous, et redevient sauvage s'il est laissé seul."),
    _t("marche_forcee", "Marche forcée", "movement", "", "A group moves three cells, or crosses a mountain cell in summer without stopping.",
       "Un groupe avance de trois cases, ou traverse en été une case de montagne sans s'arrêter."),
    _t("nage", "Nage", "movement_or_events", "", "A group crosses a river (not the lake) and stops at once, or survives a flood and stays put.",
       "Un groupe franchit une rivière (pas le lac) et s'arrête aussitôt, ou survit à une inondation sans bouger."),
    _t("pacs", "Pacs", "movement", "", "Two of your warriors or two of your women found a camp as a couple would; a woman must be there by next turn to keep it.",
       "Deux de vos guerriers ou deux de vos femmes installent un camp comme un couple ; il faudra une femme au prochain tour pour le garder."),
    _t("palissade", "Palissade", "animals", "", "One of your fields is not trampled until the harvest.",
       "Un de vos champs n'est plus piétiné jusqu'à la récolte."),
    _t("pieges", "Pièges", "before_combat", "", "You beat the animals on one cell without fighting them.",
       "Vous battez sans combat les animaux d'une case."),
    _t("pierre_taillee", "Pierre taillée", "before_combat", "", "+2 to all your rolls in one combat.",
       "+2 à tous vos jets pendant un combat."),
    _t("pont", "Pont", "movement", "", "A group crosses a river (not the lake) and stops at once.",
       "Un groupe franchit une rivière (pas le lac) et s'arrête aussitôt."),
    _t("propulseur", "Propulseur", "before_combat", "", "+2 to all your rolls in one combat.",
       "+2 à tous vos jets pendant un combat."),
    _t("racines", "Racines", "survival", "", "You gather food in winter this turn.", "Vous faites la cueillette en hiver ce tour-ci."),
    _t("semailles_tardives", "Semailles tardives", "end_of_first_summer_turn", "", "After survival on the first summer turn, sow a field for 1 food.",
       "Après la survie du premier tour d'été, semez un champ pour 1 nourriture."),
    _t("silax", "Silax", "before_combat", "option", "+1 to all your rolls in every combat this turn. Fire rules: or find fire, at any time.",
       "+1 à tous vos jets dans tous les combats du tour. Feu : ou bien trouvez le feu, à tout moment."),
    _t("tambour_de_guerre", "Tambour de guerre", "after_animals_or_movement", "", "Drive the animals on one of your groups' cells one cell away, or advance a group pushing the animals of the cell it enters one cell ahead.",
       "Chassez d'une case les animaux d'une case où vous êtes, ou avancez un groupe en repoussant d'une case les animaux de la case où il entre."),
    _t("terrasse", "Terrasse", "sowing", "", "You may sow in the mountains.", "Vous pouvez semer en montagne."),
    _t("terre_brulee", "Terre brûlée", "camp_lost", "needs", "Right after an enemy takes one of your camps: the camp is destroyed, its women and its fields too. Needs fire.",
       "Juste après la prise d'un de vos camps : le camp est détruit, avec ses femmes et ses champs. Il faut le feu."),
    _t("torches", "Torches", "before_combat", "needs", "+2 to all your rolls against animals this turn. Needs fire.",
       "+2 à tous vos jets contre les animaux ce tour-ci. Il faut le feu."),
    _t("troncs_d_arbre", "Troncs d'arbre", "movement_or_events", "", "A group crosses a river (not the lake) and stops at once, or survives a flood and stays put.",
       "Un groupe franchit une rivière (pas le lac) et s'arrête aussitôt, ou survit à une inondation sans bouger."),
    _t("radeau", "Radeau", "movement", "", "A group crosses a river or the lake and stops at once.",
       "Un groupe franchit une rivière ou le lac et s'arrête aussitôt."),
    _t("visite_de_famille", "Visite de famille", "after_animals", "", "A warrior and a woman of your tribe arrive on the cell of a token drawn from the bag.",
       "Un guerrier et une femme de votre tribu arrivent sur la case d'un pion tiré du sac."),
    _t("vol", "Vol", "movement", "option", "A group steals up to 4 food from a tribe with a camp on a neighbouring cell (not across a river). Fire rules: or steals its fire.",
       "Un groupe vole jusqu'à 4 nourritures à une tribu ayant un camp voisin (pas au-delà d'une rivière). Feu : ou lui vole le feu."),
)

TRICKS: dict[str, Trick] = {t.id: t for t in _ROWS}


def hand_limit(players: int) -> int:
    """Five cards in hand, four with five or six players (rules «Mise en place», §9)."""
    return 4 if players >= 5 else 5


def trick_draws(hands: dict, players: int, pile: int, discards: int) -> tuple[tuple[str, ...], bool]:
    """Who draws one card (in the order given), and whether the discards must be shuffled in."""
    drawing = tuple(name for name, held in hands.items() if held < hand_limit(players))
    return drawing, len(drawing) > pile and discards > 0

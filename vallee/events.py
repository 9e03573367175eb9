"""The 30 event cards as data, and the cells a card hits on a given valley and die.

Each card names its deck, its copies, what a die picks (a region of one terrain, a
river, or nothing), how long it lasts and whether it has fire-rules text, with our
paraphrase in two languages (rules «Texte des cartes événement», never the printed
text). :func:`target` finds the cells: a region (rules §1), a river's banks (gap V18),
the volcanoes and their lava (V17), an earthquake's region and its neighbours across
rivers too (V16), a cave bear's caves (rerolled when the region has none). Applying the
effects to a game is the events phase's job.

>>> from vallee.board import sample_valley
>>> hit = target(sample_valley(), CARDS["inondation"], 3)
>>> [f"{q},{r}" for q, r in hit.cells], hit.reroll
(['-1,1', '-2,2', '-1,2', '-2,3', '-1,3'], False)
>>> target(sample_valley(), CARDS["fleuve_gele"], 5).reroll   # the sample has three rivers (V9)
True
>>> len(CARDS), sum(c.copies for c in CARDS.values())
(27, 30)
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Valley
from .core import FOREST, MOUNTAIN, PLAIN, SUMMER, VOLCANO, WINTER, Cell, reading_key

REGION, RIVER = "region", "river"


@dataclass(frozen=True)
class EventCard:
    id: str
    title: str          # the card's French title, as printed
    deck: str           # summer, winter or both (one copy in each deck)
    copies: int         # copies in the game (in each deck for ``both``)
    die: str | None     # "region:<terrain>", "river", "d6" or None
    lasts: str          # "now", "turn", "season", "year" or "game" (the solitaire stays)
    fire_text: bool     # has text that applies only with the fire rules
    en: str
    fr: str


def _card(*args) -> EventCard:
    return EventCard(*args)


_CARDS = (
    _card("avalanches", "Avalanches", WINTER, 1, "region:mountain", "now", False,
          "A die picks a mountain region: every animal there dies, and one human per cell, picked by its owner.",
          "Un dé désigne une région de montagne : tous les animaux y meurent, et un humain par case, au choix de son propriétaire."),
    _card("blizzard", "Blizzard", WINTER, 1, None, "turn", True,
          "No human moves this turn. Fire rules: every tribe loses fire.",
          "Aucun humain ne bouge ce tour-ci. Règles du feu : toutes les tribus perdent le feu."),
    _card("chutes_de_neige", "Chutes de neige", WINTER, 1, None, "turn", True,
          "On every mountain cell one human dies (owner's pick), none on cave cells; mountains are closed this turn and pawns in them stay put. Fire rules: a fire holder who lost a pawn rolls, 5–6 loses fire.",
          "Sur chaque case de montagne un humain meurt (au choix), aucun sur une grotte ; la montagne est fermée ce tour et ses pions immobiles. Feu : qui a perdu un pion lance un dé, 5–6 perd le feu."),
    _card("eruption", "Éruption volcanique", WINTER, 1, None, "turn", True,
          "Every volcano erupts: pawns on it die and it burns, closed this turn; on its lava cells animals die and one human per cell; lava cells stay open. Fire rules: fire may be taken on lava.",
          "Tous les volcans entrent en éruption : leurs pions meurent et ils brûlent, fermés ce tour ; sur la lave les animaux meurent et un humain par case ; la lave reste ouverte. Feu : on peut prendre le feu sur la lave."),
    _card("fleuve_gele", "Fleuve gelé", WINTER, 2, RIVER, "season", False,
          "A die picks a river: it freezes until winter ends and bars no one; fishing goes on; a river that joins the lake freezes it too.",
          "Un dé désigne une rivière : gelée jusqu'à la fin de l'hiver, elle n'arrête personne ; la pêche continue ; si elle touche le lac, il gèle aussi."),
    _card("froidure", "Froidure", WINTER, 1, None, "turn", True,
          "This turn every pawn eats 1.5 food, the total rounded down, fire holders included.",
          "Ce tour-ci chaque pion mange 1,5 nourriture, total arrondi vers le bas, même avec le feu."),
    _card("hiver_long", "Hiver long", WINTER, 1, None, "turn", False,
          "Winter lasts one more turn: the season marker stays at the end of this turn.",
          "L'hiver dure un tour de plus : le marqueur de saison ne bouge pas à la fin du tour."),
    _card("horde_4", "Horde de loups (4)", WINTER, 1, None, "now", False,
          "Four unlettered wolves arrive as one horde on the cell of a token drawn from the bag.",
          "Quatre loups sans lettre arrivent en une horde sur la case d'un pion tiré du sac."),
    _card("horde_3", "Horde de loups (3)", WINTER, 1, None, "now", False,
          "Three unlettered wolves arrive as one horde on the cell of a token drawn from the bag.",
          "Trois loups sans lettre arrivent en une horde sur la case d'un pion tiré du sac."),
    _card("ours_des_cavernes", "Ours des cavernes", WINTER, 1, "region:mountain", "now", False,
          "A die picks a mountain region: each group in a cave there fights a bear, without the cave's bonus; a killed bear gives 3 food; roll again if the region has no cave.",
          "Un dé désigne une région de montagne : chaque groupe dans une grotte y combat un ours, sans le bonus de grotte ; l'ours tué rapporte 3 ; on relance s'il n'y a pas de grotte."),
    _card("solitaire", "Solitaire", WINTER, 1, None, "game", False,
          "A neutral woman or warrior appears on the cell of a token drawn from the bag; each turn it moves one cell the animals' way, fights animals it is alone with, and joins the first tribe it meets.",
          "Une femme ou un guerrier neutre apparaît sur la case d'un pion tiré du sac ; chaque tour il avance d'une case comme les animaux, combat les animaux s'il est seul avec eux, et rejoint la première tribu rencontrée."),
    _card("tempete", "Tempête", WINTER, 1, None, "turn", True,
          "Humans move at most one cell this turn. Fire rules: fire holders roll, 4–6 loses fire.",
          "Les humains avancent d'une case au plus ce tour-ci. Feu : qui a le feu lance un dé, 4–6 le perd."),
    _card("viande_maigre", "Viande maigre", WINTER, 1, None, "season", False,
          "Until winter ends animals give 4, 3, 2, 1, 0 and 0 food, mammoth down to wolf.",
          "Jusqu'à la fin de l'hiver les animaux rapportent 4, 3, 2, 1, 0 et 0, du mammouth au loup."),
    _card("viande_rare", "Viande rare", WINTER, 1, None, "turn", False,
          "No animal arrives this turn.", "Aucun animal n'arrive ce tour-ci."),
    _card("automne_clement", "Automne clément", SUMMER, 1, None, "turn", False,
          "Summer lasts one more turn: the season marker stays at the end of this turn.",
          "L'été dure un tour de plus : le marqueur de saison ne bouge pas à la fin du tour."),
    _card("bonnes_pluies", "Bonnes pluies", SUMMER, 1, None, "year", False,
          "This year's harvests give 12 food (8 for a damaged field); a drought ends.",
          "Les récoltes de l'année rapportent 12 (8 pour un champ endommagé) ; une sécheresse cesse."),
    _card("epidemie", "Épidémie", SUMMER, 1, "d6", "now", False,
          "A die: on 1–3 every player loses a woman, on 4–6 a warrior, each of his choice.",
          "Un dé : sur 1–3 chaque joueur perd une femme, sur 4–6 un guerrier, à son choix."),
    _card("epizootie", "Épizootie", SUMMER, 1, None, "turn", False,
          "A token drawn from the bag names a species: all of it leaves the board, and its arrivals this turn too.",
          "Un pion tiré du sac désigne une espèce : tous ses animaux quittent le plateau, et ceux qui arrivent ce tour aussi."),
    _card("incendie_de_foret", "Incendie de forêt", SUMMER, 2, "region:forest", "turn", True,
          "A die picks a forest region: it burns, closed this turn, and every pawn there dies. Fire rules: fire may be taken next to a burning cell.",
          "Un dé désigne une région de forêt : elle brûle, fermée ce tour, et tous ses pions meurent. Feu : on peut prendre le feu à côté d'une case en feu."),
    _card("inondation", "Inondation", SUMMER, 2, RIVER, "turn", True,
          "A die picks a river: the plain and forest cells on its banks flood, closed this turn; villages and fields there are lost, animals die, one human per cell; survivors stay put but may fish; a drought ends. Fire rules: a tribe whose village floods loses fire.",
          "Un dé désigne une rivière : les plaines et forêts de ses rives sont inondées, fermées ce tour ; villages et champs y sont détruits, les animaux meurent, un humain par case ; les survivants restent sur place mais pêchent ; une sécheresse cesse. Feu : qui voit un village inondé perd le feu."),
    _card("orages", "Orages", SUMMER, 1, None, "turn", True,
          "Humans move at most one cell this turn; a drought ends. Fire rules: holders roll, 3–6 loses fire; others roll, 1–2 finds it.",
          "Les humains avancent d'une case au plus ce tour-ci ; une sécheresse cesse. Feu : qui l'a lance un dé, 3–6 le perd ; les autres, 1–2 le trouvent."),
    _card("rongeurs", "Rongeurs", SUMMER, 1, None, "now", False,
          "Each player loses 2 food per village he has; caves cost nothing.",
          "Chaque joueur perd 2 nourritures par village ; les grottes ne coûtent rien."),
    _card("sauterelles", "Sauterelles", SUMMER, 1, "region:plain", "now", False,
          "A die picks a plain region: its intact fields are damaged and damaged ones destroyed; every player loses half his food, rounded down.",
          "Un dé désigne une région de plaine : ses champs intacts sont endommagés, les endommagés détruits ; chacun perd la moitié de sa nourriture, arrondie vers le bas."),
    _card("secheresse", "Sécheresse", SUMMER, 1, "region:plain", "season", False,
          "A die picks a plain region whose fields suffer as with locusts; rivers bar no one and nobody fishes, until summer ends or rain, storms or a flood is drawn.",
          "Un dé désigne une région de plaine dont les champs souffrent comme avec les sauterelles ; les rivières n'arrêtent personne et on ne pêche plus, jusqu'à la fin de l'été ou une carte de pluie, d'orage ou d'inondation."),
    _card("tremblement_de_terre", "Tremblement de terre", SUMMER, 1, "region:mountain", "now", False,
          "A die picks a mountain region: animals in it and on the cells around it die, and one human per cell.",
          "Un dé désigne une région de montagne : les animaux qui y sont et sur les cases voisines meurent, et un humain par case."),
)
# Two titles are in both decks, one copy each: the summer copies repeat the winter text.
_CARDS = _CARDS + (
    _card("eruption_ete", "Éruption volcanique", SUMMER, 1, None, "turn", True, _CARDS[3].en, _CARDS[3].fr),
    _card("solitaire_ete", "Solitaire", SUMMER, 1, None, "game", False, _CARDS[10].en, _CARDS[10].fr),
)
CARDS: dict[str, EventCard] = {c.id: c for c in _CARDS}


def deck(season: str) -> list[str]:
    """The ids of a season's deck, one entry per copy."""
    return [c.id for c in CARDS.values() for _ in range(c.copies) if c.deck == season]


@dataclass(frozen=True)
class Target:
    cells: tuple[Cell, ...]  # the cells the card hits, in reading order
    reroll: bool             # the die picked nothing this card can use: roll again
    river: int | None = None
    lake: bool = False       # a frozen river that joins the lake freezes it too


def target(valley: Valley, card: EventCard, die: int | None = None, caves=()) -> Target:
    """The cells a card hits for a die face; ``caves``: cave cells (for the cave bear)."""
    def ordered(cells):
        return tuple(sorted(set(cells), key=reading_key))

    if card.id in ("eruption", "eruption_ete"):
        return Target(ordered(list(valley.volcanoes) + [c for lava in valley.volcanoes.values() for c in lava]), False)
    if card.id == "chutes_de_neige":
        return Target(ordered(c for c in valley.cells if valley.terrain[c] in (MOUNTAIN, VOLCANO)), False)
    if card.die == RIVER:
        if die not in valley.rivers:
            return Target((), True)
        banks = valley.river_banks(die)
        if card.id == "inondation":  # gap V18: only plain and forest banks flood
            banks = [c for c in banks if valley.terrain[c] in (PLAIN, FOREST)]
        return Target(ordered(banks), False, die, card.id == "fleuve_gele" and valley.rivers[die].joins_lake)
    if card.die and card.die.startswith("region:"):
        cells = valley.region_cells(card.die.split(":")[1], die)
        if card.id == "tremblement_de_terre":  # gap V16: neighbours across rivers too
            cells = list(cells) + [n for c in cells for n in valley.neighbours(c) if n not in valley.lake]
        if card.id == "ours_des_cavernes":
            cells = [c for c in cells if c in set(caves)]
            return Target(ordered(cells), not cells)
        return Target(ordered(cells), False)
    return Target((), False)



"""Rule ids of La Vallée des Mammouths, the sections they come from, and our paraphrases.

Every ledger line, movement step, combat roll and error names one of these ids in its
``rule`` field. ``section`` cites the French rulebook
(``/work/shared/rules/004_9d0d0b401f7e9efe.txt``, which wins where it is clear) and, for
its gaps, our rulings in docs/rulings-vallee.md (gap numbers V1–V77). The texts are
written for this product, never the publisher's sentences.

>>> RULES["animals.reverse"].section
'FR «3) Déplacement des animaux» ¶2; docs/rulings-vallee.md V30'
>>> cite("survival.fishing", "fr")
'Chaque case occupée qui borde une rivière ou touche le lac rapporte 1 nourriture, en toute saison.'
"""

from __future__ import annotations

from rulekit.rulebook import Rulebook

_SETUP = "FR «Mise en place»"
_TURN = "FR «Le tour de jeu»"
_PHASES = "FR «Les phases du tour»"
_EVENTS = "FR «1) Événements»"
_ARRIVE = "FR «2) Arrivée de nouveaux animaux»"
_ANIMALS = "FR «3) Déplacement des animaux»"
_COMBAT = "FR «5) Combats»"
_POINTS = "FR «5) Combats» › «Calcul des points»"
_TRIBES = "FR «5) Combats» › «Combat entre tribus»"
_BEASTS = "FR «5) Combats» › «Combat contre des animaux»"
_SURVIVE = "FR «6) Survie»"
_END = "FR «10) Fin du tour et victoire»"
_MOVE = "FR «4) Déplacement et installation des tribus» › «Déplacement des pions»"
_FIRE = "FR «Règles évoluées : le feu»"
_WINTER_CARDS = "FR «Texte des cartes événement d'hiver»"
_SUMMER_CARDS = "FR «Texte des cartes événement d'été»"
_TRICKS = "FR «Texte des cartes astuces»"
_R = "docs/rulings-vallee.md"

_TABLE = [
    # -- the map -----------------------------------------------------------------------
    ("map.valid", f"{_EVENTS} ¶3; {_ARRIVE} ¶3; {_R} «Map files»",
     "A valley has six numbered regions of each of plain, forest and mountain, the eighteen entry letters on its edge, numbered rivers along cell edges, a lake, its volcanoes' lava cells and a compass rose.",
     "Une vallée a six régions numérotées de plaine, de forêt et de montagne, les dix-huit lettres d'entrée sur son bord, des rivières numérotées le long des bords de cases, un lac, la lave de ses volcans et une rose des vents."),
    ("pieces.animals", "FR «Composition du jeu»",
     "The box holds nine tokens of each species, plus eight wolves without a letter.",
     "La boîte contient neuf pions de chaque espèce, plus huit loups sans lettre."),
    ("pieces.tribe", "FR «Mise en place»; FR «7) Naissances» ¶3",
     "A tribe has at most ten warriors and six women.", "Une tribu compte au plus dix guerriers et six femmes."),
    # -- the calendar --------------------------------------------------------------------
    ("calendar.start", f"{_SETUP} last ¶; {_TURN} note",
     "The game begins on the second summer turn, so the first year has only two summer turns.",
     "La partie commence au deuxième tour d'été : la première année n'a que deux tours d'été."),
    ("calendar.year", f"{_TURN} ¶1",
     "Each season lasts three turns: three of summer, then three of winter, and so on.",
     "Chaque saison dure trois tours : trois d'été, puis trois d'hiver, et ainsi de suite."),
    ("calendar.held", f"{_WINTER_CARDS} «Hiver long»; {_SUMMER_CARDS} «Automne clément»; {_R} V24",
     "When a long winter or a mild autumn is drawn, the season marker stays put at the end of that turn: the season gets one more turn.",
     "Quand un hiver long ou un automne clément est tiré, le marqueur de saison ne bouge pas à la fin du tour : la saison gagne un tour."),
    ("calendar.season_end", f"{_PHASES}; {_R} V6",
     "The end-of-season phases (harvest, births, sowing, trick draw) happen on the turn that really ends the season; under the variant printed_turn, on the first turn the marker shows the third turn.",
     "Les phases de fin de saison (récolte, naissances, semailles, astuces) ont lieu au tour qui termine vraiment la saison ; avec la variante printed_turn, au premier tour où le marqueur montre le troisième tour."),
    ("phase.events", f"{_EVENTS} ¶1–2",
     "From the third game turn on, an event card is drawn from the deck of the current season and applied at once.",
     "À partir du troisième tour de jeu, on tire une carte événement dans la pile de la saison et on l'applique aussitôt."),
    ("phase.arrivals", f"{_ARRIVE} table; {_R} V4, V25",
     "New animals drawn from the bag: 6 on the first turn, then 4 on other summer turns and 2 on winter turns; with two or three players in play, 3 in summer and 1 in winter.",
     "Animaux tirés du sac : 6 au premier tour, puis 4 aux autres tours d'été et 2 aux tours d'hiver ; à deux ou trois joueurs en jeu, 3 en été et 1 en hiver."),
    ("phase.animals", f"{_PHASES} 3", "Every turn, all animals move in the direction given by one die.",
     "À chaque tour, tous les animaux se déplacent dans la direction donnée par un dé."),
    ("phase.tribes", f"{_PHASES} 4", "Every turn, each player in turn moves his pawns and may found camps.",
     "À chaque tour, chacun à son tour déplace ses pions et peut installer des camps."),
    ("phase.combat", f"{_PHASES} 5", "Every turn, fights take place on each cell where enemies meet.",
     "À chaque tour, on combat sur chaque case où des adversaires se rencontrent."),
    ("phase.survival", f"{_PHASES} 6", "Every turn, each tribe earns its food and feeds its pawns.",
     "À chaque tour, chaque tribu gagne sa nourriture et nourrit ses pions."),
    ("phase.births", f"{_PHASES} 7; FR «7) Naissances»", "At the end of each season, camps with women give births.",
     "À la fin de chaque saison, les camps où vivent des femmes ont des naissances."),
    ("births.count", "FR «7) Naissances» ¶1",
     "A camp gives one birth with one woman, two with two women or more; a die gives each newborn's sex: 1–2 a woman, 3–5 a warrior, 6 twins (two more dice, a 6 then counts as a warrior).",
     "Un camp donne une naissance avec une femme, deux avec deux femmes ou plus ; un dé donne le sexe : 1–2 une femme, 3–5 un guerrier, 6 des jumeaux (deux dés de plus, un 6 compte alors comme un guerrier)."),
    ("births.caps", "FR «7) Naissances» ¶2",
     "A tribe never has more than ten warriors and six women: a newborn of a sex with no piece left is lost.",
     "Une tribu n'a jamais plus de dix guerriers et six femmes : une naissance d'un sexe sans pion disponible est perdue."),
    ("births.cards", f"{_TRICKS} «Herbes de fertilité», «Bonnes herbes»; {_R} V60",
     "Fertility herbs add one birth in each village; good herbs let the player choose the sex of one camp's newborns.",
     "Les herbes de fertilité ajoutent une naissance par village ; les bonnes herbes font choisir le sexe des naissances d'un camp."),
    ("phase.sowing", f"{_PHASES} 8; FR «8) Semailles»", "At the end of winter, tribes may sow fields next to their plain villages.",
     "À la fin de l'hiver, les tribus peuvent semer en plaine là où elles ont un village."),
    ("phase.tricks", f"{_PHASES} 9; FR «9) Astuces»", "At the end of each season, a player below the hand limit draws one trick card.",
     "À la fin de chaque saison, un joueur sous la limite de main pioche une carte astuce."),
    ("phase.end", f"{_PHASES} 10; {_END}", "Every turn ends by moving the season marker and checking for victory.",
     "Chaque tour se termine en avançant le marqueur de saison et en vérifiant la victoire."),
    ("tribes.pieces", f"{_MOVE}", "A group moves pawns its tribe has on the cell it leaves; pawns it leaves behind stop there.",
     "Un groupe déplace des pions que sa tribu a sur la case quittée ; ceux qu'il laisse en route s'y arrêtent."),
    ("tribes.frozen", f"{_SUMMER_CARDS} «Inondation»; {_WINTER_CARDS} «Chutes de neige»",
     "Pawns immobilised by a flood or by snow in the mountains do not move this turn.",
     "Les pions immobilisés par une inondation ou la neige en montagne ne bougent pas ce tour."),
    ("tribes.steps", f"{_MOVE} ¶3; {_TRICKS} «Endurance», «Marche forcée»; {_WINTER_CARDS} «Tempête»; {_SUMMER_CARDS} «Orages»",
     "Each pawn moves one or two cells, cell by cell (three with Endurance or a forced march; one in a storm).",
     "Chaque pion avance d'une ou deux cases, de proche en proche (trois avec Endurance ou Marche forcée ; une par tempête ou orage)."),
    ("tribes.pinned", f"{_MOVE} ¶3; {_R} V37",
     "Pawns sharing a cell with animals or another tribe may leave only if they outnumber them, leaving at least as many pawns behind.",
     "Des pions qui partagent une case avec des animaux ou une autre tribu ne partent que s'ils sont plus nombreux, en laissant au moins autant de pions."),
    ("tribes.river", f"{_MOVE} ¶3; {_TRICKS} «Pont», «Nage», «Troncs d'arbre»",
     "No pawn crosses a river, except with a bridge card, which ends the move right after the crossing.",
     "Aucun pion ne traverse une rivière, sauf avec une carte de passage, et le mouvement s'arrête juste après."),
    ("tribes.lake", f"{_MOVE} ¶3", "No pawn crosses the lake.", "Aucun pion ne traverse le lac."),
    ("tribes.closed", f"{_EVENTS}; {_R} V33", "Flooded, burning and snowed-in cells cannot be entered this turn.",
     "On n'entre pas ce tour-ci dans une case inondée, en feu ou enneigée."),
    ("tribes.mountain", f"{_MOVE} ¶3; {_R} V39",
     "Entering a mountain cell ends the move (in summer, Endurance or a forced march crosses one without stopping).",
     "Entrer en montagne termine le mouvement (en été, Endurance ou Marche forcée en traverse une sans s'arrêter)."),
    ("tribes.contact", f"{_MOVE} ¶3; {_R} V37, V42",
     "Entering a cell with animals or another tribe ends the move, unless the group outnumbers them and leaves at least as many pawns there.",
     "Entrer sur une case avec des animaux ou une autre tribu arrête le groupe, sauf s'il est plus nombreux et y laisse au moins autant de pions."),
    ("standing.first_player", f"FR «4) Déplacement et installation des tribus» ¶1; {_R} V5",
     "The first player is the one with the most camps, then the most pawns, then the most food, then drawn by lot (on the first turn, the first to set up); the order holds for the whole turn and goes clockwise.",
     "Le premier joueur a le plus de camps, puis le plus de pions, puis le plus de nourriture, sinon on tire au sort (au premier tour, le premier installé) ; l'ordre vaut pour tout le tour, en sens horaire."),
    ("standing.victory", f"{_END} ¶2; {_FIRE} «But du jeu»; {_R} V71–V73",
     "A tribe with four camps or more says so; if it still has four at the end of the next turn, it wins (with the fire rules, holding fire too).",
     "Une tribu qui a quatre camps ou plus l'annonce ; si elle en a encore quatre à la fin du tour suivant, elle gagne (avec le feu, en le détenant aussi)."),
    ("standing.extinct", f"{_END} ¶2", "When only animals are left on the board, every player has lost.",
     "Quand il ne reste que des animaux sur le plateau, tous les joueurs ont perdu."),
    ("standing.last_tribe", f"{_R} V74",
     "The last tribe standing wins at the end of the turn, once no eliminated player can come back.",
     "La dernière tribu en vie gagne en fin de tour, quand aucun joueur éliminé ne peut plus revenir."),
    ("return.window", f"FR «Le retour…»; {_R} V75",
     "A player whose tribe is wiped out during the first year (up to the end of its winter) comes back once, on the next turn.",
     "Un joueur dont la tribu disparaît pendant la première année (jusqu'à la fin de son hiver) revient une fois, au tour suivant."),
    # -- animal movement -----------------------------------------------------------------
    ("animals.pinned", f"{_ANIMALS} ¶1", "Animals on a cell with humans do not move.",
     "Les animaux sur une case où se trouvent des humains ne bougent pas."),
    ("animals.direction", f"{_ANIMALS} ¶2; {_R} V29", "One die and the compass rose give a single direction for every animal.",
     "Un dé et la rose des vents donnent une seule direction pour tous les animaux."),
    ("animals.reverse", f"{_ANIMALS} ¶2; {_R} V30",
     "An animal whose very first step is barred goes the opposite way instead, if that first step is open.",
     "Un animal dont le tout premier pas est barré part dans la direction opposée, si ce premier pas-là est libre."),
    ("animals.blocked", f"{_ANIMALS} ¶2; {_R} V30", "An animal barred both ways stays where it is.",
     "Un animal barré dans les deux sens reste sur place."),
    ("animals.range", f"{_ANIMALS} table",
     "Animals go as far as they can: wolves and tigers 3 cells, bears and bison 2, rhinos and mammoths 1.",
     "Les animaux vont aussi loin que possible : loups et tigres 3 cases, ours et bisons 2, rhinocéros et mammouths 1."),
    ("animals.obstacle", f"{_ANIMALS} ¶2–3 and table; {_R} V33",
     "An animal stops before an obstacle and does not turn back: the board's edge, the lake, a flooded, burning or closed cell for all; mountains for bison, rhinos and mammoths; rivers for all but bears.",
     "Un animal s'arrête devant un obstacle sans rebrousser chemin : le bord du plateau, le lac, une case inondée, incendiée ou fermée pour tous ; la montagne pour bisons, rhinocéros et mammouths ; la rivière pour tous sauf l'ours."),
    ("animals.frozen_river", f"{_WINTER_CARDS} «Fleuve gelé»; {_SUMMER_CARDS} «Sécheresse»; {_R} V22, V23",
     "A frozen river, and every river during a drought, bars no one.",
     "Une rivière gelée, et toute rivière pendant une sécheresse, n'arrête personne."),
    ("animals.frozen_lake", f"{_WINTER_CARDS} «Fleuve gelé»; {_R} V23",
     "A frozen lake may be crossed but not stopped on (variant walkable: crossed like land).",
     "Un lac gelé se traverse mais on ne s'y arrête pas (variante walkable : comme la terre ferme)."),
    ("animals.humans", f"{_ANIMALS} ¶4", "An animal stops on entering a cell with humans.",
     "Un animal s'arrête en entrant sur une case où se trouvent des humains."),
    ("animals.herd", f"{_ANIMALS} ¶5; {_R} V32",
     "An animal stops on entering a cell where animals of its species end their move; they form one herd that moves and fights together from then on.",
     "Un animal s'arrête en entrant sur une case où des animaux de son espèce finissent leur mouvement ; ils forment un troupeau qui bouge et combat ensemble désormais."),
    ("animals.herd_order", f"{_ANIMALS} note; {_R} V31",
     "When the order of moves changes the result, the order that forms herds wins: we take the reachable outcome with the fewest units, ties settled rear-first along the travel direction, then by cell.",
     "Quand l'ordre des déplacements change le résultat, on choisit l'ordre qui forme des troupeaux : le résultat atteignable avec le moins d'unités, à égalité en partant de l'arrière dans le sens du trajet, puis par case."),
    ("animals.trample", f"{_ANIMALS} last ¶s; {_R} V34",
     "A bison, rhino or mammoth entering a field damages it; a damaged field trampled again is destroyed.",
     "Un bison, un rhinocéros ou un mammouth qui entre dans un champ l'endommage ; un champ endommagé piétiné de nouveau est détruit."),
    ("animals.palisade", f"{_TRICKS} «Palissade»", "A palisade keeps its field from being trampled until the harvest.",
     "Une palissade protège son champ du piétinement jusqu'à la récolte."),
    # -- combat --------------------------------------------------------------------------
    ("combat.roll", f"{_COMBAT} ¶2",
     "Each side rolls a die and adds its bonus; the lower total loses one pawn of its owner's choice; ties roll again; the fight goes on until one side is gone.",
     "Chaque camp lance un dé et ajoute son bonus ; le plus petit total perd un pion au choix de son propriétaire ; en cas d'égalité on relance ; on continue jusqu'à l'élimination d'un camp."),
    ("combat.bonus", f"{_POINTS}; {_R} V44",
     "Bonus: +1 per warrior, +1 in one's own village, +2 in one's own cave, +1 per animal of the species; recounted after every loss.",
     "Bonus : +1 par guerrier, +1 dans son village, +2 dans sa grotte, +1 par animal de l'espèce ; recompté après chaque perte."),
    ("combat.fire", f"{_FIRE} «Combats»", "With the fire rules, a tribe holding fire gets +1 against animals.",
     "Avec les règles du feu, une tribu qui a le feu gagne +1 contre les animaux."),
    ("combat.cards", f"{_TRICKS} «Pierre taillée», «Propulseur», «Silax», «Torches»; {_R} V65",
     "Played trick cards add to the rolls: +2 for a cut stone or a spear-thrower, +1 for Silax, +2 against animals for torches (fire needed); they add up.",
     "Les cartes astuce jouées s'ajoutent aux jets : +2 pour la pierre taillée ou le propulseur, +1 pour Silax, +2 contre les animaux pour les torches (feu requis) ; elles se cumulent."),
    ("combat.tribes_first", f"{_TRIBES} ¶2", "On a cell with animals and several tribes, the tribes fight each other first.",
     "Sur une case avec des animaux et plusieurs tribus, les tribus se battent d'abord entre elles."),
    ("combat.warriors_only", f"{_TRIBES} ¶1", "Between tribes only warriors fight; the women watch.",
     "Entre tribus seuls les guerriers combattent ; les femmes regardent."),
    ("combat.women_change_sides", f"{_TRIBES} ¶1; {_R} V51",
     "The loser's women on the cell join the winner, who swaps in pieces of his colour while he has some; otherwise they die.",
     "Les femmes du perdant sur la case passent au vainqueur, qui les remplace par des pions de sa couleur s'il en a encore ; sinon elles meurent."),
    ("combat.women_captured", f"{_TRIBES} ¶1; {_COMBAT} ¶1; {_R} V45",
     "Women alone facing another tribe's warriors are taken without a fight, even in their camp.",
     "Des femmes seules face aux guerriers d'une autre tribu sont prises sans combat, même dans leur camp."),
    ("combat.women_only", f"{_TRIBES} ¶1; {_R} V46",
     "Women of two tribes alone on a cell fight each other with only camp and card bonuses; the loser's women die.",
     "Des femmes de deux tribus seules sur une case se battent avec les seuls bonus de camp et de cartes ; celles du perdant meurent."),
    ("combat.multi", f"{_TRIBES} ¶2; {_R} V47",
     "With three tribes or more, all roll together and every tribe below the best total loses a pawn; if all totals are equal, roll again.",
     "À trois tribus ou plus, tous lancent ensemble et chaque tribu sous le meilleur total perd un pion ; si tous les totaux sont égaux, on relance."),
    ("combat.animals", f"{_BEASTS} ¶1",
     "Against animals every pawn of the tribe takes part, women too (they add no bonus); the animals of one species fight as one group, species one after the other.",
     "Contre les animaux tous les pions de la tribu combattent, femmes comprises (sans bonus) ; les animaux d'une espèce forment un groupe, les espèces l'une après l'autre."),
    ("combat.species_order", f"{_BEASTS} ¶1; {_R} V48", "The tribe chooses the order in which it faces the species.",
     "La tribu choisit l'ordre dans lequel elle affronte les espèces."),
    ("combat.hunt_food", f"{_BEASTS} ¶2; {_R} V49",
     "The winner against animals earns food per animal killed: mammoth 6, rhino 5, bison 4, bear 3, tiger 2, wolf 1.",
     "Le vainqueur contre des animaux gagne de la nourriture par animal tué : mammouth 6, rhinocéros 5, bison 4, ours 3, tigre 2, loup 1."),
    ("combat.lean_meat", f"{_WINTER_CARDS} «Viande maigre»",
     "Until the end of a lean winter, animals are worth 4, 3, 2, 1, 0 and 0 food (mammoth down to wolf).",
     "Jusqu'à la fin d'un hiver de viande maigre, les animaux valent 4, 3, 2, 1, 0 et 0 (du mammouth au loup)."),
    ("combat.none", f"{_COMBAT} ¶1",
     "There is a combat only where pawns of different tribes, or pawns and animals, share a cell.",
     "Il n'y a combat que là où des pions de tribus différentes, ou des pions et des animaux, partagent une case."),
    ("camps.kind", f"{_SETUP} ¶6; FR «4) Déplacement et installation des tribus» › «Installation des camps»",
     "A camp on a plain or in a forest is a village; in the mountains (volcanoes included) it is a cave.",
     "Un camp en plaine ou en forêt est un village ; en montagne (volcans compris), c'est une grotte."),
    ("camps.free_cell", f"{_SETUP} ¶6; FR «4) Déplacement et installation des tribus» › «Installation des camps»",
     "A camp goes on a free land cell: no camp, no opponent, no animal there.",
     "Un camp s'installe sur une case de terre libre : sans camp, sans adversaire ni animal."),
    ("camps.spacing", f"{_SETUP} ¶6; {_R} V1",
     "At setup, no camp on a cell sharing an edge with another tribe's camp, unless a river runs along that edge.",
     "À la mise en place, pas de camp sur une case qui touche le camp d'une autre tribu, sauf si une rivière longe ce bord."),
    ("camps.couple", f"FR «4) Déplacement et installation des tribus» › «Installation des camps»; {_TRICKS} «Pacs»",
     "A warrior and a woman of the tribe found a camp instead of moving (two of a kind with Pacs).",
     "Un guerrier et une femme de la tribu installent un camp au lieu de bouger (deux du même sexe avec Pacs)."),
    ("camps.markers", f"{_SETUP} ¶5; {_R} V43", "A tribe has five camp markers: no sixth camp.",
     "Une tribu a cinq marqueurs de camp : pas de sixième camp."),
    ("sowing.where", f"FR «8) Semailles» ¶1; {_TRICKS} «Terrasse»; {_R} V2, V61",
     "A tribe sows on a plain where it has a village (with Terrasse, on a mountain where it has a cave).",
     "Une tribu sème en plaine là où elle a un village (avec Terrasse, en montagne là où elle a une grotte)."),
    ("sowing.one_per_cell", "FR «8) Semailles» ¶1", "One field marker per cell.", "Un marqueur de champ par case."),
    ("sowing.markers", f"FR «Composition du jeu»; {_R} V62", "The box holds nine field markers; with none left, no sowing.",
     "La boîte contient neuf marqueurs de champ ; quand il n'y en a plus, on ne sème plus."),
    ("sowing.cost", "FR «8) Semailles» ¶1", "Sowing a field costs 1 food.", "Semer un champ coûte 1 nourriture."),
    ("camps.one_per_cell", "FR «4) Déplacement et installation des tribus» › «Installation des camps»",
     "A cell holds at most one camp.", "Une case porte au plus un camp."),
    ("camps.abandoned", f"FR «4) Déplacement et installation des tribus» › «Installation des camps» ¶2; {_R} V41",
     "A camp must always hold one of its tribe's women; without one it is abandoned and taken off the board.",
     "Un camp doit toujours abriter une femme de sa tribu ; sinon il est abandonné et retiré du plateau."),
    ("camps.taken", f"{_COMBAT} › «Prise des camps»; {_R} V45, V51",
     "Who takes an enemy camp takes a quarter of the loser's food, rounded down (half if it was his last camp), then keeps the camp with its women or burns it and kills them.",
     "Qui prend un camp ennemi prend le quart de la nourriture du vaincu, arrondi vers le bas (la moitié si c'était son dernier camp), puis garde le camp et ses femmes ou le brûle en les tuant."),
    # -- setup -------------------------------------------------------------------------
    ("setup.first_player", f"{_SETUP} ¶7", "Lots decide who sets up first; the others follow clockwise.",
     "Le sort désigne qui s'installe en premier ; les autres suivent dans le sens des aiguilles d'une montre."),
    ("setup.camp", f"{_SETUP} ¶8; {_R} V1",
     "Each player in turn puts a camp, two women and five warriors on one free cell, away from the other camps unless a river separates them.",
     "Chacun à son tour pose un camp, deux femmes et cinq guerriers sur une case libre, loin des autres camps sauf si une rivière les sépare."),
    ("setup.deal", f"{_SETUP} ¶9", "Each player is dealt five trick cards, four with five or six players.",
     "Chaque joueur reçoit cinq cartes astuce, quatre à cinq ou six joueurs."),
    ("sowing.setup", f"{_SETUP} ¶8; FR «8) Semailles» ¶2; {_R} V2",
     "A player whose starting camp is on a plain may sow a field there at once, for 1 food.",
     "Un joueur dont le camp de départ est en plaine peut y semer aussitôt un champ, pour 1 nourriture."),
    # -- fire --------------------------------------------------------------------------
    ("fire.take", f"{_FIRE} «Déplacement des joueurs et installation des camps»; {_R} V76",
     "With the fire rules, a pawn takes fire standing still on a volcano free of enemies and animals, or next to a burning cell or on flowing lava, with no enemy or animal on its cell.",
     "Avec les règles du feu, un pion prend le feu immobile sur un volcan sans adversaire ni animal, ou à côté d'une case en feu ou sur la lave, sans adversaire ni animal sur sa case."),
    ("fire.camp", f"{_FIRE} «Combats», «Possession du feu»; {_R} V76",
     "Fire sits on one of the tribe's camps: who takes a camp of a fire-holding tribe takes fire too, and a tribe losing its last camp loses fire.",
     "Le feu est posé sur un camp de la tribu : qui prend un camp d'une tribu qui a le feu le prend aussi, et une tribu qui perd son dernier camp perd le feu."),
    # -- the companion -----------------------------------------------------------------
    ("random.virtual", f"{_R} «The game model» G16",
     "A virtual component (dice, event decks, trick deck, bag) is drawn by the companion from the game's seed; an entry may not give another value.",
     "Un élément virtuel (dés, pioches d'événements, pioche d'astuces, sac) est tiré par le compagnon à partir de la graine de la partie ; une entrée ne peut pas donner une autre valeur."),
    # -- survival ------------------------------------------------------------------------
    ("survival.fishing", f"{_SURVIVE} «Pêche»; {_R} V55",
     "Each occupied cell by a river or touching the lake gives 1 food, in every season.",
     "Chaque case occupée qui borde une rivière ou touche le lac rapporte 1 nourriture, en toute saison."),
    ("survival.net", f"{_TRICKS} «Filet»", "With a net, fishing cells give 2 food this turn.",
     "Avec le filet, les cases de pêche rapportent 2 ce tour-ci."),
    ("survival.drought", f"{_SUMMER_CARDS} «Sécheresse»; {_R} V22", "During a drought nobody fishes, at the lake neither.",
     "Pendant une sécheresse personne ne pêche, au lac non plus."),
    ("survival.gathering", f"{_SURVIVE} «Cueillette»; {_TRICKS} «Racines»",
     "In summer each occupied forest cell gives 1 food (in winter only with the Roots card).",
     "En été chaque case de forêt occupée rapporte 1 nourriture (en hiver seulement avec la carte Racines)."),
    ("survival.harvest", f"{_SURVIVE} «Récolte»; {_R} V56, V57",
     "On the last summer turn each occupied field gives 8 food if intact, 4 if damaged (12 and 8 after good rains or with natural manure, not more); then every field is removed.",
     "Au dernier tour d'été chaque champ occupé rapporte 8 s'il est intact, 4 s'il est endommagé (12 et 8 après de bonnes pluies ou avec l'engrais naturel, pas plus) ; puis tous les champs sont retirés."),
    ("survival.cost", f"{_SURVIVE} «Dépenses»", "Each warrior and each woman eats 1 food.",
     "Chaque guerrier et chaque femme mange 1 nourriture."),
    ("survival.cold", f"{_FIRE} «Survie»; {_WINTER_CARDS} «Froidure»; {_R} V19, V58",
     "In winter without fire (fire rules), or in a cold snap for everyone, each pawn eats 1.5 food, the total rounded down.",
     "En hiver sans le feu (règles du feu), ou par grand froid pour tous, chaque pion mange 1,5 nourriture, total arrondi vers le bas."),
    ("survival.starve", f"{_SURVIVE} ¶3; {_R} V58",
     "A tribe short of food lets pawns of its choice starve: the fewest that balances the account.",
     "Une tribu à court de nourriture laisse mourir de faim des pions de son choix : le moins possible pour équilibrer."),
]

def _event_rows():
    from .events import CARDS

    for card in CARDS.values():
        deck = _WINTER_CARDS if card.deck == "winter" else _SUMMER_CARDS
        yield (f"event.{card.id}", f"{deck} «{card.title}»", card.en, card.fr)


def _trick_rows():
    from .tricks import TRICKS

    for trick in TRICKS.values():
        yield (f"trick.{trick.id}", f"{_TRICKS} «{trick.title}»", trick.en, trick.fr)


BOOK = Rulebook(_TABLE + list(_event_rows()) + list(_trick_rows()))
RULES = BOOK.rules


def cite(rule_id: str, lang: str = "en") -> str:
    """Our paraphrase of a rule in ``"en"`` or ``"fr"``."""
    return BOOK.cite(rule_id, lang)


def line(rule_id: str) -> dict:
    """The ``rule``, ``en`` and ``fr`` fields of a response line citing that rule."""
    rule = RULES[rule_id]
    return {"rule": rule.id, "en": rule.en, "fr": rule.fr}

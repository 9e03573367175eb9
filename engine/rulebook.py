"""Rule ids, the sections they come from, and our own paraphrase of each.

Every event and every error the engine produces names one of these ids in its
``rule`` field. ``section`` cites the French rulebook (the original, which wins a
conflict), the English translation and RULINGS.md. The texts are paraphrases written
for this product, never the publisher's sentences.

>>> RULES["flight.order"].section
'FR «Règle de déplacement du mammouth» ¶3; EN «Rules to move the mammoth» ¶3; RULINGS «Mammoth flight» 2'
>>> cite("flight.order", "en")
'The mammoth tries its escape directions clockwise starting straight ahead, never back towards the hunter who came in.'
"""

from __future__ import annotations

from rulekit.rulebook import Rule, Rulebook


_FR_SETUP = "FR «Mise en place»"
_EN_SETUP = "EN «Setting up the game»"
_FR_TURN = "FR «Tour de jeu»"
_EN_TURN = "EN «Flow of play»"
_FR_FLIGHT = "FR «Règle de déplacement du mammouth»"
_EN_FLIGHT = "EN «Rules to move the mammoth»"

_TABLE = [
    ("setup.layout", f"{_FR_SETUP}; {_EN_SETUP}; RULINGS «Setup» 1",
     "The cross tile lies at the centre and the 36 other tiles (7 rock, 18 grass, 11 snow) are laid at random around it.",
     "La croix est au centre et les 36 autres tuiles (7 rochers, 18 herbes, 11 neiges) sont posées au hasard autour."),
    ("setup.centre_rocks", f"{_FR_SETUP} remarque; {_EN_SETUP} note; RULINGS «Setup» 2",
     "A layout with more than four rocks next to the cross is laid again, or the mammoth could not move.",
     "Une disposition avec plus de quatre rochers autour de la croix est refaite, sinon le mammouth serait bloqué."),
    ("setup.cards", f"{_FR_SETUP}; {_EN_SETUP}; RULINGS «Setup» 3",
     "Each player starts with three movement cards from the 36-card deck (12 ones, 16 twos, 8 threes).",
     "Chaque joueur reçoit trois cartes déplacement du paquet de 36 (12 de 1, 16 de 2, 8 de 3)."),
    ("setup.hunter_placement", f"{_FR_SETUP} (pose des chasseurs); {_EN_SETUP}; RULINGS «Setup» 4",
     "Hunters are placed one after another, clockwise, on outer cells that are neither rock nor already taken.",
     "Les chasseurs sont posés l'un après l'autre, en sens horaire, sur une case extérieure ni rocher ni déjà prise."),
    ("setup.first_player", f"{_FR_SETUP}; {_EN_SETUP}; RULINGS «Setup» 5",
     "The player who placed first also plays first.",
     "Le joueur qui a posé son chasseur en premier joue en premier."),
    ("turn.one_action", f"{_FR_TURN}; {_EN_TURN}; RULINGS «Actions»",
     "On a turn a player does exactly one of the four actions, then play passes clockwise to the next hunter still in the game.",
     "À son tour un joueur fait une seule des quatre actions, puis la main passe en sens horaire au prochain chasseur encore en jeu."),
    ("move.straight", f"{_FR_TURN} 1; {_EN_TURN} 1; RULINGS «Actions» Move",
     "A move spends a card and goes in a straight line exactly as many cells as the card shows; every cell must be on the board and not rock.",
     "Un déplacement utilise une carte et va en ligne droite d'exactement autant de cases que la carte ; chaque case doit être sur le plateau et ne pas être un rocher."),
    ("move.card", f"{_FR_TURN} 1; {_EN_TURN} 1",
     "The distance must be the value of a card in the player's hand.",
     "La distance doit être la valeur d'une carte de la main du joueur."),
    ("move.pass_over", f"{_FR_TURN} 1 remarque; {_EN_TURN} 1 caution",
     "Hunters may share a cell and walk over traps and other hunters.",
     "Plusieurs chasseurs peuvent partager une case et traverser pièges et chasseurs."),
    ("trap.place", f"{_FR_TURN} 2; {_EN_TURN} 2; RULINGS «Actions» Place a trap",
     "A trap of one's colour goes on the hunter's own cell: grass only, one trap per cell, the hunter alone there, from a supply of four.",
     "Un piège de sa couleur se pose sur la case du chasseur : herbe seulement, un piège par case, chasseur seul, réserve de quatre."),
    ("trap.remove", f"{_FR_TURN} 3; {_EN_TURN} 3; RULINGS «Actions» Remove a trap",
     "A hunter alone on a trapped cell may destroy it or take his own back; the token returns to its owner's supply.",
     "Un chasseur seul sur une case piégée peut détruire le piège ou reprendre le sien ; le jeton retourne à son propriétaire."),
    ("turn.pass", f"{_FR_TURN} 4; {_EN_TURN} 4",
     "A player may discard one card and pass.",
     "Un joueur peut défausser une carte et passer."),
    ("cards.draw", f"{_FR_TURN} (fin du tour); {_EN_TURN}; RULINGS «Actions»",
     "After playing or discarding a card the player draws back to three; an empty draw pile is rebuilt from the shuffled discards.",
     "Après avoir joué ou défaussé une carte, le joueur repioche jusqu'à trois ; une pioche vide est refaite avec la défausse mélangée."),
    ("flight.trigger", f"{_FR_FLIGHT} ¶1; {_EN_FLIGHT} ¶1; RULINGS «Mammoth flight»",
     "A hunter who enters the mammoth's cell, passing through or stopping there, makes it flee as far as his card's value.",
     "Un chasseur qui entre sur la case du mammouth, en passant ou en s'y arrêtant, le fait fuir d'autant de cases que sa carte."),
    ("flight.order", f"{_FR_FLIGHT} ¶3; {_EN_FLIGHT} ¶3; RULINGS «Mammoth flight» 2",
     "The mammoth tries its escape directions clockwise starting straight ahead, never back towards the hunter who came in.",
     "Le mammouth essaie ses directions de fuite en sens horaire en commençant tout droit, jamais vers le chasseur qui est arrivé."),
    ("flight.blocked", f"{_FR_FLIGHT} ¶2-3; {_EN_FLIGHT} ¶2-3; RULINGS «Mammoth flight» 3",
     "A direction is refused when one of the cells to run is off the board or rock; hunters and traps never block it.",
     "Une direction est refusée si l'une des cases à parcourir est hors du plateau ou un rocher ; chasseurs et pièges ne la bloquent jamais."),
    ("flight.faced", f"{_FR_FLIGHT} ¶5; {_EN_FLIGHT} ¶5; RULINGS «Mammoth flight» 4",
     "With no way to flee, the mammoth turns on the hunter who entered: that hunter is out and his move ends.",
     "Sans issue, le mammouth fait face au chasseur entré : celui-ci est éliminé et son déplacement s'arrête."),
    ("flight.trap", f"{_FR_FLIGHT} ¶6; {_EN_FLIGHT} ¶6; RULINGS «Mammoth flight» 5",
     "A mammoth that runs onto a trap falls in at once and the game is over.",
     "Un mammouth qui passe sur un piège y tombe aussitôt et la partie s'arrête."),
    ("flight.frighten", f"{_FR_FLIGHT} ¶4; {_EN_FLIGHT} ¶4; RULINGS «Mammoth flight» 5",
     "A hunter the running mammoth reaches flees at once to a neighbouring cell of his owner's choosing, not the one the mammoth came from.",
     "Un chasseur atteint par le mammouth en fuite s'échappe aussitôt sur une case voisine choisie par son joueur, sauf celle d'où vient le mammouth."),
    ("flight.no_escape", f"{_FR_FLIGHT} ¶4; {_EN_FLIGHT} ¶4; RULINGS «Mammoth flight» 5",
     "A frightened hunter with nowhere to flee is out of the game.",
     "Un chasseur effrayé qui n'a nulle part où fuir est éliminé."),
    ("flight.continue", f"{_FR_FLIGHT} ¶1 (en gras); {_EN_FLIGHT} ¶1 (bold); RULINGS «Mammoth flight» 6",
     "After the flight, the hunter who caused it walks the rest of his move.",
     "Après la fuite, le chasseur qui l'a provoquée termine son déplacement."),
    ("end.trap_owner", "FR «Fin du jeu»; EN «End of the game»",
     "The owner of the trap the mammoth falls into wins, whoever pushed it there.",
     "Le propriétaire du piège où tombe le mammouth gagne, quel que soit celui qui l'y a poussé."),
    ("end.elimination", f"{_FR_FLIGHT} ¶4-5; RULINGS «Elimination and the end»",
     "An eliminated player's cards go to the discard pile, his traps leave the board, and his turns are skipped.",
     "Les cartes d'un joueur éliminé vont à la défausse, ses pièges quittent le plateau et ses tours sont sautés."),
    ("end.mammoth_wins", "FR «Cas particulier»; EN «Particular case»; RULINGS «Elimination and the end»",
     "The mammoth wins when no hunter is left or when it is proven that it can never be driven into a trap.",
     "Le mammouth gagne quand il ne reste aucun chasseur ou quand il est prouvé qu'il ne pourra jamais tomber dans un piège."),
    ("end.stall", "RULINGS «Elimination and the end» (variant stall_limit)",
     "Under the stall variant, the mammoth wins after the agreed number of turns without a flight or a trap change.",
     "Avec la variante d'enlisement, le mammouth gagne après le nombre convenu de tours sans fuite ni changement de piège."),
    ("end.game_over", "FR «Fin du jeu»; EN «End of the game»",
     "The game is over: no further action can be played.",
     "La partie est terminée : plus aucune action n'est possible."),
    ("request.format", "docs/notation.md; maamut resolve contract",
     "The request does not follow the documented form.",
     "La requête ne suit pas la forme documentée."),
]

RULEBOOK = Rulebook(_TABLE)
RULES: dict[str, Rule] = RULEBOOK.rules
cite = RULEBOOK.cite

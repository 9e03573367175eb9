"""Rule ids of Mammut, the sections they come from, and our own paraphrase of each.

Every event, scoring line and error names one of these ids in its ``rule`` field.
``section`` cites the French rulebook (``/work/shared/rules/003_b29eee78fe241c5f.txt``,
the only text we have, which wins) and, for the gaps it leaves, our rulings in
``docs/rulings-mammut.md``. The texts are paraphrases written for this product,
never the publisher's sentences.

>>> RULES["share.steal"].section
'FR «Déroulement du jeu» › «Prendre des plaquettes», 2nd action'
>>> cite("eval.tusk", "fr")
'Chaque défense rapporte 2 points.'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    id: str
    section: str
    en: str
    fr: str


_SETUP = "FR «Matériel de jeu et préparation du jeu»"
_TAKE = "FR «Déroulement du jeu» › «Prendre des plaquettes»"
_CARDS = "FR «Déroulement du jeu» › «Donner des cartes»"
_END_SHARE = "FR «Déroulement du jeu» › «Fin de la phase de distribution»"
_EVAL = "FR «Évaluation du butin»"
_SHAMAN = "FR «Le chamane»"
_ACTION = "FR «Présentation des cartes d'action»"
_TWO = "FR «Jeu opposant 2 joueurs»"
_FINAL = "FR «Fin du jeu et comptabilisation finale des points»"
_R = "docs/rulings-mammut.md"

_TABLE = [
    ("setup.rounds", f"{_SETUP} 5",
     "With 2 or 3 players the game lasts rounds 1 to 5; with 4 or 5 players it starts at round 2, so only four rounds are played.",
     "À 2 ou 3 joueurs on joue les manches 1 à 5 ; à 4 ou 5 joueurs on commence à la manche 2, soit quatre manches."),
    ("setup.animals", f"{_SETUP} 3",
     "With 4 or 5 players each player starts with one animal token drawn at random, one species each.",
     "À 4 ou 5 joueurs chacun commence avec un pion d'animal tiré au hasard, une espèce par joueur."),
    ("setup.hand", f"{_SETUP} 2",
     "Each player starts with two action cards; the rest form the draw pile.",
     "Chaque joueur reçoit deux cartes d'action ; le reste forme la pioche."),
    ("setup.start_player", f"{_SETUP} 4",
     "The youngest player starts the first round.",
     "Le plus jeune joueur commence la première manche."),
    ("share.turn_order", f"{_TAKE} ¶1 and ¶3",
     "Players act clockwise from the start player; a player who already has loot in front of him is skipped.",
     "On joue en sens horaire à partir du premier joueur ; celui qui a déjà du butin devant lui est sauté."),
    ("share.not_your_turn", f"{_TAKE} ¶1",
     "Only the player whose turn it is may act.",
     "Seul le joueur dont c'est le tour peut agir."),
    ("share.take", f"{_TAKE}, 1st action; remarques",
     "Take as many tiles as you like from the middle, even all of them.",
     "Prenez autant de tuiles du milieu que vous voulez, même toutes."),
    ("share.take_some", f"{_TAKE}, 1st action; {_R} «Taking nothing»",
     "Taking from the middle means taking at least one tile that is there.",
     "Prendre au milieu, c'est prendre au moins une tuile qui s'y trouve."),
    ("share.steal", f"{_TAKE}, 2nd action",
     "Or take every tile of one player, put at least one of them back in the middle and keep the rest.",
     "Ou prenez toutes les tuiles d'un joueur, remettez-en au moins une au milieu et gardez le reste."),
    ("share.steal_return", f"{_TAKE}, 2nd action; {_R} «Tiles given back»",
     "How many stolen tiles go back to the middle: at least one by default, exactly one under the variant.",
     "Combien de tuiles volées retournent au milieu : au moins une par défaut, exactement une avec la variante."),
    ("share.steal_single", f"{_TAKE}, 2nd action; {_R} «Robbing a single tile»",
     "By default a player holding a single tile cannot be robbed, since the thief would keep nothing.",
     "Par défaut on ne peut pas voler un joueur qui n'a qu'une tuile, le voleur ne garderait rien."),
    ("share.robbed_again", f"{_TAKE} remarque (robbed player)",
     "A robbed player has no loot again and so plays again when his turn comes round.",
     "Un joueur volé n'a plus de butin et rejoue donc quand son tour revient."),
    ("share.first_move", f"{_TAKE} remarques, 1st",
     "On his first turn of the phase the start player can only take from the middle.",
     "À son premier tour de la phase, le premier joueur ne peut que prendre au milieu."),
    ("share.cards_before", f"{_CARDS}",
     "Before taking tiles, the player whose turn it is may play any number of cards.",
     "Avant de prendre des tuiles, le joueur dont c'est le tour peut jouer autant de cartes qu'il veut."),
    ("share.last_takes_all", f"{_END_SHARE}",
     "The last player without loot who takes from the middle must take everything left there.",
     "Le dernier joueur sans butin qui prend au milieu doit tout prendre."),
    ("share.end", f"{_END_SHARE}",
     "That take ends the sharing; that player starts the next round and gets the start mammoth.",
     "Cette prise termine le partage ; ce joueur commence la manche suivante et reçoit le mammouth de départ."),
    ("share.phase_over", f"{_END_SHARE}",
     "The sharing is over: the loot is now evaluated.",
     "Le partage est terminé : on passe à l'évaluation."),
    ("share.shaman_loot", f"{_TAKE} remarques, 3rd",
     "The shaman tile lies in the middle with the loot and is taken like any tile.",
     "La tuile chamane est au milieu avec le butin et se prend comme les autres."),
    ("share.two_lots", f"{_TWO} «Distribution du butin»",
     "With two players each player gathers two separate lots and is skipped only once he has both.",
     "À deux, chacun forme deux lots séparés et n'est sauté qu'une fois ses deux lots constitués."),
    ("share.two_steal_lot", f"{_TWO} «Distribution du butin»",
     "With two players a theft takes one of the opponent's lots, not both.",
     "À deux, un vol prend un seul des lots de l'adversaire."),
    ("share.two_stuck", f"{_TWO} «Distribution du butin»; {_R} «Two players: nowhere to act»",
     "With two players, facing an empty middle and only single-tile lots, a player takes one of those lots whole and gives nothing back.",
     "À deux, face à un milieu vide et à des lots d'une seule tuile, un joueur prend un de ces lots en entier sans rien rendre."),
    ("card.in_hand", f"{_CARDS}; {_ACTION}",
     "A player can only play a card he holds.",
     "Un joueur ne peut jouer qu'une carte qu'il a en main."),
    ("card.count", f"{_ACTION}; {_SETUP} (19 cards)",
     "The deck holds only so many copies of each card.",
     "Le paquet ne contient qu'un nombre limité d'exemplaires de chaque carte."),
    ("card.peek", f"{_ACTION}, look card (3×)",
     "Look secretly at the hidden side of one or two question tiles.",
     "Regardez en secret la face cachée d'une ou deux tuiles point d'interrogation."),
    ("card.flip", f"{_ACTION}, turn-over card (3×)",
     "Turn one or two tiles over, in the middle or in front of anyone; animal tiles are excluded.",
     "Retournez une ou deux tuiles, au milieu ou devant n'importe qui ; les tuiles animaux sont exclues."),
    ("card.flip_shaman", f"{_ACTION}, turn-over card; {_R} «Turning the shaman over»",
     "The shaman tile may be turned over: its arrow then points the other way.",
     "La tuile chamane peut être retournée : sa flèche indique alors l'autre sens."),
    ("card.recall", f"{_ACTION}, recall card (2×)",
     "One or more players put all their tiles back in the middle; with two players, one or more lots, one's own included.",
     "Un ou plusieurs joueurs remettent toutes leurs tuiles au milieu ; à deux, un ou plusieurs lots, même les siens."),
    ("card.evaluation", f"{_CARDS}; {_ACTION}",
     "Evaluation cards are played face down and only act at the evaluation, on top of the usual scoring.",
     "Les cartes d'évaluation se jouent face cachée et n'agissent qu'à l'évaluation, en plus du décompte normal."),
    ("eval.reveal", f"{_EVAL} «Préparation» I-II",
     "Evaluation cards are turned up, then every question tile is turned over and scores as its new side.",
     "On retourne les cartes d'évaluation puis chaque tuile point d'interrogation, qui compte pour sa nouvelle face."),
    ("eval.floor", f"{_EVAL} «Préparation» remarque; {_R} «The zero floor»",
     "Points never go below zero: a loss that would do so stops at zero.",
     "Les points ne descendent jamais sous zéro : une perte qui les y mènerait s'arrête à zéro."),
    ("eval.ties", f"{_SHAMAN}",
     "Ties go to the shaman holder, then to the players nearest him following the arrow (red clockwise, blue counter-clockwise).",
     "Les égalités vont au détenteur du chamane, puis aux joueurs les plus proches de lui dans le sens de la flèche (rouge horaire, bleue anti-horaire)."),
    ("eval.axe_card", f"{_EVAL} «Hache»",
     "Each axe draws one action card, players drawing clockwise from the shaman holder.",
     "Chaque hache fait piocher une carte d'action, en sens horaire à partir du détenteur du chamane."),
    ("eval.axe_last_round", f"{_EVAL} «Hache»",
     "In the last round each axe scores 3 points and no card is drawn.",
     "À la dernière manche chaque hache rapporte 3 points et on ne pioche plus."),
    ("eval.draw_empty", f"{_EVAL} «Hache»; {_R} «Empty draw pile»",
     "When the draw pile is empty the discarded cards are shuffled into a new one (variant: no more cards).",
     "Si la pioche est vide on mélange la défausse pour en refaire une (variante : plus de cartes)."),
    ("eval.skin_track", f"{_EVAL} «Peaux» I",
     "Each skin moves the player's mammoth one space up the skins track.",
     "Chaque peau fait avancer d'une case le mammouth du joueur sur le parcours des peaux."),
    ("eval.skin_most", f"{_EVAL} «Peaux» II; {_R} «Skins points»",
     "Furthest on the skins track: gain as many points as the round number.",
     "Le plus avancé sur le parcours des peaux gagne autant de points que le numéro de la manche."),
    ("eval.skin_least", f"{_EVAL} «Peaux» III",
     "Last on the skins track: lose the same number of points.",
     "Le dernier sur le parcours des peaux perd autant de points."),
    ("eval.tusk", f"{_EVAL} «Défenses»",
     "Each tusk scores 2 points.",
     "Chaque défense rapporte 2 points."),
    ("eval.meat", f"{_EVAL} «Viande» I-III",
     "Most meat scores 8, second most 5, third most 2; with three players only 8 and 5, with two only 8.",
     "Le plus de viande rapporte 8, le deuxième 5, le troisième 2 ; à trois seulement 8 et 5, à deux seulement 8."),
    ("eval.meat_none", f"{_EVAL} remarque (viande); {_R} «Players without meat»",
     "A player without meat takes no place in the meat ranking.",
     "Un joueur sans viande n'a pas de place au classement de la viande."),
    ("eval.fire", f"{_EVAL} «Feu»",
     "Fewest fire tiles: lose 5 points.",
     "Le moins de feux : perdez 5 points."),
    ("eval.fire_two", f"{_TWO} «Évaluation du butin»",
     "With two players, the other player also scores 1 point per fire tile.",
     "À deux, l'autre joueur gagne en plus 1 point par feu."),
    ("eval.penalty_ties", f"{_SHAMAN}; {_R} «Ties on penalties»",
     "In a tie for a penalty, the shaman order decides who avoids it (variant: every tied player pays).",
     "En cas d'égalité pour une pénalité, l'ordre du chamane décide qui y échappe (variante : tous les ex æquo paient)."),
    ("eval.animal", f"{_EVAL} «Animaux»",
     "Each animal tile brings that species' token, unless the player already has that species.",
     "Chaque tuile animal rapporte le pion de cette espèce, sauf si le joueur l'a déjà."),
    ("eval.animal_supply", f"{_SETUP} (35 tokens, 5 per species); {_R} «Animal supply»",
     "A species whose supply is exhausted gives nothing.",
     "Une espèce dont la réserve est épuisée ne rapporte rien."),
    ("eval.most_needs_one", f"{_ACTION}; {_R} «Most of nothing»",
     "A card rewarding the most tiles of a kind needs at least one such tile.",
     "Une carte qui récompense le plus de tuiles d'un type exige au moins une telle tuile."),
    ("eval.card.skin", f"{_ACTION}, skin card (2×)",
     "Counts as one skin tile for the player who played it.",
     "Compte comme une peau pour celui qui l'a jouée."),
    ("eval.card.skins_most_points", f"{_ACTION}, most skins 4 points",
     "Most skin tiles this round (not the track): 4 points.",
     "Le plus de peaux de la manche (pas le parcours) : 4 points."),
    ("eval.card.skins_most_animal", f"{_ACTION}, most skins animal",
     "Most skin tiles this round (not the track): an animal token of one's choice.",
     "Le plus de peaux de la manche (pas le parcours) : un pion d'animal au choix."),
    ("eval.card.axes_most_skin", f"{_ACTION}, most axes skin",
     "The player with most axes counts this card as one skin tile.",
     "Le joueur qui a le plus de haches compte cette carte comme une peau."),
    ("eval.card.axes_most_fire", f"{_ACTION}, most axes fire",
     "The player with most axes counts this card as one fire tile.",
     "Le joueur qui a le plus de haches compte cette carte comme un feu."),
    ("eval.card.tusks_most_fire", f"{_ACTION}, most tusks fire",
     "The player with most tusks counts this card as one fire tile.",
     "Le joueur qui a le plus de défenses compte cette carte comme un feu."),
    ("eval.card.tusks_most_points", f"{_ACTION}, most tusks 4 points",
     "Most tusk tiles: 4 points.",
     "Le plus de défenses : 4 points."),
    ("eval.card.animal_exchange", f"{_ACTION}, exchange card (2×)",
     "Give up one animal tile to take any species token one does not own yet.",
     "Échangez une tuile animal contre le pion d'une espèce que vous n'avez pas encore."),
    ("eval.card.axes_bonus", f"{_ACTION}, axe bonus (1×)",
     "Every axe of every player scores 2 points on top of its usual effect.",
     "Chaque hache de chaque joueur rapporte 2 points en plus de son effet habituel."),
    ("round.end", "FR «Fin d'une partie»",
     "Played cards are discarded, the round counter moves on and all tiles go back in the bag.",
     "Les cartes jouées vont à la défausse, le compteur de manches avance et toutes les tuiles retournent dans le sac."),
    ("end.species_bonus", f"{_FINAL}",
     "After round 5, different species owned score: 3 → 4, 4 → 9, 5 → 15, 6 → 22, 7 → 30, fewer → 0.",
     "Après la manche 5, les espèces différentes possédées rapportent : 3 → 4, 4 → 9, 5 → 15, 6 → 22, 7 → 30, moins → 0."),
    ("end.winner", f"{_FINAL}",
     "Most points wins; a tie goes to the player furthest on the skins track, then the tied players share the win.",
     "Le plus de points gagne ; à égalité, le plus avancé sur le parcours des peaux, sinon victoire partagée."),
    ("request.format", "docs/mammut-api.md",
     "The request does not follow the documented form.",
     "La requête ne suit pas la forme documentée."),
    ("request.tiles", f"{_SETUP} (31 loot tiles); {_R} «The tile list»",
     "The revealed tiles do not fit in the configured set of tiles.",
     "Les tuiles révélées ne tiennent pas dans le jeu de tuiles configuré."),
    ("request.round", f"{_SETUP} 5",
     "That round is not played with this number of players.",
     "Cette manche ne se joue pas avec ce nombre de joueurs."),
]

RULES: dict[str, Rule] = {rid: Rule(rid, section, en, fr) for rid, section, en, fr in _TABLE}


def cite(rule_id: str, lang: str = "en") -> str:
    """Our paraphrase of a rule in ``"en"`` or ``"fr"``."""
    rule = RULES[rule_id]
    return rule.fr if lang == "fr" else rule.en

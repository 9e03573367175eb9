"""The evaluation of one round (and, after round 5, the final scoring).

Items are scored in the rulebook's order (axes, skins, tusks, meat, fire, animals);
evaluation cards act with the item they concern. Every change is a line naming the
rule it applies, in English and French.

>>> r = score_round(RoundInput(players=("A", "B", "C"), round=2, holder="B", arrow="red",
...                            tiles={"A": {"meat": 3, "tusk": 1}, "B": {"meat": 3, "skin": 1}, "C": {"fire": 2}}))
>>> r.points
{'A': 2, 'B': 10, 'C': 0}
>>> [(l["player"], l["item"], l["points"]) for l in r.lines if l["points"]]
[('B', 'skins_most', 2), ('A', 'tusk', 2), ('B', 'meat', 8), ('A', 'meat', 5), ('A', 'fire', -5)]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from .core import (
    AXE,
    DEFAULT_CONFIG,
    EVALUATION_CARDS,
    FIRE,
    FIRST_ROUND,
    GOODS,
    KIND_FR,
    LAST_ROUND,
    MEAT,
    SKIN,
    SPECIES_BONUS,
    SPECIES_FR,
    TUSK,
    BadRequest,
    Config,
    IllegalAction,
    clockwise_from,
    tie_order,
)
from .rulebook import RULES
from .variants import Variants

MEAT_POINTS = (8, 5, 2)


@dataclass(frozen=True)
class EvalCard:
    """An evaluation card turned up. ``give``/``take``: the animal tile given up and the
    species taken (``animal_exchange``); ``take``: the species chosen with
    ``skins_most_animal`` by whoever has most skins."""

    card: str
    player: str
    give: str | None = None
    take: str | None = None


@dataclass
class RoundInput:
    players: tuple
    round: int
    holder: str
    arrow: str = "red"
    points: dict = field(default_factory=dict)
    track: dict = field(default_factory=dict)
    species: dict = field(default_factory=dict)
    tiles: dict = field(default_factory=dict)
    cards: tuple = ()
    draw_pile: int | None = None
    discard_pile: int | None = None
    variants: Variants = field(default_factory=Variants)
    config: Config = DEFAULT_CONFIG


@dataclass
class RoundResult:
    points: dict
    track: dict
    species: dict
    draws: list
    draw_pile: int | None
    discard_pile: int | None
    lines: list
    order: tuple
    final: dict | None = None


def _ill(rule, en, fr):
    return IllegalAction(en, rule, code="illegal_request", fr=fr)


def _fr_kind(kind):
    return SPECIES_FR.get(kind, KIND_FR.get(kind, kind))


def _count(n: int, one: str, many: str | None = None) -> str:
    """A number and its noun as people write it (either language: the plural is given
    when it is not the noun with an ``s``).

    >>> _count(1, "axe"), _count(3, "axe"), _count(2, "peau", "peaux")
    ('1 axe', '3 axes', '2 peaux')
    """
    return f"{n} {one if n == 1 else many or one + 's'}"


def _names(names: list, conjunction: str) -> str:
    """``Bob``, ``Bob and Cat``, ``Bob, Cat and Dan`` (or with ``et``)."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def _a(kind: str) -> str:
    """An English noun with its article: ``a bear``, ``an ibex``."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def validate(inp: RoundInput) -> None:
    """Rule checks on a well-formed request (raise :class:`IllegalAction`; :class:`BadRequest`
    for an exchange card given only one of its two halves)."""
    n = len(inp.players)
    if not FIRST_ROUND[n] <= inp.round <= LAST_ROUND:
        raise _ill("request.round", f"with {n} players the rounds are {FIRST_ROUND[n]} to {LAST_ROUND}",
                   f"à {n} joueurs les manches vont de {FIRST_ROUND[n]} à {LAST_ROUND}")
    totals = Counter()
    for p in inp.players:
        totals.update(inp.tiles.get(p, {}))
    if sum(totals.values()) > inp.config.tile_count:
        raise _ill("request.tiles", f"{sum(totals.values())} tiles revealed, the set has {inp.config.tile_count}",
                   f"{sum(totals.values())} tuiles révélées, le jeu en compte {inp.config.tile_count}")
    short = unplaceable(totals, inp.config)
    if short is not None:
        kinds, carriers = short
        if len(kinds) == 1:
            kind, count = kinds[0], totals[kinds[0]]
            raise _ill("request.tiles", f"{count} {kind} tiles revealed, the set can show at most {carriers}",
                       f"{count} tuiles {_fr_kind(kind)} révélées, le jeu en montre au plus {carriers}")
        shown = " and ".join(f"{totals[k]} {k}" for k in kinds)
        shown_fr = " et ".join(f"{totals[k]} {_fr_kind(k)}" for k in kinds)
        raise _ill("request.tiles", f"{shown} tiles revealed, but only {carriers} tiles of the set carry any of them",
                   f"{shown_fr} révélées, mais seules {carriers} tuiles du jeu portent l'une de ces faces")
    for i, c in enumerate(inp.cards):
        if c.card == "animal_exchange" and (c.give is None) != (c.take is None):
            # A half-filled exchange cannot be scored as written: name the missing half rather
            # than drop the card (docs/rulings-mammut.md «Half-filled exchange»).
            missing = "take" if c.take is None else "give"
            raise BadRequest(f"cards.{i}.{missing}", "an exchange names both the animal tile given up (give) and "
                                                    "the species taken (take), or neither when the card is not used")
    played = Counter(c.card for c in inp.cards)
    for card, count in played.items():
        if count > EVALUATION_CARDS[card]:
            raise _ill("card.count", f"the deck has {_count(EVALUATION_CARDS[card], card + ' card')}, {count} were played",
                       f"le paquet a {_count(EVALUATION_CARDS[card], 'carte')} {card}, {count} jouées")


def unplaceable(totals: Counter, config: Config):
    """The smallest group of revealed kinds that more tiles show than the set has tiles
    carrying any of them, with that number of tiles; ``None`` when every revealed tile
    can be a different tile of the set (Hall's condition: each tile shows one side).

    >>> from ostby_mammut.core import DEFAULT_CONFIG
    >>> unplaceable(Counter({"meat": 11, "fire": 8}), DEFAULT_CONFIG)
    (['fire', 'meat'], 15)
    >>> unplaceable(Counter({"meat": 11, "fire": 4}), DEFAULT_CONFIG) is None
    True
    """
    kinds = sorted(k for k, n in totals.items() if n)
    carriers_by_mask = Counter()
    for pair in config.tiles:
        mask = sum(1 << i for i, kind in enumerate(kinds) if kind in pair)
        if mask:
            carriers_by_mask[mask] += 1
    for size in range(1, len(kinds) + 1):
        for group in combinations(range(len(kinds)), size):
            group_mask = sum(1 << i for i in group)
            carriers = sum(n for mask, n in carriers_by_mask.items() if mask & group_mask)
            if sum(totals[kinds[i]] for i in group) > carriers:
                return [kinds[i] for i in group], carriers
    return None


def score_round(inp: RoundInput) -> RoundResult:
    validate(inp)
    S = _Scorer(inp)
    S.run()
    return S.result()


class _Scorer:
    def __init__(self, inp: RoundInput):
        self.inp = inp
        self.players = tuple(inp.players)
        self.order = tie_order(self.players, inp.holder, inp.arrow)
        self.rank = {p: i for i, p in enumerate(self.order)}
        self.points = {p: int(inp.points.get(p, 0)) for p in self.players}
        self.track = {p: int(inp.track.get(p, 0)) for p in self.players}
        self.species = {p: list(inp.species.get(p, ())) for p in self.players}
        self.tiles = {p: Counter(inp.tiles.get(p, {})) for p in self.players}
        self.cards = list(inp.cards)
        self.lines: list = []
        self.draws: list = []
        self.pile, self.discard = inp.draw_pile, inp.discard_pile
        self.v = inp.variants
        self.last = inp.round == LAST_ROUND
        self.supply = {s: inp.config.supply_per_species - sum(1 for p in self.players if s in self.species[p])
                       for s in inp.config.species}
        self.final = None

    # helpers ---------------------------------------------------------------------------
    def line(self, player, item, rule, en, fr, delta=0, **extra):
        before = self.points[player]
        after = before + delta
        if self.v.floor == "each_item":
            after = max(0, after)
        self.points[player] = after
        row = {"player": player, "item": item, "rule": rule, "points": after - before, "total": after,
               "en": en, "fr": fr}
        if after - before != delta:
            row["clamped"] = True
            row["en"] += f" (stopped at zero: {delta:+d} asked)"
            row["fr"] += f" (arrêté à zéro : {delta:+d} demandés)"
        row.update(extra)
        self.lines.append(row)

    def count(self, player, kind):
        return self.tiles[player][kind]

    def played(self, card):
        return [c for c in self.cards if c.card == card]

    def most(self, counts: dict, need_one=True):
        """Best player for ``counts`` (ties by the shaman order), or None."""
        best = min(self.players, key=lambda p: (-counts[p], self.rank[p]))
        if need_one and counts[best] < 1:
            return None
        return best

    def tie(self, counts: dict, player, penalty: bool = False) -> tuple[str, str]:
        """How a tie on ``counts`` was settled for ``player``, to close his line (empty
        when nobody shares his count): the shaman's order decides, or, for a penalty
        under ``penalty_ties: all``, every tied player pays (FR «Le chamane»)."""
        others = [q for q in self.players if q != player and counts[q] == counts[player]]
        if not others:
            return "", ""
        names_en = _names(others, "and")
        names_fr = _names(others, "et")
        if penalty and self.v.penalty_ties == "all":
            return f" — tied with {names_en}: all of them pay", f" — à égalité avec {names_fr} : tous paient"
        return (f" — tied with {names_en}, the shaman's order decides",
                f" — à égalité avec {names_fr}, l'ordre du chamane départage")

    def least(self, counts: dict) -> list:
        """Who takes a 'fewest' penalty: the worst placed of the tied, or all of them."""
        low = min(counts.values())
        tied = [p for p in self.players if counts[p] == low]
        if self.v.penalty_ties == "all":
            return tied
        return [max(tied, key=lambda p: self.rank[p])]

    # the round -------------------------------------------------------------------------
    def run(self):
        self.skins = {p: self.count(p, SKIN) for p in self.players}
        self.fires = {p: self.count(p, FIRE) for p in self.players}
        axes = {p: self.count(p, AXE) for p in self.players}
        tusks = {p: self.count(p, TUSK) for p in self.players}
        for c in self.played("skin"):
            self.skins[c.player] += 1
            self.line(c.player, "card_skin", "eval.card.skin", "Skin card: counts as one more skin",
                      "Carte peau : compte comme une peau de plus")
        for card, kind, counts in (("axes_most_skin", SKIN, axes), ("axes_most_fire", FIRE, axes),
                                   ("tusks_most_fire", FIRE, tusks)):
            for c in self.played(card):
                who = self.most(counts)
                what = "axes" if counts is axes else "tusks"
                what_fr = "haches" if counts is axes else "défenses"
                if who is None:
                    self.line(c.player, f"card_{card}", "eval.most_needs_one",
                              f"{card} card: nobody has any {what}, no effect",
                              f"carte {card} : personne n'a de {what_fr}, sans effet")
                    continue
                (self.skins if kind == SKIN else self.fires)[who] += 1
                tie_en, tie_fr = self.tie(counts, who)
                self.line(who, f"card_{card}", f"eval.card.{card}",
                          f"Most {what} ({counts[who]}): the card counts as one {kind}{tie_en}",
                          f"Le plus de {what_fr} ({counts[who]}) : la carte compte comme un(e) {_fr_kind(kind)}{tie_fr}")
        self.axes(axes)
        self.skins_item()
        self.tusks_item(tusks)
        self.meat_item()
        self.fire_item()
        self.animals_item()
        if self.v.floor == "round_end":
            for p in self.players:
                if self.points[p] < 0:
                    lost = self.points[p]
                    self.points[p] = 0
                    self.lines.append({"player": p, "item": "floor", "rule": "eval.floor", "points": -lost,
                                       "total": 0, "en": "Points stop at zero", "fr": "Les points s'arrêtent à zéro"})
        if self.last:
            self.final_scoring()

    def axes(self, axes):
        bonus = bool(self.played("axes_bonus"))
        for p in self.players:
            n = axes[p]
            if not n:
                continue
            if self.last:
                self.line(p, "axe", "eval.axe_last_round", f"{_count(n, 'axe')} × 3 in the last round",
                          f"{_count(n, 'hache')} × 3 à la dernière manche", 3 * n)
            if bonus:
                self.line(p, "axe_bonus", "eval.card.axes_bonus", f"Axe bonus card: {_count(n, 'axe')} × 2",
                          f"Carte bonus des haches : {_count(n, 'hache')} × 2", 2 * n)
        if self.last:
            return
        for p in clockwise_from(self.players, self.inp.holder):
            n = axes[p]
            if not n:
                continue
            got = 0
            for _ in range(n):
                if self.pile is None:
                    got += 1
                    continue
                if self.pile == 0 and self.v.empty_draw_pile == "reshuffle" and self.discard:
                    self.pile, self.discard = self.discard, 0
                    self.line(p, "reshuffle", "eval.draw_empty", "Draw pile empty: the discards are shuffled into a new one",
                              "Pioche vide : la défausse est mélangée pour en refaire une")
                if self.pile == 0:
                    break
                self.pile -= 1
                got += 1
            self.draws.append({"player": p, "cards": got})
            short = f", {n - got} missing: the draw pile is empty" if got < n else ""
            short_fr = f", {_count(n - got, 'manquante')} : la pioche est vide" if got < n else ""
            self.line(p, "axe", "eval.draw_empty" if got < n else "eval.axe_card",
                      f"{_count(n, 'axe')}: draws {_count(got, 'action card')}{short}",
                      f"{_count(n, 'hache')} : pioche {_count(got, 'carte')} d'action{short_fr}", 0, cards=got)

    def skins_item(self):
        R = self.inp.config.skins_points[self.inp.round - 1]
        for p in self.players:
            if self.skins[p]:
                self.track[p] += self.skins[p]
                self.line(p, "skins_track", "eval.skin_track",
                          f"{_count(self.skins[p], 'skin')}: the mammoth moves to space {self.track[p]} of the skins track",
                          f"{_count(self.skins[p], 'peau', 'peaux')} : le mammouth avance à la case {self.track[p]} du parcours des peaux",
                          0, track=self.skins[p])
        top = self.most(self.track, need_one=False)
        tie_en, tie_fr = self.tie(self.track, top)
        self.line(top, "skins_most", "eval.skin_most",
                  f"Furthest on the skins track ({self.track[top]}): +{R} in round {self.inp.round}{tie_en}",
                  f"Le plus avancé sur le parcours des peaux ({self.track[top]}) : +{R} à la manche {self.inp.round}{tie_fr}",
                  R)
        others = {p: (self.track[p] if p != top else 10 ** 9) for p in self.players}
        for p in self.least(others):
            tie_en, tie_fr = self.tie(others, p, penalty=True)
            self.line(p, "skins_least", "eval.skin_least", f"Last on the skins track ({self.track[p]}): −{R}{tie_en}",
                      f"Dernier sur le parcours des peaux ({self.track[p]}) : −{R}{tie_fr}", -R)
        for c in self.played("skins_most_points"):
            who = self.most(self.skins)
            if who is None:
                self.line(c.player, "card_skins_most_points", "eval.most_needs_one", "Most-skins card: nobody has a skin, no effect",
                          "Carte du plus de peaux : personne n'a de peau, sans effet")
            else:
                tie_en, tie_fr = self.tie(self.skins, who)
                self.line(who, "card_skins_most_points", "eval.card.skins_most_points",
                          f"Most skins this round ({self.skins[who]}): +4{tie_en}",
                          f"Le plus de peaux de la manche ({self.skins[who]}) : +4{tie_fr}", 4)

    def tusks_item(self, tusks):
        for p in self.players:
            if tusks[p]:
                self.line(p, "tusk", "eval.tusk", f"{_count(tusks[p], 'tusk')} × 2", f"{_count(tusks[p], 'défense')} × 2", 2 * tusks[p])
        for c in self.played("tusks_most_points"):
            who = self.most(tusks)
            if who is None:
                self.line(c.player, "card_tusks_most_points", "eval.most_needs_one", "Most-tusks card: nobody has a tusk, no effect",
                          "Carte du plus de défenses : personne n'a de défense, sans effet")
            else:
                tie_en, tie_fr = self.tie(tusks, who)
                self.line(who, "card_tusks_most_points", "eval.card.tusks_most_points",
                          f"Most tusks ({tusks[who]}): +4{tie_en}", f"Le plus de défenses ({tusks[who]}) : +4{tie_fr}", 4)

    def meat_item(self):
        n = len(self.players)
        places = MEAT_POINTS[: {2: 1, 3: 2}.get(n, 3)]
        meat = {p: self.count(p, MEAT) for p in self.players}
        ranked = sorted((p for p in self.players if meat[p] > 0), key=lambda p: (-meat[p], self.rank[p]))
        for i, p in enumerate(ranked):
            if i < len(places):
                tied = sum(1 for q in ranked if meat[q] == meat[p]) > 1
                why = " (tie decided by the shaman)" if tied else ""
                why_fr = " (égalité tranchée par le chamane)" if tied else ""
                self.line(p, "meat", "eval.meat", f"Meat place {i + 1} with {meat[p]}: +{places[i]}{why}",
                          f"Viande, place {i + 1} avec {meat[p]} : +{places[i]}{why_fr}", places[i], place=i + 1)
        for p in self.players:
            if meat[p] == 0:
                self.line(p, "meat", "eval.meat_none", "No meat: no place in the meat ranking",
                          "Pas de viande : pas de place au classement de la viande")

    def fire_item(self):
        payers = self.least(self.fires)
        for p in payers:
            tie_en, tie_fr = self.tie(self.fires, p, penalty=True)
            self.line(p, "fire", "eval.fire" if self.v.penalty_ties == "shaman" else "eval.penalty_ties",
                      f"Fewest fires ({self.fires[p]}): −5{tie_en}", f"Le moins de feux ({self.fires[p]}) : −5{tie_fr}", -5)
            if len(self.players) == 2 and len(payers) == 1:
                other = next(q for q in self.players if q != p)
                if self.fires[other]:
                    self.line(other, "fire_two", "eval.fire_two", f"Two players: {_count(self.fires[other], 'fire')} × 1",
                              f"À deux : {_count(self.fires[other], 'feu', 'feux')} × 1", self.fires[other])
        if len(self.players) == 2 and len(payers) == 2:
            # Both tied players paid (penalty_ties: all): the +1 per fire goes to the player who
            # did not pay, and there is none (docs/rulings-mammut.md «Two players tied on fire»).
            for p in self.players:
                self.line(p, "fire_two", "eval.fire_two_tied", "Two players tied on fire, both paid: nobody gains per fire",
                          "À deux, ex æquo au feu, les deux ont payé : personne ne gagne de point par feu")

    def grant(self, p, s, item, rule, en, fr):
        if s in self.species[p]:
            return False
        if self.supply.get(s, 0) <= 0:
            self.line(p, item, "eval.animal_supply", f"No {s} token left in the supply: nothing",
                      f"Plus de pion {_fr_kind(s)} dans la réserve : rien")
            return False
        self.supply[s] -= 1
        self.species[p].append(s)
        self.line(p, item, rule, en, fr, 0, species=s)
        return True

    def animals_item(self):
        """Animal tokens, granted player by player in the shaman order, so that when a
        species' supply runs short the better placed player gets the last token
        (docs/rulings-mammut.md «Animal supply»): each player's exchange card, then his
        animal tiles, then the most-skins card's token if it is his."""
        config_species = self.inp.config.species
        animal_tiles = {p: Counter({s: self.tiles[p][s] for s in config_species if self.tiles[p][s]}) for p in self.players}
        most_skins_cards = self.played("skins_most_animal")
        top = self.most(self.skins)
        for p in self.order:
            for c in self.played("animal_exchange"):
                if c.player == p:
                    self.exchange(c, animal_tiles[p])
            for s in config_species:
                for _ in range(animal_tiles[p][s]):
                    if s in self.species[p]:
                        self.line(p, "animal", "eval.animal", f"{s} tile: already owned, nothing",
                                  f"Tuile {_fr_kind(s)} : espèce déjà possédée, rien")
                    else:
                        self.grant(p, s, "animal", "eval.animal", f"{s} tile: {_a(s)} token",
                                   f"Tuile {_fr_kind(s)} : un pion {_fr_kind(s)}")
            if p == top:
                for c in most_skins_cards:
                    self.most_skins_animal(c, p)
        if top is None:
            for c in most_skins_cards:
                self.line(c.player, "card_skins_most_animal", "eval.most_needs_one",
                          "Most-skins animal card: nobody has a skin, no effect",
                          "Carte animal du plus de peaux : personne n'a de peau, sans effet")

    def exchange(self, c, animal_tiles):
        p = c.player
        if c.give is None or c.take is None:
            self.line(p, "card_animal_exchange", "eval.card.animal_exchange", "Exchange card not used",
                      "Carte d'échange non utilisée")
            return
        if animal_tiles[c.give] < 1:
            raise _ill("eval.card.animal_exchange", f"{p} has no {c.give} tile to give up",
                       f"{p} n'a pas de tuile {_fr_kind(c.give)} à échanger")
        if c.take in self.species[p]:
            raise _ill("eval.card.animal_exchange", f"{p} already owns {_a(c.take)}", f"{p} possède déjà un(e) {_fr_kind(c.take)}")
        animal_tiles[c.give] -= 1
        self.grant(p, c.take, "card_animal_exchange", "eval.card.animal_exchange",
                   f"Exchange card: {c.give} tile given up for {_a(c.take)} token",
                   f"Carte d'échange : tuile {_fr_kind(c.give)} contre un pion {_fr_kind(c.take)}")

    def most_skins_animal(self, c, who):
        choice = c.take
        if choice is not None and choice in self.species[who]:
            raise _ill("eval.card.skins_most_animal", f"{who} already owns {_a(choice)}: choose another species",
                       f"{who} possède déjà un(e) {_fr_kind(choice)} : choisissez une autre espèce")
        if choice is None:
            choice = next((s for s in self.inp.config.species if s not in self.species[who] and self.supply.get(s, 0) > 0),
                          None)
        if choice is None:
            self.line(who, "card_skins_most_animal", "eval.card.skins_most_animal",
                      "Most skins: every species already owned, nothing", "Le plus de peaux : toutes les espèces déjà possédées, rien")
            return
        self.grant(who, choice, "card_skins_most_animal", "eval.card.skins_most_animal",
                   f"Most skins ({self.skins[who]}): {_a(choice)} token of his choice",
                   f"Le plus de peaux ({self.skins[who]}) : un pion {_fr_kind(choice)} au choix")

    def final_scoring(self):
        for p in self.players:
            k = len(set(self.species[p]))
            bonus = SPECIES_BONUS[min(k, 7)]
            self.line(p, "species_bonus", "end.species_bonus", f"{k} different species: +{bonus}",
                      f"{k} espèces différentes : +{bonus}", bonus)
        ranking = sorted(self.players, key=lambda p: (-self.points[p], -self.track[p], self.players.index(p)))
        best = ranking[0]
        winners = [p for p in ranking if (self.points[p], self.track[p]) == (self.points[best], self.track[best])]
        self.final = {"ranking": ranking, "winners": winners, "shared": len(winners) > 1, "rule": "end.winner"}

    def result(self) -> RoundResult:
        return RoundResult(points=self.points, track=self.track, species={p: list(v) for p, v in self.species.items()},
                           draws=self.draws, draw_pile=self.pile, discard_pile=self.discard, lines=self.lines,
                           order=self.order, final=self.final)


def section(rule_id: str) -> str:
    return RULES[rule_id].section


__all__ = ["EvalCard", "RoundInput", "RoundResult", "score_round", "validate", "MEAT_POINTS", "GOODS"]

"""The 36 movement cards: a seeded draw pile, a discard pile and the players' hands.

>>> deck = Deck.new(seed=7)
>>> len(deck.draw_pile), sorted(set(deck.draw_pile))
(36, [1, 2, 3])
>>> hand = [deck.draw() for _ in range(3)]
>>> deck.total(hands=[hand])
36
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

#: Card value -> copies in the box (RULINGS "Setup" 3).
COMPOSITION = {1: 12, 2: 16, 3: 8}
DECK_SIZE = sum(COMPOSITION.values())
#: The values a movement card can show, smallest first.
CARD_VALUES = tuple(sorted(COMPOSITION))


def full_deck() -> list[int]:
    return [value for value, copies in COMPOSITION.items() for _ in range(copies)]


@dataclass
class Deck:
    """Draw and discard piles; ``rng`` makes every shuffle reproducible from the seed."""

    draw_pile: list[int]
    discard_pile: list[int] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random)
    reshuffle: str = "immediate"

    @classmethod
    def new(cls, seed, reshuffle: str = "immediate") -> "Deck":
        rng = random.Random(seed)
        cards = full_deck()
        rng.shuffle(cards)
        return cls(cards, [], rng, reshuffle)

    def _refill(self):
        # in place: the playout kernel holds on to both lists
        self.draw_pile[:] = self.discard_pile
        self.discard_pile.clear()
        self.rng.shuffle(self.draw_pile)

    def draw(self) -> int | None:
        """Top card of the draw pile, or ``None`` when every card is in a hand."""
        if not self.draw_pile:
            if not self.discard_pile:
                return None
            self._refill()
        card = self.draw_pile.pop()
        if not self.draw_pile and self.reshuffle == "immediate" and self.discard_pile:
            self._refill()
        return card

    def discard(self, cards):
        self.discard_pile.extend(cards)
        if not self.draw_pile and self.reshuffle == "immediate" and self.discard_pile:
            self._refill()

    def total(self, hands) -> int:
        return len(self.draw_pile) + len(self.discard_pile) + sum(len(h) for h in hands)

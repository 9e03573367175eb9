"""The animal tokens: which letters are printed on the back of each species' tokens.

The letter of a drawn token names the edge cell where the animal arrives (rules §2).
The rulebook's list (rules «Composition du jeu») has two likely transcription slips: no
token carries ``d`` while three carry ``p``, and ``i`` appears four times while ``l``
appears twice. Our default reads ``p`` as ``d`` (a round token read upside down) and
the mammoth's ``i`` as ``l``; then each of the 18 letters is on exactly three tokens,
capitals only on the species that enter mountains (docs/rulings-vallee.md, «Token
letters»). A group whose set differs gives its own table: it is configuration.

>>> sorted(letter_counts(DEFAULT_TOKENS).values()) == [3] * 18
True
>>> DEFAULT_TOKENS["mammoth"]
('a', 'b', 'e', 'f', 'h', 'j', 'k', 'l', 'd')
>>> UNLETTERED_WOLVES
8
"""

from __future__ import annotations

from collections import Counter

#: Species → the letters on its lettered tokens (one letter per token).
DEFAULT_TOKENS: dict[str, tuple[str, ...]] = {
    "bear": ("A", "B", "C", "D", "E", "F", "h", "i", "d"),
    "tiger": ("A", "B", "C", "D", "E", "F", "c", "g", "j"),
    "rhino": ("a", "c", "e", "f", "g", "i", "j", "l", "d"),
    "bison": ("a", "b", "c", "e", "h", "g", "i", "k", "l"),
    "mammoth": ("a", "b", "e", "f", "h", "j", "k", "l", "d"),
    "wolf": ("A", "B", "C", "D", "E", "F", "b", "f", "k"),
}

#: Wolves without a letter, kept out of the bag for the wolf-horde events (rules «Mise en place»).
UNLETTERED_WOLVES = 8

MOUNTAIN_LETTERS = tuple("ABCDEF")
LOWLAND_LETTERS = tuple("abcdefghijkl")
LETTERS = MOUNTAIN_LETTERS + LOWLAND_LETTERS


def letter_counts(tokens: dict[str, tuple[str, ...]]) -> Counter:
    """How many tokens carry each letter."""
    return Counter(letter for letters in tokens.values() for letter in letters)


def animals_of(species: str, tokens: dict[str, tuple[str, ...]] = DEFAULT_TOKENS) -> int:
    """How many tokens of a species exist (lettered, plus the unlettered wolves)."""
    return len(tokens.get(species, ())) + (UNLETTERED_WOLVES if species == "wolf" else 0)

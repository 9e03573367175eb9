"""AI hunters: a search player that fills an empty seat, gives hints and judges moves.

It imports only :mod:`engine`. :class:`SearchPlayer` decides from an
:class:`InfoSetObservation` (public position, own hand, face-up discards), never from the
others' cards; :func:`hints` lists every legal action with its estimated win chance.
"""

from .search import LEVELS, Decision, Level, InfoSetObservation, SearchPlayer, determinise, observe
from .hints import hints, hints_for_page

__all__ = ["LEVELS", "Decision", "Level", "InfoSetObservation", "SearchPlayer", "determinise", "hints", "hints_for_page", "observe"]

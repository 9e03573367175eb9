"""The table's one live game: the owner every other part proposes changes to.

``session`` depends only on ``engine`` and ``rulekit`` (who may sit at the table). The camera tracker (``vision``), the page
(``companion_web``), the buttons and LEDs (``firmware_bridge``, wired by ``maamut``) are
adapters around a :class:`TableSession`: they read its snapshot, propose commands, and
subscribe to its changes.
"""

from rulekit.journal import Journal, JournalError, Loaded
from .table import Change, CommandError, Snapshot, TableSession, clean_players

__all__ = ["TableSession", "Snapshot", "Change", "CommandError", "Journal", "JournalError", "Loaded", "clean_players"]

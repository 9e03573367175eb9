"""Mâamut rules engine: plain types, the referee, notation and game records.

>>> import engine
>>> pos = engine.notation.position_from_text(
...     "gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@0,-3;B@0,3 - A")
>>> out = engine.apply_action(pos, engine.Move("A", "SE", 3))
>>> out.position.mammoth == engine.hexgrid.parse_cell("0,3") or out.needs is not None
True
"""

from . import events, hexgrid, notation, rulebook
from .core import (
    MAMMOTH,
    Action,
    BadRequest,
    EngineError,
    FleeRequest,
    IllegalAction,
    Move,
    Outcome,
    Pass,
    PlaceTrap,
    Position,
    RemoveTrap,
    Tile,
)
from .jsonio import (
    action_from_json,
    action_to_json,
    choices_from_json,
    choices_to_json,
    needs_to_json,
    position_from_json,
    position_to_json,
)
from .proof import mammoth_survives
from .rules import apply_action, check_action, legal_actions, successors
from .setup import start_cells
from .variants import Variants

__all__ = [
    "MAMMOTH", "Action", "BadRequest", "EngineError", "FleeRequest", "IllegalAction", "Move", "Outcome",
    "Pass", "PlaceTrap", "Position", "RemoveTrap", "Tile", "Variants", "action_from_json", "action_to_json",
    "apply_action", "check_action", "choices_from_json", "choices_to_json", "events", "hexgrid", "legal_actions",
    "mammoth_survives", "needs_to_json", "notation", "position_from_json", "position_to_json", "rulebook",
    "start_cells", "successors",
]

"""The referee sandbox's questions, answered by the engine: what does each of the 18
direction × card moves of one hunter do from a given position?

The position's player to move and hands are set aside (a referee's what-if asks about
any hunter and any card), everything else is the engine's ruling.

>>> from engine.notation import position_from_text
>>> pos = position_from_text("gggg/ggggg/gggggg/gggrggg/gggggg/ggsgg/gggg 0,2 A@-2,2;B@3,-3 - A")
>>> grid = what_if(pos, "A")
>>> len(grid)
18
>>> east2 = next(m for m in grid if m["direction"] == "E" and m["distance"] == 2)
>>> east2["legal"], east2["to"], east2["mammoth_to"]
(True, '0,2', '2,0')
"""

from __future__ import annotations

import engine
from engine.cards import CARD_VALUES
from engine.hexgrid import DIRECTIONS

from .view import explain_events



def _summary(events: list[dict], key: str) -> str | None:
    for event in events:
        if event.get("type") == key:
            return event.get("to") or event.get("cell")
    return None


def what_if(pos: engine.Position, hunter: str, variants: engine.Variants = engine.Variants(),
            cards=CARD_VALUES) -> list[dict]:
    """One entry per direction and card value, in direction order then card value."""
    if hunter not in pos.hunters:
        raise engine.BadRequest("hunter", f"{hunter!r} has no hunter on the board")
    probe = pos.with_(to_move=hunter, hands=None)
    out = []
    for direction in DIRECTIONS:
        for distance in cards:
            action = engine.Move(hunter, direction, distance)
            entry = {"direction": direction, "distance": distance, "legal": False, "to": None,
                     "mammoth_to": None, "eliminated": [], "winner": None, "needs": None, "error": None,
                     "events": [], "explanation": {"en": [], "fr": []}}
            try:
                outcome = engine.apply_action(probe, action, (), variants)
            except engine.IllegalAction as exc:
                entry["error"] = exc.to_json()
                out.append(entry)
                continue
            moved = [e for e in outcome.events if e.get("type") == "hunter_moved"]
            entry.update(
                legal=True,
                to=moved[-1].get("to") if moved else None,
                mammoth_to=_summary(outcome.events, "mammoth_fled"),
                eliminated=[e.get("hunter") for e in outcome.events if e.get("type") == "hunter_eliminated"],
                winner=outcome.winner,
                needs=engine.needs_to_json(outcome.needs),
                events=engine.events.to_json(outcome.events),
                explanation=explain_events(outcome.events),
            )
            out.append(entry)
    return out

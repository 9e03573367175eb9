"""The observation: what one camera frame shows, in board terms.

Vision produces one :class:`Observation` per frame; the tracker decides from a run of
them what (if anything) happened on the board.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Observation:
    """What one frame shows, in board terms (cells are engine cell ids 0..36)."""
    timestamp: float
    board_found: bool                 # board geometry known (seen now, or last good geometry kept)
    occluded: bool                    # something foreign (hand, arm, object) over part of the board
    tiles: tuple[str, ...] | None     # 37 tile names ("grass","snow","rock","cross") by cell id, or None if not read
    tile_confidence: tuple[float, ...] | None
    mammoth: int | None               # cell id of the mammoth token, None if not seen
    hunters: dict[str, int]           # token colour label -> cell id (labels come from calibration, e.g. "c0".."c3" in placement order)
    traps: dict[int, str]             # cell id -> colour label of its owner
    cell_confidence: tuple[float, ...]  # per cell, confidence of the token reading (0..1)
    occluded_cells: tuple[int, ...] = ()  # cells hidden/unreadable in this frame
    glare_cells: tuple[int, ...] = ()     # cells whose tile shows clipped whites (a lamp's hotspot)
    light_level: float | None = None      # how bright the board's whites are (0..1 of the camera's range)
    unsure_cells: tuple[int, ...] = ()    # cells read, but too close to a decision's line to be trusted

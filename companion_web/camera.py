"""Referee-only camera actions: re-learning the light mid-game.

``POST /api/camera/relearn`` asks the camera loop to learn the set's colours again from
the next still board that shows the game's position (see :mod:`vision.relight`). It
answers 202 at once; the page follows the re-learn in the live state's
``camera.light.relearn``. The game, its journal and the seats' colours never change.
The app wiring passes ``create_app`` its ``camera_relearn``, a callable that raises
``LookupError`` with a message when no camera follows the game.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from .jsonio import error_response
from .security import referee_required

bp = Blueprint("camera", __name__, url_prefix="/api/camera")


@bp.post("/relearn")
@referee_required
def relearn():
    ask = current_app.extensions["maamut_camera_relearn"]
    if ask is None:
        return error_response(409, "no_camera", "no camera follows the game on this table")
    try:
        ask()
    except LookupError as exc:
        return error_response(409, "no_camera", str(exc.args[0]) if exc.args else "the camera is not ready")
    return jsonify({"ok": True, "relearn": "waiting"}), 202

"""The camera's questions: when it is unsure of a cell a move depends on, the referee answers.

The camera loop publishes the question in the live state (``camera_question``, see
:func:`question_view`): the cell, what the camera thinks it sees there and the answers
the game allows, owners as player ids (the page words them with the players' names and
colours). Referee-only routes:

- ``GET /api/camera/questions``: the current question (``{"question": null}`` when none);
- ``GET /api/camera/questions/<id>/crop.jpg``: the camera's crop of the cell;
- ``POST /api/camera/questions/<id>/answer`` with ``{"answer": index}`` (an index into
  ``options``): 200 ``{"ok": true, "committed": [...], "reports": [...]}`` (the turns or
  placements the table took, the tracker's reports), 400 naming the field for a bad
  body, 409 ``stale_question`` when the board or the game changed meanwhile (or
  ``no_camera``), 422 ``answer_refused`` when no legal action explains the board so read.

The app wiring passes ``create_app`` its ``camera_questions``: an object with
``crop(id) -> bytes | None`` and ``answer(id, index) -> dict``, raising ``LookupError``
when no camera follows the game and ``ValueError`` with a ``code`` when it refuses.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, Response, current_app, jsonify

from .jsonio import BadBody, bad_body_response, error_response, read_json_object
from .security import referee_required

bp = Blueprint("camera_questions", __name__, url_prefix="/api/camera/questions")

#: A question offers a handful of answers; a hunter stack on one cell holds at most four.
_MAX_OPTIONS = 6
_MAX_HUNTERS = 4


@bp.errorhandler(BadBody)
def _bad_body(exc: BadBody):
    return bad_body_response(exc)


def _owner(value) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= 40 else None


def _contents(data) -> dict | None:
    if not isinstance(data, Mapping) or not isinstance(data.get("hunters"), list):
        return None
    hunters = [h for h in data["hunters"][:_MAX_HUNTERS] if _owner(h)]
    return {"mammoth": data.get("mammoth") is True, "hunters": hunters, "trap": _owner(data.get("trap"))}


def question_view(question) -> dict | None:
    """The live state's ``camera_question`` as pages receive it (well-formed or ``None``).

    >>> question_view({"id": 2, "cell": "2,0", "crop": True, "seen": {"mammoth": False, "hunters": [], "trap": "B"},
    ...                "options": [{"mammoth": False, "hunters": [], "trap": "B"}, {"hunters": []}, 7]})["options"]
    [{'mammoth': False, 'hunters': [], 'trap': 'B'}, {'mammoth': False, 'hunters': [], 'trap': None}]
    >>> question_view({"id": "x"}) is None
    True
    """
    if not isinstance(question, Mapping) or not isinstance(question.get("id"), int):
        return None
    cell, seen = question.get("cell"), _contents(question.get("seen"))
    if not isinstance(cell, str) or len(cell) > 8 or seen is None:
        return None
    options = [o for o in (_contents(o) for o in (question.get("options") or [])[:_MAX_OPTIONS]) if o is not None]
    return {"id": question["id"], "cell": cell, "seen": seen, "options": options, "crop": question.get("crop") is True}


def _desk():
    desk = current_app.extensions.get("maamut_camera_questions")
    if desk is None:
        raise LookupError("no camera follows the game on this table")
    return desk


@bp.get("")
@referee_required
def current():
    hub = current_app.extensions["maamut_hub"]
    return jsonify({"question": question_view(hub.state.get("camera_question"))})


@bp.get("/<int:question_id>/crop.jpg")
@referee_required
def crop(question_id: int):
    try:
        jpeg = _desk().crop(question_id)
    except LookupError as exc:
        return error_response(409, "no_camera", str(exc.args[0]) if exc.args else "no camera")
    if jpeg is None:
        return error_response(404, "no_crop", "no crop of that question's cell (answered, or the board changed)")
    return Response(jpeg, mimetype="image/jpeg")


@bp.post("/<int:question_id>/answer")
@referee_required
def answer(question_id: int):
    body = read_json_object()
    option = body.get("answer")
    if not isinstance(option, int) or isinstance(option, bool) or not 0 <= option < _MAX_OPTIONS:
        raise BadBody(f"answer: give the index of one of the question's options (0..{_MAX_OPTIONS - 1})", "answer")
    try:
        result = _desk().answer(question_id, option)
    except LookupError as exc:
        return error_response(409, "no_camera", str(exc.args[0]) if exc.args else "no camera")
    except ValueError as exc:
        code = getattr(exc, "code", "answer_refused")
        status = 409 if code == "stale_question" else 422
        return error_response(status, code, getattr(exc, "message", str(exc)), "answer" if status == 422 else "")
    return jsonify({"ok": True, "committed": result.get("committed", []), "reports": result.get("reports", [])})

"""La Vallée des Mammouths on the table's page: the valley view and the map editor.

A Flask blueprint on ``/vallee/``, registered by the application factory as a game mode
(``maamut.app.vallee_mode``), so the menu, the look, the language switch and the referee
rules are the site's (:mod:`companion_web.games`): reading is open, every write needs the
referee (PIN header or login) **and** the header ``X-Vallee: 1``, which no cross-site form
can send. Request bodies go through the games' one reader (:mod:`rulekit.jsonrequest`);
a malformed one is a 400 naming the field, never a traceback. The routes are documented
in docs/vallee-web.md.

- ``/vallee/`` is the game master's page: the valley drawn as SVG made here from the map
  data (:mod:`vallee.board_svg`), the game's pieces over it and the turn as a guided
  sequence (:mod:`vallee.web_game`, :mod:`vallee.live`); with no game, the loaded map
  (the sample valley unless ``?map=`` names a saved one) and the form to start one;
- ``/vallee/maps`` is the editor: the map is edited in the browser as its file's JSON,
  checked here by the validator after each change (findings naming their cells), saved
  in a folder of map files (:class:`MapShelf`), exported and imported as files.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from datetime import date
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from rulekit.journal import fsync_folder
from rulekit.jsonrequest import RequestError, read_json, read_object

from .board import MAP_FORMAT, SHIPPED, Valley, read_map_file, shipped_map_json
from .board_svg import direction_words, legend, render_valley
from .core import BadRequest, DIRECTION_NAMES, TERRAIN_FR, TERRAINS, cell_name, reading_key
from .problems import Problem
from .tokens import LETTERS
from .validate import map_problems

EXTENSION = "vallee_maps"
#: A saved map's file name: its ``name`` when it is a short slug.
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
#: Names the editor's own routes use, never a saved map's.
RESERVED = set(SHIPPED) | {"blank", "list"}
_CELL_IN_TEXT = re.compile(r"-?\d{1,3},-?\d{1,3}")

bp = Blueprint("vallee", __name__, url_prefix="/vallee", template_folder="templates",
               static_folder="static", static_url_path="/static")


class MapShelf:
    """The folder of the group's map files, written durably (a whole new file replaces
    the old one at once: a power cut leaves the old map or the new, never half of one).

    >>> import tempfile; shelf = MapShelf(tempfile.mkdtemp())
    >>> shelf.names()
    []
    >>> m = shipped_map_json("sample"); m["name"] = "ours"
    >>> shelf.save(m).name, shelf.names(), shelf.load("ours")["name"]
    ('ours.json', ['ours'], 'ours')
    """

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)
        self.lock = threading.Lock()

    def path(self, name: str) -> Path:
        if not SLUG.match(name) or name in RESERVED:
            raise BadRequest("name", "a saved map's name is 1–40 lowercase letters, digits or dashes, "
                                     f"and not one of {', '.join(sorted(RESERVED))}")
        return self.folder / f"{name}.json"

    def names(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.json") if SLUG.match(p.stem) and p.stem not in RESERVED)

    def load(self, name: str) -> dict:
        """A saved map's JSON; ``KeyError`` when there is none, ``ValueError`` when its
        file is no longer JSON (it is then shown as damaged, never served as a map)."""
        path = self.path(name)
        if not path.is_file():
            raise KeyError(name)
        return json.loads(path.read_text(encoding="utf-8"))

    def save(self, map_json: dict) -> Path:
        path = self.path(map_json["name"])
        text = json.dumps(map_json, ensure_ascii=False, indent=1) + "\n"
        with self.lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=self.folder)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(text)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            fsync_folder(self.folder)
        return path


# -- maps: where they come from ------------------------------------------------------

def blank_map(orientation: str = "pointy", faces: dict | None = None) -> dict:
    """A board of the usual 37 cells laid from its two halves (A west, B east), every cell
    plain with no region: the start for entering a group's own board cell by cell.

    >>> m = blank_map(faces={"A": "verso"})
    >>> len(m["cells"]), m["halves"], sorted({c["half"] for c in m["cells"]})
    (37, {'A': 'verso', 'B': 'recto'}, ['A', 'B'])
    >>> read_map_file(m).valley.orientation
    'pointy'
    """
    faces = {"A": "recto", "B": "recto", **(faces or {})}
    cells = []
    for r in range(-3, 4):
        for q in range(-3, 4):
            if abs(q + r) <= 3:
                # the seam of the sample's halves: west of the board's north-south middle
                half = "A" if (2 * q + r if orientation == "pointy" else q) < 0 else "B"
                cells.append({"at": cell_name((q, r)), "terrain": "plain", "half": half})
    cells.sort(key=lambda c: reading_key(tuple(int(v) for v in c["at"].split(","))))
    return {
        "format": MAP_FORMAT, "name": "our-valley",
        "title": {"en": "Our valley", "fr": "Notre vallée"}, "sample": False,
        "provenance": {"edition": "2001", "source": "entered from our copy of the game",
                       "captured_by": "our group", "date": date.today().isoformat()},
        "grid": {"orientation": orientation, "coordinates": "axial"},
        "halves": faces, "cells": cells, "rivers": [], "volcanoes": [],
        "compass": {str(face): name for face, name in enumerate(DIRECTION_NAMES[orientation], start=1)},
    }


def _shelf() -> MapShelf:
    return current_app.extensions[EXTENSION]


def _map_json(name: str) -> dict:
    """A map by name: a shipped one or one saved on the shelf (``KeyError`` if none)."""
    if name in SHIPPED:
        return shipped_map_json(name)
    return _shelf().load(name)


def _map_list() -> list[dict]:
    out = []
    for name in list(SHIPPED) + _shelf().names():
        try:
            m = _map_json(name)
            out.append({"name": name, "title": m.get("title") or {"en": name, "fr": name},
                        "sample": m.get("sample") is True, "shipped": name in SHIPPED})
        except (KeyError, ValueError, OSError):
            out.append({"name": name, "title": {"en": name, "fr": name}, "damaged": True})
    return out


# -- findings with the cells they name -----------------------------------------------

def problem_cells(problem: Problem, valley: Valley, raw_map: dict) -> list[str]:
    """The cells a finding is about, for the editor to light them: the ones its place
    (``where``) points at, else those its message names.

    >>> from vallee.board import sample_valley
    >>> v, m = sample_valley(), shipped_map_json("sample")
    >>> problem_cells(Problem("letter_missing", "letters.A", "", ""), v, m)
    ['0,-3']
    >>> problem_cells(Problem("region_absent", "regions.plain.6", "", ""), v, m)
    ['2,0']
    >>> problem_cells(Problem("river_empty", "rivers.2.edges.0", "", ""), v, m)
    ['-2,2', '-1,1']
    """
    parts = problem.where.split(".")
    cells: list = []
    if parts[0] == "cells" and len(parts) > 1 and _CELL_IN_TEXT.fullmatch(parts[1]):
        cells = [parts[1]]
    elif parts[0] == "letters" and len(parts) > 1:
        cells = [cell_name(c) for c, letter in valley.letter.items() if letter == parts[1]]
    elif parts[0] == "regions" and len(parts) > 2 and parts[2].isdigit():
        cells = [cell_name(c) for c in valley.region_cells(parts[1], int(parts[2]))]
    elif parts[0] in ("rivers", "volcanoes") and len(parts) > 1 and parts[1].isdigit():
        cells = _listed_cells(raw_map, parts)
    if not cells:
        cells = _CELL_IN_TEXT.findall(problem.en)
    return [c for c in dict.fromkeys(cells) if _on_board(c, valley)]


def _listed_cells(raw_map: dict, parts: list[str]) -> list[str]:
    try:
        item = raw_map[parts[0]][int(parts[1])]
        if parts[0] == "volcanoes":
            return [item["at"], *item["lava"]]
        edges = item["edges"]
        if len(parts) > 3 and parts[2] == "edges" and parts[3].isdigit():
            edges = [edges[int(parts[3])]]
        return [c for pair in edges for c in pair]
    except (KeyError, IndexError, TypeError):
        return []


def _on_board(name, valley: Valley) -> bool:
    try:
        q, r = (int(v) for v in str(name).split(","))
    except ValueError:
        return False
    return (q, r) in valley.terrain


def check(raw_map: dict) -> dict:
    """The validator's word on a map file's JSON, with the drawing of what it describes;
    :class:`BadRequest` (naming the field) when it is not a map file at all."""
    valley = read_map_file(raw_map).valley
    problems = map_problems(raw_map)
    return {
        "valid": not problems,
        "problems": [{**p.to_json(), "cells": problem_cells(p, valley, raw_map)} for p in problems],
        "svg": render_valley(valley, editor=True),
    }


# -- the guard and the errors ----------------------------------------------------------

def _error(status: int, code: str, message: str, message_fr: str, field: str = ""):
    body = {"code": code, "message": message, "message_fr": message_fr, "rule": "request.format"}
    if field:
        body["field"] = field
    return jsonify({"ok": False, "error": body}), status


def _bad(exc: BadRequest):
    return _error(400, "bad_request", exc.message, f"requête mal formée : {exc.message}", exc.field)


@bp.before_request
def _custom_header():
    if request.method not in ("GET", "HEAD", "OPTIONS") and request.headers.get("X-Vallee") != "1":
        return _error(403, "forbidden", "writes need the header X-Vallee: 1",
                      "une écriture demande l'en-tête X-Vallee: 1", "X-Vallee")
    return None


def _body() -> dict:
    """The JSON object of a write, read within the games' request limits."""
    try:
        return read_object(request.get_data(cache=True))
    except RequestError as exc:
        raise BadRequest(exc.field, exc.message) from None


def _map_of(body: dict) -> dict:
    """The map a request carries: ``map`` (the file's JSON) or ``text`` (the file's text,
    as pasted or uploaded), exactly one of them."""
    unknown = [k for k in body if k not in ("map", "text")]
    if unknown:
        raise BadRequest(unknown[0], "is not a field of this request (map or text)")
    if ("map" in body) == ("text" in body):
        raise BadRequest("map", "give the map file's JSON as map, or its text as text (one of them)")
    if "text" in body:
        if not isinstance(body["text"], str):
            raise BadRequest("text", f"must be the map file's text, got {type(body['text']).__name__}")
        try:
            raw = read_json(body["text"], "text")
        except RequestError as exc:
            raise BadRequest(exc.field, exc.message) from None
    else:
        raw = body["map"]
    if not isinstance(raw, dict):
        raise BadRequest("map" if "map" in body else "text", f"must be a map file's JSON object, got {type(raw).__name__}")
    return raw


# -- pages -----------------------------------------------------------------------------

def _texts() -> dict:
    return {"terrains": [{"id": t, "en": t, "fr": TERRAIN_FR[t]} for t in TERRAINS],
            "letters": list(LETTERS)}


@bp.get("/")
def valley_page():
    name = request.args.get("map", "sample")
    raw, error = None, None
    table = current_app.extensions.get("vallee_table")
    game = table.game if table is not None else None
    try:
        raw = game.setup["json"]["map"] if game is not None else _map_json(name)
        if isinstance(raw, str):
            raw = shipped_map_json(raw)
        valley = read_map_file(raw).valley
    except KeyError:
        error = {"en": f"There is no map named {name!r}.", "fr": f"Aucune carte ne s'appelle {name!r}."}
    except BadRequest as exc:
        error = {"en": f"The map {name!r} cannot be read: {exc.message}",
                 "fr": f"La carte {name!r} est illisible : {exc.message}"}
    except (ValueError, OSError):
        error = {"en": f"The file of the map {name!r} is damaged.", "fr": f"Le fichier de la carte {name!r} est abîmé."}
    if error:
        return render_template("vallee/valley.html", error=error, maps=_map_list(), current=name), 404
    problems = map_problems(raw)
    rose = [{"face": face, **direction_words(valley.compass[face])} for face in sorted(valley.compass)]
    facts = {"cells": len(valley.cells), "rivers": len(valley.rivers), "volcanoes": len(valley.volcanoes),
             "lake": len(valley.lake), "letters": len(valley.letter)}
    live = page_context() if table is not None else None
    return render_template("vallee/valley.html", error=None, maps=_map_list(), current=name, valley=valley,
                           svg=render_valley(valley), legend=legend(), rose=rose, facts=facts,
                           problems=[p.to_json() for p in problems], live=live, playing=game is not None)


@bp.get("/maps")
def editor_page():
    return render_template("vallee/editor.html", maps=_map_list(), start=request.args.get("map", "sample"),
                           texts=_texts(), directions=DIRECTION_NAMES)


# -- the editor's JSON routes (docs/vallee-web.md) -----------------------------------

@bp.get("/maps/list.json")
def list_maps():
    return jsonify({"ok": True, "maps": _map_list()})


@bp.get("/maps/blank.json")
def blank():
    orientation = request.args.get("orientation", "pointy")
    if orientation not in DIRECTION_NAMES:
        return _bad(BadRequest("orientation", "must be pointy or flat"))
    faces = {}
    for half in ("A", "B"):
        face = request.args.get(half, "recto")
        if face not in ("recto", "verso"):
            return _bad(BadRequest(half, "the face of a half-board is recto or verso"))
        faces[half] = face
    return jsonify({"ok": True, "map": blank_map(orientation, faces)})


@bp.get("/maps/<name>.json")
def map_file(name: str):
    try:
        raw = _map_json(name)
    except BadRequest as exc:
        return _bad(exc)
    except KeyError:
        return _error(404, "not_found", f"there is no map named {name!r}", f"aucune carte ne s'appelle {name!r}", "name")
    except (ValueError, OSError):
        return _error(409, "damaged", f"the file of the map {name!r} is damaged",
                      f"le fichier de la carte {name!r} est abîmé", "name")
    text = json.dumps(raw, ensure_ascii=False, indent=1) + "\n"
    response = Response(text, mimetype="application/json")
    if request.args.get("download"):
        response.headers["Content-Disposition"] = f'attachment; filename="vallee-{name}.json"'
    return response


@bp.post("/maps/check")
def check_map():
    try:
        raw = _map_of(_body())
        return jsonify({"ok": True, "map": raw, **check(raw)})
    except BadRequest as exc:
        return _bad(exc)


@bp.post("/maps/save")
def save_map():
    try:
        raw = _map_of(_body())
        result = check(raw)
        path = _shelf().path(raw["name"])  # the name must make a file name before anything is written
        _shelf().save(raw)
    except BadRequest as exc:
        return _bad(exc)
    except OSError as exc:
        return _error(503, "save_failed", f"the map could not be written ({exc.strerror})",
                      f"la carte n'a pas pu être écrite ({exc.strerror})")
    return jsonify({"ok": True, "saved": path.stem, "valid": result["valid"], "problems": result["problems"],
                    "maps": _map_list()})


from .web_game import page_context  # noqa: E402  (the live game's routes join the blueprint)

__all__ = ["bp", "EXTENSION", "MapShelf", "blank_map", "check", "problem_cells"]

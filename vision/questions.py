"""When the camera is unsure of a cell that matters, the referee is asked, never guessed for.

The reader marks a cell *unsure* when its reading sits too close to a decision's line
(a faint trap, a piece half a tile's colour; :mod:`vision.reader`). The tracker then
treats the cell as unreadable (its tokens left out, as for a speck of glare), so a move
that does not touch it still goes through. A move that would change it is not
committed: when the settled board shows it, :class:`CellQuestions` asks one short
question about the cell, what the reader thinks it sees and the alternatives the game
allows there ("Is that Bob's trap on 2,0?": yes / it's Ann's / nothing there), with the
camera's crop of the cell for the page.

The referee's answer is checked against the game (a stale or impossible answer is
refused), then taught: while the cell keeps the same unsure reading and the game keeps
the same tokens there, the taught contents replace the reader's, so the same question
is not asked again for the same look. The board seen with the answer is matched as any
other, so the move it implies is proposed to the table's session, which validates and
journals it.

>>> guess = Contents(hunters=("A",), trap="B")
>>> guess.to_json()
{'mammoth': False, 'hunters': ['A'], 'trap': 'B'}
>>> Contents.from_json(guess.to_json()) == guess, Contents().empty
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.hexgrid import CELL_NAMES

from .observation import Observation

#: Most answers offered on the page: the reader's guess and a few the game allows there.
MAX_OPTIONS = 4
#: Side of the cell's crop sent to the page, in pixels.
CROP_SIZE = 160
#: The crop spans this many tile circumradii around the cell's centre (its neighbours' edges show).
CROP_REACH = 1.6


@dataclass(frozen=True)
class Contents:
    """What one cell shows: the mammoth, hunters (by owner), a trap (its owner)."""

    mammoth: bool = False
    hunters: tuple = ()
    trap: str | None = None

    @property
    def empty(self) -> bool:
        return not (self.mammoth or self.hunters or self.trap)

    def to_json(self) -> dict:
        return {"mammoth": self.mammoth, "hunters": list(self.hunters), "trap": self.trap}

    @classmethod
    def from_json(cls, data: dict) -> "Contents":
        return cls(bool(data["mammoth"]), tuple(sorted(data["hunters"])), data["trap"])


def contents_of_view(view, cell: int) -> Contents:
    """The tokens a :class:`vision.tracker.BoardView` has on ``cell`` (owners as the view names them)."""
    trap = next((owner for c, owner in view.traps if c == cell), None)
    return Contents(view.mammoth == cell, tuple(sorted(p for p, c in view.hunters if c == cell)), trap)


def contents_of_observation(observation: Observation, cell: int) -> Contents:
    """The tokens an observation reads on ``cell`` (colour labels).

    >>> obs = Observation(0.0, True, False, None, None, 18, {"c0": 5, "c1": 5}, {5: "c1"}, (1.0,) * 37)
    >>> contents_of_observation(obs, 5)
    Contents(mammoth=False, hunters=('c0', 'c1'), trap='c1')
    """
    return Contents(observation.mammoth == cell,
                    tuple(sorted(label for label, c in observation.hunters.items() if c == cell)),
                    observation.traps.get(cell))


def with_contents(observation: Observation, cell: int, contents: Contents) -> Observation:
    """``observation`` with ``cell`` read as ``contents`` (colour labels), sure and readable.

    >>> obs = Observation(0.0, True, False, None, None, 18, {"c0": 5}, {}, (1.0,) * 37, unsure_cells=(5,))
    >>> fixed = with_contents(obs, 5, Contents(trap="c1"))
    >>> fixed.hunters, fixed.traps, fixed.unsure_cells
    ({}, {5: 'c1'}, ())
    """
    hunters = {label: c for label, c in observation.hunters.items() if c != cell}
    hunters.update({label: cell for label in contents.hunters})
    traps = {c: label for c, label in observation.traps.items() if c != cell}
    if contents.trap is not None:
        traps[cell] = contents.trap
    mammoth = cell if contents.mammoth else (None if observation.mammoth == cell else observation.mammoth)
    return replace(observation, mammoth=mammoth, hunters=hunters, traps=traps,
                   occluded_cells=tuple(c for c in observation.occluded_cells if c != cell),
                   unsure_cells=tuple(c for c in observation.unsure_cells if c != cell))


def masked(observation: Observation, cells) -> Observation:
    """``observation`` with ``cells`` unreadable: their tokens left out, counted as hidden.

    >>> obs = Observation(0.0, True, False, None, None, 18, {"c0": 5}, {5: "c0"}, (1.0,) * 37, unsure_cells=(5,))
    >>> hidden = masked(obs, {5})
    >>> hidden.hunters, hidden.traps, hidden.occluded_cells, hidden.unsure_cells
    ({}, {}, (5,), ())
    """
    cells = set(cells)
    if not cells:
        return observation
    return replace(observation,
                   mammoth=None if observation.mammoth in cells else observation.mammoth,
                   hunters={label: c for label, c in observation.hunters.items() if c not in cells},
                   traps={c: label for c, label in observation.traps.items() if c not in cells},
                   occluded_cells=tuple(sorted(set(observation.occluded_cells) | cells)),
                   unsure_cells=tuple(c for c in observation.unsure_cells if c not in cells))


@dataclass
class Question:
    """One question about one cell: the reader's guess first, then the alternatives.

    Owners are player ids (the page words them with the players' names and colours).
    ``version`` is the table's version when it was asked: any change to the game makes
    the question stale. ``crop`` is a small JPEG of the cell, once the camera adds it.
    """

    id: int
    cell: int
    seen: Contents
    options: tuple
    version: int
    time: float
    raw: Contents                 # the reader's contents, colour labels (what is taught against)
    observation: Observation      # the settled board the question is about (unmasked)
    crop: bytes | None = field(default=None, repr=False)
    #: When the question is which of several legal resolutions the cells' changes show:
    #: the whole board each option stands for (labels), matched as it is once answered.
    boards: tuple | None = field(default=None, repr=False)
    #: Per option of such a question, the resolutions it still leaves open when it stands
    #: for several (its board is then the game's, which commits nothing): asked next.
    narrowed: tuple | None = field(default=None, repr=False)
    #: Per option of such a question, the one resolution it stands for (``None``: the
    #: game's board, or several): an answer confirms this cell of it, and its other cells
    #: must be seen by the reader in ``reading`` (the settled board asked about) or
    #: answered too (``confirmed``: the cells answered so far) before it is committed.
    chosen: tuple | None = field(default=None, repr=False)
    reading: Observation | None = field(default=None, repr=False)
    confirmed: frozenset = field(default=frozenset(), repr=False)

    def to_json(self) -> dict:
        """The page's form: the cell as ``"q,r"``, owners as player ids."""
        return {"id": self.id, "cell": CELL_NAMES[self.cell], "seen": self.seen.to_json(),
                "options": [o.to_json() for o in self.options], "time": round(self.time, 3),
                "crop": self.crop is not None}


@dataclass(frozen=True)
class Taught:
    """A referee's answer kept for a cell: ``contents`` (labels) while the reader still
    reads ``raw`` there unsurely and the game still has ``game`` on it."""

    raw: Contents
    contents: Contents
    game: Contents


class QuestionRefused(ValueError):
    """An answer the tracker cannot take: stale (``code`` ``stale_question``) or not one
    the game allows (``answer_refused``)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class CellQuestions:
    """The tracker's questions and taught cells (see the module docstring).

    The tracker calls :meth:`prepare` on every observation before its stability filter,
    :meth:`consider` after acting on a settled board, and :meth:`answer` for the referee.
    """

    def __init__(self):
        self.current: Question | None = None
        self.taught: dict[int, Taught] = {}
        self.asked = 0
        self._unsure: tuple = ()
        self._raw: Observation | None = None

    # -- every frame ----------------------------------------------------------------------
    def prepare(self, observation: Observation, tracker) -> Observation:
        """The observation the stability filter sees: taught cells read as taught, other
        unsure cells unreadable (only while hunters are placed or the game is played)."""
        self._raw, self._unsure = observation, ()
        unsure = tuple(getattr(observation, "unsure_cells", ()))
        if not unsure or not observation.board_found or tracker.phase not in ("placing", "playing"):
            return observation
        game = tracker.game_view()
        for cell in unsure:
            taught = self.taught.get(cell)
            if taught is None:
                continue
            if (taught.raw == contents_of_observation(observation, cell)
                    and taught.game == contents_of_view(game, cell)):
                observation = with_contents(observation, cell, taught.contents)
            else:
                del self.taught[cell]  # another look there, or the game moved on: ask afresh
        self._unsure = tuple(c for c in unsure if c in observation.unsure_cells)
        return masked(observation, self._unsure)

    def forget_sure_cells(self, observation: Observation) -> None:
        """A cell read surely again needs no teaching any more."""
        for cell in list(self.taught):
            if cell not in observation.unsure_cells and cell not in observation.occluded_cells:
                del self.taught[cell]

    # -- settled boards -------------------------------------------------------------------
    def consider(self, tracker, committed: bool) -> Question | None:
        """After the tracker acted on a settled board: ask about the first unsure cell that
        matters for the move under way, or drop a question the board no longer raises."""
        raw, unsure = self._raw, self._unsure
        if self.current is not None and self.current.boards is not None and not committed:
            return self.current   # which resolution the cells' changes show: until answered
        self.current = None
        if committed or not unsure or raw is None or not tracker.in_step:
            return None
        for cell in unsure:
            options = tracker.readings_that_matter(raw, unsure, cell)
            if options:
                self.asked += 1
                seen = tracker.contents_for_page(contents_of_observation(raw, cell))
                ordered = (seen,) + tuple(o for o in options if o != seen)
                self.current = Question(self.asked, cell, seen, ordered[:MAX_OPTIONS], tracker.table.snapshot().version,
                                        raw.timestamp, contents_of_observation(raw, cell), raw)
                return self.current
        return None

    # -- the referee ----------------------------------------------------------------------
    def answer(self, tracker, question_id: int, option: int) -> tuple[Observation, bool]:
        """Check an answer; returns the settled board read with it (labels), and whether
        a legal turn explains that board (else the answer only confirms the game's cell)."""
        question = self.current
        if question is None or question.id != question_id:
            raise QuestionRefused("stale_question", "this question is no longer asked: the board changed")
        if tracker.table.snapshot().version != question.version:
            self.current = None
            raise QuestionRefused("stale_question", "the game changed since this question was asked")
        if not isinstance(option, int) or isinstance(option, bool) or not 0 <= option < len(question.options):
            raise QuestionRefused("answer_refused", f"answer: give 0..{len(question.options) - 1}")
        if question.boards is not None:
            board = question.boards[option]
        else:
            contents = tracker.contents_for_reader(question.options[option])
            board = with_contents(question.observation, question.cell, contents)
            board = masked(board, [c for c in board.unsure_cells])
        # An answer that the cell holds what the game has there is taken whatever the
        # rest of the board shows (the referee says true: nothing was done there; a
        # hunter elsewhere read only by his own trap under him): the cell is taught and
        # the board waited on (sim.tabletop development game 5,510,020 refused so). One
        # that names a turn the board did not show there, the next player's turn shown
        # after it, is taken too (:meth:`GameTracker.answered_chain`).
        explained = tracker.board_explained(board)
        if (not explained and tracker.answered_chain(board, question.cell) is None
                and question.options[option] != contents_of_view(tracker.game_view(), question.cell)):
            raise QuestionRefused("answer_refused", "with that answer the board shows a change no legal "
                                  "action explains: look again at the cell")
        self.current = None
        return board, explained

    def teach(self, tracker, question: Question, contents: Contents) -> None:
        """Keep the answer for the cell while its look and the game's tokens there stay
        (an answer about which resolution the changes showed teaches no look)."""
        if question.boards is not None:
            return
        self.taught[question.cell] = Taught(question.raw, contents,
                                            contents_of_view(tracker.game_view(), question.cell))


#: The question and its answers in the players' words, as the referee page says them
#: (``companion_web/static/camera_question.js``), for ``maamut track --ask``.
WORDS = {
    "en": {"mammoth": "the mammoth", "hunter": "{name}'s hunter", "trap": "{name}'s trap", "and": " and ",
           "ask": "Is that {what} on {cell}?", "ask_empty": "Is {cell} empty?", "yes": "Yes",
           "other": "It's {what}", "other_empty": "Nothing there",
           "prompt": "answer (1-{n}, Enter to leave it unanswered): ", "refused": "not taken: {why}"},
    "fr": {"mammoth": "le mammouth", "hunter": "le chasseur de {name}", "trap": "le piège de {name}", "and": " et ",
           "ask": "Est-ce {what} sur {cell} ?", "ask_empty": "La case {cell} est-elle vide ?", "yes": "Oui",
           "other": "C'est {what}", "other_empty": "Il n'y a rien",
           "prompt": "réponse (1-{n}, Entrée pour ne pas répondre) : ", "refused": "refusé : {why}"},
}


def worded(question: dict, lang: str = "en") -> tuple[str, list[str]]:
    """The question (its JSON form, owners as player names) and its answers, worded.

    >>> q = {"cell": "2,0", "seen": {"mammoth": False, "hunters": [], "trap": "Bob"},
    ...      "options": [{"mammoth": False, "hunters": [], "trap": "Bob"},
    ...                  {"mammoth": False, "hunters": ["Ann"], "trap": "Ann"},
    ...                  {"mammoth": False, "hunters": [], "trap": None}]}
    >>> worded(q)
    ("Is that Bob's trap on 2,0?", ['Yes', "It's Ann's hunter and Ann's trap", 'Nothing there'])
    >>> worded(q, "fr")[0]
    'Est-ce le piège de Bob sur 2,0 ?'
    """
    words = WORDS.get(lang, WORDS["en"])

    def what(contents):
        parts = [words["mammoth"]] if contents["mammoth"] else []
        parts += [words["hunter"].format(name=name) for name in contents["hunters"]]
        if contents["trap"]:
            parts.append(words["trap"].format(name=contents["trap"]))
        return words["and"].join(parts)

    seen = what(question["seen"])
    text = words["ask"].format(what=seen, cell=question["cell"]) if seen else words["ask_empty"].format(
        cell=question["cell"])
    answers = [words["yes"] if i == 0 else (words["other"].format(what=what(o)) if what(o) else words["other_empty"])
               for i, o in enumerate(question["options"])]
    return text, answers


def cell_crop_jpeg(frame, homography, cell: int, size: int = CROP_SIZE) -> bytes | None:
    """A ``size``-pixel square JPEG of ``cell`` as the camera sees it (``None`` if it cannot
    be cut out: the cell off the frame, an encoding failure).

    >>> import numpy as np
    >>> frame = np.zeros((480, 640, 3), np.uint8)
    >>> crop = cell_crop_jpeg(frame, np.array([[20.0, 0, 320], [0, 20.0, 240], [0, 0, 1]]), 18)
    >>> crop[:2] == b"\\xff\\xd8"
    True
    """
    import cv2
    import numpy as np

    from .geometry import CELL_CENTRES, project

    centre = CELL_CENTRES[cell]
    corners = project(homography, np.array([centre + (-CROP_REACH, -CROP_REACH), centre + (CROP_REACH, -CROP_REACH),
                                            centre + (CROP_REACH, CROP_REACH), centre + (-CROP_REACH, CROP_REACH)]))
    target = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    inside = (corners[:, 0] > -size) & (corners[:, 1] > -size)
    if not inside.all():
        return None
    crop = cv2.warpPerspective(frame, warp, (size, size), flags=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return jpeg.tobytes() if ok else None


__all__ = ["WORDS", "worded", "Contents", "Question", "QuestionRefused", "CellQuestions", "Taught", "cell_crop_jpeg",
           "contents_of_observation", "contents_of_view", "with_contents", "masked"]

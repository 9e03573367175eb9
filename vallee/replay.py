"""Reading a game journal back (``maamut vallee replay``): the setup, the entries kept
after each undo, and the game replayed from them with its story."""

from __future__ import annotations

from rulekit.jsonrequest import RequestError, decode, read_json

from .core import ValleeError
from .game import RECORD_FORMAT


class RecordProblem(Exception):
    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field, self.message = field, message


def read_record(lines) -> tuple[dict, list]:
    """``(setup, entries)`` of a journal's lines, undos applied."""
    setup, entries = None, []
    numbered = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    for i, (number, line) in enumerate(numbered):
        try:
            record = read_json(line)
        except RequestError as exc:
            if i == len(numbered) - 1 and i > 0:
                break  # a last line torn by a power cut was never acknowledged (rulekit.journal)
            raise RecordProblem(f"line {number}", f"line {number} is not JSON ({exc.message})") from None
        if not isinstance(record, dict):
            raise RecordProblem(f"line {number}", f"line {number} is not a JSON object")
        if setup is None:
            if record.get("record") != RECORD_FORMAT or not isinstance(record.get("setup"), dict):
                raise RecordProblem("line 1", f"line 1 is not a {RECORD_FORMAT} header")
            setup = record["setup"]
        elif record.get("undo") is True:
            if not entries:
                raise RecordProblem(f"line {number}", f"line {number}: nothing to undo")
            entries.pop()
        elif isinstance(record.get("entry"), dict):
            entries.append((number, record["entry"]))
        else:
            raise RecordProblem(f"line {number}", f"line {number} is neither an entry nor an undo")
    if setup is None:
        raise RecordProblem("file", "the journal is empty")
    return setup, entries


def replay_file(path: str, lang: str = "en"):
    """The game of a journal file and its story (:func:`vallee.explain.story`)."""
    from .explain import story
    from .game import Game

    try:
        with open(path, "rb") as stream:
            text = decode(stream.read())
    except OSError as exc:
        raise RecordProblem("file", f"cannot read {path}: {exc.strerror}") from None
    except RequestError as exc:
        raise RecordProblem("file", exc.message) from None
    setup, entries = read_record(text.split("\n"))
    try:
        game = Game.new(setup)
    except ValleeError as exc:
        raise RecordProblem("line 1", f"line 1: {exc.message}") from None
    phases = story(game.setup_events, lang)
    for number, entry in entries:
        try:
            story(game.apply(entry), lang, phases)
        except ValleeError as exc:
            raise RecordProblem(f"line {number}", f"line {number}: {exc.message}") from None
    return game, phases

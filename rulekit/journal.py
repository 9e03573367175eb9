"""The one durable journal of every game's table: JSON lines that survive power cuts.

A table (Mâamut's :class:`session.TableSession`, the Mammut page's ``MammutSession``, the games
to come) keeps the game it referees here. Its order for every change is *validate →
journal → apply*: it works the change out on a copy of its game, hands the new record
lines to :meth:`Journal.append` (or :meth:`Journal.begin` for a new game), and only
once that returned — the lines written, ``fsync``-ed, and the folder ``fsync``-ed when
the file was created — does it show the change. When the write fails
(:class:`JournalError`: a full or failing disk, text that cannot be stored as UTF-8)
nothing was written and nothing may be shown: the file is as it was.

On start, :meth:`Journal.load` replays the file with the game's own *replay
function* and keeps every acknowledged change:

* a last line torn by a power cut (not JSON) was never acknowledged, so it is cut off;
* a last line complete but for its newline was acknowledged: it is kept, and the
  newline is added before anything else is written after it;
* damage before the end (a garbage line, invalid UTF-8, a line the game cannot replay)
  keeps the valid beginning of the game, copies the untouched file aside as
  ``…-damaged-<time>.jsonl``, logs what was set aside and returns it
  (:meth:`Loaded.notice`, in English and French, for the page or the console). A
  damaged journal never stops a table from starting.

A game plugs in by passing its replay function,
``replay(lines) -> (game, problem, kept)``: the game of the longest valid beginning of
``lines`` (JSON texts, one record each), why it stopped (``None`` when every line
replayed) and how many lines it used; it raises ``ValueError`` (``RecordError``) when
not even the first line starts a game. Here a toy game whose records add numbers:

>>> import json, os, tempfile
>>> def replay(lines):
...     total = 0
...     for kept, line in enumerate(lines):
...         record = json.loads(line)
...         if not isinstance(record.get("add"), int):
...             return total, f"line {kept + 1}: no number to add", kept
...         total += record["add"]
...     return total, None, len(lines)
>>> journal = Journal(os.path.join(tempfile.mkdtemp(), "game.jsonl"))
>>> journal.begin(['{"add": 1}'])      # a new game: nothing was set aside
>>> journal.append('{"add": 2}', '{"add": 3}')
>>> with open(journal.path, "a") as fh: _ = fh.write('{"add": 4')   # the power went off
>>> loaded = Journal(journal.path).load(replay)
>>> loaded.game, loaded.problem, loaded.notice() is None
(6, None, True)

Mâamut passes ``engine.game.Game.replay_prefix``, Mammut
``ostby_mammut.game.replay_prefix``.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: A game's replay function: ``replay(lines) -> (game, problem, kept)`` (module docstring).
Replay = Callable[[list], "tuple[Any, str | None, int]"]


class JournalError(Exception):
    """A change that could not be written: nothing of it is in the journal, so the
    table must not apply it. ``unwritable`` is true when the change itself cannot be
    stored (text that is not valid Unicode, such as a lone surrogate ``\\ud800``): a
    bad request, not a failing disk."""

    def __init__(self, message: str, message_fr: str, unwritable: bool = False):
        super().__init__(message)
        self.message, self.message_fr, self.unwritable = message, message_fr, unwritable


@dataclass
class Loaded:
    """What :meth:`Journal.load` found: the game (or ``None``) and what it set aside."""

    game: Any
    #: Why some lines were dropped (``None`` when the journal was whole or just torn).
    problem: str | None = None
    #: How many non-empty lines after the valid beginning were dropped.
    dropped_lines: int = 0
    #: Where the untouched damaged file was copied, if it was.
    damaged_copy: str | None = None

    def notice(self) -> dict | None:
        """What to tell the people at the table, ``{"en", "fr"}``; ``None`` when the
        journal was whole (a torn last line was never acknowledged: nothing to say)."""
        if self.problem is None:
            return None
        kept = "the valid beginning of the game was resumed" if self.game is not None else "no game could be resumed"
        kept_fr = "le début valide de la partie a été repris" if self.game is not None else "aucune partie n'a pu être reprise"
        copy = self.damaged_copy or "?"
        return {
            "en": f"The game journal was damaged ({self.problem}): {kept}, {self.dropped_lines} line(s) "
                  f"were set aside; the untouched file is kept as {copy}.",
            "fr": f"Le journal de la partie était abîmé ({self.problem}) : {kept_fr}, {self.dropped_lines} "
                  f"ligne(s) mise(s) de côté ; le fichier intact est conservé sous {copy}.",
        }


class Journal:
    """The journal file at ``path`` (its folder is created); see the module docstring."""

    def __init__(self, path: str):
        self.path = path
        self.folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(self.folder, exist_ok=True)
        self._fd: int | None = None
        # The valid beginning found by load(), and whether the damaged file must be
        # copied aside first, while that repair could not be written yet (a full disk
        # at start): it is done before any other write.
        self._repair: tuple[list[str], bool] | None = None
        self._copied: str | None = None  # where the damaged file was copied

    # -- writing -------------------------------------------------------------------
    def append(self, *lines: str) -> None:
        """Add record lines durably, all or none: returns once they are on disk; on
        :class:`JournalError` the file is as it was before the call."""
        data = _encode(lines)
        if not data:
            return
        try:
            if self._repair is not None:
                self._repair_now()
            fd = self._open()
            size = os.fstat(fd).st_size
        except OSError as exc:
            self.close()
            raise _disk_error(exc) from exc
        try:
            _write_all(fd, data)
            os.fsync(fd)
        except OSError as exc:
            self._cut_back(fd, size)
            raise _disk_error(exc) from exc

    def begin(self, lines: Sequence[str]) -> str | None:
        """Start a new game's journal with ``lines``; the previous game (if the file
        holds one) is kept aside as ``…-<time>.jsonl``, whose path is returned.

        The new file is written and synced first, then swapped in with one rename: at
        every moment the journal holds either the old game or the whole new one. On
        :class:`JournalError` the old journal is untouched.
        """
        data = _encode(lines)
        fresh = self.path + ".new"
        kept = None
        try:
            _write_file(fresh, data)
            self.close()
            kept = self._keep_previous()
            os.replace(fresh, self.path)
            fsync_folder(self.folder)
        except OSError as exc:
            _remove_quietly(fresh)
            if kept is not None:
                _remove_quietly(kept)  # the old game is still the journal
            raise _disk_error(exc) from exc
        self._repair = None  # the old file, damaged or not, is kept whole
        return kept

    def _open(self) -> int:
        if self._fd is None:
            existed = os.path.exists(self.path)
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                if not existed:
                    fsync_folder(self.folder)
                elif not _ends_with_newline(fd):
                    # A power cut between a line and its newline: the line was replayed,
                    # so it stays; the next line must not be glued onto it.
                    _write_all(fd, b"\n")
                    os.fsync(fd)
            except OSError:
                os.close(fd)
                raise
            self._fd = fd
        return self._fd

    def _cut_back(self, fd: int, size: int) -> None:
        # A write that failed half-way must not leave half a line that a later line
        # would be glued onto; the table was told nothing was written.
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        except OSError:
            log.exception("journal %s: could not remove a failed write", self.path)
        self.close()

    def _keep_previous(self) -> str | None:
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            return None
        target = self._target("")
        try:
            os.link(self.path, target)
        except OSError:  # a file system without hard links: copy
            shutil.copyfile(self.path, target)
            _fsync_file(target)
        return target

    # -- reading -------------------------------------------------------------------
    def lines(self) -> list[str]:
        """The file's lines as text (bytes that are not UTF-8 replaced), for reading."""
        if not os.path.exists(self.path):
            return []
        with open(self.path, encoding="utf-8", errors="replace") as fh:
            return fh.read().splitlines()

    def load(self, replay: Replay) -> Loaded:
        """The game in the journal, replayed with ``replay`` (see the module docstring);
        new lines go after its valid beginning."""
        self.close()
        if not os.path.exists(self.path):
            return Loaded(None)
        try:
            with open(self.path, "rb") as fh:
                raw = fh.read()
        except OSError as exc:  # a bad block, a permission: the table starts empty
            loaded = Loaded(None, f"the file cannot be read ({exc.strerror or exc}); nothing could be resumed")
            loaded.damaged_copy = self._set_aside_damaged()
            return self._report(loaded)
        numbered = [(number, line) for number, line in enumerate(raw.split(b"\n"), start=1) if line.strip()]
        if not numbered:
            return Loaded(None)
        texts, problem = _readable_prefix(numbered)
        torn = problem is None and len(texts) < len(numbered)
        try:
            if not texts:
                raise ValueError(f"line {numbered[0][0]} is not JSON")
            game, replay_problem, kept = replay(texts)
        except Exception as exc:  # a damaged journal must never stop the table from starting
            if not isinstance(exc, ValueError):
                log.exception("journal %s: the replay failed", self.path)
            loaded = Loaded(None, f"{exc}; nothing could be resumed", len(numbered))
            loaded.damaged_copy = self._set_aside_damaged()
            return self._report(loaded)
        problem = replay_problem or problem
        if problem is not None:
            loaded = Loaded(game, problem, len(numbered) - kept)
            self._repair = (texts[:kept], True)
        elif torn:  # never acknowledged: cut it off so the next line starts clean
            loaded = Loaded(game)
            self._repair = (texts, False)
        else:
            return Loaded(game)
        self._copied = None
        try:
            self._repair_now()
        except OSError as exc:
            log.error("journal %s: could not repair it yet (%s); it is retried before the next write",
                      self.path, exc)
        loaded.damaged_copy = self._copied
        return self._report(loaded) if problem is not None else loaded

    def _repair_now(self) -> None:
        """Keep the damaged file aside (if it is damaged), then rewrite the valid beginning."""
        lines, damaged = self._repair
        if damaged:
            self._copied = self._copy_aside()
            self._repair = (lines, False)
        self._rewrite(lines)
        self._repair = None

    def _report(self, loaded: Loaded) -> Loaded:
        log.error("journal %s: %s; %d line(s) set aside, the untouched file is kept as %s",
                  self.path, loaded.problem, loaded.dropped_lines, loaded.damaged_copy)
        return loaded

    # -- files ---------------------------------------------------------------------
    def _rewrite(self, lines: list[str]) -> None:
        tmp = self.path + ".tmp"
        _write_file(tmp, _encode(lines))
        os.replace(tmp, self.path)
        fsync_folder(self.folder)

    def _target(self, kind: str) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        base = os.path.splitext(self.path)[0]
        target = f"{base}-{kind}{stamp}.jsonl"
        number = 1
        while os.path.exists(target):  # several games may end within one second
            number += 1
            target = f"{base}-{kind}{stamp}-{number}.jsonl"
        return target

    def _copy_aside(self) -> str:
        target = self._target("damaged-")
        shutil.copyfile(self.path, target)
        _fsync_file(target)
        fsync_folder(self.folder)
        return target

    def _set_aside_damaged(self) -> str | None:
        target = self._target("damaged-")
        try:
            os.replace(self.path, target)
        except OSError:
            log.exception("journal %s: could not set it aside", self.path)
            return None
        fsync_folder(self.folder)
        return target

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _readable_prefix(numbered: list) -> tuple[list[str], str | None]:
    """The lines up to the first that is not UTF-8 JSON, and the problem with that one
    (``None`` when it is the last line: a torn write, never acknowledged)."""
    texts = []
    for index, (number, line) in enumerate(numbered):
        try:
            text = line.decode("utf-8").strip()
            json.loads(text)
        except UnicodeDecodeError:
            reason = f"line {number} is not valid UTF-8"
        except ValueError:
            reason = f"line {number} is not JSON"
        else:
            texts.append(text)
            continue
        return texts, (None if index == len(numbered) - 1 else reason)
    return texts, None


def _encode(lines) -> bytes:
    """The lines as one block of UTF-8, each ending with its newline (nothing written yet)."""
    out = []
    for line in lines:
        text = line.rstrip("\n")
        if "\n" in text:
            raise ValueError("a journal record is one line")
        try:
            out.append(text.encode("utf-8") + b"\n")
        except UnicodeEncodeError:
            raise JournalError("the change holds text that is not valid Unicode (a lone surrogate?) and cannot be "
                               "stored: nothing was changed",
                               "le changement contient du texte qui n'est pas de l'Unicode valide (un "
                               "demi-caractère ?) et ne peut pas être enregistré : rien n'a changé",
                               unwritable=True) from None
    return b"".join(out)


def _disk_error(exc: OSError) -> JournalError:
    reason = exc.strerror or str(exc)
    return JournalError(f"the game journal could not be written ({reason}): nothing was changed",
                        f"le journal de la partie n'a pas pu être écrit ({reason}) : rien n'a changé")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write_file(path: str, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _ends_with_newline(fd: int) -> bool:
    size = os.fstat(fd).st_size
    return size == 0 or os.pread(fd, 1, size - 1) == b"\n"


def _remove_quietly(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _fsync_file(path: str) -> None:
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


def fsync_folder(folder) -> None:
    """Make a file created, renamed or removed in ``folder`` survive a power cut (where the
    platform has directory handles; elsewhere the rename is all there is)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


__all__ = ["Journal", "JournalError", "Loaded", "Replay", "fsync_folder"]

"""The game journal: an append-only JSON-lines file that survives power cuts.

Every record line is written, flushed and ``fsync``-ed before the change it describes
is shown anywhere (LEDs, page). On start, :meth:`Journal.load` replays it to the exact
game:

* a line torn by a power cut (the last one, not JSON) was never acknowledged, so it is
  cut off;
* a last line complete but for its newline was acknowledged: it is kept, and the
  newline is added before anything else is written after it;
* damage before the end (a bad disk block, a hand-edited file) keeps the valid
  beginning of the game, copies the whole file aside as ``…-damaged-….jsonl`` and says
  which lines were dropped.

>>> import tempfile, os
>>> from engine.game import Game
>>> folder = tempfile.mkdtemp()
>>> journal = Journal(os.path.join(folder, "current.jsonl"))
>>> game = Game.new(["A", "B"], seed=1, on_record=journal.append)
>>> game.place_hunter("A", game.start_cells()[0])
>>> Journal(journal.path).load().game.position == game.position
True
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from engine.game import Game, RecordError


@dataclass
class Loaded:
    """What :meth:`Journal.load` found: the game (or ``None``) and what it had to drop."""

    game: Game | None
    #: Why some lines were dropped (``None`` when the journal was whole).
    problem: str | None = None
    dropped_lines: int = 0
    #: Where the untouched damaged file was copied, if it was.
    damaged_copy: str | None = None


class Journal:
    def __init__(self, path: str):
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        self._fd: int | None = None

    def _open(self) -> int:
        if self._fd is None:
            existed = os.path.exists(self.path)
            self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            if not existed:
                _fsync_dir(os.path.dirname(os.path.abspath(self.path)))
            elif not _ends_with_newline(self._fd):
                # A power cut between a line and its newline: the line was replayed, so
                # it stays; the next line must not be glued onto it.
                os.write(self._fd, b"\n")
        return self._fd

    def append(self, line: str) -> None:
        """Write one record line durably (returns only once it is on disk)."""
        data = (line.rstrip("\n") + "\n").encode("utf-8")
        fd = self._open()
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)

    def lines(self) -> list[str]:
        if not os.path.exists(self.path):
            return []
        with open(self.path, encoding="utf-8", errors="replace") as fh:
            return fh.read().splitlines()

    def load(self) -> Loaded:
        """The game in the journal (see the module docstring), new lines going here."""
        lines = self.lines()
        if not any(line.strip() for line in lines):
            return Loaded(None)
        try:
            game, problem, kept = Game.replay_prefix(lines)
        except RecordError as exc:
            copy = self.set_aside(damaged=True)
            return Loaded(None, f"{exc}; nothing could be resumed", len(lines), copy)
        written = [ln for ln in lines if ln.strip()]
        loaded = Loaded(game)
        if problem is not None:
            loaded.problem = problem
            loaded.dropped_lines = len(written) - kept
            loaded.damaged_copy = self._copy_aside()
            self._rewrite(game.record_lines())
        elif kept < len(written):  # a torn last line: never acknowledged, cut it off
            self._rewrite(game.record_lines())
        game.on_record = None
        return loaded

    def _rewrite(self, lines: list[str]) -> None:
        self.close()
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)
        _fsync_dir(os.path.dirname(os.path.abspath(self.path)))

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
        with open(self.path, "rb") as src, open(target, "wb") as dst:
            dst.write(src.read())
            dst.flush()
            os.fsync(dst.fileno())
        _fsync_dir(os.path.dirname(os.path.abspath(self.path)))
        return target

    def set_aside(self, damaged: bool = False) -> str | None:
        """Move the finished or abandoned game aside so a new one can start; a damaged
        journal is named so (``…-damaged-<time>.jsonl``), never deleted."""
        self.close()
        if not os.path.exists(self.path):
            return None
        target = self._target("damaged-" if damaged else "")
        os.replace(self.path, target)
        _fsync_dir(os.path.dirname(os.path.abspath(self.path)))
        return target

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _ends_with_newline(fd: int) -> bool:
    size = os.fstat(fd).st_size
    return size == 0 or os.pread(fd, 1, size - 1) == b"\n"


def _fsync_dir(folder: str) -> None:
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


__all__ = ["Journal", "Loaded", "RecordError"]

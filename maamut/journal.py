"""The game journal: an append-only JSON-lines file that survives power cuts.

Every record line is written, flushed and ``fsync``-ed before the change it describes
is shown anywhere (LEDs, page). On start, the journal replays to the exact game; a
line torn by a power cut is ignored, since nothing was shown for it.

>>> import tempfile, os
>>> from engine.game import Game
>>> folder = tempfile.mkdtemp()
>>> journal = Journal(os.path.join(folder, "current.jsonl"))
>>> game = Game.new(["A", "B"], seed=1, on_record=journal.append)
>>> game.place_hunter("A", game.start_cells()[0])
>>> Journal(journal.path).resume().position == game.position
True
"""

from __future__ import annotations

import os
import time

from engine.game import Game, RecordError


class Journal:
    def __init__(self, path: str):
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        self._fd: int | None = None

    def _open(self) -> int:
        if self._fd is None:
            existed = os.path.exists(self.path)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            if not existed:
                _fsync_dir(os.path.dirname(os.path.abspath(self.path)))
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

    def resume(self) -> Game | None:
        """The game in the journal, replayed, with new lines going back to this journal.

        ``None`` when there is no game to resume. A torn last line is cut off the file
        so that the next append starts on a clean line.
        """
        lines = self.lines()
        if not lines:
            return None
        game = Game.replay(lines, on_record=self.append)
        if len(game.record_lines()) < len([ln for ln in lines if ln.strip()]):
            self._rewrite(game.record_lines())
        return game

    def _rewrite(self, lines: list[str]) -> None:
        self.close()
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)
        _fsync_dir(os.path.dirname(os.path.abspath(self.path)))

    def archive(self) -> str | None:
        """Move the finished or abandoned game aside so a new one can start."""
        self.close()
        if not os.path.exists(self.path):
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        base = os.path.splitext(self.path)[0]
        target = f"{base}-{stamp}.jsonl"
        number = 1
        while os.path.exists(target):  # several games may end within one second
            number += 1
            target = f"{base}-{stamp}-{number}.jsonl"
        os.replace(self.path, target)
        _fsync_dir(os.path.dirname(os.path.abspath(self.path)))
        return target

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


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


__all__ = ["Journal", "RecordError"]

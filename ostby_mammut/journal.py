"""The Mammut page's journal: an append-only JSON-lines file that survives power cuts.

Each line is written with ``os.write`` and ``os.fsync`` before the change it records is
shown. Lines: ``{"type": "setup", "setup": {...}}`` starts a game, ``{"type": "action",
"action": {...}}`` plays one, ``{"type": "undo"}`` takes the last one back. On start the
file is replayed; a torn last line (a power cut mid-write) is ignored and cut off.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "mammut.jsonl")
>>> j = Journal(path)
>>> j.append({"type": "setup", "setup": {"players": ["A", "B", "C"], "mode": "page"}})
>>> j.append({"type": "action", "action": {"type": "take", "player": "A", "tiles": {"meat": 1}}})
>>> with open(path, "a") as fh: _ = fh.write('{"type": "und')
>>> game = Journal(path).replay()
>>> game.sharing.to_move, len(game.actions)
('B', 1)
"""

from __future__ import annotations

import json
import os
import time

from .game import Game


class Journal:
    def __init__(self, path: str):
        self.path = path
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._fd: int | None = None

    def append(self, record: dict) -> None:
        data = (json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
        if self._fd is None:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]
        os.fsync(self._fd)

    def records(self) -> list[dict]:
        """The journal's records; a torn last line is dropped (and cut off the file)."""
        if not os.path.exists(self.path):
            return []
        with open(self.path, "rb") as fh:
            raw = fh.read()
        lines = raw.split(b"\n")
        last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
        records, good_end = [], 0
        for i, line in enumerate(lines):
            if not line.strip():
                good_end += len(line) + 1
                continue
            try:
                records.append(json.loads(line.decode("utf-8")))
            except (UnicodeDecodeError, json.JSONDecodeError):
                if i == last:
                    self._truncate(good_end)
                    break
                raise ValueError(f"{self.path}: line {i + 1} is damaged") from None
            good_end += len(line) + 1
        return records

    def _truncate(self, size: int) -> None:
        self.close()
        with open(self.path, "r+b") as fh:
            fh.truncate(size)
            fh.flush()
            os.fsync(fh.fileno())

    def replay(self) -> Game | None:
        game = None
        for record in self.records():
            kind = record.get("type")
            if kind == "setup":
                game = Game(record["setup"])
            elif game is None:
                continue
            elif kind == "action":
                game.play(record["action"])
            elif kind == "undo":
                game = game.undone()
        return game

    def start_over(self) -> None:
        """Move the previous game aside: a new game starts a new file."""
        self.close()
        if os.path.exists(self.path) and os.path.getsize(self.path):
            stamp = time.strftime("%Y%m%d-%H%M%S")
            base = os.path.splitext(self.path)[0]
            target, n = f"{base}-{stamp}.jsonl", 1
            while os.path.exists(target):
                n += 1
                target = f"{base}-{stamp}-{n}.jsonl"
            os.replace(self.path, target)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

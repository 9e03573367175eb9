"""Follows a game on camera into a journaled table, then waits while the board disagrees.

Run from the repository root as ``python -m tests.vision.camera_crash_driver
JOURNAL``: the camera sees the setup, A's move and B's move (``COMMITTED`` after each
turn is on disk), the referee undoes B's move on the page, and the camera keeps seeing
the undone board (``DISAGREES``). The test then kills it with SIGKILL, as a power cut
would.
"""

import sys
import time

from session import Journal, TableSession
from tests.vision.boards import board, layout
from vision.tracker import GameTracker

PLAYERS = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bob"}]


def main() -> int:
    table = TableSession(Journal(sys.argv[1]), players=PLAYERS)
    tracker = GameTracker(tiles=layout(), table=table)
    tracker.observe(board({"c0": "-3,0"}))
    tracker.observe(board({"c0": "-3,0", "c1": "3,0"}))
    tracker.observe(board({"c0": "-1,0", "c1": "3,0"}))
    print("COMMITTED A", flush=True)
    tracker.observe(board({"c0": "-1,0", "c1": "2,0"}))
    print("COMMITTED B", flush=True)
    table.undo(source="page")
    tracker.observe(board({"c0": "-1,0", "c1": "2,0"}))
    assert not tracker.in_step
    print("DISAGREES", flush=True)
    time.sleep(60)
    return 0


if __name__ == "__main__":
    sys.exit(main())

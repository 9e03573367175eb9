"""Power cuts and kill -9 never lose a committed turn: the next start resumes exactly."""

import os
import random
import signal
import subprocess
import sys
import time

from engine.game import Game

from .crash_driver import script

#: The driver runs as a module from the repository root, where ``tests`` is a package.
DRIVER = [sys.executable, "-m", "tests.maamut.crash_driver"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TURNS, KILLS = 80, 15


def play_with_kills(journal, seed: int, rng: random.Random, kills_left: int) -> int:
    """Run the driver until its game is finished, killing it ``kills_left`` times at most."""
    last_committed = 0
    kills = 0
    while True:
        proc = subprocess.Popen([*DRIVER, str(journal), str(seed), str(TURNS)], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        kill_after = rng.randint(0, 3) if kills < kills_left else None
        commits = 0
        finished = False
        for line in proc.stdout:
            word, *rest = line.split()
            if word == "RESUMED":
                assert int(rest[0]) >= last_committed, "a turn reported as committed was lost"
            elif word == "COMMITTED":
                last_committed = int(rest[0])
                commits += 1
            elif word == "FINISHED":
                finished = True
            if kill_after is not None and commits >= kill_after and not finished:
                time.sleep(rng.uniform(0, 0.01))  # land anywhere in the next turn's write
                proc.send_signal(signal.SIGKILL)
                kills += 1
                break
        proc.wait(timeout=60)
        assert proc.returncode in (0, -signal.SIGKILL), proc.stderr.read()
        if finished:
            return kills


def test_killing_the_process_at_random_points_loses_nothing_committed(tmp_path):
    rng = random.Random(2026)
    kills = 0
    seed = 9
    while kills < KILLS:
        journal = tmp_path / f"game-{seed}.jsonl"
        kills += play_with_kills(journal, seed, rng, KILLS - kills)
        truth, _, moves = script(seed, TURNS)
        with open(journal, encoding="utf-8") as fh:
            replayed = Game.replay(fh)
        assert replayed.turns_played() == len(moves)
        assert replayed.position == truth.position
        seed += 1
    assert kills == KILLS

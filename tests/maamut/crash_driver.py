"""Plays a scripted game through the table's real session and journal, saying what it committed.

Run from the repository root as ``python -m tests.maamut.crash_driver JOURNAL SEED TURNS``:
it resumes whatever the journal holds, plays the rest of the seeded script, and prints
``COMMITTED n`` once turn n has returned, i.e. once the page could have shown it. The crash-safety test kills it with
SIGKILL at random moments and checks that nothing it printed is ever lost.
"""

import random
import sys

from engine import action_from_json, action_to_json, choices_from_json, choices_to_json
from engine.game import Game
from session import Journal, TableSession
from sim.bots import Bot

PLAYERS = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}, {"id": "C", "name": "Cy"}]


def script(seed: int, turns: int):
    """The seeded game: its tiles, placements and turns, decided by bots beforehand."""
    truth = Game.new([p["id"] for p in PLAYERS], seed=seed, deal=False)
    bot = Bot(random.Random(seed))
    placements = []
    for p in PLAYERS:
        cell = bot.choose_start(truth)
        truth.place_hunter(p["id"], cell)
        placements.append((p["id"], cell))
    moves = []
    while not truth.is_over and len(moves) < turns:
        action, choices = bot.choose_turn(truth)
        truth.play(action, choices)
        moves.append((action_to_json(action), choices_to_json(choices)))
    return truth, placements, moves


def main() -> int:
    journal_path, seed, turns = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    truth, placements, moves = script(seed, turns)
    table = TableSession.resume(Journal(journal_path))
    if table.game is None:
        table.new_game(PLAYERS, seed=seed, tiles=truth.tiles)
    for player, cell in placements:
        if player not in table.game.position.hunters:
            table.place_hunter(player, cell)
    done = table.game.turns_played()
    print(f"RESUMED {done}", flush=True)
    for n, (action, choices) in enumerate(moves[done:], start=done + 1):
        table.play(action_from_json(action), choices_from_json(choices))
        print(f"COMMITTED {n}", flush=True)
    print("FINISHED", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

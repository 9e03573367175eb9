"""``python -m sim.tabletop --out DIR --tables N --seed S [--games M] [--off-board P]``: write sample folders."""
from __future__ import annotations

import argparse
import sys

from ..tables import write_game, write_table
from .samples import generate_game, generate_table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.tabletop", description=(
        "Write photographed cardboard Mâamut tables (and whole games) in the vision samples' folder format."))
    parser.add_argument("--out", required=True, help="folder to write tabletop-SEED/ and tabletop-game-SEED/ into")
    parser.add_argument("--tables", type=int, default=1, help="how many tables (seeds S, S+1, ...)")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--games", type=int, default=0, help="how many whole games (seeds S, S+1, ...)")
    parser.add_argument("--reads", type=int, default=4, help="read frames per table (default 4)")
    parser.add_argument("--turns", type=int, default=8, help="turns per game (default 8)")
    parser.add_argument("--off-board", type=float, default=0.0, metavar="P",
                        help="chance that a read frame leaves one player off the board, his traps kept "
                             "(the shared samples: 0.3; default 0)")
    args = parser.parse_args(argv)
    for name in ("tables", "games", "reads", "turns"):
        if getattr(args, name) < 0:
            print(f"python -m sim.tabletop: --{name} must not be negative", file=sys.stderr)
            return 2
    if not 0.0 <= args.off_board <= 1.0:
        print("python -m sim.tabletop: --off-board must lie between 0 and 1", file=sys.stderr)
        return 2
    for k in range(args.tables):
        print(write_table(generate_table(args.seed + k, reads=args.reads, off_board=args.off_board), args.out))
    for k in range(args.games):
        print(write_game(generate_game(args.seed + k, turns=args.turns), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

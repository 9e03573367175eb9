"""Legal Mâamut boards for the pictures, all produced by the engine itself.

The setup follows the rules (RULINGS "Setup" 4: hunters in seat order on free outer
cells that are not rock); read positions come from random legal play; whole games keep
the turns a still camera can see (a move that starts no flight, setting or lifting a
trap), so each turn is one visible change of the board.

>>> import random
>>> setup = table_setup(random.Random(4), 3)
>>> [len(b["hunters"]) for b in setup.boards]
[0, 1, 2, 3]
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import engine
from engine.core import Move, Pass, PlaceTrap, Position, RemoveTrap
from engine.game import Game
from engine.hexgrid import CELL_NAMES
from engine.playout import choose_turn

#: Event types of a turn that only moved a hunter or set or lifted a trap.
_QUIET_EVENTS = {"hunter_moved", "trap_placed", "trap_removed"}


def board_of(pos: Position) -> dict:
    """The truth's form of a position: mammoth, living hunters, traps (``"q,r"`` cells)."""
    return {"mammoth": CELL_NAMES[pos.mammoth],
            "hunters": {p: CELL_NAMES[c] for p, c in pos.hunters.items()},
            "traps": {CELL_NAMES[c]: owner for c, owner in sorted(pos.traps.items())}}


@dataclass
class Setup:
    game: Game               # the game after every hunter is placed
    boards: list[dict]       # the empty board, then one more hunter each

    @property
    def tiles(self) -> dict[str, str]:
        return {CELL_NAMES[i]: t.value for i, t in enumerate(self.game.tiles)}


def table_setup(rng: random.Random, players: int) -> Setup:
    """A dealt game and the setup boards: mammoth on the cross, hunters put down in seat order."""
    names = "ABCD"[:players]
    game = Game.new(names, seed=rng.randrange(2**31))
    boards = [board_of(game.position)]
    for name in names:
        game.place_hunter(name, rng.choice(game.start_cells()))
        boards.append(board_of(game.position))
    return Setup(game, boards)


def _interest(board: dict) -> int:
    """How much a board shows of what sets make hard: hunters on traps, shared cells."""
    cells = list(board["hunters"].values())
    shared = len(cells) - len(set(cells))
    on_traps = sum(1 for c in cells if c in board["traps"])
    return 1 + 3 * shared + 2 * on_traps + min(len(board["traps"]), 4)


def read_boards(setup: Setup, rng: random.Random, count: int, turns: int = 60) -> list[dict]:
    """``count`` boards of one random legal game (never a finished one), favouring rich ones."""
    game = Game(setup.game.players, setup.game.seed, tiles=setup.game.tiles)
    for name, cell in setup.game.position.hunters.items():
        game.place_hunter(name, cell)
    seen: list[dict] = []
    while not game.is_over and game.turns_played() < turns:
        action, choices = choose_turn(game, rng, trap_bias=0.35)
        game.play(action, choices)
        if not game.is_over:
            seen.append(board_of(game.position))
    if not seen:
        return [board_of(game.position)] * count
    weights = [_interest(b) for b in seen]
    picks = sorted(rng.choices(range(len(seen)), weights=weights, k=count))
    return [seen[i] for i in picks]


def visible_turn(game: Game, rng: random.Random, trap_bias: float = 0.3):
    """A random legal turn whose whole effect is one hunter or one trap appearing or moving."""
    actions = [a for a in game.legal_actions() if not isinstance(a, Pass)]
    rng.shuffle(actions)
    if rng.random() < trap_bias:
        actions.sort(key=lambda a: not isinstance(a, (PlaceTrap, RemoveTrap)))
    for action in actions:
        outcome = engine.apply_action(game.position, action, (), game.variants)
        if outcome.needs is None and all(e["type"] in _QUIET_EVENTS for e in outcome.events):
            return action
    return None


def expected_entry(action) -> dict:
    """An action as ``maamut track --json`` lists it: moves with their choices and events."""
    out = engine.action_to_json(action)
    if isinstance(action, Move):
        out.update({"choices": [], "events": []})
    return out


def game_turns(setup: Setup, rng: random.Random, turns: int) -> tuple[list[dict], list[dict]]:
    """Up to ``turns`` visible turns: the boards after each, and the expected actions."""
    game = setup.game
    boards, expected = [], []
    for _ in range(turns):
        action = visible_turn(game, rng)
        if action is None:
            break
        game.play(action)
        boards.append(board_of(game.position))
        expected.append(expected_entry(action))
    return boards, expected

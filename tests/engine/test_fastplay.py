"""The playout kernel and the reference engine agree on whole random games."""

import random

import pytest

from engine.fastplay import play_random_game
from engine.playout import random_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_and_reference_engine_play_identical_games(players):
    for seed in range(40):
        reference = random_game(random.Random(seed), players=players, max_turns=400)
        fast = play_random_game(random.Random(seed), players=players, max_turns=400)
        pos = reference.position
        assert fast.turns == reference.turns_played(), seed
        assert fast.winner == reference.winner, seed
        assert fast.mammoth == pos.mammoth, seed
        assert fast.hunters == pos.hunters, seed
        assert fast.traps == pos.traps, seed
        assert set(fast.eliminated) == set(pos.eliminated), seed
        assert fast.hands == pos.hands, seed

"""``maamut demo`` (seed 11) once stalled with no question asked: B's move was seen beside
a cell whose look had changed under the lamp since A's trap went down, nothing legal
explained the whole board, and the tracker only reported it ("the table did not follow
B:NE2"). The referee could have told: a turn its own cells show clearly is now asked."""

import pytest

from maamut.app import Companion
from maamut.config import Config
from sim.demo import Demo


@pytest.mark.slow
def test_the_seed_11_demo_game_is_followed_to_its_end_with_the_referees_answers(tmp_path):
    cfg = Config(base_dir=str(tmp_path))
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    companion = Companion(cfg)
    try:
        stats = Demo(companion, seed=11, turn_s=0.2, attract_s=0, vision=True, fps=None, max_games=1,
                     max_turns=40).run()
    finally:
        companion.close()
    assert stats.errors == 0, stats.messages
    assert stats.games == 1 and stats.answers >= 1

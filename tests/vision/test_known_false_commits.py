"""False commits found on whole development games (docs/vision.md, *Session 30*).

Zero false commits is the rule (issue 24): a stall that a tap resolves is acceptable,
a wrong action is not. Each test states the behaviour the tracker owes on one game.
(The last two were strict xfails in session 30 and were fixed in session 31.)
"""
from pathlib import Path

import pytest

import sim.tabletop
from sim.flatart import generate_game, write_game
from sim.samples_bench import track_game

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def game_3600008(tmp_path_factory):
    """``sim.flatart`` development game 3,600,008: A steps west onto -2,3, B sets a trap
    under himself on -3,3, then A joins him there and hides the trap; later they swap."""
    folder = tmp_path_factory.mktemp("game")
    return Path(write_game(generate_game(3_600_008), str(folder)))


def test_a_trap_read_for_a_whole_board_is_not_skipped_once_two_hunters_hide_it(game_3600008):
    """Nobody answering: boards 3 and 4 are read exactly but asked about, not committed;
    board 5 (both hunters on the trap) must not then be taken for "A west 2", which
    leaves out the trap read for eight frames."""
    assert track_game(game_3600008).false_commits == 0


def test_two_hunters_swapping_cells_are_not_committed_as_one_moving_back(game_3600008):
    """A referee answering every question truly: board 6 (B moves east 2, off the cell A
    joined) must not be committed as "A east 1" followed by B's move."""
    assert track_game(game_3600008, referee=True).false_commits == 0


def test_a_trap_taken_up_under_its_hunter_is_not_committed_as_a_move(tmp_path):
    """``sim.tabletop`` development game 5,600,011, nobody answering: A's fifth-turn
    action takes his trap back up from under him; it must not be committed as A moving
    south-west."""
    folder = Path(sim.tabletop.write_game(sim.tabletop.generate_game(5_600_011), str(tmp_path)))
    assert track_game(folder).false_commits == 0


def test_a_neighbour_read_under_another_players_name_is_not_committed_as_his_move(tmp_path):
    """``sim.tabletop`` game 5,800,020, nobody answering: B takes up his trap under him
    (asked about, unanswered), then C, a yellow glass bead learnt alike to B, steps onto
    the snow beside him. The cells' changes fit "B north-west 1", but the reader reads B
    still where he was and C where the step ends: it must not be committed."""
    folder = Path(sim.tabletop.write_game(sim.tabletop.generate_game(5_800_020), str(tmp_path)))
    assert track_game(folder).false_commits == 0


def test_a_trap_taken_up_is_not_committed_as_a_step_onto_a_hunter_still_read_alone(tmp_path):
    """``sim.tabletop`` game 5,900,017, nobody answering: B takes up his trap under him
    while C's cell two steps away changes too. The changes fit "B north-east 2" onto C,
    but the reader surely reads B still on his cell and C alone on his: no commit."""
    folder = Path(sim.tabletop.write_game(sim.tabletop.generate_game(5_900_017), str(tmp_path)))
    assert track_game(folder).false_commits == 0


def test_a_step_off_a_trap_the_reader_sees_left_behind_is_not_committed_as_the_turn(tmp_path):
    """``sim.flatart`` game 3,900,010, nobody answering: A and B each put a trap down
    under themselves, unseen, then A steps off his. The step must not be committed as
    A's turn before the traps: the reader reads A's trap on the cell the step leaves."""
    folder = Path(write_game(generate_game(3_900_010), str(tmp_path)))
    assert track_game(folder).false_commits == 0

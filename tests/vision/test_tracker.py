"""The tracker turns stable boards into engine actions, and reports what it cannot explain."""

import pytest

import engine
from engine.hexgrid import NUM_CELLS, parse_cell
from vision.observation import Observation
from vision.stability import StabilityFilter
from vision.tracker import GameTracker, TrackerError

from .boards import WALLED, board, layout

@pytest.fixture
def tracker():
    """Two players, red (A) on 3 cells west of the mammoth, blue (B) 3 cells east."""
    tracker = GameTracker(["A", "B"], tiles=layout())
    tracker.observe(board({"red": "-3,0"}))
    tracker.observe(board({"red": "-3,0", "blue": "3,0"}))
    assert tracker.phase == "playing"
    return tracker


def last_action(tracker):
    return tracker.actions[-1]["action"]


# -- setup -------------------------------------------------------------------------
def test_tiles_are_read_at_setup_checked_against_the_box_and_locked():
    tracker = GameTracker(["A", "B"])
    wrong = list(layout())
    wrong[parse_cell("3,0")] = "rock"  # 8 rocks, 17 grass
    tracker.observe(board(tiles=tuple(wrong)))
    assert tracker.phase == "layout"
    assert tracker.reports[-1]["type"] == "invalid_layout"
    assert "7 rock tiles are needed, found 8" in tracker.reports[-1]["message"]
    tracker.observe(board(tiles=layout()))
    assert tracker.phase == "placing" and tracker.tiles == tuple(engine.Tile(t) for t in layout())
    # Once locked, a different tile reading changes nothing.
    tracker.observe(board({"red": "-3,0"}, tiles=tuple(wrong)))
    assert tracker.tiles == tuple(engine.Tile(t) for t in layout())


def test_setup_waits_for_an_empty_board_with_the_mammoth_on_the_cross():
    tracker = GameTracker(["A", "B"])
    tracker.observe(board({"red": "-3,0"}, tiles=layout()))
    tracker.observe(board(mammoth="1,0", tiles=layout()))
    assert tracker.phase == "layout"
    assert [r["type"] for r in tracker.reports] == ["setup_not_empty", "setup_not_empty"]
    assert tracker.reports[-1]["cells"] == ["1,0"]


def test_hunters_are_placed_in_seating_order_whatever_their_colour_label():
    tracker = GameTracker(["Zoe", "Yann", "Xia"], tiles=layout())
    tracker.observe(board({"green": "-3,0"}))
    tracker.observe(board({"green": "-3,0", "purple": "3,0"}))
    tracker.observe(board({"green": "-3,0", "purple": "3,0", "red": "0,3"}))
    assert [(p["hunter"], p["cell"], p["label"]) for p in tracker.placements] == [
        ("Zoe", "-3,0", "green"), ("Yann", "3,0", "purple"), ("Xia", "0,3", "red")]
    assert tracker.position.hunters == {"Zoe": parse_cell("-3,0"), "Yann": parse_cell("3,0"),
                                        "Xia": parse_cell("0,3")}
    assert tracker.position.to_move == "Zoe" and tracker.position.hands is None


def test_a_placement_off_the_outer_ring_or_two_at_once_is_reported_and_waited_out():
    tracker = GameTracker(["A", "B"], tiles=layout())
    tracker.observe(board({"red": "1,0"}))
    assert tracker.reports[-1]["type"] == "illegal_placement" and tracker.reports[-1]["cells"] == ["1,0"]
    tracker.observe(board({"red": "-3,0", "blue": "3,0"}))
    assert tracker.reports[-1]["type"] == "unrecognised_change"
    assert tracker.placements == []
    tracker.observe(board({"red": "-3,0"}))
    assert tracker.placements == [{"hunter": "A", "cell": "-3,0", "label": "red"}]


# -- play ---------------------------------------------------------------------------
def test_a_move_is_recognised_with_its_card_value_from_the_distance(tracker):
    tracker.observe(board({"red": "-1,0", "blue": "3,0"}))
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "E", "distance": 2}
    assert tracker.position.to_move == "B" and tracker.reports == []


def test_traps_placed_and_removed_are_recognised_with_a_hunter_standing_on_them(tracker):
    tracker.observe(board({"red": "-2,0", "blue": "3,0"}))
    tracker.observe(board({"red": "-2,0", "blue": "2,0"}))
    tracker.observe(board({"red": "-2,0", "blue": "2,0"}, traps={"-2,0": "red"}))
    assert last_action(tracker) == {"type": "place_trap", "hunter": "A"}
    tracker.observe(board({"red": "-2,0", "blue": "2,0"}, traps={"-2,0": "red", "2,0": "blue"}))
    assert tracker.position.traps == {parse_cell("-2,0"): "A", parse_cell("2,0"): "B"}
    tracker.observe(board({"red": "-2,0", "blue": "2,0"}, traps={"2,0": "blue"}))
    assert last_action(tracker) == {"type": "remove_trap", "hunter": "A"}


def test_after_a_flight_the_tracker_waits_for_the_mammoth_and_the_frightened_hunter(tracker):
    # A walks 3 east onto the mammoth; it flees 3 east onto B, who must flee to 2,1 or 3,-1.
    tracker.observe(board({"red": "0,0", "blue": "3,0"}))
    assert tracker.actions == [] and tracker.reports == []
    assert tracker.waiting_for()["mammoth"] == ["3,0"]
    assert tracker.waiting_for()["hunters"]["B"] == ["3,-1", "2,1"]
    tracker.observe(board({"red": "0,0", "blue": "3,0"}, mammoth="3,0"))
    assert tracker.actions == [] and tracker.reports == []
    tracker.observe(board({"red": "0,0", "blue": "3,-1"}, mammoth="3,0"))
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "E", "distance": 3}
    assert tracker.actions[-1]["choices"] == [{"hunter": "B", "to": "3,-1"}]
    assert [e["type"] for e in tracker.actions[-1]["events"]] == ["hunter_moved", "mammoth_fled", "hunter_fled"]
    assert tracker.waiting_for() is None


def test_a_frightened_hunter_put_on_a_cell_it_may_not_flee_to_is_reported_until_moved(tracker):
    tracker.observe(board({"red": "0,0", "blue": "3,0"}))
    tracker.observe(board({"red": "0,0", "blue": "2,0"}, mammoth="3,0"))  # 2,0 is where the mammoth came from
    assert tracker.actions == []
    report = tracker.reports[-1]
    assert report["type"] == "unrecognised_change" and "2,0" in report["cells"]
    tracker.observe(board({"red": "0,0", "blue": "2,1"}, mammoth="3,0"))
    assert tracker.actions[-1]["choices"] == [{"hunter": "B", "to": "2,1"}]
    assert tracker.position.mammoth == parse_cell("3,0")


def test_a_move_into_rock_is_reported_with_the_rule_and_the_state_is_kept(tracker):
    before = tracker.position
    tracker.observe(board({"red": "-1,-2", "blue": "3,0"}))  # -3,0 NE 2 ends on rock
    report = tracker.reports[-1]
    assert report["type"] == "illegal_move" and report["hunter"] == "A"
    assert report["cells"] == ["-1,-2", "-3,0"] and "rock" in report["message"]
    assert tracker.position == before and tracker.actions == []
    tracker.observe(board({"red": "-3,0", "blue": "3,0"}))  # put right
    tracker.observe(board({"red": "-2,-1", "blue": "3,0"}))
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "NE", "distance": 1}
    assert len(tracker.reports) == 1


def test_a_move_out_of_turn_is_reported_and_matched_once_the_pass_is_confirmed(tracker):
    tracker.observe(board({"red": "-3,0", "blue": "2,0"}))
    assert tracker.reports[-1]["type"] == "out_of_turn" and tracker.actions == []
    tracker.confirm_pass()
    assert [a["action"] for a in tracker.actions] == [
        {"type": "pass", "hunter": "A"},
        {"type": "move", "hunter": "B", "direction": "W", "distance": 1}]
    assert tracker.position.to_move == "A"


def test_a_pass_is_refused_during_setup_and_in_the_middle_of_a_move(tracker):
    with pytest.raises(TrackerError, match="placing"):
        GameTracker(["A", "B"], tiles=layout()).confirm_pass()
    tracker.observe(board({"red": "0,0", "blue": "3,0"}))
    with pytest.raises(TrackerError, match="started a move"):
        tracker.confirm_pass()


def test_a_pass_is_refused_while_the_board_shows_a_change_nothing_explains(tracker):
    # A's hunter jumped two rows (a misread, or a move the camera never saw settle):
    # committing B's pass on top of it would record a pass for A that never happened.
    tracker.observe(board({"red": "-1,-2", "blue": "3,0"}))
    reports = list(tracker.reports)
    with pytest.raises(TrackerError, match="cannot explain"):
        tracker.confirm_pass()
    assert tracker.actions == [] and tracker.position.to_move == "A"
    assert tracker.reports == reports  # the unexplained board was already reported once
    tracker.observe(board({"red": "-3,0", "blue": "3,0"}))  # put right
    tracker.confirm_pass()
    assert [a["action"] for a in tracker.actions] == [{"type": "pass", "hunter": "A"}]


def test_the_mammoth_falling_into_a_trap_ends_the_game_for_the_trap_owner(tracker):
    tracker.observe(board({"red": "-2,0", "blue": "3,0"}))
    tracker.observe(board({"red": "-2,0", "blue": "2,0"}))
    tracker.confirm_pass()
    tracker.observe(board({"red": "-2,0", "blue": "2,0"}, traps={"2,0": "blue"}))
    tracker.observe(board({"red": "0,0", "blue": "2,0"}, traps={"2,0": "blue"}))  # A walks 2 onto the mammoth
    tracker.observe(board({"red": "0,0", "blue": "2,0"}, mammoth="2,0", traps={"2,0": "blue"}))
    assert tracker.winner == "B" and tracker.phase == "over"
    assert tracker.actions[-1]["events"][-1]["type"] == "game_over"


def test_undo_takes_back_the_last_action_and_waits_for_the_board_to_be_put_back(tracker):
    before = tracker.position
    tracker.observe(board({"red": "-1,0", "blue": "3,0"}))
    assert tracker.undo()["action"]["type"] == "move"
    assert tracker.position == before and tracker.actions == []
    assert tracker.undo() is None
    # The board still shows the move: it is not committed again, the hunter is marked.
    tracker.observe(board({"red": "-1,0", "blue": "3,0"}, t=1))
    assert tracker.actions == [] and tracker.reports[-1]["type"] == "board_differs"
    assert {m["cell"] for m in tracker.table.marks()} == {"-3,0", "-1,0"}
    tracker.observe(board({"red": "-3,0", "blue": "3,0"}, t=2))
    assert tracker.in_step and tracker.table.marks() == []
    tracker.observe(board({"red": "-2,0", "blue": "3,0"}, t=3))
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "E", "distance": 1}


def test_frames_under_a_hand_never_commit_even_a_legal_board():
    tracker = GameTracker(["A", "B"], tiles=layout(), stability=StabilityFilter(frames=3))
    for t in range(3):
        tracker.feed(board({"red": "-3,0"}, t=t))
    for t in range(3, 6):
        tracker.feed(board({"red": "-3,0", "blue": "3,0"}, t=t))
    moved = board({"red": "-1,0", "blue": "3,0"})
    for t in range(6, 30):
        hand = Observation(t, True, True, None, None, moved.mammoth, moved.hunters, {}, (0.95,) * NUM_CELLS)
        tracker.feed(hand)
    assert tracker.actions == []
    for t in range(30, 33):
        tracker.feed(board({"red": "-1,0", "blue": "3,0"}, t=t))
    assert last_action(tracker)["distance"] == 2


def test_to_json_uses_the_engine_forms(tracker):
    tracker.observe(board({"red": "-1,0", "blue": "3,0"}))
    out = tracker.to_json()
    assert out["tiles"]["0,0"] == "cross"
    assert engine.position_from_json(out["position"]) == tracker.position
    assert engine.action_from_json(out["actions"][0]["action"]) == engine.Move("A", "E", 2)
    assert out["reports"] == []


def test_a_malformed_observation_is_reported_and_the_game_kept(tracker):
    before = tracker.position
    broken = Observation(1.0, True, False, None, None, 99, {"red": -4}, {}, (0.9,) * NUM_CELLS)
    tracker.observe(broken)
    assert tracker.reports[-1]["type"] == "bad_observation" and "0..36" in tracker.reports[-1]["message"]
    assert tracker.position == before
    tracker.observe(board({"red": "-1,0", "blue": "3,0"}))
    assert last_action(tracker)["distance"] == 2


def test_a_hunter_hidden_under_another_on_the_same_cell_is_not_a_missing_hunter():
    """Hunters may share a cell; the camera then sees only the one on top."""
    tracker = GameTracker(["A", "B"], tiles=layout())
    tracker.observe(board({"red": "-3,0"}))
    tracker.observe(board({"red": "-3,0", "blue": "-3,3"}))
    tracker.observe(board({"red": "-3,3"}))  # A walks 3 south-east onto B and stands on top
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "SE", "distance": 3}
    assert tracker.position.hunters == {"A": parse_cell("-3,3"), "B": parse_cell("-3,3")}
    assert tracker.reports == []
    tracker.observe(board({"red": "-3,3", "blue": "-2,3"}))  # B steps east from under A
    assert last_action(tracker) == {"type": "move", "hunter": "B", "direction": "E", "distance": 1}


def test_a_hunter_lifted_off_the_board_is_not_taken_for_one_hidden_under_another():
    """The hunter put down last lies on top: if it is the one unseen, it is in a hand, not stacked."""
    tracker = GameTracker(["A", "B"], tiles=layout())
    tracker.observe(board({"red": "-3,0"}))
    tracker.observe(board({"red": "-3,0", "blue": "-3,3"}))
    tracker.observe(board({"blue": "-3,3"}))  # A's hunter is in the player's hand
    assert tracker.actions == [] and tracker.reports == []  # a move under way: waited for
    tracker.observe(board({"red": "-3,2", "blue": "-3,3"}))
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "SE", "distance": 2}


def walled_tracker():
    tracker = GameTracker(["A", "B"], tiles=layout(rocks=WALLED))
    tracker.observe(board({"red": "-3,0"}))
    tracker.observe(board({"red": "-3,0", "blue": "0,3"}))
    return tracker


def test_a_hunter_picked_up_to_think_is_not_taken_for_one_the_mammoth_eliminated():
    tracker = walled_tracker()
    tracker.observe(board({"blue": "0,3"}))  # A's hunter in the player's hand, hand away
    assert tracker.actions == [] and tracker.reports == []
    tracker.observe(board({"red": "-2,0", "blue": "0,3"}))
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "E", "distance": 1}


def test_a_mover_seen_reaching_the_mammoth_then_removed_was_eliminated():
    tracker = walled_tracker()
    tracker.observe(board({"red": "0,0", "blue": "0,3"}, mammoth=None))  # A stands on the mammoth
    assert tracker.actions == []
    tracker.observe(board({"blue": "0,3"}))  # the mammoth turned on him: his hunter leaves the board
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "E", "distance": 3}
    assert "hunter_eliminated" in [e["type"] for e in tracker.actions[-1]["events"]]
    assert tracker.position.eliminated == ("A",)


def unreadable(hunters, hidden, mammoth="0,0", traps=None):
    obs = board(hunters, mammoth, traps)
    return Observation(obs.timestamp, True, True, None, None, obs.mammoth, obs.hunters, obs.traps,
                       obs.cell_confidence, tuple(parse_cell(c) for c in hidden))


def test_an_unreadable_cell_away_from_the_move_does_not_stop_it(tracker):
    tracker.observe(unreadable({"red": "-1,0"}, hidden=["3,0"]))  # B's cell unreadable (glare)
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "E", "distance": 2}
    assert tracker.reports == []


def test_a_move_ending_on_an_unreadable_cell_waits_until_it_can_be_read(tracker):
    tracker.observe(unreadable({"blue": "3,0"}, hidden=["-1,0"]))
    assert tracker.actions == [] and tracker.reports == []
    tracker.observe(board({"red": "-1,0", "blue": "3,0"}))
    assert last_action(tracker)["distance"] == 2


def _held(tracker, frames, hunters, traps=None, start=0.0):
    """``frames`` camera frames of one still board, fed as the camera loop feeds them."""
    for k in range(frames):
        tracker.feed(board(hunters, traps=traps, t=start + k / 30))
    return start + frames / 30


def _two_on_a_ring_cell():
    """A (red) to move from -3,0; B (blue) three cells south-east of him, on -3,3."""
    tracker = GameTracker(["A", "B"], tiles=layout())
    tracker.observe(board({"red": "-3,0"}))
    tracker.observe(board({"red": "-3,0", "blue": "-3,3"}))
    return tracker


def test_a_move_that_hides_a_trap_read_for_a_whole_board_is_not_committed():
    """sim.flatart development game 3,600,008 (docs/vision.md, Session 30): a trap read
    under B for a whole stable board the game never took, then A joining B hides it.
    "A moves onto B's cell" explains the board now, but leaves out the trap the camera
    read: it is not committed (the board waits), so no turn is skipped."""
    tracker = _two_on_a_ring_cell()
    t = _held(tracker, 8, {"red": "-3,0", "blue": "-3,3"}, traps={"-3,3": "blue"})
    _held(tracker, 8, {"red": "-3,3", "blue": "-3,3"}, start=t)
    assert tracker.actions == []


def test_a_trap_read_for_fewer_frames_than_a_stable_board_does_not_hold_the_move_back():
    """The same move after a trap flickered into one reading for two frames: committed."""
    tracker = _two_on_a_ring_cell()
    t = _held(tracker, 2, {"red": "-3,0", "blue": "-3,3"}, traps={"-3,3": "blue"})
    _held(tracker, 8, {"red": "-3,3", "blue": "-3,3"}, start=t)
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "SE", "distance": 3}


def test_a_hunter_joining_another_on_his_trap_is_committed_though_the_two_cover_the_trap():
    """Two hunters stacked cover a trap whole: A stepping onto B's cell, where B's trap
    lies, is read as the two hunters alone, and that board is A's move (sim.flatart
    development game 3,600,008 with a referee: the move was left waiting, and B's next
    step off the stack looked, from the game's board, like A stepping back)."""
    tracker = GameTracker(["A", "B"], tiles=layout())
    tracker.observe(board({"red": "3,-2"}))
    tracker.observe(board({"red": "3,-2", "blue": "3,0"}))
    tracker.observe(board({"red": "3,-1", "blue": "3,0"}))                           # A south-east 1
    tracker.observe(board({"red": "3,-1", "blue": "3,0"}, traps={"3,0": "blue"}))    # B's trap
    tracker.observe(board({"red": "3,0", "blue": "3,0"}))
    assert len(tracker.actions) == 3
    assert last_action(tracker) == {"type": "move", "hunter": "A", "direction": "SE", "distance": 1}
    assert tracker.reports == []

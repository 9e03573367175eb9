"""When a cell the move depends on is read unsurely, the tracker waits and asks; the
referee's answer goes to the table like any correction and is taught for that cell."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexgrid import NUM_CELLS, parse_cell
from vision.observation import Observation
from vision.questions import Contents, QuestionRefused, masked, with_contents
from vision.stability import StabilityFilter
from vision.tracker import GameTracker

from .boards import board, layout

FRAMES = 3


@pytest.fixture
def tracker():
    """Two players, red (A) and blue (B), one step apart from the mammoth's row ends:
    A on -2,0 and B on 2,0 after a move each; A to move. Boards settle after 3 frames."""
    tracker = GameTracker(["A", "B"], tiles=layout(),
                          stability=StabilityFilter(frames=FRAMES, max_hidden_cells=2))
    tracker.observe(board({"red": "-3,0"}))
    tracker.observe(board({"red": "-3,0", "blue": "3,0"}))
    settle(tracker, board({"red": "-2,0", "blue": "3,0"}))
    settle(tracker, board({"red": "-2,0", "blue": "2,0"}))
    assert [a["action"]["type"] for a in tracker.actions] == ["move", "move"] and tracker.position.to_move == "A"
    return tracker


def settle(tracker, observation, frames=FRAMES, start=[0.0]):
    """Feed the same reading for ``frames`` camera frames (a settled board)."""
    for _ in range(frames):
        start[0] += 0.1
        tracker.feed(replace(observation, timestamp=start[0]))


def unsure(observation, *cells):
    return replace(observation, unsure_cells=tuple(parse_cell(c) for c in cells))


#: A puts a trap under his hunter on -2,0; the reader takes it, unsurely, for Blue's.
TRAP_READ_AS_BLUES = unsure(board({"red": "-2,0", "blue": "2,0"}, traps={"-2,0": "blue"}), "-2,0")
A_HUNTER_A_TRAP = Contents(hunters=("A",), trap="A")


def test_an_unsure_trap_cell_is_never_committed_but_asked_with_its_alternatives(tracker):
    turns = len(tracker.actions)
    settle(tracker, TRAP_READ_AS_BLUES, frames=FRAMES + 4)
    assert len(tracker.actions) == turns  # no guess, no commit
    question = tracker.question
    assert question is not None and question.to_json()["cell"] == "-2,0"
    assert question.seen == Contents(hunters=("A",), trap="B")  # what the reader thinks, first
    assert question.options[0] == question.seen
    assert A_HUNTER_A_TRAP in question.options  # the trap A may place there
    assert Contents(hunters=("A",)) in question.options  # no trap after all
    assert tracker.questions.asked == 1  # asked once while the board stays


def test_the_answer_commits_the_move_through_the_table_and_is_journaled(tracker):
    settle(tracker, TRAP_READ_AS_BLUES)
    question = tracker.question
    result = tracker.answer_question(question.id, question.options.index(A_HUNTER_A_TRAP))
    assert [e["action"] for e in result["committed"]] == [{"type": "place_trap", "hunter": "A"}]
    assert tracker.table.game.entries()[-1]["action"] == {"type": "place_trap", "hunter": "A"}
    assert tracker.position.traps == {parse_cell("-2,0"): "A"} and tracker.question is None


def test_the_taught_cell_is_not_asked_again_for_the_same_look(tracker):
    settle(tracker, TRAP_READ_AS_BLUES)
    tracker.answer_question(tracker.question.id, tracker.question.options.index(A_HUNTER_A_TRAP))
    asked, turns = tracker.questions.asked, len(tracker.actions)
    settle(tracker, TRAP_READ_AS_BLUES, frames=2 * FRAMES)
    assert tracker.questions.asked == asked and tracker.question is None
    assert len(tracker.actions) == turns and tracker.reports == []
    # B moves on, the taught cell still read the same unsure way: the game follows.
    settle(tracker, unsure(board({"red": "-2,0", "blue": "1,0"}, traps={"-2,0": "blue"}), "-2,0"))
    assert tracker.actions[-1]["action"] == {"type": "move", "hunter": "B", "direction": "W", "distance": 1}
    assert tracker.questions.asked == asked


def test_an_answer_no_legal_action_explains_is_refused_and_nothing_changes(tracker):
    settle(tracker, TRAP_READ_AS_BLUES)
    question = tracker.question
    with pytest.raises(QuestionRefused) as refused:
        tracker.answer_question(question.id, 0)  # Blue's trap under A's hunter: not B's turn
    assert refused.value.code == "answer_refused"
    assert len(tracker.actions) == 2 and tracker.question is question and tracker.questions.taught == {}
    with pytest.raises(QuestionRefused) as out_of_range:
        tracker.answer_question(question.id, len(question.options))
    assert out_of_range.value.code == "answer_refused"


def test_an_answer_that_the_cell_holds_what_the_game_has_is_taken_whatever_else_the_board_shows(tracker):
    """The reader reads B, unsurely, one cell off his own (a tall figure leaning), and
    only a trap of his on his cell (a hunter standing on his own trap is often read as
    the trap alone; the game has none there). The referee answers that the cell asked
    about is empty, as the game has it: true, so taken, though the rest of the board is
    still unexplained. Nothing is committed or reported; the board is waited on
    (sim.tabletop development game 5,510,020 refused such an answer)."""
    leaning = unsure(board({"red": "-2,0", "blue": "1,0"}, traps={"2,0": "blue"}), "1,0")
    settle(tracker, leaning)
    question, reports = tracker.question, len(tracker.reports)
    assert question is not None and question.to_json()["cell"] == "1,0"
    result = tracker.answer_question(question.id, question.options.index(Contents()))
    assert result == {"committed": [], "reports": []}
    assert len(tracker.actions) == 2 and tracker.question is None and len(tracker.reports) == reports


def test_a_stale_answer_is_refused(tracker):
    settle(tracker, TRAP_READ_AS_BLUES)
    question = tracker.question
    with pytest.raises(QuestionRefused) as wrong_id:
        tracker.answer_question(question.id + 1, 1)
    assert wrong_id.value.code == "stale_question"
    tracker.table.undo(source="page")  # the referee takes B's move back meanwhile
    with pytest.raises(QuestionRefused) as stale:
        tracker.answer_question(question.id, question.options.index(A_HUNTER_A_TRAP))
    assert stale.value.code == "stale_question" and len(tracker.actions) == 1


def test_the_question_goes_when_the_board_is_put_right(tracker):
    settle(tracker, TRAP_READ_AS_BLUES)
    assert tracker.question is not None
    settle(tracker, board({"red": "-2,0", "blue": "2,0"}))  # the trap lifted again, read surely
    assert tracker.question is None and len(tracker.actions) == 2


def test_an_unsure_cell_the_move_does_not_touch_does_not_stop_it(tracker):
    """B's cell reads unsurely (as what the game has there) while A walks: committed, nothing asked."""
    settle(tracker, unsure(board({"red": "-1,0", "blue": "2,0"}), "2,0"))
    assert tracker.actions[-1]["action"] == {"type": "move", "hunter": "A", "direction": "E", "distance": 1}
    assert tracker.question is None and tracker.questions.asked == 0


def test_a_move_ending_on_an_unsure_cell_is_asked_then_committed(tracker):
    settle(tracker, unsure(board({"red": "-1,0", "blue": "2,0"}), "-1,0"))
    question = tracker.question
    assert len(tracker.actions) == 2 and question.to_json()["cell"] == "-1,0"
    assert question.options[0] == Contents(hunters=("A",))
    tracker.answer_question(question.id, 0)
    assert tracker.actions[-1]["action"] == {"type": "move", "hunter": "A", "direction": "E", "distance": 1}


cells = st.integers(0, NUM_CELLS - 1)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["c0", "c1", "c2"]), cells),
       st.dictionaries(cells, st.sampled_from(["c0", "c1"])), st.one_of(st.none(), cells), cells,
       st.booleans(), st.sampled_from([None, "c0", "c1"]))
def test_a_cell_read_as_taught_changes_that_cell_only(hunters, traps, mammoth, cell, on_cell, trap):
    """Teaching a cell's contents leaves every other cell's reading as it was, and
    masking a cell hides its tokens and nothing else."""
    obs = Observation(0.0, True, False, None, None, mammoth, hunters, traps, (1.0,) * NUM_CELLS,
                      unsure_cells=(cell,))
    taught = with_contents(obs, cell, Contents(mammoth=on_cell, trap=trap))
    hidden = masked(obs, {cell})
    for view in (taught, hidden):
        assert {k: c for k, c in view.hunters.items() if c != cell} == {k: c for k, c in hunters.items() if c != cell}
        assert {c: k for c, k in view.traps.items() if c != cell} == {c: k for c, k in traps.items() if c != cell}
        assert view.unsure_cells == ()
    assert taught.traps.get(cell) == trap and (taught.mammoth == cell) == on_cell
    assert cell in hidden.occluded_cells and cell not in hidden.traps and hidden.mammoth != cell


def test_the_crop_shows_the_cell_asked_about_on_a_rendered_board():
    """Cut through the located board: the cell a hunter was put on changes in its crop
    between the empty board and the next setup frame, a cell away from it hardly."""
    import cv2
    import numpy as np

    from engine.hexgrid import RAYS
    from tests.vision.rendered_sets import RenderedSet
    from vision.questions import CROP_SIZE, cell_crop_jpeg
    from vision.reader import BoardReader

    rendered = RenderedSet(4242)
    reader = BoardReader(rendered.calibration)
    empty, placed = rendered.frames[0], rendered.frames[1]
    (cell,) = rendered.setup[1].hunters.values()
    far = next(c for c in range(NUM_CELLS) if c != cell and c != rendered.setup[1].mammoth
               and all(cell not in ray for ray in RAYS[c]) and not rendered.setup[1].hunters.get(c))

    def crop(frame, at):
        homography = reader.locate(frame)[0].homography
        image = cv2.imdecode(np.frombuffer(cell_crop_jpeg(frame, homography, at), np.uint8), cv2.IMREAD_COLOR)
        assert image.shape == (CROP_SIZE, CROP_SIZE, 3)
        middle = slice(CROP_SIZE // 2 - 20, CROP_SIZE // 2 + 20)
        return image[middle, middle].astype(float)

    changed = np.abs(crop(placed, cell) - crop(empty, cell)).mean()
    unchanged = np.abs(crop(placed, far) - crop(empty, far)).mean()
    assert changed > 3 * unchanged + 5, (changed, unchanged)


def test_an_answer_naming_a_turn_the_board_hid_commits_it_and_the_next_turn_shown():
    """A takes his trap up from under his hunter, which the board does not show, and B
    then steps back east, which it does: no single turn leaves that board, so the
    reader's unsure word on A's cell is asked about. The referee answers that A stands
    there without his trap: taken, and both turns are committed in order (sim.flatart
    development game 3,600,010: such an answer was refused, and the game stalled)."""
    tracker = GameTracker(["A", "B"], tiles=layout(), stability=StabilityFilter(frames=FRAMES, max_hidden_cells=2))
    tracker.observe(board({"red": "-3,0"}))
    tracker.observe(board({"red": "-3,0", "blue": "3,0"}))
    for hunters, traps in (({"red": "-2,0", "blue": "3,0"}, {}), ({"red": "-2,0", "blue": "2,0"}, {}),
                           ({"red": "-2,0", "blue": "2,0"}, {"-2,0": "red"}),
                           ({"red": "-2,0", "blue": "1,0"}, {"-2,0": "red"})):
        settle(tracker, board(hunters, traps=traps))
    assert len(tracker.actions) == 4 and tracker.position.to_move == "A"
    settle(tracker, unsure(board({"red": "-2,0", "blue": "2,0"}), "-2,0"), frames=FRAMES + 4)
    question = tracker.question
    assert question is not None and question.to_json()["cell"] == "-2,0"
    result = tracker.answer_question(question.id, question.options.index(Contents(hunters=("A",))))
    assert [entry["action"] for entry in result["committed"]] == [
        {"type": "remove_trap", "hunter": "A"}, {"type": "move", "hunter": "B", "direction": "E", "distance": 1}]
    assert tracker.question is None

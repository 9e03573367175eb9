"""The demo's players answer the camera's questions as a referee would on the page: from
the board in front of them, through the page's own desk, never with a guess."""

import random
import threading
from dataclasses import replace

from engine.hexgrid import CENTRE, parse_cell
from maamut.app import CameraQuestionDesk, Companion
from maamut.config import Config
from sim.camera import SimulatedBoard
from sim.players import SimulatedPlayers, TableReferee
from sim.tracker_bench import Snapshot

from tests.vision.boards import board, layout

FRAMES = 3


def settle(tracker, observation, start=[0.0]):
    for _ in range(FRAMES + 4):
        start[0] += 0.1
        tracker.feed(replace(observation, timestamp=start[0]))


def table_asking(tmp_path):
    """A companion whose camera (not started) asks about -2,0: A put a trap under his
    hunter there and the reader takes it, unsurely, for B's."""
    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}]
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    companion = Companion(cfg)
    companion.camera = companion.camera_loop("sim", threading.Event(), required=FRAMES)
    tracker = companion.camera.run_.tracker
    tracker.observe(board({}, tiles=layout()))
    tracker.observe(board({"red": "-3,0"}))
    tracker.observe(board({"red": "-3,0", "blue": "3,0"}))
    settle(tracker, board({"red": "-2,0", "blue": "3,0"}))
    settle(tracker, board({"red": "-2,0", "blue": "2,0"}))
    seen = board({"red": "-2,0", "blue": "2,0"}, traps={"-2,0": "blue"})
    settle(tracker, replace(seen, unsure_cells=(parse_cell("-2,0"),)))
    assert tracker.question is not None and len(tracker.actions) == 2
    companion.camera.show_question()   # to the page's live state, as the camera loop does
    return companion


def players_seeing(companion, truth: Snapshot) -> SimulatedPlayers:
    simulated = SimulatedBoard(layout(), seed=1)
    simulated.current = truth
    for _ in range(simulated.settle_frames):
        simulated.shown_resting()
    return SimulatedPlayers(companion.table, simulated, companion.handle_button, random.Random(1), turn_s=0,
                            ai_seats=(), referee=TableReferee(companion.hub, CameraQuestionDesk(companion)))


def test_the_players_answer_the_cameras_question_from_the_true_board(tmp_path):
    companion = table_asking(tmp_path)
    try:
        a, b = parse_cell("-2,0"), parse_cell("2,0")
        players = players_seeing(companion, Snapshot(CENTRE, (("c0", a), ("c1", b)), ((a, "c0"),)))
        assert players.step() == "answered the camera's question on -2,0"
        assert companion.table.game.entries()[-1]["action"] == {"type": "place_trap", "hunter": "A"}
        assert players.stats.answers == 1 and companion.hub.state.get("camera_question") is None
    finally:
        companion.close()


def test_a_question_no_answer_fits_is_left_alone(tmp_path):
    companion = table_asking(tmp_path)
    try:
        a = parse_cell("-2,0")
        # Both hunters stand on -2,0 on the real board: none of the offered answers says so.
        players = players_seeing(companion, Snapshot(CENTRE, (("c0", a), ("c1", a)), ()))
        assert players.step() == "no answer fits the camera's question on -2,0"
        assert len(companion.table.game.entries()) == 4 and players.stats.answers == 0
        assert companion.camera.run_.tracker.question is not None   # still asked, for the board to settle anew
    finally:
        companion.close()


def test_a_refused_pass_is_pressed_again_and_not_counted_as_played(tmp_path):
    """The camera refuses *done* while it has not yet seen the board agree (just put right
    after a page move); the players read that and press again, as people at the table do."""
    import engine
    from engine.hexgrid import cell_name
    from sim.players import board_of

    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}]
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    companion = Companion(cfg)
    try:
        table = companion.table
        table.new_game(seed=2)
        for player in table.game.players:
            table.place_hunter(player, cell_name(table.game.start_cells()[0]))
        answers = [False, True]
        pressed = []

        def press(button):
            pressed.append(button)
            return answers.pop(0) if button == "done" else True

        simulated = SimulatedBoard(layout(), seed=1)
        simulated.current = board_of(table.snapshot())
        for _ in range(simulated.settle_frames):
            simulated.shown_resting()
        players = SimulatedPlayers(table, simulated, press, random.Random(1), turn_s=0, ai_seats=())
        players._choose_turn = lambda game: (engine.Pass(game.position.to_move), ())
        assert players.step().startswith("pass refused")
        assert players.stats.turns == 0 and players._acted_version is None
        assert players.step().startswith("passed") and players.stats.turns == 1
        assert pressed == ["done", "done"] and players.stats.errors == 0
    finally:
        companion.close()

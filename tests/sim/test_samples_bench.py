"""The bench's frame times by piece model (sim/samples_bench.py): ``maamut bench vision``
reports the time of the frames read by their changes beside the kit's own."""
from pathlib import Path

from sim.samples_bench import frame_time_figures, read_tables

SAMPLES = Path(__file__).parents[1] / "vision" / "data" / "samples"


def test_every_read_frame_is_timed_under_its_tables_piece_model(tmp_path):
    """One shared flat-art table: its four frames are read, and each read's time is kept
    under the model its calibration chose, none elsewhere."""
    table = sorted(p for p in SAMPLES.iterdir() if p.name.startswith("flat"))[0]
    (tmp_path / table.name).symlink_to(table)
    timings: dict = {}
    frames, right, _ = read_tables(tmp_path, timings)
    assert frames == 4 and right == 4
    assert [len(v) for v in timings.values()] == [4]
    model, times = next(iter(timings.items()))
    assert model in ("changes", "kit", "figures") and all(t > 0 for t in times)
    figures = frame_time_figures(timings, model)
    assert figures[f"{model}_frames_timed"] == 4
    assert min(times) <= figures[f"{model}_ms_per_frame"] <= figures[f"{model}_ms_p95"] <= max(times)


class _Question:
    def __init__(self, cell, options, id=7):
        self.id, self.cell, self.options = id, cell, options

    def to_json(self):
        return {"id": self.id, "cell": self.cell, "options": self.options}


class _Run:
    def __init__(self, refuse=False, turns=0):
        self.answered, self.refuse = [], refuse
        self.tracker = type("Tracker", (), {"actions": [{}] * turns})()

    def answer(self, question_id, option):
        from vision.questions import QuestionRefused
        if self.refuse:
            raise QuestionRefused("answer_refused", "no legal action explains that board")
        self.answered.append((question_id, option))
        return {"committed": [], "reports": []}


def test_the_referee_answers_from_the_board_the_frame_shows():
    """Each frame shows one of the game's boards (``boards.json``): the referee answers
    with the option that says what that board holds on the cell asked about, and
    leaves a question none of whose options says it (or one the camera refuses)
    unanswered, as he does while the game is more than a turn behind the table."""
    from sim.samples_bench import Referee
    boards = [{"mammoth": "0,0", "hunters": {"A": "3,0"}, "traps": {}},
              {"mammoth": "0,0", "hunters": {"A": "3,0"}, "traps": {"3,0": "A"}}]
    shown = {"boards": boards, "frames": [0, 0, 1, 1]}
    trap_or_not = [{"mammoth": False, "hunters": ["A"], "trap": None},
                   {"mammoth": False, "hunters": ["A"], "trap": "A"}]
    run = _Run()
    referee = Referee(run, shown, ["A", "B"])
    referee.frame = 1
    referee(_Question("3,0", trap_or_not, id=1))
    referee.frame = 3
    referee(_Question("3,0", trap_or_not, id=2))
    referee(_Question("3,0", [{"mammoth": False, "hunters": [], "trap": None}], id=3))
    assert run.answered == [(1, 0), (2, 1)]
    assert (referee.answers, referee.unanswerable) == (2, 1)
    refused = Referee(_Run(refuse=True), shown, ["A", "B"])
    refused(_Question("3,0", trap_or_not))
    assert (refused.answers, refused.unanswerable) == (0, 1)
    # Three turns on from the setup's three boards, the game one turn on: answered; none on: not.
    later = {"boards": boards * 3, "frames": [5]}
    for turns, answered in ((1, 1), (0, 0)):
        behind = Referee(_Run(turns=turns), later, ["A", "B"])
        behind(_Question("3,0", trap_or_not))
        assert behind.answers == answered


def test_a_game_folder_keeps_which_board_each_frame_shows(tmp_path):
    """``boards.json`` beside a game: every board shown, and the board of each frame
    (each held for HOLD_FRAMES frames unless the generator says otherwise, as when a
    hand reaches over the board already changed)."""
    import json
    from sim.tables import HOLD_FRAMES, Frame, GameSample, write_game
    boards = [{"mammoth": "0,0", "hunters": {}, "traps": {}}, {"mammoth": "0,0", "hunters": {"A": "3,0"}, "traps": {}}]
    frames = [Frame(f"f{i:05d}.jpg", b"") for i in range(2 * HOLD_FRAMES)]
    folder = Path(write_game(GameSample(1, {}, frames, {}, boards), str(tmp_path)))
    shown = json.loads((folder / "boards.json").read_text())
    assert shown["boards"] == boards and shown["frames"] == [0] * HOLD_FRAMES + [1] * HOLD_FRAMES
    with_hand = GameSample(2, {}, frames[:HOLD_FRAMES + 2], {}, boards, shown=[0] * HOLD_FRAMES + [1, 1])
    assert with_hand.boards_shown()["frames"][-2:] == [1, 1]


def test_held_out_tables_are_read_again_with_a_player_off_the_board_at_the_samples_odds():
    """``cross_generator_off_board_*``: the shared samples leave a player off the board in
    30 % of their frames; the first held-out tables are written again at those odds
    (``--off-board``) and read like the rest, their figures reported beside them."""
    from sim.samples_bench import SAMPLES_OFF_BOARD, measure_generator

    way = measure_generator("sim.flatart", tables=1, games=0, off_board_tables=1)
    assert SAMPLES_OFF_BOARD == 0.3
    assert way["frames"] == 4 and way["off_board_frames"] == 4
    assert 0.0 <= way["off_board_frames_correct"] <= 1.0 and "_off_right" in way

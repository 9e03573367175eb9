"""The command-line contract: render, calibrate, read --json, and clear failures."""
import json
from pathlib import Path

import pytest

from maamut.cli import main


def test_render_calibrate_read_round_trip(tmp_path, capsys):
    out = tmp_path / "scene"
    assert main(["render", "--seed", "30303", "--out", str(out), "--frames", "1", "--hunters", "3"]) == 0
    truth = json.loads((out / "truth.json").read_text())
    setup = [str(out / f["file"]) for f in truth["setup"]]
    cal = tmp_path / "cal.json"
    assert main(["calibrate", *setup, "--out", str(cal)]) == 0
    capsys.readouterr()
    assert main(["read", str(out / truth["frames"][0]["file"]), "--calibration", str(cal), "--json"]) == 0
    seen = json.loads(capsys.readouterr().out)
    expected = truth["frames"][0]
    for key in ("tiles", "mammoth", "hunters", "traps"):
        assert seen[key] == expected[key], key
    assert set(seen["confidence"]) == set(expected["tiles"])


def test_missing_image_and_bad_calibration_exit_2_with_a_message(tmp_path, capsys):
    cal = tmp_path / "cal.json"
    cal.write_text("{not json")
    assert main(["read", str(tmp_path / "nope.png"), "--calibration", str(cal), "--json"]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["calibrate", str(tmp_path / "nope.png"), "--out", str(cal)]) == 2
    assert "cannot read image" in capsys.readouterr().err


def test_render_lays_cards_by_hand_and_hides_some_then_calibrate_and_read_stay_exact(tmp_path, capsys):
    """`maamut render --loose-cards --hide-cards 4,5`: truth.json says where each card was
    laid and which are missing; the calibration file gains the cards' learnt positions
    and `maamut read --json` reports the position exactly."""
    out = tmp_path / "loose"
    assert main(["render", "--seed", "30404", "--out", str(out), "--frames", "2", "--hunters", "2",
                 "--loose-cards", "--hide-cards", "4,5"]) == 0
    truth = json.loads((out / "truth.json").read_text())
    assert truth["hidden_cards"] == [4, 5] and set(truth["cards"]) == {"0", "1", "2", "3", "4", "5"}
    assert all(abs(c["turn_deg"]) <= 5 and max(map(abs, c["shift"])) <= 0.1 for c in truth["cards"].values())
    cal = tmp_path / "cal.json"
    assert main(["calibrate", *[str(out / f["file"]) for f in truth["setup"]], "--out", str(cal)]) == 0
    assert set(json.loads(cal.read_text())["cards"]) == {"0", "1", "2", "3"}
    for frame in truth["frames"]:
        capsys.readouterr()
        assert main(["read", str(out / frame["file"]), "--calibration", str(cal), "--json"]) == 0
        seen = json.loads(capsys.readouterr().out)
        for key in ("tiles", "mammoth", "hunters", "traps"):
            assert seen[key] == frame[key], key
    assert main(["render", "--seed", "1", "--out", str(out), "--hide-cards", "6"]) == 2
    assert "--hide-cards" in capsys.readouterr().err


# -- maamut track --ask: the camera's questions answered at the terminal ----------------

@pytest.fixture(scope="module")
def unsure_game(tmp_path_factory):
    """A flat-art game (the second generator; seed in the tracker's development range)
    whose first turn the cells' changes cannot tell: A's hunter joins C's on 1,2 (hidden
    under him). Which turns the camera asks about depends on how well the reader reads
    them; the tests below hold whatever it asks."""
    from sim.flatart import generate_game, write_game
    sample = generate_game(3_200_002)
    return Path(write_game(sample, str(tmp_path_factory.mktemp("flat")))), sample


@pytest.fixture(scope="module")
def faint_trap_game(tmp_path_factory):
    """A flat-art game with a faint trap (an olive disc on grass) whose count of changed
    points flickers from frame to frame with the sensor's noise, and a trap put down
    under a hunter."""
    from sim.flatart import generate_game, write_game
    sample = generate_game(3_200_004)
    return Path(write_game(sample, str(tmp_path_factory.mktemp("flat")))), sample


class RefereeAtTheTerminal:
    """Someone at the terminal who answers each question the camera asks with what the
    table really shows at that moment (the generator's board), or leaves it unanswered
    (``answer=False``); stands in for ``sys.stdin``."""

    def __init__(self, sample, monkeypatch, answer: bool = True):
        from vision import questions
        self.sample, self.answer, self.asked = sample, answer, []
        worded = questions.worded

        def recording(question, lang):
            self.asked.append(question)
            return worded(question, lang)
        monkeypatch.setattr(questions, "worded", recording)

    def truth(self, question) -> dict:
        from sim.tables import HOLD_FRAMES
        board = self.sample.boards[int(round(question["time"] * 30)) // HOLD_FRAMES]
        cell = question["cell"]
        return {"mammoth": board["mammoth"] == cell,
                "hunters": sorted(p for p, c in board["hunters"].items() if c == cell),
                "trap": board["traps"].get(cell)}

    def readline(self) -> str:
        if not self.answer:
            return "\n"
        question = self.asked[-1]
        right = [i for i, option in enumerate(question["options"]) if option == self.truth(question)]
        return f"{right[0] + 1}\n" if right else "\n"


def _track(folder, players, capsys, monkeypatch, referee=None, lang="en"):
    argv = ["track", str(folder / "frames"), "--players", ",".join(players), "--json"]
    if referee is not None:
        monkeypatch.setattr("sys.stdin", referee)
        argv += ["--ask", "--lang", lang]
    assert main(argv) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def _expected_actions(sample) -> list[dict]:
    return [{k: v for k, v in e.items() if k not in ("choices", "events")} for e in sample.expected["expected"]]


@pytest.mark.slow
def test_track_without_an_answer_waits_and_shows_the_question_in_its_json(unsure_game, capsys, monkeypatch):
    """Nobody answers: every action committed is the game's own (nothing guessed), the
    game stops short of its end, and the pending question is in the JSON with the
    table's true contents among its options."""
    folder, sample = unsure_game
    result, _ = _track(folder, sample.expected["players"], capsys, monkeypatch)
    want = _expected_actions(sample)
    committed = [e["action"] for e in result["actions"]]
    assert committed == want[:len(committed)] and len(committed) < len(want)
    (question,) = result["questions"]
    assert RefereeAtTheTerminal(sample, monkeypatch).truth(question) in question["options"]


@pytest.mark.slow
def test_track_ask_answered_from_stdin_commits_the_answer(unsure_game, capsys, monkeypatch):
    """Each question worded on the terminal and answered with what the table shows: the
    answers move the game on, and every turn committed is the game's own."""
    folder, sample = unsure_game
    referee = RefereeAtTheTerminal(sample, monkeypatch)
    result, asked = _track(folder, sample.expected["players"], capsys, monkeypatch, referee)
    assert referee.asked and asked.count("camera: ") >= len(referee.asked)
    assert "not taken" not in asked
    want = _expected_actions(sample)
    committed = [e["action"] for e in result["actions"]]
    assert committed and committed == want[:len(committed)]


@pytest.mark.slow
def test_track_ask_follows_a_faint_trap_game_exactly(faint_trap_game, capsys, monkeypatch):
    """A faint trap flickering in one frame's count is not a change: with a referee at
    the terminal, the whole game is tracked exactly, nothing left reported or pending."""
    folder, sample = faint_trap_game
    referee = RefereeAtTheTerminal(sample, monkeypatch)
    result, _ = _track(folder, sample.expected["players"], capsys, monkeypatch, referee)
    assert [e["action"] for e in result["actions"]] == _expected_actions(sample)
    assert result["reports"] == [] and result["questions"] == []


@pytest.mark.slow
def test_track_ask_words_its_questions_in_french(unsure_game, capsys, monkeypatch):
    """Left unanswered at a French terminal: the question and its answers are in French,
    and the game waits on it."""
    folder, sample = unsure_game
    referee = RefereeAtTheTerminal(sample, monkeypatch, answer=False)
    result, asked = _track(folder, sample.expected["players"], capsys, monkeypatch, referee, lang="fr")
    assert "réponse (1-" in asked and ("Est-ce" in asked or "est-elle vide" in asked)
    assert result["questions"]        # left unanswered: the game waits on it

"""The command-line contract: render, calibrate, read --json, and clear failures."""
import io
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
    whose two trap turns the cells' changes cannot tell from a move: a yellow star
    pushed aside on olive grass by the trap put down under it."""
    from sim.flatart import generate_game, write_game
    sample = generate_game(3_200_004)
    return Path(write_game(sample, str(tmp_path_factory.mktemp("flat")))), sample.expected


def _track(folder, players, capsys, monkeypatch, answers=None, lang="en"):
    argv = ["track", str(folder / "frames"), "--players", ",".join(players), "--json"]
    if answers is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(answers))
        argv += ["--ask", "--lang", lang]
    assert main(argv) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


@pytest.mark.slow
def test_track_without_an_answer_waits_and_shows_the_question_in_its_json(unsure_game, capsys, monkeypatch):
    folder, expected = unsure_game
    result, _ = _track(folder, expected["players"], capsys, monkeypatch)
    want = [{k: v for k, v in e.items() if k not in ("choices", "events")} for e in expected["expected"]]
    assert [e["action"] for e in result["actions"]] == want[:1]      # nothing guessed after the first turn
    (question,) = result["questions"]
    assert question["cell"] == "1,-3" and {"mammoth": False, "hunters": ["B"], "trap": "B"} in question["options"]


@pytest.mark.slow
def test_track_ask_answered_from_stdin_commits_the_answer(unsure_game, capsys, monkeypatch):
    folder, expected = unsure_game
    # Both questions: "Is 1,-3 empty?" / "Is 1,1 empty?"; the second answer is each
    # player's hunter with his trap put down under him.
    result, asked = _track(folder, expected["players"], capsys, monkeypatch, answers="2\n2\n")
    want = [{k: v for k, v in e.items() if k not in ("choices", "events")} for e in expected["expected"]]
    assert [e["action"] for e in result["actions"]] == want
    assert result["reports"] == [] and result["questions"] == []
    assert "camera: Is 1,-3 empty?" in asked and "2) It's B's hunter and B's trap" in asked


@pytest.mark.slow
def test_track_ask_words_its_questions_in_french(unsure_game, capsys, monkeypatch):
    folder, expected = unsure_game
    result, asked = _track(folder, expected["players"], capsys, monkeypatch, answers="\n", lang="fr")
    assert "La case 1,-3 est-elle vide ?" in asked and "C'est le chasseur de B et le piège de B" in asked
    assert result["questions"]        # left unanswered: the game waits on it

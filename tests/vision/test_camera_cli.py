"""The command-line contract: render, calibrate, read --json, and clear failures."""
import json

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

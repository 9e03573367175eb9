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

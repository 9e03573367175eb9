"""Calibration: layout and colours learnt from setup frames, no palette assumed."""
import json

import numpy as np
import pytest

from engine.hexgrid import NUM_CELLS
from vision.calibration import Calibration, CalibrationError, learn
from vision.colour import to_lab
from sim.render import render_frame

from .rendered_sets import RenderedSet


def test_setup_frames_give_the_exact_layout(rendered_set):
    assert rendered_set.calibration.tiles == rendered_set.tiles


def test_hunter_labels_follow_placement_order(rendered_set):
    """Label c<i> is the i-th hunter placed: its learnt colour is nearest that token's paint."""
    cal = rendered_set.calibration
    paints = to_lab(np.array(rendered_set.kit.palette.players))
    assert list(cal.hunters) == ["c0", "c1", "c2", "c3"]
    for i, label in enumerate(cal.hunters):
        learnt = to_lab(np.clip(np.array(cal.hunters[label]), 0, 1))
        assert int(np.argmin(np.linalg.norm(paints - learnt, axis=1))) == i


def test_calibration_survives_a_json_round_trip(rendered_set, tmp_path):
    path = tmp_path / "cal.json"
    rendered_set.calibration.save(path)
    again = Calibration.load(path)
    assert again.tiles == rendered_set.calibration.tiles
    assert list(again.hunters) == list(rendered_set.calibration.hunters)


def test_a_mirroring_camera_is_detected_and_undone():
    base = RenderedSet(4545, n_hunters=2)
    frames = [render_frame(s, base.kit.palette, base.kit.look, base.rng, mirror=True)[0] for s in base.setup]
    cal = learn(frames)
    assert cal.mirrored and cal.tiles == base.tiles


@pytest.mark.parametrize("bad, message", [
    ({"format": "x"}, "not a Mâamut vision calibration"),
    ({"format": "maamut-vision-calibration/1", "tiles": ["grass"] * 3}, "tiles: expected 37"),
])
def test_malformed_calibrations_are_refused_with_the_field_named(bad, message, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(CalibrationError, match=message):
        Calibration.load(path)


def test_frames_without_a_board_give_a_clear_error():
    with pytest.raises(CalibrationError, match="markers not found"):
        learn([np.full((480, 640, 3), 90, np.uint8)])
    with pytest.raises(CalibrationError, match="no setup frames"):
        learn([])


def test_tiles_of_the_layout_are_all_named(rendered_set):
    assert len(rendered_set.calibration.tiles) == NUM_CELLS
    assert set(rendered_set.calibration.tiles) == {"grass", "snow", "rock", "cross"}

"""The camera's pose from the board's homography: what a standing piece leans by."""
import json

import numpy as np
import pytest

from sim.photo.bench import DEFAULT_SET, table_dirs
from vision.geometry import BoardLocator
from vision.pose import DEFAULT_FOCAL, CameraPose


def _homography(focal, centre, tilt_deg, azimuth_deg, size=(1280, 960)):
    """The board-to-image homography of a pinhole camera at ``centre`` looking at the
    board's middle, tilted ``tilt_deg`` from straight down."""
    target = np.zeros(3)
    forward = (target - centre) / np.linalg.norm(target - centre)
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right = right / np.linalg.norm(right) if np.linalg.norm(right) > 1e-9 else np.array([1.0, 0.0, 0.0])
    down = np.cross(forward, right)
    rot = np.stack([right, down, forward])           # board -> camera axes
    k = np.array([[focal, 0, size[0] / 2], [0, focal, size[1] / 2], [0, 0, 1]])
    t = -rot @ centre
    h = k @ np.column_stack([rot[:, 0], rot[:, 1], t])
    return h / h[2, 2]


@pytest.mark.parametrize("tilt, azimuth, focal", [(12, 0, 1244), (20, 75, 900), (30, 200, 600), (22, 310, 1500)])
def test_a_tilted_camera_is_recovered_exactly_from_a_perfect_homography(tilt, azimuth, focal):
    """No noise: the focal length, the tilt and the camera's centre come back."""
    distance = 25.0
    a, t = np.radians(azimuth), np.radians(tilt)
    centre = distance * np.array([np.sin(t) * np.cos(a), np.sin(t) * np.sin(a), np.cos(t)])
    pose = CameraPose.from_homography(_homography(focal, centre, tilt, azimuth), (1280, 960))
    assert pose.focal_estimated and pose.focal == pytest.approx(focal, rel=1e-6)
    assert np.degrees(pose.tilt) == pytest.approx(tilt, abs=1e-6)
    assert np.allclose(pose.centre, centre, atol=1e-6)
    # A point on the board images where the homography says; one above it, further out.
    assert np.allclose(pose.project(np.array([[2.0, -1.0, 0.0]])), _apply(_homography(focal, centre, tilt, azimuth),
                                                                         [2.0, -1.0]), atol=1e-6)


def _apply(h, xy):
    p = h @ np.array([xy[0], xy[1], 1.0])
    return p[:2] / p[2]


def test_straight_down_the_focal_length_is_assumed_and_pieces_lean_away_from_the_camera():
    """Looking straight down, the homography cannot tell the focal length: a nominal one
    is used, and a piece's top is seen further from the camera's foot than its base."""
    pose = CameraPose.from_homography(_homography(1000.0, np.array([0.0, 0.0, 25.0]), 0, 0), (1280, 960))
    assert not pose.focal_estimated and pose.focal == pytest.approx(DEFAULT_FOCAL * 1280)
    top = pose.lean(np.array([[3.0, 4.0]]), 1.2)[0]
    assert np.linalg.norm(top - pose.centre[:2]) > 5.0
    assert np.cross(np.r_[top, 0.0], [3.0, 4.0, 0.0])[2] == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("folder", table_dirs(DEFAULT_SET), ids=lambda f: f.name)
def test_the_pose_of_a_path_traced_camera_is_found_from_its_marker_cards(folder):
    """On the kept photo tables (Blender cameras tilted 9-21°, cards laid a little off):
    tilt within 2°, focal length within 25 %, camera centre within 25 % of its height."""
    import cv2
    truth = json.loads((folder / "truth.json").read_text())
    image = cv2.imread(str(folder / truth["setup"][0]["file"]))
    geometry = BoardLocator().locate(image)
    pose = CameraPose.from_homography(geometry.homography, (image.shape[1], image.shape[0]))
    assert abs(np.degrees(pose.tilt) - np.degrees(truth["look"]["camera"]["tilt"])) < 2.0
    assert pose.focal == pytest.approx(truth["camera"]["f_px"], rel=0.25)
    true_centre = np.array(truth["camera"]["location"])
    assert np.linalg.norm(pose.centre - true_centre) < 0.25 * true_centre[2]

"""Board localisation with the kit's ArUco markers."""
import cv2
import numpy as np
import pytest

from vision.geometry import BoardLocator, CELL_CENTRES, marker_corners_board, project
from vision.render import Kit, random_scene, render_frame
from vision.render_palette import random_look


@pytest.mark.parametrize("seed", [31, 32, 33, 34])
def test_cells_are_located_within_a_pixel_or_two_at_any_rotation_and_tilt(seed):
    rng = np.random.default_rng(seed)
    kit = Kit.random(rng)
    look = random_look(rng)
    look.tilt = np.radians(25)          # the steepest camera we support
    image, truth = render_frame(random_scene(rng), kit.palette, look, rng)
    geometry = BoardLocator().locate(image)
    assert geometry is not None and geometry.fresh
    error = np.linalg.norm(project(geometry.homography, CELL_CENTRES) - project(truth["homography"], CELL_CENTRES), axis=1)
    assert error.max() < 1.5


def test_last_good_geometry_is_kept_while_markers_are_covered():
    rng = np.random.default_rng(35)
    kit = Kit.random(rng)
    image, truth = render_frame(random_scene(rng), kit.palette, kit.look, rng)
    locator = BoardLocator()
    first = locator.locate(image)
    covered = image.copy()
    for marker in range(6):   # a sheet of paper over every marker
        quad = project(truth["homography"], marker_corners_board(marker) * 1.0)
        cv2.fillPoly(covered, [np.round(quad).astype(np.int32)], (200, 180, 160))
    kept = locator.locate(covered)
    assert kept is not None and not kept.fresh
    assert np.allclose(kept.homography, first.homography)


def test_a_mirrored_image_is_not_read_as_a_board():
    rng = np.random.default_rng(36)
    kit = Kit.random(rng)
    image, _ = render_frame(random_scene(rng), kit.palette, kit.look, rng, mirror=True)
    assert BoardLocator().locate(image) is None


def test_no_board_gives_no_geometry():
    assert BoardLocator().locate(np.full((480, 640, 3), 128, np.uint8)) is None

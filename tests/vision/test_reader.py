"""Reading tiles and tokens from frames, on sets and seeds the bench never uses."""
import warnings
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexgrid import CENTRE, NUM_CELLS
from vision.reader import BoardReader, median_of_kept, observation_to_json
from sim.render import Scene, own_colour_stacks, random_hand, random_scene
from sim.vision_bench import relit, wrong_cells


def _check(obs, scene):
    assert obs.board_found
    assert wrong_cells(obs, scene) == []
    assert not obs.occluded


@pytest.mark.parametrize("seed", [20001, 20002, 20003])
def test_random_positions_read_exactly_under_another_lamp(seed):
    from .rendered_sets import RenderedSet
    s = RenderedSet(seed)
    reader = BoardReader(s.calibration)
    for _ in range(2):
        scene = random_scene(s.rng, tiles=s.tiles, n_hunters=4)
        image, _ = s.render(scene, look=relit(s.kit, s.rng))
        _check(reader.read(image, 0.0), scene)


def test_unseen_token_outlines_read_exactly(held_out_set):
    reader = BoardReader(held_out_set.calibration)
    for _ in range(2):
        scene = random_scene(held_out_set.rng, tiles=held_out_set.tiles, n_hunters=4, n_traps=10)
        image, _ = held_out_set.render(scene)
        _check(reader.read(image, 0.0), scene)


def test_a_hunter_on_a_trap_shows_both_even_of_its_own_colour(rendered_set):
    tiles = rendered_set.tiles
    grass = [c for c in range(NUM_CELLS) if tiles[c] == "grass"]
    scene = Scene(tiles, CENTRE, {"c0": grass[0], "c1": grass[1], "c2": grass[2]},
                  {grass[0]: "c0", grass[1]: "c0", grass[3]: "c2"})
    image, _ = rendered_set.render(scene)
    obs = BoardReader(rendered_set.calibration).read(image, 0.0)
    _check(obs, scene)


@pytest.mark.parametrize("seed", [20021, 20022, 20023, 20024, 20035])
def test_a_hunter_on_his_own_colour_trap_is_told_from_the_trap_alone_by_his_outline(seed):
    # The core and the plate around him show the same colour: only the dark outline,
    # whatever its shape and however off-centre, tells the stack from a lone trap.
    from .rendered_sets import RenderedSet
    s = RenderedSet(seed, hunter_shapes=("square", "octagon", "pentagon"), trap_shapes=("square", "hexagon", "ring"))
    scene = own_colour_stacks(s.rng, s.tiles, 4)
    image, _ = s.render(scene, look=relit(s.kit, s.rng))
    _check(BoardReader(s.calibration).read(image, 0.0), scene)


def test_a_hand_marks_the_board_occluded_and_no_visible_cell_reads_wrong(rendered_set):
    reader = BoardReader(rendered_set.calibration, lock_tiles=True)
    rng = np.random.default_rng(20010)
    for _ in range(3):
        scene = random_scene(rng, tiles=rendered_set.tiles, n_hunters=4)
        hand = replace(random_hand(rng), target=(rng.uniform(-2, 2), rng.uniform(-2, 2)))
        image, truth = rendered_set.render(scene, hand=hand)
        obs = reader.read(image, 0.0)
        assert obs.occluded
        # Every cell the reader vouches for (not listed as hidden) is read right.
        assert set(wrong_cells(obs, scene)) <= set(obs.occluded_cells)
        assert set(obs.occluded_cells) & set(truth["occluded_cells"])


def test_locked_tiles_are_reported_from_the_calibration(rendered_set):
    scene = random_scene(rendered_set.rng, tiles=rendered_set.tiles, n_hunters=2)
    image, _ = rendered_set.render(scene)
    obs = BoardReader(rendered_set.calibration, lock_tiles=True).read(image, 1.5)
    assert obs.tiles == rendered_set.tiles and obs.timestamp == 1.5


def test_bad_frames_give_no_board_instead_of_an_error(rendered_set):
    reader = BoardReader(rendered_set.calibration)
    for frame in (np.zeros((10, 10, 3), np.uint8), np.zeros((5, 5), np.uint8), None, np.zeros((0, 0, 3), np.uint8)):
        obs = reader.read(frame, 0.0)
        assert not obs.board_found and obs.tiles is None and len(obs.occluded_cells) == NUM_CELLS


def test_json_form_uses_cell_names_and_gives_a_confidence_per_cell(rendered_set):
    scene = random_scene(rendered_set.rng, tiles=rendered_set.tiles, n_hunters=3)
    image, _ = rendered_set.render(scene)
    result = observation_to_json(BoardReader(rendered_set.calibration).read(image, 0.0))
    assert result["tiles"]["0,0"] == "cross" and len(result["confidence"]) == NUM_CELLS
    assert all(0.0 <= v <= 1.0 for v in result["confidence"].values())
    assert result["mammoth"] == scene.to_json()["mammoth"]
    assert result["hunters"] == scene.to_json()["hunters"] and result["traps"] == scene.to_json()["traps"]


def test_tokens_put_down_off_centre_are_still_read(monkeypatch):
    """Players are sloppy: tokens up to 0.1 tile radii off centre on each axis."""
    import sim.render
    from .rendered_sets import RenderedSet
    monkeypatch.setattr(sim.render, "PLACEMENT_JITTER", 0.10)
    s = RenderedSet(20020)
    reader = BoardReader(s.calibration)
    scene = random_scene(s.rng, tiles=s.tiles, n_hunters=4, n_traps=12)
    image, _ = s.render(scene)
    _check(reader.read(image, 0.0), scene)


@pytest.mark.parametrize("seed", [20045, 20055, 20075])
def test_tokens_on_white_tiles_clipped_by_a_bright_lamp_keep_their_colours(seed):
    # A lamp switched on saturates the snow tiles: their own rings no longer tell the
    # light, so the mammoth and hunters on snow are re-lit from the rest of the board.
    from .rendered_sets import RenderedSet
    s = RenderedSet(seed)
    snow = [c for c in range(NUM_CELLS) if s.tiles[c] in ("snow", "cross")]
    scene = Scene(s.tiles, snow[0], {"c0": snow[1], "c1": snow[2], "c2": snow[3]}, {})
    lamp = replace(s.kit.nudged(s.rng), gradient=(1.35, 0.1, -0.1), cast=(1.15, 1.0, 0.9))
    image, _ = s.render(scene, look=lamp)
    _check(BoardReader(s.calibration).read(image, 0.0), scene)


def test_golden_frame_an_own_colour_stack_beside_the_dark_board_rim_is_read():
    """A frame from a demo game that once went out of step: a square hunter on his own
    square trap at the board's edge, with a dark mammoth in the set. The blurred outline
    looked more like the mammoth than the rim, so the few points left voting for the rim
    (tile gaps, the board's edge) pulled the core sample onto the outline."""
    import cv2
    from pathlib import Path

    from engine.hexgrid import parse_cell
    from vision.calibration import Calibration
    data = Path(__file__).parent / "data"
    calibration = Calibration.load(data / "own-colour-stack-at-the-edge.calibration.json")
    frame = cv2.imread(str(data / "own-colour-stack-at-the-edge.jpg"))
    obs = BoardReader(calibration, lock_tiles=True).read(frame, 0.0)
    stack = parse_cell("1,-3")
    assert obs.occluded_cells == ()
    assert obs.hunters["c1"] == stack and obs.traps[stack] == "c1"


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), points=st.integers(1, 60), share=st.floats(0.0, 1.0),
       coarse=st.booleans(), wide=st.booleans())
def test_the_tile_rings_median_of_kept_points_is_numpys_nanmedian(seed, points, share, coarse, wide):
    """Whatever the points kept (none, some, all of a ring), their median is exactly
    what ``np.nanmedian`` gives with the others left out, ties and half-way values alike."""
    rng = np.random.default_rng(seed)
    values = rng.random((NUM_CELLS, points, 3)).astype(np.float64 if wide else np.float32)
    if coarse:
        values = np.round(values * 4) / 4
    kept = rng.random((NUM_CELLS, points)) < share
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.nanmedian(np.where(kept[..., None], values, np.nan), axis=1)
    got = median_of_kept(values, kept)
    assert got.dtype == expected.dtype and np.array_equal(got, expected, equal_nan=True)

"""The scene renderer: legal ground truth, varied looks, handedness kept."""
import numpy as np

from engine.hexgrid import CENTRE, NUM_CELLS, RING, ring
from vision.geometry import CELL_CENTRES, preserves_handedness, project
from sim.render import Kit, camera_homography, random_hand, random_layout, random_scene, render_frame, setup_scenes
from sim.render_palette import delta_e, random_palette


def test_layouts_follow_the_setup_rules():
    rng = np.random.default_rng(11)
    for _ in range(50):
        tiles = random_layout(rng)
        assert tiles[CENTRE] == "cross"
        assert [tiles.count(t) for t in ("rock", "grass", "snow")] == [7, 18, 11]
        assert sum(tiles[c] == "rock" for c in ring(1)) <= 4


def test_random_positions_are_legal():
    rng = np.random.default_rng(12)
    for _ in range(100):
        scene = random_scene(rng)
        assert scene.tiles[scene.mammoth] != "rock"
        cells = list(scene.hunters.values())
        assert len(set(cells)) == len(cells) and scene.mammoth not in cells
        assert all(scene.tiles[c] != "rock" for c in cells)
        assert all(scene.tiles[c] == "grass" and c != scene.mammoth for c in scene.traps)
        for label in scene.hunters:
            assert list(scene.traps.values()).count(label) <= 4
        assert set(scene.traps.values()) <= set(scene.hunters)


def test_setup_sequence_places_one_hunter_per_frame_on_the_outer_ring():
    rng = np.random.default_rng(13)
    tiles = random_layout(rng)
    frames = setup_scenes(tiles, rng, 3)
    assert [len(s.hunters) for s in frames] == [0, 1, 2, 3]
    assert all(s.mammoth == CENTRE and not s.traps for s in frames)
    assert all(RING[c] == 3 and tiles[c] != "rock" for c in frames[-1].hunters.values())


def test_palettes_differ_between_seeds_but_keep_classes_apart():
    a = random_palette(np.random.default_rng(1))
    b = random_palette(np.random.default_rng(2))
    assert delta_e(a.grass, b.grass) > 1 and delta_e(a.players[0], b.players[0]) > 1
    for p in (a, b):
        assert min(delta_e(p.grass, p.snow), delta_e(p.grass, p.rock), delta_e(p.snow, p.rock)) >= 30


def test_camera_never_mirrors_the_board():
    rng = np.random.default_rng(14)
    for _ in range(30):
        look = Kit.random(rng).look
        h = camera_homography(look)
        assert preserves_handedness(h)
        # East of the centre, then south-east: turning clockwise on the table is
        # clockwise in the image too (y down in both).
        c, e, se = project(h, CELL_CENTRES[[CENTRE, CENTRE + 1, CENTRE + 7]])
        cross = (e - c)[0] * (se - c)[1] - (e - c)[1] * (se - c)[0]
        assert cross > 0


def test_frames_are_deterministic_per_seed_and_hands_report_hidden_cells():
    def draw():
        rng = np.random.default_rng(15)
        kit = Kit.random(rng)
        scene = random_scene(rng)
        return render_frame(scene, kit.palette, kit.look, rng, hand=random_hand(rng))
    (a, info_a), (b, _) = draw(), draw()
    assert a.shape == (960, 1280, 3) and np.array_equal(a, b)
    assert 0 < len(info_a["occluded_cells"]) < NUM_CELLS

"""Each hunter told from the lone traps of his colour by the sizes of all his patches.

A set's traps are of one design, and a player's hunter and traps are seen in one colour
(:mod:`vision.changes`): what tells the hunter is how much of his colour each patch
shows against his own size and the frame's lone traps. Grids of counts are built by
hand so each rule is seen alone; one table of the second generator (``sim.flatart``,
development seed) shows it on a drawn frame.
"""
import numpy as np
import pytest

from engine.hexgrid import NUM_CELLS
from vision.changes import Look, _hunters, hunters_among_traps, trap_share

SIZE = 100.0
LOOKS = [Look((0.9, 0.2, 0.2), SIZE, extent=SIZE), Look((0.2, 0.2, 0.9), SIZE, extent=SIZE)]
LABELS = ["c0", "c1"]
GRASS = np.ones(NUM_CELLS, bool)


def _read(patches: dict[int, tuple], first_guess: dict, ratio: float, grass=GRASS, dark=None):
    """The hunters read from ``patches`` ({cell: (c0's points, c1's points)}), ``dark``
    ({cell: (c0's dark points, c1's)}) what each one's dark part shows."""
    bodies, dark_counts = np.zeros((NUM_CELLS, 2)), np.zeros((NUM_CELLS, 2))
    for cell, points in patches.items():
        bodies[cell] = points
    for cell, points in (dark or {}).items():
        dark_counts[cell] = points
    changed = bodies.sum(axis=1)
    return hunters_among_traps(bodies, dark_counts, changed, LOOKS, LABELS, first_guess,
                               np.ones(NUM_CELLS), ratio, np.ones(NUM_CELLS, bool), grass)


def test_the_frames_lone_traps_tell_how_large_a_trap_shows():
    """Cells showing one player's colour alone, where no hunter stands nor beside, are
    lone traps: their share of their player's hunter size is alike for every player.
    A patch of a player whose hunter is not seen may be he, and tells nothing."""
    bodies = np.zeros((NUM_CELLS, 2))
    bodies[3], bodies[5], bodies[20], bodies[30] = (148, 0), (0, 152), (100, 0), (0, 100)
    assert trap_share(bodies, LOOKS, {"c0": 20, "c1": 30}, LABELS, GRASS) == pytest.approx(1.5)
    assert trap_share(bodies, LOOKS, {"c0": 20}, LABELS, GRASS) == pytest.approx(1.48)
    assert trap_share(np.zeros((NUM_CELLS, 2)), LOOKS, {}, LABELS, GRASS) is None


def test_a_hunter_beside_lone_traps_his_size_and_more_is_the_patch_of_his_own_size():
    """Traps half as large again as a hunter: the patch of his own size is he, even where
    the colour's first reading took a trap for him; the others are traps."""
    hunters, conf, under = _read({3: (150, 0), 5: (100, 0), 7: (152, 0)}, {"c0": 3}, ratio=1.5)
    assert hunters == {"c0": 5} and under == {}
    assert conf[5] >= 0.5


def test_a_hunter_on_his_own_trap_shows_more_than_a_lone_trap():
    """Traps about a hunter's size: the patch showing clearly more of his colour than
    either alone is he standing on his own trap, which is then known to be there."""
    hunters, conf, under = _read({3: (190, 0), 5: (105, 0), 7: (98, 0)}, {"c0": 5}, ratio=1.0)
    assert hunters == {"c0": 3} and under == {3: "c0"}


def test_his_only_patch_larger_than_a_lone_trap_and_than_he_is_he_on_his_trap():
    """Stars on printed tokens of their colour: the frame's lone traps (other players')
    show 1.7 times a hunter; his only patch, 2.3 times, is both: he stands on his trap."""
    hunters, conf, under = _read({3: (230, 0)}, {}, ratio=1.7)
    assert hunters == {"c0": 3} and under == {3: "c0"} and conf[3] >= 0.5


def test_a_hunter_no_patch_tells_from_a_trap_is_asked_about():
    """Traps exactly a hunter's size and no patch larger: any of them may be he. The
    colour's first reading stands, unsure, so the tracker asks instead of guessing."""
    hunters, conf, under = _read({3: (100, 0), 5: (101, 0)}, {"c0": 3}, ratio=1.0)
    assert hunters == {"c0": 3} and under == {}
    assert conf[3] < 0.1 and conf[5] < 0.1


def test_a_hunter_seen_only_as_one_trap_sized_patch_is_read_on_it_unsure():
    """A flat hunter of exactly his trap's colour on that trap, and no lone trap in the
    frame to compare with (sim.flatart development tables, 11 frames): his colour shows
    on one cell only, larger than he is. A still board holds every hunter, so he is read
    there, and the cell is unsure (the referee confirms). With two such patches either
    may hide him: he is read on neither."""
    bodies, dark_counts = np.zeros((NUM_CELLS, 2)), np.zeros((NUM_CELLS, 2))
    bodies[3], bodies[9] = (180, 0), (0, 100)
    ok = np.ones(NUM_CELLS, bool)
    hunters, conf = _hunters(bodies, dark_counts, bodies.sum(axis=1), LOOKS, LABELS, ok)
    assert hunters == {"c0": 3, "c1": 9} and conf[3] == 0.0
    bodies[20] = (175, 0)
    hunters, conf = _hunters(bodies, dark_counts, bodies.sum(axis=1), LOOKS, LABELS, ok)
    assert "c0" not in hunters and conf[3] == 0.0 and conf[20] == 0.0


def test_a_patch_off_the_grass_is_no_trap():
    """Traps lie on grass only: of two patches alike, the one on snow is the hunter."""
    grass = GRASS.copy()
    grass[5] = False
    hunters, _, _ = _read({3: (100, 0), 5: (100, 0)}, {"c0": 3}, ratio=1.0, grass=grass)
    assert hunters == {"c0": 5}


@pytest.mark.slow
def test_a_pawn_beside_a_lone_ring_trap_of_his_colour_is_read_on_his_own_cell():
    """Pawns about a ring trap's size (``sim.flatart`` development table 3,000,027): the
    grey player's pawn stands beside one of his traps; the trap is no hunter."""
    from sim.flatart import generate_table
    from sim.samples_bench import frame_right
    from vision.calibration import learn
    from vision.reader import BoardReader

    sample = generate_table(3_000_027, reads=1)
    calibration = learn([frame.image() for frame in sample.calib])
    frame, truth = sample.reads[0]
    observation = BoardReader(calibration).read(frame.image(), 0.0)
    grey = truth["players"][0]
    assert truth["traps"].get(truth["hunters"][grey]) is None and grey in truth["traps"].values()
    assert frame_right(observation, truth)


def test_a_grey_pawn_on_snow_counts_though_it_changes_the_snow_by_less_than_the_line():
    """A grey player's pawn on white snow changes it by less than a piece's line (the
    snow, darker): its points count where his learnt grey explains them far better than
    the snow does, so he is read there. Under a sensor so noisy that the bare snow
    itself changes about as much, such faint points tell nothing, and he is not read."""
    from vision.changes import CHANGED, GRID, ChangeModel, read_changes
    from vision.colour import lab_distance, to_lab

    snow, grey = np.array([0.85, 0.87, 0.88]), np.array([0.72, 0.74, 0.75])
    step = float(lab_distance(to_lab(snow[None]), to_lab(grey[None]), np.ones(3, np.float32))[0])
    assert CHANGED / 2 < step < CHANGED
    empty = np.full((NUM_CELLS, len(GRID), 3), snow, np.float32)
    grid = empty.copy()
    pawn = np.hypot(GRID[:, 0] - 0.1, GRID[:, 1]) <= 0.3
    grid[5, pawn] = grey
    grid[20, np.hypot(GRID[:, 0], GRID[:, 1]) <= 0.55] = (0.35, 0.25, 0.15)
    looks = {"c0": Look(tuple(grey), float(pawn.sum())), "c1": Look((0.15, 0.25, 0.8), float(pawn.sum()))}
    model = ChangeModel(empty, Look((0.35, 0.25, 0.15), 200.0), looks, (0.05, 0.05, 0.05))
    ok = np.ones(NUM_CELLS, bool)
    assert read_changes(model, grid, ok, ~ok, ["c0", "c1"]).hunters == {"c0": 5}
    noisy = np.clip(grid + np.random.default_rng(1).normal(0, 0.06, grid.shape), 0, 1).astype(np.float32)
    assert "c0" not in read_changes(model, noisy, ok, ~ok, ["c0", "c1"]).hunters


def test_a_hunter_is_read_where_his_dark_part_shows_not_on_a_flat_patch_of_his_colour():
    """A standing pawn learnt with his shaded side (his dark part, 150 points): a lone
    flat trap of his colour shows about his size of it but none of his dark part, the
    cell he stands on both. He is read where his dark part shows, even where that cell
    shows a little less of his colour than the trap."""
    looks = [Look((0.8, 0.7, 0.4), 75.0, dark=150.0, extent=280.0), Look((0.2, 0.2, 0.9), 70.0, extent=70.0)]
    bodies = np.zeros((NUM_CELLS, 2))
    dark = np.zeros((NUM_CELLS, 2))
    bodies[4] = (74, 0)                         # the lone trap: his size of his colour, flat
    bodies[20], dark[20] = (62, 0), (170, 0)    # where he stands: his colour and his shade
    bodies[30] = (0, 70)
    changed = bodies.sum(axis=1) + dark[:, 0]
    hunters, _ = _hunters(bodies, dark, changed, looks, LABELS, np.ones(NUM_CELLS, bool))
    assert hunters == {"c0": 20, "c1": 30}
    # Without his dark part learnt (a flat piece), the patch nearer his size is his.
    flat = [Look((0.8, 0.7, 0.4), 75.0, extent=75.0), looks[1]]
    assert _hunters(bodies, dark, bodies.sum(axis=1), flat, LABELS, np.ones(NUM_CELLS, bool))[0]["c0"] == 4


def test_of_two_patches_alike_the_one_showing_his_shadow_holds_the_hunter():
    """Two patches of his colour as large as a lone trap each (a meeple as wide as his
    trap, standing on it): the sizes cannot tell which holds him, and he was asked
    about. One shows a dark part a third of his size (his shadow on the trap), the other
    none (a flat trap casts no shadow): he stands there, on his trap (sim.flatart
    development table 3,000,030). Without it, the referee is asked, nothing is guessed."""
    patches = {4: (0, 145), 9: (0, 147)}
    hunters, conf, _ = _read(patches, {"c0": 20}, ratio=1.64, dark={9: (0, 34)})
    assert hunters == {"c0": 20, "c1": 9}
    hunters, conf, _ = _read(patches, {"c0": 20}, ratio=1.64)
    assert "c1" not in hunters and conf[4] < 0.5 and conf[9] < 0.5


def test_a_plain_white_disc_covering_a_whole_snow_tile_is_a_piece_not_a_brighter_light():
    """A white disc wider than its snow tile covers every point the cell's light is
    measured on and is only a fifth brighter than the snow: taken for the cell's light,
    it explained itself away and the hunter was read nowhere. Light scales the snow's
    texture, the disc wipes it out: the cell then takes its neighbours' light and the
    disc is read as the white player. The same snow a fifth brighter, texture kept, is
    light, and no piece is read there."""
    from vision.changes import GRID, ChangeModel, read_changes

    rng = np.random.default_rng(3)
    snow = np.array([0.70, 0.72, 0.74], np.float32)
    empty = (snow * rng.uniform(0.85, 1.15, (NUM_CELLS, len(GRID), 1))).astype(np.float32)
    white, blue = (0.86, 0.86, 0.85), (0.15, 0.25, 0.8)
    looks = {"c0": Look(white, float(len(GRID))), "c1": Look(blue, 60.0)}
    model = ChangeModel(empty, Look((0.35, 0.25, 0.15), 200.0), looks, (0.05, 0.05, 0.05))
    ok = np.ones(NUM_CELLS, bool)
    covered = empty.copy()
    covered[5] = white
    assert read_changes(model, covered, ok, ~ok, ["c0", "c1"]).hunters == {"c0": 5}
    brighter = empty.copy()
    brighter[5] *= 1.2
    assert read_changes(model, brighter, ok, ~ok, ["c0", "c1"]).hunters == {}

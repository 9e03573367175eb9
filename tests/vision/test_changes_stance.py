"""A standing hunter told on his own trap by how his colour is drawn out along the lean.

Counts and stances are built by hand so the rule is seen alone (:func:`vision.changes._hunters`);
the path-traced sample photo-9100001/read_003 (tests/vision/test_samples.py) shows it on a
rendered frame: a meeple on his own disc trap, his player's other trap lying flat beside.
"""
import numpy as np

from engine.hexgrid import NUM_CELLS
from vision.changes import Look, _hunters

LABELS = ["c0", "c1"]


def _read(stands: tuple, patches: dict, stances: dict):
    """The hunters read from ``patches`` ({cell: c0's points}) with c0's stance per cell;
    c1 is seen alone on cell 30 with his set's ``stands`` (c0's, c1's) at setup."""
    looks = [Look((0.6, 0.1, 0.4), 100.0, extent=120.0, stands=stands[0]),
             Look((0.2, 0.8, 0.2), 100.0, extent=120.0, stands=stands[1])]
    bodies = np.zeros((NUM_CELLS, 2))
    bodies[30, 1] = 100
    lean = np.zeros((NUM_CELLS, 2))
    for cell, points in patches.items():
        bodies[cell, 0] = points
        lean[cell, 0] = stances[cell]
    return _hunters(bodies, np.zeros((NUM_CELLS, 2)), bodies.sum(axis=1), looks, LABELS,
                    np.ones(NUM_CELLS, bool), lean)


def test_a_standing_hunter_on_his_own_trap_is_the_patch_drawn_out_along_the_lean():
    """Two trap-sized patches of his colour, no dark part learnt to tell him: the one
    whose colour is drawn out along the camera's lean (a meeple's body over a disc) holds
    him, the flat one is a lone trap. His own stance was not told at setup (put down
    where the camera looks straight down); another hunter of the set was seen standing."""
    hunters, conf = _read((0.0, 2.2), {5: 195, 9: 245}, {5: 1.4, 9: 1.02})
    assert hunters == {"c0": 5, "c1": 30}
    assert conf[5] > 0.5 and conf[9] > 0.5


def test_a_flat_set_on_its_traps_is_not_told_by_the_lean_and_is_asked_about():
    """No hunter of the set stood at setup (discs): a patch drawn out proves nothing, and
    the patches that may hide him are asked about."""
    hunters, conf = _read((1.0, 1.05), {5: 195, 9: 245}, {5: 1.4, 9: 1.02})
    assert hunters == {"c1": 30}
    assert conf[5] == 0.0 and conf[9] == 0.0


def test_both_patches_flat_leaves_him_unplaced_and_asked_about():
    """A standing set, but both patches of his colour lie flat: neither holds him for
    sure, and no cell is taken for him."""
    hunters, conf = _read((0.0, 2.2), {5: 195, 9: 245}, {5: 1.05, 9: 1.02})
    assert "c0" not in hunters
    assert min(conf[5], conf[9]) < 0.5

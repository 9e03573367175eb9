"""A trap printed in more than one shade of its player's colour is a trap, not his hunter.

Counts built by hand (:func:`vision.changes._hunters`); photo-9100001/read_001 showed it
on a rendered frame: a magenta disc at the board's edge, half its points a deeper shade
than the meeple's learnt colour (his colour *family*, :func:`vision.changes._family`),
showed about the meeple's size of his colour itself, and the meeple was read on it.
"""
import numpy as np

from engine.hexgrid import NUM_CELLS
from vision.changes import Look, _hunters

LABELS = ["c0", "c1"]
LOOKS = [Look((0.5, 0.13, 0.23), 100.0, extent=130.0), Look((0.2, 0.8, 0.2), 100.0, extent=130.0)]


def test_a_patch_his_size_that_is_trap_sized_with_its_shades_is_his_trap_and_he_stands_elsewhere():
    """Cell 5: his colour on 115 points and its deeper shade on 135 more (a trap's size);
    cell 9: 75 points of his colour (his meeple, dimmed by a lamp). He is on 9."""
    bodies, family = np.zeros((NUM_CELLS, 2)), np.zeros((NUM_CELLS, 2))
    bodies[5, 0], family[5, 0] = 115, 135
    bodies[9, 0] = 75
    bodies[30, 1] = 100
    ok = np.ones(NUM_CELLS, bool)
    hunters, _ = _hunters(bodies, np.zeros((NUM_CELLS, 2)), bodies.sum(axis=1) + family.sum(axis=1), LOOKS, LABELS,
                          ok, None, family)
    assert hunters == {"c0": 9, "c1": 30}
    # Without its shades the patch would pass for him: it shows about his size.
    assert _hunters(bodies, np.zeros((NUM_CELLS, 2)), bodies.sum(axis=1), LOOKS, LABELS, ok)[0]["c0"] == 5

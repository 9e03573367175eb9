"""Hunters where they are hard to see: side by side on one cell, on the mammoth's token,
on traps, a near-black player, an x-shaped cross print (kit tokens, rendered frames)."""
import pytest

from engine.hexgrid import CENTRE
from vision.reader import BoardReader
from sim.render import Scene, piece_cases
from sim.vision_bench import pieces_wrong, relit


def _read(s, scene):
    image, _ = s.render(scene, look=relit(s.kit, s.rng))
    return BoardReader(s.calibration).read(image, 0.0)


@pytest.mark.parametrize("seed", [21001, 21002, 21003, 21004])
def test_two_or_three_hunters_side_by_side_on_one_cell_are_each_read(seed):
    """Hunters share cells (moves ignore other hunters): each one on it is reported there,
    none is dropped and the shared cell is not taken for a hand."""
    from .conftest import RenderedSet
    s = RenderedSet(seed)
    scene = piece_cases(s.rng, s.tiles, 4, cases=("stack",))
    obs = _read(s, scene)
    shared = [cell for cell in scene.hunters.values() if list(scene.hunters.values()).count(cell) > 1]
    assert shared and obs.hunters == scene.hunters
    assert pieces_wrong(obs, scene) == []


@pytest.mark.parametrize("seed", [21011, 21012, 21013])
def test_a_hunter_on_the_mammoths_token_is_read_with_the_mammoth_under_him(seed):
    """Mid-move a hunter may stand on the mammoth's cell: the reader reports both the
    mammoth (its token's edge still shows) and the hunter on that one cell."""
    from .conftest import RenderedSet
    s = RenderedSet(seed)
    scene = piece_cases(s.rng, s.tiles, 3, cases=("mammoth",))
    obs = _read(s, scene)
    on_mammoth = [label for label, cell in scene.hunters.items() if cell == scene.mammoth]
    assert on_mammoth and obs.mammoth == scene.mammoth
    assert all(obs.hunters.get(label) == scene.mammoth for label in on_mammoth)
    assert pieces_wrong(obs, scene) == []


@pytest.mark.parametrize("seed", [21021, 21022, 21023])
def test_every_hard_case_at_once_reads_exactly(seed):
    """A stack, a hunter on the mammoth and one on a trap (his own or another's) together."""
    from .conftest import RenderedSet
    s = RenderedSet(seed)
    scene = piece_cases(s.rng, s.tiles, 4)
    assert pieces_wrong(_read(s, scene), scene) == []


@pytest.mark.parametrize("seed", [21031, 21032, 21033])
def test_a_near_black_players_hunters_and_traps_are_told_from_the_dark_outline(seed):
    """One player plays black: his core is barely lighter than every hunter's outline."""
    from .conftest import RenderedSet
    s = RenderedSet(seed, near_black=True)
    black = min(range(4), key=lambda k: sum(s.kit.palette.players[k]))
    assert max(s.kit.palette.players[black]) < 0.25
    scene = piece_cases(s.rng, s.tiles, 4, cases=("trap", "stack"))
    obs = _read(s, scene)
    assert f"c{black}" in obs.hunters or f"c{black}" not in scene.hunters
    assert pieces_wrong(obs, scene) == []


@pytest.mark.parametrize("seed", [21041, 21042])
def test_an_x_shaped_cross_print_is_not_read_as_a_hunter(seed):
    """The cross tile may carry an x instead of a + along the board's axes."""
    from .conftest import RenderedSet
    s = RenderedSet(seed, cross_shape="x")
    scene = piece_cases(s.rng, s.tiles, 4, cases=())
    bare_cross = Scene(scene.tiles, scene.mammoth, {k: c for k, c in scene.hunters.items() if c != CENTRE},
                       scene.traps)
    obs = _read(s, bare_cross)
    assert CENTRE not in obs.hunters.values() and CENTRE not in obs.occluded_cells
    assert pieces_wrong(obs, bare_cross) == []

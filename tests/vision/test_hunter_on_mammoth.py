"""A hunter on the mammoth's cell, from rendered frames: the reader shows both, and the
tracker takes it as the move under way (rules: a hunter may reach the mammoth's cell
mid-move; RULINGS flight)."""
import numpy as np

from engine.hexgrid import parse_cell
from sim.render import Kit, Scene, render_frame, setup_scenes
from vision.calibration import learn
from vision.reader import BoardReader
from vision.tracker import GameTracker

from .boards import WALLED, layout


def test_a_rendered_hunter_standing_on_the_mammoth_is_the_move_under_way_then_his_elimination():
    """Rocks wall the mammoth in: A walks 3 east onto it, the camera sees A's hunter on
    the mammoth's token (both read on 0,0), nothing is reported; then A's hunter leaves
    the board and the move with his elimination is proposed."""
    rng = np.random.default_rng(22001)
    kit = Kit.random(rng)
    tiles = layout(rocks=WALLED)
    calibration = learn([render_frame(s, kit.palette, kit.nudged(rng), rng)[0] for s in setup_scenes(tiles, rng, 2)])
    reader = BoardReader(calibration, lock_tiles=True)
    centre = parse_cell("0,0")

    def seen(hunters):
        scene = Scene(tiles, centre, {label: parse_cell(cell) for label, cell in hunters.items()}, {})
        return reader.read(render_frame(scene, kit.palette, kit.nudged(rng), rng)[0], 0.0)

    tracker = GameTracker(["A", "B"], tiles=tiles)
    tracker.observe(seen({"c0": "-3,0"}))
    tracker.observe(seen({"c0": "-3,0", "c1": "0,3"}))
    assert tracker.phase == "playing"
    on_mammoth = seen({"c0": "0,0", "c1": "0,3"})
    assert on_mammoth.mammoth == centre and on_mammoth.hunters == {"c0": centre, "c1": parse_cell("0,3")}
    tracker.observe(on_mammoth)
    assert tracker.actions == [] and tracker.reports == []
    tracker.observe(seen({"c1": "0,3"}))
    assert tracker.actions[-1]["action"] == {"type": "move", "hunter": "A", "direction": "E", "distance": 3}
    assert "hunter_eliminated" in [e["type"] for e in tracker.actions[-1]["events"]]

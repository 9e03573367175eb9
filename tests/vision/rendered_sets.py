"""Rendered sets for the vision tests: a random set's palette, camera and layout, its
setup frames and the calibration learnt from them."""

import numpy as np

import sim.flatart
import sim.tabletop
from vision.calibration import learn
from sim.render import Kit, random_layout, render_frame, setup_scenes


def write_fresh_tables(out, flatart_seeds, tabletop_seeds, reads: int = 8):
    """Tables of both outside generators (``sim.flatart``, ``sim.tabletop``) written to
    ``out``, ``reads`` read frames each; returns ``out``."""
    for generator, seeds in ((sim.flatart, flatart_seeds), (sim.tabletop, tabletop_seeds)):
        for seed in seeds:
            generator.write_table(generator.generate_table(seed, reads=reads), out)
    return out


class RenderedSet:
    """A set (palette, camera, layout) with its setup frames and calibration."""

    def __init__(self, seed: int, n_hunters: int = 4, cross_shape: str = "plus", **palette_options):
        self.rng = np.random.default_rng(seed)
        self.kit = Kit.random(self.rng, **palette_options)
        self.kit.palette.cross_shape = cross_shape
        self.tiles = random_layout(self.rng)
        self.setup = setup_scenes(self.tiles, self.rng, n_hunters)
        self.frames = [render_frame(s, self.kit.palette, self.kit.nudged(self.rng), self.rng)[0] for s in self.setup]
        self.calibration = learn(self.frames)

    def render(self, scene, **options):
        look = options.pop("look", None) or self.kit.nudged(self.rng)
        return render_frame(scene, self.kit.palette, look, self.rng, **options)

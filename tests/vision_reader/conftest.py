"""Shared rendered sets for the vision-reader tests.

Seeds here are below 100 000; ``maamut bench vision`` starts at 1 000 000, so the bench
always reads sets the tests never saw (and vice versa).
"""
import numpy as np
import pytest

from vision.calibration import learn
from sim.render import Kit, random_layout, render_frame, setup_scenes


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


@pytest.fixture(scope="session")
def rendered_set():
    return RenderedSet(4242)


@pytest.fixture(scope="session")
def held_out_set():
    """A set whose hunters and traps use outlines the bench never draws."""
    return RenderedSet(4343, hunter_shapes=("pentagon",), trap_shapes=("octagon",))

"""Shared rendered sets for the vision-reader tests.

Seeds here are below 100 000; ``maamut bench vision`` starts at 1 000 000, so the bench
always reads sets the tests never saw (and vice versa).
"""
import pytest

from .rendered_sets import RenderedSet


@pytest.fixture(scope="session")
def rendered_set():
    return RenderedSet(4242)


@pytest.fixture(scope="session")
def held_out_set():
    """A set whose hunters and traps use outlines the bench never draws."""
    return RenderedSet(4343, hunter_shapes=("pentagon",), trap_shapes=("octagon",))


@pytest.fixture
def colours_alone(monkeypatch):
    """Call it to read without the changes reader's last stage (vision.together: the
    pieces placed together by the models' odds), for tests of one of the colours'
    rules: that stage mends much of what a rule switched off leaves wrong."""
    import vision.reader

    def switch_off():
        monkeypatch.setattr(vision.reader, "place_together", lambda reading, *args, **odds: reading)
    return switch_off

"""The examples in the web modules' docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["companion_web", "companion_web.board_svg", "companion_web.config", "companion_web.hub",
           "companion_web.jsonio", "companion_web.live", "companion_web.sandbox", "companion_web.security",
           "companion_web.serve", "companion_web.view"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0

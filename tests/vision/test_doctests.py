"""The examples in the camera modules' docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import vision


def _with_examples(name: str) -> bool:
    return any(test.examples for test in doctest.DocTestFinder().find(importlib.import_module(name)))


#: Every camera module that shows examples (a module without any has nothing to check).
MODULES = [name for name in sorted(f"vision.{m.name}" for m in pkgutil.iter_modules(vision.__path__))
           if _with_examples(name)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0

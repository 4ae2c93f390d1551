"""Every runnable example in the public docstrings runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["schedlab", "schedlab.errors", "schedlab.stats", "schedlab.table", "schedlab.cli", "schedlab.lkp", "schedlab.mmtests", "schedlab.report", "schedlab.examples", "schedlab.pelt", "schedlab.idle", "schedlab.batch", "schedlab.distributed", "schedlab.live", "schedlab.trace"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no runnable example"

"""Every runnable example in the public docstrings runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
import schedlab

# the public modules, each of which must show at least one runnable example
MODULES = ["schedlab", "schedlab.errors", "schedlab.stats", "schedlab.table", "schedlab.cli", "schedlab.lkp", "schedlab.mmtests", "schedlab.report", "schedlab.examples", "schedlab.pelt", "schedlab.idle", "schedlab.batch", "schedlab.distributed", "schedlab.live", "schedlab.trace", "schedlab.bisect", "schedlab._testing"]
# every module of the package: whatever examples it has must run (a module missing from a
# hand list had a broken example nobody ran)
# (but __main__, which runs the command line when imported)
ALL = sorted({m.name for m in pkgutil.walk_packages(schedlab.__path__, "schedlab.")} - {"schedlab.__main__"}
             | set(MODULES))


@pytest.mark.parametrize("name", ALL)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if name in MODULES:
        assert result.attempted > 0, f"{name} has no runnable example"

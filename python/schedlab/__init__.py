"""schedlab: results, statistics and simulations for Linux kernel performance work.

Submodules load on first use, so ``import schedlab`` stays fast:

- :mod:`schedlab.stats`: means, spread, percent change by direction, Welch and
  Mann-Whitney tests, bootstrap intervals, Benjamini-Hochberg, batches.
- :mod:`schedlab.pelt`: PELT and util_est replayed with the kernel's integer math.

>>> import schedlab
>>> round(schedlab.stats.pct_change(4626, 4167, higher_is_better=True), 2)
-9.92
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    DomainError,
    FileNotFoundError,
    InsufficientDataError,
    ParseError,
    ReadError,
    SchedlabError,
)

__all__ = [
    "__version__",
    "SchedlabError",
    "ParseError",
    "InsufficientDataError",
    "DomainError",
    "ReadError",
    "FileNotFoundError",
    "stats",
    "table",
    "pelt",
]

_SUBMODULES = {"stats", "table", "cli", "pelt"}

if TYPE_CHECKING:  # pragma: no cover
    from . import stats as stats
    from . import table as table
    from . import pelt as pelt


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    if name == "__version__":
        from ._core import __version__ as version

        return version
    raise AttributeError(f"module 'schedlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _SUBMODULES | {"__version__"})

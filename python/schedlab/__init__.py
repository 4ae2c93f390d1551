"""schedlab: results, statistics and simulations for Linux kernel performance work.

Submodules load on first use, so ``import schedlab`` stays fast:

- :mod:`schedlab.stats`: means, spread, percent change by direction, Welch and
  Mann-Whitney tests, bootstrap intervals, Benjamini-Hochberg, batches.
- :mod:`schedlab.lkp`: lkp-tests (0-day robot) result roots, the ``lkp ncompare``
  table byte for byte, directions and verdicts, report parsing, plots.
- :mod:`schedlab.mmtests`: compare-mmtests.pl's tables from MMTests log trees,
  exactly per MMTests era, pasted-table parsing and overview tables.
- :mod:`schedlab.pelt`: PELT and util_est replayed with the kernel's integer math.
- :mod:`schedlab.idle`: cpuidle governors (menu, teo; 4.18–6.18) replayed exactly over idle traces.
- :mod:`schedlab.verdicts`: :func:`compare` (your own DataFrame of runs: many metrics,
  mixed directions, one call, better/worse/equivalent/inconclusive) and :func:`direction`.
- :mod:`schedlab.series`: :func:`change_points` (the commits where each metric of a
  history changed: E-divisive means as Apache Otava; a DataFrame, a CSV or result trees)
  and :func:`schedlab.series.history` (MMTests and lkp result trees as a tidy history).
- :mod:`schedlab.readers`: result files of perf stat, fio, hyperfine, pytest-benchmark,
  pyperf and google-benchmark as one tidy frame.
- :mod:`schedlab.batch`: CI batch mode: result archives in, BH-controlled verdicts
  and an exit code out; :mod:`schedlab.distributed` the same on a Dask cluster.

>>> import schedlab
>>> round(schedlab.stats.pct_change(4626, 4167, higher_is_better=True), 2)
-9.92
"""

from __future__ import annotations

import sys

from .errors import __all__ as _ERRORS  # the exception classes, named once in schedlab.errors

_SUBMODULES = ("stats", "table", "lkp", "mmtests", "idle", "report", "examples", "pelt", "cli", "batch", "distributed",
               "verdicts", "series", "readers")

_FUNCTIONS = {"compare": "verdicts", "direction": "verdicts", "change_points": "series"}
"""Functions offered at the top level, by the submodule that defines them (loaded on first use)."""

__all__ = [
    "__version__",
    *_ERRORS,
    *_FUNCTIONS,
    *(m for m in _SUBMODULES if m != "cli"),
]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from . import batch as batch
    from . import distributed as distributed
    from . import idle as idle
    from . import lkp as lkp
    from . import mmtests as mmtests
    from . import pelt as pelt
    from . import readers as readers
    from . import series as series
    from . import stats as stats
    from . import table as table
    from . import verdicts as verdicts
    from .errors import DomainError as DomainError
    from .errors import FileNotFoundError as FileNotFoundError
    from .errors import InsufficientDataError as InsufficientDataError
    from .errors import MissingDependencyError as MissingDependencyError
    from .errors import ParseError as ParseError
    from .errors import ReadError as ReadError
    from .errors import SchedlabError as SchedlabError
    from .errors import WriteError as WriteError
    from .series import change_points as change_points
    from .verdicts import compare as compare
    from .verdicts import direction as direction


def __getattr__(name: str) -> object:
    if name in _SUBMODULES:
        __import__(f"{__name__}.{name}")  # importlib.import_module, without importing importlib
        module = sys.modules[f"{__name__}.{name}"]
        globals()[name] = module
        return module
    if name in _FUNCTIONS:
        module_name = f"{__name__}.{_FUNCTIONS[name]}"
        __import__(module_name)
        value = getattr(sys.modules[module_name], name)
        globals()[name] = value
        return value
    if name in _ERRORS:
        __import__(f"{__name__}.errors")
        value = getattr(sys.modules[f"{__name__}.errors"], name)
        globals()[name] = value
        return value
    if name == "__version__":
        from ._core import __version__ as version

        return version
    raise AttributeError(f"module 'schedlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SUBMODULES) | set(_ERRORS) | set(_FUNCTIONS) | {"__version__"})

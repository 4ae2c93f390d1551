"""Test hooks (private): stop a core computation at a known point instead of timing a
signal (docs/cancel.md §3).

>>> import numpy as np
>>> from schedlab import _testing, stats
>>> with _testing.stop_after_checks(0):
...     stats.bootstrap_ci(np.arange(5.0), np.arange(5.0) + 1, n_resamples=100_000, seed=1)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
KeyboardInterrupt: ...
"""

from __future__ import annotations

from . import _core


def stop_after_checks(checks: int) -> _core._StopAfterChecks:
    """A context manager: while entered, this thread's core calls raise KeyboardInterrupt
    at their ``checks + 1``-th cancellation check (the parallel work they start too), as
    Ctrl-C pressed there would; calls after it run to their end."""
    return _core._StopAfterChecks(checks)

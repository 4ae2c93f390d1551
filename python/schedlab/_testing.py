"""Test hooks (private): stop a core computation at a known point instead of timing a
signal, or pause several at once to observe them together (docs/cancel.md §3).

>>> import numpy as np
>>> from schedlab import _testing, stats
>>> try:
...     with _testing.stop_after_checks(0):
...         stats.bootstrap_ci(np.arange(1.0, 6.0), np.arange(2.0, 7.0), n_resamples=100_000, seed=1)
... except KeyboardInterrupt:
...     print("stopped at the first check")
stopped at the first check
"""

from __future__ import annotations

from . import _core


def stop_after_checks(checks: int) -> _core._StopAfterChecks:
    """A context manager: while entered, this thread's core calls raise KeyboardInterrupt
    at their ``checks + 1``-th cancellation check (the parallel work they start too), as
    Ctrl-C pressed there would; calls after it run to their end."""
    return _core._StopAfterChecks(checks)


def pause_gate() -> _core._PauseGate:
    """A gate: under ``with gate.hold():`` this thread's core calls (and the parallel work
    they start) wait at their first cancellation check until ``gate.open()``;
    ``gate.wait_reached(n, seconds)`` waits, without the GIL, until ``n`` calls wait there
    (False after ``seconds``: a hang guard, not a time bound). A call whose gate is never
    opened stops with KeyboardInterrupt after a long guard time instead of hanging.

    >>> import threading
    >>> import numpy as np
    >>> from schedlab import _testing, stats
    >>> gate = _testing.pause_gate()
    >>> out = []
    >>> def work() -> None:
    ...     with gate.hold():
    ...         out.append(stats.bootstrap_ci(np.arange(1.0, 6.0), np.arange(2.0, 7.0), n_resamples=1000, seed=1))
    >>> t = threading.Thread(target=work); t.start()
    >>> gate.wait_reached(1, 120.0)   # the call waits inside the core, and this thread runs
    True
    >>> gate.open(); t.join(); len(out)
    1
    """
    return _core._PauseGate()

"""Timing shared by the benchmark scripts (run as ``python benchmarks/bench_*.py``, which
puts this directory on ``sys.path``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(repeat: int, fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """The fastest of ``repeat`` calls ``fn(*args)`` in seconds, and the last result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn(*args)
        best = min(best, time.perf_counter() - t)
    return best, out

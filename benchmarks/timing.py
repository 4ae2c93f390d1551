"""Timing shared by the benchmark scripts (run as ``python benchmarks/bench_*.py``, which
puts this directory on ``sys.path``)."""

from __future__ import annotations

import os
import shutil
import subprocess
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


#: GNU time, which measures the peak RSS of the command alone (see :func:`measured`)
TIME = shutil.which("time") or "/usr/bin/time"


def measured(argv: list[str], stdout=subprocess.DEVNULL) -> tuple[float, int, float]:
    """(wall seconds, peak RSS bytes, CPU seconds: user + system) of one run of ``argv``
    (on a loaded machine the CPU time is the figure that compares).

    The peak is the one GNU time reads from ``wait4`` for the process it starts: a
    child forked from this script would count this script's own pages (the kernel keeps
    the high-water mark of the image replaced by exec), so the script's ``wait4`` is not
    used for memory."""
    t = time.perf_counter()
    p = subprocess.Popen([TIME, "-f", "%M %U %S", *argv], stdout=stdout, stderr=subprocess.PIPE)
    _, status, _usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    err = p.stderr.read().decode() if p.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {err}")
    rss, user, system = err.split()[-3:]
    return wall, int(rss) * 1024, float(user) + float(system)

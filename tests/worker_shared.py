"""A value the pytest-xdist workers compute once and share.

A module fixture is made once per worker that runs one of the module's tests, so under
``pytest -n 2`` an expensive one (the example report, its render in Chromium) is made
twice. :func:`once` makes it in the first worker that asks, under a lock in the
directory the run's workers share, and the others read it from there. Without xdist
the directory is the run's own.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], Any]) -> tuple[Any, Path]:
    """``make(directory)``'s JSON value and its directory, made by one worker of this run.

    A ``make`` that fails (raises) records nothing: every worker that asks then makes it
    again and fails in its own tests."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's directory, above each worker's own
    directory = base / f"shared-{name}"
    done = base / f"shared-{name}.json"
    with (base / f"shared-{name}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            directory.mkdir(exist_ok=True)
            value = make(directory)
            done.write_text(json.dumps(value))
    return json.loads(done.read_text()), directory

"""Batch mode on a Dask cluster: the per-archive work mapped over workers, reduced to
the same :class:`schedlab.batch.BatchResult` as ``schedlab batch``.

:func:`compare_archives` puts the paths in a :mod:`dask.bag`; each task scans one
input in the Rust core (parse and extract, GIL released, at most ``threads``
rayon threads) and returns its scan as JSON text, or the error it raised (schedlab
errors pickle with their file, line and column). The scans come back in input
order and are reduced on the caller's side, where Benjamini-Hochberg runs across
every row of the run, so the result equals :func:`schedlab.batch.run`'s on the
same paths. Dask is an optional extra: ``pip install schedlab[dask]``.

>>> import pathlib, tempfile
>>> work = pathlib.Path(tempfile.mkdtemp()) / "work" / "log"
>>> for kernel, values in {"base": [10, 11, 10, 11], "new": [10, 11, 11, 10]}.items():
...     logs = work / kernel / "iter-0" / "hackbench-process-pipes" / "logs"
...     logs.mkdir(parents=True)
...     for i, v in enumerate(values, 1):
...         _ = (logs / f"hackbench-1-{i}").write_text(f"Total time: {v} [sec]\\n")
>>> from schedlab import batch
>>> local = batch.run([work.parent.parent], "base")
>>> try:
...     import dask  # the optional extra
...     r = compare_archives([work.parent.parent], "base")   # no client: this machine's threads
... except ImportError:
...     r = local
>>> r.exit_code, r.rows[0]["verdict"], r == local
(0, 'inconclusive', True)
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any, Union

from . import _core
from .batch import BatchResult, _check
from .errors import SchedlabError

__all__ = ["compare_archives", "scan_one"]

PathLike = Union[str, "os.PathLike[str]"]


def scan_one(path: str, threads: int | None = 1) -> tuple[str, str | None, BaseException | None]:
    """Scan one input: ``(path, scan JSON, None)``, or ``(path, None, error)`` when it
    cannot be read. Runs in Dask workers (spawned processes included); ``threads``
    bounds the rayon threads of this task (None: ``SCHEDLAB_NUM_THREADS`` or the CPUs).

    >>> path, scan, error = scan_one("/nonexistent")
    >>> scan is None, type(error).__name__
    (True, 'FileNotFoundError')
    """
    try:
        return (path, _core.batch_scan(path, threads), None)
    except SchedlabError as e:
        return (path, None, e)


def _scan_partition(paths: Iterable[str], threads: int | None) -> list[tuple[str, str | None, BaseException | None]]:
    return [scan_one(p, threads) for p in paths]


def compare_archives(paths: Iterable[PathLike], baseline: str, client: Any = None, *, test: str = "welch",
                     alpha: float = 0.05, min_change: float = 0.0, fail_on: str = "regression",
                     threads: int | None = 1, keep_going: bool = False,
                     npartitions: int | None = None, allow_missing: bool = False) -> BatchResult:
    """:func:`schedlab.batch.run` with the per-input work mapped over Dask.

    ``client``: a :class:`distributed.Client` to run on; None runs the bag on this
    machine with Dask's threaded scheduler. ``threads``: rayon threads per task
    (default 1: Dask already runs one task per worker thread, so a worker uses at most
    the threads it is given). ``npartitions``: tasks to split the paths into (default:
    four per worker thread, at most one per path). The other arguments are those of
    :func:`schedlab.batch.run`; the result is the same, errors included: without
    ``keep_going`` the first bad input in the order given raises its error.
    """
    import dask.bag as db

    _check(test, fail_on)
    items = [os.fspath(p) for p in paths]
    if not items:
        from .errors import DomainError

        raise DomainError("give at least one directory or archive")
    if npartitions is None:
        if client is not None:
            workers = sum(client.nthreads().values()) or 1
        else:
            workers = os.cpu_count() or 1
        npartitions = min(len(items), 4 * workers)
    bag = db.from_sequence(items, npartitions=max(1, npartitions)).map_partitions(_scan_partition, threads)
    if client is not None:
        scanned = client.compute(bag).result()
    else:
        scanned = bag.compute(scheduler="threads")
    outcomes: list[tuple[str, str | None, str | None]] = []
    for path, scan, error in scanned:
        if error is not None and not keep_going:
            raise error
        outcomes.append((path, scan, None if error is None else str(error)))
    text = _core.batch_reduce(outcomes, baseline, test, float(alpha), float(min_change), fail_on, None,
                              allow_missing)
    return BatchResult(json.loads(text))

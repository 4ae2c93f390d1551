"""Batch mode on a Dask cluster: the per-archive work mapped over workers, reduced to
the same :class:`schedlab.batch.BatchResult` as ``schedlab batch``.

:func:`scan_bag` is a :mod:`dask.bag` of :class:`schedlab.batch.Scan` (one task per
partition of inputs; each scan runs in the Rust core, GIL released, at most
``threads`` rayon threads); :func:`compare_archives` reduces it with
:func:`schedlab.batch.reduce` (Benjamini-Hochberg across every row of the run), so
the result equals :func:`schedlab.batch.run`'s on the same paths, errors included.
``compute=False`` returns the lazy :class:`dask.delayed.Delayed` instead
(``client.compute(d)`` gives a future). A task lost with its worker is run again
elsewhere by Dask; scans are pure, so nothing is counted twice. Paths may be fsspec
URLs of archives (``s3://...``). Other engines (Ray, Spark) map
:func:`schedlab.batch.scan` and call :func:`schedlab.batch.reduce` the same way.
Dask is an optional extra: ``pip install schedlab[dask]``.

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

import os
from collections.abc import Iterable
from typing import Any, Union

from . import _defaults
from .batch import BatchResult, Limits, Scan, _check, reduce, scan

__all__ = ["compare_archives", "scan_bag", "trace_compare"]

PathLike = Union[str, "os.PathLike[str]"]


def _scan_partition(paths: Iterable[str], threads: int | None, limits: Limits | None,
                    storage_options: dict[str, Any] | None) -> list[Scan]:
    return [scan(p, threads=threads, limits=limits, storage_options=storage_options) for p in paths]


def scan_bag(paths: Iterable[PathLike], *, threads: int | None = 1, limits: Limits | None = None,
             npartitions: int | None = None, client: Any = None,
             storage_options: dict[str, Any] | None = None) -> Any:
    """A lazy :class:`dask.bag.Bag` of the :class:`schedlab.batch.Scan` of each input,
    in input order. ``threads``: rayon threads per task (default 1: Dask already runs
    one task per worker thread). ``npartitions``: tasks to split the paths into
    (default: four per worker thread of ``client``, or of this machine, at most one
    per path). ``limits`` and ``storage_options`` as :func:`schedlab.batch.scan`.
    """
    import dask.bag as db

    items = [os.fspath(p) for p in paths]
    if not items:
        from .errors import DomainError

        raise DomainError("give at least one directory or archive")
    if npartitions is None:
        workers = (sum(client.nthreads().values()) if client is not None else os.cpu_count()) or 1
        npartitions = min(len(items), 4 * workers)
    bag = db.from_sequence(items, npartitions=max(1, npartitions))
    return bag.map_partitions(_scan_partition, threads, limits, storage_options)


def compare_archives(paths: Iterable[PathLike], baseline: str, client: Any = None, *, compute: bool = True,
                     test: str = _defaults.TEST, alpha: float = _defaults.ALPHA, min_change: float = 0.0,
                     fail_on: str = "regression", threads: int | None = 1, keep_going: bool = False,
                     npartitions: int | None = None, allow_missing: bool = False, margin: float | None = None,
                     power: float | None = None, limits: Limits | None = None,
                     storage_options: dict[str, Any] | None = None) -> Any:
    """:func:`schedlab.batch.run` with the per-input work mapped over Dask.

    ``client``: a :class:`distributed.Client` to run on; None runs on this machine
    with Dask's threaded scheduler. ``compute=False``: return the lazy
    :class:`dask.delayed.Delayed` of the :class:`schedlab.batch.BatchResult` (run it
    with ``.compute()`` or ``client.compute(...)``) instead of the result.
    ``threads``, ``npartitions``, ``limits``, ``storage_options``: as :func:`scan_bag`
    (the reduce, a task of its own, also runs on ``threads`` rayon threads).
    The other arguments are those of :func:`schedlab.batch.run`; the result is the
    same, errors included: without ``keep_going`` the first bad input in the order
    given raises its error.
    """
    import dask

    _check(test, fail_on)
    bag = scan_bag(paths, threads=threads, limits=limits, npartitions=npartitions, client=client,
                   storage_options=storage_options)
    lazy = dask.delayed(reduce, pure=True)(bag, baseline, test=test, alpha=alpha, min_change=min_change,
                                           fail_on=fail_on, keep_going=keep_going, allow_missing=allow_missing,
                                           margin=margin, power=power, jobs=threads)
    if not compute:
        return lazy
    if client is not None:
        result: BatchResult = client.compute(lazy).result()
        return result
    return lazy.compute(scheduler="threads")


def _trace_partition(items: Iterable[tuple[int, str]], options: Any, threads: int | None) -> list[tuple[int, Any]]:
    from . import _core

    return [(gi, m) for gi, path in items for m in _core.trace_metrics(path, options, threads=threads)]


def trace_compare(groups: Any, client: Any = None, *, baseline: str | None = None, compute: bool = True,
                  states: PathLike | None = None, comm: Iterable[str] = (), pid: Iterable[Any] = (),
                  governors: Iterable[str] = (), group_governors: dict[str, str] | None = None,
                  test: str = "welch", alpha: float | None = None, margin: float | None = None,
                  power: float | None = None, hz: int | None = None, strict: bool = False, threads: int | None = 1,
                  npartitions: int | None = None, util_tasks: Iterable[str | int] = ()) -> Any:
    """:func:`schedlab.trace.compare` with each trace's metrics pass mapped over Dask
    (one task per partition of paths, each pass in the Rust core at most ``threads``
    rayon threads) and the compare reduced in one task: the same
    :class:`~schedlab.table.Comparison`. ``client``, ``compute`` and ``npartitions`` as
    :func:`compare_archives`; the other arguments as :func:`schedlab.trace.compare`.

    >>> from schedlab import examples, trace
    >>> runs = examples.path("trace")
    >>> groups = {"menu": sorted(runs.glob("menu-*.txt")), "teo": sorted(runs.glob("teo-*.txt"))}
    >>> try:
    ...     import dask  # the optional extra
    ...     c = trace_compare(groups)   # no client: this machine's threads
    ... except ImportError:
    ...     c = trace.compare(groups)
    >>> c == trace.compare(groups)
    True
    """
    import dask
    import dask.bag as db

    from . import trace as _trace

    g = _trace._groups(groups, baseline)
    own = dict(group_governors or {})
    specs = list(governors) + [v for v in own.values()]
    opts = _trace._options(states, comm, pid, specs, hz, strict, util_tasks)
    items = [(gi, p) for gi, (_, paths) in enumerate(g) for p in paths]
    if npartitions is None:
        workers = (sum(client.nthreads().values()) if client is not None else os.cpu_count()) or 1
        npartitions = min(len(items), 4 * workers) or 1
    bag = db.from_sequence(items, npartitions=max(1, npartitions)).map_partitions(_trace_partition, opts, threads)

    def reduce_(measured: list[tuple[int, Any]]) -> Any:
        per: list[list[Any]] = [[] for _ in g]
        for gi, m in measured:
            per[gi].append(m)
        return _trace.compare_metrics([(name, ms) for (name, _), ms in zip(g, per)], group_governors=own, test=test,
                                      alpha=alpha, margin=margin, power=power, threads=threads)

    lazy = dask.delayed(reduce_, pure=True)(bag)
    if not compute:
        return lazy
    if client is not None:
        return client.compute(lazy).result()
    return lazy.compute(scheduler="threads")

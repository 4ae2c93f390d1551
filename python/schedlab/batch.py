"""CI batch mode: whole result archives in, machine-readable verdicts and an exit code out.

:func:`run` reads every input (a directory, or a ``.tar``, ``.tar.gz``/``.tgz``,
``.tar.xz`` or ``.zip`` archive read in memory without unpacking), finds every
MMTests run (either log layout) and every lkp result root in it, compares each
kernel or commit with the ``baseline`` of its group, and decides every metric with
a p-value (Welch's t-test, or Mann-Whitney U), Benjamini-Hochberg control across
all rows of the run, an equivalence test (TOST) against ``margin`` percent and the
runs needed for ``power`` against it (docs/verdicts.md): better, worse, equivalent
or inconclusive. The parsing and
statistics run in the Rust core, in parallel; the result is a :class:`BatchResult`
(picklable) whose JSON form follows the versioned schema :data:`SCHEMA_PATH`
(docs/batch.md). ``schedlab batch`` is the same from the command line;
:func:`schedlab.distributed.compare_archives` the same on a Dask cluster.

>>> import pathlib, tempfile
>>> work = pathlib.Path(tempfile.mkdtemp()) / "work" / "log"
>>> times = {"base": [0.081, 0.083, 0.080, 0.082, 0.081],
...          "patched": [0.090, 0.091, 0.089, 0.092, 0.090]}
>>> for kernel, values in times.items():
...     logs = work / kernel / "iter-0" / "hackbench-process-pipes" / "logs"
...     logs.mkdir(parents=True)
...     for i, v in enumerate(values, 1):
...         _ = (logs / f"hackbench-4-{i}").write_text(f"Total time: {v} [sec]\\n")
>>> r = run([work.parent.parent], baseline="base")
>>> r.exit_code, r.summary["worse"]
(1, 1)
>>> row = r.rows[0]   # mean time 0.0814 s -> 0.0904 s: 100 - 100 * 0.0904 / 0.0814 = -11.06 %
>>> row["metric"], row["statistic"], row["verdict"], round(row["change_pct"], 2)
('4', 'amean', 'worse', -11.06)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from typing import Any, NamedTuple, Union

from . import _core, _defaults

__all__ = [
    "SCHEMA_NAME",
    "SCHEMA_VERSION",
    "SCHEMA_PATH",
    "FORMATS",
    "FAIL_ON",
    "TESTS",
    "MARKDOWN_BUDGET",
    "BatchResult",
    "LIMIT_DEFAULTS",
    "Limits",
    "Scan",
    "reduce",
    "run",
    "scan",
    "schema",
]

PathLike = Union[str, "os.PathLike[str]"]

#: The ``schema`` field of a result document (the core's).
SCHEMA_NAME = _core.BATCH_SCHEMA_NAME
#: The ``version`` field of a result document (the core's).
SCHEMA_VERSION = _core.BATCH_SCHEMA_VERSION
#: The JSON Schema of the result document, shipped in the package.
SCHEMA_PATH = str(resources.files("schedlab") / "schemas" / "batch-result.schema.json")
#: Output formats of :meth:`BatchResult.render` and ``schedlab batch --format`` (from the core).
FORMATS = tuple(_core.BATCH_FORMATS)
#: The default size budget of the markdown, in bytes (a pull-request comment takes 65,536 characters).
MARKDOWN_BUDGET: int = _core.BATCH_MARKDOWN_BUDGET
#: Values of ``fail_on`` (from the core).
FAIL_ON = tuple(_core.BATCH_FAIL_ON)
#: Values of ``test`` (from the core).
TESTS = tuple(_core.TEST_NAMES)


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a result document.

    >>> schema()["properties"]["version"]["const"]
    1
    """
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        return json.load(f)


#: The result of a batch run (the core's own, immutable, picklable): every compared
#: metric with its verdict (``.rows``, dicts of the schema's row fields), the counts
#: (``.summary``) and the exit code ``schedlab batch`` returns (0 fine, 1 a significant
#: regression per ``fail_on``, 2 an input could not be read or data is missing, 3 an
#: inconclusive row with ``fail_on="inconclusive"``); ``.data`` is the whole JSON
#: document as a dict, ``BatchResult(data)`` reads one back, and ``render(format)``
#: writes each of :data:`FORMATS`.
BatchResult = _core.BatchResult


def _check(test: str, fail_on: str) -> None:
    from .errors import DomainError

    if test not in TESTS:
        raise DomainError(f"test must be one of {', '.join(TESTS)}, got {test!r}")
    if fail_on not in FAIL_ON:
        raise DomainError(f"fail_on must be one of {', '.join(FAIL_ON)}, got {fail_on!r}")


class Limits(NamedTuple):
    """Bounds on reading one archive (None: the core's default, :data:`LIMIT_DEFAULTS`).
    An entry or archive over them is refused with the input named (docs/batch.md,
    "Inputs"); raise them for larger results."""

    #: Decompressed bytes of one entry.
    entry_bytes: int | None = None
    #: Decompressed bytes of one archive (also bounds a URL's download).
    archive_bytes: int | None = None
    #: Entries of one archive.
    entries: int | None = None


#: The core's default of each bound of :class:`Limits` (src/batch/options.rs).
LIMIT_DEFAULTS = Limits(*_core.BATCH_LIMITS)


def _bounds(limits: Limits | None) -> tuple[int | None, int | None, int | None]:
    lim = limits or Limits()
    for name, v in zip(Limits._fields, lim):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 2**62):
            from .errors import DomainError

            raise DomainError(f"Limits.{name} must be an integer in 1..2**62 (or None), got {v!r}")
    return (lim.entry_bytes, lim.archive_bytes, lim.entries)


#: One input read (the core's own, immutable, picklable: its JSON is the pickle form a
#: Dask worker sends back): ``input`` as given, and either the scan (``.ok``; its
#: ``runs``, ``failed`` and ``skipped`` benchmarks, ``warnings``, ``missing``,
#: ``notes``, ``.data`` the whole scan as a dict) or ``error`` (the
#: :class:`schedlab.SchedlabError` that stopped it). Made by :func:`scan`, combined
#: by :func:`reduce`.
Scan = _core.Scan


def _is_url(path: str) -> bool:
    return "://" in path and not os.path.exists(path)


def scan(path: PathLike, *, threads: int | None = 1, limits: Limits | None = None,
         storage_options: dict[str, Any] | None = None) -> Scan:
    """Read one input: the map half of a batch run, for any engine (Dask, Ray, Spark,
    a process pool); :func:`reduce` combines the scans.

    ``path``: a directory or archive, or an fsspec URL of an archive (``s3://``,
    ``gs://``, ``https://``...; needs :mod:`fsspec` and the filesystem's package,
    ``storage_options`` passed to it), downloaded into memory within
    ``limits.archive_bytes``. ``threads`` bounds the rayon threads of this call (None:
    ``SCHEDLAB_NUM_THREADS`` or the CPUs). A bad input does not raise: the
    :class:`Scan` carries its error, so :func:`reduce` decides (``keep_going``).

    >>> s = scan("/nonexistent")
    >>> s.ok, s.data is None, type(s.error).__name__
    (False, True, 'FileNotFoundError')
    """
    from .errors import SchedlabError

    name = os.fspath(path)
    bounds = _bounds(limits)
    if _is_url(name):
        try:
            data = _download(name, bounds[1], storage_options)
        except SchedlabError as e:
            return Scan.from_error(name, e)
        return _core.batch_scan_bytes(data, input=name, threads=threads, bounds=bounds)
    return _core.batch_scan(name, threads=threads, bounds=bounds)


def _download(url: str, limit: int | None, storage_options: dict[str, Any] | None) -> bytes:
    from .errors import ParseError, ReadError

    try:
        import fsspec
    except ImportError:
        from .errors import MissingDependencyError

        raise MissingDependencyError(f"{url}: reading a URL needs fsspec: pip install fsspec") from None
    limit = _core.BATCH_LIMITS[1] if limit is None else limit
    try:
        with fsspec.open(url, "rb", **(storage_options or {})) as f:
            data = f.read(limit + 1)
    except (OSError, ValueError, ImportError) as e:
        raise ReadError(f"{url}: cannot read: {e}", url) from None
    if len(data) > limit:
        raise ParseError(f"archive larger than the limit of {limit} bytes (raise Limits.archive_bytes)", url)
    return bytes(data)


def reduce(scans: Iterable[Scan], baseline: str, *, test: str = _defaults.TEST, alpha: float = _defaults.ALPHA,
           min_change: float = 0.0, fail_on: str = "regression", keep_going: bool = False,
           allow_missing: bool = False, margin: float | None = None, power: float | None = None,
           jobs: int | None = None, sequential: bool = False) -> BatchResult:
    """Combine the :func:`scan` of every input, in input order, into the result: the
    reduce half of a batch run (Benjamini-Hochberg across every row of every scan),
    so the result equals :func:`run`'s on the same paths whatever engine ran the scans.

    Without ``keep_going`` the first scan (in the order given) that carries an error
    raises it; with it, such inputs are listed in :attr:`BatchResult.errors`. The other
    arguments are :func:`run`'s.

    >>> try:
    ...     reduce([scan("/nonexistent")], "v6.8")
    ... except FileNotFoundError as e:
    ...     print(e.path)
    /nonexistent
    """
    _check(test, fail_on)
    return _core.batch_reduce(list(scans), baseline=baseline, test=test, alpha=float(alpha),
                              min_change=float(min_change), fail_on=fail_on, jobs=jobs, keep_going=keep_going,
                              allow_missing=allow_missing, margin=None if margin is None else float(margin),
                              power=None if power is None else float(power), sequential=sequential)


Progress = bool | str | Callable[[int], object]


def run(paths: Iterable[PathLike] | PathLike, baseline: str, *, test: str = _defaults.TEST, alpha: float = _defaults.ALPHA,
        min_change: float = 0.0, fail_on: str = "regression", jobs: int | None = None,
        keep_going: bool = False, progress: Progress = False, allow_missing: bool = False,
        margin: float | None = None, power: float | None = None, limits: Limits | None = None,
        sequential: bool = False) -> BatchResult:
    """Compare every kernel or commit found in ``paths`` with ``baseline``.

    ``paths``: directories or archives (each may hold many MMTests runs and lkp
    result roots). ``baseline``: the baseline kernel (MMTests run name) or commit
    (lkp; a unique prefix of 7+ characters also matches). ``test``: ``"welch"`` or
    ``"mann-whitney"``. A row is equivalent when TOST shows its change within
    ± ``margin`` percent (default 2) at ``alpha``; else better or worse when its
    BH-adjusted p-value (q, across all rows) is below ``alpha`` and its change is at
    least ``min_change`` percent; else inconclusive, with the runs a side that give
    ``power`` (default 0.8) against a change of the margin. ``fail_on`` decides the
    exit code (``"regression"``: 1; ``"any-change"``: 1 for any change;
    ``"inconclusive"``: 1 for a regression, else 3 for an inconclusive row; ``"never"``). ``jobs`` bounds the worker threads (default: ``SCHEDLAB_NUM_THREADS``
    or the CPUs). Without ``keep_going`` the first unreadable input (in the order
    given) raises its :class:`schedlab.SchedlabError`, naming the file and archive
    entry; with it, such inputs are listed in :attr:`BatchResult.errors` (exit code 2).
    Data found missing (an unreadable directory, a log without a result line, a metric
    without samples on a side) is listed in :attr:`BatchResult.missing` and makes the
    exit code 2 unless ``allow_missing`` (docs/batch.md: fail closed). ``limits``
    bounds each archive (:class:`Limits`). ``sequential`` decides each row by the
    confidence sequence of its runs in the order taken, valid however often the run
    is repeated as runs are added, with e-BH across the rows (docs/sequential.md);
    each row then has ``sequential`` evidence (``decided_at``, ``low``, ``high``,
    ``e_value``, ``more_runs``).

    ``progress``: ``True`` draws a bar on stderr (rate and time left), ``"lines"``
    prints a line every 5 seconds (for a CI log), and a callable is called in the
    calling thread with the number of inputs just finished (``1``) as each scan
    ends, so ``tqdm``'s ``update`` fits (``with tqdm(total=len(paths)) as bar:
    run(paths, base, progress=bar.update)``; ``tqdm.notebook`` in Jupyter).

    >>> import schedlab
    >>> try:
    ...     run(["/nonexistent.tar.gz"], baseline="v6.8")
    ... except schedlab.FileNotFoundError as e:
    ...     print(e.path)
    /nonexistent.tar.gz
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    names: list[str] = [os.fspath(p) for p in paths]
    _check(test, fail_on)
    bounds = _bounds(limits)
    kw: dict[str, Any] = dict(test=test, alpha=alpha, min_change=min_change, fail_on=fail_on,
                              allow_missing=allow_missing, margin=margin, power=power, sequential=sequential)
    if callable(progress) or any(_is_url(n) for n in names):
        return reduce(_scans(names, jobs, limits, progress if callable(progress) else None), baseline,
                      keep_going=keep_going, jobs=jobs, **kw)
    modes: dict[object, str] = {True: "bar", False: "off", "bar": "bar", "lines": "lines", "off": "off"}
    mode = modes.get(progress)
    if mode is None:
        from .errors import DomainError

        raise DomainError(f"progress must be True, False, 'lines' or a callable, got {progress!r}")
    return _core.batch_run(list[str | os.PathLike[str]](names), baseline=baseline, test=test, alpha=float(alpha),
                           min_change=float(min_change), fail_on=fail_on, jobs=jobs, keep_going=keep_going,
                           progress=mode, allow_missing=allow_missing, margin=None if margin is None else float(margin),
                           power=None if power is None else float(power), bounds=bounds, sequential=sequential)


def _scans(names: list[str], jobs: int | None, limits: Limits | None,
           callback: Callable[[int], object] | None) -> Iterator[Scan]:
    """Scan ``names`` on ``jobs`` threads (the scans release the GIL), calling
    ``callback(1)`` in this thread as each ends; the scans in input order."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    workers = jobs or _core.default_threads()
    done: list[Scan | None] = [None] * len(names)
    with ThreadPoolExecutor(max_workers=min(workers, max(1, len(names)))) as pool:
        futures = {pool.submit(scan, n, threads=1, limits=limits): i for i, n in enumerate(names)}
        for f in as_completed(futures):
            done[futures[f]] = f.result()
            if callback is not None:
                callback(1)
    return iter([d for d in done if d is not None])

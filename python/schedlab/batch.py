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
from typing import TYPE_CHECKING, Any, NamedTuple, Union

from . import _core

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "SCHEMA_NAME",
    "SCHEMA_VERSION",
    "SCHEMA_PATH",
    "FORMATS",
    "FAIL_ON",
    "TESTS",
    "MARKDOWN_BUDGET",
    "BatchResult",
    "Limits",
    "Scan",
    "reduce",
    "run",
    "scan",
    "schema",
]

PathLike = Union[str, "os.PathLike[str]"]

#: The ``schema`` field of a result document.
SCHEMA_NAME = "schedlab-batch"
#: The ``version`` field of a result document (Rust ``batch::result::RESULT_VERSION``).
SCHEMA_VERSION = 1
#: The JSON Schema of the result document, shipped in the package.
SCHEMA_PATH = str(resources.files("schedlab") / "schemas" / "batch-result.schema.json")
#: Output formats of :meth:`BatchResult.render` and ``schedlab batch --format`` (from the core).
FORMATS = tuple(_core.BATCH_FORMATS)
#: The default size budget of the markdown, in bytes (a pull-request comment takes 65,536 characters).
MARKDOWN_BUDGET = 60_000
#: Values of ``fail_on``.
FAIL_ON = ("regression", "any-change", "inconclusive", "never")
#: Values of ``test`` (from the core).
TESTS = tuple(_core.TEST_NAMES)


#: The fields every result document has (the schema's ``required``).
_REQUIRED = ("schedlab_version", "options", "inputs", "rows", "unmatched", "summary", "warnings", "errors",
             "missing", "exit_code")


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a result document.

    >>> schema()["properties"]["version"]["const"]
    1
    """
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        return json.load(f)


class BatchResult:
    """The result of a batch run: every compared metric with its verdict, counts, and
    the exit code ``schedlab batch`` returns (0 fine, 1 a significant regression per
    ``fail_on``, 2 an input could not be read).

    The data is the JSON document (a dict, ``.data``), so a result pickles, travels
    between processes and round-trips through :meth:`to_json`/:meth:`from_json`.

    >>> r = BatchResult.from_json(json.dumps({
    ...     "schema": "schedlab-batch", "version": 1, "schedlab_version": "0.1.0",
    ...     "options": {"baseline": "a", "test": "welch", "alpha": 0.05,
    ...                 "min_change": 0.0, "fail_on": "regression", "allow_missing": False},
    ...     "inputs": [], "rows": [], "unmatched": [], "warnings": [], "errors": [], "missing": [],
    ...     "summary": {"inputs": 0, "comparisons": 0, "rows": 0, "better": 0, "worse": 0,
    ...                 "changed": 0, "noise": 0, "not_enough_data": 0},
    ...     "exit_code": 0}))
    >>> r.exit_code, len(r.rows)
    (0, 0)
    """

    __slots__ = ("data",)

    def __init__(self, data: dict[str, Any]) -> None:
        if not isinstance(data, dict) or data.get("schema") != SCHEMA_NAME or data.get("version") != SCHEMA_VERSION:
            from .errors import DomainError

            raise DomainError(f"not a {SCHEMA_NAME} version {SCHEMA_VERSION} document: "
                              + (f"schema={data.get('schema')!r} version={data.get('version')!r}"
                                 if isinstance(data, dict) else f"a JSON {type(data).__name__}"))
        absent = [k for k in _REQUIRED if k not in data]
        if absent:
            from .errors import ParseError

            raise ParseError(f"not a complete {SCHEMA_NAME} document: no {', '.join(absent)}", "<json>")
        self.data = data

    def __getstate__(self) -> dict[str, Any]:
        return {"data": self.data}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.data = state["data"]

    def __eq__(self, other: object) -> bool:
        """Equal results: the same document apart from ``timings`` (measurements, which
        differ between two runs on the same inputs)."""
        if not isinstance(other, BatchResult):
            return False
        strip = ("timings",)
        return ({k: v for k, v in self.data.items() if k not in strip}
                == {k: v for k, v in other.data.items() if k not in strip})

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        s = self.summary
        return (f"BatchResult(baseline={self.options['baseline']!r}, rows={s['rows']}, worse={s['worse']}, "
                f"better={s['better']}, exit_code={self.exit_code})")

    @classmethod
    def from_json(cls, text: str) -> BatchResult:
        """Read a result document (as :meth:`to_json` or ``schedlab batch --format json`` writes it)."""
        from .errors import ParseError

        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ParseError(f"invalid batch result JSON: {e.msg}", "<json>", e.lineno) from None
        except RecursionError:
            raise ParseError("invalid batch result JSON: nested too deeply", "<json>") from None
        return cls(data)

    @classmethod
    def from_jsonl(cls, text: str) -> BatchResult:
        """Read the JSON-lines form (``to_jsonl``, ``schedlab batch --format jsonl``)."""
        return cls(json.loads(_core.batch_from_jsonl(text)))

    @property
    def timings(self) -> dict[str, Any]:
        """Measured seconds: ``total``, per input ``inputs``, per row ``rows`` (empty in
        documents written before they were recorded)."""
        return self.data.get("timings") or {"total": 0.0, "inputs": [], "rows": []}

    @property
    def exit_code(self) -> int:
        """0: no significant regression; 1: a row fails under ``fail_on``; 2: an input could not be read."""
        return int(self.data["exit_code"])

    @property
    def options(self) -> dict[str, Any]:
        """The options the result was computed with (baseline, test, alpha, min_change, fail_on)."""
        return self.data["options"]

    @property
    def rows(self) -> list[dict[str, Any]]:
        """Every compared metric (see the schema for the fields)."""
        return self.data["rows"]

    @property
    def summary(self) -> dict[str, int]:
        """Counts: inputs, comparisons, rows, better, worse, changed, noise, not_enough_data."""
        return self.data["summary"]

    @property
    def regressions(self) -> list[dict[str, Any]]:
        """The rows judged worse."""
        return [r for r in self.rows if r["verdict"] == "worse"]

    @property
    def unmatched(self) -> list[dict[str, Any]]:
        """Runs found but not compared (no baseline with the same benchmark and setup)."""
        return self.data["unmatched"]

    @property
    def warnings(self) -> list[str]:
        """What was skipped and why."""
        return self.data["warnings"]

    @property
    def errors(self) -> list[dict[str, str]]:
        """Inputs that could not be read (``keep_going`` only): ``{"input", "message"}``."""
        return self.data["errors"]

    @property
    def missing(self) -> list[dict[str, str]]:
        """Data that should be there and is not (exit code 2 unless ``allow_missing``):
        ``{"input", "message"}``, the message naming the directory or log."""
        return self.data["missing"]

    def to_json(self, indent: int | None = None) -> str:
        """The result document as JSON text (schema :data:`SCHEMA_PATH`)."""
        return json.dumps(self.data, indent=indent)

    def render(self, format: str, max_bytes: int | None = None) -> str:
        """The result in one of :data:`FORMATS` (what ``schedlab batch --format`` writes):
        ``"json"``, ``"jsonl"`` (JSON lines), ``"junit"``, ``"markdown"`` (within
        ``max_bytes``, default :data:`MARKDOWN_BUDGET`), ``"github"`` (workflow-command
        annotations), ``"html"`` (the table :meth:`_repr_html_` shows) or ``"text"``."""
        return _core.batch_render(self.to_json(), format, max_bytes)

    def to_jsonl(self) -> str:
        """JSON lines: a header record, one record per input and per row (each with its
        measured ``seconds``), and an end record with the counts and lists (docs/batch.md)."""
        return self.render("jsonl")

    def to_github(self) -> str:
        """GitHub Actions annotations: ``::error file=...,title=...::message`` for input
        errors, missing data and failing rows, ``::warning`` for inconclusive rows and
        warnings (at most 10 of each, as GitHub shows), then a ``::notice`` headline."""
        return self.render("github")

    def to_junit(self) -> str:
        """JUnit XML: one testcase per compared metric, a ``<failure>`` per regression
        (and per significant change with ``fail_on="any-change"``), ``<skipped>`` when
        there is not enough data, and an ``inputs`` suite with an ``<error>`` per bad input."""
        return self.render("junit")

    def to_markdown(self, max_bytes: int | None = None) -> str:
        """Markdown for a pull-request comment within ``max_bytes`` (default
        :data:`MARKDOWN_BUDGET`): the headline, the comparisons with a row to look at,
        then the rows that are not equivalent, regressions first, as many as fit; each
        cut says what it left out."""
        return self.render("markdown", max_bytes)

    def _repr_html_(self) -> str:
        """The result for Jupyter, styled as :meth:`schedlab.table.Comparison._repr_html_`:
        the headline, then up to 50 rows that are not equivalent (regressions first)
        with p, q and the equivalence p visible; every text escaped."""
        return self.render("html")

    def to_text(self) -> str:
        """Plain text for a terminal."""
        return self.render("text")

    def to_pandas(self) -> pd.DataFrame:
        """One row per compared metric, the columns of the schema's ``rows`` items."""
        import pandas as pd

        cols = ["tool", "benchmark", "setup", "era", "metric", "statistic", "direction", "kernel", "baseline",
                "input", "base_input", "n_base", "n_new", "mean_base", "mean_new", "change_pct", "p", "q",
                "test", "p_equivalent", "power", "runs_needed", "more_runs", "verdict"]
        df = pd.DataFrame.from_records(self.rows, columns=cols)
        for c in ("mean_base", "mean_new", "change_pct", "p", "q", "p_equivalent", "power"):
            df[c] = pd.to_numeric(df[c], errors="coerce").astype("float64")
        return df


def _check(test: str, fail_on: str) -> None:
    from .errors import DomainError

    if test not in TESTS:
        raise DomainError(f"test must be one of {', '.join(TESTS)}, got {test!r}")
    if fail_on not in FAIL_ON:
        raise DomainError(f"fail_on must be one of {', '.join(FAIL_ON)}, got {fail_on!r}")


class Limits(NamedTuple):
    """Bounds on reading one archive (None: the default). An entry or archive over them
    is refused with the input named (docs/batch.md, "Inputs"); raise them for larger results."""

    #: Decompressed bytes of one entry (default 64 MiB).
    entry_bytes: int | None = None
    #: Decompressed bytes of one archive (default 256 MiB; also bounds a URL's download).
    archive_bytes: int | None = None
    #: Entries of one archive (default 100,000).
    entries: int | None = None


_DEFAULT_ARCHIVE_BYTES = 256 << 20


def _bounds(limits: Limits | None) -> tuple[int | None, int | None, int | None]:
    lim = limits or Limits()
    for name, v in zip(Limits._fields, lim):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 2**62):
            from .errors import DomainError

            raise DomainError(f"Limits.{name} must be an integer in 1..2**62 (or None), got {v!r}")
    return (lim.entry_bytes, lim.archive_bytes, lim.entries)


class Scan:
    """One input read (picklable, so it can come back from any worker): ``input`` as
    given, and either ``data`` (the scan, JSON text) or ``error`` (the
    :class:`schedlab.SchedlabError` that stopped it). Made by :func:`scan`, combined
    by :func:`reduce`."""

    __slots__ = ("input", "data", "error")

    def __init__(self, input: str, data: str | None, error: BaseException | None = None) -> None:
        self.input, self.data, self.error = input, data, error

    def __getstate__(self) -> tuple[str, str | None, BaseException | None]:
        return (self.input, self.data, self.error)

    def __setstate__(self, state: tuple[str, str | None, BaseException | None]) -> None:
        self.input, self.data, self.error = state

    def __repr__(self) -> str:
        what = f"error={self.error!r}" if self.error is not None else f"{len(self.data or '')} bytes"
        return f"Scan({self.input!r}, {what})"


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
    >>> s.data is None, type(s.error).__name__
    (True, 'FileNotFoundError')
    """
    from .errors import SchedlabError

    name = os.fspath(path)
    bounds = _bounds(limits)
    try:
        if _is_url(name):
            return Scan(name, _core.batch_scan_bytes(_download(name, bounds[1], storage_options), name, threads,
                                                     bounds))
        return Scan(name, _core.batch_scan(name, threads, bounds))
    except SchedlabError as e:
        return Scan(name, None, e)


def _download(url: str, limit: int | None, storage_options: dict[str, Any] | None) -> bytes:
    from .errors import ParseError, ReadError

    try:
        import fsspec
    except ImportError:
        from .errors import MissingDependencyError

        raise MissingDependencyError(f"{url}: reading a URL needs fsspec: pip install fsspec") from None
    limit = _DEFAULT_ARCHIVE_BYTES if limit is None else limit
    try:
        with fsspec.open(url, "rb", **(storage_options or {})) as f:
            data = f.read(limit + 1)
    except (OSError, ValueError, ImportError) as e:
        raise ReadError(f"{url}: cannot read: {e}", url) from None
    if len(data) > limit:
        raise ParseError(f"archive larger than the limit of {limit} bytes (raise Limits.archive_bytes)", url)
    return bytes(data)


def reduce(scans: Iterable[Scan], baseline: str, *, test: str = "welch", alpha: float = 0.05,
           min_change: float = 0.0, fail_on: str = "regression", keep_going: bool = False,
           allow_missing: bool = False, margin: float | None = None, power: float | None = None,
           jobs: int | None = None) -> BatchResult:
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
    items: list[tuple[str, str | None, str | None]] = []
    for s in scans:
        if s.error is not None and not keep_going:
            raise s.error
        items.append((s.input, s.data, None if s.error is None else str(s.error)))
    if not items:
        from .errors import DomainError

        raise DomainError("give at least one directory or archive")
    text = _core.batch_reduce(items, baseline, test, float(alpha), float(min_change), fail_on, jobs, allow_missing,
                              None if margin is None else float(margin), None if power is None else float(power))
    return BatchResult(json.loads(text))


Progress = bool | str | Callable[[int], object]


def run(paths: Iterable[PathLike] | PathLike, baseline: str, *, test: str = "welch", alpha: float = 0.05,
        min_change: float = 0.0, fail_on: str = "regression", jobs: int | None = None,
        keep_going: bool = False, progress: Progress = False, allow_missing: bool = False,
        margin: float | None = None, power: float | None = None, limits: Limits | None = None) -> BatchResult:
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
    bounds each archive (:class:`Limits`).

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
                              allow_missing=allow_missing, margin=margin, power=power)
    if callable(progress) or any(_is_url(n) for n in names):
        return reduce(_scans(names, jobs, limits, progress if callable(progress) else None), baseline,
                      keep_going=keep_going, jobs=jobs, **kw)
    modes: dict[object, str] = {True: "bar", False: "off", "bar": "bar", "lines": "lines", "off": "off"}
    mode = modes.get(progress)
    if mode is None:
        from .errors import DomainError

        raise DomainError(f"progress must be True, False, 'lines' or a callable, got {progress!r}")
    text = _core.batch_run(list[str | os.PathLike[str]](names), baseline, test, float(alpha), float(min_change), fail_on, jobs, keep_going, mode,
                           allow_missing, None if margin is None else float(margin),
                           None if power is None else float(power), bounds)
    return BatchResult(json.loads(text))


def _scans(names: list[str], jobs: int | None, limits: Limits | None,
           callback: Callable[[int], object] | None) -> Iterator[Scan]:
    """Scan ``names`` on ``jobs`` threads (the scans release the GIL), calling
    ``callback(1)`` in this thread as each ends; the scans in input order."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    workers = jobs or int(os.environ.get("SCHEDLAB_NUM_THREADS", "0") or 0) or os.cpu_count() or 1
    done: list[Scan | None] = [None] * len(names)
    with ThreadPoolExecutor(max_workers=min(workers, max(1, len(names)))) as pool:
        futures = {pool.submit(scan, n, threads=1, limits=limits): i for i, n in enumerate(names)}
        for f in as_completed(futures):
            done[futures[f]] = f.result()
            if callback is not None:
                callback(1)
    return iter([d for d in done if d is not None])

"""lkp-tests (Intel 0-day robot) results: result roots, the ``lkp ncompare`` table byte
for byte, and what the robot leaves out (directions, verdicts, p-values).

A commit's *multi-result root* is the directory holding ``matrix.json`` (or
``matrix.json.gz``) with one value per run per metric, and run subdirectories ``0/ 1/
...`` with ``job.yaml`` (the header axes) and raw outputs. The computing is in the Rust
core (``src/lkp``); this module shapes the results.

>>> from schedlab import lkp
>>> rows = lkp.parse_report("4626 -9.9% 4167 unixbench.score")
>>> rows[["metric", "base", "change", "head"]].values.tolist()
[['unixbench.score', 4626.0, -9.9, 4167.0]]
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union

from . import _core, _text
from .table import Comparison

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "ResultRoot",
    "LkpComparison",
    "load",
    "compare",
    "run_stats",
    "unite",
    "parse_report",
    "parse_comparison",
    "text_plot",
    "gnuplot_script",
]

PathLike = Union[str, "os.PathLike[str]"]


class ResultRoot(_core.ResultRoot):
    """A commit's multi-result root as the core loaded it: ``matrix.json[.gz]`` (arrays
    shorter than the run count zero-filled as lkp does) and the axes of ``job.yaml``.

    It holds the core's value itself: :func:`compare` compares it as it is, without
    reading its files again, and it cannot be changed. ``path``, ``commit``, ``axes``,
    ``runs``, ``keys`` and ``stats_source`` describe it; ``values(metric)`` gives one
    metric's per-run values, ``matrix`` (metric → values) and ``integer`` (metric → whether
    each value is an lkp Integer) build the whole matrix when asked for.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "matrix.json").write_text('{"a.b": [1, 2], "stats_source": ["x", "y", "z"]}')
    >>> r = ResultRoot(d)
    >>> r.values("a.b"), r.runs, "a.b" in r
    ([1.0, 2.0, 0.0], 3, True)
    """

    def to_pandas(self) -> pd.DataFrame:
        """Metrics × runs DataFrame (index: metric, columns: run number)."""
        import pandas as pd

        return pd.DataFrame.from_dict(self.matrix, orient="index")


def load(path: PathLike) -> ResultRoot:
    """Load a commit's multi-result root (``matrix.json[.gz]`` + the axes of ``job.yaml``).

    ``path`` may also be a ``.tar``, ``.tar.gz``/``.tgz``, ``.tar.xz`` or ``.zip`` archive
    holding one result root (read in memory; a root at its top is named after the file).

    Arrays shorter than the run count are zero-filled as lkp does; a malformed matrix
    raises :class:`schedlab.ParseError` naming the file (and line).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "matrix.json").write_text('{"a.b": [1, 2], "stats_source": ["x", "y", "z"]}')
    >>> r = load(d)
    >>> r.matrix["a.b"], r.runs
    ([1.0, 2.0, 0.0], 3)
    """
    return ResultRoot(os.fspath(path))


def _root(p: PathLike | _core.ResultRoot) -> str | _core.ResultRoot:
    """A root for the core: a loaded one as it is, else its path."""
    return p if isinstance(p, _core.ResultRoot) else os.fspath(p)


class LkpComparison(Comparison):
    """The :class:`schedlab.table.Comparison` of an lkp compare (``tool == "lkp"``).

    ``to_text()`` is the ``lkp ncompare`` table byte for byte; ``to_pandas()`` adds each
    row's direction, each head's verdict, p-value (``test``) and whether the robot's own
    range rule selects it (``significant``); :meth:`plot` draws the per-run samples.
    """

    def plot(self, metric: str, ax: Any = None) -> Any:
        """Per-run samples of ``metric`` per commit (matplotlib, imported lazily).

        Base samples are drawn as a dotted line with ``+`` markers (the robot's "good"
        runs), every head's as ``o`` markers (its "bad" runs). Returns the Axes.
        """
        from ._plot import pyplot

        plt = pyplot()
        row = next((r for r in self.rows if r.name == metric), None)
        if row is None:
            raise KeyError(f"{metric!r} is not a row of this comparison")
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 3.5))
        for i, (kernel, cell) in enumerate(zip(self.kernels, row.cells)):
            ys = cell.samples or []
            xs = list(range(1, len(ys) + 1))
            label = f"{kernel[:12]} (base)" if i == 0 else kernel[:12]
            if i == 0:
                ax.plot(xs, ys, linestyle=":", marker="+", label=label)
            else:
                ax.plot(xs, ys, linestyle="none", marker="o", label=label)
        arrow = {"higher": " (higher is better)", "lower": " (lower is better)"}.get(row.direction, "")
        ax.set_title(metric + arrow)
        ax.set_xlabel("run")
        ax.set_ylabel(metric)
        ax.legend(loc="best", fontsize="small")
        return ax

    def text_plot(self, metric: str, head: int = 1) -> str:
        """The robot's 80×20 ASCII plot of ``metric``: base runs dotted, head runs ``O``."""
        row = next((r for r in self.rows if r.name == metric), None)
        if row is None:
            raise KeyError(f"{metric!r} is not a row of this comparison")
        return text_plot(metric, row.cells[head].samples or [], row.cells[0].samples or [])


def compare(base: PathLike | ResultRoot, *heads: PathLike | ResultRoot, all_keys: bool = False,
            more: bool = False, test: str = "welch", alpha: float = 0.05, kpi: bool = False,
            perf_profile_threshold: float | None = None) -> LkpComparison:
    """Compare heads with a base as ``lkp ncompare [-a] [-m] [-k] [-p T] BASE HEAD...`` does.

    ``all_keys`` is ``-a`` (every metric, no filter), ``more`` is ``-m`` (also
    deny-listed monitors such as ``interrupts.*``), ``kpi`` is ``-k`` (only the test
    programs' own metrics), ``perf_profile_threshold`` is ``-p`` (a Float threshold for
    ``perf-profile.*`` rows; None keeps lkp's Integer 5). Verdicts use ``test`` ("welch"
    or "mann-whitney") at ``alpha`` on the per-run samples.

    >>> import json, tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> for name, v in (("base", [4626, 4610, 4641, 4626]), ("head", [4167, 4150, 4180, 4170])):
    ...     (root / name).mkdir()
    ...     _ = (root / name / "matrix.json").write_text(json.dumps(
    ...         {"unixbench.score": v, "stats_source": ["0", "1", "2", "3"]}))
    >>> c = compare(root / "base", root / "head")
    >>> print(c.to_text().splitlines()[-2])
          4625            -9.9%       4166        unixbench.score
    >>> df = c.to_pandas()
    >>> df.loc[df.kernel == "head", ["direction", "verdict"]].values.tolist()
    [['higher', 'worse']]
    """
    if not heads:
        raise TypeError("compare() needs at least one head")
    return LkpComparison(_core.lkp_compare([_root(base)] + [_root(h) for h in heads], all_keys=all_keys, more=more,
                                           test=test, alpha=alpha, kpi=kpi,
                                           perf_profile_threshold=perf_profile_threshold))


def compare_text(base: PathLike | ResultRoot, *heads: PathLike | ResultRoot, all_keys: bool = False,
                 more: bool = False, kpi: bool = False, perf_profile_threshold: float | None = None) -> str:
    """The ``lkp ncompare`` text directly (what ``schedlab lkp compare`` prints); the
    roots and options as in :func:`compare`."""
    return _core.lkp_compare_text([_root(base)] + [_root(h) for h in heads], all_keys=all_keys, more=more, kpi=kpi,
                                  perf_profile_threshold=perf_profile_threshold)


def run_stats(run_dir: PathLike) -> dict[str, float]:
    """A run's ``stats.json`` computed from its raw outputs (unixbench, ``*.time``,
    interrupts, cpuidle, vmstat, mpstat, turbostat, perf-stat), key order kept; lkp's
    Integers are ``int``."""
    return _core.lkp_run_stats(os.fspath(run_dir))


def run_stats_json(run_dir: PathLike) -> str:
    """:func:`run_stats` as the exact text lkp writes."""
    return _core.lkp_run_stats_json(os.fspath(run_dir))


def unite(root: PathLike, write: bool = True, label: str | None = None) -> tuple[str, str, str]:
    """Build ``matrix.json``, ``avg.json`` and ``stddev.json`` of a result root from its
    run directories (lkp's ``unite`` step); ``stats_source`` entries are
    ``<label or root>/<n>/stats.json``. Writes the files unless ``write`` is false, each
    through :func:`schedlab._output.write` (a temporary file renamed on success): a root
    that cannot be written raises :class:`~schedlab.errors.WriteError` before any file
    is touched, and a failing write leaves the old file as it was."""
    from . import _output
    from .errors import WriteError

    root = os.fspath(root)
    runs = _core.lkp_run_dirs(root)
    prefix = label if label is not None else root
    texts = _core.lkp_unite([(str(r), f"{prefix}/{os.path.basename(str(r))}") for r in runs])
    if write:
        if not os.access(root, os.W_OK | os.X_OK):
            raise WriteError(f"cannot write matrix.json, avg.json, stddev.json in {root}: the directory is not "
                             "writable; copy the result root somewhere writable or use --dry-run", root)
        for name, text in zip(("matrix.json", "avg.json", "stddev.json"), texts):
            _output.write(os.path.join(root, name), text)
    return texts


def parse_report(text: str) -> pd.DataFrame:
    """Parse a ``%stddev %change`` table pasted from mail (aligned or whitespace-collapsed).

    One row per metric: ``section`` ("perf" or "failure"), ``metric``, ``base``,
    ``base_stddev`` (the printed ``±%``, NaN where not shown), ``change``,
    ``change_unit`` ("%" or "" for absolute changes), ``head``, ``head_stddev``, and for
    failure rows ``base_runs``/``head_runs``; further heads get ``_2``, ``_3``… suffixes.
    """
    import pandas as pd

    rep = _core.lkp_parse_report(_text.text(text))
    records = []
    for r in rep["rows"]:
        rec: dict[str, Any] = {"section": r["section"], "metric": r["metric"]}
        base = r["cells"][0]
        rec["base"] = base["value"]
        rec["base_stddev"] = base["stddev_pct"]
        rec["base_runs"] = base["runs"]
        for i, (chg, cell) in enumerate(zip(r["changes"], r["cells"][1:])):
            sfx = "" if i == 0 else f"_{i + 1}"
            rec["change" + sfx] = chg
            rec["change_unit" + sfx] = "" if r["absolute"] else "%"
            rec["head" + sfx] = cell["value"]
            rec["head_stddev" + sfx] = cell["stddev_pct"]
            rec["head_runs" + sfx] = cell["runs"]
        records.append(rec)
    cols = ["section", "metric", "base", "base_stddev", "change", "change_unit", "head", "head_stddev",
            "base_runs", "head_runs"]
    df = pd.DataFrame.from_records(records)
    for c in cols:
        if c not in df.columns:
            df[c] = None
    extra = [c for c in df.columns if c not in cols]
    df = df[cols + extra]
    for c in ("base", "base_stddev", "change", "head", "head_stddev"):
        df[c] = pd.to_numeric(df[c], errors="coerce").astype("float64")
    df.attrs["commits"] = rep["commits"]
    return df


def parse_comparison(text: str) -> LkpComparison:
    """A pasted ``%stddev %change`` table as a :class:`~schedlab.table.Comparison`:
    value, ``spread`` (the printed ±%), ``change`` and schedlab's direction per metric;
    ``.to_text()`` prints it back in lkp's layout.

    >>> c = parse_comparison('''
    ...      4626           -9.9%       4167        unixbench.score
    ... ''')
    >>> c.rows[0].name, c.rows[0].direction, c.rows[0].cells[1].change
    ('unixbench.score', 'higher', -9.9)
    """
    return LkpComparison(_core.lkp_parse_report_comparison(_text.text(text)))


def text_plot(title: str, bad: Sequence[float], good: Sequence[float]) -> str:
    """The robot's 80×20 ASCII plot (gnuplot ``dumb``): ``bad`` runs as ``O``, ``good``
    runs dotted with ``+``; 20 lines, no trailing newline."""
    return _core.lkp_text_plot(title, [float(x) for x in bad], [float(x) for x in good])


def gnuplot_script(title: str, bad: Sequence[float], good: Sequence[float]) -> str:
    """The gnuplot script lkp's ``mmplot`` writes for the same plot."""
    return _core.lkp_text_plot(title, [float(x) for x in bad], [float(x) for x in good], script=True)

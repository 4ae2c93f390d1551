"""Change points over a commit history: :func:`change_points` finds, for every
metric, the commits where its level changed, by E-divisive means as Apache Otava
does it (sliding windows, Student's t-test, then the weakest change points merged
away; docs/change-points.md), or by the original permutation test.

>>> import pandas as pd
>>> df = pd.DataFrame({
...     "commit": [f"c{i}" for i in range(11)] * 2,
...     "metric": ["unixbench.score"] * 11 + ["hackbench-process-pipes"] * 11,
...     "value": [1.02, 0.95, 0.99, 1.00, 1.12, 0.90, 0.50, 0.51, 0.48, 0.48, 0.55,
...               2.02, 2.03, 2.01, 2.04, 1.82, 1.85, 1.79, 1.81, 1.80, 1.76, 1.78]})
>>> r = change_points(df, commit="commit", metric="metric", value="value")
>>> r[["metric", "commit", "direction", "verdict"]].values.tolist()
[['unixbench.score', 'c6', 'higher', 'worse'], ['hackbench-process-pipes', 'c4', 'lower', 'better']]
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from .errors import DomainError
from .verdicts import _direction_of

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["change_points", "history", "plot", "COLUMNS"]

#: The columns of :func:`change_points`' result, in order.
COLUMNS = ("metric", "commit", "index", "direction", "mean_before", "mean_after", "std_before", "std_after",
           "change", "p", "verdict", "test", "window", "max_p", "min_change")


def history(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], order: Sequence[str] | None = None) -> pd.DataFrame:
    """The MMTests runs, lkp result roots and result files of benchmark tools (perf
    stat, fio, hyperfine, ...: a directory or a file per commit) in ``paths``
    (directories, archives or files) as a tidy frame: one row per run and metric
    with the mean of the run's samples (columns ``commit``: the kernel, commit or
    directory, ``metric``, ``value``, NaN where a run lacks the metric, and
    ``direction``), the runs in history order: ``order`` (every run name once), else
    by the start dates the files record when every run has one, else the natural
    order of the names (6.9 before 6.10), else as found (docs/change-points.md §5).
    What the scan skipped is in ``.attrs["warnings"]``, what ordered the runs in
    ``.attrs["order"]``.

    >>> from schedlab import examples
    >>> h = history(examples.path("mmtests"), order=["4.18.0-menu", "4.18.0-teo-v1", "4.18.0-teo-v6"])
    >>> list(h["commit"].unique())
    ['4.18.0-menu', '4.18.0-teo-v1', '4.18.0-teo-v6']
    """
    import pandas as pd

    many = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    t = _core.series_trees([os.fspath(p) for p in many], None if order is None else [str(o) for o in order])
    runs, metrics = t["runs"], t["metrics"]
    values = np.asarray(t["values"], dtype=np.float64).reshape(len(metrics), len(runs))
    df = pd.DataFrame({
        "commit": np.repeat(np.asarray(runs, dtype=object), len(metrics)),
        "metric": np.tile(np.asarray(metrics, dtype=object), len(runs)),
        "value": values.T.ravel(),
        "direction": np.tile(np.asarray(t["directions"], dtype=object), len(runs)),
    })
    df.attrs["warnings"] = list(t["warnings"])
    df.attrs["order"] = str(t["order"])
    return df


def _matrix(data: object, commit: str | None, metric: str | None, value: str | None
            ) -> tuple[list[object], list[object], np.ndarray]:
    """(commits, metric names, metrics × commits values with NaN for no result)."""
    import pandas as pd

    if not isinstance(data, pd.DataFrame):
        x = np.asarray(data, dtype=np.float64)
        if x.ndim != 1:
            raise DomainError(f"a series must be one-dimensional, got shape {x.shape}; give a DataFrame for many metrics")
        return list(range(len(x))), [value or "value"], x.reshape(1, -1)
    for col in (commit, metric, value):
        if col is not None and col not in data.columns:
            raise DomainError(f"no column {col!r} in the DataFrame (columns: {', '.join(map(str, data.columns))})")
    if (metric is None) != (value is None):
        raise DomainError("give both metric= and value= (a tidy frame) or neither (one column per metric)")
    if metric is not None and value is not None:
        if commit is None:
            raise DomainError("a tidy frame needs commit= (the column that orders the history)")
        # repeated runs at one commit count as their mean
        wide = (data.groupby([metric, commit], sort=False)[value].mean()
                .unstack(commit).reindex(columns=pd.unique(data[commit])))
        return list(wide.columns), list(wide.index), wide.to_numpy(dtype=np.float64)
    labels = list(data[commit]) if commit is not None else list(data.index)
    cols = [c for c in data.columns if c != commit]
    bad = [c for c in cols if not pd.api.types.is_numeric_dtype(data[c])]
    if bad:
        raise DomainError(f"column {bad[0]!r} is not numeric; name the commit column with commit=")
    return labels, cols, data[cols].to_numpy(dtype=np.float64).T.copy()


def change_points(
    data: pd.DataFrame | object,
    commit: str | None = None,
    metric: str | None = None,
    value: str | None = None,
    direction: str | None = None,
    directions: Mapping[object, str] | None = None,
    *,
    window: int | None = None,
    max_p: float | None = None,
    min_change: float | None = None,
    permutations: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    order: Sequence[str] | None = None,
) -> pd.DataFrame:
    """The change points of every metric of ``data`` over its commits, in order.

    ``data`` is a tidy DataFrame (columns ``commit``, ``metric``, ``value``; the
    commits in history order, repeated runs of a commit averaged), a wide one (one
    column per metric, the commits in column ``commit`` or the index), or one
    series (a list or numpy array), or result trees: a path or a list of paths
    (directories, archives) read by :func:`history` in ``order``. A missing value (NaN) takes the one before it,
    as Otava fills gaps. A metric's direction is ``directions[name]``, else
    ``direction`` for all, else the tree's (MMTests' or lkp's) or
    :func:`schedlab.direction` of its name.

    ``window`` (values per sliding window, default 50), ``max_p`` (default 0.001)
    and ``min_change`` (the smallest change kept, in percent, default 0: Otava's
    ``min_magnitude`` times 100) are Otava's options; ``permutations=N`` switches
    to the original E-divisive permutation test over the whole series (shuffles
    from ``seed``).

    Returns one row per change point: ``metric``, ``commit`` (the first commit
    after the change), ``index`` (its position), ``direction``, the means and
    population standard deviations of the segments before and after (between the
    neighbouring change points), ``change`` (percent, positive = better; for an
    unknown direction positive = an increase), ``p``, ``verdict`` (``better``,
    ``worse`` or ``changed``), and the rule: ``test, window, max_p, min_change``.
    """
    import pandas as pd

    if isinstance(data, (str, os.PathLike)) or (isinstance(data, (list, tuple)) and data
                                                  and all(isinstance(p, (str, os.PathLike)) for p in data)):
        h = history(data, order)
        if direction is None:
            directions = {**dict(zip(h["metric"], h["direction"])), **(directions or {})}
        data, commit, metric, value = h, "commit", "metric", "value"
    elif order is not None:
        raise DomainError("order= is for result trees (paths); order a DataFrame's rows instead")
    commits, names, x = _matrix(data, commit, metric, value)
    dirs = [_direction_of(m, direction, directions) for m in names]
    d_window, d_max_p, d_min_magnitude = _core.series_defaults()
    window = d_window if window is None else int(window)
    max_p = d_max_p if max_p is None else float(max_p)
    min_change = d_min_magnitude * 100.0 if min_change is None else float(min_change)
    if len(commits) == 0:
        raise DomainError("the history has no commits")
    cols = _core.change_points(np.ascontiguousarray(x, dtype=np.float64).ravel(), len(commits), dirs, window=window,
                               max_p=max_p, min_magnitude=min_change / 100.0, permutations=permutations,
                               seed=int(seed), threads=threads)
    rows = np.asarray(cols["metric"], dtype=np.int64)
    index = np.asarray(cols["index"], dtype=np.int64)
    out = pd.DataFrame({
        "metric": [names[i] for i in rows],
        "commit": [commits[i] for i in index],
        "index": index,
        "direction": [dirs[i] for i in rows],
    })
    for k in ("mean_before", "mean_after", "std_before", "std_after", "change", "p"):
        out[k] = cols[k]
    out["verdict"] = cols["verdict"]
    out["test"] = "t-test" if permutations is None else "permutation"
    out["window"] = window
    out["max_p"] = max_p
    out["min_change"] = min_change
    return out


def plot(
    data: pd.DataFrame | object,
    result: pd.DataFrame,
    commit: str | None = None,
    metric: str | None = None,
    value: str | None = None,
    *,
    metrics: list[object] | None = None,
    most: int = 8,
) -> Any:
    """A matplotlib figure of ``data``'s metrics (``metrics``, default the first
    ``most`` with a change point in ``result``, the frame :func:`change_points` gave
    for the same ``data``, ``commit``, ``metric`` and ``value``): each series, the
    means of its segments between change points, and a dashed line at each change
    point labelled with its change (percent, positive = better) and p-value. Needs the
    ``plot`` extra (matplotlib)."""
    from ._plot import pyplot

    commits, names, x = _matrix(data, commit, metric, value)
    chosen = list(metrics) if metrics is not None else list(dict.fromkeys(result["metric"]))[:most]
    plt = pyplot()
    fig, axes = plt.subplots(max(len(chosen), 1), 1, figsize=(10, 2.6 * max(len(chosen), 1)), squeeze=False)
    for ax, name in zip(axes[:, 0], chosen):
        if name not in names:
            raise DomainError(f"no metric {name!r} in the data")
        y = x[names.index(name)]
        ax.plot(np.arange(len(y)), y, lw=0.8, color="0.45")
        rows = result[result["metric"] == name]
        cuts = [0, *rows["index"].tolist(), len(y)]
        for a, b in zip(cuts[:-1], cuts[1:]):
            ax.hlines(np.nanmean(y[a:b]), a, b - 1, color="tab:blue", lw=1.6)
        for row in rows.itertuples():
            colour = {"better": "tab:green", "worse": "tab:red"}.get(str(row.verdict), "tab:orange")
            ax.axvline(int(row.index), color=colour, ls="--", lw=1)
            ax.annotate(f"{row.commit}: {row.change:+.1f}% (p {row.p:.2g})", (int(row.index), 1.0),
                        xycoords=("data", "axes fraction"), ha="left", va="top", fontsize=8, color=colour)
        ax.set_title(str(name), fontsize=9, loc="left")
    axes[-1, 0].set_xlabel(f"commit index (0 = {commits[0]})" if commits else "commit index")
    fig.tight_layout()
    return fig

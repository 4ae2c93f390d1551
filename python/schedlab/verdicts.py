"""Verdicts on your own results: :func:`compare` decides many metrics at once, each
in its own direction, and :func:`direction` says which way is better for a metric name.

The verdicts are the core's four outcomes (docs/verdicts.md): ``better``/``worse``
(the difference test's Benjamini-Hochberg q < alpha across every metric and group of
the call), ``equivalent`` (TOST shows the change within ± ``margin`` percent of the
baseline mean), ``inconclusive`` (neither; ``runs_needed`` says how many runs a side
give Welch's t-test ``power`` against a change of the margin), plus ``changed`` for an
unknown direction and ``not_enough_data`` below two runs a side.

>>> import pandas as pd
>>> df = pd.DataFrame({
...     "kernel": ["base"] * 5 + ["head"] * 5 + ["base"] * 5 + ["head"] * 5,
...     "metric": ["unixbench.score"] * 10 + ["hackbench-process-pipes"] * 10,
...     "value": [4610, 4632, 4641, 4619, 4628, 4160, 4171, 4155, 4180, 4169,
...               1.00, 1.02, 0.99, 1.01, 1.00, 1.00, 1.01, 0.99, 1.01, 1.00]})
>>> r = compare(df, value="value", group="kernel", baseline="base", metric="metric")
>>> r[["metric", "direction", "verdict"]].values.tolist()
[['unixbench.score', 'higher', 'worse'], ['hackbench-process-pipes', 'lower', 'equivalent']]
>>> direction("unixbench.score"), direction("hackbench-process-pipes"), direction("schbench:RPS-50.0th-4")
('higher', 'lower', 'higher')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from . import _core
from .errors import DomainError
from .stats import _pack

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["compare", "direction", "DIRECTIONS"]

#: The values of a direction (from the core).
DIRECTIONS = tuple(_core.DIRECTIONS)


def direction(name: str) -> str:
    """Which way is better for ``name``: ``"higher"``, ``"lower"`` or ``"unknown"``.

    An MMTests benchmark (``"netperf-udp"``) or ``"benchmark:operation"``
    (``"schbench:Wakeup-99.0th-4"``) goes by MMTests' module for the newest era that
    reads it; anything else by schedlab's table of lkp metric families
    (``"unixbench.score"``, ``"hackbench.throughput"``).

    >>> direction("netperf-udp"), direction("will-it-scale.per_process_ops"), direction("vmstat.system.cs")
    ('higher', 'higher', 'unknown')
    """
    return _core.direction(str(name))


def _direction_of(metric: object, default: str | None, table: Mapping[object, str] | None) -> str:
    d = table.get(metric) if table is not None else None
    if d is None:
        d = default if default is not None else direction(str(metric))
    if d not in DIRECTIONS:
        raise DomainError(f"direction of {metric!r} must be one of {', '.join(DIRECTIONS)}, got {d!r}")
    return d


def compare(
    df: pd.DataFrame,
    value: str,
    group: str,
    baseline: object,
    metric: str | None = None,
    direction: str | None = None,
    directions: Mapping[object, str] | None = None,
    *,
    test: str = "welch",
    alpha: float | None = None,
    margin: float | None = None,
    power: float | None = None,
    min_change: float = 0.0,
    threads: int | None = None,
) -> pd.DataFrame:
    """Compare every group of ``df`` with ``baseline``, per metric, in one call.

    ``df`` is tidy: one row per run, the measurement in column ``value``, the kernel
    (or commit, or setting) in column ``group``, and, for several metrics, the
    metric's name in column ``metric``. A metric's direction is ``directions[name]``
    when given, else ``direction`` (one of :data:`DIRECTIONS`, for every metric),
    else looked up with :func:`direction`. ``test`` (``"welch"`` or
    ``"mann-whitney"``), ``alpha`` (default 0.05), ``margin`` (percent, default 2),
    ``power`` (default 0.8) and ``min_change`` (percent) are the verdict rule;
    Benjamini-Hochberg runs across every row of the result.

    Returns one row per (metric, group other than the baseline) with the columns
    ``metric, group, baseline, direction, n_base, n_new, mean_base, mean_new`` (the
    arithmetic means), ``change`` (percent, positive = better; for an unknown
    direction positive = an increase), ``p, q, p_equivalent``, ``power`` (of Welch's
    t-test against a change of the margin with these runs), ``runs_needed``,
    ``more_runs``, ``verdict``, ``warnings``, and the rule itself: ``test, alpha,
    margin, target_power``.
    """
    import pandas as pd

    for col in (value, group) + ((metric,) if metric is not None else ()):
        if col not in df.columns:
            raise DomainError(f"no column {col!r} in the DataFrame (columns: {', '.join(map(str, df.columns))})")
    if not (df[group] == baseline).any():
        raise DomainError(f"baseline {baseline!r} is not a value of column {group!r}")
    keys = list(pd.unique(df[metric])) if metric is not None else [None]
    groups = [g for g in pd.unique(df[group]) if g != baseline]
    rows, bases, news, dirs = [], [], [], []
    for m in keys:
        sub = df if m is None else df[df[metric] == m]
        base = sub.loc[sub[group] == baseline, value].to_numpy(dtype=np.float64)
        d = _direction_of(m if m is not None else value, direction, directions)
        for g in groups:
            new = sub.loc[sub[group] == g, value].to_numpy(dtype=np.float64)
            if len(new) == 0:
                continue
            rows.append((value if m is None else m, g, baseline, d))
            bases.append(base)
            news.append(new)
            dirs.append(d)
    bv, bl = _pack(bases, "base")
    nv, nl = _pack(news, "new")
    cols = _core.assess(bv, bl, nv, nl, dirs, test=str(test), alpha=alpha, margin=margin, power=power,
                        min_change=float(min_change), threads=threads)
    out = pd.DataFrame(rows, columns=["metric", "group", "baseline", "direction"])
    for k in ("n_base", "n_new", "mean_base", "mean_new", "change", "p", "q", "p_equivalent", "power"):
        out[k] = cols[k]
    out["runs_needed"] = pd.array(cols["runs_needed"], dtype="Int64")
    out["more_runs"] = pd.array(cols["more_runs"], dtype="Int64")
    out["verdict"] = cols["verdict"]
    out["warnings"] = cols["warnings"]
    out["test"] = str(test)
    for k in ("alpha", "margin", "target_power"):  # the rule the core applied
        out[k] = cols[k]
    return out

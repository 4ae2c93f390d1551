"""Statistics for comparing kernels: numbers you can check against scipy and MMTests.

Every function takes any 1-D array-like of real numbers (a list, an int or float
numpy array; contiguous float64 arrays are used without a copy) and returns a
Python float or a small named result. The computing is done in Rust with the GIL
released.

Inputs are read, never written: no function modifies an array it is given (a
read-only array works; tests/test_hostile_arrays.py). A contiguous float64 array is
read in place while the call runs with the GIL released, so another thread writing
to it during the call makes the result undefined (as for any reader of shared
memory): pass a copy (``np.array(x)``) when other threads may write to it. Other
arrays are converted to a new float64 array first.

Undefined cases raise, they never return a silently wrong number:

- an empty sample, or fewer samples than a statistic needs (``stddev`` of one
  sample, a test with fewer than two samples per side) → :class:`InsufficientDataError`;
- NaN or infinite input, ``hmean``/``gmean`` of a non-positive value, a percent
  change against a non-positive baseline, a mean of 0 in ``coeff_var``, a result
  that overflows → :class:`DomainError`.

The only NaN results are documented ones: Welch's test of two zero-variance
samples with equal means (as scipy), and the per-element cells of the batch
functions, which carry the reason in their ``error`` column.

Sign convention (MMTests'): a percent change is **positive when the new value is
better**, for either direction of metric.

>>> from schedlab import stats
>>> base = [4610, 4632, 4641, 4619, 4628]
>>> head = [4160, 4171, 4155, 4180, 4169]
>>> round(stats.pct_change(stats.amean(base), stats.amean(head), higher_is_better=True), 2)
-9.92
>>> stats.welch_ttest(base, head).p < 1e-6
True
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple, overload

import numpy as np
import numpy.typing as npt

from . import _core
from .errors import DomainError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "amean",
    "hmean",
    "gmean",
    "median",
    "percentile",
    "min",
    "max",
    "stddev",
    "coeff_var",
    "bamean",
    "ci_mean",
    "pct_change",
    "ratio",
    "gmean_ratio",
    "welch_ttest",
    "mann_whitney_u",
    "bootstrap_ci",
    "fdr_bh",
    "sequential",
    "summarize_many",
    "compare_many",
    "MeanCI",
    "WelchResult",
    "MannWhitneyResult",
    "BootstrapResult",
]

_NUMERIC_KINDS = "biuf"


def _vec(x: npt.ArrayLike, name: str = "x") -> np.ndarray:
    """``x`` as a 1-D float64 array (no copy when it already is one)."""
    try:
        a = np.asarray(x)
        if a.dtype.kind not in _NUMERIC_KINDS:
            if a.dtype.kind in "cmMSUV":
                raise TypeError(f"values of dtype {a.dtype} are not real numbers")
            a = a.astype(np.float64)
        elif a.dtype != np.float64:
            a = a.astype(np.float64)
    except (TypeError, ValueError, OverflowError) as e:
        raise DomainError(f"{name} must be a 1-D array of real numbers: {e}") from None
    if a.ndim != 1:
        raise DomainError(f"{name} must be 1-D, got an array of shape {a.shape}")
    return a


class MeanCI(NamedTuple):
    """A confidence interval of the mean."""

    mean: float
    low: float
    high: float
    level: float


class WelchResult(NamedTuple):
    """Welch's t-test: statistic, Welch–Satterthwaite degrees of freedom, two-sided p."""

    t: float
    df: float
    p: float


class MannWhitneyResult(NamedTuple):
    """Mann–Whitney U of the first sample and the two-sided p-value."""

    u: float
    p: float


class BootstrapResult(NamedTuple):
    """Percentile bootstrap interval of statistic(new)/statistic(base)."""

    estimate: float
    low: float
    high: float
    level: float
    n_resamples: int
    seed: int


def amean(x: npt.ArrayLike) -> float:
    """Arithmetic mean.

    >>> amean([1, 2, 4])
    2.3333333333333335
    """
    return _core.amean(_vec(x))


def hmean(x: npt.ArrayLike) -> float:
    """Harmonic mean n/Σ(1/x), MMTests' Hmean for higher-is-better data; values must be > 0.

    >>> hmean([1, 2, 4])
    1.7142857142857142
    """
    return _core.hmean(_vec(x))


def gmean(x: npt.ArrayLike) -> float:
    """Geometric mean exp(mean(log x)), as scipy.stats.gmean; values must be > 0.

    >>> round(gmean([1, 2, 4]), 12)
    2.0
    """
    return _core.gmean(_vec(x))


def median(x: npt.ArrayLike) -> float:
    """Median (mean of the two middle values for even n), as numpy.median.

    >>> median([4, 1, 3, 2])
    2.5
    """
    return _core.median(_vec(x))


@overload
def percentile(x: npt.ArrayLike, q: float) -> float: ...
@overload
def percentile(x: npt.ArrayLike, q: Sequence[float]) -> np.ndarray: ...
def percentile(x: npt.ArrayLike, q: float | Sequence[float]) -> float | np.ndarray:
    """q-th percentile(s), 0 ≤ q ≤ 100, linear interpolation as numpy.percentile.

    >>> percentile([1, 2, 3, 4], 25)
    1.75
    >>> percentile([1, 2, 3, 4], [0, 50, 100]).tolist()
    [1.0, 2.5, 4.0]
    """
    try:
        scalar = np.ndim(q) == 0
    except ValueError:  # ragged: _vec says why
        scalar = False
    qs = _vec([_scalar(q, "q")] if scalar else q, "q")  # type: ignore[arg-type]
    out = _core.percentiles(_vec(x), qs)
    return float(out[0]) if scalar else out


def min(x: npt.ArrayLike) -> float:  # noqa: A001 - mirrors the statistic's name
    """Smallest value.

    >>> min([3, 1, 2])
    1.0
    """
    return _core.min(_vec(x))


def max(x: npt.ArrayLike) -> float:  # noqa: A001
    """Largest value.

    >>> max([3, 1, 2])
    3.0
    """
    return _core.max(_vec(x))


def stddev(x: npt.ArrayLike, ddof: int = 1) -> float:
    """Standard deviation with ``ddof`` delta degrees of freedom (default: sample, n−1).

    >>> stddev([2, 4, 4, 4, 5, 5, 7, 9], ddof=0)
    2.0
    """
    return _core.stddev(_vec(x), _count(ddof, "ddof"))


def coeff_var(x: npt.ArrayLike) -> float:
    """Coefficient of variation in percent, 100·stddev(ddof=1)/amean (MMTests' CoeffVar).

    >>> round(coeff_var([9, 10, 11]), 6)
    10.0
    """
    return _core.coeff_var(_vec(x))


def bamean(x: npt.ArrayLike, pct: float, higher_is_better: bool) -> float:
    """Mean of the best ``pct`` % of samples, MMTests' BAmean-pct.

    The best k = max(1, ⌊n·pct/100⌋) samples are the largest when higher is better,
    the smallest otherwise.

    >>> bamean([10, 50, 20, 40, 30], 50, higher_is_better=True)
    45.0
    """
    return _core.bamean(_vec(x), _scalar(pct, "pct"), bool(higher_is_better))


def ci_mean(x: npt.ArrayLike, level: float = 0.95) -> MeanCI:
    """t-based confidence interval of the mean (scipy.stats.t.interval with the sem).

    >>> ci = ci_mean([1, 3], level=0.95)
    >>> round(ci.low, 6), round(ci.high, 6)
    (-10.706205, 14.706205)
    """
    return MeanCI(*_core.ci_mean(_vec(x), _scalar(level, "level")))


def pct_change(base: float, new: float, higher_is_better: bool) -> float:
    """Percent change from ``base`` to ``new``, positive = better (MMTests' convention).

    Higher is better: new·100/base − 100. Lower is better: 100 − new·100/base.
    ``base`` must be positive.

    >>> pct_change(100, 110, higher_is_better=True)
    10.0
    >>> pct_change(100, 110, higher_is_better=False)
    -10.0
    """
    return _core.pct_change(_scalar(base, "base"), _scalar(new, "new"), bool(higher_is_better))


def ratio(base: float, new: float) -> float:
    """Ratio new/base (no direction); ``base`` must be non-zero.

    >>> ratio(4, 5)
    1.25
    """
    return _core.ratio(_scalar(base, "base"), _scalar(new, "new"))


def gmean_ratio(bases: npt.ArrayLike, news: npt.ArrayLike, higher_is_better: bool) -> float:
    """Direction-aligned geometric mean of per-operation ratios (> 1 = new is better).

    Each ratio is new/base when higher is better and base/new when lower is
    better. (MMTests' ``--print-ratio`` Gmean line is the plain new/base Gmean;
    pass ``higher_is_better=True`` to get it for lower-is-better data.)

    >>> round(gmean_ratio([10, 20], [5, 10], higher_is_better=False), 12)
    2.0
    """
    return _core.gmean_ratio(_vec(bases, "bases"), _vec(news, "news"), bool(higher_is_better))


def sequential(base: npt.ArrayLike, new: npt.ArrayLike, *, direction: str = "unknown", alpha: float | None = None,
               margin: float | None = None, min_change: float = 0.0) -> _core.Sequential:
    """Whether the comparison of ``new`` with ``base`` is decided, looking after every
    added run (the k-th look holds the first k runs of each side, in the order given):
    the confidence sequence of mean(new) - mean(base), valid however often one looks
    (docs/sequential.md). ``verdict`` is better/worse (changed for an unknown
    ``direction``), equivalent (within ± ``margin`` percent, default 2), inconclusive
    or not_enough_data; ``decided_at`` the runs a side at the first look that decided;
    ``more_runs`` what an undecided one still needs.

    >>> base = [100.0, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9, 100.3]
    >>> s = sequential(base, [v * 1.1 for v in base], direction="lower")
    >>> s.verdict, s.decided_at
    ('worse', 4)
    """
    return _core.sequential_compare(_vec(base, "base"), _vec(new, "new"), direction=direction, alpha=alpha,
                                    margin=margin, min_change=_scalar(min_change, "min_change"))


def welch_ttest(a: npt.ArrayLike, b: npt.ArrayLike) -> WelchResult:
    """Welch's unequal-variance t-test, two-sided, as scipy.stats.ttest_ind(equal_var=False).

    Returns ``WelchResult(t, df, p)``, which also unpacks as a tuple. Each side
    needs two samples. Two zero-variance samples give t = p = df = NaN when their
    means are equal and t = ±inf, p = 0, df = NaN otherwise.

    >>> t, df, p = welch_ttest([1, 2, 3], [2, 4, 6])
    >>> round(t, 6), round(df, 6)
    (-1.549193, 2.941176)
    """
    return WelchResult(*_core.welch_ttest(_vec(a, "a"), _vec(b, "b")))


def mann_whitney_u(a: npt.ArrayLike, b: npt.ArrayLike, method: str = "auto") -> MannWhitneyResult:
    """Two-sided Mann–Whitney U test, as scipy.stats.mannwhitneyu.

    ``u`` is the statistic of ``a``. ``method`` is ``"exact"`` (null distribution
    of U), ``"asymptotic"`` (normal approximation with tie and continuity
    correction) or ``"auto"`` (exact when one sample has at most 8 values and there
    are no ties, else asymptotic). Each side needs two samples.

    >>> u, p = mann_whitney_u([19, 22, 16, 29, 24], [20, 11, 17, 12], method="exact")
    >>> u, round(p, 12)
    (17.0, 0.111111111111)
    """
    u, p, _used = _core.mann_whitney_u(_vec(a, "a"), _vec(b, "b"), str(method))
    return MannWhitneyResult(u, p)


def bootstrap_ci(
    base: npt.ArrayLike,
    new: npt.ArrayLike,
    statistic: str = "amean",
    level: float = 0.95,
    n_resamples: int = 10000,
    seed: int | None = None,
    threads: int | None = None,
) -> BootstrapResult:
    """Percentile bootstrap interval of statistic(new)/statistic(base).

    ``statistic`` is ``"amean"``, ``"hmean"`` or ``"median"``. Both samples are
    resampled independently with replacement. The result is deterministic for a
    ``seed`` (whatever ``threads``); without one a random seed is drawn and
    reported in the result. Values must be positive, two per side.

    >>> r = bootstrap_ci([10, 11, 9, 10, 12], [12, 13, 11, 12, 14], seed=1)
    >>> r.low < r.estimate < r.high
    True
    >>> r == bootstrap_ci([10, 11, 9, 10, 12], [12, 13, 11, 12, 14], seed=1)
    True
    """
    if seed is None:
        seed = secrets.randbits(64)
    seed = _integer(seed, "seed", 0, 2**64 - 1)
    return BootstrapResult(
        *_core.bootstrap_ci(
            _vec(base, "base"),
            _vec(new, "new"),
            statistic=str(statistic),
            level=_scalar(level, "level"),
            n_resamples=_count(n_resamples, "n_resamples"),
            seed=seed,
            threads=_threads(threads),
        )
    )


def fdr_bh(pvalues: npt.ArrayLike) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (q-values), in input order.

    As scipy.stats.false_discovery_control(method='bh'); p must be within [0, 1].

    >>> fdr_bh([0.01, 0.02, 0.5, 0.04]).tolist()
    [0.04, 0.04, 0.5, 0.05333333333333333]
    """
    return _core.fdr_bh(_vec(pvalues, "pvalues"))


def _scalar(v: float, name: str) -> float:
    try:
        return float(v)
    except (TypeError, ValueError, OverflowError) as e:
        raise DomainError(f"{name} must be a real number: {e}") from None


def _integer(v: int, name: str, low: int, high: int) -> int:
    """``v`` as an int within ``low..=high`` (a float only if it is whole)."""
    try:
        i = int(v)
        whole = i == v
    except (TypeError, ValueError, OverflowError):
        whole = False
    if not whole or not low <= i <= high:
        raise DomainError(f"{name} must be an integer within {low}..{high}, got {v!r}")
    return i


def _count(v: int, name: str) -> int:
    return _integer(v, name, 0, 2**63 - 1)


def _threads(threads: int | None) -> int | None:
    if threads is None:
        return None
    return _integer(threads, "threads", 1, 2**63 - 1)


def _pack(series: Iterable[npt.ArrayLike] | np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Many 1-D series as one float64 array plus their lengths."""
    if isinstance(series, np.ndarray) and series.ndim == 2:
        a = _vec(series.reshape(-1), name)
        return np.ascontiguousarray(a), np.full(series.shape[0], series.shape[1], dtype=np.uint64)
    series = series if isinstance(series, list) else list(series)
    if not series:
        return np.empty(0, dtype=np.float64), np.empty(0, dtype=np.uint64)
    try:  # fast path: every item is a 1-D sequence of real numbers (checked after the fact)
        lengths = np.fromiter(map(len, series), dtype=np.uint64, count=len(series))
        values = np.concatenate(series, dtype=np.float64, casting="same_kind")
        if values.ndim == 1 and values.size == int(lengths.sum()):
            return values, lengths
    except (TypeError, ValueError):
        pass
    arrays = [_vec(s, f"{name}[{i}]") for i, s in enumerate(series)]
    lengths = np.fromiter((len(a) for a in arrays), dtype=np.uint64, count=len(arrays))
    return np.concatenate(arrays), lengths


def summarize_many(series: Iterable[npt.ArrayLike] | np.ndarray, threads: int | None = None) -> pd.DataFrame:
    """Summaries of many samples at once, in parallel.

    ``series`` is a sequence of 1-D samples, or a 2-D array with one sample per
    row. Returns a DataFrame with one row per sample and columns ``n, min, max,
    amean, hmean, gmean, median, stddev, coeff_var, error``; a statistic that is
    undefined for a sample is NaN and ``error`` says why.

    >>> df = summarize_many([[1, 2, 4], [0, 1], [5]])
    >>> df["hmean"].round(6).tolist()
    [1.714286, nan, 5.0]
    >>> df.loc[2, "error"]
    'a variance with ddof=1 needs at least 2 samples in x, got 1'
    """
    import pandas as pd

    values, lengths = _pack(series, "series")
    cols = _core.summarize_many(values, lengths, _threads(threads))
    return pd.DataFrame(cols)


def compare_many(
    pairs: Iterable[tuple[npt.ArrayLike, npt.ArrayLike]],
    higher_is_better: bool = True,
    method: str = "auto",
    threads: int | None = None,
) -> pd.DataFrame:
    """Compare many (base, new) pairs at once, in parallel.

    One row per pair: ``n_base, n_new, amean_base, amean_new, pct_change``
    (positive = better), ``welch_t, welch_df, welch_p``, ``mwu_u, mwu_p`` (with
    ``method`` as in :func:`mann_whitney_u`) and ``error`` (why a cell is NaN).
    Combine the p-values across rows with :func:`fdr_bh`.

    >>> df = compare_many([([10, 11, 12, 10.5], [12, 13, 12.5, 14])])
    >>> round(float(df.loc[0, "pct_change"]), 4)  # 12.875·100/10.875 − 100
    18.3908
    >>> float(df.loc[0, "mwu_u"])  # one tie (12 vs 12) counts a half
    0.5
    """
    import pandas as pd

    pairs = list(pairs)
    for i, pair in enumerate(pairs):
        if len(pair) != 2:
            raise DomainError(f"pairs[{i}] must be a (base, new) pair, got {len(pair)} items")
    bv, bl = _pack([p[0] for p in pairs], "base")
    nv, nl = _pack([p[1] for p in pairs], "new")
    cols = _core.compare_many(bv, bl, nv, nl, higher_is_better=bool(higher_is_better), method=str(method),
                              threads=_threads(threads))
    return pd.DataFrame(cols)

"""schedlab.stats against scipy/numpy on random data.

Data: n = 2..60 per side, continuous, with ties (rounded values), integers, and
tiny and huge magnitudes. Tolerances: relative error <= 1e-12
(1e-9 for the asymptotic Mann-Whitney p).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
import scipy.stats as ss
from schedlab import stats

REL = 1e-12
# scipy's Welch df squares the variance terms, so it underflows below ~1e-75 and
# overflows above ~1e75; parity uses magnitudes scipy itself handles, and
# test_welch_scale_invariance covers 1e-150 and 1e150.
SCALES = [1e-60, 1e-9, 1.0, 1e3, 1e9, 1e60]
KINDS = ["continuous", "ties", "integers"]


def rel_close(a: float, b: float, rel: float = REL) -> bool:
    if a == b:
        return True
    return abs(a - b) <= rel * max(abs(a), abs(b))


def sample(rng: np.random.Generator, n: int, kind: str, scale: float, shift: float = 0.0) -> np.ndarray:
    if kind == "continuous":
        x = rng.normal(10.0 + shift, 1.0 + rng.random(), size=n)
    elif kind == "ties":
        x = np.round(rng.normal(10.0 + shift, 1.5, size=n))
    else:
        return rng.integers(1, 20, size=n) + int(shift)
    return np.abs(x) * scale + scale * 1e-3  # positive, for hmean/gmean


def cases(count: int, seed: int):
    rng = np.random.default_rng(seed)
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        scale = 1.0 if kind == "integers" else SCALES[(i // 3) % len(SCALES)]
        n1, n2 = rng.integers(2, 61, size=2)
        shift = rng.choice([0.0, 0.5, 2.0])
        yield i, sample(rng, int(n1), kind, scale), sample(rng, int(n2), kind, scale, shift)


@pytest.mark.parametrize("i,a,b", list(cases(240, 1)))
def test_welch_matches_scipy(i, a, b):
    r = stats.welch_ttest(a, b)
    ref = ss.ttest_ind(a, b, equal_var=False)
    # t = (mean_a - mean_b)/se: when the means nearly cancel, the summation order
    # (numpy sums pairwise) moves t by about eps*|mean|/se; allow exactly that.
    se = math.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b))
    cancel = 1e-14 * (abs(np.mean(a)) + abs(np.mean(b))) / se
    assert rel_close(r.t, float(ref.statistic)) or abs(r.t - ref.statistic) <= cancel, (r.t, ref.statistic)
    assert rel_close(r.df, float(ref.df)), (r.df, ref.df)
    assert rel_close(r.p, float(ref.pvalue)), (r.p, ref.pvalue)
    t, df, p = r  # unpacks in this order
    assert (t, df, p) == (r.t, r.df, r.p)


@pytest.mark.parametrize("i,a,b", list(cases(240, 2)))
def test_mann_whitney_auto_and_asymptotic_match_scipy(i, a, b):
    for method, tol in (("asymptotic", 1e-9), ("auto", 1e-9)):
        r = stats.mann_whitney_u(a, b, method=method)
        ref = ss.mannwhitneyu(a, b, method=method)
        assert r.u == float(ref.statistic)
        assert rel_close(r.p, float(ref.pvalue), tol), (method, r.p, ref.pvalue)


@cache
def exact_counts(m: int, n: int) -> tuple[int, ...]:
    """Number of orderings with U = u for sizes (m, n), by Python integer recurrence
    f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u)."""
    if m == 0 or n == 0:
        return (1,)
    a = exact_counts(m - 1, n)
    b = exact_counts(m, n - 1)
    out = [0] * (m * n + 1)
    for u, c in enumerate(a):
        out[u + n] += c
    for u, c in enumerate(b):
        out[u] += c
    return tuple(out)


def exact_p(u1: float, m: int, n: int) -> float:
    u = int(max(u1, m * n - u1))
    counts = exact_counts(m, n)
    return float(min(Fraction(2 * sum(counts[u:]), sum(counts)), 1))


@pytest.mark.parametrize("i,a,b", list(cases(120, 3)))
def test_mann_whitney_exact_matches_exact_arithmetic(i, a, b):
    # For large n scipy's exact recurrence runs in floating point; the reference
    # here is exact rational arithmetic, and for small n scipy too.
    r = stats.mann_whitney_u(a, b, method="exact")
    assert rel_close(r.p, exact_p(r.u, len(a), len(b))), (r.p, exact_p(r.u, len(a), len(b)))
    if min(len(a), len(b)) <= 8:
        ref = ss.mannwhitneyu(a, b, method="exact")
        assert r.u == float(ref.statistic)
        assert rel_close(r.p, float(ref.pvalue)), (r.p, ref.pvalue)


def test_exact_counts_reference_by_hand():
    # m = n = 2: orderings aabb.. have U = 0, 1, 2, 2, 3, 4
    assert exact_counts(2, 2) == (1, 1, 2, 1, 1)


@pytest.mark.parametrize("i,a,b", list(cases(150, 4)))
def test_descriptive_match_numpy_scipy(i, a, b):
    for x in (a, b):
        assert rel_close(stats.amean(x), float(np.mean(x)))
        assert rel_close(stats.gmean(x), float(ss.gmean(x)))
        assert rel_close(stats.hmean(x), float(ss.hmean(x)))
        assert rel_close(stats.median(x), float(np.median(x)))
        assert rel_close(stats.stddev(x), float(np.std(x, ddof=1)))
        assert rel_close(stats.stddev(x, ddof=0), float(np.std(x, ddof=0)))
        assert stats.min(x) == float(np.min(x)) and stats.max(x) == float(np.max(x))
        assert rel_close(stats.coeff_var(x), 100 * float(ss.variation(x, ddof=1)))
        qs = [0, 1, 5, 25, 33.3, 50, 75, 90, 95, 99, 100]
        for q, v in zip(qs, stats.percentile(x, qs)):
            assert rel_close(float(v), float(np.percentile(x, q))), q
        ci = stats.ci_mean(x, 0.95)
        if np.all(x == x[0]):  # zero spread: scipy's t.interval gives NaN
            assert ci.low == ci.high == ci.mean == float(x[0])
            continue
        lo, hi = ss.t.interval(0.95, len(x) - 1, loc=np.mean(x), scale=ss.sem(x))
        assert rel_close(ci.high - ci.mean, float(hi) - float(np.mean(x)), 1e-11)
        assert rel_close(ci.low, float(lo), 1e-11) and rel_close(ci.high, float(hi), 1e-11)


@pytest.mark.parametrize("seed", range(40))
def test_fdr_bh_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 200))
    p = rng.random(m) ** rng.choice([1, 3, 8])
    if seed % 4 == 0:
        p[: m // 3] = p[0]  # ties
    q = stats.fdr_bh(p)
    ref = ss.false_discovery_control(p, method="bh")
    assert q.shape == ref.shape
    for a, b in zip(q, ref):
        assert rel_close(float(a), float(b))


def test_bamean_against_mmtests_definition_by_hand():
    # MMTests BAmean-P: k = max(1, int(n*P/100)) best samples; n = 5
    x = [31.0, 12.0, 55.0, 47.0, 20.0]
    assert stats.bamean(x, 95, higher_is_better=True) == (55 + 47 + 31 + 20) / 4  # k = 4
    assert stats.bamean(x, 50, higher_is_better=False) == (12 + 20) / 2  # k = 2
    assert stats.bamean(x, 10, higher_is_better=True) == 55.0  # k = max(1, 0)


@pytest.mark.parametrize("scale", [1e-150, 1e150])
def test_welch_scale_invariance(scale):
    # t, df and p do not depend on the unit; reference: scipy at scale 1
    rng = np.random.default_rng(5)
    a, b = rng.normal(10, 1, 12), rng.normal(11, 2, 9)
    r = stats.welch_ttest(a * scale, b * scale)
    ref = ss.ttest_ind(a, b, equal_var=False)
    assert rel_close(r.t, float(ref.statistic)) and rel_close(r.df, float(ref.df))
    assert rel_close(r.p, float(ref.pvalue))


def test_scipy_degenerate_welch_agrees():
    r = stats.welch_ttest([1, 1], [2, 2])
    ref = ss.ttest_ind([1, 1], [2, 2], equal_var=False)
    assert r.t == float(ref.statistic) and r.p == float(ref.pvalue)
    r = stats.welch_ttest([3, 3, 3], [3, 3])
    assert math.isnan(r.t) and math.isnan(r.p)

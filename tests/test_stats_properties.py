"""Properties of schedlab.stats that hold for any data (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from schedlab import stats

positive = st.floats(min_value=1e-6, max_value=1e6, allow_nan=False, allow_infinity=False)
finite = st.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False)


@given(st.lists(st.tuples(positive, positive), min_size=1, max_size=40))
def test_gmean_of_ratios_is_ratio_of_gmeans(pairs):
    bases = [b for b, _ in pairs]
    news = [n for _, n in pairs]
    lhs = stats.gmean_ratio(bases, news, higher_is_better=True)
    rhs = stats.gmean(news) / stats.gmean(bases)
    assert math.isclose(lhs, rhs, rel_tol=1e-9)
    # lower-is-better alignment inverts it
    inv = stats.gmean_ratio(bases, news, higher_is_better=False)
    assert math.isclose(lhs * inv, 1.0, rel_tol=1e-9)


@given(positive, positive)
def test_pct_change_direction_antisymmetry(base, new):
    up = stats.pct_change(base, new, higher_is_better=True)
    down = stats.pct_change(base, new, higher_is_better=False)
    assert up == -down
    if new > base:
        assert up >= 0  # new*100/base may round to exactly 100 for a 1-ulp change
    if new == base:
        assert up == 0


@given(st.lists(finite, min_size=2, max_size=50), st.randoms(use_true_random=False))
def test_permutation_invariance(xs, rnd):
    ys = list(xs)
    rnd.shuffle(ys)
    for f in (stats.median, stats.min, stats.max):
        assert f(xs) == f(ys)
    for f in (stats.amean, stats.stddev):
        a, b = f(xs), f(ys)
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6 * (1 + max(map(abs, xs))))
    assert np.array_equal(stats.percentile(xs, [10, 50, 90]), stats.percentile(ys, [10, 50, 90]))


@given(st.lists(finite, min_size=2, max_size=30), st.lists(finite, min_size=2, max_size=30),
       st.randoms(use_true_random=False))
def test_tests_invariant_under_permutation(a, b, rnd):
    a2, b2 = list(a), list(b)
    rnd.shuffle(a2)
    rnd.shuffle(b2)
    u1, p1 = stats.mann_whitney_u(a, b)
    u2, p2 = stats.mann_whitney_u(a2, b2)
    assert u1 == u2 and p1 == p2
    w1, w2 = stats.welch_ttest(a, b), stats.welch_ttest(a2, b2)
    if not math.isnan(w1.p):
        assert math.isclose(w1.p, w2.p, rel_tol=1e-6, abs_tol=1e-12)


@given(st.lists(st.floats(min_value=0, max_value=1), min_size=0, max_size=60))
def test_bh_is_monotone_and_bounded(ps):
    q = stats.fdr_bh(ps)
    assert len(q) == len(ps)
    for p, qi in zip(ps, q):
        assert p <= qi + 1e-15 and qi <= 1.0
    order = np.argsort(ps, kind="stable")
    assert all(q[order[i]] <= q[order[i + 1]] for i in range(len(ps) - 1))


@given(st.lists(positive, min_size=1, max_size=40))
def test_mean_inequality(xs):
    h, g, a = stats.hmean(xs), stats.gmean(xs), stats.amean(xs)
    assert h <= g * (1 + 1e-12) and g <= a * (1 + 1e-12)


@given(st.lists(positive, min_size=2, max_size=20), st.lists(positive, min_size=2, max_size=20),
       st.integers(min_value=0, max_value=2**64 - 1))
def test_bootstrap_deterministic_and_contains_estimate_bounds(a, b, seed):
    r1 = stats.bootstrap_ci(a, b, n_resamples=200, seed=seed, threads=1)
    r2 = stats.bootstrap_ci(a, b, n_resamples=200, seed=seed, threads=2)
    assert r1 == r2
    assume(r1.low == r1.low)
    assert r1.low <= r1.high
    lo = min(b) / max(a)
    hi = max(b) / min(a)
    assert lo * (1 - 1e-12) <= r1.low and r1.high <= hi * (1 + 1e-12)

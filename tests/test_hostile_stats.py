"""Random arrays into every ``schedlab.stats`` function (hypothesis): NaN, infinities,
huge and tiny values, negatives, empty arrays, integer and bool dtypes, float32,
non-contiguous and reversed views, 2-D arrays, strings, complex numbers and ragged
lists. Each call returns a value or raises a :class:`schedlab.SchedlabError` that is
not an internal error; and where numpy computes the same statistic on the same
float64 values (the reference), the value agrees with it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import schedlab
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from schedlab import stats

from .hostile import honest

DTYPES = [np.float64, np.float32, np.float16, np.int8, np.int32, np.int64, np.uint8, np.uint64, np.bool_]

special = st.sampled_from([0.0, -0.0, 1.0, -1.0, math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, 1e-300,
                           2.0**53 + 1, 1e16])


@st.composite
def arrays(draw, max_side: int = 24):
    """A numeric array, possibly a strided or reversed view, possibly 2-D or 0-D."""
    dtype = draw(st.sampled_from(DTYPES))
    kind = np.dtype(dtype).kind
    if kind == "f":
        elements = st.one_of(st.floats(width=np.dtype(dtype).itemsize * 8), special.filter(
            lambda v: not np.isfinite(v) or abs(v) < np.finfo(dtype).max))
    else:
        elements = None
    shape = draw(st.one_of(hnp.array_shapes(min_dims=1, max_dims=1, min_side=0, max_side=max_side),
                           hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=6)))
    a = draw(hnp.arrays(dtype, shape, elements=elements))
    view = draw(st.sampled_from(["as-is", "strided", "reversed", "transposed", "list"]))
    if view == "strided" and a.ndim == 1:
        a = np.repeat(a, 2)[::2]
    elif view == "reversed" and a.ndim == 1:
        a = a[::-1]
    elif view == "transposed":
        a = a.T
    elif view == "list":
        return a.tolist()
    return a


odd = st.sampled_from([["1", "x"], np.array(["a", "b"]), np.array([1 + 2j, 3]), [[1.0], [1.0, 2.0]], [None, 1.0],
                       np.array([1, 2], dtype="datetime64[s]"), "123", object(), {1: 2}])
inputs = st.one_of(arrays(), arrays(), odd)



def as_f64(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def close(a: float, b: float) -> bool:
    return bool(np.isclose(a, b, rtol=1e-9, atol=0.0, equal_nan=True)) or a == b


def exact_stddev(a: np.ndarray) -> float:
    """The sample standard deviation of the float64 values of ``a``, computed exactly
    (as fractions) and rounded once at the end."""
    from fractions import Fraction

    xs = [Fraction(float(v)) for v in a.ravel()]
    m = sum(xs, Fraction(0)) / len(xs)
    return math.sqrt(sum(((v - m) ** 2 for v in xs), Fraction(0)) / (len(xs) - 1))


FAST = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much], deadline=None)


@FAST
@given(inputs)
def test_one_sample_statistics(x):
    for name in ("amean", "hmean", "gmean", "median", "min", "max", "stddev", "coeff_var", "fdr_bh"):
        honest(lambda name=name: getattr(stats, name)(x))
    honest(lambda: stats.stddev(x, ddof=0))
    honest(lambda: stats.percentile(x, 50))
    honest(lambda: stats.percentile(x, [0, 10, 90, 100]))
    honest(lambda: stats.percentile([1, 2, 3], x))
    honest(lambda: stats.bamean(x, 50, True))
    honest(lambda: stats.bamean(x, 95, False))
    honest(lambda: stats.ci_mean(x))
    honest(lambda: stats.summarize_many([x, x]))
    if isinstance(x, np.ndarray) and x.ndim == 2:
        honest(lambda: stats.summarize_many(x))


@FAST
@given(arrays())
@example(np.full(16, 692861481133923))  # equal values whose sum passes 2^53: stddev 0
@example(np.full(19, 474063118670579))
@example(np.array([0, 0, 0, 0, 0, 1, 1e308, -1e308]))  # cancellation: exactly 1/8
@example(np.array([1, 1e308, -1e308]))
def test_values_agree_with_numpy(x):
    """Where schedlab answers, numpy (on the same float64 values) is the reference, and
    exact rational arithmetic for the mean and the standard deviation."""
    a = as_f64(x)
    v = honest(lambda: stats.amean(x))
    if v is not None:
        # the exact mean (rationals, rounded once), within what any float sum in input order
        # guarantees: n·eps·mean(|x|) (numpy's own mean is no reference under cancellation:
        # [1, 1e308, -1e308] gives numpy 0.0, exactly 1/3)
        from fractions import Fraction

        r = float(sum(Fraction(float(e)) for e in a) / len(a))
        mean_abs = float(np.sum(np.abs(a) / len(a)))  # divided first: no overflow
        bound = 1e-9 * abs(r) + len(a) * np.finfo(float).eps * mean_abs
        assert abs(v - r) <= bound, ("amean", v, r)
    for name, ref in (("median", np.median), ("min", np.min), ("max", np.max)):
        v = honest(lambda name=name: getattr(stats, name)(x))
        if v is not None:
            with np.errstate(all="ignore"):
                r = float(ref(a))
            assert close(v, r), (name, v, r)
    v = honest(lambda: stats.percentile(x, [10, 50, 90]))
    if v is not None:
        assert np.allclose(v, np.percentile(a, [10, 50, 90]), rtol=1e-9, equal_nan=True)
    v = honest(lambda: stats.stddev(x))
    if v is not None and np.all(np.abs(a) < 1e150):
        # exact rational arithmetic, not numpy: numpy's own mean rounds when the sum
        # passes 2^53 (19 copies of 474063118670579 have numpy.std 0.064, truly 0)
        r = exact_stddev(a)
        assert abs(v - r) <= 1e-7 * r + 1e-13 * float(np.max(np.abs(a))), (v, r)


@FAST
@given(inputs, inputs)
def test_two_sample_tests(a, b):
    honest(lambda: stats.gmean_ratio(a, b, True))
    honest(lambda: stats.welch_ttest(a, b))
    for m in ("auto", "exact", "asymptotic"):
        honest(lambda m=m: stats.mann_whitney_u(a, b, method=m))
    for s in ("amean", "hmean", "median"):
        honest(lambda s=s: stats.bootstrap_ci(a, b, statistic=s, n_resamples=50, seed=1))
    honest(lambda: stats.compare_many([(a, b), (b, a)]))


@FAST
@given(st.one_of(st.floats(), special, st.integers(-(2**70), 2**70), st.just("x"), st.none()),
       st.one_of(st.floats(), special, st.integers(-(2**70), 2**70)))
@pytest.mark.slow
def test_scalar_arguments(u, v):
    honest(lambda: stats.pct_change(u, v, True))
    honest(lambda: stats.ratio(u, v))
    honest(lambda: stats.stddev([1.0, 2.0, 3.0], ddof=u))
    honest(lambda: stats.ci_mean([1.0, 2.0, 3.0], level=u))
    honest(lambda: stats.bamean([1.0, 2.0, 3.0], u, True))
    honest(lambda: stats.percentile([1.0, 2.0, 3.0], u))
    honest(lambda: stats.bootstrap_ci([1.0, 2.0], [2.0, 3.0], n_resamples=5, seed=u))


#: Counts whose legal values cost what they ask for (a pool of that many threads, that
#: many resamples): every kind of hostile value once, with the legal bounds and the cap,
#: instead of the random scalars above, which spent most of the module's time building
#: thread pools and resampling for legal counts.
COUNTS = [0, -1, 1, 2, 9, 10, 1024, 1025, 10**8 + 1, 2**31, 2**63 - 1, 2**63, 2**64, 2**70, -(2**70),
          1.0, 1.5, math.nan, math.inf, -math.inf, True, False, "x", "2", None, np.int64(3), np.uint64(2**63)]


@pytest.mark.parametrize("n", COUNTS, ids=repr)
def test_count_arguments(n):
    honest(lambda: stats.bootstrap_ci([1.0, 2.0], [2.0, 3.0], n_resamples=n, seed=1, level=0.9))
    honest(lambda: stats.summarize_many([[1.0, 2.0]], threads=n))


def test_huge_exact_mann_whitney_is_refused_not_allocated():
    """The exact null distribution of U has m·n + 1 terms: beyond the cap it is refused
    (asymptotic is the answer there), not allocated."""
    a = np.arange(100.0)
    b = np.arange(100.0, 100.0 + 200_000)  # 20,000,001 terms: past the cap of 2^24
    with pytest.raises(schedlab.DomainError, match="asymptotic"):
        stats.mann_whitney_u(a, b, method="exact")

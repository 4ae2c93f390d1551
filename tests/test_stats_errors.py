"""Undefined and bad input gives a typed schedlab exception, never a wrong number."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
import schedlab
from schedlab import stats
from schedlab.errors import DomainError, InsufficientDataError, ParseError, SchedlabError

ONE_SAMPLE = [
    stats.amean, stats.hmean, stats.gmean, stats.median, stats.min, stats.max,
    stats.stddev, stats.coeff_var, lambda x: stats.percentile(x, 50),
    lambda x: stats.bamean(x, 50, True), stats.ci_mean,
]


@pytest.mark.parametrize("f", ONE_SAMPLE)
def test_empty_is_insufficient(f):
    with pytest.raises(InsufficientDataError, match="empty"):
        f([])


@pytest.mark.parametrize("f", ONE_SAMPLE)
@pytest.mark.parametrize("bad,what", [(math.nan, "NaN"), (math.inf, "inf"), (-math.inf, "-inf")])
def test_non_finite_is_domain_error_naming_the_index(f, bad, what):
    with pytest.raises(DomainError, match=f"contains {what} at index 1"):
        f([1.0, bad, 2.0])


@pytest.mark.parametrize("f", [stats.hmean, stats.gmean])
@pytest.mark.parametrize("x,idx", [([1.0, 0.0], 1), ([-2.0, 3.0], 0)])
def test_non_positive_means(f, x, idx):
    with pytest.raises(DomainError, match=rf"non-positive values: x\[{idx}\]"):
        f(x)


def test_single_sample_spread_and_tests():
    assert stats.amean([5]) == 5.0 and stats.median([5]) == 5.0  # defined
    with pytest.raises(InsufficientDataError, match="at least 2 samples"):
        stats.stddev([5])
    with pytest.raises(InsufficientDataError):
        stats.coeff_var([5])
    with pytest.raises(InsufficientDataError):
        stats.ci_mean([5])
    for test in (stats.welch_ttest, stats.mann_whitney_u):
        with pytest.raises(InsufficientDataError, match="at least 2 samples in a"):
            test([1], [1, 2, 3])
        with pytest.raises(InsufficientDataError, match="at least 2 samples in b"):
            test([1, 2, 3], [1])
    with pytest.raises(InsufficientDataError):
        stats.bootstrap_ci([1], [1, 2], seed=0)


def test_zero_and_negative_baselines():
    with pytest.raises(DomainError, match="positive baseline"):
        stats.pct_change(0, 5, True)
    with pytest.raises(DomainError, match="positive baseline"):
        stats.pct_change(-1, 5, False)
    with pytest.raises(DomainError, match="zero baseline"):
        stats.ratio(0, 5)
    assert stats.ratio(-2, 1) == -0.5
    with pytest.raises(DomainError):
        stats.coeff_var([-1, 1])  # mean 0
    with pytest.raises(DomainError, match="pair 1"):
        stats.gmean_ratio([1, 0], [1, 1], True)
    with pytest.raises(DomainError, match="pair up"):
        stats.gmean_ratio([1, 2], [1], True)
    with pytest.raises(DomainError):
        stats.bootstrap_ci([1, -1], [1, 2], seed=0)


def test_overflow_is_reported_not_inf():
    with pytest.raises(DomainError, match="too large"):
        stats.amean([1.7e308, 1.7e308])
    assert stats.max([1.7e308, 1.7e308]) == 1.7e308


@pytest.mark.parametrize("bad", [
    [[1, 2], [3, 4]],          # 2-D
    ["a", "b"],                # strings
    [1 + 2j, 3],               # complex
    np.array(["2020-01-01"], dtype="datetime64[D]"),
    [object()],
    5.0,                       # scalar, 0-D
])
def test_non_vectors_are_domain_errors(bad):
    with pytest.raises(DomainError):
        stats.amean(bad)


def test_argument_checks():
    with pytest.raises(DomainError, match="q must be within"):
        stats.percentile([1, 2], 101)
    with pytest.raises(DomainError, match="pct must be within"):
        stats.bamean([1, 2], 0, True)
    with pytest.raises(DomainError, match="level"):
        stats.ci_mean([1, 2], 1.5)
    with pytest.raises(DomainError, match="method must be"):
        stats.mann_whitney_u([1, 2], [3, 4], method="fast")
    with pytest.raises(DomainError, match="statistic must be"):
        stats.bootstrap_ci([1, 2], [3, 4], statistic="mode", seed=0)
    with pytest.raises(DomainError, match="n_resamples"):
        stats.bootstrap_ci([1, 2], [3, 4], n_resamples=5, seed=0)
    with pytest.raises(DomainError, match="ddof"):
        stats.stddev([1, 2, 3], ddof=-1)
    with pytest.raises(DomainError, match="within"):
        stats.fdr_bh([0.5, 1.2])
    with pytest.raises(DomainError):
        stats.fdr_bh([0.5, math.nan])
    with pytest.raises(DomainError, match="threads"):
        stats.summarize_many([[1, 2]], threads=0)


def test_int_arrays_lists_and_views_are_accepted():
    x = np.arange(1, 21)
    assert stats.amean(x) == 10.5
    assert stats.amean(list(x)) == 10.5
    f = np.arange(1, 41, dtype=np.float64)
    view = f[::2]  # non-contiguous: copied, same answer
    assert stats.amean(view) == float(np.mean(view))
    assert stats.median(np.float32([1, 2, 3])) == 2.0
    assert stats.amean([True, False]) == 0.5


def test_exceptions_hierarchy_and_pickling():
    assert issubclass(ParseError, SchedlabError) and issubclass(ParseError, ValueError)
    assert issubclass(InsufficientDataError, SchedlabError)
    assert issubclass(DomainError, ValueError)
    assert issubclass(schedlab.FileNotFoundError, FileNotFoundError)
    e = ParseError("f.txt:3: expected a number", "f.txt", 3, "dur_ns")
    e2 = pickle.loads(pickle.dumps(e))
    assert (e2.path, e2.line, e2.column, str(e2)) == ("f.txt", 3, "dur_ns", str(e))


def test_sample_files(tmp_path):
    p = tmp_path / "s.txt"
    p.write_bytes(b"# lps\n4626 4630\n4611,4640\n")
    assert schedlab._core.read_samples(p).tolist() == [4626, 4630, 4611, 4640]
    p.write_bytes(b"1\n2\n3 x\n")
    with pytest.raises(ParseError) as ei:
        schedlab._core.read_samples(p)
    assert ei.value.path == str(p) and ei.value.line == 3 and "expected a number" in str(ei.value)
    p.write_bytes(b"1\n\xff\xfe\n")
    with pytest.raises(ParseError, match="not UTF-8") as ei:
        schedlab._core.read_samples(p)
    assert ei.value.line == 2
    p.write_bytes(b"1\n2.5e")  # truncated number
    with pytest.raises(ParseError, match="2.5e"):
        schedlab._core.read_samples(p)
    with pytest.raises(schedlab.FileNotFoundError) as ei:
        schedlab._core.read_samples(tmp_path / "missing.txt")
    assert isinstance(ei.value, FileNotFoundError) and ei.value.path.endswith("missing.txt")

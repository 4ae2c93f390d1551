"""The array contract of the Python API (schedlab.stats module docstring): inputs are
read, never written. Every public function taking arrays is called on numpy arrays
of the kinds a user passes (contiguous float64, which the core reads in place; int;
a strided view; unsorted, with ties) and on read-only arrays; the bytes and flags of
every input are the same afterwards."""

from __future__ import annotations

import numpy as np
import pytest
from schedlab import stats

BASE = [4626.0, 4630.0, 4611.0, 4640.0, 4611.0, 4602.0]
NEW = [4160.0, 4171.0, 4155.0, 4180.0, 4155.0, 4190.0]


def _kinds(values: list[float]) -> list[np.ndarray]:
    wide = np.repeat(np.array(values, dtype=np.float64), 2)
    return [
        np.array(values, dtype=np.float64),  # read in place by the core
        np.array(values, dtype=np.int64),
        wide[::2],  # a strided view
        np.array(values[::-1], dtype=np.float32),
    ]


CALLS = [
    ("amean", lambda a, b: stats.amean(a)),
    ("hmean", lambda a, b: stats.hmean(a)),
    ("gmean", lambda a, b: stats.gmean(a)),
    ("median", lambda a, b: stats.median(a)),  # an order statistic: must not sort its input
    ("percentile", lambda a, b: stats.percentile(a, [10, 50, 90])),
    ("min", lambda a, b: stats.min(a)),
    ("max", lambda a, b: stats.max(a)),
    ("stddev", lambda a, b: stats.stddev(a)),
    ("coeff_var", lambda a, b: stats.coeff_var(a)),
    ("bamean", lambda a, b: stats.bamean(a, 50, True)),
    ("ci_mean", lambda a, b: stats.ci_mean(a)),
    ("gmean_ratio", lambda a, b: stats.gmean_ratio(a, b, True)),
    ("welch_ttest", lambda a, b: stats.welch_ttest(a, b)),
    ("mann_whitney_u", lambda a, b: stats.mann_whitney_u(a, b)),  # ranks: must not sort its input
    ("bootstrap_ci", lambda a, b: stats.bootstrap_ci(a, b, n_resamples=200, seed=1)),
    ("fdr_bh", lambda a, b: stats.fdr_bh(a)),  # given p-values below
    ("summarize_many", lambda a, b: stats.summarize_many([a, b])),
    ("compare_many", lambda a, b: stats.compare_many([(a, b)])),
]


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_inputs_are_never_modified(name, call):
    for a, b in zip(_kinds(BASE), _kinds(NEW)):
        if name == "fdr_bh":
            a = (a - a.min()) / 100  # p-values in [0, 1), same kind of array
        before = (a.tobytes(), b.tobytes(), a.flags.writeable, b.flags.writeable)
        call(a, b)
        assert (a.tobytes(), b.tobytes(), a.flags.writeable, b.flags.writeable) == before, name


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_read_only_arrays_are_accepted(name, call):
    a, b = np.array(BASE), np.array(NEW)
    if name == "fdr_bh":
        a = np.array([0.04, 0.01, 0.03, 0.5, 0.01])
    a.flags.writeable = False
    b.flags.writeable = False
    call(a, b)  # a write would raise "assignment destination is read-only" or fail in the core

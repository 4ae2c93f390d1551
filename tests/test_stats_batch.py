"""Batches (rayon, GIL released, bounded threads, fork-safe) agree with single calls."""

from __future__ import annotations

import math
import multiprocessing as mp
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
from schedlab import _testing, stats


def _series(seed: int, count: int):
    rng = np.random.default_rng(seed)
    return [rng.normal(100, 5, int(rng.integers(2, 31))) for _ in range(count)]


def test_summarize_many_equals_single_calls():
    xs = _series(1, 300) + [np.array([0.0, 1.0]), np.array([3.0]), np.array([])]
    df = stats.summarize_many(xs, threads=2)
    assert list(df.columns) == ["n", "min", "max", "amean", "hmean", "gmean", "median", "stddev", "coeff_var", "error"]
    for i, x in enumerate(xs[:300]):
        row = df.iloc[i]
        assert row["n"] == len(x)
        assert row["amean"] == stats.amean(x) and row["hmean"] == stats.hmean(x)
        assert row["gmean"] == stats.gmean(x) and row["median"] == stats.median(x)
        assert row["stddev"] == stats.stddev(x) and row["coeff_var"] == stats.coeff_var(x)
    assert math.isnan(df.iloc[300]["hmean"]) and "non-positive" in df.iloc[300]["error"]
    assert df.iloc[301]["amean"] == 3.0 and math.isnan(df.iloc[301]["stddev"])
    assert df.iloc[302]["n"] == 0 and "empty" in df.iloc[302]["error"]


def test_summarize_many_accepts_a_2d_array():
    m = np.arange(1, 13, dtype=np.int64).reshape(3, 4)
    df = stats.summarize_many(m)
    assert df.amean.tolist() == [2.5, 6.5, 10.5]


def test_compare_many_equals_single_calls():
    xs = _series(2, 200)
    pairs = list(zip(xs[::2], xs[1::2])) + [([1.0], [2.0, 3.0])]
    df = stats.compare_many(pairs, higher_is_better=False, threads=2)
    for i, (a, b) in enumerate(pairs[:-1]):
        w = stats.welch_ttest(a, b)
        u = stats.mann_whitney_u(a, b)
        row = df.iloc[i]
        assert (row["welch_t"], row["welch_df"], row["welch_p"]) == (w.t, w.df, w.p)
        assert (row["mwu_u"], row["mwu_p"]) == (u.u, u.p)
        assert row["pct_change"] == stats.pct_change(stats.amean(a), stats.amean(b), False)
    last = df.iloc[-1]
    assert math.isnan(last["welch_p"]) and "at least 2 samples" in last["error"]
    assert last["pct_change"] == stats.pct_change(1.0, 2.5, False)


def test_thread_count_does_not_change_results():
    xs = _series(3, 400)
    pairs = list(zip(xs[::2], xs[1::2]))
    one = stats.compare_many(pairs, threads=1)
    two = stats.compare_many(pairs, threads=2)
    assert one.drop(columns="error").equals(two.drop(columns="error"))


def test_env_var_bounds_the_pool():
    code = (
        "import schedlab._core as c, numpy as np;"
        "print(c.summarize_many(np.arange(4.0), np.array([2,2], dtype=np.uint64), None)['n'].tolist())"
    )
    env = dict(os.environ, SCHEDLAB_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[2, 2]"


def _child(q):
    df = stats.compare_many([([1.0, 2.0, 3.0], [4.0, 5.0, 6.5])] * 50, threads=2)
    q.put(float(df.welch_p.iloc[0]))


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
def test_fork_after_rayon_work_does_not_hang():
    stats.compare_many([([1.0, 2.0, 3.0], [4.0, 5.0, 6.5])] * 500, threads=2)  # pool used
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(q,))
    p.start()
    p.join(60)
    assert not p.is_alive(), "forked child hung in the rayon pool"
    assert p.exitcode == 0
    assert q.get(timeout=5) == stats.welch_ttest([1, 2, 3], [4, 5, 6.5]).p


def test_gil_is_released_during_batches():
    """While compare_many works in one thread (paused inside the core at its first
    cancellation check, docs/cancel.md §3), this thread runs Python: the wait below
    returns to Python only if the batch does not hold the GIL. The result equals the
    call made without the hook."""
    xs = _series(4, 20000)
    pairs = list(zip(xs[::2], xs[1::2]))
    alone = stats.compare_many(pairs, threads=1)
    gate = _testing.pause_gate()
    out = []

    def work():
        with gate.hold():
            out.append(stats.compare_many(pairs, threads=1))

    t = threading.Thread(target=work)
    t.start()
    inside = gate.wait_reached(1, 240.0)  # a hang guard, not a time bound
    ran = sum(range(100_000))  # Python runs here while the batch is inside
    gate.open()
    t.join()
    assert inside and ran == 4999950000 and not gate.gave_up
    assert out[0].equals(alone)

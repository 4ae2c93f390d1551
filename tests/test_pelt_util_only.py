"""The util-only replay (``pelt.simulate(..., columns=<within UTIL_COLUMNS>)``): the same
values as the full replay and as the kernel oracle's golden files, whether the trace comes
as a file or as columns, on one thread or split across several (src/pelt/util_only.rs,
src/pelt/speculate.rs)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from schedlab import ParseError, SchedlabError, pelt

from . import goldens
from .test_pelt_golden import REPLAYS_612, migrates, options

UTIL = list(pelt.UTIL_COLUMNS)


def test_util_columns_are_a_subset_of_the_golden_columns():
    assert set(UTIL) <= set(pelt.COLUMNS)
    assert {"t_ns", "p_util_avg", "clock_pelt", "lost_idle_time"} <= set(UTIL)
    # columns that need the load, runnable or util_est side are not in it
    assert not {"p_load_avg", "p_runnable_avg", "p_util_est", "cpu_util_cfs"} & set(UTIL)


@pytest.mark.parametrize("r", REPLAYS_612, ids=goldens.ids(REPLAYS_612))
def test_golden_util_columns(data_dir, r):
    """Every 6.12 golden's util columns, every event, from the file and from columns."""
    want = pd.read_csv(data_dir / "pelt" / r["golden"])[UTIL].astype({"event": str, "state": str})
    path = data_dir / "pelt" / r["trace"]
    # a trace that migrates is replayed from its file only (columns in memory keep one
    # runqueue, and refuse it: test_pelt_golden.py); it takes the full replay
    sources = (path,) if migrates(r) else (path, pd.read_csv(path))
    for source in sources:
        got = pelt.simulate(source, columns=UTIL, **options(r)).astype({"event": str, "state": str})
        pd.testing.assert_frame_equal(got.reset_index(drop=True), want, check_dtype=False)


def random_trace(seed: int, n: int, full_capacity: bool) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    state = rng.choice(np.array([ord("R"), ord("W"), ord("S")], dtype=np.uint8), size=n, p=[0.45, 0.15, 0.4])
    state[0] = ord("R")
    # a preempted task must run before it sleeps: W followed by S becomes W, R
    ws = np.flatnonzero((state[:-1] == ord("W")) & (state[1:] == ord("S"))) + 1
    state[ws] = ord("R")
    dur = np.where(rng.random(n) < 0.7, rng.integers(1, 3_000_000, n), rng.integers(1, 60_000_000, n))
    cap = np.full(n, 1024) if full_capacity else rng.integers(1, 1025, n)
    freq = np.full(n, 1024) if full_capacity else np.where(rng.random(n) < 0.5, 1024, rng.integers(300, 1025, n))
    return {"dur_ns": dur.astype(np.int64), "state": state, "cpu_cap": cap.astype(np.int64), "freq_cap": freq.astype(np.int64)}


@pytest.mark.parametrize("full_capacity", [True, False])
@pytest.mark.parametrize("events", [None, ["run", "sleep"], ["tick", "wake_pre", "end"]])
def test_same_as_full_replay_on_random_traces(full_capacity, events):
    for seed in range(3):
        tr = random_trace(seed, 5_000, full_capacity)
        full = pelt.simulate(tr, events=events)[UTIL]
        lean = pelt.simulate(tr, columns=UTIL, events=events)
        pd.testing.assert_frame_equal(lean, full)


def test_full_capacity_trace_longer_than_2_54_ns_keeps_the_exact_clock():
    """At full capacity the util-only replay takes the PELT clock to be the task clock,
    which holds while no busy delta reaches 2^54 ns (cap_scale's delta << 10 wraps there,
    in the kernel as here). A 2^55 ns preempted stretch must keep the wrapped clock of
    the full replay."""
    tr = {"dur_ns": np.array([5_000_000, 2**55, 5_000_000, 3_000_000], dtype=np.int64),
          "state": np.frombuffer(b"RWRS", dtype=np.uint8).copy(),
          "cpu_cap": np.full(4, 1024, dtype=np.int64), "freq_cap": np.full(4, 1024, dtype=np.int64)}
    full = pelt.simulate(tr)[UTIL]
    lean = pelt.simulate(tr, columns=UTIL)
    pd.testing.assert_frame_equal(lean, full)
    # the wrap is really there: the PELT clock is not the task clock after the W stretch
    assert (full["clock_pelt"] != full["clock_task"]).any()


@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_long_trace_split_across_threads_is_exact(monkeypatch, threads):
    """Long enough (240k segments) to be split into parts replayed at the same time from
    guessed states and verified: the rows equal the full replay's."""
    monkeypatch.setenv("SCHEDLAB_NUM_THREADS", threads)
    tr = random_trace(7, 240_000, True)
    cols = ["t_ns", "event", "seg", "p_util_avg", "p_util_sum", "p_last_update_time"]
    full = pelt.simulate(tr, columns=cols + ["cfs_util_avg"], events=["run", "sleep", "tick", "end"])[cols]
    lean = pelt.simulate(tr, columns=cols, events=["run", "sleep", "tick", "end"])
    pd.testing.assert_frame_equal(lean, full)


def test_bad_traces_are_refused_the_same_way():
    tr = random_trace(1, 100, True)
    tr["state"][10] = ord("X")
    for columns in (None, UTIL):
        with pytest.raises(ParseError, match="segment 10.*unknown state"):
            pelt.simulate(tr, columns=columns)
    tr = random_trace(1, 100, True)
    tr["dur_ns"][5] = 0
    with pytest.raises(ParseError, match="segment 5.*> 0"):
        pelt.simulate(tr, columns=["p_util_avg"])
    tr = random_trace(1, 100, True)
    tr["freq_cap"][3] = 1025
    with pytest.raises(ParseError, match="segment 3.*capacity 1025"):
        pelt.simulate(tr, columns=["p_util_avg"])
    with pytest.raises(ParseError, match="no segments"):
        pelt.simulate({"dur_ns": np.array([], dtype=np.int64), "state": np.array([], dtype=np.uint8)},
                      columns=["p_util_avg"])


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

# (durations long enough to hold billions of ticks are left out: both paths step
# through every tick, wanted or not)
_DUR = st.sampled_from([1, 1023, 1024, 4_000_000, 3_999_999, 2**40, 2**62 - 1, 2**62, 0, -1, -(2**63)])
_CAP = st.sampled_from([1, 512, 1024, 1025, 0, -5])
_STATE = st.sampled_from([ord("R"), ord("W"), ord("S"), ord("X"), 0])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_DUR, _STATE, _CAP, _CAP), min_size=0, max_size=8))
def test_column_checks_agree_with_the_full_path(rows):
    """The util-only path checks columns in bulk, the full path row by row: the same
    traces are accepted, and a refused one gets the same message (first bad row)."""
    cols = {
        "dur_ns": np.array([r[0] for r in rows], dtype=np.int64),
        "state": np.array([r[1] for r in rows], dtype=np.uint8),
        "cpu_cap": np.array([r[2] for r in rows], dtype=np.int64),
        "freq_cap": np.array([r[3] for r in rows], dtype=np.int64),
    }
    outcomes = []
    for columns in (None, ["t_ns", "p_util_avg"]):
        try:
            df = pelt.simulate(cols, columns=columns)
            outcomes.append(("ok", df[["t_ns", "p_util_avg"]].to_numpy().tolist()))
        except ParseError as e:
            outcomes.append(("parse error", str(e)))
        except SchedlabError as e:  # e.g. more tick rows than memory holds
            outcomes.append((type(e).__name__, None))
    assert outcomes[0] == outcomes[1]

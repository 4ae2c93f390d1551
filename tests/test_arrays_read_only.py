"""docs/arrays.md: an array the core borrows is read-only while the call reads it. The
call is held inside the core at its first cancellation check (docs/cancel.md §3) while
this thread writes; nothing is timed."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from schedlab import _testing, stats


def _held(call, write):
    """Run ``call`` in a thread, held at its first check while ``write()`` runs here;
    returns (what the call returned, what the write raised or None)."""
    gate = _testing.pause_gate()
    out: list[object] = []

    def work() -> None:
        with gate.hold():
            out.append(call())

    t = threading.Thread(target=work)
    t.start()
    assert gate.wait_reached(1, 240.0)  # a hang guard
    try:
        write()
        raised = None
    except ValueError as e:
        raised = e
    finally:
        gate.open()
        t.join()
    assert not gate.gave_up
    return out[0], raised


def test_a_write_during_the_call_is_refused_and_the_call_reads_what_it_started_with() -> None:
    base, new = np.linspace(1.0, 2.0, 2000), np.linspace(1.5, 2.5, 2000)
    expected = stats.bootstrap_ci(base.copy(), new.copy(), n_resamples=20_000, seed=1)

    def write() -> None:
        base[:] = np.nan

    got, raised = _held(lambda: stats.bootstrap_ci(base, new, n_resamples=20_000, seed=1), write)
    assert isinstance(raised, ValueError) and "read-only" in str(raised)
    assert got == expected
    # afterwards the array is as it was: writeable, its values untouched
    assert base.flags.writeable and np.array_equal(base, np.linspace(1.0, 2.0, 2000))
    base[0] = 7.0


def test_a_write_through_the_base_of_a_view_is_refused_too() -> None:
    whole = np.linspace(1.0, 3.0, 4000).copy()  # owns its memory: the view's .base
    view = whole[1000:3000]  # contiguous: borrowed, not copied
    assert view.base is whole
    new = np.linspace(1.5, 2.5, 2000)
    expected = stats.bootstrap_ci(view.copy(), new, n_resamples=20_000, seed=2)

    def write() -> None:
        whole[1500] = -1.0

    got, raised = _held(lambda: stats.bootstrap_ci(view, new, n_resamples=20_000, seed=2), write)
    assert isinstance(raised, ValueError) and got == expected
    assert whole.flags.writeable and view.flags.writeable


def test_read_only_inputs_stay_read_only_and_a_failed_call_restores_the_flag() -> None:
    frozen = np.linspace(1.0, 2.0, 50)
    frozen.setflags(write=False)
    stats.welch_ttest(frozen, frozen + 1)
    assert not frozen.flags.writeable
    a = np.array([0.0, 1.0, 2.0])  # a zero: the ratio statistic is undefined
    with pytest.raises(Exception, match="non-positive"):
        stats.bootstrap_ci(a, a + 1, n_resamples=100, seed=1)
    assert a.flags.writeable


# The PELT bindings borrow their integer arrays too. Expected values: the kernel's own
# pelt.c/fair.c compiled in userspace (tests/data/pelt, MANIFEST.txt names the sources).
PELT = Path(__file__).parent / "data" / "pelt"


def _refused(raised: object) -> bool:
    return isinstance(raised, ValueError) and "read-only" in str(raised)


def test_pelt_simulate_reads_the_trace_it_started_with() -> None:
    import pandas as pd
    from schedlab import pelt

    df = pd.read_csv(PELT / "inputs" / "pelt_periodic50.csv")
    want = pd.read_csv(PELT / "pelt_periodic50.golden.csv")  # 6.12, the kernel's start state
    dur = df["dur_ns"].to_numpy(dtype=np.int64).copy()
    cpu = df["cpu_cap"].to_numpy(dtype=np.int64).copy()
    trace = {"dur_ns": dur, "state": df["state"], "cpu_cap": cpu, "freq_cap": df["freq_cap"]}

    def write() -> None:
        cpu[:] = 1  # would shrink every utilisation to a thousandth
        dur[:] = 1

    got, raised = _held(lambda: pelt.simulate(trace), write)
    assert _refused(raised)
    for col in ("t_ns", "p_util_avg", "p_util_est", "cpu_util_without_p"):
        np.testing.assert_array_equal(got[col].to_numpy(), want[col].to_numpy(), err_msg=col)
    assert dur.flags.writeable and cpu.flags.writeable
    assert np.array_equal(dur, df["dur_ns"].to_numpy())


def test_pelt_element_wise_bindings_read_what_they_started_with() -> None:
    import pandas as pd
    from schedlab import pelt

    g = pd.read_csv(PELT / "pelt_decay_load.csv", dtype=np.uint64)
    val, n = g["val"].to_numpy().copy(), g["n"].to_numpy().copy()

    def zero_val() -> None:
        val[:] = 0

    got, raised = _held(lambda: pelt.decay_load(val, n), zero_val)
    assert _refused(raised)
    np.testing.assert_array_equal(got, g["decay_load"].to_numpy())

    a = pd.read_csv(PELT / "pelt_accumulate.csv", dtype=np.uint64)
    delta, load = a["delta_ns"].to_numpy().copy(), a["load"].to_numpy().copy()

    def stretch() -> None:
        delta[:] = 10**9

    got, raised = _held(lambda: pelt.accumulate(delta, load, a["runnable"], a["running"], weight=1024), stretch)
    assert _refused(raised)
    for col in ("util_sum", "load_avg", "util_avg", "period_contrib"):
        np.testing.assert_array_equal(got[col].to_numpy(), a[col].to_numpy(), err_msg=col)

    u = pd.read_csv(PELT / "util_est_update.csv")
    util = u["util_avg"].to_numpy(dtype=np.uint64).copy()

    def saturate() -> None:
        util[:] = 1024

    got, raised = _held(lambda: pelt.util_est_update(u["ewma_in"], util, u["runnable_avg"], u["cpu_cap"],
                                                     unchanged=u["flag_in"], task_sleep=u["task_sleep"]), saturate)
    assert _refused(raised)
    np.testing.assert_array_equal(got["ewma"].to_numpy(), u["ewma_out"].to_numpy())
    assert val.flags.writeable and delta.flags.writeable and util.flags.writeable

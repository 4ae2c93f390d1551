"""docs/arrays.md: an array the core borrows is read-only while the call reads it. The
call is held inside the core at its first cancellation check (docs/cancel.md §3) while
this thread writes; nothing is timed."""

from __future__ import annotations

import threading

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

"""The 0-day execl regression of d519329f72, replayed both ways: the waking (exec-ing)
task sees its CPU busier by exactly its own util_est until c469933e7721 subtracts it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from schedlab import pelt


@pytest.fixture
def execl(data_dir):
    return data_dir / "pelt" / "inputs" / "pelt_execl_like.csv"


def test_cpu_util_wake_differs_by_the_tasks_own_util_est(execl):
    before = pelt.simulate(execl, rule="d519329f72", execl_fix=False)
    after = pelt.simulate(execl, rule="d519329f72", execl_fix=True)
    # The fix changes no signal, only what cpu_util_wake reports.
    for col in ("p_util_avg", "p_util_est", "p_ue_enqueued", "cfs_util_est", "cpu_util_cfs"):
        np.testing.assert_array_equal(before[col].to_numpy(), after[col].to_numpy(), err_msg=col)
    ev = before["event"].astype(str)
    # _task_util_est(p) | UTIL_AVG_UNCHANGED, what the v4.18 fix subtracts
    own = np.maximum(before["p_util_est"], before["p_ue_enqueued"]).to_numpy() | 1
    # p enqueued or current (exec balancing happens while p is current): run, tick, wake, preempt rows
    queued = ev.isin(["run", "tick", "wake", "preempt", "fork"]).to_numpy()
    assert queued.sum() > 400
    # alone on its CPU: without p there is nothing left once the estimate is removed
    assert (after["cpu_util_without_p"].to_numpy()[queued] == 0).all()
    diff = before["cpu_util_without_p"].to_numpy() - after["cpu_util_without_p"].to_numpy()
    np.testing.assert_array_equal(diff[queued], own[queued])
    # ... and that estimate is large: the seed's regression (the CPU looks ~busy)
    assert np.median(own[queued & (ev == "tick").to_numpy()]) > 400
    # a sleeping task (the wakeup view, wake_pre) is not in the sum: no difference
    asleep = ev.isin(["wake_pre", "sleep", "end"]).to_numpy()
    np.testing.assert_array_equal(diff[asleep], 0)


def test_d519329f72_first_sample_by_hand(execl, data_dir):
    golden = pd.read_csv(data_dir / "pelt" / "pelt_execl_like.golden.csv")
    df = pelt.simulate(execl, rule="d519329f72")
    # PELT itself does not depend on the util_est rule.
    np.testing.assert_array_equal(df["p_util_avg"].to_numpy(), golden["p_util_avg"].to_numpy())
    sleep = df[df["event"] == "sleep"].iloc[0]
    assert golden[golden["event"] == "sleep"].iloc[0]["p_util_avg"] == 542
    # v4.17 order: sampled after the dequeue update, util 542:
    # enqueued = 542 | 1 = 543; ewma = (0*4 + 543) >> 2 = 135; flag set.
    assert (sleep["p_ue_enqueued"], sleep["p_util_est"], sleep["p_ue_unchanged"]) == (543, 135, 1)
    # the cfs_rq sum added at the next wakeup is max(135, 543) | 1 = 543
    wake = df[df["event"] == "wake"].iloc[0]
    assert wake["cfs_util_est"] == 543


def test_original_4_17_rule_by_hand(execl):
    df = pelt.simulate(execl, rule="4.17")
    sleeps = df[df["event"] == "sleep"]
    first, second = sleeps.iloc[0], sleeps.iloc[1]
    # enqueued = 542, ewma = 542 >> 2 = 135; no flag in this version
    assert (first["p_ue_enqueued"], first["p_util_est"], first["p_ue_unchanged"]) == (542, 135, 0)
    # second sleep at util 566: diff = 431, ewma = (135*4 + 431) >> 2 = 242
    assert second["p_util_avg"] == 566
    assert (second["p_ue_enqueued"], second["p_util_est"]) == (566, 242)


def test_6_12_has_the_fix_and_it_can_be_removed(execl, data_dir):
    golden = pd.read_csv(data_dir / "pelt" / "pelt_execl_like.golden.csv")
    without = pelt.simulate(execl, execl_fix=False)
    ev = without["event"].astype(str)
    queued = ev.isin(["run", "tick", "wake", "preempt", "fork"]).to_numpy()
    diff = without["cpu_util_without_p"].to_numpy() - golden["cpu_util_without_p"].to_numpy()
    np.testing.assert_array_equal(diff[queued], golden["p_util_est"].to_numpy()[queued])

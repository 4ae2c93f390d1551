"""schedlab.pelt beyond the goldens: the driver's documented choices, inputs, ftrace,
schedutil and the notebook helpers (numbers computed by hand in each test)."""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from schedlab import errors as schedlab_errors
from schedlab import pelt
from schedlab.cli import main

MS = 1_000_000
T0 = pelt.DEFAULT_START_NS


def test_docstring_examples():
    result = doctest.testmod(pelt, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 10


def test_columns_and_dtypes():
    df = pelt.simulate([(8 * MS, "R"), (8 * MS, "S")])
    assert tuple(df.columns) == pelt.COLUMNS
    assert list(df["event"].cat.categories) == list(pelt.EVENTS)
    assert df["t_ns"].dtype == np.int64
    old = pelt.simulate([(8 * MS, "R"), (8 * MS, "S")], rule="4.17")
    assert tuple(old.columns) == pelt.COLUMNS + ("p_ue_enqueued",)


def test_input_forms_agree():
    tuples = [(3 * MS, "R", 1024, 512), (2 * MS, "S", 1024, 512), (5 * MS, "R", 800, 1024)]
    a = pelt.simulate(tuples)
    b = pelt.simulate(pd.DataFrame(tuples, columns=["dur_ns", "state", "cpu_cap", "freq_cap"]))
    c = pelt.simulate({"dur_ns": np.array([3, 2, 5]) * MS, "state": ["R", "S", "R"],
                       "cpu_cap": [1024, 1024, 800], "freq_cap": [512, 512, 1024]})
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)


def test_splitting_a_segment_with_the_same_capacities_changes_nothing():
    whole = pelt.simulate([(8 * MS, "R", 700, 600), (8 * MS, "S", 700, 600)])
    split = pelt.simulate([(3 * MS, "R", 700, 600), (5 * MS, "R", 700, 600), (8 * MS, "S", 700, 600)])
    cols = [c for c in pelt.COLUMNS if c != "seg"]
    pd.testing.assert_frame_equal(whole[cols], split[cols])


def test_capacity_change_inside_a_run_scales_each_part():
    df = pelt.simulate([(2 * MS, "R", 512, 1024), (2 * MS, "R", 1024, 1024), (1 * MS, "S")])
    tick = df[df["event"] == "tick"].iloc[0]
    # 2 ms at 512/1024 -> 1 ms of PELT time; then 1.424 ms (to the tick at 1052000000) at full capacity
    assert tick["t_ns"] == 1_052_000_000
    assert tick["clock_pelt"] == T0 + 2 * MS * 512 // 1024 + 1_424_000
    assert tick["cpu_cap"] == 1024


def test_capacities_apply_after_the_boundary_events():
    df = pelt.simulate([(1 * MS, "R", 1024, 1024), (1 * MS, "S", 300, 1024), (1 * MS, "R", 600, 700)])
    # the sleep row still shows the running segment's capacity; the wake/run rows the sleep's
    assert df.loc[df["event"] == "sleep", "cpu_cap"].item() == 1024
    assert df.loc[df["event"] == "wake", "cpu_cap"].item() == 300
    assert df.loc[df["event"] == "end", ["cpu_cap", "freq_cap"]].values.tolist() == [[600, 700]]


def test_wakeup_into_preemption_and_first_segment_w():
    df = pelt.simulate([(1 * MS, "R"), (1 * MS, "S"), (1 * MS, "W"), (1 * MS, "R"), (1 * MS, "S")])
    assert df["event"].astype(str).tolist() == [
        "fork", "run", "sleep", "wake_pre", "wake", "run", "tick", "sleep", "end"]
    assert df.loc[df["event"] == "wake", "state"].item() == "W"
    df = pelt.simulate([(2 * MS, "W"), (1 * MS, "R"), (1 * MS, "S")])
    assert df["event"].astype(str).tolist() == ["fork", "run", "sleep", "end"]
    # waiting 2 ms (periods crossed, averages recomputed) then running: runnable > util
    run = df[df["event"] == "run"].iloc[0]
    assert run["p_runnable_avg"] > run["p_util_avg"]


def test_hz_sets_the_tick():
    df = pelt.simulate([(5 * MS, "R"), (1 * MS, "S")], hz=1000)
    ticks = df.loc[df["event"] == "tick", "t_ns"].tolist()
    # multiples of 1 ms after 1048.576 ms up to the end of the run at 1053.576 ms
    assert ticks == [1_049_000_000, 1_050_000_000, 1_051_000_000, 1_052_000_000, 1_053_000_000]


def test_trace_round_trip(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("# comment\nstate,dur_ns\nR,5000\n\nS,7000\n")
    df = pelt.read_trace(path)
    assert df.to_dict("list") == {"dur_ns": [5000, 7000], "state": ["R", "S"],
                                  "cpu_cap": [1024, 1024], "freq_cap": [1024, 1024]}
    pd.testing.assert_frame_equal(pelt.simulate(df), pelt.simulate(path))


FTRACE = """\
# tracer: nop
            bash-10    [001] d..2.   100.000000: sched_wakeup_new: comm=foo pid=42 prio=120 target_cpu=001
          <idle>-0     [001] d..2.   100.000100: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=foo next_pid=42 next_prio=120
             foo-42    [001] d..2.   100.003100: sched_switch: prev_comm=foo prev_pid=42 prev_prio=120 prev_state=R+ ==> next_comm=rt next_pid=7 next_prio=0
              rt-7     [001] d..2.   100.004100: sched_switch: prev_comm=rt prev_pid=7 prev_prio=0 prev_state=S ==> next_comm=foo next_pid=42 next_prio=120
             foo-42    [001] d..2.   100.005100: sched_switch: prev_comm=foo prev_pid=42 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0     [001] d.h2.   100.010100: sched_wakeup: comm=bar pid=43 prio=120 target_cpu=001
"""


def test_ftrace_task(tmp_path):
    path = tmp_path / "trace.txt"
    path.write_text(FTRACE)
    df = pelt.ftrace_task(path, 42, cpu_cap=512)
    assert df[["dur_ns", "state"]].values.tolist() == [
        [100_000, "W"], [3_000_000, "R"], [1_000_000, "W"], [1_000_000, "R"], [5_000_000, "S"]]
    assert df.attrs["start_ns"] == 100_000_000_000
    assert (df["cpu_cap"] == 512).all()
    sim = pelt.simulate(df)
    # W 0.1 ms, R 3 ms (no tick: the next one is at 1052 ms), preempted
    assert sim["event"].astype(str).tolist()[:3] == ["fork", "run", "preempt"]


def test_cli_ftrace_then_simulate(tmp_path, capsys):
    path = tmp_path / "trace.txt"
    path.write_text(FTRACE)
    out = tmp_path / "task.csv"
    assert main(["pelt", "ftrace", str(path), "--pid", "42", "-o", str(out)]) == 0
    assert out.read_text() == ("dur_ns,state,cpu_cap,freq_cap\n100000,W,1024,1024\n3000000,R,1024,1024\n"
                               "1000000,W,1024,1024\n1000000,R,1024,1024\n5000000,S,1024,1024\n")
    assert "5 segments from 5 events" in capsys.readouterr().err
    csv = tmp_path / "sim.csv"
    assert main(["pelt", "simulate", str(out), "-o", str(csv)]) == 0
    assert csv.read_bytes() == pelt.simulate_csv(out)


LISA = Path(__file__).parent / "data" / "traces" / "lisa"


def test_cli_ftrace_per_cpu_capacity(tmp_path, capsys):
    # LISA's Juno r0 trace (big.LITTLE): sshd (pid 2928) runs on cpu1 (big: 1024 in the
    # plat-info's cpu-capacities) and on LITTLE CPUs (446); the LITTLE domain's
    # cpu_frequency at 2084.227212 s sets 450000 of 850000 kHz: (450000 << 10) // 850000
    assert (450000 << 10) // 850000 == 542
    out = tmp_path / "sshd.csv"
    args = ["pelt", "ftrace", str(LISA / "sched_load.report.txt"), "--pid", "2928", "-o", str(out)]
    assert main([*args, "--plat-info", str(LISA / "sched_load.plat_info.yml")]) == 0
    df = pd.read_csv(out)
    assert set(df["cpu_cap"]) == {446, 1024}
    assert 542 in set(df["freq_cap"])
    err = capsys.readouterr().err
    assert "note: CPU capacity cpu0=446 cpu1=1024 cpu3=446 cpu4=446 cpu5=446 (plat-info" in err
    # the same capacities given by hand, and the old single values
    given = pelt.ftrace_task(LISA / "sched_load.report.txt", 2928, cpu_capacity=[446, 1024, 1024, 446, 446, 446],
                             max_freq={0: 850000, 1: 1100000, 2: 1100000, 3: 850000, 4: 850000, 5: 850000})
    assert set(given["cpu_cap"]) == {446, 1024}
    one = pelt.ftrace_task(LISA / "sched_load.report.txt", 2928, cpu_cap=512, freq_cap=1024)
    assert set(one["cpu_cap"]) == {512} and set(one["freq_cap"]) == {1024}
    with pytest.raises(schedlab_errors.DomainError, match="CPU=VALUE"):
        pelt.ftrace_task(LISA / "sched_load.report.txt", 2928, cpu_capacity="big")


def test_ftrace_traced_start_state():
    """sudo (3104) in LISA's Juno trace: its first sched_load_se is `load=1007 util=473`
    (the kernel's own values), 2 us before it first runs: the replay starts there with
    them (docs/pelt.md §10), under 4.19's PELT."""
    src = (LISA / "sched_load.report.txt").read_bytes()
    line = next(x for x in src.decode().splitlines() if "sched_load_se" in x and " pid=3104 " in x)
    assert line.endswith("load=1007 util=473")
    whole = pelt.ftrace_task(src, 3104, plat_info=LISA / "sched_load.plat_info.yml")
    assert whole.attrs["init"] is None  # not asked for: the whole trace
    df = pelt.ftrace_task(src, 3104, plat_info=LISA / "sched_load.plat_info.yml", traced_start=True)
    assert df.attrs["init"] == {"util_avg": 473, "load_avg": 1007, "runnable_avg": None, "util_est": None}
    assert any("start state from its traced PELT state (util_avg 473, load_avg 1007" in n for n in df.attrs["notes"])
    rows = pelt.simulate(df, init=df.attrs["init"], kernel="4.19", start_ns=df.attrs["start_ns"])
    assert rows.iloc[0][["p_util_avg", "p_load_avg"]].tolist() == [473, 1007]
    # 4.19 keeps runnable_load_avg = load_avg when none is given
    assert rows.iloc[0]["p_runnable_avg"] == 1007
    with pytest.raises(schedlab_errors.DomainError, match="needs 'util_avg'"):
        pelt.simulate(df, init={"load_avg": 3})


def test_ftrace_errors(tmp_path):
    import schedlab

    with pytest.raises(schedlab.ParseError, match="pid 99"):
        pelt.ftrace_task(FTRACE.encode(), 99)
    bad = FTRACE.replace("100.005100", "100.001100")
    with pytest.raises(schedlab.ParseError, match="goes backwards") as e:
        pelt.ftrace_task(bad.encode(), 42)
    assert e.value.line == 6


def test_schedutil_by_hand():
    # util 700: perf = 700 + 175 = 875; 875/1024 of 2.0 GHz = 1708984 kHz -> next OPP 1.8 GHz
    assert pelt.schedutil(700, 1024, 2_000_000, opps=[1_000_000, 1_800_000, 2_000_000]) == (875, 1_800_000)
    # saturated: capped at the capacity (446 on a little CPU), a floor wins
    assert pelt.schedutil(900, 446, 1_000_000).perf == 446
    assert pelt.schedutil(10, 1024, 1_000_000, min_perf=300).perf == 300
    assert pelt.map_util_perf(881) == 1101


def test_cpu_util_by_hand():
    # boost: max(util 300, runnable 500, est 400) = 500
    assert pelt.cpu_util(300, 400, cfs_runnable_avg=500, boost=True) == 500
    # a task moving here adds its util (200) and its estimate (450): max(500, 850) = 850
    t = {"util_avg": 200, "util_est": 450, "on_this_cpu": False}
    assert pelt.cpu_util(300, 400, task=t, dst="this") == 850
    # clamp to capacity
    assert pelt.cpu_util(300, 900, capacity=446) == 446
    # UTIL_EST off: the estimate is ignored
    assert pelt.cpu_util(300, 900, util_est=False) == 300


def test_util_est_vectorised_and_scalar_agree():
    df = pelt.util_est_update([300, 300, 5], [100, 295, 800], cpu_cap=[1024, 1024, 446])
    # 300 -> 250 (diff 200 / 4); 300 vs 295 within the margin: kept; 800 > 446 but it is an increase: 800
    assert df["ewma"].tolist() == [250, 300, 800]
    assert pelt.util_est_update(300, 100) == (250, True, 0)
    # decrease with util above the capacity: not a valid sample, nothing stored (flag stays clear)
    assert pelt.util_est_update(900, 500, cpu_cap=446) == (900, False, 0)


def test_decay_load_by_hand():
    # 1024 * y^32 = 512 -> 1024 >> 1 = 512, * (2^32-1) >> 32 = 511
    assert pelt.decay_load(1024, 32) == 511
    assert pelt.decay_load(2**63, 2017) == 0
    np.testing.assert_array_equal(pelt.decay_load([1024, 47742], [32, 1]), [511, 46718])


def test_selecting_columns_and_events(data_dir):
    path = data_dir / "pelt" / "inputs" / "pelt_execl_like.csv"
    full = pelt.simulate(path)
    part = pelt.simulate(path, columns=["t_ns", "p_util_avg", "event"], events=["sleep", "wake"])
    assert list(part.columns) == ["t_ns", "event", "p_util_avg"]
    want = full[full["event"].isin(["sleep", "wake"])][["t_ns", "event", "p_util_avg"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(part, want)
    import schedlab

    with pytest.raises(schedlab.DomainError, match="unknown column 'nope'"):
        pelt.simulate(path, columns=["nope"])
    with pytest.raises(schedlab.DomainError, match="unknown event 'nap'"):
        pelt.simulate(path, events="nap")

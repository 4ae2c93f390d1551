"""The references of tests/data/traces/why/ (its README) hold together: each CSV is what
the reference tool printed, and the kernel's counters agree with what trace-cmd shows of
each trace. Nothing here runs schedlab: these guard the goldens the trace comparison is
tested against."""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from pathlib import Path

import pytest

WHY = Path(__file__).parent / "data" / "traces" / "why"


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# --- perf sched ---------------------------------------------------------------------

PERF = sorted(p for p in (WHY / "perf-sched").iterdir() if p.is_dir())


@pytest.mark.parametrize("rec", PERF, ids=[p.name for p in PERF])
def test_timehist_csv_is_every_event_line_of_perfs_text(rec: Path) -> None:
    lines = (rec / "timehist-state.txt").read_text().splitlines()
    assert lines[0].split() == ["time", "cpu", "task", "name", "wait", "time", "sch", "delay", "run", "time", "state"]
    events = [ln for ln in lines[3:] if ln.strip()]
    rows = _rows(rec / "timehist.csv")
    assert len(rows) == len(events) > 100
    for row, ln in zip(rows, events):
        # perf's columns, right to left: state, run, delay, wait; the task is `comm[tid/pid]`
        fields = ln.split()
        assert fields[0] == row["time_s"] and fields[1] == f"[{int(row['cpu']):04d}]"
        assert fields[-4:] == [row["wait_ms"], row["sch_delay_ms"], row["run_ms"], row["state"]]
        task = f"{row['comm']}[{row['tid']}" + ("" if row["tid"] == row["pid"] else f"/{row['pid']}") + "]"
        assert " ".join(fields[2:-4]) == task


@pytest.mark.parametrize("rec", PERF, ids=[p.name for p in PERF])
def test_latency_csvs_are_perfs_task_rows(rec: Path) -> None:
    for name in ("latency", "latency-p"):
        text = (rec / f"{name}.txt").read_text()
        task_lines = [ln for ln in text.splitlines() if "| avg:" in ln]
        rows = _rows(rec / f"{name}.csv")
        assert len(rows) == len(task_lines) > 5
        for row, ln in zip(rows, task_lines):
            assert ln.strip().startswith(row["task"])
            assert re.search(rf"avg: +{re.escape(row['avg_delay_ms'])} ms \| max: +{re.escape(row['max_delay_ms'])} ms", ln)
        # per pid, no task is merged; per name, the merged counts add up to the pid rows
        if name == "latency-p":
            assert {r["tasks"] for r in rows} == {"1"}
    per_name = defaultdict(int)
    for r in _rows(rec / "latency-p.csv"):
        per_name[r["comm"]] += int(r["switches"])
    for r in _rows(rec / "latency.csv"):
        assert per_name[r["comm"]] == int(r["switches"]), r["task"]


@pytest.mark.parametrize("rec", PERF, ids=[p.name for p in PERF])
def test_the_summary_counts_every_switch_in_of_timehist(rec: Path) -> None:
    """timehist -s counts, per task, the lines timehist printed for it."""
    lines = defaultdict(int)
    for r in _rows(rec / "timehist.csv"):
        lines[r["tid"]] += 1
    summary = _rows(rec / "timehist-summary.csv")
    assert summary
    for r in summary:
        assert int(r["sched_in"]) == lines[r["tid"]], r["comm"]


# --- LISA ---------------------------------------------------------------------------

def test_lisa_idle_residency_runs_from_each_cpus_first_event_to_the_window_end() -> None:
    """LISA counts a CPU's states from its first cpu_idle record to the end of the trace
    window (the last state extended to it): the states' times (-1, not idle, included)
    add up to that span on every CPU (first records as trace-cmd prints them)."""
    d = WHY / "lisa" / "sched_load"
    (w,) = _rows(d / "window.csv")
    first: dict[str, float] = {}
    report = WHY.parent / "lisa-sched_load" / "report-t.txt"
    for ln in report.read_text().splitlines():
        m = re.search(r"(\d+\.\d+): cpu_idle:\s+state=\d+ cpu_id=(\d+)", ln)
        if m:
            first.setdefault(m[2], float(m[1]))
    per = defaultdict(float)
    for r in _rows(d / "idle-residency-cpu.csv"):
        per[r["cpu"]] += float(r["time_s"])
    assert sorted(per) == sorted(first) == [str(c) for c in range(int(w["cpus_count"]))]
    for cpu, v in per.items():
        assert v == pytest.approx(float(w["end_s"]) - first[cpu], abs=1e-9)
    # a cluster from its first CPU's first record
    clusters = defaultdict(float)
    for r in _rows(d / "idle-residency-cluster.csv"):
        clusters[r["cluster"]] += float(r["time_s"])
    assert sorted(clusters) == ["0 3 4 5", "1 2"]
    for cl, v in clusters.items():
        assert v == pytest.approx(float(w["end_s"]) - min(first[c] for c in cl.split()), abs=1e-9)


def test_lisa_frequency_residency_is_bounded_by_the_window() -> None:
    d = WHY / "lisa" / "sched_load"
    (w,) = _rows(d / "window.csv")
    span = float(w["end_s"]) - float(w["start_s"])
    total = defaultdict(float)
    for r in _rows(d / "freq-residency-cpu.csv"):
        assert 0 <= float(r["active_time_s"]) <= float(r["total_time_s"]) + 1e-12
        total[r["cpu"]] += float(r["total_time_s"])
    # each CPU's first frequency event starts its residency: never more than the window
    assert total and all(0 < v <= span + 1e-9 for v in total.values())


def test_lisa_task_rows_add_up_to_its_own_aggregates() -> None:
    d = WHY / "lisa" / "trace_txt"
    states = _rows(d / "tasks-states.csv")
    assert len(states) > 4000
    by = defaultdict(float)
    for r in states:
        if r["delta"]:
            by[(r["pid"], r["comm"], r["curr_state"])] += float(r["delta"])
    agg = _rows(d / "tasks-state-time.csv")
    assert len(agg) == len({(r["pid"], r["comm"], r["curr_state"]) for r in states})
    for r in agg:
        key = (r["pid"], r["comm"], r["curr_state"])
        assert (float(r["time_s"]) if r["time_s"] else 0.0) == pytest.approx(by.get(key, 0.0), abs=1e-12)
    # LISA's per-CPU residency of a task adds up over CPUs to its runtime (TASK_ACTIVE, 8192)
    runtime = {r["pid"]: float(r["runtime_s"]) for r in _rows(d / "tasks-runtime.csv")}
    res = defaultdict(float)
    for r in _rows(d / "tasks-residency.csv"):
        res[r["pid"]] += float(r["runtime_s"])
    assert res and all(v == pytest.approx(runtime[p], abs=1e-9) for p, v in res.items())


# --- the kernel's cpuidle counters against the traces -----------------------------------

KERNEL = sorted(p.parent for p in (WHY / "kernel").glob("*/trace.dat"))
SNAP = re.compile(r"^/sys/devices/system/cpu/cpu(\d+)/cpuidle/state(\d+)/(\w+):(.*)$")
COUNTERS = ("usage", "time", "above", "below", "rejected")


def _snapshot(path: Path) -> dict[tuple[int, int], dict[str, str]]:
    out: dict[tuple[int, int], dict[str, str]] = {}
    for ln in path.read_text().splitlines():
        m = SNAP.match(ln)
        assert m, ln
        out.setdefault((int(m[1]), int(m[2])), {})[m[3]] = m[4]
    return out


def _check_delta_and_trace(before: Path, after: Path, delta: Path, counts: Path) -> list[dict[str, str]]:
    b, a = _snapshot(before), _snapshot(after)
    rows = _rows(delta)
    assert [(int(r["cpu"]), int(r["state"])) for r in rows] == sorted(b)
    for r in rows:
        key = (int(r["cpu"]), int(r["state"]))
        for c in COUNTERS:
            assert int(r[c]) == int(a[key][c]) - int(b[key][c])
    # what trace-cmd shows of the trace, per CPU and state, equals the counters' advance
    seen = {(int(r["cpu"]), int(r["state"])): r for r in _rows(counts)}
    for r in rows:
        t = seen.get((int(r["cpu"]), int(r["state"])))
        got = {k: int(t[k]) if t else 0 for k in ("entries", "periods", "above", "below")}
        assert got == {"entries": int(r["usage"]), "periods": int(r["usage"]), "above": int(r["above"]),
                       "below": int(r["below"])}, (delta, r)
        if t and int(r["usage"]):
            # the trace's residency (between the two cpu_idle records) holds the kernel's
            # (between two local_clock reads inside them), within 1 µs of truncation
            assert int(t["time_ns"]) / 1000 >= int(r["time"]) - 1
    return rows


@pytest.mark.parametrize("rec", KERNEL, ids=[p.name for p in KERNEL])
def test_kernel_counters_equal_the_idle_periods_trace_cmd_shows(rec: Path) -> None:
    rows = _check_delta_and_trace(rec / "sysfs-before.txt", rec / "sysfs-after.txt", rec / "sysfs-delta.csv",
                                  rec / "trace-counts.csv")
    assert sum(int(r["usage"]) for r in rows) > 0  # the recording idled


RUNS = sorted(WHY.glob("experiment*/*/run-*.dat"))


@pytest.mark.parametrize("dat", RUNS, ids=[f"{p.parent.parent.name}/{p.parent.name}/{p.stem}" for p in RUNS])
def test_experiment_counters_equal_the_idle_periods_trace_cmd_shows(dat: Path) -> None:
    stem = str(dat)[: -len(".dat")]
    _check_delta_and_trace(Path(stem + ".sysfs-before.txt"), Path(stem + ".sysfs-after.txt"),
                           Path(stem + ".sysfs-delta.csv"), Path(stem + ".trace-counts.csv"))


def test_the_long_probe_traced_every_idle_period_of_both_cpus() -> None:
    """15 minutes on a busy machine: per CPU, the cpu_idle entries in the raw ftrace text
    equal the advance of the CPU's usage counters (docs/live.md §8)."""
    d = WHY / "cpu-idle-probe"

    def usage(name: str) -> dict[int, int]:
        out: dict[int, int] = defaultdict(int)
        for ln in (d / name).read_text().splitlines():
            m = re.match(r"/sys/devices/system/cpu/cpu(\d+)/cpuidle/state\d+/usage:(\d+)$", ln)
            assert m, ln
            out[int(m[1])] += int(m[2])
        return out

    before, after = usage("usage-before.txt"), usage("usage-after.txt")
    entries: dict[int, int] = defaultdict(int)
    exits: dict[int, int] = defaultdict(int)
    for ln in (d / "trace.txt").read_text().splitlines():
        m = re.search(r"\[(\d+)\] \S+ +\d+\.\d+: cpu_idle: state=(\d+) cpu_id=(\d+)", ln)
        if m:
            assert m[1].lstrip("0") == m[3].lstrip("0")  # written by the CPU it names
            (exits if m[2] == "4294967295" else entries)[int(m[3])] += 1
    assert {c: after[c] - before[c] for c in before} == dict(entries) == dict(exits) == {0: 1, 1: 24}


def test_the_recordings_are_small() -> None:
    total = sum(f.stat().st_size for f in WHY.rglob("*") if f.is_file())
    assert total < 8 << 20, total
    assert all(f.stat().st_size < 1 << 20 for f in WHY.rglob("*") if f.is_file())

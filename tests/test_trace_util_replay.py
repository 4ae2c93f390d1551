"""``schedlab trace compare --util-task``: named tasks' util_avg and util_est replayed from
their scheduling events (docs/trace-compare.md §3.4), checked against the kernel.

- Every update: the kernel PELT oracle's golden rows (tests/data/pelt/*.golden.csv, the
  kernel's pelt.c and fair.c compiled in userspace by tools/oracles/kernel/) hold the
  task's ``se.avg`` after every update of its canonical traces; the same segments written
  as the scheduling events of a trace (tests/data/traces/why/pelt-oracle/, by
  tools/oracles/why/pelt_segments_to_ftrace.py) must give the statistics of those rows,
  computed here from the CSV.
- This machine's kernel: tests/data/live/self-a and self-b (tests/data/live/README.md)
  hold the task's own ``/proc/self/sched`` readings, each the kernel's ``se.avg`` at one
  of its updates; the replay's samples are every update, so its maximum is at least
  every reading's (within the ±1 of docs/pelt.md §12) and the readings' values lie in
  its range.
"""

from __future__ import annotations

import csv
import json
import pickle
from pathlib import Path

import numpy as np
import pytest
from schedlab import trace
from schedlab.errors import SchedlabError

from .cli_run import run_cli

DATA = Path(__file__).parent / "data"
ORACLE = DATA / "traces" / "why" / "pelt-oracle"
GOLDEN = DATA / "pelt"
LIVE = DATA / "live"
NAMES = ["periodic50", "periodic25", "step10to80"]


def golden_samples(name: str) -> tuple[list[int], list[int]]:
    """util_avg and util_est after each of the oracle's updates: the last row of each
    ``p_last_update_time``, the ``wake_pre`` rows (the state before the wakeup's own
    update) left out."""
    last: dict[int, dict[str, str]] = {}
    with (GOLDEN / f"pelt_{name}.golden.csv").open() as f:
        for row in csv.DictReader(f):
            if row["event"] != "wake_pre":
                last[int(row["p_last_update_time"])] = row
    rows = [last[k] for k in sorted(last)]
    return [int(r["p_util_avg"]) for r in rows], [int(r["p_util_est"]) for r in rows]


def replayed(m: trace.TraceMetrics, scope: str) -> dict[str, float]:
    df = m.to_pandas()
    sub = df[df["scope"] == scope]
    return dict(zip(sub["name"], sub["value"]))


@pytest.mark.parametrize("name", NAMES)
def test_every_update_is_the_kernel_oracles(name: str) -> None:
    util, est = golden_samples(name)
    assert len(util) > 100
    [m] = trace.metrics(ORACLE / f"{name}.txt", util_tasks=["task"])
    got = replayed(m, "pelt comm=task")
    want = {
        "util_avg mean": float(np.mean(util)),
        "util_avg p90": float(np.percentile(util, 90)),
        "util_avg max": float(max(util)),
        "util_est.ewma mean": float(np.mean(est)),
        "util_est.ewma max": float(max(est)),
    }
    assert got == pytest.approx(want, rel=1e-12, abs=0)
    # by pid: the same task
    [by_pid] = trace.metrics(ORACLE / f"{name}.txt", util_tasks=[4242])
    assert replayed(by_pid, "pelt pid=4242") == got


@pytest.mark.parametrize("name", ["self-a", "self-b"])
def test_this_machines_kernel_readings_lie_within_the_replay(name: str) -> None:
    rec = LIVE / name
    pid = json.loads((rec / "meta.json").read_text())["pid"]
    [m] = trace.metrics(rec / "trace.dat", util_tasks=[str(pid)])
    got = replayed(m, f"pelt pid={pid}")
    notes = "\n".join(m.notes)
    # the replay is the one `pelt ftrace` makes: on the task's PELT clock, from a reading
    assert f"pelt replay of pid {pid}:" in notes and "the replay starts from the /proc/PID/sched reading" in notes
    kernel_util, kernel_est = [], []
    for line in (rec / "sched.txt").read_text().splitlines():
        key, _, value = line.partition(" : ")
        if key == "se.avg.util_avg":
            kernel_util.append(int(value))
        elif key == "se.avg.util_est":
            kernel_est.append(int(value))
    assert len(kernel_util) > 50
    # the readings are some of the updates (the task reads itself while it runs): the
    # replay's maximum over all of them reaches theirs, within the ±1 of util_avg
    assert got["util_avg max"] >= max(kernel_util) - 1
    assert got["util_est.ewma max"] >= max(kernel_est)
    assert min(kernel_util) - 1 <= got["util_avg mean"] <= got["util_avg max"]
    print(name, got, "kernel readings: max", max(kernel_util), "mean", np.mean(kernel_util))


def test_compare_decides_the_replayed_rows_in_every_format(tmp_path: Path) -> None:
    groups = {"p25": [ORACLE / "periodic25.txt", ORACLE / "step10to80.txt"],
              "p50": [ORACLE / "periodic50.txt", ORACLE / "step10to80.txt"]}
    c = trace.compare(groups, util_tasks=["task"])
    rows = [r for r in c.rows if r.group == "pelt comm=task"]
    assert {r.name for r in rows} == {"util_avg mean", "util_avg p90", "util_avg max", "util_est.ewma mean",
                                      "util_est.ewma max"}
    mean = next(r for r in rows if r.name == "util_avg mean")
    want = [float(np.mean(golden_samples(n)[0])) for n in ("periodic25", "step10to80")]
    assert mean.cells[0].samples == pytest.approx(want, rel=1e-12)
    assert "pelt comm=task" in c.to_csv() and "pelt comm=task" in c.to_markdown()
    assert "pelt comm=task" in c.to_json() and "pelt comm=task" in c.to_text()
    flat = [str(p) for ps in groups.values() for p in ps]
    code, out, err = run_cli("trace", "compare", "--group", "p25", *flat[:2], "--group", "p50", *flat[2:],
                             "--util-task", "task", "--format", "json", "--fail-on", "never")
    assert code == 0, err
    assert out == c.to_json(indent=1) + "\n"


def test_on_dask_the_same_replay() -> None:
    import dask  # noqa: F401
    from schedlab import distributed

    groups = {"a": [ORACLE / "periodic25.txt", ORACLE / "periodic50.txt"],
              "b": [ORACLE / "periodic50.txt", ORACLE / "step10to80.txt"]}
    local = trace.compare(groups, util_tasks=["task"])
    assert distributed.trace_compare(groups, util_tasks=["task"]) == local


def test_options_and_metrics_pickle() -> None:
    opts = trace.TraceOptions(util_task=["task", "12"])
    assert pickle.loads(pickle.dumps(opts)).util_task == ["task", "12"]
    [m] = trace.metrics(ORACLE / "periodic50.txt", util_tasks=["task"])
    assert pickle.loads(pickle.dumps(m)) == m
    assert trace.TraceMetrics.from_json(m.to_json()) == m


def test_a_task_not_in_the_trace_is_named() -> None:
    path = ORACLE / "periodic50.txt"
    with pytest.raises(SchedlabError, match=r"periodic50\.txt.*no task named \"nginx\""):
        trace.metrics(path, util_tasks=["nginx"])
    with pytest.raises(SchedlabError, match=r"no task with pid 77"):
        trace.metrics(path, util_tasks=[77])
    code, _, err = run_cli("trace", "compare", "--group", "a", str(path), "--group", "b", str(path),
                           "--util-task", "nginx")
    assert code == 2 and "nginx" in err and "periodic50.txt" in err and "Traceback" not in err


def test_a_trace_without_the_scheduling_events_is_named(tmp_path: Path) -> None:
    # the same trace without its sched_switch events: its wakeups name the task, but
    # nothing says when it ran
    lines = (ORACLE / "periodic50.txt").read_text().splitlines(keepends=True)
    bad = tmp_path / "no-switch.txt"
    bad.write_text("".join(x for x in lines if "sched_switch:" not in x))
    with pytest.raises(SchedlabError, match=r"no-switch\.txt.*no sched_switch event"):
        trace.metrics(bad, util_tasks=["task"])


def test_bad_names_are_refused() -> None:
    with pytest.raises(SchedlabError, match="longer than the kernel's 15-byte"):
        trace.TraceOptions(util_task=["a-name-longer-than-15"])
    with pytest.raises(SchedlabError, match="empty"):
        trace.TraceOptions(util_task=[" "])

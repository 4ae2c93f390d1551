"""A task recorded on this machine that logged its own /proc/self/sched (tests/data/live/
self-a, self-b: tools/oracles/live/record_self.sh, docs/pelt.md §12), replayed as a user
would: ``schedlab pelt ftrace`` then ``schedlab pelt simulate``, nothing else given.

The expected values are the kernel's own: every reading of sched.txt is the task's
``se.avg`` at one of the kernel's updates, at its ``last_update_time``. A reading is
compared with the last replay row whose ``p_last_update_time`` is the same (the replay
runs on the task's PELT clock, so its update times are the kernel's); a reading no row
matches counts as a miss. The readings are parsed here by hand, not by schedlab."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from schedlab.cli import main

LIVE = Path(__file__).parent / "data" / "live"


def readings(path: Path) -> list[dict[str, int]]:
    """The sched.txt dumps: the se.avg fields as integers, one dict per reading."""
    out: list[dict[str, int]] = []
    for line in path.read_text().splitlines():
        if line.startswith("# t_mono_ns="):
            out.append({})
        elif line.startswith("se.avg.") and out:
            key, value = (x.strip() for x in line.split(":", 1))
            out[-1][key.removeprefix("se.avg.")] = int(value)
    # the recorder keeps a reading only when two reads agree; the same update may be
    # read several times
    seen: set[int] = set()
    return [r for r in out if not (r["last_update_time"] in seen or seen.add(r["last_update_time"]))]


@pytest.mark.parametrize("name", ["self-a", "self-b"])
def test_pelt_ftrace_then_simulate_agrees_with_the_kernel(name, tmp_path, capsys):
    rec = LIVE / name
    pid = json.loads((rec / "meta.json").read_text())["pid"]
    trace_csv, rows_csv = tmp_path / "task.csv", tmp_path / "rows.csv"
    assert main(["pelt", "ftrace", str(rec / "trace.dat"), "--pid", str(pid), "-o", str(trace_csv)]) == 0
    notes = capsys.readouterr().err
    # it says what it used: the runtimes, the readings in the trace, the kernel of the header
    assert "placed on its PELT clock" in notes and "sched_stat_runtime events" in notes
    assert "the trace's kernel is Linux 6.18.44" in notes and "the rules of 6.18" in notes
    assert "the replay starts from the /proc/PID/sched reading" in notes
    head = trace_csv.read_text().splitlines()[:3]
    assert head[0].startswith("# pelt: start_ns=") and "kernel=6.18" in head[0]
    assert head[1].startswith("# pelt: init=snapshot last_update_time=")
    assert main(["pelt", "simulate", str(trace_csv), "-o", str(rows_csv)]) == 0
    with rows_csv.open() as f:
        rows = list(csv.DictReader(f))
    last = {int(r["p_last_update_time"]): r for r in rows}  # the last row of each update time
    start = int(rows[0]["p_last_update_time"])
    kernel = [r for r in readings(rec / "sched.txt") if r["last_update_time"] > start]
    assert len(kernel) > 50
    within = exact = ue = 0
    for r in kernel:
        row = last.get(r["last_update_time"])
        if row is None:
            continue
        d = abs(int(row["p_util_avg"]) - r["util_avg"])
        within += d <= 1
        exact += d == 0
        ue += int(row["p_util_est"]) == r["util_est"]
    n = len(kernel)
    assert within >= 0.99 * n, f"{name}: util_avg within 1 on {within}/{n}"
    assert ue >= 0.95 * n, f"{name}: util_est exact on {ue}/{n}"
    # recorded here: self-a 59/59 (58 exact) and util_est 59/59, self-b 408/408 (400 exact)
    # and 408/408
    print(f"{name}: util_avg within 1 {within}/{n}, exact {exact}, util_est {ue}/{n}")

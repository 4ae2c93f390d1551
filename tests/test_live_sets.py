"""schedlab live sets (docs/live.md §8): N recordings per group of settings, each trace
bracketed by every CPU's cpuidle counters, every setting restored."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import struct
import subprocess

import pytest
from schedlab import cli, live

# These tests record on the running kernel and change its settings (tracefs instances,
# the cpuidle governor, /dev/cpu_dma_latency): each holds the machine-wide lock of
# those settings (tests/conftest.py), so no other such test runs beside it.
pytestmark = pytest.mark.usefixtures("running_kernel")

TRACEFS = "/sys/kernel/tracing"
CPUIDLE = "/sys/devices/system/cpu/cpuidle"
LATENCY = "/dev/cpu_dma_latency"


def test_groups_are_refused_with_what_was_expected(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="setting must be one of governor, latency-us, disable-state, got 'speed'"):
        live.record_sets(tmp_path / "s", ["a:speed=3"])
    with pytest.raises(ValueError, match="latency-us takes a number of µs ≥ 0, got '-1'"):
        live.record_sets(tmp_path / "s", {"a": {"latency-us": -1}})
    with pytest.raises(ValueError, match="group 'a' is given twice"):
        live.record_sets(tmp_path / "s", ["a", "a:governor=menu"])
    with pytest.raises(ValueError, match="runs must be at least 1"):
        live.record_sets(tmp_path / "s", ["a"], runs=0)
    with pytest.raises(ValueError, match="names a directory"):
        live.record_sets(tmp_path / "s", {"../up": {}})
    assert not (tmp_path / "s").exists()
    assert live.SETTINGS == ("governor", "latency-us", "disable-state")
    assert "power/cpu_idle_miss" in live.SET_EVENTS


def test_cli_names_a_bad_group_and_exits_2(capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["live", "sets", "/nonexistent/out", "--group", "a:governor"]) == 2
    err = capsys.readouterr().err
    assert "group 'a:governor': expected KIND=VALUE after ':', got 'governor'" in err
    assert not os.path.exists("/nonexistent/out")


# --- a real set on this machine (root, tracefs, trace-cmd, cpuidle; skipped elsewhere) ---

def _cannot_record() -> str | None:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "recording sets needs root"
    if shutil.which("trace-cmd") is None:
        return "trace-cmd is not installed"
    if not os.path.isdir(TRACEFS):
        return f"no tracefs mount point at {TRACEFS}"
    if not os.path.exists(os.path.join(CPUIDLE, "current_governor")) or not os.path.exists(LATENCY):
        return "no cpuidle governor or PM QoS device here"
    return None


def _latency_request() -> int:
    """The CPU latency constraint in force (reading the device gives it, µs)."""
    with open(LATENCY, "rb") as f:
        value: int = struct.unpack("i", f.read(4))[0]
        return value


def _settings() -> dict[str, object]:
    inst = os.path.join(TRACEFS, "instances")
    disable = {}
    for c in os.listdir("/sys/devices/system/cpu"):
        d = f"/sys/devices/system/cpu/{c}/cpuidle"
        if re.fullmatch(r"cpu\d+", c) and os.path.isdir(d):
            for s in os.listdir(d):
                with open(f"{d}/{s}/disable") as f:
                    disable[(c, s)] = f.read()
    with open(os.path.join(CPUIDLE, "current_governor")) as f:
        governor = f.read()
    return {
        "governor": governor,
        "disable": disable,
        "latency": _latency_request(),
        "tracefs mounted": os.path.isdir(inst),
        "schedlab instances": sorted(d for d in os.listdir(inst) if d.startswith("schedlab-"))
        if os.path.isdir(inst) else [],
        "affinity": os.sched_getaffinity(0),
    }


def _trace_idle(dat: str) -> tuple[dict[tuple[int, int], int], list[str]]:
    """Per (cpu, state): the idle periods trace-cmd shows; and the bracket's violations."""
    text = subprocess.run(["trace-cmd", "report", "-t", "-i", dat], check=True, capture_output=True,
                          text=True).stdout
    periods: dict[tuple[int, int], int] = {}
    state: dict[int, int] = {}
    before: set[int] = set()
    after: set[int] = set()
    bad = []
    for ln in text.splitlines():
        m = re.search(r"\[(\d+)\]\s+\d+\.\d+:\s+(\w+):\s*(.*)$", ln)
        if not m:
            continue
        cpu, event, rest = int(m[1]), m[2], m[3]
        mm = re.search(r"schedlab: sysfs-(before|after) cpu=(\d+)", rest)
        if event == "print" and mm and int(mm[2]) == cpu:
            (before if mm[1] == "before" else after).add(cpu)
        if event != "cpu_idle":
            continue
        if cpu not in before or cpu in after:
            bad.append(ln)
        s = int(re.search(r"state=(\d+)", rest)[1])  # type: ignore[index]
        if s == 4294967295:
            if cpu in state:
                key = (cpu, state.pop(cpu))
                periods[key] = periods.get(key, 0) + 1
            else:
                bad.append(ln)
        else:
            state[cpu] = s
    return periods, bad + [f"cpu {c} still idle at the end" for c in state]


@pytest.mark.slow
def test_a_set_records_every_group_and_restores_every_setting(tmp_path) -> None:  # type: ignore[no-untyped-def]
    reason = _cannot_record()
    if reason:
        pytest.skip(reason)
    before = _settings()
    out = tmp_path / "sets"
    meta = live.record_sets(out, {"base": {}, "lat0": {"latency-us": 0}, "nopoll": {"disable-state": 0}},
                            runs=2, seconds=0.2, busy_ms=0.5, sleep_ms=2)
    assert _settings() == before
    with open(out / "sets.json") as f:
        assert json.load(f) == json.loads(json.dumps(meta))
    assert meta["order"] == ["base/run-01.dat", "lat0/run-01.dat", "nopoll/run-01.dat",
                             "base/run-02.dat", "lat0/run-02.dat", "nopoll/run-02.dat"]
    assert [list(g) for g in meta["groups"]] == [["base", "base"], ["lat0", "lat0:latency-us=0"],
                                               ["nopoll", "nopoll:disable-state=0"]]
    cpus = meta["cpus"]
    for group in ("base", "lat0", "nopoll"):
        names = sorted(os.listdir(out / group))
        runs = [f"run-0{i}.{ext}" for i in (1, 2) for ext in
                ("dat", "json", "sysfs-after.txt", "sysfs-before.txt", "sysfs-delta.csv")]
        assert names == sorted(runs + [f"states-cpu{c}.txt" for c in cpus])
        for i in (1, 2):
            stem = str(out / group / f"run-0{i}")
            with open(stem + ".json") as f:
                run = json.load(f)
            assert run["group"] == group and run["run"] == i and run["trace"] == f"run-0{i}.dat"
            assert "power/cpu_idle" in run["events"]
            # the bracket: every idle period the counters advanced by is in the trace, and no other
            periods, bad = _trace_idle(stem + ".dat")
            assert bad == []
            with open(stem + ".sysfs-delta.csv") as f:
                delta = {(int(r["cpu"]), int(r["state"])): int(r["usage"]) for r in csv.DictReader(f)}
            assert {k: v for k, v in delta.items() if v} == periods
    # the table a group ran with: state 0 disabled in nopoll only
    assert "state0/disable:1" in (out / "nopoll" / "states-cpu0.txt").read_text()
    assert "state0/disable:0" in (out / "base" / "states-cpu0.txt").read_text()

"""Record a workload on this machine into a private tracefs instance, with the cpuidle
sysfs counters of every CPU read exactly at the trace's bounds (tracefs_session.py).

    sudo python3 tools/oracles/why/record_kernel.py OUT --workload idle [--seconds 1]
        [--latency-us N] [--governor NAME] [--disable-state K] [--buffer-kb 4096]

Writes OUT/trace.dat, OUT/sysfs-before.txt and OUT/sysfs-after.txt (`grep .` lines of
every CPU's cpuidle state directories), OUT/sysfs-delta.csv (per CPU and state: the
advance of usage, time (µs), above, below, rejected), OUT/states-cpuN.txt (CPU N's state
table, loadable as a sysfs dump), OUT/meta.json, and OUT/trace-counts.csv
(trace_counts.py: what trace-cmd's decoding of the trace shows per CPU and state).

Workloads (not pinned; the machine's other tasks run too):
  idle      one task per CPU: busy 0.2 ms, sleep 3 ms (python3)
  wakeup    `perf bench sched pipe -l 4000`: two tasks waking each other through pipes
  messaging `perf bench sched messaging -p -g 1 -l 20` (hackbench: 20 tasks, pipes)
  sleepy    one task per CPU sleeping random 50 µs .. 20 ms (seeded), busy 50 µs
  sleep     nothing of its own: `sleep SECONDS` (the machine's own idle, for long windows)

`--events idle` records only what idle needs (cpu_idle, cpu_idle_miss, tick_stop and the
idle task's sched_switch, filter `prev_pid == 0 || next_pid == 0`), small enough for
minutes on a busy machine; the default, all of tracefs_session.EVENTS.

Settings (each restored on exit, also on error, SIGINT, SIGTERM): `--latency-us N` holds
/dev/cpu_dma_latency at N µs (a PM QoS request, dropped when the file is closed);
`--governor` sets the cpuidle governor; `--disable-state K` disables state K on every CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import trace_counts  # noqa: E402
import tracefs_session as ts  # noqa: E402

PERIODIC = """
import sys, time
end = time.monotonic() + {seconds}
while time.monotonic() < end:
    t = time.perf_counter()
    while time.perf_counter() - t < 0.0002: pass
    time.sleep(0.003)
"""
SLEEPY = """
import random, sys, time
rng = random.Random({seed})
end = time.monotonic() + {seconds}
while time.monotonic() < end:
    t = time.perf_counter()
    while time.perf_counter() - t < 0.00005: pass
    time.sleep(rng.choice((0.00005, 0.0002, 0.001, 0.004, 0.02)))
"""


def workload_cmds(name: str, seconds: float, ncpu: int) -> list[list[str]]:
    py = sys.executable
    if name == "idle":
        return [[py, "-c", PERIODIC.format(seconds=seconds)] for _ in range(ncpu)]
    if name == "sleepy":
        return [[py, "-c", SLEEPY.format(seconds=seconds, seed=i)] for i in range(ncpu)]
    if name == "wakeup":
        return [["perf", "bench", "sched", "pipe", "-l", "4000"]]
    if name == "sleep":
        return [["sleep", str(seconds)]]
    if name == "messaging":
        return [["perf", "bench", "sched", "messaging", "-p", "-g", "1", "-l", "20"]]
    raise SystemExit(f"unknown workload {name!r}")


@contextlib.contextmanager
def settings(latency_us: int | None, governor: str | None, disable_state: int | None) -> Iterator[dict[str, object]]:
    """Apply the settings, yield what was applied, restore everything after."""
    applied: dict[str, object] = {}
    undo: list[tuple[Path, str]] = []
    fd = None
    try:
        if governor:
            gf = ts.CPUIDLE / "current_governor"
            undo.append((gf, ts.read(gf)))
            ts.write(gf, governor)
            applied["governor"] = governor
        if disable_state is not None:
            for c in ts.cpus():
                p = ts.SYSFS_CPU / f"cpu{c}" / "cpuidle" / f"state{disable_state}" / "disable"
                undo.append((p, ts.read(p)))
                ts.write(p, 1)
            applied["disabled_state"] = disable_state
        if latency_us is not None:
            fd = os.open("/dev/cpu_dma_latency", os.O_WRONLY)
            os.write(fd, struct.pack("i", latency_us))
            applied["cpu_dma_latency_us"] = latency_us
        yield applied
    finally:
        if fd is not None:
            os.close(fd)
        for p, v in reversed(undo):
            with contextlib.suppress(OSError):
                ts.write(p, v)


IDLE_EVENTS = ("power/cpu_idle", "power/cpu_idle_miss", "timer/tick_stop", "sched/sched_switch")


def record(out: Path, workload: str, seconds: float, buffer_kb: int, latency_us: int | None,
           governor: str | None, disable_state: int | None, events: str = "all") -> int:
    out.mkdir(parents=True, exist_ok=True)
    tracefs = ts.tracefs_dir()
    cpu_list = ts.cpus()
    cmds = workload_cmds(workload, seconds, len(cpu_list))
    with settings(latency_us, governor, disable_state) as applied, \
            ts.instance(tracefs, f"why-{os.getpid()}", buffer_kb) as inst:
        inst.set_cpus([])
        if events == "idle":
            ts.write(inst.dir / "events/sched/sched_switch/filter", "prev_pid == 0 || next_pid == 0")
            inst.enable(IDLE_EVENTS)
        else:
            inst.enable(ts.EVENTS)
        info = ts.global_info()
        t0 = time.monotonic()
        before = ts.bracket_start(inst, cpu_list)
        procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for c in cmds]
        for p in procs:
            p.wait()
        after = ts.bracket_end(inst, cpu_list)
        elapsed = time.monotonic() - t0
        lost = inst.lost()
        ts.extract(inst, out / "trace.dat")
    b = "\n".join(ln for c in cpu_list for ln in before[c]) + "\n"
    a = "\n".join(ln for c in cpu_list for ln in after[c]) + "\n"
    (out / "sysfs-before.txt").write_text(b)
    (out / "sysfs-after.txt").write_text(a)
    for c in cpu_list:
        (out / f"states-cpu{c}.txt").write_text("\n".join(before[c]) + "\n")
    ts.write_csv(out / "sysfs-delta.csv", ts.delta_rows(b, a), ("cpu", "state", "name", *ts.COUNTERS))
    meta = {
        **info,
        "workload": workload,
        "commands": cmds,
        "seconds": seconds,
        "elapsed_s": round(elapsed, 3),
        "settings": applied,
        "events": inst.enabled,
        "event_filters": {"sched/sched_switch": "prev_pid == 0 || next_pid == 0"} if events == "idle" else {},
        "trace_clock": "local",
        "buffer_kb": buffer_kb,
        "ring_buffer": {str(c): v for c, v in lost.items()},
        "recorded": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": "tools/oracles/why/record_kernel.py " + " ".join(sys.argv[1:]),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    rc = trace_counts.main(["trace_counts", str(out)])
    overrun = {c: v for c, v in lost.items() if v.get("overrun", 0) or v.get("dropped_events", 0)}
    if overrun:
        print(f"{out}: the ring buffer lost events: {overrun}", file=sys.stderr)
        rc = 1
    return rc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--workload", default="idle", choices=("idle", "wakeup", "messaging", "sleepy", "sleep"))
    ap.add_argument("--events", default="all", choices=("all", "idle"))
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--buffer-kb", type=int, default=4096)
    ap.add_argument("--latency-us", type=int)
    ap.add_argument("--governor")
    ap.add_argument("--disable-state", type=int)
    args = ap.parse_args()
    ts.ensure_private_namespace()
    return record(args.out, args.workload, args.seconds, args.buffer_kb, args.latency_us, args.governor,
                  args.disable_state, args.events)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Write a kernel-style ftrace text trace whose scheduling events describe exactly the
segments of one of the kernel PELT oracle's input traces (tests/data/pelt/inputs/*.csv:
dur_ns,state,cpu_cap,freq_cap), so that `schedlab trace compare --util-task` can be
checked against that oracle's golden rows (tests/data/pelt/*.golden.csv: the kernel's
pelt.c and fair.c compiled in userspace, tools/oracles/kernel/).

The oracle forks the task at 1048576000 ns (1000 PELT periods) and runs it on one CPU
at capacity 1024: the trace forks it then (`sched_wakeup_new`, switched in at once),
switches it out asleep at each R→S boundary (`prev_state=S`), wakes and switches it in
at each S→R boundary, and ends with another task switched in on CPU 1 at the
trace's end. Only segments of states R and S at capacities 1024/1024 are accepted.

Usage: pelt_segments_to_ftrace.py INPUT.csv OUTPUT.txt [--comm task] [--pid 4242]
"""

from __future__ import annotations

import argparse
import csv
import sys

START_NS = 1_048_576_000  # the oracle's fork time (tools/oracles/kernel/pelt_oracle.c)


def ts(ns: int) -> str:
    if ns % 1000:
        sys.exit(f"timestamp {ns} ns is not a whole microsecond: the kernel's text has µs")
    return f"{ns // 1_000_000_000}.{ns % 1_000_000_000 // 1000:06d}"


def line(comm: str, pid: int, ns: int, event: str, body: str, cpu: int = 0) -> str:
    return f"{comm:>16}-{pid:<7} [{cpu:03d}] d..2. {ts(ns):>13}: {event}: {body}\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--comm", default="task")
    ap.add_argument("--pid", type=int, default=4242)
    a = ap.parse_args()
    with open(a.input, newline="") as f:
        segs = [(int(r["dur_ns"]), r["state"], int(r["cpu_cap"]), int(r["freq_cap"])) for r in csv.DictReader(f)]
    if not segs or segs[0][1] != "R":
        sys.exit("the oracle's traces start running (R)")
    for d, s, c, q in segs:
        if s not in "RS" or c != 1024 or q != 1024:
            sys.exit(f"segment {d},{s},{c},{q}: only R and S at 1024/1024 can be written as one task's events")
    comm, pid = a.comm, a.pid
    idle = ("<idle>", 0)
    sw_in = f"prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm={comm} next_pid={pid} next_prio=120"
    sw_out = f"prev_comm={comm} prev_pid={pid} prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
    out = ["# tracer: nop\n#\n"]
    t = START_NS
    out.append(line(*idle, t, "sched_wakeup_new", f"comm={comm} pid={pid} prio=120 target_cpu=000"))
    out.append(line(*idle, t, "sched_switch", sw_in))
    state = "R"
    for d, s, _, _ in segs:
        if s != state:
            if s == "S":
                out.append(line(comm, pid, t, "sched_switch", sw_out))
            else:
                out.append(line(*idle, t, "sched_wakeup", f"comm={comm} pid={pid} prio=120 target_cpu=000"))
                out.append(line(*idle, t, "sched_switch", sw_in))
            state = s
        t += d
    # the end of the trace (another task switched in on another CPU): the last segment
    # ends at the file's last timestamp
    out.append(line(*idle, t, "sched_switch", "prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> "
                    "next_comm=other next_pid=1 next_prio=120", cpu=1))
    with open(a.output, "w") as f:
        f.writelines(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

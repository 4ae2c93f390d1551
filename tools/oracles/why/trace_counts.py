"""Count what a trace.dat shows of the idle states, from `trace-cmd report -t` (the
reference tool's own decoding), for comparison with the cpuidle sysfs deltas.

    python3 tools/oracles/why/trace_counts.py DIR            # DIR/trace.dat -> DIR/trace-counts.csv
    python3 tools/oracles/why/trace_counts.py GROUP/run-01.dat   # -> GROUP/run-01.trace-counts.csv

Per CPU and state: `entries` (cpu_idle state=N records), `periods` (an entry followed
by the CPU's next cpu_idle record being the exit, state=4294967295), `time_ns` (the sum
of those periods' lengths on the trace clock), `above`/`below` (cpu_idle_miss records
with type=above / type=below, which the kernel emits where it increments the sysfs
counters). Also checks the sysfs bracket (tracefs_session.py): no cpu_idle record of a
CPU before its `why: sysfs-before cpu=N` marker or after its `why: sysfs-after cpu=N`
marker (`schedlab: ...` in `schedlab live sets` recordings); a violation is printed and
the exit status is 1.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

EXIT = 4294967295
LINE = re.compile(r"\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\w+):\s*(.*)$")
COLUMNS = ("cpu", "state", "entries", "periods", "time_ns", "above", "below")


def report_lines(dat: Path) -> list[str]:
    return subprocess.run(["trace-cmd", "report", "-t", "-i", str(dat)], check=True, capture_output=True,
                          text=True).stdout.splitlines()


def count(lines: list[str]) -> tuple[list[dict[str, object]], list[str]]:
    """The per (cpu, state) counts and the bracket violations of a report's lines."""
    rows: dict[tuple[int, int], dict[str, int]] = {}
    open_at: dict[int, tuple[int, int]] = {}
    seen_before: set[int] = set()
    seen_after: set[int] = set()
    problems: list[str] = []

    def row(cpu: int, state: int) -> dict[str, int]:
        return rows.setdefault((cpu, state), {"entries": 0, "periods": 0, "time_ns": 0, "above": 0, "below": 0})

    for ln in lines:
        m = LINE.search(ln)
        if not m:
            continue
        cpu, ts, event, rest = int(m[1]), int(m[2]) * 1_000_000_000 + int(m[3]), m[4], m[5]
        if event == "print":
            mm = re.search(r"(?:why|schedlab): sysfs-(before|after) cpu=(\d+)", rest)
            if mm and int(mm[2]) == cpu:
                (seen_before if mm[1] == "before" else seen_after).add(cpu)
            continue
        if event not in ("cpu_idle", "cpu_idle_miss"):
            continue
        f = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
        if int(f["cpu_id"]) != cpu:
            problems.append(f"{event} of cpu_id={f['cpu_id']} recorded on CPU {cpu}: {ln.strip()}")
        if cpu not in seen_before or cpu in seen_after:
            problems.append(f"CPU {cpu}: {event} outside the sysfs bracket: {ln.strip()}")
        if event == "cpu_idle_miss":
            row(cpu, int(f["state"]))[f["type"]] += 1
            continue
        state = int(f["state"])
        if state == EXIT:
            if cpu in open_at:
                s, t0 = open_at.pop(cpu)
                r = row(cpu, s)
                r["periods"] += 1
                r["time_ns"] += ts - t0
            else:
                problems.append(f"CPU {cpu}: an exit without its entry at {m[2]}.{m[3]}")
        else:
            if cpu in open_at:
                problems.append(f"CPU {cpu}: an entry while in state {open_at[cpu][0]} at {m[2]}.{m[3]}")
            row(cpu, state)["entries"] += 1
            open_at[cpu] = (state, ts)
    for cpu, (s, _) in open_at.items():
        problems.append(f"CPU {cpu}: state {s} entered and never left in the trace")
    out = [{"cpu": c, "state": s, **v} for (c, s), v in sorted(rows.items())]
    return out, problems


def main(argv: list[str]) -> int:
    d = Path(argv[1])
    if d.is_dir():
        dat, out = d / "trace.dat", d / "trace-counts.csv"
    else:
        dat, out = d, d.with_suffix(".trace-counts.csv")
    rows, problems = count(report_lines(dat))
    with open(out, "w") as f:
        f.write(",".join(COLUMNS) + "\n")
        for r in rows:
            f.write(",".join(str(r[c]) for c in COLUMNS) + "\n")
    for p in problems:
        print(f"{d}: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

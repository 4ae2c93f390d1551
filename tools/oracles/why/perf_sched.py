"""`perf sched record` of a workload on this machine, and what perf itself computes of it,
as raw text and as CSV parsed out of that text (nothing here computes a latency).

    sudo python3 tools/oracles/why/perf_sched.py OUT --workload wakeup
    python3 tools/oracles/why/perf_sched.py OUT --parse-only      # CSVs again from the text

Writes into OUT:
  perf.data.xz         the recording (`perf sched record`, all CPUs), xz-compressed
  perf-script.txt      `perf script --ns` (the text schedlab reads)
  timehist-state.txt   `perf sched timehist --state` (each switch-out: wait time, sch delay,
                       run time, and the task's state at switch-out)
  timehist-summary.txt `perf sched timehist -s` (per task: switch-ins, run time sum, min, avg,
                       max, stddev, migrations)
  latency.txt          `perf sched latency` (per task name: runtime, switches, avg and max delay)
  latency-p.txt        `perf sched latency -p` (the same per pid)
  timehist.csv         timehist-state.txt's event lines: time_s, cpu, comm, tid, pid, wait_ms,
                       sch_delay_ms, run_ms, state (the printed digits, unrounded)
  timehist-summary.csv timehist-summary.txt's rows
  latency.csv, latency-p.csv  latency.txt's / latency-p.txt's task rows
  meta.json            perf version, kernel, workload, events recorded

Workloads (the machine's other tasks run too and are recorded):
  wakeup     `perf bench sched pipe -l 400` (two tasks waking each other)
  messaging  `perf bench sched messaging -p -g 1 -l 2` (hackbench, 20 tasks)
  periodic   two python tasks: busy 0.2 ms, sleep 3 ms, for 0.1 s
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PERIODIC = ("import time\nend = time.monotonic() + 0.1\nwhile time.monotonic() < end:\n"
            "    t = time.perf_counter()\n    while time.perf_counter() - t < 0.0002: pass\n    time.sleep(0.003)\n")


def workload(name: str) -> list[str]:
    if name == "wakeup":
        return ["perf", "bench", "sched", "pipe", "-l", "400"]
    if name == "messaging":
        return ["perf", "bench", "sched", "messaging", "-p", "-g", "1", "-l", "2"]
    if name == "periodic":
        code = f"import subprocess, sys\nps = [subprocess.Popen([sys.executable, '-c', {PERIODIC!r}]) for _ in range(2)]\n" \
               "[p.wait() for p in ps]\n"
        return [sys.executable, "-c", code]
    raise SystemExit(f"unknown workload {name!r}")


def perf(args: list[str], out: Path | None = None) -> str:
    r = subprocess.run(["perf", *args], check=True, capture_output=True, text=True)
    if out is not None:
        out.write_text(r.stdout)
    return r.stdout


EVENT = re.compile(r"^\s*(\d+\.\d+)\s+\[(\d+)\]\s+(.*?)\[(-?\d+)(?:/(-?\d+))?\]\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)"
                   r"(?:\s+(\S+))?\s*$")


def parse_timehist(text: str) -> list[dict[str, object]]:
    rows = []
    for ln in text.splitlines():
        m = EVENT.match(ln)
        if m:
            rows.append({"time_s": m[1], "cpu": int(m[2]), "comm": m[3].strip(), "tid": m[4], "pid": m[5] or m[4],
                         "wait_ms": m[6], "sch_delay_ms": m[7], "run_ms": m[8], "state": m[9] or ""})
    return rows


SUMMARY = re.compile(r"^\s*(.*?)\[(-?\d+)(?:/(-?\d+))?\]\s+(\d+)\s+(\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+"
                     r"(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+)\s*$")


def parse_summary(text: str) -> list[dict[str, object]]:
    rows = []
    for ln in text.splitlines():
        m = SUMMARY.match(ln)
        if m:
            rows.append({"comm": m[1].strip(), "tid": m[2], "pid": m[3] or m[2], "parent": m[4], "sched_in": m[5],
                         "run_ms": m[6], "min_run_ms": m[7], "avg_run_ms": m[8], "max_run_ms": m[9],
                         "stddev_pct": m[10], "migrations": m[11]})
    return rows


LATENCY = re.compile(r"^\s*(.*?)\s*\|\s*(\d+\.\d+) ms \|\s*(\d+) \| avg:\s*(\d+\.\d+) ms \| max:\s*(\d+\.\d+) ms \|"
                     r" max start:\s*(\d+\.\d+) s \| max end:\s*(\d+\.\d+) s")


def parse_latency(text: str) -> list[dict[str, object]]:
    """Task rows: `comm:pid` (one task) or `comm:(N)` (N tasks of that name merged)."""
    rows = []
    for ln in text.splitlines():
        m = LATENCY.match(ln)
        if m:
            task = m[1]
            comm, _, who = task.rpartition(":")
            merged = who[1:-1] if who.startswith("(") else "1"
            pid = "" if who.startswith("(") else who
            rows.append({"task": task, "comm": comm, "pid": pid, "tasks": merged, "runtime_ms": m[2],
                         "switches": m[3], "avg_delay_ms": m[4], "max_delay_ms": m[5], "max_delay_start_s": m[6],
                         "max_delay_end_s": m[7]})
    return rows


def write_csv(path: Path, rows: list[dict[str, object]]) -> None:
    if not rows:
        path.write_text("")
        return
    cols = list(rows[0])

    def q(v: object) -> str:
        s = str(v)
        return '"' + s.replace('"', '""') + '"' if any(ch in s for ch in ',"\n') else s

    path.write_text(",".join(cols) + "\n" + "".join(",".join(q(r[c]) for c in cols) + "\n" for r in rows))


def parse_all(out: Path) -> None:
    write_csv(out / "timehist.csv", parse_timehist((out / "timehist-state.txt").read_text()))
    write_csv(out / "timehist-summary.csv", parse_summary((out / "timehist-summary.txt").read_text()))
    write_csv(out / "latency.csv", parse_latency((out / "latency.txt").read_text()))
    write_csv(out / "latency-p.csv", parse_latency((out / "latency-p.txt").read_text()))


def record(out: Path, name: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="why-perf-") as tmp:
        data = Path(tmp) / "perf.data"
        cmd = workload(name)
        subprocess.run(["perf", "sched", "record", "-o", str(data), "--", *cmd], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        d = ["-i", str(data)]
        perf(["script", *d, "--ns"], out / "perf-script.txt")
        perf(["sched", "timehist", *d, "--state"], out / "timehist-state.txt")
        perf(["sched", "timehist", *d, "-s"], out / "timehist-summary.txt")
        perf(["sched", "latency", *d], out / "latency.txt")
        perf(["sched", "latency", *d, "-p"], out / "latency-p.txt")
        events = perf(["evlist", *d]).split()
        (out / "perf.data.xz").write_bytes(lzma.compress(data.read_bytes(), preset=9))
    meta = {
        "perf": perf(["--version"]).strip(),
        "kernel": os.uname().release,
        "workload": name,
        "command": cmd,
        "events": [e for e in events if re.fullmatch(r"\w+:\w+", e)],
        "recorded": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "script": "tools/oracles/why/perf_sched.py " + " ".join(sys.argv[1:]),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    parse_all(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--workload", default="wakeup", choices=("wakeup", "messaging", "periodic"))
    ap.add_argument("--parse-only", action="store_true", help="only write the CSVs again from the kept text")
    args = ap.parse_args()
    if args.parse_only:
        parse_all(args.out)
    else:
        record(args.out, args.workload)
    return 0


if __name__ == "__main__":
    sys.exit(main())

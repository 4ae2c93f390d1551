"""Hand-run check of issue 16's bound: each reader's peak memory is at most 4x its
input (the peak RSS in a fresh child, over the same child's RSS after importing
schedlab, numpy and pandas, divided by the input's size on disk).

Inputs (about --mb MiB each, generated in a temporary directory): a samples file
(`schedlab stats`), an idle trace CSV (`idle.read_trace`), an idle ftrace text
(`idle.read_ftrace`), a PELT task trace CSV (`pelt.read_trace`), an lkp matrix.json pair
(`lkp.compare`, both sides counted as input) with few and with every metric changed, a
perf stat CSV (`readers.read`), an MMTests compare table (`mmtests.parse_compare`), a
trace.dat (`pelt.ftrace_task`; --tracedat, default the committed one), a `perf script`
text (the committed capture repeated, timestamps moved on per copy; `pelt.ftrace_task`),
a batch archive of MMTests netperf logs (`batch.scan`). Prints one line per reader with
its ratio and whether it is within 4x; exits 1 when one is not.

    python benchmarks/reader_memory.py [--mb 32] [--tracedat FILE --tracedat-pid PID]

Recorded 2026-12-01 (`python benchmarks/reader_memory.py --mb 16 --tracedat big6.dat
--tracedat-pid 8156`, this sandbox, load average ~17; big6.dat: 4 s of sched_switch,
sched_wakeup and cpu_idle recorded in a private tracefs instance while the machine built,
converted to file version 6, 7.6 MiB):

    reader                    input MiB  peak MiB over imports  ratio
    samples (stats)                17.0                   20.6   1.21 ok
    idle trace CSV                 16.0                   30.1   1.88 ok
    idle ftrace text               17.0                   30.9   1.82 ok
    PELT trace CSV                 17.0                   50.6   2.98 ok
    lkp matrix.json pair            6.7                   28.2   4.20 OVER 4x   (4.57 before)
    lkp pair, all changed           6.7                   88.7  13.21 OVER 4x   (15.02 before)
    perf stat CSV (readers)        17.0                   52.6   3.10 ok        (5.54 before)
    mmtests parse (table)          17.0                  203.4  11.97 OVER 4x   (16.61 before)
    trace.dat (PELT import)         7.6                   15.4   2.02 ok
    perf script (PELT import)      16.1                   16.7   1.04 ok
    batch archive scan            104.8                   29.4   0.28 ok

The string columns of `readers.read` share one Python str per distinct value; lkp's
matrix arrays are allocated once, its rows sorted by index and turned into the
Comparison one at a time; the MMTests table parser borrows the text from Python and
moves each parsed row into the Comparison. What is still over the bound is the
Comparison itself: a Cell is ~170 bytes (six Option<f64>, the test name as a String, n,
the samples) for a pasted cell of ~25 characters, and an lkp row holds its samples per
kernel, so a table of 200 000 rows (MMTests) or 29 000 changed metrics (lkp) outweighs
its text more than 4 times; that needs a compact Cell, a change to the shared model.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

MiB = 1 << 20
REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys
import schedlab
from schedlab import batch, idle, lkp, mmtests, pelt, readers, stats, _core  # noqa: F401
import pandas, numpy  # noqa: F401
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
exec(sys.argv[1])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"base": base, "peak": peak}))
"""


def lines(path: Path, line: bytes, size: int, header: bytes = b"") -> Path:
    with open(path, "wb") as f:
        f.write(header)
        block = line * max(1, (1 << 20) // len(line))
        while f.tell() < size:
            f.write(block)
    return path


def matrix(path: Path, size: int, shift: float, scale: float = 1.0) -> Path:
    path.mkdir(parents=True)
    keys = max(1, size // 120)
    doc = {f"unixbench.metric{i}": [(1000.0 + i % 7) * scale + shift, 1001.0 * scale + shift, 999.5 * scale + shift]
           for i in range(keys)}
    (path / "matrix.json").write_text(json.dumps(doc))
    return path


def perf_script(path: Path, size: int) -> Path:
    """tests/data/traces/perf-6.18/perf-script.txt (a real `perf script` of sched events)
    repeated to `size` bytes, each copy's timestamps moved past the previous copy's."""
    src = (REPO / "tests" / "data" / "traces" / "perf-6.18" / "perf-script.txt").read_text().splitlines(True)
    stamp = re.compile(r"(\] +)(\d+)\.(\d{9}):")
    ns = [int(m[2]) * 10**9 + int(m[3]) for m in map(stamp.search, src) if m]
    span = max(ns) - min(ns) + 1000
    with open(path, "w") as f:
        k = 0
        while f.tell() < size:
            shift = k * span
            for line in src:
                f.write(stamp.sub(lambda m, shift=shift: f"{m[1]}{(int(m[2]) * 10**9 + int(m[3]) + shift) // 10**9}."
                                            f"{(int(m[3]) + shift) % 10**9:09d}:", line, count=1))
            k += 1
    return path


def netperf_archive(path: Path, size: int) -> Path:
    with tempfile.TemporaryDirectory() as d:
        root = Path(d) / "work" / "log"
        n = 0
        total = 0
        while total < size:
            for kernel in ("base", "new"):
                logs = root / kernel / f"iter-{n}" / "netperf-udp" / "logs"
                logs.mkdir(parents=True)
                (logs / "protocols").write_text("UDP_STREAM\n")
                for i in range(1, 6):
                    text = ("MIGRATED UDP STREAM TEST\n\n212992      64   60.00     50547656      0   "
                            f"{431.4 + i:.2f}\n212992           60.00     50253515         {428.9 + i:.2f}\n")
                    (logs / f"UDP_STREAM-64.{i}").write_text(text)
                    total += len(text)
            n += 1
        with tarfile.open(path, "w") as t:
            t.add(Path(d) / "work", arcname="work")
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=32)
    ap.add_argument("--tracedat", type=Path, default=REPO / "tests" / "data" / "traces" / "tracedat-6.18" / "trace-v6.dat",
                    help="the trace.dat to import (default: the committed 0.45 MB one; give a recording of "
                         "several MB, tools/traces/record.sh, for a steady figure)")
    ap.add_argument("--tracedat-pid", type=int, default=30984, help="the pid to import from it (default: the "
                    "committed file's hog)")
    args = ap.parse_args()
    size = args.mb * MiB
    worst = 0.0
    with tempfile.TemporaryDirectory() as d:
        t = Path(d)
        cases = [
            ("samples (stats)", [lines(t / "s.txt", b"4626.5\n", size)], "_core.read_samples({0!r})"),
            ("idle trace CSV", [lines(t / "i.csv", b"7829400,3998726,3176995,0,-1,0\n", size,
                                      b"sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns,nr_iowait\n")],
             "idle.read_trace({0!r})"),
            ("idle ftrace text", [lines(t / "f.txt", b"          <idle>-0       [000] d..1.   100.000001: cpu_idle: "
                                                    b"state=1 cpu_id=0\n          <idle>-0       [000] d..1.   "
                                                    b"100.000501: cpu_idle: state=4294967295 cpu_id=0\n", size)],
             "idle.read_ftrace({0!r}, sort=True)"),
            ("PELT trace CSV", [lines(t / "p.csv", b"3000000,R,1024,1024\n500000,S,1024,1024\n", size,
                                      b"dur_ns,state,cpu_cap,freq_cap\n")], "pelt.read_trace({0!r})"),
            ("lkp matrix.json pair", [matrix(t / "base" / ("a" * 40), size // 2, 0.0),
                                      matrix(t / "head" / ("b" * 40), size // 2, 5.0)], "lkp.compare({0!r}, {1!r})"),
            ("lkp pair, all changed", [matrix(t / "base2" / ("c" * 40), size // 2, 0.0),
                                       matrix(t / "head2" / ("d" * 40), size // 2, 0.0, 2.0)],
             "lkp.compare({0!r}, {1!r})"),
            ("perf stat CSV (readers)", [lines(t / "perf.csv", b"     0.127709479;1.74;msec;task-clock;1739069;100.00;"
                                                              b"0.017;CPUs utilized\n", size)],
             "schedlab.readers.read({0!r}, 'perf-stat-csv')"),
            ("mmtests parse (table)", [lines(t / "m.txt", b"Amean     1       0.1334 (   0.00%)      0.1388 *  -4.05%*"
                                                         b"      0.1312 (   1.65%)\n", size,
                                             b"                             4.18.0                 4.18.0       "
                                             b"          4.18.0\n                            vanilla          "
                                             b"          teo        teo-v6+backport\n")],
             "schedlab.mmtests.parse_compare(open({0!r}).read())"),
            ("trace.dat (PELT import)", [args.tracedat], f"pelt.ftrace_task({{0!r}}, {args.tracedat_pid}, sort=True)"),
            ("perf script (PELT import)", [perf_script(t / "perf-script.txt", size)],
             "pelt.ftrace_task({0!r}, 12116, sort=True)"),
            ("batch archive scan", [netperf_archive(t / "n.tar", size // 4)], "batch.scan({0!r})"),
        ]
        print(f"{'reader':24s} {'input MiB':>10s} {'peak MiB over imports':>22s} {'ratio':>6s}")
        for name, inputs, code in cases:
            nbytes = sum(f.stat().st_size for p in inputs for f in ([p] if p.is_file() else p.rglob("*"))
                         if f.is_file())
            r = subprocess.run([sys.executable, "-c", CHILD, code.format(*map(str, inputs))], capture_output=True,
                               text=True, timeout=600)
            if r.returncode != 0:
                print(f"{name:24s} failed: {r.stderr.strip().splitlines()[-1]}")
                worst = float("inf")
                continue
            out = json.loads(r.stdout.strip().splitlines()[-1])
            grew = out["peak"] - out["base"]
            ratio = grew / nbytes
            worst = max(worst, ratio)
            print(f"{name:24s} {nbytes / MiB:10.1f} {grew / MiB:22.1f} {ratio:6.2f} {'ok' if ratio <= 4 else 'OVER 4x'}")
    return 0 if worst <= 4 else 1


if __name__ == "__main__":
    sys.exit(main())

"""Hand-run benchmark: importing a trace.dat natively against `trace-cmd report`.

Times, on the same trace.dat, (a) schedlab's idle import (``idle.read_ftrace``: the
file read a few pages per CPU at a time, the records of the idle events decoded from
the pages, the idle periods built) and PELT import of one pid (``pelt.ftrace_task``),
and (b) ``trace-cmd report -i FILE > /dev/null`` (decoding and printing every record).
Prints MB/s of trace.dat and the ratio to trace-cmd.

    python benchmarks/bench_tracedat.py [TRACE.dat] [--pid N] [--repeat 3] [--peer-repeat 1]
    python benchmarks/bench_tracedat.py TRACE.dat --replay [--cpu 0]

With ``--replay``, each command runs once in its own process, timed by GNU time (CPU
seconds, user + system, and peak RSS of that process alone): ``schedlab idle simulate
TRACE --ftrace --cpu N`` with menu and with teo (golden CSV to /dev/null: the trace
imported, replayed and written as it goes), ``idle.read_ftrace`` (the periods as columns
in memory), ``import schedlab.idle`` alone (the interpreter's own), and ``trace-cmd
report -i TRACE > /dev/null``; MB/s is of trace.dat per CPU second, the ratio the CPU
time of trace-cmd over the command's.

The default file is tests/data/traces/tracedat-6.18/trace-v6.dat (0.45 MB, half of it
kallsyms); give a larger one for a steady figure.

Recorded on 2026-12-01 on this sandbox (2 vCPUs shared with six other builds: load
average ~22, so about a tenth of a CPU free), best of 2. The trace: 3.5 million records
(sched_switch/wakeup/stat_runtime, hrtimer, ...) of `perf bench sched pipe -l 2000000`
on CPU 1 for 15 s, recorded into a private tracefs instance (256 MB buffer, clock mono)
and written by `trace-cmd extract` as version 7 (zstd, 17.4 MB), then `trace-cmd
convert --file-version 6 --compression none` (185.7 MB). The pid is absent (the whole
file is decoded and the import ends with "no ... event makes pid 30985 runnable"):

    python benchmarks/bench_tracedat.py /tmp/big-v6.dat --repeat 2
    reader                                    s       MB/s   vs trace-cmd
    schedlab idle.read_ftrace                 0.893  207.9   43.92x
    schedlab pelt.ftrace_task pid 30985       0.885  209.9   44.33x
    trace-cmd report > /dev/null             39.227    4.7    1.00x

    python benchmarks/bench_tracedat.py /tmp/big.dat --repeat 2     (version 7, zstd)
    schedlab idle.read_ftrace                 1.760    9.9   25.33x   (105 MB/s of pages)
    schedlab pelt.ftrace_task pid 30985       1.835    9.5   24.30x
    trace-cmd report > /dev/null             44.592    0.4    1.00x

Peak RSS of the PELT import (`/usr/bin/time -f %M`): 43.6 MB for the 185.7 MB file,
52.8 MB for the version 7 one, against 27.9 MB for `from schedlab import pelt` alone.
(Before the records were decoded directly, the same reader rendered them as text and
parsed that back: 19-23 MB/s on a 3.7 MB trace, and the file was read whole.)

The idle import and replay of a trace that has cpu_idle events:
tests/data/traces/why/experiment-quiet/lat0/run-01.dat (cpu_idle and hrtimer events of
2 CPUs) converted to version 6 (``trace-cmd convert --file-version 6 --compression
none``) and stretched 620 times by tools/traces/stretch_tracedat.py (1,011 MB, 9.27
million idle periods: 4.96 million on CPU 0).

Before the import streamed (2026-12-07 03:16, load average 24-58; the importer kept
every event, then every period, in memory: src/idle/ftrace.rs ``Read``/``build``),
measured with GNU time:
``idle.read_ftrace`` 10.7 s CPU (4.3 user + 6.5 system), peak RSS 1,588 MiB;
``schedlab idle simulate FILE --ftrace --cpu 0 --governor menu --states intel-skx >
/dev/null`` 53.0 s CPU, peak RSS 2,862 MiB.

Streamed (the periods handed from the importer to the replay and the CSV as they are
complete; the same CSV, sha256 compared), 2026-12-07 04:03-04:07, load average 5-7:

    python benchmarks/bench_tracedat.py /tmp/big.dat --replay --cpu 0
    /tmp/big.dat: 1011.0 MB; load average 7.2
    command                                       CPU s     MB/s  peak MiB  vs trace-cmd
    import schedlab.idle (interpreter)             0.34   2973.5      30.9       315.12x
    idle simulate --ftrace --cpu 0 menu            6.32    160.0      24.3        16.95x
    idle simulate --ftrace --cpu 0 teo             4.59    220.3      24.3        23.34x
    idle.read_ftrace                               3.97    254.7     635.6        26.99x
    trace-cmd report > /dev/null                 107.14      9.4     969.7         1.00x

The replay's peak is flat (the CLI does not import numpy or pandas: below the
interpreter line); ``idle.read_ftrace``'s is its result, the 9.27 million periods as
numpy columns (68 bytes a period). Without ``--cpu`` the same menu replay reads the
trace twice (the first pass, the import with nothing kept, finds the first CPU): 7.86
s CPU, 25 MiB, so the import alone is about 1.5 s CPU a GB (~670 MB/s per core) and
the rest the replay and its CSV: short of the 1 GB/s asked, on a trace that is nearly
all idle and timer events, each decoded and modelled (the PELT figures above skip most
records unread).

After the reading was made faster (docs/tracing.md §3.2: read buffers within L2, a merge
that compares once per run, fields loaded at their own size, the decoder inlined; the
idle model's tick arithmetic in 64 bits), 2026-12-07 07:20 UTC, load average 1.0-1.5
(nothing else running). Three traces: the 1,011 MB idle one above; a recording of
tools/traces/record_big.sh (``BUFFER_KB=262144 tools/traces/record_big.sh OUT 20``: 526.7
MB, sched events only, its periodic task pid 445); tests/data/traces/tracedat-6.18/trace-v6.dat
stretched 4,000 times (590.1 MB, sched, hrtimer and timer events and a cpu_frequency
format, the task pid 30985). CPU seconds (user + system) of the whole process, median of
8 runs taken in turn with the previous build (a clean-clone install of 49d0f660):

    command                                                     before   after   after/before
    idle.read_ftrace(idle trace)              (python FILE)     3.07 s   2.18 s   0.71
    idle.read_ftrace(record_big trace)        (no cpu_idle)     0.65 s   0.46 s   0.71
    schedlab idle simulate IDLE --ftrace --cpu 0 menu           3.52 s   2.57 s   0.73
    schedlab pelt ftrace STRETCHED --pid 30985 -o /dev/null     1.28 s   0.91 s   0.70
    schedlab pelt ftrace RECORD_BIG --pid 445 -o /dev/null      0.94 s   0.72 s   0.77
    the start: idle.read_ftrace of a 1.9 MB idle trace          0.22 s   0.22 s
    the start: idle simulate of the same                        0.07 s   0.07 s
    the start: pelt ftrace of trace-v6.dat (0.45 MB)            0.23 s   0.23 s

(``python FILE``: a script calling ``idle.read_ftrace`` once, a ParseError caught when the
trace has no cpu_idle event.) Past each command's start, MB/s of the trace per CPU
second, before → after: the idle trace read as numpy columns 355 → 516; the record_big
trace scanned by the idle import (no cpu_idle event: every record read, none modelled;
the kind of trace the issue's 1.05-1.14 GB/s was measured on) 1,233 → 2,195; the idle
trace imported, replayed by menu and written as CSV 293 → 404; one task's PELT import
561 → 865 of the stretched trace and 738 → 1,081 of the record_big one. The idle import
alone, in Rust without Python (a null sink, best of 8, load 1.2-1.5): 1.42 s for the
idle trace, 711 MB/s (2.37 s before): short of 1 GB/s on a trace that is nearly all idle
and timer events (37.3 million records, 23 million of them modelled); the bare scan of
its records takes 0.40 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from timing import best_of

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "tests" / "data" / "traces" / "tracedat-6.18" / "trace-v6.dat"


def replay(args: argparse.Namespace) -> None:
    """The ``--replay`` table (see the module docs)."""
    import sys

    from timing import measured

    mb = os.path.getsize(args.trace) / 1e6
    py = [sys.executable]
    sim = [*py, "-m", "schedlab", "idle", "simulate", args.trace, "--ftrace", "--cpu", str(args.cpu),
           "--hz", str(args.hz), "--states", "intel-skx", "--governor"]
    read = f"from schedlab import idle; idle.read_ftrace({args.trace!r}, hz={args.hz})"
    rows: list[tuple[str, list[str]]] = [
        ("import schedlab.idle (interpreter)", [*py, "-c", "import schedlab.idle"]),
        (f"idle simulate --ftrace --cpu {args.cpu} menu", [*sim, "menu"]),
        (f"idle simulate --ftrace --cpu {args.cpu} teo", [*sim, "teo"]),
        ("idle.read_ftrace", [*py, "-c", read]),
    ]
    tc = shutil.which("trace-cmd")
    if tc:
        rows.append(("trace-cmd report > /dev/null", [tc, "report", "-i", args.trace]))
    got = []
    for name, argv in rows:
        _, rss, cpu = measured(argv)
        got.append((name, cpu, rss))
    ref = got[-1][1] if tc else None
    print(f"{args.trace}: {mb:.1f} MB; load average {os.getloadavg()[0]:.1f}")
    print(f"{'command':42s} {'CPU s':>8s} {'MB/s':>8s} {'peak MiB':>9s} {'vs trace-cmd':>13s}")
    for name, cpu, rss in got:
        ratio = f"{ref / cpu:.2f}x" if ref and cpu > 0 else "-"
        print(f"{name:42s} {cpu:8.2f} {mb / cpu if cpu else 0:8.1f} {rss / 2**20:9.1f} {ratio:>13s}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace", nargs="?", default=str(DEFAULT))
    ap.add_argument("--pid", type=int, default=30985, help="the task for the PELT import")
    ap.add_argument("--hz", type=int, default=250)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--peer-repeat", type=int, default=1, help="runs of trace-cmd report (best of; 0: not run)")
    ap.add_argument("--replay", action="store_true", help="the idle replays and trace-cmd, each in its own process")
    ap.add_argument("--cpu", type=int, default=0, help="with --replay: the CPU replayed")
    args = ap.parse_args()
    if args.replay:
        replay(args)
        return

    from schedlab import idle, pelt

    mb = os.path.getsize(args.trace) / 1e6
    rows = []

    from schedlab.errors import ParseError

    def imported(fn: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            try:
                return fn()
            except ParseError as e:  # e.g. no cpu_idle events: the whole file was decoded
                return e
        return run

    t, _ = best_of(args.repeat, imported(lambda: idle.read_ftrace(args.trace, hz=args.hz)))
    rows.append(("schedlab idle.read_ftrace", t))
    t, _ = best_of(args.repeat, imported(lambda: pelt.ftrace_task(args.trace, args.pid)))
    rows.append((f"schedlab pelt.ftrace_task pid {args.pid}", t))
    tc = shutil.which("trace-cmd") if args.peer_repeat > 0 else None
    ref = None
    if tc:
        def report() -> None:
            subprocess.run([tc, "report", "-i", args.trace], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)

        ref, _ = best_of(args.peer_repeat, report)
        rows.append(("trace-cmd report > /dev/null", ref))
    print(f"{args.trace}: {mb:.2f} MB")
    print(f"{'reader':40s} {'s':>8s} {'MB/s':>8s} {'vs trace-cmd':>13s}")
    for name, t in rows:
        ratio = f"{ref / t:.2f}x" if ref else "-"
        print(f"{name:40s} {t:8.4f} {mb / t:8.1f} {ratio:>13s}")


if __name__ == "__main__":
    main()

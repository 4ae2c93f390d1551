"""Hand-run benchmark: the trace metrics pass (``schedlab trace compare``'s per-trace work)
against ``trace-cmd report`` and ``perf sched timehist`` on the same inputs, in one run.

Each measurement is a fresh process on one core (``taskset -c``, SCHEDLAB_NUM_THREADS=1);
its CPU time (user + system) and peak RSS are read from ``wait4``, so the MB/s are per
core whatever else the machine runs:

- a trace.dat of ``--mb`` MB (default 1024) grown from a real one by
  tools/traces/grow_tracedat.py (the recording's pages repeated, timestamps moved on),
  read by ``schedlab.trace.metrics`` and by ``trace-cmd report > /dev/null``;
- a ``perf sched record`` of ``perf bench sched messaging -p -g 4 -l LOOPS`` made here
  (``--perf-loops``, default 2000; needs root: with 0, or without root, the small bundled
  recording tests/data/traces/why/perf-sched/messaging): perf.data read by
  ``perf sched timehist > /dev/null`` and its ``perf script --ns`` text by the pass,
  compared in sched_switch events per CPU second (the two files differ in size and
  format; making the text with ``perf script`` is timed too, and not counted in either).

    python benchmarks/bench_trace_compare.py [--mb 1024] [--source TRACE_v6.dat] [--repeat 2] [--perf-loops 200]

Prints MB/s, events/s, peak RSS and the ratio to the peer measured in the same run.
"""

from __future__ import annotations

import argparse
import lzma
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LISA = ROOT / "tests" / "data" / "traces" / "lisa-sched_load" / "trace-zstd.dat"
PERF = ROOT / "tests" / "data" / "traces" / "why" / "perf-sched" / "messaging"
CORE = "1"


def measure(argv: list[str], stdout: int | None = subprocess.DEVNULL) -> tuple[float, float]:
    """(CPU seconds, peak RSS MiB) of one run of ``argv`` pinned to one core: user + system
    time, which a machine shared with other work does not inflate as it does wall time."""
    env = dict(os.environ, SCHEDLAB_NUM_THREADS="1")
    taskset = shutil.which("taskset")
    cmd = ([taskset, "-c", CORE] if taskset else []) + argv
    p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best(repeat: int, argv: list[str]) -> tuple[float, float]:
    runs = [measure(argv) for _ in range(repeat)]
    return min(r[0] for r in runs), max(r[1] for r in runs)


def pass_argv(path: Path) -> list[str]:
    return [sys.executable, "-c", f"import schedlab.trace as t; t.metrics({str(path)!r})"]


def perf_inputs(perf: str, work: Path, loops: int) -> tuple[Path, Path, str]:
    """perf.data and its ``perf script --ns`` text: recorded here with ``loops`` (root
    only), else the bundled recording."""
    if loops > 0 and os.geteuid() == 0:
        data, script = work / "perf.data", work / "perf-script.txt"
        cmd = [perf, "bench", "sched", "messaging", "-p", "-g", "4", "-l", str(loops)]
        subprocess.run([perf, "sched", "record", "-o", str(data), "--", *cmd], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(script, "w") as f:
            t, _ = measure([perf, "script", "-i", str(data), "--ns"], stdout=f.fileno())
        print(f"\nperf script --ns of the recording: {t:.3f} CPU s (not counted)")
        return data, script, " ".join(cmd[1:])
    if loops > 0:
        print("\nnot root: perf sched record needs it; the bundled recording instead")
    data = work / "perf.data"
    data.write_bytes(lzma.decompress((PERF / "perf.data.xz").read_bytes()))
    return data, PERF / "perf-script.txt", f"bundled {PERF.name}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=1024, help="size of the grown trace.dat (0: only the perf part)")
    ap.add_argument("--source", type=Path, default=None,
                    help="a version 6 uncompressed trace.dat without buffer instances, to grow (default: LISA's "
                         "sched_load trace, a Juno on Linux 4.19 with sched, idle, frequency and PELT events, "
                         "converted to version 6 by trace-cmd)")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--keep", type=Path, help="keep the grown trace here (reused when it exists)")
    ap.add_argument("--perf-loops", type=int, default=2000,
                    help="loops of the perf sched record'ed hackbench (0: the small bundled recording)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-trace-"))
    try:
        base_t, base_rss = best(args.repeat, [sys.executable, "-c", "import schedlab.trace"])
        if args.mb > 0:
            tracedat(args, work, base_t, base_rss)
        perf_part(args, work, base_t)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def tracedat(args: argparse.Namespace, work: Path, base_t: float, base_rss: float) -> None:
    """The pass and ``trace-cmd report`` over the grown trace.dat."""
    big = args.keep or work / "big.dat"
    source = args.source
    if source is None:
        source = work / "lisa-v6.dat"
        subprocess.run(["trace-cmd", "convert", "-i", str(LISA), "--file-version", "6", "--compression", "none",
                        "-o", str(source)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not big.exists():
        subprocess.run([sys.executable, str(ROOT / "tools" / "traces" / "grow_tracedat.py"), str(source),
                        str(big), "--mb", str(args.mb)], check=True)
    mb = big.stat().st_size / 1e6
    rows = []
    t, rss = best(args.repeat, pass_argv(big))
    rows.append(("schedlab trace metrics", t, rss))
    tc = shutil.which("trace-cmd")
    if tc:
        t, rss = best(1, [tc, "report", "-i", str(big)])
        rows.append(("trace-cmd report > /dev/null", t, rss))
    print(f"{big.name}: {mb:.1f} MB grown from {source.name}; python + import alone: {base_t:.2f} CPU s, "
          f"{base_rss:.1f} MiB")
    print(f"{'reader':32s} {'CPU s':>9s} {'MB/s':>8s} {'peak MiB':>9s} {'vs trace-cmd':>13s}")
    ref = rows[1][1] if len(rows) > 1 else None
    for name, t, rss in rows:
        print(f"{name:32s} {t:9.2f} {mb / t:8.1f} {rss:9.1f} {ref / t if ref else float('nan'):12.2f}x")


def perf_part(args: argparse.Namespace, work: Path, base_t: float) -> None:
    """The pass over perf script text and ``perf sched timehist`` over the perf.data."""
    perf = shutil.which("perf")
    if not perf:
        print("\nperf not found: no perf sched timehist figures")
        return
    data, script, what = perf_inputs(perf, work, args.perf_loops)
    with open(script) as f:
        switches = sum(1 for ln in f if "sched:sched_switch:" in ln)
    pt, prss = best(args.repeat, [perf, "sched", "timehist", "-i", str(data)])
    st, srss = best(args.repeat, pass_argv(script))
    print(f"\nperf sched record ({what}): {switches} sched_switch events; perf.data "
          f"{data.stat().st_size / 1e6:.1f} MB, its perf script text {script.stat().st_size / 1e6:.1f} MB")
    print(f"{'reader':32s} {'CPU s':>9s} {'switch/s':>10s} {'peak MiB':>9s} {'vs perf':>9s}")
    print(f"{'perf sched timehist > /dev/null':32s} {pt:9.3f} {switches / pt:10.0f} {prss:9.1f} {1.0:8.2f}x")
    print(f"{'schedlab trace metrics (text)':32s} {st:9.3f} {switches / st:10.0f} {srss:9.1f} {pt / st:8.2f}x")
    print(f"(both include their process start: python + import alone {base_t:.2f} CPU s)")

if __name__ == "__main__":
    main()

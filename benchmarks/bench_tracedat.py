"""Hand-run benchmark: importing a trace.dat natively against `trace-cmd report`.

Times, on the same version 6 trace.dat, (a) schedlab's idle import
(``idle.read_ftrace``: the file read, its records decoded and rendered, the idle
periods built) and PELT import of one pid (``pelt.ftrace_task``), and (b)
``trace-cmd report -i FILE > /dev/null`` (decoding and printing every record). Prints
MB/s of trace.dat and the ratio to trace-cmd.

    python benchmarks/bench_tracedat.py [TRACE.dat] [--pid N] [--repeat 3]

The default file is tests/data/traces/tracedat-6.18/trace-v6.dat (0.45 MB, half of it
kallsyms); give a larger one (tools/traces/record.sh OUT SECONDS with a long workload,
then `trace-cmd convert --file-version 6 --compression none`) for a steady figure.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from pathlib import Path

from timing import best_of

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "tests" / "data" / "traces" / "tracedat-6.18" / "trace-v6.dat"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace", nargs="?", default=str(DEFAULT))
    ap.add_argument("--pid", type=int, default=30985, help="the task for the PELT import")
    ap.add_argument("--hz", type=int, default=250)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from schedlab import idle, pelt

    mb = os.path.getsize(args.trace) / 1e6
    rows = []

    def idle_import() -> object:
        try:
            return idle.read_ftrace(args.trace, hz=args.hz)
        except Exception as e:  # a trace without cpu_idle events: the decoding still ran
            return e

    t, _ = best_of(args.repeat, idle_import)
    rows.append(("schedlab idle.read_ftrace", t))
    t, _ = best_of(args.repeat, lambda: pelt.ftrace_task(args.trace, args.pid))
    rows.append((f"schedlab pelt.ftrace_task pid {args.pid}", t))
    tc = shutil.which("trace-cmd")
    ref = None
    if tc:
        def report() -> None:
            subprocess.run([tc, "report", "-i", args.trace], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)

        ref, _ = best_of(args.repeat, report)
        rows.append(("trace-cmd report > /dev/null", ref))
    print(f"{args.trace}: {mb:.2f} MB")
    print(f"{'reader':40s} {'s':>8s} {'MB/s':>8s} {'vs trace-cmd':>13s}")
    for name, t in rows:
        ratio = f"{ref / t:.2f}x" if ref else "-"
        print(f"{name:40s} {t:8.4f} {mb / t:8.1f} {ratio:>13s}")


if __name__ == "__main__":
    main()

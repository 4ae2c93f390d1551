#!/usr/bin/env python3
"""How soon Ctrl-C stops a long PELT replay: ``schedlab pelt simulate`` and
``pelt.simulate_csv`` on a 10M-segment trace (by hand, not part of the tests; the tests
stop at a given check instead of timing, docs/cancel.md).

Each run starts the replay in a child process, sends SIGINT after ``--after`` seconds (a
list: the phases of the run, from reading the trace to writing rows) and measures the
time from the signal to the child's exit, with its exit code (130 for the command line,
KeyboardInterrupt for the Python API). The bound is 0.5 s.

    python benchmarks/bench_pelt_interrupt.py [--segments 10000000] [--after 0.3,1.5,4]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

API = r"""
import sys
from schedlab import pelt
try:
    pelt.simulate_csv(sys.argv[1], out="/dev/null")
except KeyboardInterrupt:
    sys.exit(130)
"""


def latency(argv: list[str], after: float) -> tuple[float, int, bool]:
    """(seconds from SIGINT to exit, exit code, whether it had already ended)."""
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(after)
    if p.poll() is not None:
        return 0.0, p.returncode, True
    t = time.perf_counter()
    p.send_signal(signal.SIGINT)
    code = p.wait()
    return time.perf_counter() - t, code, False


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--segments", type=int, default=10_000_000)
    ap.add_argument("--after", default="0.3,1.5,4", help="seconds before the signal, comma-separated")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.csv"
        with big.open("w") as f:
            f.write("dur_ns,state\n")
            pairs = args.segments // 2
            chunk = "1000000,R\n2000000,S\n" * 50_000
            for _ in range(pairs // 50_000):
                f.write(chunk)
        print(f"{args.segments:,} segments, {big.stat().st_size / 1e6:,.0f} MB of trace CSV")
        runs = {
            "schedlab pelt simulate": [sys.executable, "-m", "schedlab", "pelt", "simulate", str(big), "-o", os.devnull],
            "pelt.simulate_csv": [sys.executable, "-c", API, str(big)],
        }
        worst = 0.0
        for name, argv in runs.items():
            for after in (float(x) for x in args.after.split(",")):
                lat, code, ended = latency(argv, after)
                if ended:
                    print(f"{name:24s} SIGINT after {after:4.1f} s: had already ended (exit {code})")
                    continue
                worst = max(worst, lat)
                print(f"{name:24s} SIGINT after {after:4.1f} s: stopped {lat:6.3f} s later, exit {code}")
        print(f"worst: {worst:.3f} s (bound 0.5 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Time, peak memory and Ctrl-C latency of the streamed idle replays (by hand, not a test).

``schedlab idle simulate`` (golden CSV to stdout, drained by this script) and ``schedlab
idle summary`` (two governors) replay 10^4, 10^6 and 10^7 idle periods fed through a
FIFO; for each, the wall-clock time and the child's peak RSS (``wait4``), beside the
peak RSS of the same command on ten periods (the interpreter and its imports): a
streamed replay's peak does not grow with the trace. Then the latency of Ctrl-C: the
command over 10^7 periods is sent SIGINT after --after seconds and the time to its exit
(code 130) is printed; the bound is 0.5 s.

    python benchmarks/bench_idle_stream.py [--sizes 10000,1000000,10000000] [--after 2]

The kernel's own menu.c/teo.c (tools/oracles/kernel) as the peer, time and peak RSS at
10k / 1M / 10M periods: ``benchmarks/bench_idle.py --ksrc KERNEL-TREE``.

Measured (2-vCPU microVM shared with other builds, release build; the times include
the interpreter's start, this script's Python writer and reader of the FIFO and pipe,
so they are not the replay's rate):

    idle simulate: 10 periods 32.0 MiB; 10^4 33.9 MiB, 10^6 33.9 MiB, 10^7 34.0 MiB
                   (before streaming: 18 / 332 MB at 10^4 / 10^6, ~3 GB at 10^7)
                   Ctrl-C after 2 s of 10^7: exit 130, 0.35 s from the signal
    idle summary:  10 periods 74.4 MiB; 10^4, 10^6, 10^7 74.5 MiB
                   Ctrl-C after 2 s of 10^7: exit 130, 0.44 s from the signal
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HEADER = b"sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns\n"
BLOCK = (
    b"1000000,4000000,500000,0,-1\n"
    b"30000,2000000,-1,0,-1\n"
    b"8000000,4000000,-1,1,-1\n"
    b"250000,1000000,120000,0,-1\n"
    b"3000000,3500000,2900000,0,20000\n"
    b"50000,600000,-1,0,-1\n"
    b"20000000,4000000,-1,1,-1\n"
    b"700000,2500000,10000,0,-1\n"
    b"90000,90000,-1,0,-1\n"
    b"1500000,4000000,1400000,0,-1\n"
)
COMMANDS = {
    "simulate": ["idle", "simulate", "--governor", "teo", "--states", "intel-skx"],
    "summary": ["idle", "summary", "--governor", "menu", "--governor", "teo", "--states", "intel-skx"],
}


def feed(path: Path, periods: int) -> threading.Thread:
    def write() -> None:
        try:
            with open(path, "wb") as f:
                f.write(HEADER)
                blocks = periods // 10
                chunk = BLOCK * 10_000
                for _ in range(blocks // 10_000):
                    f.write(chunk)
                f.write(BLOCK * (blocks % 10_000))
        except BrokenPipeError:
            pass  # the reader stopped (Ctrl-C)

    t = threading.Thread(target=write, daemon=True)
    t.start()
    return t


def run(argv: list[str], trace: Path, interrupt_after: float | None = None) -> tuple[int, float, int, float]:
    """(exit code, seconds, peak RSS in bytes, seconds from SIGINT to exit)."""
    t0 = time.monotonic()
    p = subprocess.Popen([sys.executable, "-m", "schedlab", *argv, str(trace)], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)

    def drain() -> None:
        assert p.stdout is not None
        while p.stdout.read(1 << 20):
            pass

    d = threading.Thread(target=drain)
    d.start()
    sig = 0.0
    if interrupt_after is not None:
        time.sleep(interrupt_after)
        sig = time.monotonic()
        p.send_signal(signal.SIGINT)
    _, status, usage = os.wait4(p.pid, 0)
    end = time.monotonic()
    d.join()
    return os.waitstatus_to_exitcode(status), end - t0, usage.ru_maxrss * 1024, end - sig if sig else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,1000000,10000000")
    ap.add_argument("--after", type=float, default=2.0, help="seconds before SIGINT")
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "small.csv"
        small.write_bytes(HEADER + BLOCK)
        for name, argv in COMMANDS.items():
            _, _, base, _ = run(argv, small)
            print(f"idle {name}: 10 periods: peak RSS {base / 2**20:.1f} MiB (the interpreter and imports)")
            for n in sizes:
                fifo = Path(tmp) / f"fifo-{name}-{n}"
                os.mkfifo(fifo)
                w = feed(fifo, n)
                code, secs, rss, _ = run(argv, fifo)
                w.join()
                print(f"  {n:>10,} periods: exit {code}, {secs:7.2f} s, {n / secs / 1e6:6.2f} M periods/s, "
                      f"peak RSS {rss / 2**20:7.1f} MiB (+{(rss - base) / 2**20:.1f} MiB)")
            fifo = Path(tmp) / f"fifo-{name}-int"
            os.mkfifo(fifo)
            feed(fifo, 10_000_000)
            code, _, _, latency = run(argv, fifo, interrupt_after=a.after)
            print(f"  Ctrl-C after {a.after} s of 10^7 periods: exit {code}, {latency:.3f} s from the signal "
                  f"(bound 0.5 s)")


if __name__ == "__main__":
    main()

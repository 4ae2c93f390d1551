"""Hand-run benchmark: `schedlab lkp compare` on 2 commits × 8 runs × 20,000 metrics.

Generates two multi-result roots (matrix.json with 20,000 metrics of 8 runs each; about
10% of the head's metrics shifted by +8%), then times `schedlab lkp compare BASE HEAD`
as a whole process (interpreter start-up included), best of a few runs.

lkp-tests' own Ruby compare cannot run in this sandbox; the reference figure is the
quoted one from the issue: about 15 s of wall time for such a pair on this 2-core
machine (0.3 s of it start-up). The target is >= 50x faster.

    python benchmarks/bench_lkp.py [--metrics 20000] [--runs 8] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

RUBY_QUOTED_S = 15.0
FAMILIES = ["will-it-scale", "proc-vmstat", "perf-stat.i", "vmstat.cpu", "meminfo", "numa-vmstat.node0",
            "sched_debug.cpu", "turbostat", "cpuidle", "interrupts.CPU0", "slabinfo", "iostat.sda"]


def make_roots(base_dir: str, metrics: int, runs: int, seed: int = 1) -> tuple[str, str]:
    rng = random.Random(seed)
    names = [f"{FAMILIES[i % len(FAMILIES)]}.metric_{i}" for i in range(metrics)]
    centers = [rng.uniform(10, 1e7) for _ in range(metrics)]
    shifted = set(rng.sample(range(metrics), metrics // 10))
    paths = []
    for c, sha in enumerate(("1" * 40, "2" * 40)):
        root = os.path.join(base_dir, sha)
        os.makedirs(os.path.join(root, "0"), exist_ok=True)
        m = {}
        for i, name in enumerate(names):
            mu = centers[i] * (1.08 if c == 1 and i in shifted else 1.0)
            m[name] = [round(rng.gauss(mu, mu * 0.01), 2) for _ in range(runs)]
        m["stats_source"] = [f"{root}/{r}/stats.json" for r in range(runs)]
        with open(os.path.join(root, "matrix.json"), "w") as f:
            json.dump(m, f, indent=2)
        with open(os.path.join(root, "0", "job.yaml"), "w") as f:
            f.write(f"testcase: will-it-scale\ntbox_group: bench\nkconfig: x86_64-rhel\ncompiler: gcc-12\n"
                    f"rootfs: debian-12-x86_64.cgz\ncommit: {sha}\n")
        paths.append(root)
    return paths[0], paths[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--metrics", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        base, head = make_roots(d, args.metrics, args.runs)
        print(f"generated 2 commits x {args.runs} runs x {args.metrics} metrics in {time.perf_counter() - t0:.1f} s "
              f"({os.path.getsize(os.path.join(base, 'matrix.json')) / 1e6:.1f} MB matrix.json each)")
        cmd = [sys.executable, "-m", "schedlab", "lkp", "compare", base, head]
        times, rows = [], 0
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            times.append(time.perf_counter() - t0)
            rows = sum(1 for line in out.splitlines() if ".metric_" in line)
        best = min(times)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import schedlab.cli"], check=True)
        startup = time.perf_counter() - t0
        print(f"schedlab lkp compare: best {best:.3f} s, median {sorted(times)[len(times) // 2]:.3f} s "
              f"of {args.repeat} whole-process runs ({rows} rows printed; python start-up + import {startup:.3f} s)")
        print(f"lkp-tests Ruby compare: {RUBY_QUOTED_S:.0f} s (quoted figure from the issue, not measured here)")
        print(f"ratio: {RUBY_QUOTED_S / best:.0f}x faster (target >= 50x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

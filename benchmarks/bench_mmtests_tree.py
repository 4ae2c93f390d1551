"""Hand-run benchmark: a whole MMTests tree with monitors, schedlab against MMTests' Perl.

Generates a work/log tree (benchmarks/bench_mmtests.py's families × --kernels ×
--iterations, MMTests 2025 layout) and gives every iteration the monitor logs
run-mmtests.sh leaves (tools/oracles/mmtests/gen_monitor_logs.py: vmstat, iostat,
proc-interrupts, proc-vmstat, mpstat, turbostat, the time line of tests-timestamp). Then
prints, as compare-kernels.sh would, every benchmark's table and its monitor tables
(duration, vmstat, proc-vmstat, proc-interrupts, iostat, turbostat, mpstat node-0), each
as its own process: `schedlab mmtests compare ... [--print-monitor M]` and MMTests'
compare-mmtests.pl of the same era (tools/oracles/mmtests/oracle.sh 2025; needs the
checkout setup_trees.sh makes and R). Prints both totals, the ratio, and how many of the
tables differ (0 expected; the SubAmean rows of dbench/tbench are random upstream).

Run it by hand on a quiet machine (it forks ~2 × 8 processes per benchmark), never in tests:

    python benchmarks/bench_mmtests_tree.py [--kernels 10] [--iterations 5] [--perl-era 2025]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORACLES = HERE.parent / "tools" / "oracles" / "mmtests"
MONITORS = [("duration", ""), ("vmstat", ""), ("proc-vmstat", ""), ("proc-interrupts", ""), ("iostat", ""),
            ("turbostat", ""), ("mpstat", "node-0")]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def add_monitors(root: Path, names: list[str], iterations: int) -> None:
    """Monitor logs for every benchmark of every iteration (counters carry on per kernel)."""
    gm = _load("gen_monitor_logs", ORACLES / "gen_monitor_logs.py")
    rng = random.Random(7)
    for k, name in enumerate(names):
        vals, counts = gm.kernel_counters(rng)
        for it in range(iterations):
            d = root / name / f"iter-{it}"
            (d / "tests-timestamp").unlink(missing_ok=True)
            gm.write(str(d / "cpu-topology-mmtests.txt"), gm.topology(), True)
            gm.write(str(d / "tests-sysstate"), ["file start :: /proc/meminfo"] + gm.MEMINFO, True)
            for bench in sorted(p.name for p in d.iterdir() if (p / "logs").is_dir()):
                t0 = 1764607000 + 10000 * (k * iterations + it)
                gm.iteration(str(d), bench, rng, 0.7 + 0.02 * k, t0, vals, counts, stamp=False)


def run_all(cmds: list[list[str]]) -> tuple[float, list[str]]:
    outs = []
    t = time.perf_counter()
    for c in cmds:
        outs.append(subprocess.run(c, capture_output=True, text=True).stdout)
    return time.perf_counter() - t, outs


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernels", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--perl-era", default="2025")
    args = ap.parse_args()
    bm = _load("bench_mmtests", HERE / "bench_mmtests.py")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "work" / "log"
        names = bm.gen(root, args.kernels, args.iterations)
        add_monitors(root, names, args.iterations)
        benches = sorted(p.name for p in (root / names[0] / "iter-0").iterdir() if (p / "logs").is_dir())
        n = ",".join(names)
        tables: list[list[str]] = []
        for b in benches:
            tables.append(["-b", b, "-n", n])
            for mon, sub in MONITORS:
                tables.append(["-b", b, "-n", n, "--print-monitor", mon] + (["--sub-heading", sub] if sub else []))
        ours = [[sys.executable, "-m", "schedlab", "mmtests", "compare", "-d", str(root), "--compat", args.perl_era,
                 *t] for t in tables]
        perl = [[str(ORACLES / "oracle.sh"), args.perl_era, "-d", str(root), *t] for t in tables]
        print(f"tree: {len(benches)} benchmarks ({', '.join(benches)}) x {args.kernels} kernels x "
              f"{args.iterations} iterations, {len(tables)} tables ({len(MONITORS)} monitors each)")
        ts, out_s = run_all(ours)
        tp, out_p = run_all(perl)
        differ = sum(1 for a, b in zip(out_s, out_p) if a != b)
        print(f"schedlab: {ts:.2f} s   compare-mmtests.pl ({args.perl_era}): {tp:.2f} s   "
              f"ratio {tp / ts:.1f}x   tables that differ: {differ}")
        if os.environ.get("BENCH_SHOW_DIFF") and differ:
            for t, a, b in zip(tables, out_s, out_p):
                if a != b:
                    print("differs:", " ".join(t))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

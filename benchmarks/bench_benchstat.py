"""Hand-run benchmark: the benchstat view of two Go benchmark files against Go's benchstat.

Writes two files of `go test -bench` output (default 200 benchmarks x 3 units, N runs
each, values on a coarse grid so that runs tie, as real ns/op often do: the exact U
distribution with ties is the costly case), then times `benchstat old.txt new.txt`
(a process: its start is part of what a user waits for) and schedlab's
`stats --format go-bench --view benchstat` (in this process: read, compare, render) and
checks that both print the same table but for the column names.

    python benchmarks/bench_benchstat.py BENCHSTAT [--benchmarks 200] [--runs 10] [--repeat 3]

BENCHSTAT is a benchstat binary (tools/oracles/table/benchstat.py says how it is built).

Recorded (this sandbox: 2 vCPUs shared with other jobs, load average 17; benchstat
08c49f3 built by Go 1.19, which spreads its cells over goroutines; schedlab's
comparison also computes its own verdicts, which the view does not print):

    python benchmarks/bench_benchstat.py BENCHSTAT --benchmarks 200 --runs 10 --repeat 3
        600 rows, 10 runs a side: benchstat 420.6 ms, schedlab 522.8 ms (0.80x), same table
    python benchmarks/bench_benchstat.py BENCHSTAT --benchmarks 50 --runs 25 --repeat 3
        150 rows, 25 runs a side: benchstat 2790.8 ms, schedlab 1517.0 ms (1.84x), same table
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
from pathlib import Path

from schedlab import _core
from timing import best_of


def write(path: Path, rnd: random.Random, benchmarks: int, runs: int, slow: float) -> None:
    lines = ["goos: linux", "goarch: amd64", "pkg: example.com/bench"]
    for _ in range(runs):
        for b in range(benchmarks):
            base = 100 * (1 + b % 17)
            ns = round(base * slow * rnd.gauss(1, 0.02))  # whole ns: ties within and across files
            lines.append(f"BenchmarkB{b}-8 1000 {ns} ns/op {64 * (b % 5)} B/op {b % 3} allocs/op")
    path.write_text("\n".join(lines) + "\nPASS\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("benchstat")
    ap.add_argument("--benchmarks", type=int, default=200)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    rnd = random.Random(1)
    with tempfile.TemporaryDirectory() as d:
        old, new = Path(d) / "old.txt", Path(d) / "new.txt"
        write(old, rnd, a.benchmarks, a.runs, 1.0)
        write(new, rnd, a.benchmarks, a.runs, 1.01)

        def go() -> str:
            return subprocess.run([a.benchstat, old.name, new.name], check=True, capture_output=True,
                                  text=True, cwd=d).stdout

        def ours() -> str:
            c = _core.compare_result_groups([str(old), str(new)], "go-bench", test="mann-whitney")
            return c.to_benchstat()

        t_go, out_go = best_of(a.repeat, go)
        t_ours, out_ours = best_of(a.repeat, ours)
        # the column-name lines differ (`old.txt` against `old`); every other line must not
        def body(out: str) -> list[str]:
            return [line for line in out.splitlines() if "old" not in line]

        same = body(out_go) == body(out_ours)
        rows = a.benchmarks * 3
        print(f"{a.benchmarks} benchmarks x 3 units, {a.runs} runs a side ({rows} rows)")
        print(f"benchstat (process)        {t_go * 1e3:9.1f} ms")
        print(f"schedlab (read+compare+view){t_ours * 1e3:8.1f} ms   {t_go / t_ours:.2f}x benchstat's speed")
        print(f"same table but for the column names: {same}")


if __name__ == "__main__":
    main()

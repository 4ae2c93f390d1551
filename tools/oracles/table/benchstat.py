#!/usr/bin/env python3
"""Regenerate tests/data/table/benchstat/: each case's samples (CASE.json) and what Go's
benchstat prints for them (CASE.benchstat.txt), the expected values of
tests/it/benchstat_golden.rs.

benchstat is golang.org/x/perf/cmd/benchstat (commit 08c49f3, go 1.18 module) built from
the golang/perf and aclements/go-moremath repositories:

    git --git-dir=<golang/perf> archive 08c49f3 cmd/benchstat benchfmt benchmath benchproc benchunit | tar -x -C src
    git --git-dir=<go-moremath> archive f10218a38794 | tar -x -C moremath
    (src/go.mod: module golang.org/x/perf, require go-moremath, replace it => ../moremath)
    GOFLAGS=-mod=mod GOPROXY=off go build -o benchstat ./cmd/benchstat

Usage: tools/oracles/table/benchstat.py BENCHSTAT  (run from the repository root, with the
schedlab extension built in python/ for the MMTests case's samples).

Cases:
- hyperfine: the two commands of tests/data/readers/hyperfine.json (10 runs each, real).
- netperf-udp: MMTests' netperf-ipv4-udp in tests/data/mmtests/logs-head, 5 runs a size (the
  per-run samples as the logs give them).
- orders: generated samples of n = 5, 6, 10, 21, 25, 31, 40 and 100 a side (the exact and the
  normal-approximation order statistics, and the unbounded interval).
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path("tests/data/table/benchstat")


def hyperfine():
    d = json.loads(Path("tests/data/readers/hyperfine.json").read_text())
    times = [r["times"] for r in d["results"]]
    return {"kernels": ["ls", "ls-l"], "unit": "s", "rows": [{"name": "wall", "samples": times}]}


def netperf_udp():
    sys.path.insert(0, "python")
    from schedlab import mmtests

    c = mmtests.compare("tests/data/mmtests/logs-head", "netperf-ipv4-udp", ["6.8-vanilla", "6.9-patched"])
    rows, seen = [], set()
    for r in c.rows:
        if r.name in seen or not r.cells[0].samples:
            continue
        seen.add(r.name)
        rows.append({"name": r.name, "samples": [list(x.samples) for x in r.cells]})
    return {"kernels": ["6.8-vanilla", "6.9-patched"], "unit": "MBits/sec", "rows": rows}


def orders():
    state = 12345

    def draw():  # a 31-bit LCG (glibc's constants), deterministic
        nonlocal state
        state = (1103515245 * state + 12345) % 2**31
        return state / 2**31

    rows = []
    for n in (5, 6, 10, 21, 25, 31, 40, 100):
        base = [round(100 + 10 * draw(), 3) for _ in range(n)]
        new = [round(103 + 10 * draw(), 3) for _ in range(n)]
        rows.append({"name": f"n{n}", "samples": [base, new]})
    return {"kernels": ["base", "new"], "unit": "ops/s", "rows": rows}


def run(benchstat, name, case):
    (OUT / f"{name}.json").write_text(json.dumps(case, indent=1) + "\n")
    with tempfile.TemporaryDirectory() as tmp:
        args = [benchstat]
        for k, kernel in enumerate(case["kernels"]):
            f = Path(tmp) / f"{kernel}.txt"
            lines = []
            for row in case["rows"]:
                for v in row["samples"][k]:
                    lines.append(f"Benchmark{row['name']} 1 {v!r} {case['unit']}\n")
            f.write_text("".join(lines))
            args.append(f"{kernel}={f}")
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    (OUT / f"{name}.benchstat.txt").write_text(out)


def main():
    benchstat = sys.argv[1]
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in (("hyperfine", hyperfine), ("netperf-udp", netperf_udp), ("orders", orders)):
        run(benchstat, name, make())


if __name__ == "__main__":
    main()

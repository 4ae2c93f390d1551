#!/usr/bin/env python3
"""Write the result tree of tests/data/lkp/golden/query and lkp's own ncompare of it with
axis queries (-s, -o) and compare axes (-c).

Two commits × two kconfigs of one hackbench job: `hackbench/<kconfig>/<commit>/` each with
matrix.json and run directories holding job.yaml. Each case is a line of CASES: the
ncompare options after `--root query`.

usage: LKP_SRC=… tools/oracles/lkp/gen_query.py   (runs compare_dirs.rb, needs ruby)
"""
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "../../../tests/data/lkp/golden")
OUT = os.path.join(GOLDEN, "query")
A, B = "a1" * 20, "b2" * 20
RUNS = 4
JOB = ("suite: hackbench\ntestcase: hackbench\ncategory: benchmark\nnr_threads: 100%\niterations: 4\n"
       "hackbench:\n  mode: process\n  ipc: pipe\ntbox_group: lkp-skl-d01\nrootfs: debian-12-x86_64.cgz\n"
       "compiler: gcc-12\n")

# (kconfig, commit) → hackbench.throughput level; the kconfigs differ as well as the commits
LEVEL = {("k1", A): 100000, ("k1", B): 80000, ("k2", A): 120000, ("k2", B): 90000}

CASES = {
    "two_commits": ["-s", f"commit={A[:8]}", "-s", f"commit={B[:8]}"],
    "override": ["-s", f"kconfig=k1/commit={A}", "-o", f"commit={B}"],
    "compare_kconfigs": ["-c", "kconfig", "-s", f"commit={A[:8]}"],
    "different_roots": ["-s", f"commit={A}/kconfig=k1", "-o", f"commit={B}/kconfig=k2"],
    "more_kpi": ["-m", "-k", "-s", f"commit={B}", "-s", f"commit={A}"],
}


def write_root(kconfig, commit):
    root = os.path.join(OUT, "hackbench", kconfig, commit)
    lvl = LEVEL[(kconfig, commit)]
    m = {
        "hackbench.throughput": [lvl + 17 * i for i in range(RUNS)],
        "vmstat.system.cs": [lvl * 7 + 31 * i for i in range(RUNS)],
        "interrupts.CPU0.LOC:Local_timer_interrupts": [lvl * 3 + 1000 * i for i in range(RUNS)],
        "stats_source": [f"/result/hackbench/{kconfig}/{commit}/{i}/stats.json" for i in range(RUNS)],
    }
    for i in range(RUNS):
        os.makedirs(os.path.join(root, str(i)), exist_ok=True)
        with open(os.path.join(root, str(i), "job.yaml"), "w") as f:
            f.write(JOB + f"kconfig: {kconfig}\ncommit: {commit}\n")
    with open(os.path.join(root, "matrix.json"), "w") as f:
        json.dump(m, f, indent=2)
        f.write("\n")


def main():
    for kconfig, commit in LEVEL:
        write_root(kconfig, commit)
    env = dict(os.environ, TZ="UTC")
    drv = os.path.join(HERE, "compare_dirs.rb")
    for name, opts in CASES.items():
        # run from the golden directory: the tree is searched as `query`
        out = subprocess.run([drv, "--root", "query", *opts], env=env, cwd=GOLDEN, check=True,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
        with open(os.path.join(OUT, f"out_{name}.txt"), "w") as f:
            f.write(out)
        print(f"--- {name} {' '.join(opts)}\n{out}")


main()

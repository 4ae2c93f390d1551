#!/usr/bin/env python3
"""Write the result roots of tests/data/lkp/golden/flags and lkp's own compare of them
with ncompare's -p (perf-profile threshold) and -k (test programs' metrics only).

- perf-profile keys with Float medians: one whose ranges overlap but whose medians are
  above 5 (shown only with `-p 5`, where the Float threshold applies), one whose ranges
  separate below 5 (shown by default, hidden with `-p 5`);
- metrics of test programs (hackbench, perf-bench-sched-messaging), a test's own
  `time.` key, a monitor's key and unixbench.incomplete_result, all changed (`-k` keeps
  the test programs' own ones).

usage: LKP_SRC=… tools/oracles/lkp/gen_flags.py   (runs compare_dirs.rb, needs ruby)
"""
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "../../../tests/data/lkp/golden/flags")
BASE, HEAD = "c" * 40, "d" * 40
RUNS = 4
JOB = ("suite: hackbench\ntestcase: hackbench\ncategory: benchmark\nnr_threads: 100%\niterations: 4\n"
       "hackbench:\n  mode: process\n  ipc: pipe\ntbox_group: lkp-skl-d01\nkconfig: x86_64-rhel-8.3\n"
       "rootfs: debian-12-x86_64.cgz\ncompiler: gcc-12\n")

METRICS = {
    BASE: {
        "hackbench.throughput": [100000, 100100, 100200, 100050],
        "hackbench.time.elapsed_time": [60.1, 60.2, 60.0, 60.3],
        "perf-bench-sched-messaging.throughput": [5000.5, 5010.25, 4990.75, 5005.0],
        "unixbench.incomplete_result": [0, 0, 0, 0],
        "vmstat.cpu.us": [40, 41, 40, 42],
        "perf-profile.self.cycles-pp.overlap_above": [6.0, 6.4, 6.2, 6.1],
        "perf-profile.children.cycles-pp.separate_below": [1.0, 1.05, 1.02, 1.01],
        "perf-profile.calltrace.cycles-pp.integer_above": [7, 7, 8, 7],
    },
    HEAD: {
        "hackbench.throughput": [80000, 80100, 80200, 80050],
        "hackbench.time.elapsed_time": [75.1, 75.2, 75.0, 75.3],
        "perf-bench-sched-messaging.throughput": [4000.5, 4010.25, 3990.75, 4005.0],
        "unixbench.incomplete_result": [1, 1, 1, 1],
        "vmstat.cpu.us": [60, 61, 60, 62],
        "perf-profile.self.cycles-pp.overlap_above": [6.3, 6.1, 6.5, 6.2],
        "perf-profile.children.cycles-pp.separate_below": [1.5, 1.55, 1.52, 1.51],
        "perf-profile.calltrace.cycles-pp.integer_above": [7, 8, 7, 7],
    },
}

RUNS_OF = {"default": [], "p5": ["-p", "5"], "p0.5_more": ["-p", "0.5", "-m"], "k": ["-k"], "k_all": ["-k", "-a"]}


def write_root(commit):
    root = os.path.join(OUT, commit)
    m = dict(METRICS[commit])
    m["stats_source"] = [f"/result/flags/{commit}/{i}/stats.json" for i in range(RUNS)]
    for i in range(RUNS):
        os.makedirs(os.path.join(root, str(i)), exist_ok=True)
        with open(os.path.join(root, str(i), "job.yaml"), "w") as f:
            f.write(JOB + f"commit: {commit}\n")
    with open(os.path.join(root, "matrix.json"), "w") as f:
        json.dump(m, f, indent=2)
        f.write("\n")


def main():
    for c in (BASE, HEAD):
        write_root(c)
    env = dict(os.environ, TZ="UTC")
    drv = os.path.join(HERE, "compare_dirs.rb")
    dirs = [os.path.join(OUT, c) for c in (BASE, HEAD)]
    for name, opts in RUNS_OF.items():
        out = subprocess.run([drv, *opts, *dirs], env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
        with open(os.path.join(OUT, f"out_{name}.txt"), "w") as f:
            f.write(out)
        print(f"--- {name} {' '.join(opts)}\n{out}")


main()

#!/usr/bin/env python3
"""Write the result roots of tests/data/lkp/golden/issue18 and lkp's own compare of them.

- patterns/: keys that only lkp's perf-metric *patterns* (etc/perf-metrics-patterns,
  where '.' is any character) make perf metrics: `lock_stat.<lock>.contentions` for a
  lock with '.'-less punctuation and `interrupts.…timer` (matched by `^(.*\\.)?time..*`),
  each changed by 3% (shown only for perf metrics, which need > 1%, not > 5%).
- axes/: a job.yaml with `suite` and without rootfs/compiler (lkp's defaults apply).

usage: LKP_SRC=… tools/oracles/lkp/gen_issue18.py   (runs compare_dirs.rb, needs ruby)
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "../../../tests/data/lkp/golden/issue18")
BASE, HEAD = "a" * 40, "b" * 40


def write_root(scenario, commit, job, metrics, runs):
    root = os.path.join(OUT, scenario, commit)
    m = {k: v for k, v in metrics.items()}
    m["stats_source"] = [f"/result/{scenario}/{commit}/{i}/stats.json" for i in range(runs)]
    for i in range(runs):
        os.makedirs(os.path.join(root, str(i)), exist_ok=True)
        with open(os.path.join(root, str(i), "job.yaml"), "w") as f:
            f.write(job + f"commit: {commit}\n")
    with open(os.path.join(root, "matrix.json"), "w") as f:
        json.dump(m, f, indent=2)
        f.write("\n")


def spread(x, runs):
    # tight runs around x: the two commits' ranges are well apart at a 3% change
    return [x + (i % 3) for i in range(runs)]


def main():
    runs = 4
    job = "suite: hackbench\ntestcase: hackbench\ncategory: benchmark\nnr_threads: 100%\niterations: 4\n" \
          "hackbench:\n  mode: process\n  ipc: pipe\ntbox_group: lkp-skl-d01\nkconfig: x86_64-rhel-8.3\n"
    full = job + "rootfs: debian-12-x86_64.cgz\ncompiler: gcc-12\n"
    for commit, f in ((BASE, 1.0), (HEAD, 1.03)):
        metrics = {
            "hackbench.throughput": spread(int(100000 * (1.0 if commit == BASE else 1.2)), runs),
            "lock_stat.&rq->__lock.contentions": spread(int(500000 * f), runs),
            "lock_stat.&p->pi_lock.contentions": spread(int(400000 * f), runs),
            "interrupts.CPU0.0:IO-APIC.2-edge.timer": spread(int(2000000 * f), runs),
            "interrupts.CPU1.LOC:Local_timer_interrupts": spread(int(3000000 * f), runs),
            "vmstat.system.cs": spread(int(700000 * f), runs),
        }
        write_root("patterns", commit, full, metrics, runs)
        write_root("axes", commit, job, metrics, runs)
    env = dict(os.environ, TZ="UTC")
    drv = os.path.join(HERE, "compare_dirs.rb")
    for scenario, opts in (("patterns", ["-m"]), ("axes", [])):
        dirs = [os.path.join(OUT, scenario, c) for c in (BASE, HEAD)]
        out = subprocess.run([drv, *opts, *dirs], env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
        with open(os.path.join(OUT, f"out_{scenario}.txt"), "w") as f:
            f.write(out)
        sys.stdout.write(out)


main()

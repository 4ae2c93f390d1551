"""Hand-run benchmark: `schedlab lkp compare` against lkp-tests' own Ruby compare, side by side.

Generates 0-day-sized result-root pairs (2 commits x 8 runs; per size N metrics of which a
quarter are perf-profile keys and a quarter lock_stat keys, as real jobs with those monitors
carry thousands; about 10% of the head's metrics shifted by 3-10%, some lock_stat and
perf-profile keys present only in the head), then per size:

- runs lkp-tests' compare (lib/compare.rb, unmodified, through
  tools/oracles/lkp/compare_dirs.rb) once, timing the whole process;
- runs `schedlab lkp compare BASE HEAD` `--repeat` times as a whole process and takes the
  best: the installed `schedlab` command (the native launcher of a source install, which
  runs a text compare itself, docs/cli.md §1) and, beside it, `python -m schedlab`
  (interpreter start-up included);
- checks that both print the same text, and prints the ratio.

    LKP_SRC=/path/to/lkp-tests python benchmarks/bench_lkp.py [--sizes 2500,5000,...] [--runs 8]

Needs ruby and ruby-activesupport, ruby-tty-command and ruby-git (lkp's lib/ requires them)
and an lkp-tests checkout (github.com/intel/lkp-tests) in LKP_SRC.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "..", "tools", "oracles", "lkp", "compare_dirs.rb")
PLAIN = ["will-it-scale", "proc-vmstat", "perf-stat.i", "vmstat.cpu", "meminfo", "numa-vmstat.node0",
         "sched_debug.cpu", "turbostat", "cpuidle", "interrupts.CPU0", "softirqs.CPU1", "iostat.sda"]
LOCKS = ["&rq->__lock", "&(&zone->lock)->rlock", "&p->pi_lock", "&mm->mmap_lock", "rcu_node_0", "&sb->s_type->i_lock_key"]
LOCK_FIELDS = ["contentions", "con-bounces", "waittime-total", "waittime-max", "acquisitions", "holdtime-total"]
FUNCS = ["native_queued_spin_lock_slowpath", "do_syscall_64", "entry_SYSCALL_64_after_hwframe", "clear_page_erms",
         "__schedule", "try_to_wake_up", "update_load_avg", "intel_idle", "cpuidle_enter_state", "memcpy_orig"]


def metric_names(n: int) -> list[str]:
    names = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            part = ["calltrace", "children", "self"][i % 3]
            names.append(f"perf-profile.{part}.cycles-pp.{FUNCS[i % len(FUNCS)]}.f{i}")
        elif kind == 1:
            field = LOCK_FIELDS[i % len(LOCK_FIELDS)]
            names.append(f"lock_stat.{LOCKS[i % len(LOCKS)]}{i}.{field}")
        else:
            names.append(f"{PLAIN[i % len(PLAIN)]}.metric_{i}")
    return names


def make_roots(base_dir: str, metrics: int, runs: int, seed: int = 1) -> tuple[str, str]:
    rng = random.Random(seed)
    names = metric_names(metrics)
    centers = [rng.uniform(0.05, 40.0) if n.startswith("perf-profile") else rng.uniform(10, 1e7) for n in names]
    shifted = {i: rng.uniform(1.03, 1.10) for i in rng.sample(range(metrics), metrics // 10)}
    monitored = [i for i, n in enumerate(names) if n.startswith(("lock_stat.", "perf-profile."))]
    head_only = set(rng.sample(monitored, metrics // 40))
    paths = []
    for c, sha in enumerate(("1" * 40, "2" * 40)):
        root = os.path.join(base_dir, sha)
        os.makedirs(os.path.join(root, "0"), exist_ok=True)
        m = {}
        for i, name in enumerate(names):
            if c == 0 and i in head_only:
                continue
            mu = centers[i] * (shifted.get(i, 1.0) if c == 1 else 1.0)
            if name.startswith("perf-profile"):
                m[name] = [round(max(0.0, rng.gauss(mu, mu * 0.02)), 2) for _ in range(runs)]
            else:
                m[name] = [int(rng.gauss(mu, mu * 0.01)) for _ in range(runs)]
        m["stats_source"] = [f"{root}/{r}/stats.json" for r in range(runs)]
        with open(os.path.join(root, "matrix.json"), "w") as f:
            json.dump(m, f, indent=2)
        with open(os.path.join(root, "0", "job.yaml"), "w") as f:
            f.write(f"suite: will-it-scale\ntestcase: will-it-scale\ntbox_group: bench\nkconfig: x86_64-rhel\n"
                    f"compiler: gcc-12\nrootfs: debian-12-x86_64.cgz\ncommit: {sha}\n")
        paths.append(root)
    return paths[0], paths[1]


def timed(cmd: list[str], env: dict | None = None) -> tuple[float, str]:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    return time.perf_counter() - t0, out.stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="2500,5000,10000,20000,40000")
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    lkp_src = os.environ.get("LKP_SRC")
    if not lkp_src or not os.path.isfile(os.path.join(lkp_src, "lib", "compare.rb")):
        sys.exit("set LKP_SRC to an lkp-tests checkout (github.com/intel/lkp-tests)")
    env = dict(os.environ, TZ="UTC")
    launcher = shutil.which("schedlab", path=os.path.dirname(sys.executable)) or shutil.which("schedlab")
    if launcher is None:
        sys.exit("no installed schedlab command (pip install . puts the native launcher beside python)")
    print(f"schedlab command: {launcher}")
    print(f"{'metrics':>8} {'rows':>6} {'lkp Ruby s':>11} {'schedlab s':>11} {'ratio':>7} "
          f"{'python -m s':>11} {'ratio':>7}  output")
    for n in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as d:
            base, head = make_roots(d, n, args.runs)
            ruby_s, ruby_out = timed(["ruby", DRIVER, base, head], env)
            ours = [timed([launcher, "lkp", "compare", base, head]) for _ in range(args.repeat)]
            py = [timed([sys.executable, "-m", "schedlab", "lkp", "compare", base, head])
                  for _ in range(args.repeat)]
            best = min(t for t, _ in ours)
            py_best = min(t for t, _ in py)
            same = all(out == ruby_out for _, out in ours + py)
            names = set(metric_names(n))
            rows = sum(1 for line in ruby_out.splitlines() if line.split() and line.split()[-1] in names)
            print(f"{n:>8} {rows:>6} {ruby_s:>11.3f} {best:>11.4f} {ruby_s / best:>6.0f}x "
                  f"{py_best:>11.4f} {ruby_s / py_best:>6.0f}x  {'identical' if same else 'DIFFERENT'}", flush=True)
            if not same:
                for path, text in (("lkp.txt", ruby_out), ("schedlab.txt", ours[0][1])):
                    with open(os.path.join(HERE, f"bench_lkp_{n}_{path}"), "w") as f:
                        f.write(text)
                print(f"  outputs written to benchmarks/bench_lkp_{n}_{{lkp,schedlab}}.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Hand-run benchmark: a whole MMTests tree of every byte-identical family with
monitors, schedlab against MMTests' own compare-mmtests.pl of the same era.

For each era asked for (2025, head, 2024), builds a work/log tree from the committed
per-family fixtures of that era (tests/data/mmtests/families/<era>, time/<legacy|head>,
logs-<legacy|head>), keeping every family whose golden table in that era is not empty (the
Perl prints it, and schedlab's tests hold it byte for byte), replicated to --kernels kernels
× --iterations iterations (kernel k copies the fixture's kernel k mod 3), and gives every
iteration the monitor logs run-mmtests.sh leaves (tools/oracles/mmtests/gen_monitor_logs.py:
vmstat, iostat, proc-interrupts, proc-vmstat, mpstat, turbostat, and the `time ::` line of
tests-timestamp). Then measures:

- the whole tree, end to end, in one process: Python start-up, `import schedlab`, then every
  family's table over all kernels and its seven monitor tables (duration, vmstat,
  proc-vmstat, proc-interrupts, iostat, turbostat, mpstat node-0), as compare-kernels.sh
  prints them (the bound: < 2 s);
- the same tables as one `schedlab mmtests compare` process each (how compare-kernels.sh
  forks compare-mmtests.pl), in total: the `schedlab` installed beside this Python (the
  native launcher of a source build, docs/cli.md), or `python -m schedlab` with
  --python-module or when none is installed;
- every family's 2-kernel table as a whole process, best of --repeat (bound: < 50 ms each);
- compare-mmtests.pl of the same era (tools/oracles/mmtests/oracle.sh; the checkouts that
  setup_trees.sh makes, and R) on the same 2-kernel table of every family, once each, with
  --perl-jobs calls at a time and a timeout of --perl-timeout s per call: every call that
  times out or fails is printed, and counted apart from the ratio. The ratio per family is
  Perl's time over schedlab's whole-process time; the bound is ≥ 100× wherever the Perl
  needs more than 1 s. Both 2-kernel outputs are compared byte for byte (the SubAmean rows of
  dbench/tbench are dropped on both sides: random upstream).

Run it by hand on a quiet machine (never in tests) and note the load average it prints.

Recorded 2026-12-02, 02:52-02:56 UTC, on the 2-core sandbox while four other engineers
built (load average 46 falling to 14 during the run, so wall times are several times a
quiet machine's; the CPU columns are the figures to read), after the monitor readers
stopped building a String per line and the run check stopped listing the whole work/log
per table: `--era 2025 --repeat 3 --no-perl --tree-dir /tmp/speedbench`, 37 families x 10
kernels x 5 iterations with monitors, 45.3 MiB. Whole tree in one process, 296 tables:
8.15 s wall, 2.66 s CPU (before: 32.0 s wall, 5.60 s CPU at load 14-18; about 1.3-1.5 s
wall on 2 quiet cores, not measured quiet here). The native calls alone, one after the other
in one thread at load 10 (5.55 s CPU before, 3.33 s after): the 37 family tables 0.83 s
(2.07 s before: every table listed the whole work/log), proc-interrupts 0.81 s (1.07),
iostat 0.43 s (0.59), turbostat 0.39 s (0.39), mpstat 0.38 s (0.49), proc-vmstat 0.29 s
(0.75), vmstat 0.14 s (0.13), duration 0.04 s (0.05); gzip inflation is a quarter of
proc-interrupts. (This run's build used flate2's zlib-rs backend; the committed default,
miniz_oxide, measured the same: proc-interrupts 0.81 s against 0.83 s.) 2-kernel
tables as whole processes: 79-251 ms wall, 48-82 ms CPU (before: 0.65-1.18 s wall, 78-135 ms
CPU); of that CPU, `python -c pass` is 10-20 ms and `import schedlab.cli` (argparse) another
~30 ms at this load. Then with the Perl, `--era 2025 --repeat 3 --family stream --family
libmicro --family kernbench --perl-jobs 1` (load 14): libmicro 152 ms (49 ms CPU) against
compare-mmtests.pl's 0.34 s (2x), stream 136 ms against 0.38 s (3x; neither Perl needs 1 s
at this load, the earlier run's 1.6 s was at load 18), kernbench 144 ms against 32.1 s (222x,
174x CPU); all three byte-identical. The earlier full Perl run (2026-12-01, load 14-18, same
tree): compare-mmtests.pl 0.98-272 s per 2-kernel table, >= 100x for perffutexwake,
kernbench, usemem, dbench4, schbench, tbench4.

Quiet machine, 2026-12-02 03:25 UTC (load average 1.47 before, 1.44 after; nothing else
running), with the seven families added that day: `--era 2025 --repeat 3 --no-perl
--tree-dir /tmp/speedbench`, 43 benchmark names x 10 kernels x 5 iterations with monitors,
53.2 MiB. Whole tree in one process: 344 tables in 1.62 s wall, 2.99 s CPU (best of 3): under
the 2 s bound. 2-kernel tables as whole processes: 50.1-78.3 ms (sysbenchthread the
slowest; 35 of 43 between 50 and 66 ms): over the 50 ms bound. In-process, the native
compare of such a table takes 4 ms (aim9) to 20 ms (dbench4); the rest is the interpreter
(`python -c pass` 10 ms), importing schedlab.cli (8-15 ms) and building its argparse parser.

The 2-kernel processes beside `python -c pass` and the Perl in the same run, with CPU
times and medians: benchmarks/bench_cli_startup.py (`--tree-dir` the same directory reuses
the tree kept here). Both compile schedlab's bytecode first, as pip does for an installed
wheel: PYTHONDONTWRITEBYTECODE is set in this sandbox, and an editable install without
__pycache__ compiles the package's modules again at every run (~6 ms; the figures above
do not say whether they had it).

    python benchmarks/bench_mmtests_tree.py [--era 2025 --era head --era 2024] [--kernels 10]
        [--iterations 5] [--repeat 3] [--perl-jobs 1] [--perl-timeout 300] [--no-perl]
"""

from __future__ import annotations

import argparse
import compileall
import concurrent.futures
import importlib.util
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = REPO / "tests" / "data" / "mmtests"
ORACLES = REPO / "tools" / "oracles" / "mmtests"
MONITORS = [("duration", ""), ("vmstat", ""), ("proc-vmstat", ""), ("proc-interrupts", ""), ("iostat", ""),
            ("turbostat", ""), ("mpstat", "node-0")]
# the fixture trees of each era, and where their goldens are
SOURCES = {
    "2025": [("families/2025", "families/out"), ("time/legacy", "time/out"), ("logs-legacy", "out")],
    "2024": [("families/2024", "families/out"), ("time/legacy", "time/out"), ("logs-legacy", "out")],
    "head": [("families/head", "families/out"), ("time/head", "time/out"), ("logs-head", "out")],
}
FIXTURE_KERNELS = ["6.8-vanilla", "6.9-patched", "6.10-rc1"]

# One process for the whole tree: every table of `tables` (argument lists), printed texts as JSON.
# The native calls release the GIL: the tables run on one thread per core.
WHOLE_TREE = r"""
import concurrent.futures, json, os, sys
from schedlab import _core
root, era, tables = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
def table(t):
    bench, names, monitor, sub = t
    try:
        if monitor:
            return _core.mmtests_monitor(root, bench, names, monitor, compat=era, subheading=sub)[1]
        return _core.mmtests_compare(root, bench, names, compat=era)[1]
    except Exception as e:  # a refusal is an answer too: count it, do not stop the tree
        return f"error: {type(e).__name__}: {e}"
with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
    json.dump(list(pool.map(table, tables)), sys.stdout)
"""


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def families(era: str) -> list[tuple[str, Path]]:
    """(benchmark, fixture tree) for every family whose golden table of `era` is not empty."""
    found = []
    for tree, out in SOURCES[era]:
        base = DATA / tree / FIXTURE_KERNELS[0] / "iter-0"
        for b in sorted(p.name for p in base.iterdir() if p.is_dir()):
            golden = DATA / out / f"{era}-{b}.oracle"
            if golden.is_file() and golden.stat().st_size > 0:
                found.append((b, DATA / tree))
    return found


def build_tree(root: Path, fams: list[tuple[str, Path]], kernels: int, iterations: int) -> list[str]:
    """Replicate the fixtures to kernels × iterations and add the monitor logs."""
    gm = _load("gen_monitor_logs", ORACLES / "gen_monitor_logs.py")
    rng = random.Random(7)
    names = [f"6.{k}-k{k:02d}" for k in range(kernels)]
    for k, name in enumerate(names):
        vals, counts = gm.kernel_counters(rng)
        for it in range(iterations):
            d = root / name / f"iter-{it}"
            d.mkdir(parents=True)
            for bench, tree in fams:
                src = [tree / s / "iter-0" / bench for s in FIXTURE_KERNELS if (tree / s / "iter-0" / bench).is_dir()]
                shutil.copytree(src[k % len(src)], d / bench)
                # the iteration's own files a parser reads (saladfork: numactl.txt.gz)
                for f in src[k % len(src)].parent.glob("numactl.txt*"):
                    if not (d / f.name).exists():
                        shutil.copy(f, d / f.name)
            gm.write(str(d / "cpu-topology-mmtests.txt"), gm.topology(), True)
            gm.write(str(d / "tests-sysstate"), ["file start :: /proc/meminfo"] + gm.MEMINFO, True)
            for j, (bench, _tree) in enumerate(fams):
                t0 = 1764607000 + 10000 * ((k * iterations + it) * len(fams) + j)
                gm.iteration(str(d), bench, rng, 0.7 + 0.02 * k, t0, vals, counts, stamp=False)
    return names


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def whole_process(cmd: list[str], repeat: int = 1, timeout: float | None = None) -> tuple[float, str, str, float]:
    """Best wall time of `repeat` runs of `cmd`, its stdout, '' or why it failed, and the
    CPU time (user + system) of that run (less sensitive to a loaded machine than wall)."""
    best, out, why, cpu = float("inf"), "", "", 0.0
    for _ in range(repeat):
        t, c = time.perf_counter(), children_cpu()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return time.perf_counter() - t, "", f"timed out after {timeout:.0f} s", children_cpu() - c
        if time.perf_counter() - t < best:
            best, cpu = time.perf_counter() - t, children_cpu() - c
        out = r.stdout
        why = "" if r.stdout else f"exit {r.returncode}: {(r.stderr.strip().splitlines() or [''])[-1][:100]}"
    return best, out, why, cpu


def comparable(text: str) -> str:
    """The table without the subselection rows, which upstream draws at random (SubAmean,
    SubAmeanCI, 2024's SubmeanCI: two runs of the Perl differ; tests/it/mmtests_golden.rs
    drops the same rows)."""
    return "".join(line for line in text.splitlines(True) if not line.startswith(("SubAmean", "SubmeanCI")))


def bench_era(era: str, args: argparse.Namespace, tmp: Path) -> set[str]:
    """Build the era's tree, print its figures; the families it held."""
    fams = [f for f in families(era) if not args.family or f[0] in args.family]
    root = tmp / f"{era}-{args.kernels}k-{args.iterations}i-{len(fams)}f" / "work" / "log"
    t = time.perf_counter()
    if (root / "complete").is_file():  # kept from an earlier run (--tree-dir)
        names = (root / "complete").read_text().split()
    else:
        shutil.rmtree(root, ignore_errors=True)
        names = build_tree(root, fams, args.kernels, args.iterations)
        (root / "complete").write_text(" ".join(names))
    size = sum(f.stat().st_size for f in root.rglob("*") if f.is_file())
    print(f"\n== era {era}: {len(fams)} families x {args.kernels} kernels x {args.iterations} iterations with "
          f"monitors ({size / 2**20:.1f} MiB on disk, generated in {time.perf_counter() - t:.1f} s)")
    print("   " + " ".join(b for b, _ in fams))
    tables = []
    for bench, _tree in fams:
        tables.append([bench, names, "", ""])
        tables += [[bench, names, mon, sub] for mon, sub in MONITORS]
    t_tree, out, why, cpu = whole_process([sys.executable, "-c", WHOLE_TREE, str(root), era, json.dumps(tables)],
                                          args.repeat)
    texts = json.loads(out) if out else []
    refused = sum(1 for x in texts if x.startswith("error: "))
    print(f"whole tree, one process ({os.cpu_count()} threads): {len(tables)} tables in {t_tree:.2f} s, "
          f"CPU {cpu:.2f} s (best of {args.repeat}; {refused} refused) "
          f"{'ok' if t_tree < 2 and not why else 'OVER 2 s' if not why else why}")
    # what a user types: the `schedlab` installed beside this Python (the native launcher of
    # a source build, docs/cli.md), else (or with --python-module) `python -m schedlab`
    script = Path(sys.executable).parent / "schedlab"
    cmd0 = [str(script)] if script.is_file() and not args.python_module else [sys.executable, "-m", "schedlab"]
    with open(cmd0[0], "rb") as f:
        kind = "native launcher" if f.read(4) == b"\x7fELF" else "Python"
    print(f"each table as a process: {' '.join(cmd0)} ({kind})")
    exe = cmd0 + ["mmtests", "compare", "-d", str(root), "--compat", era]
    if args.per_table_processes:
        t = time.perf_counter()
        for bench, ks, mon, sub in tables:
            extra = (["--print-monitor", mon] if mon else []) + (["--sub-heading", sub] if sub else [])
            subprocess.run(exe + ["-b", bench, "-n", ",".join(ks), *extra], capture_output=True)
        print(f"whole tree, one process per table: {time.perf_counter() - t:.2f} s")
    two = ",".join(names[:2])
    ours = {b: whole_process(exe + ["-b", b, "-n", two], args.repeat) for b, _ in fams}
    perl: dict[str, tuple[float, str, str, float]] = {}
    if not args.no_perl:
        cmds = {b: [str(ORACLES / "oracle.sh"), era, "-d", str(root), "-b", b, "-n", two] for b, _ in fams}
        with concurrent.futures.ThreadPoolExecutor(args.perl_jobs) as pool:
            futs = {b: pool.submit(whole_process, c, 1, args.perl_timeout) for b, c in cmds.items()}
            perl = {b: f.result() for b, f in futs.items()}
    print(f"{'family (2 kernels)':28s} {'schedlab':>9s} {'(CPU)':>9s} {'Perl':>9s} {'(CPU)':>9s} {'ratio':>7s} "
          f"{'(CPU)':>7s}  same")
    slow_ratios, differ, perl_failed = [], 0, 0
    for b, _ in fams:
        ts, out_s, why_s, cpu_s = ours[b]
        line = f"{b:28s} {ts * 1000:6.1f} ms {cpu_s * 1000:6.1f} ms"
        if why_s:
            line += f"  schedlab {why_s}"
        if b in perl:
            tp, out_p, why_p, cpu_p = perl[b]
            if why_p:
                perl_failed += 1
                line += f" {tp:7.2f} s  Perl {why_p}"
            else:
                same = comparable(out_s) == comparable(out_p)
                differ += not same
                line += (f" {tp:7.2f} s {cpu_p:7.2f} s {tp / ts:6.0f}x {cpu_p / max(cpu_s, 1e-9):6.0f}x  "
                         f"{'yes' if same else 'DIFFERS'}")
                if tp > 1:
                    slow_ratios.append(tp / ts)
        print(line + ("" if ts < 0.05 else "  OVER 50 ms"))
    worst = max(t for t, _, _, _ in ours.values())
    print(f"slowest 2-kernel table: {worst * 1000:.1f} ms {'ok' if worst < 0.05 else 'OVER 50 ms'}")
    if perl:
        ok = [b for b, (_, _, w, _) in perl.items() if not w]
        tp_all, ts_all = sum(perl[b][0] for b in ok), sum(ours[b][0] for b in ok)
        cp_all, cs_all = sum(perl[b][3] for b in ok), sum(ours[b][3] for b in ok)
        print(f"2-kernel tables, total: schedlab {ts_all:.2f} s (CPU {cs_all:.2f} s), compare-mmtests.pl ({era}) "
              f"{tp_all:.2f} s (CPU {cp_all:.2f} s), ratio {tp_all / max(ts_all, 1e-9):.0f}x (CPU "
              f"{cp_all / max(cs_all, 1e-9):.0f}x); tables that differ: {differ}; Perl calls failed or timed out: "
              f"{perl_failed}")
        if slow_ratios:
            print(f"where the Perl needs > 1 s ({len(slow_ratios)} families): ratio {min(slow_ratios):.0f}x "
                  f"to {max(slow_ratios):.0f}x {'ok' if min(slow_ratios) >= 100 else 'UNDER 100x'}")
    return {b for b, _ in fams}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--era", action="append", choices=sorted(SOURCES), help="repeatable (default: 2025 head 2024)")
    ap.add_argument("--kernels", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--perl-jobs", type=int, default=1)
    ap.add_argument("--perl-timeout", type=float, default=300.0)
    ap.add_argument("--no-perl", action="store_true", help="schedlab only")
    ap.add_argument("--family", action="append", help="only this family (repeatable; default: all)")
    ap.add_argument("--tree-dir", type=Path, help="build the trees here and keep them for the next run "
                    "(default: a temporary directory)")
    ap.add_argument("--python-module", action="store_true",
                    help="run each table as `python -m schedlab` even when a `schedlab` is installed")
    ap.add_argument("--per-table-processes", action="store_true",
                    help="also time the whole tree as one schedlab process per table")
    args = ap.parse_args()
    spec = importlib.util.find_spec("schedlab")
    if spec and spec.submodule_search_locations:  # as pip compiles an installed wheel
        compileall.compile_dir(next(iter(spec.submodule_search_locations)), quiet=1)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    families_seen = set()
    with tempfile.TemporaryDirectory(prefix="schedlab-bench-tree-") as d:
        for era in args.era or ["2025", "head", "2024"]:
            families_seen |= bench_era(era, args, args.tree_dir or Path(d))
    print(f"\n{len(families_seen)} benchmark names over the eras run; load average after: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Hand-run benchmark: a 2-kernel `schedlab mmtests compare` table as a whole
process, beside Python's own bare start-up and MMTests' compare-mmtests.pl on the same
table, all measured in the same run.

For every family of the era whose golden table is not empty (the committed fixture trees,
as benchmarks/bench_mmtests_tree.py chooses them; or, with --tree-dir, the bigger tree that
script keeps there), the table of the first two kernels is run as one process:

- `schedlab mmtests compare ...` as installed beside this Python (what a user types): the
  native launcher of a source build (docs/cli.md), or the Python console script of a wheel
  built by maturin alone; the label says which; and `python -m schedlab ...` for the
  first family;
- the baselines, interleaved with them so that a change in load hits all alike:
  `python -S -c pass` (the interpreter alone), `python -c pass` (with site: the floor of
  any Python command) and `python -c "import argparse"` (the floor of a plain argparse
  command line);
- the native compare alone, timed inside one warm process (`_core.mmtests_compare`);
- compare-mmtests.pl of the same era (tools/oracles/mmtests/oracle.sh: the pinned
  checkouts setup_trees.sh makes, and R), --perl-repeat times, its output compared with
  schedlab's byte for byte (subselection rows dropped on both sides: random upstream).

Each process's wall time and CPU time (user + system, from wait4) are taken; the best and
the median of --repeat runs are printed. CPU time is the figure to read on a loaded
machine (wall then waits for a core); on a quiet one the two agree. The bound is 50 ms
wall per table.

The package's bytecode is compiled first (python -m compileall, as pip does when it
installs a wheel): with PYTHONDONTWRITEBYTECODE set and no __pycache__ (an editable
install in this sandbox), every run compiles schedlab's modules again, ~6 ms that no
installed copy pays. --no-compile measures that case.

    python benchmarks/bench_cli_startup.py [--era 2025] [--repeat 20] [--family netperf-udp ...]
        [--perl-repeat 1] [--no-perl] [--no-compile] [--tree-dir DIR]
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
ORACLES = REPO / "tools" / "oracles" / "mmtests"

def _kind(script: Path) -> str:
    """How the installed `schedlab` runs: the native launcher or a Python console script."""
    with open(script, "rb") as f:
        return " (native launcher)" if f.read(4) == b"\x7fELF" else " (Python console script)"


# the native compare of each table, timed inside one warm process (best of `repeat`)
NATIVE = r"""
import json, sys, time
from schedlab import _core
tables, era, repeat = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3])
best = {}
for _ in range(repeat):
    for root, bench, names in tables:
        t = time.perf_counter()
        try:
            _core.mmtests_compare(root, bench, names, compat=era)
        except Exception:
            pass
        best[bench] = min(best.get(bench, 1e9), time.perf_counter() - t)
json.dump(best, sys.stdout)
"""


def measure(cmd: list[str], timeout: float | None = None) -> tuple[float, float, str, str]:
    """Wall and CPU (user + system, from wait4: this child alone) seconds of one run of
    ``cmd``, its stdout, and '' or why it failed."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err)
        timer = threading.Timer(timeout, p.kill) if timeout else None
        if timer:
            timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
        if timer:
            timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    why = ""
    if p.returncode < 0:
        why = f"killed by signal {-p.returncode}" + (f" (timeout {timeout:.0f} s)" if timeout and wall >= timeout else "")
    elif p.returncode != 0 or not text:
        why = f"exit {p.returncode}: {(errors.strip().splitlines() or [''])[-1][:100]}"
    return wall, ru.ru_utime + ru.ru_stime, text, why


def stats(samples: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    """Best and median wall, best and median CPU, in ms."""
    w = [s[0] * 1e3 for s in samples]
    c = [s[1] * 1e3 for s in samples]
    return min(w), statistics.median(w), min(c), statistics.median(c)


def comparable(text: str) -> str:
    """The table without the subselection rows (SubAmean, SubAmeanCI, 2024's SubmeanCI):
    upstream draws their subselections at random (R's sample, numpy's random)."""
    return "".join(line for line in text.splitlines(True) if not line.startswith(("SubAmean", "SubmeanCI")))


def tables_of(era: str, args: argparse.Namespace) -> list[tuple[str, Path, list[str]]]:
    """(benchmark, tree, the two kernels) of every family of ``era``."""
    sys.path.insert(0, str(HERE))  # the tree benchmark beside this script builds the trees
    import bench_mmtests_tree as tree_bench
    fams = [f for f in tree_bench.families(era) if not args.family or f[0] in args.family]
    if args.tree_dir is None:
        return [(b, tree, tree_bench.FIXTURE_KERNELS[:2]) for b, tree in fams]
    found = sorted(args.tree_dir.glob(f"{era}-*/work/log/complete"))
    if not found:
        raise SystemExit(f"no tree of era {era} under {args.tree_dir} (run bench_mmtests_tree.py --tree-dir)")
    root = found[0].parent
    names = found[0].read_text().split()[:2]
    return [(b, root, names) for b, _ in fams if any(root.glob(f"{names[0]}/iter-0/{b}"))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--era", default="2025", choices=["2025", "head", "2024"])
    ap.add_argument("--repeat", type=int, default=20, help="runs of each schedlab and baseline process")
    ap.add_argument("--perl-repeat", type=int, default=1)
    ap.add_argument("--perl-timeout", type=float, default=300.0)
    ap.add_argument("--no-perl", action="store_true")
    ap.add_argument("--no-compile", action="store_true", help="do not compile schedlab's bytecode first")
    ap.add_argument("--family", action="append", help="only this family (repeatable; default: all)")
    ap.add_argument("--tree-dir", type=Path,
                    help="the trees bench_mmtests_tree.py --tree-dir kept (default: the committed fixtures)")
    args = ap.parse_args()

    py = sys.executable
    script = Path(py).with_name("schedlab")
    spec = importlib.util.find_spec("schedlab")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("schedlab is not importable from this Python")
    pkg = Path(next(iter(spec.submodule_search_locations)))
    if not args.no_compile:
        compileall.compile_dir(str(pkg), quiet=1)
    pycs = sum(1 for _ in pkg.rglob("__pycache__/*.pyc"))
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs; "
          f"Python {sys.version.split()[0]}")
    print(f"schedlab at {pkg}: {pycs} .pyc files{' (compiled now)' if not args.no_compile else ''}; "
          f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}")

    tables = tables_of(args.era, args)
    cli = [str(script)] if script.is_file() else [py, "-m", "schedlab"]
    cmds: dict[str, list[str]] = {
        "python -S -c pass": [py, "-S", "-c", "pass"],
        "python -c pass": [py, "-c", "pass"],
        "python -c 'import argparse'": [py, "-c", "import argparse"],
    }
    first = None
    for b, root, names in tables:
        argv = ["mmtests", "compare", "-d", str(root), "-b", b, "-n", ",".join(names), "--compat", args.era]
        cmds[b] = cli + argv
        if first is None:
            first = f"{b} (python -m schedlab)"
            cmds[first] = [py, "-m", "schedlab", *argv]
    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in cmds}
    outs: dict[str, str] = {}
    fails: dict[str, str] = {}
    for _ in range(args.repeat):  # interleaved: each round runs every command once
        for k, c in cmds.items():
            wall, cpu, out, why = measure(c)
            samples[k].append((wall, cpu))
            outs[k] = out
            if why:
                fails[k] = why

    native: dict[str, float] = {}
    r = subprocess.run([py, "-c", NATIVE, json.dumps([[str(root), b, names] for b, root, names in tables]),
                        args.era, str(max(3, args.repeat // 4))], capture_output=True, text=True)
    if r.returncode == 0:
        native = json.loads(r.stdout)

    perl: dict[str, tuple[float, float, str, str]] = {}
    if not args.no_perl and shutil.which("perl"):
        for b, root, names in tables:
            best = None
            for _ in range(args.perl_repeat):
                m = measure([str(ORACLES / "oracle.sh"), args.era, "-d", str(root), "-b", b, "-n", ",".join(names)],
                            args.perl_timeout)
                if best is None or (not m[3] and m[0] < best[0]):
                    best = m
            assert best is not None
            perl[b] = best

    print(f"\nbest / median of {args.repeat} runs, ms; CPU = user + system of the process")
    print(f"{'process':34s} {'wall best':>9s} {'median':>7s} {'CPU best':>9s} {'median':>7s}")
    base = {}
    for k in ("python -S -c pass", "python -c pass", "python -c 'import argparse'"):
        base[k] = stats(samples[k])
        print(f"{k:34s} {base[k][0]:9.1f} {base[k][1]:7.1f} {base[k][2]:9.1f} {base[k][3]:7.1f}")
    floor = base["python -c pass"]
    print(f"\n2-kernel tables ({args.era}, {'the committed fixtures' if args.tree_dir is None else tables[0][1]}):"
          f" schedlab{_kind(script) if cli[0] == str(script) else ''} against compare-mmtests.pl")
    print(f"{'table':34s} {'wall best':>9s} {'median':>7s} {'CPU best':>9s} {'median':>7s} {'-pass CPU':>9s} "
          f"{'native':>7s} {'Perl wall':>10s} {'CPU':>8s} {'ratio':>6s} {'(CPU)':>6s}  same")
    worst_best, worst_median, ratios = 0.0, 0.0, []
    for k in cmds:
        if k in base:
            continue
        wb, wm, cb, cm = stats(samples[k])
        bench = k.split(" ")[0]
        line = f"{k:34s} {wb:9.1f} {wm:7.1f} {cb:9.1f} {cm:7.1f} {cm - floor[3]:9.1f} "
        line += f"{native[bench] * 1e3:7.1f}" if bench in native and k == bench else f"{'':7s}"
        if k == bench:
            worst_best, worst_median = max(worst_best, wb), max(worst_median, wm)
        if k in perl:
            tp, cp, out_p, why_p = perl[k]
            if why_p:
                line += f"  Perl {why_p}"
            else:
                same = comparable(outs[k]) == comparable(out_p)
                ratios.append(tp * 1e3 / wm)
                line += f" {tp:8.2f} s {cp:6.2f} s {tp * 1e3 / wm:5.0f}x {cp * 1e3 / cm:5.0f}x  {'yes' if same else 'DIFFERS'}"
        if k in fails:
            line += f"  schedlab {fails[k]}"
        print(line + ("" if wb < 50 else "  OVER 50 ms"))
    print(f"\nslowest table: best {worst_best:.1f} ms, median {worst_median:.1f} ms wall "
          f"({'under' if worst_best < 50 else 'OVER'} the 50 ms bound at best); `python -c pass` in the same run: "
          f"best {floor[0]:.1f} ms wall, {floor[2]:.1f} ms CPU")
    if ratios:
        print(f"compare-mmtests.pl / schedlab (median wall): {min(ratios):.0f}x to {max(ratios):.0f}x over "
              f"{len(ratios)} tables")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

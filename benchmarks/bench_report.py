"""Hand-run benchmark: `schedlab report` on the bundled example and on a whole MMTests
tree of --kernels kernels x every family with a golden table in each era asked for
(built as benchmarks/bench_mmtests_tree.py builds its trees, from the committed
per-family fixtures and tools/oracles/mmtests/gen_monitor_logs.py), with the time per
phase. There is no other report generator to run beside it; the strip plots, which were
where the time went, are drawn both ways in the same run -- by the core as SVG
(src/report_svg/), and as the report drew them before (matplotlib: MMTestsComparison.plot,
its tight_layout, the SVG saved with bbox_inches="tight") -- and the ratio printed.

Phases (in one process, after `import schedlab`): detecting the inputs
(src/report_inputs.rs); the core's batch scan of each tree; the core's tables of every
benchmark (src/mmtests/tables.rs: each tree read once, both compare-mmtests.pl tables,
overview cells, changed rows); the strip plots (core SVG); the rest of the sections
(Python gathering blocks; for the example the idle and PELT replays and the matplotlib
figures of idle, PELT and lkp, with matplotlib's import); the HTML and text pages. Then
the whole command as a process (`python -m schedlab report ... -o FILE`): wall, CPU and
peak RSS.

Run by hand (never in tests) and note the load average it prints:

    python benchmarks/bench_report.py --kernels 10 --families 60 --tree-dir /tmp/reportbench60

Recorded 2026-12-07 00:51 UTC on the 2-core sandbox shared with other builds (load average
12-14). The 10-kernel x 60-family tree (1 iteration): detect 0.03 s, scan 0.44 s, tables
0.73 s, the 60 strip plots 0.09 s, the rest of the sections 0.07 s, HTML and text 0.12 s
(5.1 MiB page; matplotlib not imported); whole command 1.73 s wall, 0.88 s CPU, peak RSS 79
MiB (`/usr/bin/time -v python -m schedlab report /tmp/reportbench60`: 2.03 s wall, 81 MB).
Now the time goes to the scan and the tables (the core reading the 600 runs' logs) and to
starting Python. Bundled example: sections 3.83 s (the idle and PELT replays, importing
matplotlib and its 4 figures), the 3 strip plots 1 ms; whole command 4.71 s wall, 2.32 s CPU,
135 MiB (`/usr/bin/time -v`: 7.64 s, 131 MB). A strip plot: 2.7 ms in the core against
1727 ms with matplotlib (640x).

Before (main at 72fa850e, 2026-12-07 00:19-00:35 UTC, load 7-12): the tree's 60 strip plots
took 351 s in forked matplotlib worker processes (scan 1.18 s, tables 0.77 s, sections
0.08 s, HTML 0.56 s, 11.3 MiB page); `/usr/bin/time -v python -m schedlab report
/tmp/reportbench60` 4 min 58 s wall, 90 s CPU, 204 MB peak RSS; the example 11.34 s wall,
5.31 s CPU (`/usr/bin/time -v`: 12.8 s, 132 MB), its 7 figures 6.8 s in workers.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _tree_module():
    spec = importlib.util.spec_from_file_location("bench_mmtests_tree", HERE / "bench_mmtests_tree.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def build(root: Path, eras: list[str], kernels: int, iterations: int, families: int) -> tuple[Path, int]:
    """A work/log tree holding the first `families` (by name) of the families of `eras`
    (the first era's fixture of a benchmark name wins); the number of benchmarks."""
    bt = _tree_module()
    fams: dict[str, Path] = {}
    for era in eras:
        for bench, tree in bt.families(era):
            fams.setdefault(bench, tree)
    chosen = sorted(fams.items())[:families]
    log = root / "work" / "log"
    if not log.is_dir():
        bt.build_tree(log, chosen, kernels, iterations)
    return root, len(chosen)


def phases(paths: list[str], example: bool) -> dict[str, float]:
    """Seconds per phase of one report, in this process."""
    from schedlab import _core
    from schedlab.report import build as report_build
    from schedlab.report import inputs as report_inputs
    from schedlab.report import sections

    t: dict[str, float] = {}

    def timed(name, f):
        def g(*a, **kw):
            t0 = time.perf_counter()
            try:
                return f(*a, **kw)
            finally:
                t[name] = t.get(name, 0.0) + time.perf_counter() - t0
        return g

    had_mpl = "matplotlib" in sys.modules
    saved = (report_build.detect, sections._scan, _core.mmtests_report_tables, _core.report_strip_svg)
    report_build.detect = timed("detect inputs", report_inputs.detect)
    sections._scan = timed("scan (core)", sections._scan)
    _core.mmtests_report_tables = timed("tables (core)", _core.mmtests_report_tables)
    _core.report_strip_svg = timed("strip plots (core SVG)", _core.report_strip_svg)
    try:
        t0 = time.perf_counter()
        r = report_build.build(paths, example=example)
        t["sections"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        html, text = r.to_html(), r.to_text()
        t["html + text"] = time.perf_counter() - t0
    finally:
        report_build.detect, sections._scan, _core.mmtests_report_tables, _core.report_strip_svg = saved
    t["sections"] -= sum(t.get(k, 0) for k in ("detect inputs", "scan (core)", "tables (core)",
                                                 "strip plots (core SVG)"))
    t["(figures drawn)"] = html.count("<figure")
    t["(strip plots)"] = html.count('class="schedlab-figure"')
    t["(html MiB)"] = len(html) / 2**20
    t["(matplotlib imported)"] = float("matplotlib" in sys.modules and not had_mpl)
    assert text
    return t


def strip_plots_both_ways(tree: str, n: int) -> tuple[float, float, int]:
    """Seconds per strip plot of the first `n` benchmarks of `tree` drawn by the core as
    SVG, and as the report drew them before (matplotlib: MMTestsComparison.plot, its
    tight_layout, and the SVG saved with bbox_inches="tight"), and how many were drawn."""
    import io

    from schedlab import _core, mmtests
    from schedlab._plot import pyplot
    from schedlab.report import inputs as report_inputs

    plt = pyplot()
    found = report_inputs.detect([tree]).mmtests[0]
    kernels = sorted(found.kernels)
    tables = [t for t in _core.mmtests_report_tables(found.path, [(b, kernels) for b in found.benchmarks[:n]],
                                                      test="welch") if isinstance(t, tuple)]
    t0 = time.perf_counter()
    drawn = [_core.report_strip_svg(t[0], y_label="value") for t in tables]
    core = (time.perf_counter() - t0) / max(len(tables), 1)
    t0 = time.perf_counter()
    for t in tables:
        fig = mmtests.MMTestsComparison(t[0]).plot()
        fig.savefig(io.StringIO(), format="svg", bbox_inches="tight", metadata={"Date": None})
        plt.close(fig)
    mpl = (time.perf_counter() - t0) / max(len(tables), 1)
    return core, mpl, sum(d is not None for d in drawn)


def whole(paths: list[str], example: bool) -> tuple[float, float, float]:
    """Wall and CPU seconds and peak RSS (MiB) of `python -m schedlab report` as a process."""
    with tempfile.TemporaryDirectory() as d:
        cmd = [sys.executable, "-m", "schedlab", "report", *(["--example"] if example else paths),
               "-o", os.path.join(d, "r.html")]
        t0 = time.perf_counter()
        with open(os.path.join(d, "err"), "w+") as err:
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
            _, status, ru = os.wait4(p.pid, 0)
            wall = time.perf_counter() - t0
            code = os.waitstatus_to_exitcode(status)
            if code not in (0, 1):
                err.seek(0)
                raise SystemExit(f"{' '.join(cmd)}: exit {code}: {err.read()[-2000:]}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def show(name: str, t: dict[str, float]) -> None:
    print(f"  {name}:")
    for k, v in t.items():
        print(f"    {k:<24} {v:8.3f}" if not k.startswith("(") else f"    {k:<24} {v:8.1f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernels", type=int, default=10)
    ap.add_argument("--families", type=int, default=60)
    ap.add_argument("--iterations", type=int, default=1)
    ap.add_argument("--era", action="append", help="families of these eras (default: 2025 head 2024)")
    ap.add_argument("--tree-dir", type=Path, help="build the tree here and keep it for the next run")
    ap.add_argument("--peer-figures", type=int, default=5, help="strip plots drawn both ways (default 5)")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    eras = args.era or ["2025", "head", "2024"]
    root = args.tree_dir or Path(tempfile.mkdtemp(prefix="reportbench-"))
    tree, n = build(root, eras, args.kernels, args.iterations, args.families)
    print(f"tree: {tree}: {args.kernels} kernels x {n} benchmarks x {args.iterations} iterations")
    for name, paths, example in (("tree", [os.fspath(tree)], False), ("bundled example", [], True)):
        if example:
            from schedlab.examples import path

            paths = [os.fspath(path())]
        print(f"{name}:")
        show("in one process", phases(paths, example))
        wall, cpu, rss = whole(paths, example)
        print(f"    whole command: {wall:.2f} s wall, {cpu:.2f} s CPU, peak RSS {rss:.0f} MiB")
    core, mpl, n = strip_plots_both_ways(os.fspath(tree), args.peer_figures)
    print(f"strip plots of the first {n} benchmarks, per figure: core SVG {1e3 * core:.2f} ms, matplotlib "
          f"(plot, tight_layout, SVG saved with bbox_inches='tight', as the report drew them before) "
          f"{1e3 * mpl:.0f} ms: {mpl / max(core, 1e-9):.0f}x")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

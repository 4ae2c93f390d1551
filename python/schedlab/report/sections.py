"""The report's sections, one function per kind of input."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

from ..errors import SchedlabError
from .document import Report
from .inputs import MMTestsTree

#: MMTests era used for trees in the iter-0 layout holding benchmarks that the
#: newest MMTests no longer parses (sockperf, tbench4, ...).
MMTESTS_COMPAT = "2025"


def _order(kernels: Sequence[str], baseline: str | None) -> list[str]:
    ks = list(kernels)
    if baseline:
        if baseline not in ks:
            raise SchedlabError(f"baseline {baseline!r} is not among the kernels: {', '.join(ks)}")
        ks.remove(baseline)
        ks.insert(0, baseline)
    return ks


def mmtests_section(report: Report, tree: MMTestsTree, baseline: str | None, test: str = "welch") -> None:
    """Per benchmark: MMTests' own table, verdict-coloured rows decided by ``test``
    with BH-FDR, the direction-aligned Gmean ratio per kernel, a per-sample plot."""
    from .. import mmtests

    kernels = _order(tree.kernels, baseline)
    s = report.section(f"MMTests: {tree.log_dir}")
    s.paragraph(f"Kernels: {', '.join(kernels)} (baseline {kernels[0]}). Benchmarks: {', '.join(tree.benchmarks)}.")
    for bench in tree.benchmarks:
        try:
            c = mmtests.compare(tree.log_dir, bench, kernels, compat=MMTESTS_COMPAT, test=test)
            ratio = mmtests.compare(tree.log_dir, bench, kernels, compat=MMTESTS_COMPAT, print_ratio=True)
        except SchedlabError as e:
            s.heading(bench)
            s.note(f"{bench}: not compared: {e}")
            continue
        s.heading(bench)
        g = c.gmean_ratio()
        labels = ", ".join(f"{k} {mmtests.overview_label(g[k])} (Gmean {g[k]:.3f})" for k in kernels[1:])
        s.paragraph(f"{bench} ({c.meta.get('mmtests.preferred', '?')} is better): {labels}.")
        changed = [(r, k, cell) for r in c.rows for k, cell in zip(c.kernels, r.cells)
                   if cell.verdict in ("better", "worse")]
        for r, k, cell in changed:
            s.summary_line(f"  {k}: {r.group} {r.name} {cell.verdict} {cell.change:+.2f}% "
                           f"({cell.test} p={cell.p:.2g}, BH q={cell.q:.2g})")
        if not changed:
            s.summary_line(f"  no row changed significantly ({test}, BH-FDR 5%)")
        s.table(c, caption=f"{bench}: rows coloured by {test} verdict (BH-FDR across rows)")
        s.text(c.to_text(), in_summary=False, folded=f"compare-mmtests.pl table (MMTests {MMTESTS_COMPAT})")
        s.text(ratio.to_text(), in_summary=False, folded="compare-mmtests.pl --print-ratio")
        try:
            s.figure(c.plot(), caption=f"{bench}: every sample per kernel (bar = mean)")
        except (ValueError, SchedlabError):
            pass


def lkp_section(report: Report, roots: Sequence[Path], baseline: str | None) -> None:
    """The ncompare table of the commits (baseline first), rows with their
    direction and Welch verdict, and the per-run plot of the most changed metric."""
    from .. import lkp

    roots = list(roots)
    if baseline:
        match = [r for r in roots if r.name.startswith(baseline)]
        if match:
            roots.remove(match[0])
            roots.insert(0, match[0])
    s = report.section(f"lkp-tests: {roots[0].parent}")
    if len(roots) < 2:
        s.note(f"only one commit root ({roots[0]}); nothing to compare")
        return
    c = lkp.compare(roots[0], *roots[1:])
    s.paragraph(f"Base {roots[0].name[:12]}, head(s) {', '.join(r.name[:12] for r in roots[1:])}; "
                f"{len(c.rows)} rows pass lkp's own change filter.")
    s.text(c.to_text(), in_summary=False, folded="lkp ncompare table (as the 0-day robot prints it)")
    better = [(r, cell) for r in c.rows for cell in r.cells[1:] if cell.verdict == "better"]
    worse = [(r, cell) for r in c.rows for cell in r.cells[1:] if cell.verdict == "worse"]
    changed = [(r, cell) for r in c.rows for cell in r.cells[1:] if cell.verdict == "changed"]
    noise = [(r, cell) for r in c.rows for cell in r.cells[1:] if cell.verdict == "noise"]
    for label, rows in (("worse", worse), ("better", better)):
        for r, cell in rows:
            s.summary_line(f"  {label}: {r.name} {cell.change:+.1f}% ({cell.test} p={cell.p:.2g})")
    s.summary_line(f"  {len(changed)} rows changed without a known direction, {len(noise)} are noise "
                   "(the robot's range rule alone flagged them)")
    s.table(c, caption="lkp rows: verdict from Welch's test on the per-run values (direction from schedlab's table)")
    key = next((r.name for r, _ in worse + better), c.rows[0].name if c.rows else None)
    if key:
        try:
            s.figure(c.plot(key), caption=f"{key}: every run, base vs head")
        except (ValueError, SchedlabError):
            pass


def finite(v: float | None) -> bool:
    return v is not None and not math.isnan(v)


def pelt_section(report: Report, traces: Sequence[Path]) -> None:
    """Each task trace replayed through PELT/util_est: the 6.12 signals, and the
    d519329f72 rule with and without the cpu_util_wake (execl) fix, showing how much
    of the task's own estimate the unfixed consumer counts twice."""
    import matplotlib.pyplot as plt

    from .. import pelt

    s = report.section("PELT and util_est replay")
    s.paragraph("Each task trace (R run, W preempted, S sleep) is replayed through the kernel's own "
                "integer PELT/util_est math (Linux 6.12, and the util_est rule of d519329f72 with and "
                "without the cpu_util_wake fix).")
    for path in traces:
        now = pelt.simulate(path, rule="6.12")
        bug = pelt.simulate(path, rule="d519329f72", execl_fix=False)
        fix = pelt.simulate(path, rule="d519329f72", execl_fix=True)
        extra = bug["cpu_util_without_p"].astype("int64") - fix["cpu_util_without_p"].astype("int64")
        on = extra != 0
        # _task_util_est(p) | UTIL_AVG_UNCHANGED: what the fix subtracts again
        own = (bug[["p_util_est", "p_ue_enqueued"]].astype("int64").max(axis=1)) | 1
        exact = bool((extra[on] == own[on]).all())
        s.heading(path.name)
        s.paragraph(
            f"{path.name}: {len(now)} kernel-visible events; final util_avg {int(now['p_util_avg'].iloc[-1])}, "
            f"util_est {int(now['p_util_est'].iloc[-1])} (6.12).")
        s.paragraph(
            f"With d519329f72 and no fix, cpu_util_without(p) is too high on {int(on.sum())} of {len(bug)} events "
            f"(every event where the task is queued or running) by {int(extra[on].mean()) if on.any() else 0} "
            f"units on average (max {int(extra.max())}), which is "
            + ("exactly the task's own util_est: it is counted twice." if exact and on.any()
               else "not explained by the task's own util_est alone."))
        fig, ax = plt.subplots(figsize=(9, 3.2))
        t_ms = (now["t_ns"] - now["t_ns"].iloc[0]) / 1e6
        ax.plot(t_ms, now["p_util_avg"], label="util_avg (6.12)", lw=1)
        ax.plot(t_ms, now["p_util_est"], label="util_est (6.12)", lw=1)
        ax.plot(t_ms, bug["cpu_util_without_p"], label="cpu_util_without(p), d519329f72 unfixed", lw=0.8, alpha=0.8)
        ax.plot(t_ms, fix["cpu_util_without_p"], label="cpu_util_without(p), with the fix", lw=0.8, alpha=0.8)
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("utilization (0..1024)")
        ax.legend(fontsize=7, loc="lower right")
        fig.tight_layout()
        s.figure(fig, caption=f"{path.name}: the task's signals and what the waking task's CPU looks like")

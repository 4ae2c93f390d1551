"""The report's sections, one function per kind of input."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

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
    from .._plot import pyplot

    plt = pyplot()

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


IDLE_GOVERNORS = ["menu@6.12", "teo@6.12", "menu@6.1", "teo@6.1", "menu@4.18", "teo@5.1"]


def idle_section(report: Report, traces: Sequence[Path], states: Sequence[Path]) -> None:
    """Every idle trace replayed by menu and teo of several kernel versions on the
    state table found beside it: per-state usage, too-deep (above) and too-shallow
    (below) entries, exit latency paid, energy where the table has power numbers,
    and where the two 6.12 governors disagree."""
    from .._plot import pyplot

    plt = pyplot()
    import numpy as np

    from .. import idle

    s = report.section("cpuidle governors: menu vs teo")
    table = states[0] if states else "intel-skx"
    s.paragraph(f"State table: {table if isinstance(table, str) else table.name}. Each trace is replayed "
                f"with the kernel's own governor code of: {', '.join(g.replace('@', ' ') for g in IDLE_GOVERNORS)}.")
    for trace in traces:
        summ = idle.compare_summary(IDLE_GOVERNORS, trace, table)
        n = int(summ.xs("usage", axis=1, level=1).iloc[:, 0].sum())
        s.heading(f"{trace.name} ({n} idle periods)")
        govs = list(dict.fromkeys(summ.columns.get_level_values(0)))
        lines = []
        for g in govs:
            above = int(summ[(g, "above")].sum())
            below = int(summ[(g, "below")].sum())
            lat = int(summ[(g, "exit_latency_ns")].sum()) / 1e6
            energy = summ[(g, "energy_uj")].sum(min_count=1)
            e = f", energy {energy / 1e3:.1f} mJ" if energy == energy else ""
            lines.append(f"  {g}: too deep {above} ({100 * above / n:.1f}%), too shallow {below} "
                         f"({100 * below / n:.1f}%), exit latency paid {lat:.2f} ms{e}")
        s.paragraph(f"{trace.name}: too deep = woke before the state's target residency (the kernel's "
                    "'above'); too shallow = a deeper state would have fit ('below').")
        for line in lines:
            s.summary_line(line)
        s.text("\n".join(lines), in_summary=False)
        side = idle.compare(["menu@6.12", "teo@6.12"], trace, table)
        m_state, t_state = side[("menu 6.12", "state")], side[("teo 6.12", "state")]
        differ = m_state != t_state
        if differ.any():
            pairs = (m_state[differ] + " -> " + t_state[differ]).value_counts().head(3)
            top = "; ".join(f"menu {k.split(' -> ')[0]} where teo {k.split(' -> ')[1]}: {v}x" for k, v in pairs.items())
            teo_deep = int(side[("teo 6.12", "above")][differ].sum())
            menu_deep = int(side[("menu 6.12", "above")][differ].sum())
            s.paragraph(f"menu 6.12 and teo 6.12 disagree on {int(differ.sum())} of {n} periods ({top}); in those, "
                        f"menu went too deep {menu_deep} times and teo {teo_deep} times.")
        usage = summ.xs("usage", axis=1, level=1)
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.2))
        left = np.zeros(len(govs))
        for state in usage.index:
            vals = usage.loc[state].to_numpy() / n * 100
            axes[0].barh(govs, vals, left=left, label=state)
            left += vals
        axes[0].set_xlabel("% of idle periods")
        axes[0].legend(fontsize=7, ncol=len(usage.index), loc="lower center", bbox_to_anchor=(0.5, 1.0))
        ab = summ.xs("above", axis=1, level=1).sum()
        be = summ.xs("below", axis=1, level=1).sum()
        y = np.arange(len(govs))
        axes[1].barh(y - 0.2, ab.to_numpy(), height=0.4, label="too deep (above)")
        axes[1].barh(y + 0.2, be.to_numpy(), height=0.4, label="too shallow (below)")
        axes[1].set_yticks(y, govs)
        axes[1].legend(fontsize=7)
        fig.tight_layout()
        s.figure(fig, caption=f"{trace.name}: states chosen, and wrong-depth entries, per governor")

"""The report's parts, one function per kind of input. Each adds its headline to
the overview, its significant rows to "what changed", its conclusions to the
simulations and everything else (full tables, the tools' text, figures) to the
folded details."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._core import Scan
from ..errors import SchedlabError
from .document import Grid, Report, Section
from .inputs import Inputs, MMTestsTree

#: The y axis label MMTests' own graphs use per benchmark (its Extract modules'
#: ``_PlotYaxis``), by benchmark name prefix.
MMTESTS_Y_AXIS = {"hackbench": "Time (sec)", "netperf": "Mbits/sec", "sockperf-udp-throughput": "Mbits/sec",
                  "sockperf-tcp-throughput": "Mbits/sec", "tbench": "MB/sec", "dbench": "Time (msec)"}

#: The verdicts counted as a change in "what changed" (lkp's rows).
CHANGED = ("better", "worse", "changed")


@dataclass
class Parts:
    """The report's sections, in reading order."""

    overview: Section
    changes: Section
    simulations: Section
    details: Section
    #: benchmarks of a run that failed or aborted, one line each with the reason (fail closed: exit 2)
    missing: list[str] = field(default_factory=list)
    #: the MMTests era told from each benchmark's files, with the reason
    notes: list[str] = field(default_factory=list)
    #: every cell whose verdict is worse, one line each (exit 1, as batch mode's regressions)
    worse: list[str] = field(default_factory=list)


def parts(report: Report) -> Parts:
    """Add the overview, what changed, simulations and details sections to ``report``."""
    return Parts(report.section("Overview", "overview"), report.section("What changed", "changes"),
                 report.section("Simulations: idle governors and PELT", "simulations"),
                 report.section("Details", "details"))


def _order(kernels: Sequence[str], baseline: str | None) -> list[str]:
    ks = list(kernels)
    if baseline:
        if baseline not in ks:
            raise SchedlabError(f"baseline {baseline!r} is not among the kernels: {', '.join(ks)}")
        ks.remove(baseline)
        ks.insert(0, baseline)
    return ks


def _num(v: float | None) -> str:
    return "–" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.2g}"


def _pct(v: float | None, decimals: int) -> str:
    return "–" if v is None or math.isnan(v) else f"{v:+.{decimals}f}%"


def _changed_grid(rows: list[list[Any]], caption: str, margins: bool) -> Grid:
    headers = ["Benchmark", "Kernel", "Row", "Change", "Verdict", "Test", "p", "BH q"] + (["Margin"] if margins else [])
    return Grid(headers, rows, caption, text_columns=3)


def mmtests_section(p: Parts, inputs: Inputs, tree: MMTestsTree, baseline: str | None, test: str = "welch") -> None:
    """Per benchmark: the overview label per kernel (direction-aligned Gmean ratio),
    the rows whose ``test`` verdict (BH-FDR across rows) is a change, and, folded,
    MMTests' own tables and a per-sample strip plot (drawn by the core as SVG:
    src/report_svg/strip.rs). Which kernels ran each benchmark, and
    which of them failed and why, is the core's batch scan of the tree (the runs and
    ``failed`` entries batch mode lists), so the report and batch name them alike;
    the tables, overview cells and changed rows of every benchmark are one core call
    that reads the tree once (src/mmtests/tables.rs)."""
    from .. import _core, mmtests

    kernels = _order(tree.kernels, baseline)
    base = kernels[0]
    found = _scan(inputs, tree).mmtests_benchmarks(tree.root or None)
    over_rows: list[list[Any]] = []
    changed_rows: list[list[Any]] = []
    margins = False
    p.overview.summary_line(f"MMTests {tree.name}: kernels {', '.join(kernels)} (baseline {base})")
    # which runs each benchmark is compared over, or why it is not compared
    plan: dict[str, tuple[list[str], dict[str, str], list[str], str | None]] = {}
    for bench in tree.benchmarks:
        read, failed, skipped = found.get(bench, ([], {}, None))
        mine = [k for k in kernels if k in read or k in failed]
        ok = [k for k in mine if k not in failed]
        b_base = mine[0] if mine else base
        why = None
        if not ok:
            why = f"no run of {bench} has results: " + ("; ".join(failed.values()) or skipped or
                                                         "no run holds its logs")
        elif b_base in failed:
            why = f"the baseline {b_base} has no results: {failed[b_base]}"
        plan[bench] = (mine, failed, ok, why)
    asked = [(b, ok) for b, (_, _, ok, why) in plan.items() if why is None]
    tables = dict(zip((b for b, _ in asked), _core.mmtests_report_tables(tree.path, asked, test=test)))
    for bench in tree.benchmarks:
        mine, failed, ok, why = plan[bench]
        for k, reason in failed.items():
            p.missing.append(f"MMTests {tree.name}: {bench} of {k}: {inputs.scrub(reason)}")
        b_base = mine[0] if mine else base
        label = bench if b_base == base or len(mine) < 2 else f"{bench} (vs {b_base})"
        got = tables.get(bench)
        if why is not None or isinstance(got, BaseException) or got is None:
            msg = inputs.scrub(why if why is not None else str(got))
            over_rows.append([label] + [_not_run(k, mine, "not compared") for k in kernels[1:]])
            p.overview.summary_line(f"{label}: not compared: {msg}")
            p.details.details(f"{tree.name} / {bench}").note(f"{bench}: not compared: {msg}")
            continue
        table, ratio_table, cells, changed_at = got
        c = mmtests.MMTestsComparison(table)
        ratio = mmtests.MMTestsComparison(ratio_table)
        p.notes.append(f"MMTests {tree.name}: {bench}: era {c.meta['mmtests.era']}: {inputs.scrub(c.era_reason)}")
        for k in failed:
            p.overview.summary_line(f"{bench}: {k} failed, not compared: {inputs.scrub(failed[k])}")
        # runs compare-mmtests.pl loses to a death in their summary: missing data, as failed runs
        # (docs/mmtests.md §12)
        lost = {lr["run"]: inputs.scrub(lr["reason"]) for lr in c.meta.get("mmtests.lost_runs") or []}
        for k, why in lost.items():
            p.missing.append(f"MMTests {tree.name}: {bench} of {k}: compare-mmtests.pl loses this run: {why}")
            p.overview.summary_line(f"{bench}: {k} lost by compare-mmtests.pl, not compared: {why}")
        compared = [k for k in ok if k not in lost]
        preferred = c.meta.get("mmtests.preferred", "?")
        no_gmean = inputs.scrub(cells) if isinstance(cells, str) else ""
        # the cells follow the table's own kernels (a run compare-mmtests.pl lost has no column)
        by_kernel = {} if isinstance(cells, str) else dict(zip(c.kernels[1:], cells))
        over_rows.append([f"{label} ({preferred} is better)"]
                         + [(by_kernel[k][0], by_kernel[k][1], f"Gmean {by_kernel[k][2]:.3f}") if k in by_kernel
                            else ("not compared", None, lost[k]) if k in lost
                            else ("n/a", None, no_gmean) if k in ok[1:]
                            else _not_run(k, mine, "failed" if k in failed else "baseline") for k in kernels[1:]])
        if no_gmean:
            p.overview.summary_line(f"{label} ({preferred} is better): no Gmean ratio: {no_gmean}; "
                                    "its rows are compared below.")
        elif len(compared) < 2:
            p.overview.summary_line(f"{label} ({preferred} is better): one run with results ({compared[0]}), "
                                    "nothing to compare; its statistics are in the details.")
        else:
            p.overview.summary_line(f"{label} ({preferred} is better): "
                                    + ", ".join(f"{k} {by_kernel[k][0]} (Gmean {by_kernel[k][2]:.3f})"
                                                for k in compared[1:] if k in by_kernel) + ".")
        rows = c.rows
        for ri, ki in changed_at:
            r, k, cell = rows[ri], c.kernels[ki], rows[ri].cells[ki]
            if cell.verdict == "worse":
                p.worse.append(f"MMTests {tree.name}: {bench} {k}: {r.group} {r.name} {_pct(cell.change, 2)}")
            margin = getattr(cell, "margin", None)
            margins = margins or margin is not None
            changed_rows.append([bench, k, f"{r.group} {r.name}", _pct(cell.change, 2),
                                 (cell.verdict, cell.verdict, ""), cell.test or "", _num(cell.p), _num(cell.q),
                                 _num(margin)])
            p.changes.summary_line(f"  {bench} {k}: {r.group} {r.name} {cell.verdict} {_pct(cell.change, 2)} "
                                   f"({cell.test} p={_num(cell.p)}, BH q={_num(cell.q)})")
        if not changed_at and len(compared) > 1:
            p.changes.summary_line(f"  {bench}: no row changed significantly ({test}, BH-FDR 5%)")
        d = p.details.details(f"{tree.name} / {bench}: every statistic, MMTests' own text, every sample")
        d.table(c, caption=f"{bench}: cells marked by {test} verdict (BH-FDR across rows)")
        d.heading(f"compare-mmtests.pl table (MMTests {c.meta['mmtests.era']})")
        d.text(c.to_text(), in_summary=False)
        d.heading("compare-mmtests.pl --print-ratio")
        d.text(ratio.to_text(), in_summary=False)
        unit = next((u for prefix, u in MMTESTS_Y_AXIS.items() if bench.startswith(prefix)), "value")
        drawn = _core.report_strip_svg(table, y_label=unit)
        if drawn is not None:
            d.svg(*drawn, caption=f"{bench}: every sample per kernel (bar = mean)")
    p.overview.grid(Grid(["Benchmark"] + [f"{k} vs {base}" for k in kernels[1:]], over_rows,
                         f"MMTests, machine {tree.name}: Gmean of the per-operation ratios vs {base}"))
    if changed_rows:
        if not margins:
            changed_rows = [r[:-1] for r in changed_rows]
        p.changes.grid(_changed_grid(changed_rows, f"MMTests, machine {tree.name}: rows that changed "
                                     f"({test}, BH-FDR 5% across each table's rows)", margins))
    else:
        p.changes.paragraph(f"MMTests, machine {tree.name}: no row changed significantly ({test}, BH-FDR 5%).",
                            in_summary=False)


def _not_run(kernel: str, ran: list[str], label: str) -> tuple[str, None, str]:
    """An overview cell of a kernel without a comparison: ``label`` when it ran the
    benchmark, "not run" when it did not (a tree of config-named runs)."""
    return (label, None, "") if kernel in ran else ("not run", None, "")


def _scan(inputs: Inputs, tree: MMTestsTree) -> Scan:
    """The core's batch scan of the tree's directory or archive (read once: an archive
    holding several log directories is scanned once for all of them)."""
    from ..batch import scan

    s = inputs.scans.get(tree.log_dir)
    if s is None:
        s = inputs.scans[tree.log_dir] = scan(tree.log_dir, threads=None)
    if s.error is not None:
        raise s.error
    return s


def _lkp_case(meta: dict[str, Any]) -> str:
    """The testcase and test of an lkp comparison ("unixbench execl")."""
    roots = meta.get("lkp.axes") or [[]]
    axes = dict(roots[0])
    return " ".join(v for v in (axes.get("testcase"), axes.get("test")) if v) or "lkp"


def lkp_section(p: Parts, inputs: Inputs, roots: Sequence[Path], baseline: str | None) -> None:
    """The worst (else best) changed metric per head commit in the overview, every
    changed row with its Welch p, and, folded, the ncompare table and a per-run plot."""
    from .. import lkp, mmtests

    roots = list(roots)
    if baseline:
        match = [r for r in roots if r.name.startswith(baseline)]
        if match:
            roots.remove(match[0])
            roots.insert(0, match[0])
    name = inputs.name(roots[0].parent)
    if len(roots) < 2:
        p.overview.note(f"lkp-tests {name}: only one commit root ({roots[0].name}); nothing to compare")
        return
    c = lkp.compare(roots[0], *roots[1:])
    case = _lkp_case(c.meta)
    base = roots[0].name[:12]
    heads = [r.name[:12] for r in roots[1:]]
    p.overview.summary_line(f"lkp-tests {name} ({case}): base {base}, head(s) {', '.join(heads)}; "
                            f"{len(c.rows)} rows pass lkp's own change filter.")
    cells = []
    for h in range(1, len(c.kernels)):
        worse = [(r, r.cells[h]) for r in c.rows if r.cells[h].verdict == "worse"]
        better = [(r, r.cells[h]) for r in c.rows if r.cells[h].verdict == "better"]
        pick, sign = (worse, -1) if worse else (better, 1)
        if pick:
            r, cell = max(pick, key=lambda rc: abs(rc[1].change or 0))
            label, verdict, _ = mmtests.overview_cell(1 + sign * abs(cell.change or 0) / 100)
            cells.append((label, verdict, r.name))
        else:
            cells.append(("no change", None, "no metric with a direction changed"))
    p.overview.grid(Grid(["Benchmark"] + [f"{h} vs {base}" for h in heads], [[case] + cells],
                         f"lkp-tests, machine {name}: the worst changed metric (else the best) per head"))
    rows = []
    order = {"worse": 0, "better": 1, "changed": 2}
    changed = sorted(((r, k, cell) for r in c.rows for k, cell in zip(heads, r.cells[1:]) if cell.verdict in CHANGED),
                     key=lambda x: order[x[2].verdict or "changed"])
    for r, k, cell in changed:
        if cell.verdict == "worse":
            p.worse.append(f"lkp-tests {name} ({case}) {k}: {r.name} {_pct(cell.change, 1)}")
        rows.append([case, k, r.name, _pct(cell.change, 1), (cell.verdict, cell.verdict, ""), cell.test or "",
                     _num(cell.p), _num(cell.q)])
        if cell.verdict != "changed":
            p.changes.summary_line(f"  {cell.verdict}: {r.name} {_pct(cell.change, 1)} ({cell.test} p={_num(cell.p)})")
    n_changed = sum(1 for _, _, cell in changed if cell.verdict == "changed")
    unchanged = {v: sum(1 for r in c.rows for cell in r.cells[1:] if cell.verdict == v)
                 for v in ("equivalent", "inconclusive")}
    p.changes.summary_line(f"  {n_changed} rows changed without a known direction; of the rows the robot's range "
                           f"rule alone flagged, {unchanged['equivalent']} are equivalent and "
                           f"{unchanged['inconclusive']} inconclusive")
    if rows:
        p.changes.grid(_changed_grid(rows, f"lkp-tests, machine {name}: rows that changed (Welch's test on the "
                                     "per-run values; direction from schedlab's table)", False))
    d = p.details.details(f"lkp-tests {name}: the ncompare table, every row, the most changed metric's runs")
    d.heading("lkp ncompare table (as the 0-day robot prints it)")
    d.text(c.to_text(), in_summary=False)
    d.table(c, caption="lkp rows: verdict from Welch's test on the per-run values")
    key = next((r.name for r, _, cell in changed if cell.verdict in ("worse", "better")),
               c.rows[0].name if c.rows else None)
    if key:
        try:
            ax = c.plot(key)
        except (ValueError, SchedlabError):
            return
        ax.set_ylabel(f"{key} (as lkp records it)")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
        ax.figure.tight_layout()
        d.figure(ax, caption=f"{key}: every run, base vs head")


def pelt_section(p: Parts, traces: Sequence[Path]) -> None:
    """Each task trace replayed through PELT/util_est: the 6.12 signals, and the
    d519329f72 rule with and without the cpu_util_wake (execl) fix, showing how much
    of the task's own estimate the unfixed consumer counts twice."""
    from .. import pelt

    s = p.simulations
    s.heading("PELT and util_est replay")
    s.paragraph("Each task trace (R run, W preempted, S sleep) is replayed through the kernel's own "
                "integer PELT/util_est math (Linux 6.12, and the util_est rule of d519329f72 with and "
                "without the cpu_util_wake fix).", in_summary=False)
    for path in traces:
        now = pelt.simulate(path, rule="6.12")
        bug = pelt.simulate(path, rule="d519329f72", execl_fix=False)
        fix = pelt.simulate(path, rule="d519329f72", execl_fix=True)
        extra = bug["cpu_util_without_p"].astype("int64") - fix["cpu_util_without_p"].astype("int64")
        on = extra != 0
        # _task_util_est(p) | UTIL_AVG_UNCHANGED: what the fix subtracts again
        own = (bug[["p_util_est", "p_ue_enqueued"]].astype("int64").max(axis=1)) | 1
        exact = bool((extra[on] == own[on]).all())
        s.paragraph(
            f"{path.name}: {len(now)} kernel-visible events; final util_avg {int(now['p_util_avg'].iloc[-1])}, "
            f"util_est {int(now['p_util_est'].iloc[-1])} (6.12).")
        s.paragraph(
            f"With d519329f72 and no fix, cpu_util_without(p) is too high on {int(on.sum())} of {len(bug)} events "
            f"(every event where the task is queued or running) by {int(extra[on].mean()) if on.any() else 0} "
            f"units on average (max {int(extra.max())}), which is "
            + ("exactly the task's own util_est: it is counted twice." if exact and on.any()
               else "not explained by the task's own util_est alone."))
        d = s.details(f"{path.name}: the task's signals over the whole trace and a zoom into {_ZOOM_MS:g} ms")
        d.figure(_pelt_figure(now, bug, fix, path.name),
                 caption=f"{path.name}: top, the task's own signals; bottom, what the waking task's CPU "
                         "looks like to cpu_util_without(p) with and without the fix (steps, zoomed)")


#: Length of the PELT figure's zoomed window: a few run/sleep cycles.
_ZOOM_MS = 30.0


def _pelt_figure(now: Any, bug: Any, fix: Any, name: str) -> Any:
    """Top: util_avg and util_est over the whole trace. Bottom: a zoomed window at
    the middle of the trace with cpu_util_without(p) as steps, unfixed and fixed."""
    from .._plot import pyplot

    plt = pyplot()
    fig, (top, zoom) = plt.subplots(2, 1, figsize=(9, 5.2))
    t_ms = (now["t_ns"] - now["t_ns"].iloc[0]) / 1e6
    tb = (bug["t_ns"] - bug["t_ns"].iloc[0]) / 1e6
    top.plot(t_ms, now["p_util_avg"], label="util_avg (6.12)", lw=1)
    top.plot(t_ms, now["p_util_est"], label="util_est (6.12)", lw=1)
    lo = float(tb.iloc[-1]) / 2
    hi = lo + _ZOOM_MS
    top.axvspan(lo, hi, color="#999", alpha=0.25, label="zoomed below")
    top.set_title(f"{name}: the task's PELT signals (Linux 6.12)")
    top.set_xlabel("time since the trace start (ms)")
    top.set_ylabel("utilization (0..1024)")
    top.set_ylim(-40, 1100)
    top.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    win = (tb >= lo) & (tb <= hi)
    zoom.step(tb[win], bug["cpu_util_without_p"][win], where="post", lw=1.2, color="#d62728",
              label="cpu_util_without(p),\nd519329f72 unfixed")
    zoom.step(tb[win], fix["cpu_util_without_p"][win], where="post", lw=2.2, ls="--", color="#1f77b4",
              label="cpu_util_without(p),\nwith the fix", zorder=3)
    zoom.set_xlim(lo, hi)
    zoom.set_ylim(-60, 1100)
    zoom.set_title(f"what the waking task's CPU looks like, {lo:.0f}-{hi:.0f} ms")
    zoom.set_xlabel("time since the trace start (ms)")
    zoom.set_ylabel("utilization (0..1024)")
    zoom.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    fig.tight_layout()
    return fig


IDLE_GOVERNORS = ["menu@6.12", "teo@6.12", "menu@6.1", "teo@6.1", "menu@4.18", "teo@5.1"]


def idle_section(p: Parts, traces: Sequence[Path], states: Sequence[Path]) -> None:
    """Every idle trace replayed by menu and teo of several kernel versions on the
    state table found beside it: too-deep (above) and too-shallow (below) entries,
    exit latency paid, energy where the table has power numbers, where the two 6.12
    governors disagree; folded, the per-state usage figure."""
    import numpy as np

    from .. import idle
    from .._plot import pyplot

    plt = pyplot()
    s = p.simulations
    table = states[0] if states else "intel-skx"
    s.heading("cpuidle governors: menu vs teo")
    s.paragraph(f"State table: {table if isinstance(table, str) else table.name}. Each trace is replayed "
                f"with the kernel's own governor code of: {', '.join(g.replace('@', ' ') for g in IDLE_GOVERNORS)}. "
                "Too deep = woke before the state's target residency (the kernel's 'above'); too shallow = a "
                "deeper state would have fit ('below').")
    for trace in traces:
        summ = idle.compare_summary(IDLE_GOVERNORS, trace, table)
        n = int(summ.xs("usage", axis=1, level=1).iloc[:, 0].sum())
        govs = list(dict.fromkeys(summ.columns.get_level_values(0)))
        rows = []
        for g in govs:
            above = int(summ[(g, "above")].sum())
            below = int(summ[(g, "below")].sum())
            lat = int(summ[(g, "exit_latency_ns")].sum()) / 1e6
            energy = summ[(g, "energy_uj")].sum(min_count=1)
            e = f", energy {energy / 1e3:.1f} mJ" if energy == energy else ""
            s.summary_line(f"  {g}: too deep {above} ({100 * above / n:.1f}%), too shallow {below} "
                           f"({100 * below / n:.1f}%), exit latency paid {lat:.2f} ms{e}")
            rows.append([g, f"{above} ({100 * above / n:.1f}%)", f"{below} ({100 * below / n:.1f}%)", f"{lat:.2f}",
                         f"{energy / 1e3:.1f}" if energy == energy else "–"])
        s.grid(Grid(["Governor", "Too deep", "Too shallow", "Exit latency paid (ms)", "Energy (mJ)"], rows,
                    f"{trace.name}: {n} idle periods"))
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
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
        left = np.zeros(len(govs))
        for state in usage.index:
            vals = usage.loc[state].to_numpy() / n * 100
            axes[0].barh(govs, vals, left=left, label=state)
            left += vals
        axes[0].set_title("idle state chosen")
        axes[0].set_xlabel("% of idle periods")
        axes[0].set_ylabel("governor")
        axes[0].legend(fontsize=7, ncol=len(usage.index), loc="upper center", bbox_to_anchor=(0.5, -0.2))
        ab = summ.xs("above", axis=1, level=1).sum()
        be = summ.xs("below", axis=1, level=1).sum()
        y = np.arange(len(govs))
        axes[1].barh(y - 0.2, ab.to_numpy(), height=0.4, label="too deep (above)")
        axes[1].barh(y + 0.2, be.to_numpy(), height=0.4, label="too shallow (below)")
        axes[1].set_yticks(y, govs)
        axes[1].set_title("wrong-depth entries")
        axes[1].set_xlabel("idle periods (count)")
        axes[1].set_ylabel("governor")
        axes[1].legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.2))
        fig.suptitle(f"{trace.name}: {n} idle periods")
        fig.tight_layout()
        s.details(f"{trace.name}: states chosen and wrong-depth entries per governor (figure)").figure(
            fig, caption=f"{trace.name}: states chosen, and wrong-depth entries, per governor")


#: Rows of the "why" section's summary: the most changed trace metrics shown.
WHY_TOP = 10


def why_section(p: Parts, groups: Sequence[tuple[str, Sequence[Path]]], states: Path | None,
                comm: Sequence[str] = ()) -> None:
    """Groups of kernel traces compared (``schedlab.trace.compare``, docs/trace-compare.md):
    the most changed trace metrics with their verdicts (in the overview and "what
    changed"), the whole table folded, and figures of each group's idle-state residency
    and wakeup-latency percentiles."""
    import numpy as np

    from .. import trace
    from .._plot import pyplot

    names = [g for g, _ in groups]
    c = trace.compare([(g, [str(x) for x in ps]) for g, ps in groups], states=states, comm=list(comm))
    s = p.changes
    s.heading(f"Why: traces of {', '.join(names)} compared")
    changed = [(r, k, cell) for r in c.rows for k, cell in zip(names[1:], r.cells[1:]) if cell.verdict in CHANGED]
    p.overview.summary_line(f"Traces ({', '.join(f'{g}: {len(ps)}' for g, ps in groups)} runs): {len(changed)} "
                            f"trace metrics changed significantly against {names[0]}.")
    rows = []
    for r, k, cell in changed[:WHY_TOP]:
        change = "from 0" if cell.change is None and r.cells[0].value == 0 else _pct(cell.change, 1)
        if cell.verdict == "worse":
            p.worse.append(f"traces {k}: {r.group} {r.name} {change}")
        rows.append([r.group, k, r.name, change, (cell.verdict, cell.verdict, ""), cell.test or "",
                     _num(cell.p), _num(cell.q)])
        s.summary_line(f"  {cell.verdict}: {r.group} {r.name} {change} in {k} ({cell.test} q={_num(cell.q)})")
    if rows:
        s.grid(Grid(["Scope", "Group", "Metric", "Change", "Verdict", "Test", "p", "q"], rows,
                    f"the {len(rows)} most changed trace metrics of {len(changed)} (each trace one run; "
                    "Benjamini-Hochberg across every metric)"))
    else:
        s.paragraph("No trace metric changed significantly.")
    plt = pyplot()
    res = [r for r in c.rows if r.group == "machine" and r.name.endswith(" residency %")]
    if res:
        fig, ax = plt.subplots(figsize=(8, 0.6 + 0.5 * len(names)))
        left = np.zeros(len(names))
        for r in res:
            vals = np.array([cell.value or 0.0 for cell in r.cells])
            ax.barh(names, vals, left=left, label=r.name.removesuffix(" residency %"))
            left += vals
        ax.set_xlabel("% of the time each CPU's idle state was known (mean over runs)")
        ax.set_ylabel("group")
        ax.legend(fontsize=7, ncol=min(len(res), 6), loc="upper center", bbox_to_anchor=(0.5, -0.35))
        fig.tight_layout()
        s.figure(fig, caption="Idle-state residency per group (cpu_idle; 'active' is out of idle)")
    lat = [(q, r) for q in ("p50", "p90", "p99", "max")
           for r in c.rows if r.group == "all" and r.name == f"wakeup latency {q} (µs)"]
    if lat:
        fig, ax = plt.subplots(figsize=(6, 3.2))
        for gi, g in enumerate(names):
            ys = [[v for v in (r.cells[gi].samples or [])] for _, r in lat]
            xs = np.arange(len(lat)) + (gi - (len(names) - 1) / 2) * 0.12
            for x, y in zip(xs, ys):
                ax.scatter([x] * len(y), y, s=10, color=f"C{gi}")
            ax.plot(xs, [np.mean(y) if y else np.nan for y in ys], color=f"C{gi}", label=g)
        ax.set_xticks(np.arange(len(lat)), [q for q, _ in lat])
        ax.set_yscale("log")
        ax.set_ylabel("wakeup latency (µs)")
        ax.set_xlabel("percentile of each run (points: runs; line: their mean)")
        ax.legend(fontsize=7)
        fig.tight_layout()
        s.figure(fig, caption="Wakeup latency: each run's percentiles, per group")
    d = p.details.details(f"Traces of {', '.join(names)}: every metric")
    d.table(c, caption="every trace metric; each trace one run (docs/trace-compare.md)")
    for w in c.meta.get("schedlab.warnings", [])[:20]:
        p.notes.append(f"traces: {w}")

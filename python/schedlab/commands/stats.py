"""``schedlab stats``: summarise samples and compare each file against the first."""

from __future__ import annotations

import math
import sys

from .. import _core, _defaults, _flags

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec
    from pathlib import Path
    from typing import Any

    import numpy as np


EXAMPLE_FILES = ("unixbench-execl-base.txt", "unixbench-execl-head.txt")


def register(sub: SubparsersSpec) -> None:
    p = sub.add_parser(
        "stats",
        help="summarise samples and compare them against a baseline",
        description=(
            "Summarise one or more sample files (numbers separated by whitespace or commas; a number with "
            "thousands separators such as 1,234.5 is refused, not split; "
            "'#' comments) and compare each against the first: percent change (positive = better), "
            "Welch and Mann-Whitney p-values with Benjamini-Hochberg q-values, a bootstrap "
            "interval of the ratio, and a verdict: better, worse, equivalent (TOST within +-margin) "
            "or inconclusive with the runs a side that would detect the margin (docs/verdicts.md)."
        ),
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="sample files; the first is the baseline")
    p.add_argument("--example", action="store_true", help="run on the bundled (generated) example samples")
    direction = p.add_mutually_exclusive_group()
    direction.add_argument("--higher-is-better", dest="higher", action="store_true", default=None,
                           help="the metric is a throughput (default for --example)")
    direction.add_argument("--lower-is-better", dest="higher", action="store_false",
                           help="the metric is a time or latency")
    p.add_argument("--alpha", type=_flags.probability, default=None, help=f"significance level for the verdict (default {_defaults.ALPHA})")
    p.add_argument("--margin", type=_flags.percentage, default=None, metavar="PCT",
                   help="equivalence margin in percent of the baseline mean (default 2)")
    p.add_argument("--power", type=_flags.probability, default=None,
                   help="power wanted against a change of the margin, for the runs needed (default 0.8)")
    p.add_argument("--test", choices=_core.TEST_NAMES, default=_defaults.TEST,
                   help="difference test behind the verdict (default: welch)")
    p.add_argument("--sequential", action="store_true",
                   help="also say whether each comparison is decided, replaying the runs in the order the files "
                        "list them (one look per added run): a confidence sequence valid however often one looks, "
                        "e-BH across the comparisons; undecided ones say how many more runs a side they need "
                        "(docs/sequential.md)")
    p.add_argument("--seed", type=_flags.uint64, default=0, help="bootstrap seed (default 0: reproducible output)")
    p.add_argument("--format", choices=("samples", "auto", *_core.RESULT_FORMATS), default="samples",
                   help="what the files are: 'samples' (numbers, the default), a tool's result file "
                        "(perf stat, fio, hyperfine, ...; 'auto': told by content); with a tool's format each FILE, "
                        "or each file of a directory FILE, is a run of that group, and every metric is compared "
                        "(docs/readers.md)")
    p.add_argument("--view", choices=("table", "benchstat"), default="table",
                   help="how the comparison is printed: schedlab's table (default) or benchstat's view (per group "
                        "the median ± its 95%% interval, the change of the medians or '~' where the verdict is no "
                        "change, a geomean row; docs/tables.md section 4)")
    p.set_defaults(func=run)


def _benchstat(groups: list[str], metrics: list[tuple[str, str | None, str, list[np.ndarray]]],
               args: Namespace) -> int:
    """Print benchstat's view of ``metrics`` (name, unit, direction, the samples of
    each group) over ``groups``, the first the baseline, decided by the core."""
    import numpy as np

    lengths = np.array([len(x) for _, _, _, per in metrics for x in per], dtype=np.uint64)
    values = np.concatenate([np.asarray(x, dtype=np.float64) for _, _, _, per in metrics for x in per])
    c = _core.compare_sample_groups(groups, [m[0] for m in metrics], values, lengths,
                                    units=[m[1] for m in metrics], directions=[m[2] for m in metrics],
                                    test=args.test, alpha=args.alpha, margin=args.margin, power=args.power)
    sys.stdout.write(c.to_benchstat())
    return 0


def _example_paths() -> list[Path]:
    from ..examples import path

    return [path(name) for name in EXAMPLE_FILES]


def _fmt(v: float, width: int = 10) -> str:
    if isinstance(v, float) and math.isnan(v):
        return f"{'-':>{width}}"
    return f"{v:>{width}.2f}"


def _run_results(args: Namespace) -> int:
    """Every metric of the result files, each group against the first."""
    from .. import readers, verdicts

    if not args.files:
        print("schedlab stats: give result files or directories", file=sys.stderr)
        return 2
    fmt = None if args.format == "auto" else args.format
    given = None if args.higher is None else ("higher" if args.higher else "lower")
    if args.view == "benchstat":
        # read, unit-reconciled and compared by the core; the view prints benchstat's numbers
        c = _core.compare_result_groups([str(f) for f in args.files], fmt, direction=given, test=args.test,
                                        alpha=args.alpha, margin=args.margin, power=args.power)
        sys.stdout.write(c.to_benchstat())
        return 0
    df = readers.read_groups(args.files, fmt)
    groups = list(dict.fromkeys(df["group"]))
    if len(groups) < 2:
        print("schedlab stats: give at least two groups (files or directories) to compare", file=sys.stderr)
        return 2
    tool = df.drop_duplicates("metric").set_index("metric")["direction"]
    directions = {m: given or (d if d != "unknown" else verdicts.direction(str(m))) for m, d in tool.items()}
    r = verdicts.compare(df, value="value", group="group", baseline=groups[0], metric="metric",
                         directions=directions, test=args.test, alpha=args.alpha, margin=args.margin,
                         power=args.power)
    units = df.drop_duplicates("metric").set_index("metric")["unit"]
    w = max(len("metric"), *(len(str(m)) for m in r["metric"]))
    g = max(len("group"), *(len(str(x)) for x in r["group"]))
    print(f"{'metric':{w}}  {'group':{g}}  {'unit':>6} {'n':>7} {'mean base':>12} {'mean new':>12} "
          f"{'change%':>8} {'q':>9}  verdict")
    for row in r.itertuples():
        n = f"{row.n_base}/{row.n_new}"
        print(f"{str(row.metric):{w}}  {str(row.group):{g}}  {units[row.metric]:>6} {n:>7} {row.mean_base:>12.6g} "
              f"{row.mean_new:>12.6g} {row.change:>8.2f} {row.q:>9.2g}  {row.verdict}")
    first = r.iloc[0]
    print(f"\nVerdicts: {_core.verdict_rule_text(args.test, first['alpha'], first['margin'], first['target_power'])}; "
          f"BH q across every metric; change: positive = better")
    if args.sequential:
        by = {k: v.to_numpy() for k, v in df.groupby(["metric", "group"], sort=False)["value"]}
        import numpy as np

        empty = np.empty(0)
        pairs = [(f"{m}  {g}", by.get((m, groups[0]), empty), by.get((m, g), empty), directions[m])
                 for m in directions for g in groups[1:]]
        _print_sequential(pairs, args)
    return 0


def run(args: Namespace) -> int:
    from pathlib import Path

    if args.format != "samples":
        return _run_results(args)

    from .. import _core, stats
    from ..errors import SchedlabError

    paths = [Path(f) for f in args.files]
    higher = args.higher
    if args.example:
        paths = _example_paths() + paths
        print("unixbench-execl example: generated samples (python/schedlab/data/example, "
              "made by tools/gen_example_data.py), not a measurement")
        if higher is None:
            higher = True
    if not paths:
        print("schedlab stats: give sample files, or --example", file=sys.stderr)
        return 2
    if higher is None:
        higher = True
    samples = [_core.read_samples(p) for p in paths]
    for p, x in zip(paths, samples):
        if len(x) == 0:  # an empty file is missing data, not a run with no results
            from ..errors import InsufficientDataError

            raise InsufficientDataError(f"{p}: no samples (an empty file, or only comments)", str(p))
    names = [p.stem for p in paths]
    if args.view == "benchstat":
        if len(samples) < 2:
            print("schedlab stats: give at least two sample files to compare", file=sys.stderr)
            return 2
        return _benchstat(names, [("value", None, "higher" if higher else "lower", samples)], args)
    width = builtins_max(len(n) for n in names)
    mean_name = "hmean" if higher else "amean"
    print(f"\n{'':{width}}  {'n':>4} {'min':>10} {'amean':>10} {'hmean':>10} {'median':>10}"
          f" {'stddev':>10} {'cv%':>7} {'max':>10}")
    summary = stats.summarize_many(samples)
    for name, row in zip(names, summary.itertuples()):
        print(f"{name:{width}}  {row.n:>4} {_fmt(row.min)} {_fmt(row.amean)} {_fmt(row.hmean)} "
              f"{_fmt(row.median)} {_fmt(row.stddev)} {_fmt(row.coeff_var, 7)} {_fmt(row.max)}")
    if len(samples) < 2:
        return 0
    direction = "higher is better" if higher else "lower is better"
    print(f"\nChange against {names[0]} ({direction}; {mean_name}; positive = better)")
    rows: list[tuple[str, np.ndarray, float, float, float, stats.BootstrapResult | None, str | None]] = []
    for name, x in zip(names[1:], samples[1:]):
        try:
            m0 = getattr(stats, mean_name)(samples[0])
            m1 = getattr(stats, mean_name)(x)
            pct = stats.pct_change(m0, m1, higher_is_better=higher)
            w = stats.welch_ttest(samples[0], x)
            u = stats.mann_whitney_u(samples[0], x)
            b = stats.bootstrap_ci(samples[0], x, statistic=mean_name, seed=args.seed)
            rows.append((name, x, pct, w.p, u.p, b, None))
        except SchedlabError as e:
            rows.append((name, x, math.nan, math.nan, math.nan, None, str(e)))
    ok = [r for r in rows if r[6] is None]
    d_alpha, d_margin, d_power = _core.verdict_defaults()
    alpha = d_alpha if args.alpha is None else args.alpha
    margin = d_margin if args.margin is None else args.margin
    power = d_power if args.power is None else args.power
    rule = _core.verdict_rule_text(args.test, alpha, margin, power)
    bv, bl = stats._pack([samples[0]] * len(ok), "base")
    nv, nl = stats._pack([r[1] for r in ok], "new")
    direction = "higher" if higher else "lower"
    v: dict[str, Any] | None = (
        _core.assess(bv, bl, nv, nl, [direction] * len(ok), test=args.test, alpha=alpha, margin=margin, power=power)
        if ok else None
    )
    print(f"{'':{width}}  {'change%':>8} {'welch p':>9} {'bh q':>9} {'mwu p':>9}  {'95% ratio CI':>17}  verdict")
    notes = []
    i = 0
    for name, _x, pct, wp, up, ci, err in rows:
        if err or ci is None or v is None:
            print(f"{name:{width}}  {err}")
            continue
        q, verdict = float(v["q"][i]), v["verdict"][i]
        print(f"{name:{width}}  {pct:>8.2f} {wp:>9.2g} {q:>9.2g} {up:>9.2g}  "
              f"[{ci.low:>6.4f}, {ci.high:>6.4f}]  {verdict}")
        detail = (f"equivalence p {float(v['p_equivalent'][i]):.3g}, power {float(v['power'][i]):.2f} "
                  f"against ±{margin:g}%")
        needed, more = v["runs_needed"][i], v["more_runs"][i]
        if needed is not None:
            detail += f"; {needed} runs a side detect ±{margin:g}% at power {power:g}"
            if verdict == "inconclusive" and more:
                detail += f" ({more} more)"
        notes.append(f"{name}: {verdict}: {detail}")
        if v["warnings"][i]:
            notes.append(f"{name}: warning: {v['warnings'][i]}")
        i += 1
    print(f"\nVerdicts: {rule}; BH q across the files")
    for n in notes:
        print(n)
    if args.sequential:
        _print_sequential([(name, samples[0], x, "higher" if higher else "lower") for name, x in zip(names[1:], samples[1:])],
                          args)
    return 0


def _print_sequential(pairs: list[tuple[str, Any, Any, str]], args: Namespace) -> None:
    """Print, for each (name, base, new, direction), whether the sequential comparison
    of the runs in their order has decided (docs/sequential.md)."""
    from .. import stats

    r = _core.sequential_assess(*stats._pack([p[1] for p in pairs], "base"), *stats._pack([p[2] for p in pairs], "new"),
                                [p[3] for p in pairs], alpha=args.alpha, margin=args.margin)
    print(f"\nSequential (one look per added run; confidence sequences at alpha {r['alpha']:g}, valid however often "
          f"one looks; e-BH across the comparisons; equivalence within ±{r['margin']:g}%):")
    for i, (name, base, new, _d) in enumerate(pairs):
        verdict, at, more = r["verdict"][i], r["decided_at"][i], r["more_runs"][i]
        low, high = float(r["low"][i]), float(r["high"][i])
        interval = (f"mean(new) - mean(base) in [{low:.6g}, {high:.6g}]" if math.isfinite(low) and math.isfinite(high)
                    else "interval unbounded yet")
        if at is not None:
            nb, nn = min(at, len(base)), min(at, len(new))
            runs = f"run {at} a side" if nb == nn else f"look {at} ({nb} runs of the base, {nn} of the new)"
            print(f"{name}: decided at {runs}: {verdict}; {interval}")
        elif verdict == "not_enough_data":
            print(f"{name}: not decided: fewer than 2 runs on a side")
        else:
            nb, nn = len(base), len(new)
            runs = f"{nb} runs a side" if nb == nn else f"{nb} runs of the base and {nn} of the new"
            need = f"about {more} more runs a side" if more is not None else "more runs than can be projected"
            print(f"{name}: not decided after {runs} ({verdict}): {need}; {interval}")


builtins_max = max

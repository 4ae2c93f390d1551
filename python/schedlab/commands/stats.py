"""``schedlab stats``: summarise samples and compare each file against the first."""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING

from .. import _flags

if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec
    from pathlib import Path


EXAMPLE_FILES = ("unixbench-execl-base.txt", "unixbench-execl-head.txt")


def register(sub: SubparsersSpec) -> None:
    p = sub.add_parser(
        "stats",
        help="summarise samples and compare them against a baseline",
        description=(
            "Summarise one or more sample files (numbers separated by whitespace or commas, "
            "'#' comments) and compare each against the first: percent change (positive = better), "
            "Welch and Mann-Whitney p-values with Benjamini-Hochberg q-values, and a bootstrap "
            "interval of the ratio."
        ),
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="sample files; the first is the baseline")
    p.add_argument("--example", action="store_true", help="run on the bundled (generated) example samples")
    direction = p.add_mutually_exclusive_group()
    direction.add_argument("--higher-is-better", dest="higher", action="store_true", default=None,
                           help="the metric is a throughput (default for --example)")
    direction.add_argument("--lower-is-better", dest="higher", action="store_false",
                           help="the metric is a time or latency")
    p.add_argument("--alpha", type=_flags.probability, default=0.05, help="significance level for the verdict (default 0.05)")
    p.add_argument("--seed", type=_flags.uint64, default=0, help="bootstrap seed (default 0: reproducible output)")
    p.set_defaults(func=run)


def _example_paths() -> list[Path]:
    from ..examples import path

    return [path(name) for name in EXAMPLE_FILES]


def _fmt(v: float, width: int = 10) -> str:
    if isinstance(v, float) and math.isnan(v):
        return f"{'-':>{width}}"
    return f"{v:>{width}.2f}"


def run(args: Namespace) -> int:
    from pathlib import Path

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
    rows: list[tuple[str, float, float, float, stats.BootstrapResult | None, str | None]] = []
    for name, x in zip(names[1:], samples[1:]):
        try:
            m0 = getattr(stats, mean_name)(samples[0])
            m1 = getattr(stats, mean_name)(x)
            pct = stats.pct_change(m0, m1, higher_is_better=higher)
            w = stats.welch_ttest(samples[0], x)
            u = stats.mann_whitney_u(samples[0], x)
            b = stats.bootstrap_ci(samples[0], x, statistic=mean_name, seed=args.seed)
            rows.append((name, pct, w.p, u.p, b, None))
        except SchedlabError as e:
            rows.append((name, math.nan, math.nan, math.nan, None, str(e)))
    ps = [r[2] for r in rows if not math.isnan(r[2])]
    qs = iter(stats.fdr_bh(ps)) if ps else iter(())
    print(f"{'':{width}}  {'change%':>8} {'welch p':>9} {'bh q':>9} {'mwu p':>9}  {'95% ratio CI':>17}  verdict")
    for name, pct, wp, up, ci, err in rows:
        if err or ci is None:
            print(f"{name:{width}}  {err}")
            continue
        q = float(next(qs))
        if q < args.alpha:
            verdict = "better" if pct > 0 else "worse"
        else:
            verdict = "no significant change"
        print(f"{name:{width}}  {pct:>8.2f} {wp:>9.2g} {q:>9.2g} {up:>9.2g}  "
              f"[{ci.low:>6.4f}, {ci.high:>6.4f}]  {verdict}")
    return 0


builtins_max = max

"""``schedlab series``: the commits where each metric of a history changed.

Reads a CSV of results in history order, tidy (columns commit, metric, value: one
row per run) or wide (a commit column and one column per metric), or result trees
(MMTests work/log directories, lkp result roots, or archives of them: every other
PATH), or result files of benchmark tools (perf stat, fio, hyperfine, ...: a
directory of run files, or a file, per commit), one point per run (kernel, commit,
directory) and metric, the mean of its samples, in --order, else by the start dates
the files record (MMTests' tests-timestamp, perf stat -o's header, fio's timestamp)
when every run has one, else the natural order of the names (6.9 before 6.10), else
as found (docs/change-points.md section 5); what ordered them is printed on stderr
("order: ..."); and prints every
change point found by E-divisive means as Apache Otava finds them: the commit, the
means before and after, the change in percent (positive = better) and its p-value
(docs/change-points.md).

Exit codes: 0 done (1 with --fail-on-worse when a metric got worse); 2 input error.
"""

from __future__ import annotations

import argparse
import sys

from .. import _flags

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec

    import pandas as pd


def register(sub: SubparsersSpec) -> None:
    p = sub.add_parser("series", help="change points over a commit history (E-divisive means, as Apache Otava)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", metavar="PATH", nargs="+",
                   help="a CSV of results in history order (named *.csv, or '-': standard input), "
                   "or result trees: directories, archives or result files")
    p.add_argument("--order", metavar="A,B,...", type=_names, default=None,
                   help="the runs (kernels, commits, directories) of the trees in history order, every one once "
                        "(default: by the start dates the files record, else by name; stderr says which)")
    p.add_argument("--commit", metavar="COL", default=None,
                   help="column naming the commit (default: 'commit' if present, else the first column)")
    p.add_argument("--metric", metavar="COL", default=None, help="column naming the metric, in a tidy file "
                   "(default: 'metric' when the file has columns metric and value)")
    p.add_argument("--value", metavar="COL", default=None, help="column of the values, in a tidy file")
    direction = p.add_mutually_exclusive_group()
    direction.add_argument("--higher-is-better", dest="direction", action="store_const", const="higher",
                           help="every metric is a throughput (default: each by its name, else unknown)")
    direction.add_argument("--lower-is-better", dest="direction", action="store_const", const="lower",
                           help="every metric is a time or latency")
    p.add_argument("--window", type=_flags.int_in(2, 2**31), default=None, metavar="N",
                   help="values per sliding window (default 50)")
    p.add_argument("--max-p", type=_flags.probability, default=None, metavar="P",
                   help="largest p-value of a change point (default 0.001)")
    p.add_argument("--min-change", type=_flags.percentage, default=None, metavar="PCT",
                   help="smallest change kept, in percent of the larger mean ratio (Otava's min magnitude; default 0)")
    p.add_argument("--permutations", type=_flags.int_in(1, 1 << 20), default=None, metavar="N",
                   help="original E-divisive with N shuffles a candidate instead of Otava's windowed t-test")
    p.add_argument("--seed", type=_flags.uint64, default=0, help="seed of the shuffles (default 0)")
    p.add_argument("--jobs", type=_flags.jobs, default=None, metavar="N",
                   help="worker threads (default: SCHEDLAB_NUM_THREADS, else the CPUs)")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text", help="output format (default: text)")
    p.add_argument("--fail-on-worse", action="store_true", help="exit 1 when some change point is 'worse'")
    p.add_argument("--max-input-bytes", type=_flags.size, default=256 << 20, metavar="N",
                   help="refuse a larger input (default 256 MiB)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the result here instead of stdout")
    p.add_argument("--plot", metavar="FILE", help="draw the metrics with change points (at most 8) to FILE "
                   "(.png, .svg, .pdf; needs matplotlib, the 'plot' extra)")
    p.set_defaults(func=run)


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"an empty name in {text!r}; give names separated by commas")
    return names


def _is_csv(paths: list[str]) -> bool:
    """One CSV file: '-' or a name ending in .csv; anything else is a result tree."""
    return len(paths) == 1 and (paths[0] == "-" or paths[0].lower().endswith(".csv"))


def _read(args: Namespace, file: str) -> tuple[pd.DataFrame, str, str | None, str | None]:
    import io

    import pandas as pd

    from .._input import read_bounded
    from ..errors import ParseError

    data = read_bounded(file, args.max_input_bytes)
    name = "<stdin>" if file == "-" else file
    try:
        df = pd.read_csv(io.BytesIO(data))
    except (ValueError, pd.errors.ParserError) as e:
        raise ParseError(f"{name}: not a CSV file: {e}", name) from None
    if df.empty:
        raise ParseError(f"{name}: no rows (expected a header line and one line per result)", name)
    cols = [str(c) for c in df.columns]
    df.columns = cols
    metric, value = args.metric, args.value
    if metric is None and value is None and "metric" in cols and "value" in cols:
        metric, value = "metric", "value"
    commit = args.commit or ("commit" if "commit" in cols else cols[0])
    for col in (commit, metric, value):
        if col is not None and col not in cols:
            raise ParseError(f"{name}: no column '{col}' (the header has: {', '.join(cols)})", name)
    return df, commit, metric, value


def _text(r: pd.DataFrame) -> str:
    if r.empty:
        return "no change points\n"
    w = max(len("metric"), *(len(str(m)) for m in r["metric"]))
    c = max(len("commit"), *(len(str(m)) for m in r["commit"]))
    lines = [f"{'metric':{w}}  {'commit':{c}}  {'before':>12} {'after':>12} {'change%':>8} {'p':>9}  verdict"]
    for row in r.itertuples():
        lines.append(f"{str(row.metric):{w}}  {str(row.commit):{c}}  {row.mean_before:>12.6g} {row.mean_after:>12.6g} "
                     f"{row.change:>8.2f} {row.p:>9.2g}  {row.verdict}")
    first = r.iloc[0]
    lines.append(f"\n{first['test']}, window {first['window']}, max p {first['max_p']:g}, "
                 f"min change {first['min_change']:g}%; change: positive = better")
    return "\n".join(lines) + "\n"


def run(args: Namespace) -> int:
    from .. import series
    from ..errors import DomainError

    directions = None
    if _is_csv(args.paths):
        if args.order is not None:
            raise DomainError("--order is for result trees; a CSV is read in its row order")
        df, commit, metric, value = _read(args, args.paths[0])
    else:
        df = series.history(args.paths, args.order)
        for w in df.attrs["warnings"]:
            sys.stderr.write(f"warning: {w}\n")
        sys.stderr.write(f"order: {df.attrs['order']}\n")
        commit, metric, value = "commit", "metric", "value"
        directions = dict(zip(df["metric"], df["direction"]))
    r = series.change_points(df, commit=commit, metric=metric, value=value, direction=args.direction,
                             directions=None if args.direction else directions,
                             window=args.window, max_p=args.max_p, min_change=args.min_change,
                             permutations=args.permutations, seed=args.seed, threads=args.jobs)
    if args.format == "csv":
        out = r.to_csv(index=False)
    elif args.format == "json":
        out = r.to_json(orient="records", indent=1) + "\n"
    else:
        out = _text(r)
    if args.output:
        from .._output import write

        write(args.output, out, args.paths)
    else:
        sys.stdout.write(out)
    if args.plot:
        import os

        from .._output import replacing

        fig = series.plot(df, r, commit=commit, metric=metric, value=value)
        with replacing(args.plot, args.paths) as f:
            fig.savefig(f, format=os.path.splitext(args.plot)[1].lstrip(".") or "png")
    return 1 if args.fail_on_worse and (r["verdict"] == "worse").any() else 0

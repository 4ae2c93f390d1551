"""``schedlab lkp``: lkp-tests (0-day robot) result roots: the ncompare table, a run's
stats.json, unite, and the robot's ASCII plot.

The text path imports only the native core (no pandas), so ``schedlab lkp compare``
starts fast.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec
    from typing import Any


def register(sub: SubparsersSpec) -> None:
    from .. import _core, _flags

    p = sub.add_parser("lkp", help="lkp-tests results: ncompare tables, stats.json, plots",
                       description="lkp-tests (Intel 0-day robot) results.")
    lsub = p.add_subparsers(dest="lkp_command", metavar="SUBCOMMAND")

    c = lsub.add_parser("compare", help="the `lkp ncompare` table of BASE against HEAD...",
                        description="Compare commits' multi-result roots (directories with matrix.json[.gz] "
                                    "and run subdirectories with job.yaml) as `lkp ncompare` does; the text is "
                                    "lkp's byte for byte. Other formats add directions, verdicts and p-values. "
                                    "A root may also be a .tar, .tar.gz/.tgz, .tar.xz or .zip archive holding one.")
    c.add_argument("-a", "--all", dest="all_keys", action="store_true", help="every metric, no significance filter")
    c.add_argument("-m", "--more", action="store_true", help="also deny-listed monitors (interrupts, slabinfo, ...)")
    c.add_argument("-k", "--kpi", action="store_true", help="only the test programs' own metrics (lkp's KPIs)")
    c.add_argument("-p", "--perf-profile-threshold", type=_flags.percentage, metavar="VALUE",
                   help="perf-profile rows: shown when either median exceeds VALUE (a Float; default: lkp's "
                        "Integer 5, which applies to Integer medians only)")
    c.add_argument("--format", choices=_core.TABLE_FORMATS, default="text")
    c.add_argument("--test", choices=_core.TEST_NAMES, default="welch", help="test behind the verdicts")
    c.add_argument("--root", dest="search_root", metavar="DIR",
                   help="BASE/HEAD that are not paths are commit prefixes: find their result roots under DIR; "
                        "with -s/-o, the tree searched")
    c.add_argument("-s", "--search", dest="queries", action="append", type=lambda q: (False, q), metavar="AXES",
                   help="(with --root) the result roots whose job axes match k=v/k=v (commit= may be a prefix); "
                        "repeatable")
    c.add_argument("-o", "--override-search", dest="queries", action="append", type=lambda q: (True, q),
                   metavar="AXES", help="the previous -s query with these axes replaced")
    c.add_argument("-c", "--compare-axis-keys", dest="compare_keys", default="commit", metavar="KEYS",
                   help="the axes compared (comma-separated; default commit): roots sharing every other axis "
                        "form one table")
    c.add_argument("roots", nargs="*", metavar="BASE HEAD", help="result roots (or commit prefixes with --root)")
    c.set_defaults(func=run_compare)

    s = lsub.add_parser("stats", help="parse one run's raw outputs and print its stats.json")
    s.add_argument("run_dir", metavar="RUN_DIR")
    s.set_defaults(func=run_stats)

    u = lsub.add_parser("unite", help="build matrix.json, avg.json, stddev.json of a result root from its runs")
    u.add_argument("root", metavar="RESULT_ROOT")
    u.add_argument("--label", help="prefix of stats_source entries (default: RESULT_ROOT as given)")
    u.add_argument("--dry-run", action="store_true", help="print matrix.json instead of writing the files")
    u.set_defaults(func=run_unite)

    pl = lsub.add_parser("plot", help="the robot's 80x20 ASCII plot of a metric, BASE runs vs HEAD runs")
    pl.add_argument("metric")
    pl.add_argument("base", metavar="BASE", help="result root (or matrix.json) of the good/base runs")
    pl.add_argument("head", metavar="HEAD", help="result root (or matrix.json) of the bad/head runs")
    pl.add_argument("--gnuplot", action="store_true", help="print lkp's gnuplot script instead")
    pl.set_defaults(func=run_plot)
    p.set_defaults(func=lambda args: (p.print_help(sys.stderr), 2)[1])


def run_compare(args: Namespace) -> int:
    from .. import _core
    from ..errors import DomainError

    if args.queries:
        return _run_query(args, _core)
    if len(args.roots) < 2:
        raise DomainError("lkp compare needs BASE and HEAD result roots, or --root DIR with -s/-o queries")
    paths = list(args.roots)
    if args.search_root is not None:
        paths = [p if os.path.exists(p) else _core.lkp_find_root(args.search_root, p) for p in paths]
    if args.format == "text":
        sys.stdout.write(_core.lkp_compare_text(paths, all_keys=args.all_keys, more=args.more, kpi=args.kpi,
                                                 perf_profile_threshold=args.perf_profile_threshold))
        return 0
    from .. import lkp

    c = lkp.compare(*paths, all_keys=args.all_keys, more=args.more, test=args.test, kpi=args.kpi,
                    perf_profile_threshold=args.perf_profile_threshold)
    out = {"csv": c.to_csv, "json": lambda: c.to_json(indent=1) + "\n", "markdown": c.to_markdown,
           "html": c._repr_html_, "benchstat": c.to_benchstat}[args.format]()
    sys.stdout.write(out if out.endswith("\n") else out + "\n")
    return 0


def _run_query(args: Namespace, core: Any) -> int:
    from ..errors import DomainError

    if args.search_root is None or args.roots:
        raise DomainError("-s/-o search the result roots under --root DIR (and take no BASE/HEAD)")
    if args.format != "text":
        raise DomainError("-s/-o print lkp's text tables only (--format text)")
    keys = [k for k in args.compare_keys.split(",") if k]
    sys.stdout.write(core.lkp_compare_query_text(args.search_root, args.queries, keys, all_keys=args.all_keys,
                                                 more=args.more, kpi=args.kpi,
                                                 perf_profile_threshold=args.perf_profile_threshold))
    return 0


def run_stats(args: Namespace) -> int:
    from .. import _core

    sys.stdout.write(_core.lkp_run_stats_json(args.run_dir) + "\n")
    return 0


def run_unite(args: Namespace) -> int:
    from .. import lkp

    texts = lkp.unite(args.root, write=not args.dry_run, label=args.label)
    if args.dry_run:
        sys.stdout.write(texts[0] + "\n")
    else:
        print(f"wrote matrix.json, avg.json, stddev.json in {args.root}")
    return 0


def run_plot(args: Namespace) -> int:
    from .. import _core

    good = _core.lkp_metric_samples(args.base, args.metric)
    bad = _core.lkp_metric_samples(args.head, args.metric)
    sys.stdout.write(_core.lkp_text_plot(args.metric, bad, good, script=args.gnuplot) + "\n")
    return 0

"""``schedlab benchstat``: Go's benchstat on Go benchmark files, with its flags."""

from __future__ import annotations

import sys

from .. import _core

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec


def register(sub: SubparsersSpec) -> None:
    d = _core.BENCHSTAT_DEFAULTS
    p = sub.add_parser(
        "benchstat",
        help="benchstat's tables of Go benchmark files, with benchstat's flags",
        description=(
            "Summarise and compare Go benchmark files (go test -bench output) as Go's benchstat does, "
            "with its numbers and its flags (one dash as benchstat spells them, or two): a table per "
            "configuration and unit, a row per benchmark, a column per file, the first the baseline "
            "(docs/benchstat.md section 7). An input may be LABEL=PATH."
        ),
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="Go benchmark files (PATH or LABEL=PATH)")
    for flag, what in (("table", "split results into tables by distinct values of PROJECTION"),
                       ("row", "split results into rows by distinct values of PROJECTION"),
                       ("col", "split results into columns by distinct values of PROJECTION")):
        p.add_argument(f"-{flag}", f"--{flag}", dest=flag, metavar="PROJECTION", default=None,
                       help=f"{what} (default {d[flag]})")
    p.add_argument("-ignore", "--ignore", dest="ignore", metavar="KEYS", default=None,
                   help="ignore variations in KEYS")
    p.add_argument("-filter", "--filter", dest="filter", metavar="QUERY", default=None,
                   help=f"use only benchmarks matching QUERY (default {d['filter']})")
    p.add_argument("-alpha", "--alpha", dest="alpha", type=float, default=None,
                   help=f"consider a change significant if p < ALPHA (default {d['alpha']:g})")
    p.add_argument("-confidence", "--confidence", dest="confidence", type=float, default=None, metavar="LEVEL",
                   help=f"confidence level for ranges (default {d['confidence']:g})")
    p.add_argument("-format", "--format", dest="format", choices=_core.BENCHSTAT_FORMATS, default=None,
                   help=f"print results as text or csv (warnings then go to standard error; default {d['format']})")
    p.set_defaults(func=run)


def run(args: Namespace) -> int:
    out, warnings = _core.benchstat_tables(args.inputs, table=args.table, row=args.row, col=args.col,
                                           ignore=args.ignore, filter=args.filter, alpha=args.alpha,
                                           confidence=args.confidence, format=args.format)
    sys.stdout.write(out)
    sys.stderr.write(warnings)
    return 0

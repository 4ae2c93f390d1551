"""``schedlab batch``: CI batch mode over whole result archives.

``schedlab batch PATH... --baseline NAME`` reads every directory or archive
(.tar, .tar.gz/.tgz, .tar.xz, .zip), finds every MMTests run and lkp result root,
compares each kernel or commit with the baseline, controls the false discovery
rate across all rows (Benjamini-Hochberg) and writes one result (JSON per
docs/batch.md, JUnit, markdown or text).

Exit codes: 0 no significant regression; 1 significant regression found (per
--fail-on); 2 input error (the message names the file, and the archive entry) or
missing data (an unreadable directory, a log without a result line, a metric
without samples; not with --allow-missing). docs/batch.md: fail closed.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .. import _flags

if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec


def register(sub: SubparsersSpec) -> None:
    from .. import _core

    p = sub.add_parser("batch", help="CI batch mode: archives in, verdicts and an exit code out",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", metavar="PATH", help="result directories or archives")
    p.add_argument("--baseline", required=True, metavar="NAME",
                   help="baseline kernel (MMTests run name) or commit (lkp; a 7+ character prefix works)")
    p.add_argument("--format", choices=("json", "junit", "markdown", "text"), default="text",
                   help="output format (default: text)")
    p.add_argument("--fail-on", choices=("regression", "any-change", "inconclusive", "never"), default="regression",
                   help="what makes the exit code 1 (default: regression; inconclusive: 1 for a regression, "
                        "else 3 for an inconclusive row)")
    p.add_argument("--alpha", type=_flags.probability, default=0.05, help="significance level of the BH-adjusted p (default 0.05)")
    p.add_argument("--margin", type=_flags.percentage, default=None, metavar="PCT",
                   help="equivalence margin in percent of the baseline mean (default 2; docs/verdicts.md)")
    p.add_argument("--power", type=_flags.probability, default=None,
                   help="power wanted against a change of the margin, for the runs needed (default 0.8)")
    p.add_argument("--min-change", type=_flags.percentage, default=0.0, metavar="PCT",
                   help="smallest change, in percent, called better or worse (default 0)")
    p.add_argument("--test", choices=_core.TEST_NAMES, default="welch",
                   help="test behind the p-values (default: welch)")
    p.add_argument("--jobs", type=_flags.jobs, default=None, metavar="N",
                   help="worker threads (default: SCHEDLAB_NUM_THREADS, else the CPUs)")
    p.add_argument("--keep-going", action="store_true",
                   help="report unreadable inputs in the result (exit code 2) instead of stopping at the first")
    p.add_argument("--allow-missing", action="store_true",
                   help="missing data (an unreadable directory, a log without a result line, a metric without "
                        "samples) is still listed but no longer makes the exit code 2")
    p.add_argument("-o", "--output", metavar="FILE", help="write the result here instead of stdout")
    p.set_defaults(func=run_batch)


def run_batch(args: Namespace) -> int:
    from .. import batch

    progress = bool(getattr(sys.stderr, "isatty", lambda: False)())
    r = batch.run(args.paths, args.baseline, test=args.test, alpha=args.alpha, min_change=args.min_change,
                  fail_on=args.fail_on, jobs=args.jobs, keep_going=args.keep_going, progress=progress,
                  allow_missing=args.allow_missing, margin=args.margin, power=args.power)
    out = r.render(args.format)
    if args.output:
        from .._output import write

        write(args.output, out, args.paths)
    else:
        sys.stdout.write(out)
    for err in r.errors:
        print(f"schedlab batch: error: {err['message']}", file=sys.stderr)
    level = "warning" if args.allow_missing else "error"
    for gap in r.missing:
        print(f"schedlab batch: {level}: missing data: {gap['message']}", file=sys.stderr)
    return r.exit_code

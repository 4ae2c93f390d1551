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
import os
import sys

from .. import _flags

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec


def register(sub: SubparsersSpec) -> None:
    from .. import _core, _defaults

    p = sub.add_parser("batch", help="CI batch mode: archives in, verdicts and an exit code out",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="result directories or archives, or result files of benchmark tools (one per side)")
    p.add_argument("--baseline", required=True, metavar="NAME",
                   help="baseline kernel (MMTests run name), commit (lkp; a 7+ character prefix works), or the "
                        "directory or file name (without extension) of the baseline's result files")
    p.add_argument("--format", choices=_core.BATCH_FORMATS, default="text",
                   help="output format (default: text; jsonl: JSON lines, one record per row; github: GitHub "
                        "Actions ::error/::warning annotations)")
    p.add_argument("--max-bytes", type=_flags.size, default=None, metavar="N",
                   help=f"size budget of --format markdown in bytes (default {_core.BATCH_MARKDOWN_BUDGET}, under a pull-request "
                        "comment's 65536 characters; rows past it are counted, not shown)")
    p.add_argument("--step-summary", action="store_true",
                   help="also append the markdown (within 1000000 bytes) to the file named by "
                        "$GITHUB_STEP_SUMMARY (GitHub Actions)")
    p.add_argument("--progress", choices=("auto", *_core.BATCH_PROGRESS), default="auto",
                   help="progress on stderr with rate and time left: a bar redrawn in place, or a line "
                        "every 5 s for a CI log (default auto: the bar when stderr is a terminal, else off)")
    p.add_argument("--fail-on", choices=_core.BATCH_FAIL_ON, default="regression",
                   help="what makes the exit code 1 (default: regression; inconclusive: 1 for a regression, "
                        "else 3 for an inconclusive row)")
    p.add_argument("--alpha", type=_flags.probability, default=_defaults.ALPHA, help="significance level of the BH-adjusted p (default %(default)s)")
    p.add_argument("--margin", type=_flags.percentage, default=None, metavar="PCT",
                   help="equivalence margin in percent of the baseline mean (default 2; docs/verdicts.md)")
    p.add_argument("--power", type=_flags.probability, default=None,
                   help="power wanted against a change of the margin, for the runs needed (default 0.8)")
    p.add_argument("--min-change", type=_flags.percentage, default=0.0, metavar="PCT",
                   help="smallest change, in percent, called better or worse (default 0)")
    p.add_argument("--test", choices=_core.TEST_NAMES, default=_defaults.TEST,
                   help="test behind the p-values (default: welch)")
    p.add_argument("--sequential", action="store_true",
                   help="decide each row sequentially: a confidence sequence over the runs in the order taken, valid "
                        "however often the batch is rerun as runs are added, e-BH across the rows; each row says "
                        "whether it is decided, at how many runs, or how many more it needs (docs/sequential.md)")
    p.add_argument("--jobs", type=_flags.jobs, default=None, metavar="N",
                   help="worker threads (default: SCHEDLAB_NUM_THREADS, else the CPUs)")
    p.add_argument("--keep-going", action="store_true",
                   help="report unreadable inputs in the result (exit code 2) instead of stopping at the first")
    _flags.add_allow_missing(p, "a benchmark that failed or aborted in a run, an unreadable directory, a log "
                                "without a result line, a metric without samples")
    p.add_argument("--max-entry-bytes", type=_flags.size, default=None, metavar="N",
                   help=f"largest decompressed archive entry read (default {_mib(_core.BATCH_LIMITS[0])})")
    p.add_argument("--max-archive-bytes", type=_flags.size, default=None, metavar="N",
                   help=f"largest decompressed archive read (default {_mib(_core.BATCH_LIMITS[1])})")
    p.add_argument("--max-entries", type=_flags.size, default=None, metavar="N",
                   help=f"most entries of an archive read (default {_core.BATCH_LIMITS[2]})")
    p.add_argument("-o", "--output", metavar="FILE", help="write the result here instead of stdout")
    p.set_defaults(func=run_batch)


def _mib(n: int) -> str:
    """A byte count in MiB when it is whole MiB (for the help text)."""
    return f"{n >> 20} MiB" if n % (1 << 20) == 0 else f"{n} bytes"


#: What GitHub Actions takes in a step summary is 1 MiB; keep below it.
_STEP_SUMMARY_BYTES = 1_000_000


def _append(path: str, text: str, inputs: list[str]) -> None:
    """Append ``text`` to ``path`` (the step summary file is shared by a job's steps),
    refusing an input and mapping OS errors to :class:`WriteError` (exit code 2)."""
    from .._output import check_not_input, write_error

    check_not_input(path, inputs)
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise write_error(path, e) from None


def run_batch(args: Namespace) -> int:
    from .. import batch

    progress = args.progress
    if progress == "auto":
        progress = "bar" if getattr(sys.stderr, "isatty", lambda: False)() else "off"
    limits = batch.Limits(args.max_entry_bytes, args.max_archive_bytes, args.max_entries)
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY") if args.step_summary else None
    if args.step_summary and not summary_path:
        from ..errors import DomainError

        raise DomainError("--step-summary: GITHUB_STEP_SUMMARY is not set (it is, in a GitHub Actions step)")
    r = batch.run(args.paths, args.baseline, test=args.test, alpha=args.alpha, min_change=args.min_change,
                  fail_on=args.fail_on, jobs=args.jobs, keep_going=args.keep_going, progress=progress,
                  allow_missing=args.allow_missing, margin=args.margin, power=args.power, limits=limits,
                  sequential=args.sequential)
    out = r.render(args.format, args.max_bytes)
    if summary_path:
        _append(summary_path, r.to_markdown(_STEP_SUMMARY_BYTES), args.paths)
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

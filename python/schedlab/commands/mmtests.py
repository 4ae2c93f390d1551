"""``schedlab mmtests``: MMTests results.

``schedlab mmtests compare -d DIR -b BENCHMARK -n NAME1,NAME2,...`` prints the
table compare-mmtests.pl of the chosen era prints (``--compat 2018|2024|2025|head``;
default: the newest era that knows the benchmark and finds the logs), or the
same comparison as CSV, JSON, markdown or HTML. ``schedlab mmtests parse FILE``
reads a pasted table and reprints it (or converts it).
"""

from __future__ import annotations

import argparse
import sys

from .. import _flags

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec
    from typing import Any


def register(sub: SubparsersSpec) -> None:
    from .. import _core

    p = sub.add_parser("mmtests", help="MMTests results: compare-mmtests.pl's tables, exactly",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    msub = p.add_subparsers(dest="mmtests_command", metavar="SUBCOMMAND")
    c = msub.add_parser("compare", help="compare runs of a benchmark in a work/log tree",
                        description="The flags of compare-mmtests.pl; text output is byte-identical to it.")
    c.add_argument("-d", "--directory", required=True,
                   help="the MMTests work/log directory, or a .tar, .tar.gz/.tgz, .tar.xz or .zip archive holding it")
    c.add_argument("-b", "--benchmark", required=True, help="benchmark name, e.g. netperf-udp, tbench4, schbench")
    c.add_argument("-n", "--names", required=True, help="comma-separated run names; the first is the baseline")
    c.add_argument("--print-ratio", action="store_true", help="the ratio table with its Gmean line")
    c.add_argument("--sub-heading", default="", help="keep operations starting with this (a Perl regex)")
    c.add_argument("--compat", choices=_core.MMTESTS_ERAS, default=None,
                   help="MMTests era to reproduce (default: the era the files tell, printed as a note; the newest "
                        "that knows the benchmark when they cannot tell)")
    c.add_argument("--format", choices=_core.TABLE_FORMATS, default="text", help="output format (default: text)")
    c.add_argument("--test", choices=["mmtests", *_core.TEST_NAMES], default="mmtests",
                   help="what decides the verdict column of csv/json/markdown/html (default: MMTests' marker)")
    _flags.add_allow_missing(c, "a log without a result line, a run without some of the baseline's operations")
    c.add_argument("--alpha", type=_flags.probability, default=0.05, help="significance level of --test (default 0.05)")
    c.add_argument("--print-monitor", choices=_core.MMTESTS_MONITORS, default=None, metavar="MONITOR",
                   help="the table of a monitor's logs instead of the benchmark's, as compare-mmtests.pl "
                        f"--print-monitor prints it ({', '.join(_core.MMTESTS_MONITORS)}; mpstat needs "
                        "--sub-heading node-N); --sub-heading then picks the column")
    c.set_defaults(func=run_compare)
    q = msub.add_parser("parse", help="read a compare table pasted from mail and reprint or convert it")
    q.add_argument("file", help="text file holding the table ('-' for stdin)")
    q.add_argument("--format", choices=[*_core.TABLE_FORMATS, "overview"], default="text",
                   help="output format; 'overview' prints each kernel's Gmean ratio label")
    q.add_argument("--max-input-bytes", type=_flags.size, default=256 << 20, metavar="N",
                   help="refuse an input longer than N bytes (default 256 MiB)")
    q.set_defaults(func=run_parse)
    p.set_defaults(func=lambda args: (p.print_help(sys.stderr), 2)[1])


def _emit(c, fmt: str) -> None:
    if fmt == "text":
        sys.stdout.write(c.to_text())
    elif fmt == "csv":
        sys.stdout.write(c.to_csv())
    elif fmt == "json":
        sys.stdout.write(c.to_json(indent=1) + "\n")
    elif fmt == "markdown":
        sys.stdout.write(c.to_markdown())
    elif fmt == "html":
        sys.stdout.write(c._repr_html_() + "\n")
    elif fmt == "benchstat":
        sys.stdout.write(c.to_benchstat())


def run_compare(args: Namespace) -> int:
    names = [n for n in args.names.split(",") if n]
    if args.print_monitor:
        return _run_monitor(args, names)
    if args.format == "text":
        # the text path goes straight to the core: no pandas, no dataclasses, fast start
        import os

        from .. import _core

        c, text, _era, warnings = _core.mmtests_compare(os.fspath(args.directory), args.benchmark, names,
                                                        compat=args.compat, print_ratio=args.print_ratio,
                                                        subheading=args.sub_heading, test=args.test, alpha=args.alpha)
        sys.stdout.write(text)
        _era_note(c.meta, args.compat)
        return _missing(warnings, args.allow_missing)
    from .. import mmtests

    c = mmtests.compare(args.directory, args.benchmark, names, args.compat, print_ratio=args.print_ratio,
                        sub_heading=args.sub_heading, test=args.test, alpha=args.alpha)
    _emit(c, args.format)
    _era_note(c.meta, args.compat)
    return _missing(c.warnings, args.allow_missing)


def _era_note(meta: dict[str, Any], compat: str | None) -> None:
    """Say on stderr which era the files told and why (nothing when ``--compat`` chose it)."""
    from .. import _core

    note = _core.cli_era_note(meta.get("mmtests.era") or "", meta.get("mmtests.era_reason") or "", compat is not None)
    if note:
        print(note, file=sys.stderr)


def _run_monitor(args: Namespace, names: list[str]) -> int:
    """``--print-monitor``: the monitor's table; MMTests' silent behaviour goes to stderr as notes."""
    import os

    from .. import _core

    if args.print_ratio:
        print("schedlab mmtests: error: --print-ratio with --print-monitor is not reproduced", file=sys.stderr)
        return 2
    c, text, _era, warnings = _core.mmtests_monitor(os.fspath(args.directory), args.benchmark, names,
                                                     args.print_monitor, compat=args.compat, subheading=args.sub_heading)
    if args.format == "text":
        sys.stdout.write(text)
    else:
        from .. import mmtests

        _emit(mmtests.MMTestsComparison(c), args.format)
    for w in warnings:
        print(f"schedlab mmtests: note: {w}", file=sys.stderr)
    return 0


def _missing(warnings: list[str], allowed: bool) -> int:
    """Report what compare found missing on stderr (every warning the core gives: a
    log without a result line that MMTests counts as 0, a run without some of the
    baseline's operations); the exit code is 2 for missing data unless ``allowed``
    (fail closed, as batch: docs/batch.md)."""
    from .. import _core

    lines, code = _core.cli_missing_data(warnings, allowed)
    for line in lines:
        print(line, file=sys.stderr)
    return code


def run_parse(args: Namespace) -> int:
    from .. import mmtests
    from .._input import read_bounded

    data = read_bounded(args.file, args.max_input_bytes)
    source = "<stdin>" if args.file == "-" else args.file
    c = mmtests.parse_compare(data.decode("utf-8", errors="replace"), source)
    if args.format == "overview":
        for k, r in c.gmean_ratio().items():
            print(f"{k}\t{r:.4f}\t{mmtests.overview_label(r)}")
        return 0
    _emit(c, args.format)
    return 0

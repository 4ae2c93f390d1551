"""``schedlab report``: one HTML report and a text summary over result trees and traces."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec


def register(sub: SubparsersSpec) -> None:
    p = sub.add_parser(
        "report",
        help="write an HTML report and print a summary for result trees and traces",
        description=(
            "Detect what each PATH is (an MMTests work/log tree, lkp commit result roots, an idle "
            "trace and state table, a task trace), compare and simulate, write one self-contained "
            "HTML report and print a plain-text summary."
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--example", action="store_true",
                   help="run on the example data bundled in the package (generated, not measured)")
    p.add_argument("--baseline", metavar="NAME", help="baseline kernel or commit (default: the first)")
    p.add_argument("-o", "--output", metavar="FILE", default="report.html",
                   help="HTML file to write (default report.html; '-' for none)")
    p.set_defaults(func=run)


def run(args: Namespace) -> int:
    from .._plot import pyplot

    pyplot()  # the report draws: a clear error now if matplotlib is missing
    from ..report.build import build, example_dir

    paths = list(args.paths)
    baseline = args.baseline
    if args.example:
        paths = [str(example_dir())] + paths
        baseline = baseline or "4.18.0-menu"
    if not paths:
        print("schedlab report: give result paths, or --example", file=sys.stderr)
        return 2
    if args.output != "-":
        from .._output import check_not_input

        check_not_input(args.output, paths)  # before the work, not only before writing
    report = build(paths, baseline=baseline, example=args.example)
    sys.stdout.write(report.to_text())
    if args.output != "-":
        from .._output import write

        write(args.output, report.to_html(), paths)
        print(f"\nwrote {args.output}")
    return 0

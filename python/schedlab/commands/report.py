"""``schedlab report``: one HTML report and a text summary over result trees and traces."""

from __future__ import annotations

import sys

from .. import _flags

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec


def register(sub: SubparsersSpec) -> None:
    p = sub.add_parser(
        "report",
        help="write an HTML report and print a summary for result trees and traces",
        description=(
            "Detect what each PATH is (an MMTests work/log tree or a .tar, .tar.gz/.tgz, .tar.xz or "
            ".zip archive of one, lkp commit result roots, an idle trace and state table, a task "
            "trace), compare and simulate, write one self-contained HTML report (overview first, "
            "then what changed, the simulations, folded details) and print a plain-text summary. "
            "Exits 2 when nothing to report is found, or when a benchmark failed or aborted in a run "
            "(listed on stderr; the other benchmarks and runs are still reported) unless --allow-missing; "
            "otherwise 1 when a verdict is worse (a regression, as batch mode), else 0."
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="result trees, archives of MMTests trees, lkp result roots or trace CSVs")
    p.add_argument("--example", action="store_true",
                   help="run on the example data bundled in the package (generated, not measured)")
    p.add_argument("--baseline", metavar="NAME", help="baseline kernel or commit (default: the first)")
    p.add_argument("-o", "--output", metavar="FILE", default="report.html",
                   help="HTML file to write (default report.html; '-' for none)")
    p.add_argument("--trace-group", nargs="+", action="append", default=[], metavar=("NAME", "TRACE"),
                   help="a group of kernel traces and its name (repeat: the first group is the baseline); adds a "
                        "'why' section comparing the groups' idle states, wakeups, run queues and frequency "
                        "(docs/trace-compare.md)")
    p.add_argument("--trace-states", metavar="PATH",
                   help="the traces' idle-state table (sysfs cpuidle directory, dump, CSV or preset)")
    _flags.add_allow_missing(p, "a benchmark that failed or aborted in a run")
    p.set_defaults(func=run)


def run(args: Namespace) -> int:
    # matplotlib is imported only by the sections that draw with it (idle, PELT, lkp, trace
    # groups); MMTests trees alone are drawn by the core (docs/report.md)
    from ..report.build import build, example_dir

    paths = list(args.paths)
    baseline = args.baseline
    if args.example:
        paths = [str(example_dir())] + paths
        baseline = baseline or "4.18.0-menu"
    groups = [(g[0], list(g[1:])) for g in args.trace_group]
    if any(len(ps) == 0 for _, ps in groups):
        print("schedlab report: --trace-group takes a name and at least one trace", file=sys.stderr)
        return 2
    if len(groups) == 1:
        print("schedlab report: give at least two --trace-group groups to compare", file=sys.stderr)
        return 2
    if not paths and not groups:
        print("schedlab report: give result paths, --trace-group groups, or --example", file=sys.stderr)
        return 2
    _check_paths(paths + [p for _, ps in groups for p in ps])
    if args.output != "-":
        from .._output import check_not_input

        check_not_input(args.output, paths + [p for _, ps in groups for p in ps])  # before the work
    report = build(paths, baseline=baseline, example=args.example, trace_groups=groups or None,
                   trace_states=args.trace_states)
    sys.stdout.write(report.to_text())
    if args.output != "-":
        from .._output import write

        write(args.output, report.to_html(), paths + [p for _, ps in groups for p in ps])
        print(f"\nwrote {args.output}")
    for n in report.notes:
        print(f"schedlab report: note: {n}", file=sys.stderr)
    level = "warning" if args.allow_missing else "error"
    for m in report.missing:
        print(f"schedlab report: {level}: missing data: {m}", file=sys.stderr)
    if report.missing and not args.allow_missing:
        return 2
    if args.example and not args.paths:
        if report.worse:
            print(f"schedlab report: note: exit 0 for the bundled example; with real results, its {len(report.worse)}"
                  " worse verdict(s) would exit 1", file=sys.stderr)
        return 0
    return 1 if report.worse else 0


def _check_paths(paths: list[str]) -> None:
    """Refuse a path that is neither a directory nor a regular file (a device such as
    /dev/zero, a FIFO: reading one could block or never end) before reading anything."""
    import errno
    import os
    import stat

    from ..errors import FileNotFoundError, ReadError

    for p in paths:
        try:
            mode = os.stat(p.rstrip("/") or p).st_mode  # `lab.tar.gz/` names the archive
        except OSError as e:
            cls = FileNotFoundError if e.errno == errno.ENOENT else ReadError
            raise cls(f"{p}: {e.strerror or e}", p) from None
        if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
            raise ReadError(f"{p}: not a directory or a regular file (a device, FIFO or socket); "
                            "give result trees, archives or trace files", p)


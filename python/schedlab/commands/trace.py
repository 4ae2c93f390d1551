"""``schedlab trace``: why did it change — sets of kernel traces compared with verdicts.

``schedlab trace compare --base A/*.dat --head B/*.dat`` (or ``--group NAME PATH...``
for any number of groups, or one directory or archive per group as positional
arguments) reads every trace (trace.dat v6/v7, trace-cmd report or tracefs text, perf
script), measures idle states, wakeups, run queues, frequency and utilization in each,
and compares every metric of every group with the baseline (the first group, or
--baseline): Welch or Mann-Whitney, Benjamini-Hochberg across every metric, equivalence
and runs needed (docs/trace-compare.md). The biggest changes print first.

Exit codes (as schedlab batch, docs/batch.md): 0 no significant regression; 1 a row
fails under --fail-on; 2 an input error; 3 with --fail-on inconclusive, an
inconclusive row.
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
    from .. import _core

    p = sub.add_parser("trace", help="compare sets of kernel traces: idle, wakeups, run queues, frequency",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tsub = p.add_subparsers(dest="trace_command", metavar="COMMAND")
    tsub.required = True
    c = tsub.add_parser("compare", help="compare groups of traces with verdicts",
                        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("dirs", nargs="*", metavar="GROUP_PATH",
                   help="one group per path: a directory or archive of traces (named by its file name)")
    c.add_argument("--base", nargs="+", metavar="PATH", help="the baseline group's traces (group 'base')")
    c.add_argument("--head", nargs="+", metavar="PATH", help="a group compared with the baseline (group 'head')")
    c.add_argument("--group", nargs="+", action="append", metavar=("NAME", "PATH"), default=[],
                   help="a group and its traces (repeat for more groups); the first group given is the baseline")
    c.add_argument("--baseline", metavar="NAME", help="the baseline group (default: the first)")
    c.add_argument("--states", metavar="PATH",
                   help="idle-state table: a sysfs cpuidle directory, a `grep .` dump of one, a CSV or a preset "
                        "(state names and the kernel's above/below rule)")
    c.add_argument("--governor", action="append", default=[], metavar="[GROUP=]SPEC",
                   help="replay every trace's idle periods through this governor (menu, teo, teo@6.12); "
                        "GROUP=SPEC names the governor that group's kernel ran, which splits the change in the "
                        "idle-state mix into governor and workload (needs --states)")
    c.add_argument("--comm", action="append", default=[], metavar="NAME",
                   help="a task group by name ('*' matches any run of characters); repeat for more")
    c.add_argument("--pid", action="append", default=[], metavar="PID[,PID...]",
                   help="a task group by pid list; repeat for more")
    c.add_argument("--util-task", action="append", default=[], metavar="COMM|PID",
                   help="replay this task's util_avg and util_est from its sched_switch/sched_wakeup events with "
                        "the kernel's PELT (a task name, or a pid); repeat for more")
    c.add_argument("--hz", type=int, choices=_core.IDLE_HZ, default=None,
                   help="CONFIG_HZ of the traced kernels, for the governor what-if and the PELT replay's tick "
                        "(default 250)")
    c.add_argument("--test", choices=_core.TEST_NAMES, default="welch", help="difference test (default: welch)")
    c.add_argument("--alpha", type=_flags.probability, default=None, help="significance level (default 0.05)")
    c.add_argument("--margin", type=_flags.percentage, default=None, metavar="PCT",
                   help="equivalence margin in percent of the baseline mean (default 2)")
    c.add_argument("--power", type=_flags.probability, default=None,
                   help="power wanted against a change of the margin, for the runs needed (default 0.8)")
    c.add_argument("--fail-on", choices=_core.BATCH_FAIL_ON, default="regression",
                   help="what makes the exit code 1 (default: regression), as schedlab batch")
    c.add_argument("--format", choices=_core.TABLE_FORMATS, default="text", help="output format (default: text)")
    c.add_argument("--jobs", type=_flags.jobs, default=None, metavar="N",
                   help="worker threads (default: SCHEDLAB_NUM_THREADS, else the CPUs)")
    c.add_argument("--strict", action="store_true", help="a malformed line is an error (default: counted, skipped)")
    c.add_argument("-o", "--output", metavar="FILE", help="write the result here instead of stdout")
    c.set_defaults(func=run_compare)


def _groups(args: Namespace) -> list[tuple[str, list[str]]]:
    from ..errors import DomainError

    groups: list[tuple[str, list[str]]] = []
    for path in args.dirs:
        name = os.path.basename(os.path.normpath(path))
        groups.append((name, [path]))
    if args.base:
        groups.append(("base", list(args.base)))
    if args.head:
        groups.append(("head", list(args.head)))
    for g in args.group:
        if len(g) < 2:
            raise DomainError(f"--group {g[0]}: give the group's name and at least one path")
        groups.append((g[0], list(g[1:])))
    names = [n for n, _ in groups]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise DomainError(f"group names must differ: {', '.join(dup)} given twice (use --group NAME PATH...)")
    if len(groups) < 2:
        raise DomainError("give at least two groups: --base PATH... --head PATH..., --group NAME PATH..., "
                          "or one directory or archive per group")
    if args.baseline is not None:
        if args.baseline not in names:
            raise DomainError(f"--baseline {args.baseline}: no such group (groups: {', '.join(names)})")
        groups.sort(key=lambda g: g[0] != args.baseline)
    return groups


def run_compare(args: Namespace) -> int:
    from .. import trace

    groups = _groups(args)
    own: dict[str, str] = {}
    extra: list[str] = []
    names = {n for n, _ in groups}
    for spec in args.governor:
        name, sep, gov = spec.partition("=")
        if sep and name in names:
            own[name] = gov
        else:
            extra.append(spec)
    c = trace.compare(groups, states=args.states, comm=args.comm, pid=args.pid, governors=extra,
                      group_governors=own, test=args.test, alpha=args.alpha, margin=args.margin, power=args.power,
                      hz=args.hz, strict=args.strict, threads=args.jobs, util_tasks=args.util_task)
    out = {"text": c.to_text, "csv": c.to_csv, "json": lambda: c.to_json(indent=1) + "\n",
           "markdown": c.to_markdown, "html": c._repr_html_, "benchstat": c.to_benchstat}[args.format]()
    out = out if out.endswith("\n") else out + "\n"
    if args.output:
        from .._output import write

        write(args.output, out, [p for _, ps in groups for p in ps])
    else:
        sys.stdout.write(out)
    for w in c.meta.get("schedlab.warnings", []):
        print(f"note: {w}", file=sys.stderr)
    return trace.exit_code(c, args.fail_on)

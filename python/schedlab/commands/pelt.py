"""``schedlab pelt``: replay PELT and util_est over a task trace.

``schedlab pelt simulate TRACE.csv`` writes one CSV row per kernel-visible event, with
the same columns and values as the kernel oracle's golden files
(``pelt_<trace>.golden.csv``; ``--init zero`` gives ``.init0.``, ``--no-util-est``
gives ``.noue.``). ``schedlab pelt ftrace TRACE.txt --pid N`` turns ftrace
``sched_switch``/``sched_wakeup`` text into such a trace.
"""

from __future__ import annotations

import sys

from .. import _core, _flags

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import ArgumentParser, Namespace
    from argparse import _SubParsersAction as SubparsersSpec
    from typing import BinaryIO


def register(sub: SubparsersSpec) -> None:
    p = sub.add_parser(
        "pelt",
        help="replay PELT/util_est over a task trace (bit-exact with Linux 6.12)",
        description="Replay the scheduler's PELT and util_est signals with the kernel's integer math.",
    )
    cmds = p.add_subparsers(dest="pelt_command", metavar="SUBCOMMAND")

    s = cmds.add_parser(
        "simulate",
        help="one CSV row per event for a trace",
        description=(
            "Replay TRACE.csv (columns dur_ns,state[,cpu_cap,freq_cap]; states R running, "
            "W runnable but preempted, S sleeping) for one nice-0 task on one CPU and write "
            "one CSV row per kernel-visible event (fork, run, tick, preempt, sleep, wake_pre, "
            "wake, end) to stdout or -o FILE. Use '-' to read the trace from stdin."
        ),
    )
    s.add_argument("trace", metavar="TRACE.csv", help="the task trace ('-' for stdin)")
    s.add_argument("--init", choices=_core.PELT_INITS, default=None,
                   help="new-task utilization: the kernel's post_init value or 0 (default: the trace's own start, "
                        "from its '# pelt:' lines, else the kernel's)")
    s.add_argument("--no-util-est", dest="util_est", action="store_false",
                   help="run with the UTIL_EST scheduler feature off")
    s.add_argument("--kernel", default=None, metavar="VERSION",
                   help="the kernel whose PELT is replayed: " + ", ".join(_core.PELT_KERNELS) + " (the first "
                        "the default unless the trace's '# pelt:' lines name one); 4.19 scales contributions by "
                        "frequency and CPU capacity; sets the util_est rule and execl fix of that kernel")
    s.add_argument("--rule", default=None,
                   help="util_est rule version: " + ", ".join(_core.PELT_RULES) + " (default: the kernel's)")
    fix = s.add_mutually_exclusive_group()
    fix.add_argument("--execl-fix", dest="execl_fix", action="store_true", default=None,
                     help="cpu_util_without/cpu_util_wake subtracts the task's own util_est (c469933e7721)")
    fix.add_argument("--no-execl-fix", dest="execl_fix", action="store_false",
                     default=None, help="cpu_util_without/cpu_util_wake without that fix")
    s.add_argument("--hz", type=_flags.int_in(1, 100_000), default=None,
                   help=f"CONFIG_HZ: the tick period (default {_core.PELT_DEFAULT_HZ})")
    s.add_argument("--start-ns", type=_flags.uint64, default=None,
                   help=f"time of the fork in ns (default: the trace's own, else {_core.PELT_DEFAULT_START_NS}, "
                        "as the golden files)")
    s.add_argument("-o", "--output", metavar="FILE", help="write the CSV to FILE instead of stdout")
    s.add_argument("--max-input-bytes", type=_flags.size, default=256 << 20, metavar="N",
                   help="with '-': refuse a trace on stdin longer than N bytes (default 256 MiB; it is read as a "
                        "stream, not held)")
    s.set_defaults(func=run_simulate)

    f = cmds.add_parser(
        "ftrace",
        help="a task trace CSV from ftrace sched_switch/sched_wakeup text",
        description=(
            "Read ftrace text (the kernel's format or trace-cmd report's) or a trace.dat and write "
            "the R/W/S segments of one pid as a trace CSV for 'schedlab pelt simulate', with "
            "'# pelt:' lines saying where it starts, the kernel its trace.dat names and the start "
            "state the trace gives. Each segment gets the capacity of the CPU the task is on "
            "(--cpu-capacity, --cpu-cap, --plat-info, --sysfs, else 1024) and its frequency "
            "capacity from the trace's cpu_frequency events over the CPU's maximum frequency; "
            "a trace with the task's sched_stat_runtime events (and /proc/PID/sched readings "
            "as proc_sched markers) places it on its PELT clock. Every value assumed is printed "
            "as a note."
        ),
    )
    f.add_argument("ftrace", metavar="TRACE.txt", help="ftrace text output")
    f.add_argument("--pid", type=_flags.pid, required=True, help="the task to extract")
    f.add_argument("--cpu-capacity", metavar="LIST",
                   help="each CPU's capacity: 0=446,1=1024,... or 446,1024,... by CPU (first choice)")
    f.add_argument("--cpu-cap", type=_flags.capacity, default=None,
                   help="one capacity for every CPU without a --cpu-capacity value")
    f.add_argument("--plat-info", metavar="YAML",
                   help="LISA platform-info YAML: cpu-capacities.orig, freq-domains, freqs")
    f.add_argument("--sysfs", metavar="DIR",
                   help="a sysfs CPU directory (/sys/devices/system/cpu): cpuN/cpu_capacity, cpufreq/cpuinfo_max_freq")
    f.add_argument("--max-freq", metavar="LIST",
                   help="each CPU's maximum frequency in kHz (0=850000,1=1100000,...): the frequency capacity's 1024")
    f.add_argument("--freq-cap", type=_flags.capacity, default=None,
                   help="one frequency capacity for every CPU, ignoring the trace's cpu_frequency events")
    f.add_argument("--strict", action="store_true", help="a malformed line is an error (default: skipped, counted)")
    f.add_argument("--sort", action="store_true", help="sort events out of time order (default: an error)")
    f.add_argument("-o", "--output", metavar="FILE", help="write the trace CSV to FILE instead of stdout")
    f.set_defaults(func=run_ftrace)

    p.set_defaults(func=lambda args: _usage(p))


def _usage(p: ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


def _write(data: bytes) -> None:
    out = getattr(sys.stdout, "buffer", None)
    if out is not None:
        sys.stdout.flush()
        out.write(data)
        out.flush()
    else:  # a text-only stdout (e.g. captured)
        sys.stdout.write(data.decode())


def run_simulate(args: Namespace) -> int:
    # schedlab.pelt.simulate_csv's call, made here without importing numpy and pandas:
    # the streamed replay's memory is then the interpreter's and the core's chunks
    opts = _core.PeltOptions(init=args.init, util_est=bool(args.util_est), rule=args.rule, execl_fix=args.execl_fix,
                             hz=args.hz, start_ns=args.start_ns, kernel=args.kernel)
    if args.output is not None:
        from .._output import check_not_input, replacing

        check_not_input(args.output, [args.trace])
        trace = _trace(args)
        with replacing(args.output, [args.trace]) as f:  # streamed to the file
            _core.pelt_simulate_csv(trace, options=opts, name="<stdin>", out=None, write=f.write)
        return 0
    trace = _trace(args)
    out = getattr(sys.stdout, "buffer", None)
    if out is not None:
        sys.stdout.flush()  # streamed: a large trace never sits in memory as CSV
    csv = _core.pelt_simulate_csv(trace, options=opts, name="<stdin>", out=None,
                                  write=out.write if out is not None else None)
    if csv is not None:
        _write(csv)
    if out is not None:
        out.flush()
    return 0


def _trace(args: Namespace) -> str | BinaryIO:
    """The trace argument of simulate_csv: the path, or standard input read as a stream
    (at most --max-input-bytes)."""
    if args.trace != "-":
        return args.trace
    from typing import cast

    from .._input import Bounded

    return cast("BinaryIO", Bounded(args.max_input_bytes))  # the core reads it with read(n) only


def run_ftrace(args: Namespace) -> int:
    from .. import pelt

    kw = dict(cpu_cap=args.cpu_cap, freq_cap=args.freq_cap, strict=args.strict, sort=args.sort,
              cpu_capacity=args.cpu_capacity, max_freq=args.max_freq, plat_info=args.plat_info, sysfs=args.sysfs)
    if args.output:
        from .._output import check_not_input, replacing

        check_not_input(args.output, [args.ftrace])
        with replacing(args.output, [args.ftrace]) as f:
            done = pelt.ftrace_csv(args.ftrace, args.pid, write=f.write, **kw)  # streamed to the file
    else:
        out = getattr(sys.stdout, "buffer", None)
        sys.stdout.flush()
        done = pelt.ftrace_csv(args.ftrace, args.pid, write=out.write if out is not None else _text_write, **kw)
        if out is not None:
            out.flush()
    print(f"pid {args.pid}: {done.segments} segments from {done.events} events, "
          f"starting at {done.start_ns} ns", file=sys.stderr)
    for note in done.notes:
        print(f"note: {note}", file=sys.stderr)
    return 0


def _text_write(data: bytes) -> None:
    """Write bytes to a text-only standard output (e.g. a captured one)."""
    sys.stdout.write(data.decode())

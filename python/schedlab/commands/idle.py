"""``schedlab idle``: replay cpuidle governors (menu, teo) over idle traces.

Subcommands:

- ``simulate``: one governor version over one trace, as CSV with the columns of the
  kernel-oracle golden files (byte-identical to them for the same inputs);
- ``summary``: per-state usage/time/above/below of one or more governors side by side;
- ``presets``: the built-in idle-state tables.
"""

from __future__ import annotations

import sys

from .. import _core, _flags

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import ArgumentParser, Namespace
    from argparse import _SubParsersAction as SubparsersSpec


def register(sub: SubparsersSpec) -> None:
    p = sub.add_parser(
        "idle",
        help="replay cpuidle governors (menu, teo) over idle traces",
        description="Replay the kernel's cpuidle governors (menu of 4.18-6.12, teo of 5.1-6.12) "
        "bit-exactly over idle traces.",
    )
    isub = p.add_subparsers(dest="idle_command", metavar="SUBCOMMAND")

    s = isub.add_parser(
        "simulate",
        help="one governor over one trace, as golden-format CSV",
        description="Replay TRACE (CSV: sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns"
        "[,nr_iowait][,cpu_load]) through a governor and print one CSV row per idle period: the inputs, "
        "the decision (idx, stop_tick), how the period ended and the governor's state.",
    )
    s.add_argument("trace", metavar="TRACE", help="idle trace CSV (or ftrace text with --ftrace)")
    s.add_argument("--governor", required=True, choices=_core.IDLE_GOVERNORS)
    s.add_argument("--kernel", default=_core.IDLE_DEFAULT_KERNEL, choices=_core.IDLE_KERNELS,
                   help="kernel version (default %(default)s)")
    s.add_argument("--hz", type=int, default=_core.IDLE_DEFAULT_HZ, choices=_core.IDLE_HZ,
                   help="CONFIG_HZ (default %(default)s)")
    s.add_argument(
        "--states",
        required=True,
        metavar="STATES",
        help="state table: CSV (name,exit_latency_us,target_residency_us,flags), a sysfs cpuidle "
        "directory or 'grep .' dump, or a preset name (see 'schedlab idle presets')",
    )
    s.add_argument("-o", "--output", metavar="FILE", help="write the CSV to FILE instead of stdout")
    s.add_argument("--ftrace", action="store_true", help="TRACE is ftrace text (trace-cmd report / tracefs)")
    s.add_argument("--cpu", type=_flags.cpu, help="with --ftrace: the CPU to replay (default: the first one)")
    s.add_argument("--strict", action="store_true", help="with --ftrace: a malformed line is an error")
    s.add_argument("--sort", action="store_true", help="with --ftrace: sort events out of time order")
    s.set_defaults(func=run_simulate)

    m = isub.add_parser(
        "summary",
        help="per-state counters of several governors side by side",
        description="Per-state usage, time, above (too deep) and below (too shallow) counts, exit "
        "latency paid and energy (when --power or the state table gives the power per state), for each "
        "governor given.",
    )
    m.add_argument("trace", metavar="TRACE", help="idle trace CSV")
    m.add_argument(
        "--governor",
        action="append",
        required=True,
        metavar="GOV[@KERNEL]",
        help="menu, teo, menu@4.18, teo@5.1 ... (repeat to compare)",
    )
    m.add_argument("--kernel", default=_core.IDLE_DEFAULT_KERNEL, choices=_core.IDLE_KERNELS,
                   help="kernel for governors without @KERNEL")
    m.add_argument("--hz", type=int, default=_core.IDLE_DEFAULT_HZ, choices=_core.IDLE_HZ)
    m.add_argument("--states", required=True, metavar="STATES")
    m.add_argument("--power", metavar="MW,MW,...", help="power per state in mW for an energy estimate")
    m.set_defaults(func=run_summary)

    pr = isub.add_parser("presets", help="list the built-in state tables")
    pr.set_defaults(func=run_presets)
    p.set_defaults(func=lambda args: _usage(p))


def _usage(p: ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


def run_simulate(args: Namespace) -> int:

    if not args.ftrace:
        # streamed: the trace is read, replayed and written as it goes, by the core alone
        # (schedlab.idle.simulate_csv's call, without importing numpy and pandas: the
        # replay's memory is then the interpreter's and the core's chunks)
        kw = dict(governor=args.governor, kernel=args.kernel, hz=args.hz, states=args.states, trace=args.trace)
        if args.output:
            from .._output import replacing

            with replacing(args.output, [args.trace, args.states]) as f:
                _core.idle_simulate_csv(**kw, write=f.write)
            return 0
        sys.stdout.flush()
        _core.idle_simulate_csv(**kw, write=sys.stdout.buffer.write)
        sys.stdout.buffer.flush()
        return 0
    # streamed too: the trace (ftrace text or a trace.dat) is imported, replayed and
    # written as it goes; the import's notes follow the CSV
    kw = dict(governor=args.governor, kernel=args.kernel, hz=args.hz, states=args.states, trace=args.trace,
              cpu=args.cpu, strict=args.strict, sort=args.sort)
    if args.output:
        from .._output import replacing

        with replacing(args.output, [args.trace, args.states]) as f:
            _, notes = _core.idle_simulate_ftrace(**kw, write=f.write)
    else:
        sys.stdout.flush()
        _, notes = _core.idle_simulate_ftrace(**kw, write=sys.stdout.buffer.write)
        sys.stdout.buffer.flush()
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return 0


def run_summary(args: Namespace) -> int:
    from .. import idle
    from ..errors import DomainError

    power = None
    if args.power:
        try:
            power = [float(x) for x in args.power.split(",")]
        except ValueError:
            raise DomainError(f"--power: expected comma-separated numbers, got '{args.power}'") from None
    s = idle.compare_summary(args.governor, args.trace, args.states, hz=args.hz, kernel=args.kernel, power_mw=power)
    # the energy column when there is an estimate: from --power, or the power the state table gives
    if s.xs("energy_uj", axis=1, level=1).isna().all().all():
        s = s.drop(columns="energy_uj", level=1)
    print(s.to_string())
    return 0


def run_presets(args: Namespace) -> int:
    from .. import idle

    for name, desc in idle.presets().itertuples(index=False):
        t = idle.preset(name)
        states = ", ".join(f"{n} {e}/{r}" for n, e, r in zip(t.name, t.exit_latency_us, t.target_residency_us))
        print(f"{name:12} {desc}\n{'':12} {states} (exit latency/target residency, µs)")
    return 0

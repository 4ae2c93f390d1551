"""``schedlab live``: record a task on this machine and compare the replay with the kernel.

``schedlab live run [--keep DIR] [--pid N | -- COMMAND ...]`` records (root, tracefs,
trace-cmd) and checks; ``schedlab live check DIR`` checks a kept recording;
``schedlab live sets OUT --group NAME[:KIND=VALUE,...] ... [--runs N] [-- COMMAND ...]``
records sets of recordings per setting for ``schedlab trace compare``.
"""

from __future__ import annotations

import sys

from .. import _flags

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec


def register(sub: SubparsersSpec) -> None:
    p = sub.add_parser(
        "live",
        help="replay PELT/util_est and menu over a task recorded on this machine and compare with the kernel",
        description="Record a task with tracefs and /proc/PID/sched, replay it, and compare with the kernel's numbers.",
    )
    cmds = p.add_subparsers(dest="live_command", metavar="SUBCOMMAND")
    r = cmds.add_parser("run", help="record (as root) and check",
                        description="Record a workload (built-in periodic pattern, COMMAND, or --pid) and check it.")
    r.add_argument("argv", nargs="*", metavar="COMMAND", help="a command to run instead of the built-in pattern (after --)")
    r.add_argument("--pid", type=_flags.int_in(1, 1 << 22), help="follow this running task instead")
    r.add_argument("--seconds", type=float, default=1.0, help="pattern / --pid duration (default 1)")
    r.add_argument("--busy-ms", type=float, default=3.0, help="pattern: busy time per period (default 3)")
    r.add_argument("--sleep-ms", type=float, default=5.0, help="pattern: sleep per period (default 5)")
    r.add_argument("--cpu", type=_flags.int_in(0, 4095),
                   help="the CPU the task runs on (default: the last CPU a short probe saw trace its idle)")
    r.add_argument("--governor", default="menu", help="cpuidle governor during the run (default menu; restored after)")
    r.add_argument("--keep", metavar="DIR", help="keep the recording in DIR (default: a temporary directory)")
    r.set_defaults(func=run_run)
    from .. import _core

    kinds = ", ".join(_core.LIVE_SETTINGS)
    st = cmds.add_parser(
        "sets", help="record N recordings per group of settings (as root), for 'schedlab trace compare'",
        description="Record --runs recordings of a workload per --group, the groups in turn, each trace "
                    "bracketed by every CPU's cpuidle counters; one directory per group (docs/live.md §8).")
    st.add_argument("out", metavar="OUT", help="the directory written: OUT/sets.json, OUT/GROUP/run-NN.*")
    st.add_argument("argv", nargs="*", metavar="COMMAND", help="a command to run in each recording (after --)")
    st.add_argument("--group", action="append", required=True, metavar="NAME[:KIND=VALUE,...]",
                    help=f"a group and its settings (kinds: {kinds}); repeat for each group; "
                         "NAME alone leaves the machine as it is")
    st.add_argument("--runs", type=_flags.int_in(1, 1000), default=5, help="recordings per group (default 5)")
    st.add_argument("--seconds", type=float, default=1.0, help="pattern duration per recording (default 1)")
    st.add_argument("--busy-ms", type=float, default=3.0, help="pattern: busy time per period (default 3)")
    st.add_argument("--sleep-ms", type=float, default=5.0, help="pattern: sleep per period (default 5)")
    st.add_argument("--buffer-kb", type=_flags.int_in(64, 1 << 20), default=4096,
                    help="trace buffer per CPU, kB (default 4096)")
    st.set_defaults(func=run_sets)
    c = cmds.add_parser("check", help="check a kept recording", description="Replay a recording made by 'live run --keep'.")
    c.add_argument("directory", metavar="DIR")
    c.set_defaults(func=run_check)
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])


def run_run(args: Namespace) -> int:
    import tempfile

    from .. import live

    tmp = None
    out = args.keep
    if out is None:
        tmp = tempfile.TemporaryDirectory(prefix="schedlab-live-")
        out = tmp.name
    try:
        live.record(out, command=args.argv or None, pid=args.pid, seconds=args.seconds, busy_ms=args.busy_ms,
                    sleep_ms=args.sleep_ms, cpu=args.cpu, governor=args.governor or None)
        sys.stdout.write(live.render(live.check(out)))
    finally:
        if tmp is not None:
            tmp.cleanup()
    return 0


def run_sets(args: Namespace) -> int:
    from .. import live

    meta = live.record_sets(args.out, args.group, runs=args.runs, command=args.argv or None, seconds=args.seconds,
                            busy_ms=args.busy_ms, sleep_ms=args.sleep_ms, buffer_kb=args.buffer_kb)
    sys.stdout.write(f"{len(meta['order'])} recordings in {args.out}: groups "
                     f"{', '.join(name for name, _ in meta['groups'])}\n")
    return 0


def run_check(args: Namespace) -> int:
    from .. import live

    sys.stdout.write(live.render(live.check(args.directory)))
    return 0

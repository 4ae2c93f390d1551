"""The live check: record a task on this machine and compare schedlab's replay with the kernel.

:func:`record` runs a workload (a built-in periodic pattern or a command) or follows a
running pid on one CPU, with a private tracefs instance recording the events a replay
needs and a sampler on another CPU reading ``/proc/PID/sched`` as fast as it can.
:func:`check` replays the recording: PELT util_avg and util_est against every reading
(the kernel's own numbers), and the menu governor's state choices against the kernel's
``cpu_idle`` events. Every system setting changed (the instance, the cpuidle governor,
a tracefs mount) is restored on exit, also on error. docs/live.md explains what the
kernel exposes and what each figure is bounded by.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from . import _core

#: The events recorded (docs/live.md §1).
EVENTS: tuple[str, ...] = tuple(_core.LIVE_EVENTS)
#: The setting kinds a recording set's groups may change (docs/live.md §8).
SETTINGS: tuple[str, ...] = tuple(_core.LIVE_SETTINGS)
#: The events each recording of a set enables (docs/live.md §8).
SET_EVENTS: tuple[str, ...] = tuple(_core.LIVE_SET_EVENTS)
#: What :func:`record` and :func:`record_sets` do when not told (seconds, busy_ms,
#: sleep_ms, governor, buffer_kb, sample_us, runs), as the core defines them.
RECORD_DEFAULTS = _core.LIVE_RECORD_DEFAULTS
_D = RECORD_DEFAULTS


#: What :func:`check` returns: the core's live check itself (``_core.LiveCheck``), read
#: as a mapping of its sections ``"meta"``, ``"pelt"``, ``"columns"``, ``"notes"``,
#: ``"idle"``; Jupyter shows it as a table of the agreement figures (``_repr_html_``,
#: src/live/html.rs) and ``repr()`` as one line (src/live/text.rs).
#: ``LiveCheck(check, meta={...})`` is a copy with sections replaced.
#:
#: >>> from schedlab import live
#: >>> r = live.check("tests/data/live/periodic-a")  # doctest: +SKIP
#: >>> r  # doctest: +SKIP
#: <LiveCheck pid 12554 on CPU 1: util_avg within ±1 183/183, util_est exact 183/183, 0 idle periods>
LiveCheck = _core.LiveCheck
Mapping.register(LiveCheck)


def probe_idle_tracing(seconds: float = _core.LIVE_PROBE_SECONDS) -> dict[int, tuple[int, int]]:
    """Which CPUs' idle tasks emit ``cpu_idle`` events: a private tracefs instance records
    only that event for ``seconds`` while this process sleeps. Returns, per CPU, (the
    ``cpu_idle`` records, the cpuidle sysfs entries meanwhile); a CPU whose sysfs counted
    entries with no record does not trace its idle (CPU 1 of the Firecracker VM in
    docs/live.md §5). The instance is removed after, also on error. Needs root (computed
    by the core: src/live/probe.rs).

    >>> from schedlab import live
    >>> live.probe_idle_tracing(0.1)  # doctest: +SKIP
    {0: (24, 12), 1: (0, 40)}
    """
    return _core.live_probe_idle_tracing(seconds)


def default_cpu(probe: dict[int, tuple[int, int]]) -> int:
    """The CPU :func:`record` uses when none is given, from :func:`probe_idle_tracing`'s
    counts: the last CPU whose idle was traced, else the last CPU not seen idling
    untraced, else the last CPU (src/live/probe.rs).

    >>> from schedlab import live
    >>> live.default_cpu({0: (24, 12), 1: (0, 40)})
    0
    """
    return _core.live_default_cpu(probe)


def record(
    out: str | os.PathLike[str],
    *,
    command: Sequence[str] | None = None,
    pid: int | None = None,
    seconds: float = _D.seconds,
    busy_ms: float = _D.busy_ms,
    sleep_ms: float = _D.sleep_ms,
    cpu: int | None = None,
    governor: str | None = _D.governor,
    buffer_kb: int = _D.buffer_kb,
    sample_us: float = _D.sample_us,
) -> dict[str, Any]:
    """Record a task into directory ``out``: ``trace.dat`` (kallsyms cut to the timer
    functions), ``sched.txt`` (the ``/proc/PID/sched`` readings), ``states.txt`` (the
    CPU's cpuidle sysfs before the run, with usage counters), ``states-after.txt`` and
    ``meta.json``. Returns the metadata.

    The task is the built-in periodic pattern (busy ``busy_ms``, sleep ``sleep_ms``, for
    ``seconds``), ``command`` (run until it exits), or the running ``pid`` (followed for
    ``seconds``; it should be pinned to one CPU). ``cpu`` is the CPU it runs on (default
    :func:`default_cpu` of a :func:`probe_idle_tracing`: the last CPU whose idle is
    traced); ``governor`` the cpuidle governor used meanwhile (``None``: leave it);
    ``sample_us`` the sampler's sleep between two readings (it runs SCHED_FIFO).
    Needs root, tracefs and trace-cmd. Every setting changed is restored on return,
    error, Ctrl-C or SIGTERM (both raise KeyboardInterrupt). Recorded by the core
    (src/live/record.rs); its notes (a CPU chosen, a pid allowed on several CPUs) go to
    standard error.

    >>> from schedlab import live
    >>> meta = live.record("/tmp/rec", seconds=0.3, cpu=0)  # doctest: +SKIP
    >>> meta["cpu"], meta["governor"], meta["readings"] > 0  # doctest: +SKIP
    (0, 'menu', True)
    """
    meta, notes = _core.live_record(
        out, sys.executable, command=list(command) if command is not None else None, pid=pid, seconds=seconds,
        busy_ms=busy_ms, sleep_ms=sleep_ms, cpu=cpu, governor=governor, buffer_kb=buffer_kb, sample_us=sample_us)
    for n in notes:
        print(f"note: {n}", file=sys.stderr)
    return meta


def record_sets(
    out: str | os.PathLike[str],
    groups: Sequence[str] | Mapping[str, Mapping[str, object]],
    *,
    runs: int = _D.runs,
    command: Sequence[str] | None = None,
    seconds: float = _D.seconds,
    busy_ms: float = _D.busy_ms,
    sleep_ms: float = _D.sleep_ms,
    buffer_kb: int = _D.buffer_kb,
) -> dict[str, Any]:
    """Record ``runs`` recordings per group of settings into ``out``, the groups taken in
    turn, for ``schedlab trace compare`` to read as one group per directory.

    ``groups`` maps a group's name to its settings, ``{kind: value}`` with kinds
    :data:`SETTINGS` (``governor``: a cpuidle governor; ``latency-us``: a request held
    on ``/dev/cpu_dma_latency``; ``disable-state``: an idle state disabled on every
    CPU); an empty mapping is the machine as it is. The command line's
    ``"NAME:KIND=VALUE,..."`` strings are accepted too. Each recording runs ``command``
    (to its end) or the built-in periodic pattern (busy ``busy_ms``, sleep
    ``sleep_ms``, for ``seconds``), traces every CPU (events :data:`SET_EVENTS`) and
    reads every CPU's cpuidle counters exactly at the trace's bounds, from that CPU.
    Writes ``out/sets.json`` and per group ``out/NAME/run-NN.dat``,
    ``run-NN.sysfs-before.txt``, ``run-NN.sysfs-after.txt``, ``run-NN.sysfs-delta.csv``,
    ``run-NN.json`` and ``states-cpuN.txt`` (docs/live.md §8). Every setting is
    restored after each recording, also on error, Ctrl-C or SIGTERM. Needs root,
    tracefs and trace-cmd. Returns ``sets.json``'s content; notes (lost events) go to
    standard error.

    >>> from schedlab import live
    >>> live.record_sets("/tmp/sets", {"base": {}, "lat0": {"latency-us": 0}},
    ...                  runs=5, seconds=0.5)  # doctest: +SKIP
    >>> sorted(os.listdir("/tmp/sets/lat0"))[:2]  # doctest: +SKIP
    ['run-01.dat', 'run-01.json']
    """
    items: list[str | tuple[str, list[tuple[str, str]]]]
    if isinstance(groups, Mapping):
        items = [(name, [(k, str(v)) for k, v in settings.items()]) for name, settings in groups.items()]
    else:
        items = list(groups)
    meta, notes = _core.live_record_sets(
        out, sys.executable, items, runs=runs, command=list(command) if command is not None else None,
        seconds=seconds, busy_ms=busy_ms, sleep_ms=sleep_ms, buffer_kb=buffer_kb)
    for n in notes:
        print(f"note: {n}", file=sys.stderr)
    return meta


def check(directory: str | os.PathLike[str], *, pid: int | None = None, rule: str = _core.PELT_DEFAULT_RULE,
          kernel: str = _core.IDLE_DEFAULT_KERNEL) -> LiveCheck:
    """Replay a :func:`record` directory: PELT/util_est against the ``/proc/PID/sched``
    readings (``"pelt"``: counts and per-reading ``"columns"``) and the cpuidle governor
    that ran against the kernel's ``cpu_idle`` choices and tick stops on the task's CPU
    (``"idle"``). ``rule`` is the util_est rule and ``kernel`` the governor version
    replayed. The trace is ``trace.dat`` when kept, else ``report.txt`` (computed by the
    core: src/live/check.rs).

    >>> from schedlab import live
    >>> r = live.check("tests/data/live/periodic-b")
    >>> r["pelt"]["util_within_1"], r["pelt"]["readings"], r["idle"]["periods"]
    (68, 68, 0)
    """
    return _core.live_check(directory, pid=pid, rule=rule, kernel=kernel)


def render(result: LiveCheck | Mapping[str, Any]) -> str:
    """The check as the text ``schedlab live`` prints (rendered by the core,
    src/live/text.rs).

    >>> from schedlab import live
    >>> print(live.render(live.check("tests/data/live/periodic-b")).splitlines()[2])
    util_est exact: 68/68 (100.0%)
    """
    return (result if isinstance(result, LiveCheck) else LiveCheck(result)).to_text()

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

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import _core

TRACEFS = "/sys/kernel/tracing"
CPUIDLE = "/sys/devices/system/cpu/cpuidle"
#: The events recorded (docs/live.md §1).
EVENTS = (
    "sched/sched_switch", "sched/sched_wakeup", "sched/sched_wakeup_new", "sched/sched_migrate_task",
    "sched/sched_stat_runtime", "power/cpu_idle", "timer/hrtimer_start", "timer/hrtimer_cancel",
    "timer/hrtimer_expire_entry", "timer/tick_stop", "timer/timer_start", "timer/timer_cancel",
    "timer/timer_expire_entry",
)
_PERIODIC = (
    "import sys, time\n"
    "sys.stdin.read(1)\n"
    "end = time.monotonic() + {seconds}\n"
    "while time.monotonic() < end:\n"
    "    t = time.perf_counter()\n"
    "    while time.perf_counter() - t < {busy}: pass\n"
    "    time.sleep({sleep})\n"
)
_EXEC = "import os, sys\nsys.stdin.read(1)\nos.execvp(sys.argv[1], sys.argv[1:])\n"


def _write(path: str, value: object) -> None:
    with open(path, "w") as f:
        f.write(str(value))


def _read(path: str) -> str:
    with open(path) as f:
        return f.read().strip()


def _sysfs_states(cpu: int) -> str:
    base = f"/sys/devices/system/cpu/cpu{cpu}/cpuidle"
    lines = []
    if os.path.isdir(base):
        for st in sorted(d for d in os.listdir(base) if d.startswith("state")):
            for f in ("name", "latency", "residency", "disable", "usage", "time"):
                p = os.path.join(base, st, f)
                if os.path.exists(p):
                    lines.append(f"{p}:{_read(p)}")
    return "\n".join(lines) + "\n"


class LiveCheck(dict[str, Any]):
    """What :func:`check` returns: a dict (``"meta"``, ``"pelt"``, ``"columns"``,
    ``"notes"``, ``"idle"``) that Jupyter shows as a table of the agreement figures
    (``_repr_html_``, rendered by the core: src/live/html.rs) and ``repr()`` as one
    line.

    >>> from schedlab import live
    >>> r = live.check("tests/data/live/periodic-a")  # doctest: +SKIP
    >>> r  # doctest: +SKIP
    <LiveCheck pid 12554 on CPU 1: util_avg within ±1 183/183, util_est exact 183/183, 0 idle periods>
    """

    def __repr__(self) -> str:
        m, p, i = self["meta"], self["pelt"], self["idle"]
        n = p["readings"]
        return (f"<LiveCheck pid {m['pid']} on CPU {m['cpu']}: util_avg within ±1 {p['util_within_1']}/{n},"
                f" util_est exact {p['util_est_exact']}/{n}, {i['periods']} idle periods>")

    def _repr_html_(self) -> str:
        return _core.live_check_html(self)


def _idle_usage(cpu: int) -> int:
    """The CPU's cpuidle sysfs usage counters summed (0 without cpuidle)."""
    base = f"/sys/devices/system/cpu/cpu{cpu}/cpuidle"
    if not os.path.isdir(base):
        return 0
    return sum(int(_read(os.path.join(base, st, "usage"))) for st in os.listdir(base)
               if st.startswith("state") and os.path.exists(os.path.join(base, st, "usage")))


def probe_idle_tracing(seconds: float = 0.2) -> dict[int, tuple[int, int]]:
    """Which CPUs' idle tasks emit ``cpu_idle`` events: a private tracefs instance records
    only that event for ``seconds`` while this process sleeps. Returns, per CPU, (the
    ``cpu_idle`` records, the cpuidle sysfs entries meanwhile); a CPU whose sysfs counted
    entries with no record does not trace its idle (CPU 1 of the Firecracker VM in
    docs/live.md §5). The instance is removed after, also on error. Needs root.

    >>> from schedlab import live
    >>> live.probe_idle_tracing(0.1)  # doctest: +SKIP
    {0: (24, 12), 1: (0, 40)}
    """
    ncpu = os.cpu_count() or 1
    inst = os.path.join(TRACEFS, "instances", f"schedlab-probe-{os.getpid()}")
    os.mkdir(inst)
    try:
        _write(os.path.join(inst, "events", "power", "cpu_idle", "enable"), 1)
        before = [_idle_usage(c) for c in range(ncpu)]
        _write(os.path.join(inst, "tracing_on"), 1)
        time.sleep(seconds)
        _write(os.path.join(inst, "tracing_on"), 0)
        after = [_idle_usage(c) for c in range(ncpu)]
        out = {}
        for c in range(ncpu):
            stats = _read(os.path.join(inst, "per_cpu", f"cpu{c}", "stats"))
            entries = next((int(ln.split(":")[1]) for ln in stats.splitlines() if ln.startswith("entries:")), 0)
            out[c] = (entries, after[c] - before[c])
        return out
    finally:
        os.rmdir(inst)


def default_cpu(probe: dict[int, tuple[int, int]]) -> int:
    """The CPU :func:`record` uses when none is given, from :func:`probe_idle_tracing`'s
    counts: the last CPU whose idle was traced, else the last CPU not seen idling
    untraced, else the last CPU.

    >>> from schedlab import live
    >>> live.default_cpu({0: (24, 12), 1: (0, 40)})
    0
    """
    last = max(probe)
    traced = [c for c, (rec, _) in probe.items() if rec > 0]
    if traced:
        return max(traced)
    unknown = [c for c, (rec, ent) in probe.items() if ent == 0]
    return max(unknown) if unknown else last


@dataclass
class _Restore:
    """What :func:`record` changed, undone in reverse order."""

    undo: list[Any] = field(default_factory=list)

    def run(self) -> None:
        while self.undo:
            try:
                self.undo.pop()()
            except OSError:
                pass


def record(
    out: str | os.PathLike[str],
    *,
    command: Sequence[str] | None = None,
    pid: int | None = None,
    seconds: float = 1.0,
    busy_ms: float = 3.0,
    sleep_ms: float = 5.0,
    cpu: int | None = None,
    governor: str | None = "menu",
    buffer_kb: int = 4096,
    sample_us: float = 100.0,
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
    Needs root, tracefs and trace-cmd.
    """
    if os.geteuid() != 0:
        raise PermissionError("the live check needs root (tracefs, /proc/PID/sched of other tasks)")
    if shutil.which("trace-cmd") is None:
        raise FileNotFoundError("trace-cmd is not installed (it extracts the trace from the tracefs instance)")
    out = os.fspath(out)
    os.makedirs(out, exist_ok=True)
    ncpu = os.cpu_count() or 1
    undo = _Restore()
    proc: subprocess.Popen[bytes] | None = None
    try:
        if threading.current_thread() is threading.main_thread():
            # a SIGTERM restores the settings as Ctrl-C does
            old_term = signal.signal(signal.SIGTERM, _interrupt)
            undo.undo.append(lambda: signal.signal(signal.SIGTERM, old_term))
        if not os.path.exists(os.path.join(TRACEFS, "instances")):
            subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS], check=True)
            undo.undo.append(lambda: subprocess.run(["umount", TRACEFS], check=False))
        if pid is not None:
            allowed = os.sched_getaffinity(pid)
            cpu = min(allowed) if cpu is None else cpu
            if len(allowed) != 1:
                print(f"note: pid {pid} may run on CPUs {sorted(allowed)}; only CPU {cpu} is traced", file=sys.stderr)
        if cpu is None:
            probe = probe_idle_tracing()
            cpu = default_cpu(probe)
            if probe[cpu][0] == 0:
                print(f"note: no CPU traced an idle period during the probe (cpu_idle records, sysfs entries"
                      f" per CPU: {probe}); recording on CPU {cpu}", file=sys.stderr)
        others = {c for c in range(ncpu) if c != cpu} or {cpu}
        old_affinity = os.sched_getaffinity(0)
        os.sched_setaffinity(0, others)
        undo.undo.append(lambda: os.sched_setaffinity(0, old_affinity))
        # the sampler must keep up on a busy machine: SCHED_FIFO while it reads (it
        # sleeps between readings, leaving its CPU to others), a reading per update
        old_nice = os.getpriority(os.PRIO_PROCESS, 0)
        old_policy, old_param = os.sched_getscheduler(0), os.sched_getparam(0)
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        undo.undo.append(lambda: os.sched_setscheduler(0, old_policy, old_param))
        gov_file = os.path.join(CPUIDLE, "current_governor")
        used_governor = _read(os.path.join(CPUIDLE, "current_governor_ro")) if os.path.exists(
            os.path.join(CPUIDLE, "current_governor_ro")) else None
        avail: list[str] = []
        if governor and os.path.exists(gov_file):
            avail = _read(os.path.join(CPUIDLE, "available_governors")).split()
            if governor not in avail:
                raise ValueError(f"cpuidle governor {governor!r} is not available here ({' '.join(avail)})")
            old_gov = _read(gov_file)
            undo.undo.append(lambda: _write(gov_file, old_gov))
        elif os.path.exists(gov_file):
            used_governor = _read(gov_file)
        name = f"schedlab-live-{os.getpid()}"
        inst = os.path.join(TRACEFS, "instances", name)
        os.mkdir(inst)
        def remove_instance() -> None:
            if os.path.isdir(inst):  # trace-cmd extract -B may have removed it
                os.rmdir(inst)

        undo.undo.append(remove_instance)
        _write(os.path.join(inst, "buffer_size_kb"), buffer_kb)
        _write(os.path.join(inst, "trace_clock"), "local")
        _write(os.path.join(inst, "tracing_cpumask"), f"{1 << cpu:x}")
        pin = {cpu}
        if pid is None:
            if command:
                argv = [sys.executable, "-c", _EXEC, *command]
            else:
                code = _PERIODIC.format(seconds=float(seconds), busy=busy_ms / 1000, sleep=sleep_ms / 1000)
                argv = [sys.executable, "-c", code]
            def child() -> None:
                os.sched_setaffinity(0, pin)
                os.sched_setscheduler(0, old_policy, old_param)
                os.setpriority(os.PRIO_PROCESS, 0, old_nice)

            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, preexec_fn=child)
            pid = proc.pid
        filters = {
            "sched/sched_switch": f"prev_pid == {pid} || next_pid == {pid}",
            "sched/sched_wakeup": f"pid == {pid}",
            "sched/sched_wakeup_new": f"pid == {pid}",
            "sched/sched_migrate_task": f"pid == {pid}",
            "sched/sched_stat_runtime": f"pid == {pid}",
        }
        for e in EVENTS:
            d = os.path.join(inst, "events", e)
            if not os.path.isdir(d):
                continue
            if e in filters:
                _write(os.path.join(d, "filter"), filters[e])
            _write(os.path.join(d, "enable"), 1)
        states_before = _sysfs_states(cpu)
        path = f"/proc/{pid}/sched"
        readings: list[str] = []
        last = None
        prev: list[str] = []
        prev_t = 0
        if governor and avail:
            # switching governors resets the new one's state (menu_enable_device): the
            # replay starts from the same empty history, so the switch is made just
            # before tracing starts (through another governor if it is already in use)
            if _read(gov_file) == governor:
                _write(gov_file, next(g for g in avail if g != governor) if len(avail) > 1 else governor)
            _write(gov_file, governor)
            used_governor = governor
        _write(os.path.join(inst, "tracing_on"), 1)
        if proc is not None and proc.stdin is not None:
            proc.stdin.write(b"g")
            proc.stdin.close()
        end = time.monotonic() + seconds
        while True:
            if proc is not None:
                if proc.poll() is not None:
                    break
            elif time.monotonic() >= end:
                break
            try:
                with open(path) as f:
                    text = f.read()
            except OSError:
                break
            t = time.monotonic_ns()
            # the file is printed field by field while the task runs: a reading is kept
            # only when the next one has the same se.* fields (no update tore it; other
            # lines, e.g. schedstats' clock-delta, change at every read)
            se = [ln for ln in text.splitlines() if ln.startswith("se.")]
            if se == prev:
                key = next((ln for ln in se if ln.startswith("se.avg.last_update_time")), None)
                if key != last:
                    last = key
                    readings.append(f"# t_mono_ns={prev_t}\n{text}")
            prev, prev_t = se, t
            time.sleep(sample_us / 1e6)
        _write(os.path.join(inst, "tracing_on"), 0)
        os.sched_setscheduler(0, old_policy, old_param)
        states_after = _sysfs_states(cpu)
        _extract(name, os.path.join(out, "trace.dat"))
        with open(os.path.join(out, "sched.txt"), "w") as f:
            # each reading's header and se.* lines, as printed (the rest is not compared)
            f.writelines(ln + "\n" for r in readings for ln in r.splitlines()
                         if ln.startswith(("# t_mono_ns=", "se.")) or " #threads: " in ln)
        with open(os.path.join(out, "states.txt"), "w") as f:
            f.write(states_before)
        with open(os.path.join(out, "states-after.txt"), "w") as f:
            f.write(states_after)
        meta = {"pid": pid, "cpu": cpu, "governor": used_governor, "kernel": os.uname().release,
                "available_governors": avail, "cpuidle_driver": _cpuidle_driver(),
                "hz": _config_hz(), "readings": len(readings), "command": list(command) if command else None}
        with open(os.path.join(out, "meta.json"), "w") as f:
            json.dump(meta, f, indent=1)
        return meta
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        undo.run()


def _extract(instance: str, dat: str) -> None:
    """``trace-cmd extract`` of the instance into ``dat``, with ``/proc/kallsyms`` cut to the
    tick, timer and wakeup functions (the callbacks the importers name; 80 kB instead of
    5 MB) through a bind mount in a private mount namespace, which changes nothing
    outside it; the whole kallsyms when ``unshare`` is not available."""
    import tempfile

    argv = ["trace-cmd", "extract", "-B", instance, "-o", dat]
    with tempfile.NamedTemporaryFile("w", prefix="schedlab-kallsyms-", suffix=".txt") as ks:
        with open("/proc/kallsyms") as f:
            ks.writelines(ln for ln in f if ln[16:19] in (" t ", " T ") and any(
                w in ln for w in ("tick", "timer", "wakeup")))
        ks.flush()
        script = 'mount --bind "$1" /proc/kallsyms && shift && exec "$@"'
        r = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", ks.name,
                            *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False) if shutil.which(
            "unshare") else None
    if r is None or r.returncode != 0 or not os.path.exists(dat):
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _cpuidle_driver() -> str | None:
    p = os.path.join(CPUIDLE, "current_driver")
    return _read(p) if os.path.exists(p) else None


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _config_hz() -> int:
    """CONFIG_HZ of the running kernel (from /proc/config.gz or /boot/config-*), 250 if unknown."""
    import gzip

    for p in ("/proc/config.gz", f"/boot/config-{os.uname().release}"):
        try:
            text = gzip.open(p, "rt").read() if p.endswith(".gz") else open(p).read()
        except OSError:
            continue
        for ln in text.splitlines():
            if ln.startswith("CONFIG_HZ="):
                return int(ln.split("=", 1)[1])
    return 250


def check(directory: str | os.PathLike[str], *, pid: int | None = None, rule: str = "6.12",
          kernel: str = "6.12") -> LiveCheck:
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
    return LiveCheck(_core.live_check(directory, pid, rule, kernel))


def render(result: dict[str, Any]) -> str:
    """The check as the text ``schedlab live`` prints (rendered by the core,
    src/live/text.rs).

    >>> from schedlab import live
    >>> print(live.render(live.check("tests/data/live/periodic-b")).splitlines()[2])
    util_est exact: 68/68 (100.0%)
    """
    return _core.live_check_text(result)

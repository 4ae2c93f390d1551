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
import subprocess
import sys
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
    "timer/hrtimer_expire_entry", "timer/tick_stop",
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
) -> dict[str, Any]:
    """Record a task into directory ``out``: ``report.txt`` (``trace-cmd report -t``),
    ``trace.dat``, ``sched.txt`` (the ``/proc/PID/sched`` readings), ``states.txt`` (the
    CPU's cpuidle sysfs before the run, with usage counters), ``states-after.txt`` and
    ``meta.json``. Returns the metadata.

    The task is the built-in periodic pattern (busy ``busy_ms``, sleep ``sleep_ms``, for
    ``seconds``), ``command`` (run until it exits), or the running ``pid`` (followed for
    ``seconds``; it should be pinned to one CPU). ``cpu`` is the CPU it runs on (default
    the last); ``governor`` the cpuidle governor used meanwhile (``None``: leave it).
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
        if not os.path.exists(os.path.join(TRACEFS, "instances")):
            subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS], check=True)
            undo.undo.append(lambda: subprocess.run(["umount", TRACEFS], check=False))
        if pid is not None:
            allowed = os.sched_getaffinity(pid)
            cpu = min(allowed) if cpu is None else cpu
            if len(allowed) != 1:
                print(f"note: pid {pid} may run on CPUs {sorted(allowed)}; only CPU {cpu} is traced", file=sys.stderr)
        cpu = (ncpu - 1) if cpu is None else cpu
        others = {c for c in range(ncpu) if c != cpu} or {cpu}
        old_affinity = os.sched_getaffinity(0)
        os.sched_setaffinity(0, others)
        undo.undo.append(lambda: os.sched_setaffinity(0, old_affinity))
        # the sampler must keep up on a busy machine: nice -20 while it reads
        old_nice = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, 0, -20)
        undo.undo.append(lambda: os.setpriority(os.PRIO_PROCESS, 0, old_nice))
        gov_file = os.path.join(CPUIDLE, "current_governor")
        used_governor = _read(os.path.join(CPUIDLE, "current_governor_ro")) if os.path.exists(
            os.path.join(CPUIDLE, "current_governor_ro")) else None
        if governor and os.path.exists(gov_file):
            old = _read(gov_file)
            avail = _read(os.path.join(CPUIDLE, "available_governors")).split()
            if governor not in avail:
                raise ValueError(f"cpuidle governor {governor!r} is not available here ({' '.join(avail)})")
            if old != governor:
                _write(gov_file, governor)
                undo.undo.append(lambda: _write(gov_file, old))
            used_governor = governor
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
            key = next((ln for ln in text.splitlines() if ln.startswith("se.avg.last_update_time")), None)
            if key != last:
                last = key
                readings.append(f"# t_mono_ns={t}\n{text}")
        _write(os.path.join(inst, "tracing_on"), 0)
        states_after = _sysfs_states(cpu)
        dat = os.path.join(out, "trace.dat")
        subprocess.run(["trace-cmd", "extract", "-B", name, "-o", dat], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(out, "report.txt"), "w") as f:
            subprocess.run(["trace-cmd", "report", "-t", "-i", dat], check=True, stdout=f, stderr=subprocess.DEVNULL)
        with open(os.path.join(out, "sched.txt"), "w") as f:
            f.write("".join(readings))
        with open(os.path.join(out, "states.txt"), "w") as f:
            f.write(states_before)
        with open(os.path.join(out, "states-after.txt"), "w") as f:
            f.write(states_after)
        meta = {"pid": pid, "cpu": cpu, "governor": used_governor, "kernel": os.uname().release,
                "hz": _config_hz(), "readings": len(readings), "command": list(command) if command else None}
        with open(os.path.join(out, "meta.json"), "w") as f:
            json.dump(meta, f, indent=1)
        return meta
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        undo.run()


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
          kernel: str = "6.12") -> dict[str, Any]:
    """Replay a :func:`record` directory: PELT/util_est against the ``/proc/PID/sched``
    readings (``"pelt"``: counts and per-reading ``"columns"``) and menu against the
    kernel's ``cpu_idle`` choices on the task's CPU (``"menu"``). ``rule`` is the
    util_est rule and ``kernel`` the menu version replayed."""
    d = os.fspath(directory)
    meta = json.load(open(os.path.join(d, "meta.json")))
    pid = int(meta["pid"] if pid is None else pid)
    summary, columns, notes = _core.live_pelt_check(os.path.join(d, "report.txt"), os.path.join(d, "sched.txt"),
                                                    pid, rule)
    return {"meta": meta, "pelt": dict(summary), "columns": dict(columns), "notes": list(notes),
            "menu": _menu_check(d, int(meta["cpu"]), int(meta.get("hz") or 250), kernel, meta.get("governor"))}


def _menu_check(d: str, cpu: int, hz: int, kernel: str, governor: str | None) -> dict[str, Any]:
    from . import idle

    with open(os.path.join(d, "report.txt"), "rb") as f:
        has_idle = b" cpu_idle:" in f.read()
    traces = idle.read_ftrace(os.path.join(d, "report.txt"), hz=hz) if has_idle else {}
    usage: dict[str, list[int]] = {}
    for name in ("states.txt", "states-after.txt"):
        if not os.path.exists(os.path.join(d, name)):
            continue
        for ln in open(os.path.join(d, name)):
            if "/usage:" in ln:
                st = ln.split("/")[-2]
                usage.setdefault(st, []).append(int(ln.rsplit(":", 1)[1]))
    entered = sum(v[-1] - v[0] for v in usage.values() if len(v) == 2)
    out: dict[str, Any] = {"governor": governor, "cpu": cpu, "sysfs_entries": entered}
    t = traces.get(cpu)
    if t is None or len(t) == 0:
        out.update(periods=0, agree=0)
        return out
    states = idle.parse_sysfs(open(os.path.join(d, "states.txt")).read(), os.path.join(d, "states.txt"))
    r = idle.simulate("menu", t, states, kernel=kernel, hz=hz)
    agree = int((r["idx"].to_numpy() == t["actual_state"].to_numpy()).sum())
    out.update(periods=int(len(t)), agree=agree, stats=dict(t.attrs.get("stats", {})),
               replay_stop_tick=int(r["stop_tick"].sum()), notes=list(t.attrs.get("notes", [])))
    return out


def _pct(a: int, n: int) -> str:
    return f"{a}/{n} ({100.0 * a / n:.1f}%)" if n else "0/0"


def render(result: dict[str, Any]) -> str:
    """The check as the text ``schedlab live`` prints."""
    m, p, i = result["meta"], result["pelt"], result["menu"]
    n = p["readings"]
    lines = [
        f"live check: pid {m['pid']} on CPU {m['cpu']}, Linux {m['kernel']}, HZ={m.get('hz')}",
        f"PELT util_avg within ±1 of the kernel's: {_pct(p['util_within_1'], n)}; exact {_pct(p['util_exact'], n)};"
        f" max |error| {p['util_max_error']}",
        f"util_est exact: {_pct(p['util_est_exact'], n)}",
        f"  readings compared: {n} distinct last_update_time after the starting one"
        f" (start {p['start_last_update_time']}); update points {p['points']}: runs {p['runs']}"
        f" (anchored exactly {p['anchored_runs']}, switch-in missing {p['repaired_runs']}),"
        f" ticks {p['tick_points']}, seen only in /proc {p['seen_only_points']}",
    ]
    if i["periods"]:
        lines.append(f"menu ({i['governor']} ran): state choices {_pct(i['agree'], i['periods'])} of the idle periods"
                     f" traced on CPU {i['cpu']} (sysfs counted {i['sysfs_entries']} entries)")
        lines.append("tick stop: not compared per period; tick_nohz_next_event's inputs (RCU, irq_work, timer-wheel"
                     f" timers) are not in the trace (the replay stopped the tick in {i['replay_stop_tick']} periods)")
    else:
        lines.append(f"menu: no idle period traced on CPU {i['cpu']} (the CPU never idled: sysfs counted"
                     f" {i['sysfs_entries']} entries)")
    lines.extend(f"note: {x}" for x in result["notes"])
    return "\n".join(lines) + "\n"

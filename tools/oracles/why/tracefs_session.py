"""A tracefs recording bracketed exactly by the cpuidle sysfs counters, per CPU.

Shared by record_kernel.py and experiment.py (run as root, standard library only).

Why the bracket is exact: a CPU's cpuidle counters (usage, time, above, below,
rejected) are updated by that CPU itself, in cpuidle_enter_state(), before its idle
task schedules anything else. A task running on CPU c therefore reads c's counters
while c cannot be idle. For each CPU c the recorder pins itself to c, switches c's
ring buffer on (bit c of the instance's tracing_cpumask: the kernel enables the
per-CPU buffer synchronously) and reads c's counters; at the end, pinned to c again,
it reads c's counters and switches c's buffer off. Every idle period of c that ended
between the two readings is in the trace, complete (c was running the recorder at both
ends), and no other is. A trace marker written right after each reading (on c's own
buffer) lets a check confirm that no cpu_idle record of c falls outside the bracket
(the recorder would have slept between the switch and the reading).

Everything runs in a private mount namespace (the script re-executes itself under
`unshare --mount`): tracefs is mounted there if the namespace has no tracefs, and
trace-cmd sees a /proc/kallsyms cut to the timer/tick/wakeup symbols and only the
event formats of the systems recorded, so a trace.dat is tens of kB. The instance is
removed on exit, also on error, SIGINT and SIGTERM.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

SYSFS_CPU = Path("/sys/devices/system/cpu")
CPUIDLE = SYSFS_CPU / "cpuidle"
#: Fields of a cpuidle state directory saved in the snapshots, in this order.
STATE_FIELDS = ("name", "desc", "latency", "residency", "power", "disable", "default_status",
                "usage", "time", "above", "below", "rejected", "s2idle/usage", "s2idle/time")
#: The counters whose deltas are goldens.
COUNTERS = ("usage", "time", "above", "below", "rejected")
#: Events recorded when the kernel has them (system/event under events/).
EVENTS = (
    "sched/sched_switch", "sched/sched_wakeup", "sched/sched_wakeup_new", "sched/sched_waking",
    "sched/sched_migrate_task", "sched/sched_stat_runtime", "sched/sched_process_exit",
    "power/cpu_idle", "power/cpu_idle_miss", "power/cpu_frequency",
    "timer/tick_stop", "timer/hrtimer_start", "timer/hrtimer_cancel", "timer/hrtimer_expire_entry",
    "timer/hrtimer_expire_exit",
)
ENV_FLAG = "WHY_TRACEFS_PRIVATE_NS"


def ensure_private_namespace() -> None:
    """Re-execute this script in a private mount namespace (once)."""
    if os.geteuid() != 0:
        sys.exit("run as root (tracefs, cpuidle sysfs)")
    if os.environ.get(ENV_FLAG) == "1":
        return
    if shutil.which("trace-cmd") is None:
        sys.exit("trace-cmd is not installed (apt-get install trace-cmd)")
    env = dict(os.environ, **{ENV_FLAG: "1"})
    argv = ["unshare", "--mount", "--propagation", "private", sys.executable, *sys.argv]
    os.execvpe("unshare", argv, env)


def tracefs_dir() -> Path:
    """The namespace's tracefs (mounted at /sys/kernel/tracing when there is none)."""
    with open("/proc/self/mounts") as f:
        for line in f:
            parts = line.split()
            if len(parts) > 2 and parts[2] == "tracefs":
                return Path(parts[1].replace("\\040", " "))
    t = Path("/sys/kernel/tracing")
    subprocess.run(["mount", "-t", "tracefs", "nodev", str(t)], check=True)
    return t


def cpus() -> list[int]:
    """The online CPUs."""
    text = (SYSFS_CPU / "online").read_text().strip()
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def cpumask_text(cpu_set: Sequence[int]) -> str:
    """A tracing_cpumask value (hex, 32-bit groups separated by commas)."""
    mask = 0
    for c in cpu_set:
        mask |= 1 << c
    width = max(cpus(), default=0) // 32 + 1
    groups = [(mask >> (32 * i)) & 0xFFFFFFFF for i in reversed(range(width))]
    return ",".join(f"{g:08x}" for g in groups)


def read(p: Path) -> str:
    return p.read_text().strip()


def write(p: Path, value: object) -> None:
    with open(p, "w") as f:
        f.write(str(value))


def state_dirs(cpu: int) -> list[Path]:
    base = SYSFS_CPU / f"cpu{cpu}" / "cpuidle"
    if not base.is_dir():
        return []
    return sorted((d for d in base.iterdir() if d.name.startswith("state")), key=lambda d: int(d.name[5:]))


def snapshot_lines(cpu: int) -> list[str]:
    """CPU `cpu`'s cpuidle sysfs as `grep .` prints it (PATH:VALUE), fields of STATE_FIELDS."""
    lines = []
    for d in state_dirs(cpu):
        for field in STATE_FIELDS:
            p = d / field
            if p.is_file():
                lines.append(f"{p}:{read(p)}")
    return lines


SNAP_RE = re.compile(r"^/sys/devices/system/cpu/cpu(\d+)/cpuidle/state(\d+)/([a-z0-9_/]+):(.*)$")


def parse_snapshot(text: str) -> dict[tuple[int, int], dict[str, str]]:
    """(cpu, state) -> field -> value of a snapshot's lines."""
    out: dict[tuple[int, int], dict[str, str]] = {}
    for ln in text.splitlines():
        m = SNAP_RE.match(ln)
        if m:
            out.setdefault((int(m[1]), int(m[2])), {})[m[3]] = m[4]
    return out


def delta_rows(before: str, after: str) -> list[dict[str, object]]:
    """Per CPU and state: the counters' advance between two snapshots."""
    b, a = parse_snapshot(before), parse_snapshot(after)
    rows = []
    for key in sorted(b):
        row: dict[str, object] = {"cpu": key[0], "state": key[1], "name": b[key].get("name", "")}
        for c in COUNTERS:
            if c in b[key] and c in a.get(key, {}):
                row[c] = int(a[key][c]) - int(b[key][c])
        rows.append(row)
    return rows


def write_csv(path: Path, rows: list[dict[str, object]], columns: Sequence[str]) -> None:
    with open(path, "w") as f:
        f.write(",".join(columns) + "\n")
        for r in rows:
            f.write(",".join(str(r.get(c, "")) for c in columns) + "\n")


class Instance:
    """A private tracefs instance, removed by close() (also from a signal handler)."""

    def __init__(self, tracefs: Path, name: str, buffer_kb: int, clock: str = "local"):
        self.tracefs = tracefs
        self.name = name
        self.dir = tracefs / "instances" / name
        self.dir.mkdir()
        write(self.dir / "tracing_on", 0)
        write(self.dir / "buffer_size_kb", buffer_kb)
        write(self.dir / "trace_clock", clock)
        self.enabled: list[str] = []

    def enable(self, events: Sequence[str]) -> None:
        for e in events:
            p = self.dir / "events" / e / "enable"
            if p.is_file():
                write(p, 1)
                self.enabled.append(e)

    def marker(self, text: str) -> None:
        write(self.dir / "trace_marker", text)

    def set_cpus(self, cpu_set: Sequence[int]) -> None:
        write(self.dir / "tracing_cpumask", cpumask_text(cpu_set))

    def lost(self) -> dict[int, dict[str, int]]:
        """Per CPU: the overrun and dropped-event counts of per_cpu/cpuN/stats."""
        out = {}
        for c in cpus():
            stats = read(self.dir / "per_cpu" / f"cpu{c}" / "stats")
            vals = {}
            for ln in stats.splitlines():
                k, _, v = ln.partition(":")
                if k.strip() in ("entries", "overrun", "commit overrun", "dropped events"):
                    vals[k.strip().replace(" ", "_")] = int(v.strip().split()[0])
            out[c] = vals
        return out

    def close(self) -> None:
        if self.dir.is_dir():
            with contextlib.suppress(OSError):
                write(self.dir / "tracing_on", 0)
            for _ in range(50):
                try:
                    self.dir.rmdir()
                    break
                except OSError:
                    time.sleep(0.05)


@contextlib.contextmanager
def instance(tracefs: Path, name: str, buffer_kb: int) -> Iterator[Instance]:
    """An Instance removed on exit, SIGINT or SIGTERM."""
    inst = Instance(tracefs, name, buffer_kb)
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}

    def stop(signum: int, frame: object) -> None:
        inst.close()
        raise KeyboardInterrupt

    for s in old:
        signal.signal(s, stop)
    try:
        yield inst
    finally:
        inst.close()
        for s, h in old.items():
            signal.signal(s, h)


def bracket_start(inst: Instance, cpu_list: Sequence[int]) -> dict[int, list[str]]:
    """Turn each CPU's buffer on from that CPU and read its counters; returns the snapshots."""
    affinity = os.sched_getaffinity(0)
    snaps: dict[int, list[str]] = {}
    on: list[int] = []
    write(inst.dir / "tracing_on", 1)
    try:
        for c in cpu_list:
            os.sched_setaffinity(0, {c})
            on.append(c)
            inst.set_cpus(on)
            snaps[c] = snapshot_lines(c)
            inst.marker(f"why: sysfs-before cpu={c}")
    finally:
        os.sched_setaffinity(0, affinity)
    return snaps


def bracket_end(inst: Instance, cpu_list: Sequence[int]) -> dict[int, list[str]]:
    """From each CPU: a marker, its counters, then its buffer off; tracing off."""
    affinity = os.sched_getaffinity(0)
    snaps: dict[int, list[str]] = {}
    on = list(cpu_list)
    try:
        for c in cpu_list:
            os.sched_setaffinity(0, {c})
            inst.marker(f"why: sysfs-after cpu={c}")
            snaps[c] = snapshot_lines(c)
            on.remove(c)
            inst.set_cpus(on)
    finally:
        os.sched_setaffinity(0, affinity)
        write(inst.dir / "tracing_on", 0)
    return snaps


KALLSYMS_KEEP = re.compile(rb"^[0-9a-f]{16} [tT] \S*(tick|timer|wakeup|hrtimer|sleep|nanosleep)")


def extract(inst: Instance, out: Path) -> None:
    """trace-cmd extract -B with kallsyms and the event formats cut (this namespace only)."""
    t = inst.tracefs
    work = Path(tempfile.mkdtemp(prefix="why-extract-"))
    try:
        ks = work / "kallsyms"
        with open("/proc/kallsyms", "rb") as src, open(ks, "wb") as dst:
            for line in src:
                if KALLSYMS_KEEP.match(line):
                    dst.write(line)
        ev = work / "events"
        ev.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "none", str(ev)], check=True)
        for f in ("header_page", "header_event"):
            shutil.copy(t / "events" / f, ev / f)
        for system in sorted({e.split("/")[0] for e in inst.enabled} | {"ftrace"}):
            for d in sorted((t / "events" / system).iterdir()):
                if (d / "format").is_file():
                    (ev / system / d.name).mkdir(parents=True)
                    for f in ("format", "id"):
                        if (d / f).is_file():
                            shutil.copy(d / f, ev / system / d.name / f)
        subprocess.run(["mount", "--bind", str(ks), "/proc/kallsyms"], check=True)
        subprocess.run(["mount", "--bind", str(ev), str(t / "events")], check=True)
        try:
            subprocess.run(["trace-cmd", "extract", "-B", inst.name, "-o", str(out)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        finally:
            subprocess.run(["umount", str(t / "events")], check=False)
            subprocess.run(["umount", "/proc/kallsyms"], check=False)
            subprocess.run(["umount", str(ev)], check=False)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def global_info() -> dict[str, object]:
    """The kernel and cpuidle facts a recording's meta.json records."""
    def opt(p: Path) -> str | None:
        return read(p) if p.is_file() else None

    hz = None
    for cfg in (Path(f"/boot/config-{os.uname().release}"), Path("/proc/config.gz")):
        if cfg.is_file():
            import gzip
            data = gzip.open(cfg).read() if cfg.suffix == ".gz" else cfg.read_bytes()
            m = re.search(rb"^CONFIG_HZ=(\d+)$", data, re.M)
            hz = int(m[1]) if m else None
            break
    return {
        "kernel": os.uname().release,
        "cpus": cpus(),
        "cpuidle_driver": opt(CPUIDLE / "current_driver"),
        "cpuidle_governor": opt(CPUIDLE / "current_governor") or opt(CPUIDLE / "current_governor_ro"),
        "available_governors": (opt(CPUIDLE / "available_governors") or "").split(),
        "hz": hz,
        "trace_cmd": subprocess.run(["trace-cmd", "--version"], capture_output=True, text=True).stdout.strip()
        .splitlines()[0] if shutil.which("trace-cmd") else None,
    }

"""schedlab live check on recordings of this machine (tests/data/live/README.md): the
replay against the kernel's own /proc/PID/sched readings, through the command line."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping

import pytest
from schedlab import cli, live

# These tests record on the running kernel and change its settings (tracefs instances,
# the cpuidle governor, /dev/cpu_dma_latency): each holds the machine-wide lock of
# those settings (tests/conftest.py), so no other such test runs beside it.
pytestmark = pytest.mark.usefixtures("running_kernel")

DATA = os.path.join(os.path.dirname(__file__), "data", "live")


def test_check_meets_the_acceptance_on_a_dense_recording() -> None:
    r = live.check(os.path.join(DATA, "periodic-a"))
    p = r["pelt"]
    n = p["readings"]
    assert n == 183  # the kernel's distinct readings after the first
    assert p["util_within_1"] * 100 >= 99 * n
    assert p["util_est_exact"] * 100 >= 95 * n
    # per reading: the kernel's value next to the replay's
    c = r["columns"]
    assert c["kernel_util_avg"][:3] == [98, 91, 82]  # sched.txt readings 2-4, as printed by the kernel
    assert all(abs(a - b) <= 1 for a, b in zip(c["kernel_util_avg"], c["replay_util_avg"]))


def test_cli_prints_the_figures_and_what_limits_idle(capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["live", "check", os.path.join(DATA, "periodic-b")]) == 0
    out = capsys.readouterr().out
    assert "util_est exact: 68/68 (100.0%)" in out
    assert "idle: no idle period traced on CPU 1" in out


def test_cli_reads_the_trace_dat_of_a_loaded_recording(capsys) -> None:  # type: ignore[no-untyped-def]
    # recorded by tools/oracles/live/record.sh; sched.txt holds the kernel's own values
    assert cli.main(["live", "check", os.path.join(DATA, "loaded-fifo")]) == 0
    out = capsys.readouterr().out
    assert "PELT util_avg within ±1 of the kernel's: 303/303 (100.0%)" in out
    assert "util_est exact: 303/303 (100.0%)" in out
    # both CPUs busy: the sysfs usage counters did not move, no idle period to compare
    assert "idle: no idle period traced on CPU 1 (sysfs counted 0 entries" in out
    assert "read as trace.dat" in out


def test_check_shows_as_one_line_and_as_an_escaped_table() -> None:
    r = live.check(os.path.join(DATA, "quiet-cpu0-short"))
    assert isinstance(r, Mapping) and len(repr(r)) < 200 and "\n" not in repr(r)
    p, i = r["pelt"], r["idle"]
    assert repr(r) == (f"<LiveCheck pid {r['meta']['pid']} on CPU {r['meta']['cpu']}: util_avg within ±1 "
                       f"{p['util_within_1']}/{p['readings']}, util_est exact {p['util_est_exact']}/{p['readings']}, "
                       f"{i['periods']} idle periods>")
    h = r._repr_html_()
    # a row per figure under the heading row, each count as the dict holds it
    assert h.count("<tr>") == 1 + 5
    for agree, of in [(p["util_within_1"], p["readings"]), (i["agree"], i["periods"]),
                      (i["tick_agree"], i["tick_decided"])]:
        assert f">{agree}</td><td style=\"border:1px solid #999;padding:2px 6px;text-align:right;" \
               f"white-space:nowrap\">{of}</td>" in h
    hostile = live.LiveCheck(r, meta={**r["meta"], "kernel": "<script>alert(1)</script>"})
    h = hostile._repr_html_()
    assert "<script>" not in h and "Linux &lt;script&gt;alert(1)&lt;/script&gt;" in h
    with open(os.path.join(DATA, "quiet-cpu0-short", "meta.json")) as f:
        meta = json.load(f)  # the recording's own pid, CPU and HZ
    assert live.render(hostile).startswith(
        f"live check: pid {meta['pid']} on CPU {meta['cpu']}, Linux <script>alert(1)</script>, HZ={meta['hz']}\n")


def test_cli_sub_ms_runs_on_a_quiet_machine(capsys) -> None:  # type: ignore[no-untyped-def]
    # busy 0.5 ms / sleep 0.3 ms on CPU 0 (traced idle): every kernel reading within ±1
    assert cli.main(["live", "check", os.path.join(DATA, "quiet-cpu0-short")]) == 0
    out = capsys.readouterr().out
    assert "PELT util_avg within ±1 of the kernel's: 2607/2607 (100.0%)" in out
    assert "state choices 1812/1812 (100.0%) of the idle periods traced on CPU 0" in out
    r = live.check(os.path.join(DATA, "quiet-cpu0-short"))
    assert r["pelt"]["util_est_exact"] * 100 >= 99 * 2607


def test_check_names_a_cpu_whose_idle_is_not_traced(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # loaded-fifo's CPU 1 trace has no cpu_idle record; let its sysfs count 40 entries
    # of state 1 during the recording, as CPU 1 of this VM does on a quiet machine
    d = tmp_path / "rec"
    d.mkdir()
    src = os.path.join(DATA, "loaded-fifo")
    for f in ("meta.json", "sched.txt", "states.txt", "trace.dat"):
        (d / f).write_bytes(open(os.path.join(src, f), "rb").read())
    after = []
    for ln in open(os.path.join(src, "states-after.txt")).read().splitlines():
        if "/state1/usage:" in ln:
            ln = f"{ln.rsplit(':', 1)[0]}:{int(ln.rsplit(':', 1)[1]) + 40}"
        after.append(ln)
    (d / "states-after.txt").write_text("\n".join(after) + "\n")
    out = live.render(live.check(d))
    assert "note: CPU 1's idle is not traced: sysfs counted 40 idle entries during the recording but the trace" \
           " has 0 cpu_idle records" in out
    assert "record with --cpu of a CPU whose idle is traced" in out
    # the real recording: no entries counted, no such note
    assert "idle is not traced" not in live.render(live.check(src))


def test_default_cpu_is_one_whose_idle_is_traced() -> None:
    # (cpu_idle records, sysfs entries) per CPU, as the probe returns them
    assert live.default_cpu({0: (24, 12), 1: (0, 40)}) == 0  # this VM on a quiet machine
    assert live.default_cpu({0: (24, 12), 1: (30, 15)}) == 1
    assert live.default_cpu({0: (0, 0), 1: (0, 40), 2: (0, 0)}) == 2  # busy: not CPU 1
    assert live.default_cpu({0: (0, 5), 1: (0, 40)}) == 1


# --- a real recording on this machine (root, tracefs, trace-cmd; skipped elsewhere) ---

TRACEFS = "/sys/kernel/tracing"
GOVERNOR = "/sys/devices/system/cpu/cpuidle/current_governor"


def _cannot_record() -> str | None:
    """Why this machine cannot make a live recording, or None."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "a live recording needs root"
    if shutil.which("trace-cmd") is None:
        return "trace-cmd is not installed"
    if not os.path.isdir(TRACEFS):
        return f"no tracefs mount point at {TRACEFS}"
    return None


def _settings() -> dict[str, object]:
    """What a recording changes and must put back (its own thread's too)."""
    inst = os.path.join(TRACEFS, "instances")
    governor = None
    if os.path.exists(GOVERNOR):
        with open(GOVERNOR) as f:
            governor = f.read()
    return {
        "governor": governor,
        "tracefs mounted": os.path.isdir(inst),
        "schedlab instances": sorted(d for d in os.listdir(inst) if d.startswith("schedlab-"))
        if os.path.isdir(inst) else [],
        "affinity": os.sched_getaffinity(0),
        "policy": os.sched_getscheduler(0),
        "nice": os.getpriority(os.PRIO_PROCESS, 0),
        "sigterm": signal.getsignal(signal.SIGTERM),
    }


def _children(pid: int) -> list[int]:
    """The pids whose parent is ``pid``."""
    out = []
    for d in os.listdir("/proc"):
        try:
            with open(f"/proc/{d}/stat") as f:
                if d.isdigit() and int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(d))
        except (OSError, IndexError, ValueError):
            pass
    return out


def test_record_writes_the_recording_and_restores_every_setting(tmp_path) -> None:  # type: ignore[no-untyped-def]
    reason = _cannot_record()
    if reason:
        pytest.skip(reason)
    before = _settings()
    out = tmp_path / "rec"
    meta = live.record(out, seconds=0.3, busy_ms=3, sleep_ms=5)
    assert _settings() == before
    assert sorted(os.listdir(out)) == ["meta.json", "sched.txt", "states-after.txt", "states.txt", "trace.dat"]
    with open(out / "meta.json") as f:
        assert json.load(f) == meta
    assert list(meta) == ["pid", "cpu", "governor", "kernel", "available_governors", "cpuidle_driver", "hz",
                          "readings", "command"]
    assert meta["kernel"] == os.uname().release and meta["command"] is None
    if before["governor"] is not None:
        assert meta["governor"] == "menu" and "menu" in meta["available_governors"]
    # the task has exited and was reaped
    assert not os.path.exists(f"/proc/{meta['pid']}")
    sched = (out / "sched.txt").read_text()
    stamps = [ln for ln in sched.splitlines() if ln.startswith("# t_mono_ns=")]
    assert meta["readings"] == len(stamps) > 10  # 0.3 s of 8 ms periods
    assert sched.splitlines()[1].endswith(f"({meta['pid']}, #threads: 1)")
    assert all(ln.startswith(("# t_mono_ns=", "se.")) or " #threads: " in ln for ln in sched.splitlines())
    base = f"/sys/devices/system/cpu/cpu{meta['cpu']}/cpuidle/"
    for name in ("states.txt", "states-after.txt"):
        assert all(ln.startswith(base) for ln in (out / name).read_text().splitlines())
    assert (out / "trace.dat").read_bytes()[:10] == b"\x17\x08\x44tracing"
    # and the check reads it: every reading the replay compares is the kernel's own
    r = live.check(out)
    assert r["meta"]["pid"] == meta["pid"] and r["pelt"]["readings"] > 0


def test_record_refuses_a_governor_not_available_and_restores(tmp_path) -> None:  # type: ignore[no-untyped-def]
    reason = _cannot_record()
    if reason:
        pytest.skip(reason)
    if not os.path.exists(GOVERNOR):
        pytest.skip("no cpuidle governor here")
    before = _settings()
    with pytest.raises(ValueError, match="cpuidle governor 'no-such' is not available here"):
        live.record(tmp_path / "rec", seconds=0.3, cpu=0, governor="no-such")
    assert _settings() == before


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_recording_restores_every_setting(tmp_path, sig) -> None:  # type: ignore[no-untyped-def]
    reason = _cannot_record()
    if reason:
        pytest.skip(reason)
    before = {k: v for k, v in _settings().items() if k in ("governor", "tracefs mounted", "schedlab instances")}
    code = (
        "import os, signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"  # not ignored, as in a terminal
        "from schedlab import live\n"
        "aff, pol = os.sched_getaffinity(0), os.sched_getscheduler(0)\n"
        "try:\n"
        "    live.record(sys.argv[1], seconds=5.0, cpu=0)\n"
        "except KeyboardInterrupt:\n"
        "    assert (os.sched_getaffinity(0), os.sched_getscheduler(0)) == (aff, pol)\n"
        "    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL\n"
        "    sys.exit(130)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    p = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "rec")], env=env)
    try:
        # wait until the recording runs (its instance exists), then interrupt it
        inst = os.path.join(TRACEFS, "instances", f"schedlab-live-{p.pid}")
        deadline = time.monotonic() + 20
        while not os.path.isdir(inst) and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.01)
        assert os.path.isdir(inst)
        # then until its workload has started (a hang guard, not a time bound: on a
        # loaded machine the child can take a while after the instance appears)
        task = _children(p.pid)
        while not task and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.01)
            task = _children(p.pid)
        assert len(task) == 1  # the workload
        p.send_signal(sig)
        assert p.wait(timeout=20) == 130
        assert not os.path.exists(f"/proc/{task[0]}")  # killed and reaped
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    after = {k: v for k, v in _settings().items() if k in before}
    assert after == before

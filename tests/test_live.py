"""schedlab live check on recordings of this machine (tests/data/live/README.md): the
replay against the kernel's own /proc/PID/sched readings, through the command line."""

from __future__ import annotations

import os

from schedlab import cli, live

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

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

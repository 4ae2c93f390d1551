"""Real traces through the Python API and the CLI (tests/data/traces/README.md): a
trace.dat imports as its `trace-cmd report` does, and every note reaches the user."""

from __future__ import annotations

from pathlib import Path

import pytest
import schedlab
from schedlab import idle, pelt
from schedlab.cli import main

DATA = Path(__file__).parent / "data" / "traces"
DAT = DATA / "tracedat-6.18"


def test_trace_dat_imports_as_its_report(capsys):
    # pids.txt: periodic=30985
    a = pelt.ftrace_task(DAT / "trace-v6.dat", 30985)
    b = pelt.ftrace_task(DAT / "report-t.txt", 30985)
    assert a.equals(b)
    assert a.attrs["start_ns"] == b.attrs["start_ns"]
    assert any("trace.dat" in n for n in a.attrs["notes"])
    assert main(["pelt", "ftrace", str(DAT / "trace-v6.dat"), "--pid", "30985"]) == 0
    err = capsys.readouterr().err
    assert "note: read as trace.dat (version 6, buffer 'schedlab')" in err


def test_version_7_imports_as_version_6():
    # the same trace as trace-cmd wrote it (version 7, zstd) and converted (version 6)
    a = pelt.ftrace_task(DAT / "trace.dat", 30985)
    assert a.equals(pelt.ftrace_task(DAT / "trace-v6.dat", 30985))
    assert any(n.startswith("read as trace.dat (version 7, zstd") for n in a.attrs["notes"])
    # LISA's Juno trace as version 7 (zlib): the idle periods of its report
    t = idle.read_ftrace(DATA / "lisa-sched_load" / "trace-zlib.dat", hz=250)
    r = idle.read_ftrace(DATA / "lisa-sched_load" / "report-t.txt", hz=250)
    assert sorted(t) == sorted(r) == [0, 1, 2, 3, 4, 5]
    assert all(t[c] == r[c] for c in t)


def test_a_corrupted_trace_dat_names_the_file_and_offset(tmp_path):
    data = bytearray((DAT / "trace-v6.dat").read_bytes())
    bad = tmp_path / "bad.dat"
    bad.write_bytes(bytes(data[: len(data) - 100]))
    with pytest.raises(schedlab.ParseError, match=r"bad\.dat: trace\.dat .*byte \d+"):
        pelt.ftrace_task(bad, 30985)


def test_numeric_prev_state_is_noted():
    # LISA's trace.txt prints prev_state as the kernel's number (4096: preempted)
    df = pelt.ftrace_task(DATA / "lisa" / "trace_txt.txt", 1642)
    assert any("numeric prev_state" in n for n in df.attrs["notes"])
    runs_then_waits = ((df.state.shift() == "R") & (df.state == "W")).sum()
    assert runs_then_waits == 261  # 255 x 4096 + 6 x 0 (tests/it/traces_real.rs)


def test_idle_notes_reach_the_cli(tmp_path, capsys):
    t = idle.read_ftrace(DATA / "lisa" / "sched_load.report.txt", hz=250)
    assert sorted(t) == [0, 1, 2, 3, 4, 5]
    assert any("no pending timer" in n for n in t[0].notes)
    out = tmp_path / "sim.csv"
    argv = ["idle", "simulate", "--ftrace", "--governor", "menu", "--states", "intel-skx",
            "--hz", "250", "-o", str(out), str(DATA / "lisa" / "sched_load.report.txt")]
    assert main(argv) == 0
    assert "note: CPU 0: 108 of 108 idle periods had no pending timer" in capsys.readouterr().err
    assert out.read_text().count("\n") == 108 + 1


def test_idle_losses_reach_the_trace_and_the_cli(tmp_path, capsys):
    # lost-idle-6.18: the kernel's trace_pipe text; its line 1738 is CPU 0's cpu_idle
    # entry and line 1739 `CPU:0 [LOST 124 EVENTS]`, before that period's exit: the only
    # period a loss cuts (tests/it/idle_lost.rs checks every loss by the hand rule)
    path = DATA / "lost-idle-6.18" / "trace_pipe.txt"
    lines = path.read_text().splitlines()
    assert "cpu_idle: state=1 cpu_id=0" in lines[1737] and lines[1738] == "CPU:0 [LOST 124 EVENTS]"
    t = idle.read_ftrace(path, hz=250)
    assert t[0].stats["lost_periods"] == 1 and t[1].stats["lost_periods"] == 0
    assert any(n.startswith("CPU 0: 124 events lost before ") and "(line 1739): the idle period open then dropped"
               in n for n in t[0].notes), t[0].notes
    out = tmp_path / "sim.csv"
    argv = ["idle", "simulate", "--ftrace", "--cpu", "0", "--governor", "menu", "--states", "intel-skx",
            "--hz", "250", "-o", str(out), str(path)]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "note: CPU 0: 124 events lost before " in err
    assert out.read_text().count("\n") == len(t[0]) + 1

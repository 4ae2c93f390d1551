"""Hostile inputs of the PELT import and replay: a device or an endless input given as a
trace is refused with bounded memory, a FIFO whose writer closed is read to its end
(it is opened once), a compressed or damaged trace.dat is named as neither a trace.dat
nor text, and a long replay streams in bounded memory.

Peak RSS is measured with ``getrusage`` in a fresh child, against the same child's RSS
after its imports (as tests/test_memory.py does); subprocesses have a generous timeout
only so that a hang fails the test instead of the run (no test asserts on time).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from schedlab import pelt
from schedlab.errors import ParseError

MiB = 1 << 20
#: what refusing or streaming an input may cost beyond the imports
BOUND = 64 * MiB
DATA = Path(__file__).parent / "data"
SELF_A = DATA / "live" / "self-a"

CHILD = r"""
import json, resource, sys
import schedlab
from schedlab import pelt  # noqa: F401
import pandas, numpy  # noqa: F401
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
out = {"base": base}
try:
    exec(sys.argv[1])
    out["result"] = "returned"
except schedlab.SchedlabError as e:
    out["error"] = type(e).__name__
    out["message"] = str(e)
out["peak"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps(out))
"""


def run_child(code: str, *args: str) -> dict:
    r = subprocess.run([sys.executable, "-c", CHILD, code, *args], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def grew(out: dict) -> float:
    return out["peak"] - out["base"]


FTRACE = (
    "  foo-42 [001] d..2. 10.000000: sched_switch: prev_comm=a prev_pid=0 prev_prio=120 prev_state=R "
    "==> next_comm=foo next_pid=42 next_prio=120\n"
    "  foo-42 [001] d..2. 10.004000: sched_switch: prev_comm=foo prev_pid=42 prev_prio=120 prev_state=S "
    "==> next_comm=a next_pid=0 next_prio=120\n"
    "  <idle>-0 [001] d..2. 10.010000: sched_wakeup: comm=foo pid=42 prio=120 target_cpu=001\n"
)


def test_dev_zero_as_a_trace_is_refused_at_once_in_bounded_memory():
    out = run_child("pelt.ftrace_task('/dev/zero', 1)")
    assert out.get("error") == "ParseError", out
    assert "/dev/zero: neither a trace.dat nor ftrace text: binary data (a NUL byte at byte 0)" in out["message"]
    assert grew(out) < BOUND, f"{grew(out) / MiB:.1f} MiB"
    # the replay of a trace CSV: a line that never ends
    out = run_child("pelt.simulate_csv('/dev/zero', out='/dev/null')")
    assert out.get("error") == "ParseError", out
    assert "longer than 1048576 bytes" in out["message"]
    assert grew(out) < BOUND, f"{grew(out) / MiB:.1f} MiB"
    r = subprocess.run([sys.executable, "-m", "schedlab", "pelt", "ftrace", "/dev/zero", "--pid", "1"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "neither a trace.dat nor ftrace text" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def _fifo_writer(path: Path, data: bytes, forever: bool = False) -> threading.Thread:
    def write() -> None:
        try:
            with open(path, "wb") as f:
                f.write(data)
                while forever:
                    f.write(data)
        except BrokenPipeError:
            pass

    t = threading.Thread(target=write, daemon=True)
    t.start()
    return t


def test_a_fifo_whose_writer_closed_is_read_to_its_end(tmp_path):
    fifo = tmp_path / "trace.fifo"
    os.mkfifo(fifo)
    writer = _fifo_writer(fifo, FTRACE.encode())
    # (opened once: a second open would wait for a writer that is gone)
    r = subprocess.run([sys.executable, "-m", "schedlab", "pelt", "ftrace", str(fifo), "--pid", "42"],
                       capture_output=True, text=True, timeout=120)
    writer.join(timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-2:] == ["4000000,R,1024,1024", "6000000,S,1024,1024"]
    # the same segments as from the bytes
    assert pelt.ftrace_task(FTRACE.encode(), 42).to_dict("list")["dur_ns"] == [4_000_000, 6_000_000]


def test_an_endless_fifo_is_refused_in_bounded_memory(tmp_path):
    fifo = tmp_path / "endless.fifo"
    os.mkfifo(fifo)
    writer = _fifo_writer(fifo, FTRACE.encode() * 1000, forever=True)
    out = run_child(f"pelt.ftrace_task({str(fifo)!r}, 42)")
    writer.join(timeout=60)
    assert out.get("error") == "ParseError", out
    assert "not a regular file and longer than 33554432 bytes" in out["message"]
    assert grew(out) < BOUND, f"{grew(out) / MiB:.1f} MiB"


def test_compressed_and_damaged_trace_dat_are_named(tmp_path):
    dat = (SELF_A / "trace.dat").read_bytes()
    gz = tmp_path / "trace.dat.gz"
    gz.write_bytes(gzip.compress(dat))
    with pytest.raises(ParseError, match="neither a trace.dat nor ftrace text: a gzip-compressed file"):
        pelt.ftrace_task(gz, 1)
    damaged = tmp_path / "damaged.dat"
    damaged.write_bytes(b"\x00" + dat[1:])
    with pytest.raises(ParseError, match="a trace.dat whose magic is damaged"):
        pelt.ftrace_task(damaged, 1)
    with pytest.raises(ParseError, match="a trace.dat whose magic is damaged"):
        pelt.ftrace_task(b"\x00" + dat[1:], 1)


def test_a_long_segment_replay_streams_in_bounded_memory(tmp_path):
    """2.5 million segments (1 ms running, 2 ms asleep, alternately): ~5 million rows of
    CSV written to /dev/null while the trace is read; the peak RSS stays within the bound,
    which a replay holding its input or output could not: the trace as segments takes
    100 MB, its rows 750 MB. (The 10M-period replay under a ceiling is the idle one in
    tests/test_idle_streaming.py; this one is sized to fail a non-streaming PELT replay
    at a quarter of the CPU time.)"""
    big = tmp_path / "big.csv"
    with big.open("w") as f:
        f.write("dur_ns,state\n")
        chunk = "1000000,R\n2000000,S\n" * 50_000
        for _ in range(25):
            f.write(chunk)
    out = run_child("pelt.simulate_csv(sys.argv[2], out='/dev/null')", str(big))
    assert out.get("result") == "returned", out
    assert grew(out) < BOUND, f"{grew(out) / MiB:.1f} MiB over the imports"


def _long_trace(path: Path, pairs: int = 200_000) -> None:
    with path.open("w") as f:
        f.write("dur_ns,state\n")
        f.write("1000000,R\n2000000,S\n" * pairs)


def test_ctrl_c_stops_the_cli_replay_at_the_requested_check(tmp_path):
    """``SCHEDLAB_STOP_AFTER_CHECKS`` stops the process at its N + 1-th check as Ctrl-C
    would there (docs/cancel.md §3): ``pelt simulate`` exits 130 with the interrupted
    message, no traceback, and its output holds only what was replayed before."""
    big, out = tmp_path / "big.csv", tmp_path / "rows.csv"
    _long_trace(big)
    env = {**os.environ, "SCHEDLAB_STOP_AFTER_CHECKS": "10"}
    r = subprocess.run([sys.executable, "-m", "schedlab", "pelt", "simulate", str(big), "-o", str(out)],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 130, r.stderr
    assert "interrupted" in r.stderr.lower() and "Traceback" not in r.stderr, r.stderr
    # 400,000 segments make more than 400,000 rows; 11 checks cover at most 11 * 4096
    # segments of at most four rows each (cancel::EVERY = 4096)
    written = out.read_bytes().count(b"\n") if out.exists() else 0
    assert written <= 1 + 4 * 11 * 4096, written
    # without the hook the same command replays it all
    r = subprocess.run([sys.executable, "-m", "schedlab", "pelt", "simulate", str(big), "-o", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes().count(b"\n") > 1 + 400_000


def test_ctrl_c_stops_simulate_csv_at_the_requested_check(tmp_path):
    big = tmp_path / "big.csv"
    _long_trace(big)
    code = (
        "import sys\nfrom schedlab import pelt\n"
        "try:\n    pelt.simulate_csv(sys.argv[1], out=sys.argv[2])\n"
        "except KeyboardInterrupt:\n    sys.exit(130)\n"
    )
    out = tmp_path / "rows.csv"
    env = {**os.environ, "SCHEDLAB_STOP_AFTER_CHECKS": "10"}
    r = subprocess.run([sys.executable, "-c", code, str(big), str(out)],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 130, r.stderr
    written = out.read_bytes().count(b"\n") if out.exists() else 0
    assert written <= 1 + 4 * 11 * 4096, written

"""The idle replays stream (src/idle/replay.rs, golden_csv.rs, text_input.rs): ``idle
simulate`` and ``idle summary`` read, replay and write a trace file as it goes, so the
peak memory does not grow with the trace, a FIFO is read to its end, a binary input
(``/dev/zero``, a trace.dat, a gzip) is refused at its first bytes, and a stop request
(``SCHEDLAB_STOP_AFTER_CHECKS``, src/cancel.rs) ends the replay without an output.

The expected CSV bytes are the kernel oracle's golden files (tests/data/idle, made by
tools/oracles/kernel from the kernel's own menu.c/teo.c); memory is the child's peak
RSS from ``wait4``; no wall-clock time is asserted."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from schedlab import idle

from .test_idle_golden import DATA, inputs_of

GOLDEN = "teo61_x86_hz250_mixed.golden.csv"
HEADER = b"sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns\n"
# ten periods of different shapes: short and long sleeps, early wakeups, a stopped tick
BLOCK = (
    b"1000000,4000000,500000,0,-1\n"
    b"30000,2000000,-1,0,-1\n"
    b"8000000,4000000,-1,1,-1\n"
    b"250000,1000000,120000,0,-1\n"
    b"3000000,3500000,2900000,0,20000\n"
    b"50000,600000,-1,0,-1\n"
    b"20000000,4000000,-1,1,-1\n"
    b"700000,2500000,10000,0,-1\n"
    b"90000,90000,-1,0,-1\n"
    b"1500000,4000000,1400000,0,-1\n"
)
MiB = 1 << 20


def run(argv: list[str], stdin=None, env: dict[str, str] | None = None, count_lines: bool = False):
    """``schedlab ARGV`` in a child: (exit code, stdout bytes or its line count, stderr, peak RSS in bytes)."""
    p = subprocess.Popen([sys.executable, "-m", "schedlab", *argv], stdin=stdin, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
    out: list[bytes] = []
    lines = [0]
    err: list[bytes] = []

    def drain_out() -> None:
        assert p.stdout is not None
        while chunk := p.stdout.read(1 << 20):
            if count_lines:
                lines[0] += chunk.count(b"\n")
            else:
                out.append(chunk)

    def drain_err() -> None:
        assert p.stderr is not None
        err.append(p.stderr.read())

    threads = [threading.Thread(target=drain_out), threading.Thread(target=drain_err)]
    for t in threads:
        t.start()
    _, status, usage = os.wait4(p.pid, 0)
    for t in threads:
        t.join()
    p.returncode = os.waitstatus_to_exitcode(status)
    # ru_maxrss is in KiB on Linux
    return p.returncode, lines[0] if count_lines else b"".join(out), b"".join(err).decode(), usage.ru_maxrss * 1024


def feed_fifo(path: Path, blocks: int) -> threading.Thread:
    """A writer that puts the header and ``blocks`` blocks of ten periods into the FIFO, then closes it."""

    def write() -> None:
        with open(path, "wb") as f:
            f.write(HEADER)
            chunk = BLOCK * 10_000
            for _ in range(blocks // 10_000):
                f.write(chunk)
            f.write(BLOCK * (blocks % 10_000))

    t = threading.Thread(target=write)
    t.start()
    return t


def test_the_streamed_csv_is_the_golden_file(tmp_path: Path) -> None:
    gov, kernel, states, hz, trace = inputs_of(GOLDEN)
    want = (DATA / GOLDEN).read_bytes()
    assert idle.simulate_csv(gov, trace, states, kernel=kernel, hz=hz) == want
    chunks: list[bytes] = []
    assert idle.simulate_csv(gov, trace, states, kernel=kernel, hz=hz, write=chunks.append) is None
    assert b"".join(chunks) == want
    out = tmp_path / "out.csv"
    assert idle.simulate_csv(gov, trace, states, kernel=kernel, hz=hz, out=out) is None
    assert out.read_bytes() == want


def test_a_fifo_whose_writer_closes_is_replayed_to_its_end(tmp_path: Path) -> None:
    gov, kernel, states, hz, trace = inputs_of(GOLDEN)
    fifo = tmp_path / "trace"
    os.mkfifo(fifo)
    data = trace.read_bytes()

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(data)

    t = threading.Thread(target=write)
    t.start()
    code, out, err, _ = run(["idle", "simulate", "--governor", gov, "--kernel", kernel, "--hz", str(hz),
                             "--states", str(states), str(fifo)])
    t.join()
    assert (code, err) == (0, "")
    assert out == (DATA / GOLDEN).read_bytes()


@pytest.mark.parametrize("command", ["simulate", "summary"])
def test_dev_zero_as_a_trace_is_refused_at_its_first_byte(command: str) -> None:
    code, _, err, rss = run(["idle", command, "/dev/zero", "--governor", "menu", "--states", "intel-skx"])
    assert code == 2 and "/dev/zero" in err and "binary data (a NUL byte at line 1, column 1)" in err, err
    assert "Traceback" not in err
    _, _, _, base = run(["idle", "presets"])
    assert rss <= base + 64 * MiB, (rss, base)


@pytest.mark.parametrize(
    ("first", "kind"),
    [(b"\x17\x08Dtracing6\x00\x00\x00", "a trace.dat"), (b"\x1f\x8b\x08\x00\x00\x00\x00\x00", "gzip-compressed data")],
)
def test_a_binary_format_given_as_the_trace_csv_is_named(tmp_path: Path, first: bytes, kind: str) -> None:
    path = tmp_path / "trace.csv"
    path.write_bytes(first + b"\x00" * 100)
    code, _, err, _ = run(["idle", "simulate", str(path), "--governor", "teo", "--states", "intel-skx"])
    assert code == 2 and f"{path}: {kind}, not an idle trace CSV" in err and "Traceback" not in err, err


def test_a_stop_request_ends_the_replay_without_an_output(tmp_path: Path) -> None:
    trace = tmp_path / "t.csv"
    trace.write_bytes(HEADER + BLOCK * 10_000)  # 100 000 periods: 24 checks of the replay loop
    out = tmp_path / "out.csv"
    code, _, err, _ = run(["idle", "simulate", str(trace), "--governor", "menu", "--states", "intel-skx",
                           "-o", str(out)], env={"SCHEDLAB_STOP_AFTER_CHECKS": "3"})
    assert code == 130 and "interrupted" in err and "Traceback" not in err, err
    assert not out.exists()
    # without the hook the same command runs to its end
    code, _, err, _ = run(["idle", "simulate", str(trace), "--governor", "menu", "--states", "intel-skx",
                           "-o", str(out)])
    assert code == 0, err
    assert out.read_bytes().count(b"\n") == 100_001


@pytest.mark.parametrize("command", ["simulate", "summary"])
def test_ten_million_periods_replay_in_flat_memory(tmp_path: Path, command: str) -> None:
    """10^7 periods (about 300 MB of trace, 1 GB of CSV out) through a FIFO: the peak RSS
    stays within 64 MiB of the same command's on ten periods."""
    argv = ["idle", command, "--governor", "teo", "--states", "intel-skx"]
    small = tmp_path / "small.csv"
    small.write_bytes(HEADER + BLOCK)
    code, _, err, base = run([*argv, str(small)], count_lines=True)
    assert code == 0, err
    fifo = tmp_path / "trace"
    os.mkfifo(fifo)
    t = feed_fifo(fifo, 1_000_000)  # blocks of ten periods
    code, lines, err, rss = run([*argv, str(fifo)], count_lines=True)
    t.join()
    assert code == 0, err
    if command == "simulate":
        assert lines == 10_000_001
    assert rss <= base + 64 * MiB, (rss / MiB, base / MiB)


TRACEDAT = Path(__file__).parent / "data" / "traces" / "tracedat-6.18" / "trace.dat"


@pytest.mark.parametrize("damage", ["magic", "gzip"])
def test_a_damaged_or_compressed_trace_dat_is_named_as_neither_format(tmp_path: Path, damage: str) -> None:
    """A trace.dat whose magic lost a byte, or a gzip of one, was reported as a text trace with
    no cpu_idle events; it is binary data that is neither a trace.dat nor ftrace text."""
    import gzip

    from schedlab.errors import ParseError

    data = TRACEDAT.read_bytes()
    path = tmp_path / "trace.dat"
    path.write_bytes(data[:2] + b"X" + data[3:] if damage == "magic" else gzip.compress(data))
    why = "binary data (a NUL byte at offset 11)" if damage == "magic" else "gzip-compressed data"
    for read in (lambda: idle.read_ftrace(path), lambda: idle.parse_ftrace(path.read_bytes(), path=str(path))):
        with pytest.raises(ParseError) as e:
            read()
        msg = str(e.value)
        assert f"{path}: {why}: neither a trace.dat" in msg and "nor ftrace text" in msg, msg
        assert "no cpu_idle events" not in msg


def feed_ftrace_fifo(path: Path, periods: int) -> threading.Thread:
    """A writer that puts ``periods`` idle periods of CPU 0 as ftrace text (``trace-cmd
    report`` lines) into the FIFO: each 100 µs long, one every 300 µs, with a non-tick
    hrtimer expiry 150 µs after every tenth exit (past the 50 µs of a timer wakeup: the
    next expiry that the ten periods before it, which no pending timer bounds, wait
    for), then closes it."""

    def ts(us: int) -> str:
        return f"{us // 1_000_000}.{us % 1_000_000:06d}"

    def write() -> None:
        with open(path, "w") as f:
            f.write("cpus=1\n")
            for start in range(0, periods, 10_000):
                lines = []
                for k in range(start, min(start + 10_000, periods)):
                    t0 = 1_000_000 + 300 * k
                    lines.append(f"  <idle>-0 [000] d..1. {ts(t0)}: cpu_idle: state=1 cpu_id=0\n")
                    lines.append(f"  <idle>-0 [000] d..1. {ts(t0 + 100)}: cpu_idle: state=4294967295 cpu_id=0\n")
                    if k % 10 == 9:
                        lines.append(f"  x-1 [000] d.h1. {ts(t0 + 250)}: hrtimer_expire_entry: hrtimer=0x10 "
                                     f"now={(t0 + 250) * 1000} function=hrtimer_wakeup/0x0\n")
                f.write("".join(lines))

    t = threading.Thread(target=write)
    t.start()
    return t


def test_an_ftrace_trace_replays_in_flat_memory(tmp_path: Path) -> None:
    """10^6 idle periods of ftrace text (2.1 million events, about 150 MB) through a FIFO:
    ``idle simulate --ftrace --cpu 0`` imports, replays and writes them as they come, so
    its peak RSS stays within 64 MiB of the same command's on ten periods (it was the
    text, every event and every period held at once)."""
    argv = ["idle", "simulate", "--ftrace", "--cpu", "0", "--governor", "menu", "--states", "intel-skx"]
    small = tmp_path / "small"
    os.mkfifo(small)
    t = feed_ftrace_fifo(small, 10)
    code, lines, err, base = run([*argv, str(small)], count_lines=True)
    t.join()
    assert (code, lines) == (0, 11), err
    fifo = tmp_path / "trace"
    os.mkfifo(fifo)
    t = feed_ftrace_fifo(fifo, 1_000_000)
    code, lines, err, rss = run([*argv, str(fifo)], count_lines=True)
    t.join()
    assert code == 0, err
    assert lines == 1_000_001
    # every period waited in the look-ahead for the next expiry (docs/tracing.md §2.1)
    assert "note: CPU 0: 1000000 of 1000000 idle periods had no pending timer" in err, err
    assert rss <= base + 64 * MiB, (rss / MiB, base / MiB)


def test_a_failing_write_callable_raises_its_own_error() -> None:
    """Both streamed idle replays hand their CSV to ``write`` in chunks; when the callable
    fails (a closed pipe), its own exception is raised, not the write error the core
    reports after it."""
    from schedlab import _core

    gov, kernel, states, hz, trace = inputs_of(GOLDEN)

    def closed(_: bytes) -> None:
        raise BrokenPipeError("the reader went away")

    with pytest.raises(BrokenPipeError, match="the reader went away"):
        _core.idle_simulate_csv(governor=gov, kernel=kernel, hz=hz, states=str(states), trace=str(trace),
                                write=closed)
    ftrace = DATA.parent / "traces" / "why" / "experiment-quiet" / "lat0" / "run-01.dat"
    with pytest.raises(BrokenPipeError, match="the reader went away"):
        _core.idle_simulate_ftrace(governor="menu", kernel="6.12", hz=250, states="intel-skx", trace=str(ftrace),
                                   cpu=0, write=closed)

"""Ctrl-C during a long native call: the core's loops stop (src/cancel.rs) and the
command exits 130 within 0.5 s, without a traceback (src/python/sigint.rs, cli.main)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import schedlab
from schedlab import pelt


def interrupt(argv: list[str], after: float = 1.5) -> tuple[bool, float, int, str]:
    """Start ``schedlab ARGV``, send SIGINT ``after`` seconds later: (still running
    then, seconds from the signal to the exit, exit code, stderr)."""
    p = subprocess.Popen([sys.executable, "-m", "schedlab", *argv], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    time.sleep(after)
    running = p.poll() is None
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    return running, time.monotonic() - t, p.returncode, err.decode()


def test_a_long_pelt_simulate_stops_within_half_a_second(tmp_path: Path) -> None:
    trace = tmp_path / "long.csv"
    trace.write_text("dur_ns,state\n4000000000000000,R\n")  # one running segment: 10^9 ticks of 4 ms
    running, took, code, err = interrupt(["pelt", "simulate", str(trace)])
    assert running, "the replay ended before the signal"
    assert code == 130 and took < 0.5, (code, took, err)
    assert "interrupted" in err and "Traceback" not in err


def test_a_long_idle_simulate_stops_within_half_a_second(tmp_path: Path) -> None:
    trace = tmp_path / "idle.csv"
    with trace.open("wb") as f:  # 3 million idle periods of 1 ms sleep, woken after 0.5 ms
        f.write(b"sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns\n")
        f.write(b"1000000,4000000,500000,0,-1\n" * 3_000_000)
    running, took, code, err = interrupt(["idle", "simulate", str(trace), "--governor", "menu",
                                          "--states", "intel-skx"])
    assert running, "the replay ended before the signal"
    assert code == 130 and took < 0.5, (code, took, err)
    assert "interrupted" in err and "Traceback" not in err


def test_the_api_raises_keyboard_interrupt_and_the_next_call_works(tmp_path: Path) -> None:
    """In-process: SIGINT from a timer thread while the main thread is in the core."""
    import threading

    trace = b"dur_ns,state\n4000000000000000,R\n"
    timer = threading.Timer(0.3, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    t = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        pelt.simulate_csv(trace, write=lambda b: None)
    assert time.monotonic() - t < 5
    timer.join()
    # the stop request ended with the call: the next one runs to its end
    assert pelt.simulate_csv(b"dur_ns,state\n1000000,R\n9000000,S\n").count(b"\n") == 5
    assert isinstance(schedlab.stats.amean([1.0, 2.0]), float)

"""Ctrl-C during a long native call: the core's loops stop (src/cancel.rs) and the
command exits 130 without a traceback (src/python/sigint.rs, cli.main); in-process,
every long call (PELT replay, idle replay, MMTests extraction, a pasted MMTests table,
the batch scan, lkp's matrix.json, the ftrace imports, ``series``, the text of a long
MMTests or lkp table; trace.dat: tests/it/tracedat_cancel.rs; lkp's table of many changed
metrics: tests/it/cancel_tables.rs; the AMD layout and the batch renderings:
tests/it/cancel_renderers.rs; the bootstrap interval) raises KeyboardInterrupt.

Each "stops" test uses the hook of docs/cancel.md §3 (stop at the core's N-th check, as
if Ctrl-C came there): the call, which runs to its end without the hook, must raise
KeyboardInterrupt, and the next call must run. The real signal path keeps one test for
the command line and one in-process; how soon each path stops after a real signal (the
0.5 s bound) is measured by benchmarks/bench_interrupt.py, never asserted here, so that
a loaded machine cannot fail these tests."""

from __future__ import annotations

import gzip
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import schedlab
from schedlab import _testing, batch, idle, lkp, mmtests, pelt, series

DATA = Path(__file__).parent / "data"
KERNELS = ["6.8-vanilla", "6.9-patched"]

#: The checks the hook lets pass before it stops a call: past each call's setup, inside its loop.
CHECKS = 5


def cli_stopped(argv: list[str]) -> tuple[int, str]:
    """``schedlab ARGV`` stopped at its CHECKS+1-th check by the environment hook: (exit code, stderr)."""
    env = dict(os.environ, SCHEDLAB_STOP_AFTER_CHECKS=str(CHECKS))
    p = subprocess.run([sys.executable, "-m", "schedlab", *argv], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, env=env, timeout=600)
    return p.returncode, p.stderr.decode()


def stops(call: Callable[[], object]) -> None:
    """``call()`` under the hook raises KeyboardInterrupt (without it, it runs to its end)."""
    with _testing.stop_after_checks(CHECKS), pytest.raises(KeyboardInterrupt):
        call()


def test_a_real_sigint_stops_the_command(tmp_path: Path) -> None:
    """SIGINT to a `schedlab pelt simulate` of 10^9 ticks: exit 130 with the one line."""
    trace = tmp_path / "long.csv"
    trace.write_text("dur_ns,state\n4000000000000000,R\n")  # one running segment: 10^9 ticks of 4 ms
    p = subprocess.Popen([sys.executable, "-m", "schedlab", "pelt", "simulate", str(trace)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=sigint_as_in_a_terminal)
    time.sleep(1.5)
    assert p.poll() is None, "the replay ended before the signal"
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=120)  # a hang guard, not a latency bound
    assert p.returncode == 130 and "interrupted" in err.decode() and "Traceback" not in err.decode(), err


def test_a_long_pelt_simulate_stops(tmp_path: Path) -> None:
    trace = tmp_path / "long.csv"
    trace.write_text("dur_ns,state\n4000000000000000,R\n")
    code, err = cli_stopped(["pelt", "simulate", str(trace)])
    assert code == 130 and "interrupted" in err and "Traceback" not in err, (code, err)


def _checks_made(call: Callable[[], object], most: int = 4096) -> int:
    """How many checks ``call()`` makes: the fewest the hook may let pass for it to end."""
    lo, hi = 0, most  # the call is interrupted when let past lo checks, ends when let past hi
    while lo < hi:
        mid = (lo + hi) // 2
        try:
            with _testing.stop_after_checks(mid):
                call()
            hi = mid
        except KeyboardInterrupt:
            lo = mid + 1
    return lo


def test_the_in_process_idle_simulate_checks_while_it_builds_its_columns() -> None:
    # 4 x 4096 periods. By hand, the checks of docs/cancel.md §1 (one per 4096 values): the
    # replay 4, the two shown input columns 2 x 4, then the DataFrame's columns widened in
    # the core, 1 + 4 x 4 (idx, stop_tick, got_tick, poll_time_limit): at least 29
    trace = idle.periodic(4 * 4096, 2_000_000, jitter_ns=10_000, seed=1)
    def run() -> object:
        return idle.simulate("menu", trace, "intel-skx")
    made = _checks_made(run)
    assert made >= 4 + 2 * 4 + 1 + 4 * 4, made
    # a stop at the last check (the columns are built after the replay) ends the call too
    with _testing.stop_after_checks(made - 1), pytest.raises(KeyboardInterrupt):
        run()
    assert len(run()) == 4 * 4096  # and the next call runs


def test_a_long_idle_simulate_stops(tmp_path: Path) -> None:
    trace = tmp_path / "idle.csv"
    with trace.open("wb") as f:  # 3 million idle periods of 1 ms sleep, woken after 0.5 ms
        f.write(b"sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns\n")
        f.write(b"1000000,4000000,500000,0,-1\n" * 3_000_000)
    code, err = cli_stopped(["idle", "simulate", str(trace), "--governor", "menu", "--states", "intel-skx"])
    assert code == 130 and "interrupted" in err and "Traceback" not in err, (code, err)


def sigint_as_in_a_terminal() -> None:
    """SIGINT handled as in a terminal: a test run as a background job of a shell starts
    with SIGINT ignored, and an ignored signal is what a real Ctrl-C test must not get."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_the_api_raises_keyboard_interrupt_and_the_next_call_works(tmp_path: Path) -> None:
    """In-process: SIGINT from a timer thread while the main thread is in the core."""

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # a background job's SIGINT: as in a terminal
        signal.signal(signal.SIGINT, signal.default_int_handler)
    trace = b"dur_ns,state\n4000000000000000,R\n"
    timer = threading.Timer(0.3, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        pelt.simulate_csv(trace, write=lambda b: None)
    timer.join()
    # the stop request ended with the call: the next one runs to its end
    assert pelt.simulate_csv(b"dur_ns,state\n1000000,R\n9000000,S\n").count(b"\n") == 5
    assert isinstance(schedlab.stats.amean([1.0, 2.0]), float)


@pytest.fixture(scope="session")
def long_runs(tmp_path_factory) -> Path:
    """An MMTests work/log tree: two kernels of dbench4, each one loadfile log of
    40,000 completions (one gzip member of them; 4.5 s to compare uninterrupted, its
    subselection draws most of it) and a second of 2,400,000 (the same member sixty
    times: the batch scan and series.history read it in 0.12-0.3 s a tenth as long on a
    quiet machine, which can end before the signal)."""
    root = tmp_path_factory.mktemp("interrupt") / "work" / "log"
    member = gzip.compress(b"   1 completed in 317 ms at time 317 ms\n   0 completed in 300 ms at time 600 ms\n"
                           * 20_000, 1)
    for k in KERNELS:
        logs = root / k / "iter-0" / "dbench4" / "logs"
        logs.mkdir(parents=True)
        shutil.copy(DATA / "mmtests" / "logs-legacy" / k / "iter-0" / "tests-timestamp", root / k / "iter-0")
        (logs / "dbench-loadfile-1.log.gz").write_bytes(member)
        (logs / "dbench-loadfile-2.log.gz").write_bytes(member * 60)
    return root


def test_mmtests_compare_stops(long_runs: Path) -> None:
    stops(lambda: mmtests.compare(long_runs, "dbench4", KERNELS))


def test_the_batch_scan_stops(long_runs: Path) -> None:
    stops(lambda: batch.scan(long_runs))


def test_series_history_stops(long_runs: Path) -> None:
    stops(lambda: series.history(long_runs))


def test_series_change_points_stop() -> None:
    # one metric of 600,000 commits, a step every 500: 2.5 s of Otava's windows
    values = np.tile(np.repeat([100.0, 120.0], 500), 600) + np.random.default_rng(0).normal(0, 1, 600_000)
    series.change_points(values[:100])  # the imports of the first call, so that the signal finds the core
    stops(lambda: series.change_points(values))


def test_a_long_bootstrap_stops() -> None:
    # 5 million resamples of 200 values each side: seconds on two cores
    rng = np.random.default_rng(0)
    base, new = rng.uniform(90, 110, 200), rng.uniform(95, 115, 200)
    schedlab.stats.bootstrap_ci(base[:5], new[:5], n_resamples=10, seed=1)
    stops(lambda: schedlab.stats.bootstrap_ci(base, new, n_resamples=5_000_000, seed=1))


def test_an_lkp_matrix_with_many_keys_stops(tmp_path: Path) -> None:
    # 400,000 metrics of three runs in each of base and head (seconds to compare uninterrupted)
    roots = []
    for name in ("b", "h"):
        d = tmp_path / name / (name * 40)
        d.mkdir(parents=True)
        (d / "matrix.json").write_text("{" + ",".join(f'"m.k{i}": [1, 2, 3]' for i in range(400_000)) + "}")
        roots.append(d)
    stops(lambda: lkp.compare(roots[0], roots[1]))


def repeated(path: Path, block: bytes, times: int) -> Path:
    """``block`` (ftrace text with ``SSSSS`` for the seconds) once per second."""
    with open(path, "wb") as f:
        for s in range(10, 10 + times):
            f.write(block.replace(b"SSSSS", b"%05d" % s))
    return path


def test_the_idle_ftrace_import_stops(tmp_path: Path) -> None:
    # 1,200,000 lines: cpu_idle entries and exits on CPU 0, 5,000 periods a second for 120 s
    block = b"".join(b"  <idle>-0 [000] d..1. SSSSS.%06d: cpu_idle: state=1 cpu_id=0\n"
                     b"  <idle>-0 [000] d..1. SSSSS.%06d: cpu_idle: state=4294967295 cpu_id=0\n" % (u, u + 100)
                     for u in range(0, 1_000_000, 200))
    trace = repeated(tmp_path / "idle.txt", block, 120)
    stops(lambda: idle.read_ftrace(trace))


def test_the_pelt_ftrace_import_stops(tmp_path: Path) -> None:
    # 900,000 lines: pid 42 switched in, out to sleep, woken, 5,000 times a second for 60 s
    block = b"".join(
        b"  foo-42 [001] d..2. SSSSS.%06d: sched_switch: prev_comm=a prev_pid=0 prev_prio=120 prev_state=R"
        b" ==> next_comm=foo next_pid=42 next_prio=120\n"
        b"  foo-42 [001] d..2. SSSSS.%06d: sched_switch: prev_comm=foo prev_pid=42 prev_prio=120 prev_state=S"
        b" ==> next_comm=a next_pid=0 next_prio=120\n"
        b"  <idle>-0 [001] d..2. SSSSS.%06d: sched_wakeup: comm=foo pid=42 prio=120 target_cpu=001\n"
        % (u, u + 100, u + 150) for u in range(0, 1_000_000, 200))
    trace = repeated(tmp_path / "task.txt", block, 60)
    stops(lambda: pelt.ftrace_task(trace, 42))


def test_parsing_a_long_pasted_mmtests_table_stops() -> None:
    # 400,000 rows of a compare-mmtests.pl table (tests/data/mmtests/out/2018-*.oracle's
    # layout): 1.0 s to parse uninterrupted on a quiet machine (80,000 took 0.155 s, which
    # could end before the signal at 0.15 s)
    header = ("                             4.18.0                 4.18.0                 4.18.0\n"
              "                            vanilla                    teo        teo-v6+backport\n")
    row = "Amean     1       0.1334 (   0.00%)      0.1388 *  -4.05%*      0.1312 (   1.65%)\n"
    text = header + row * 400_000
    mmtests.parse_compare(header + row)  # the first call's imports, so that the signal finds the core
    stops(lambda: mmtests.parse_compare(text))


def test_a_long_hackbench_log_stops(tmp_path: Path) -> None:
    # MMTests legacy hackbench logs (tests/data/mmtests/logs-legacy), each kernel's group 1
    # with a run of 500,000 "Total time" lines (one gzip member): 5 s to compare uninterrupted
    root = tmp_path / "work" / "log"
    member = gzip.compress(b"     Total time: 0.021 [sec]\n" * 500_000, 1)
    for k in KERNELS:
        src = DATA / "mmtests" / "logs-legacy" / k / "iter-0"
        dst = root / k / "iter-0"
        shutil.copytree(src / "hackbench-process-pipes", dst / "hackbench-process-pipes")
        shutil.copy(src / "tests-timestamp", dst)
        (dst / "hackbench-process-pipes" / "logs" / "hackbench-1-2.gz").write_bytes(member)
    stops(lambda: mmtests.compare(root, "hackbench-process-pipes", KERNELS))


def test_printing_a_long_mmtests_table_stops() -> None:
    # the 400,000 rows of the pasted table above, printed in MMTests' layout (to_text):
    # 2.1 s uninterrupted at a load of 59
    header = ("                             4.18.0                 4.18.0                 4.18.0\n"
              "                            vanilla                    teo        teo-v6+backport\n")
    row = "Amean     1       0.1334 (   0.00%)      0.1388 *  -4.05%*      0.1312 (   1.65%)\n"
    c = mmtests.parse_compare(header + row * 400_000)
    mmtests.parse_compare(header + row).to_text()  # the first call's imports
    stops(c.to_text)


def test_the_generic_views_of_a_long_table_stop() -> None:
    # the same 400,000-row table through the core's generic views (src/table/): markdown,
    # HTML, the tidy CSV and columns, and the report's cell texts each poll the stop flag
    header = ("                             4.18.0                 4.18.0                 4.18.0\n"
              "                            vanilla                    teo        teo-v6+backport\n")
    row = "Amean     1       0.1334 (   0.00%)      0.1388 *  -4.05%*      0.1312 (   1.65%)\n"
    c = mmtests.parse_compare(header + row * 400_000)
    small = mmtests.parse_compare(header + row)
    for view in ("to_markdown", "_repr_html_", "to_csv", "cell_texts"):
        getattr(small, view)()  # the first call's imports
        stops(getattr(c, view))


def test_printing_a_long_lkp_table_stops() -> None:
    # 150,000 rows of a pasted lkp table (lkp's own layout: tests/data/lkp), printed back
    # in lkp's layout (to_text, which makes each row's numbers as it prints it): 100,000
    # rows took 0.9 s to print at a load of 32, so 150,000 outlast the signal when quiet
    text = ("         %stddev     %change         %stddev\n"
            "             \\          |                \\  \n"
            + "".join(f"    100.00 ±  3%    +100.0%     200.00 ±  4%  unixbench.k{i}\n" for i in range(150_000)))
    c = lkp.parse_comparison(text)
    assert len(c.rows) == 150_000
    lkp.parse_comparison(text[:300]).to_text()  # the first call's imports
    stops(c.to_text)

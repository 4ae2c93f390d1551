"""Hostile concurrency: 8 Python threads calling the same heavy functions on shared
inputs, ``fork`` after parallel work in every module with a parallel path, and
``SCHEDLAB_NUM_THREADS`` observed as the worker threads the process really has.

- Identical results: each threaded call equals the result of one call made alone.
- Progress together: every call releases the GIL while Rust works, so the 8 calls
  are all inside at once and a new Python thread runs meanwhile: each call pauses at
  its first cancellation check on a gate (docs/cancel.md §3) until all 8 are there,
  so nothing is timed. How the work spreads over the cores is a measurement, not a
  test.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from schedlab import _testing, batch, idle, lkp, mmtests, stats

DATA = Path(__file__).parent / "data"
LEGACY = DATA / "mmtests" / "logs-legacy"
# 40 commits' result roots (base and head of the random lkp goldens)
LKP = sorted(p for case in sorted((DATA / "lkp" / "golden" / "random").iterdir())[:20]
             for side in ("base", "head") for p in (case / side).iterdir() if p.is_dir())
N_THREADS = 8
HANG_GUARD_S = 240.0  # seconds a wait may last before the test fails instead of hanging

rng = np.random.default_rng(8)
# inputs as big as a few cancellation checks need: the gate, not the duration, shows
# that the calls are inside together (each has at least one check before its work ends)
PAIRS = [(rng.normal(100, 5, 500), rng.normal(101, 5, 500)) for _ in range(400)]
TRACES = {cpu: idle.poisson(8_000, 300_000, seed=cpu) for cpu in range(8)}
NAMES = [f"k{i}" for i in range(8)]


@pytest.fixture(scope="module")
def big_work_log(tmp_path_factory) -> Path:
    """A work/log tree of 8 kernels with 5 iterations each (symbolic links to the
    fixture's two runs): a compare with many logs to read."""
    root = tmp_path_factory.mktemp("work-log")
    runs = [LEGACY / "6.8-vanilla", LEGACY / "6.9-patched"]
    for i, name in enumerate(NAMES):
        for it in range(5):
            d = root / name / f"iter-{it}"
            d.mkdir(parents=True)
            for bench in (runs[i % 2] / "iter-0").iterdir():
                (d / bench.name).symlink_to(bench)
    return root


def _compare_many():
    return stats.compare_many(PAIRS, threads=1)


def _simulate_many():
    return idle.simulate_many("teo", TRACES, "intel-skx", threads=1)


def _mmtests(root: Path):
    return mmtests.compare(root, "netperf-udp", NAMES, compat="2025", threads=1).to_json()


def _lkp():
    return lkp.compare(*LKP, all_keys=True).to_json()


def _sans_timings(r: batch.BatchResult) -> str:
    """The result without its measured seconds (which differ between any two runs)."""
    return json.dumps({k: v for k, v in r.data.items() if k != "timings"})


def _batch(root: Path):
    return _sans_timings(batch.run([root], NAMES[0], jobs=1))


HEAVY = {"stats.compare_many": _compare_many, "idle.simulate_many": _simulate_many,
         "mmtests.compare": _mmtests, "lkp.compare": _lkp, "batch.run": _batch}
NEEDS_TREE = {"mmtests.compare", "batch.run"}


def heavy(name: str, root: Path):
    f = HEAVY[name]
    return (lambda: f(root)) if name in NEEDS_TREE else f


def _same(a, b) -> bool:
    if hasattr(a, "equals"):
        return a.equals(b)
    return a == b


def _together(f, n=N_THREADS):
    """``f`` called from ``n`` threads, each under the pause hook of one gate
    (docs/cancel.md §3): every call waits at its first cancellation check until all ``n``
    wait there, which they can only do if none holds the GIL or a lock the others need.
    Then, while all are inside, a fresh Python thread runs Python code to its end. Then
    the gate opens. Returns the results, whether all ``n`` were inside at once, and
    whether the Python thread ran meanwhile. The waits are hang guards, not time bounds."""
    gate = _testing.pause_gate()

    def call(_):
        with gate.hold():
            return f()

    with ThreadPoolExecutor(n) as ex:
        futures = [ex.submit(call, i) for i in range(n)]
        all_inside = gate.wait_reached(n, HANG_GUARD_S)
        ran: list[int] = []
        if all_inside:
            t = threading.Thread(target=lambda: ran.append(sum(range(100_000))))
            t.start()
            t.join(HANG_GUARD_S)
        gate.open()
        results = [fu.result() for fu in futures]
    assert not gate.gave_up
    return results, all_inside, ran == [sum(range(100_000))]


@pytest.mark.parametrize("name", list(HEAVY))
def test_eight_threads_get_identical_results(name, big_work_log):
    """The public call from 8 threads at once: every result equals the call made alone,
    and the calls were inside together (all 8 waited at the gate at once)."""
    f = heavy(name, big_work_log)
    alone = f()
    results, all_inside, _ = _together(f)
    assert all_inside, f"{name}: the calls could not all be inside at once"
    assert all(_same(r, alone) for r in results), f"{name}: a threaded call differs from the single call"


def _plain(v):
    """Nested lists, tuples and arrays as plain lists (comparable with ==); a batch
    result's JSON without its measured ``timings``."""
    if isinstance(v, str) and v.startswith('{"schema":"schedlab-batch"'):
        return {k: x for k, x in json.loads(v).items() if k != "timings"}
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v.tolist() if isinstance(v, np.ndarray) else v


def _native(name: str, root: Path):
    """The native call under each public one, its inputs prepared once: what runs with
    the GIL released (the public wrappers add Python work that holds the GIL, and 8
    threads of it make the ticker wait its turn whatever the native code does)."""
    from schedlab import _core
    from schedlab import idle as idle_mod

    if name == "stats.compare_many":
        bv, bl = stats._pack([p[0] for p in PAIRS], "base")
        nv, nl = stats._pack([p[1] for p in PAIRS], "new")
        return lambda: _core.compare_many(bv, bl, nv, nl, higher_is_better=True, method="auto", threads=1)
    if name == "idle.simulate_many":
        traces = [idle_mod.trace(t) for t in TRACES.values()]
        states = idle_mod.states("intel-skx")
        return lambda: _core.idle_simulate_many("teo", "6.12", 250, states, traces, threads=1)
    if name == "mmtests.compare":
        return lambda: _core.mmtests_compare(os.fspath(root), "netperf-udp", NAMES, compat="2025", threads=1)[0]
    if name == "lkp.compare":
        return lambda: _core.lkp_compare_text([os.fspath(p) for p in LKP], all_keys=True)
    return lambda: _core.batch_run([os.fspath(root)], baseline=NAMES[0], jobs=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HEAVY))
def test_native_work_releases_the_gil(name, big_work_log):
    """The native call from 8 threads: all 8 wait inside the core at once, and meanwhile
    a new Python thread runs to its end (neither could happen if a call held the GIL);
    the results are identical."""
    f = _native(name, big_work_log)
    alone = f()
    results, all_inside, python_ran = _together(f)
    assert all_inside, f"{name}: the native calls could not all be inside at once"
    assert python_ran, f"{name}: no Python thread ran while the native calls were inside"
    assert all(_plain(r) == _plain(alone) for r in results)  # compared without timings (batch)


SMALL = {
    "stats.compare_many": lambda: stats.compare_many(PAIRS[:50], threads=2),
    "idle.simulate_many": lambda: idle.simulate_many("menu", {c: TRACES[c].to_pandas()[:500] for c in range(4)}, "intel-skx",
                                                     threads=2),
    "mmtests.compare": lambda: mmtests.compare(LEGACY, "hackbench-process-pipes", ["6.8-vanilla", "6.9-patched"],
                                               compat="2025", threads=2).to_json(),
    "lkp.compare": lambda: lkp.compare(*LKP[:4]).to_json(),
    "batch.run": lambda: _sans_timings(batch.run([LEGACY], "6.8-vanilla", jobs=2)),
}


def _fork_child(q, name):
    try:
        q.put(("ok", SMALL[name]()))
    except BaseException as e:  # report, never hang
        q.put(("error", repr(e)))


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
@pytest.mark.parametrize("name", list(SMALL))
def test_fork_after_parallel_work_completes(name):
    """Every module's parallel path used in the parent (pools of 2 threads built), then
    the same call in a forked child: it completes, with the parent's result."""
    for f in SMALL.values():
        f()
    expected = SMALL[name]()
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_fork_child, args=(q, name))
    p.start()
    status, got = q.get(timeout=120)
    p.join(30)
    assert not p.is_alive(), f"forked child hung after {name}"
    assert status == "ok", got
    assert _same(got, expected)


THREADS_SEEN = """
import os, numpy as np
from schedlab import idle, stats
stats.compare_many([(np.arange(50.0), np.arange(50.0) + 1)] * 200)
idle.simulate_many("teo", {c: idle.poisson(2000, 300_000, seed=c) for c in range(8)}, "intel-skx")
names = [open(f"/proc/self/task/{t}/comm").read().strip() for t in os.listdir("/proc/self/task")]
print(sum(n.startswith("schedlab-") for n in names))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("n", ["1", "3"])
def test_num_threads_env_is_the_pool_size(n):
    env = dict(os.environ, SCHEDLAB_NUM_THREADS=n)
    out = subprocess.run([sys.executable, "-c", THREADS_SEEN], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == n, f"SCHEDLAB_NUM_THREADS={n} but {out.stdout.strip()} schedlab-* threads"

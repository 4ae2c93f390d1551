"""schedlab.distributed on a LocalCluster of two spawned worker processes: the same
result as the local run (errors included), picklable results and errors, and rayon
bounded to the threads each task is given. Skipped when the dask extra is missing."""

from __future__ import annotations

import pickle
from pathlib import Path

import dask
import distributed
import pytest
import schedlab  # noqa: E402
from schedlab import batch  # noqa: E402
from schedlab import distributed as sd  # noqa: E402

from .batch_archives import build, gzip_bomb  # noqa: E402

DATA = Path(__file__).parent / "data"
LKP = DATA / "lkp/golden/scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7"
BASE_A = "a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01"


@pytest.fixture(scope="module")
def client():
    # spawned (not forked) worker processes: the extension is imported afresh in each
    with dask.config.set({"distributed.worker.multiprocessing-method": "spawn"}):
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=40)
        c = distributed.Client(cluster)
        try:
            yield c
        finally:
            c.close()
            cluster.close()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[Path]:
    """Twelve inputs of every archive kind: MMTests trees of both layouts and lkp
    result trees, so that the cluster scans them on both workers."""
    d = tmp_path_factory.mktemp("dask")
    out = []
    for i, kind in enumerate(("tar", "tar.gz", "tgz", "tar.xz", "zip", "tar.gz")):
        out.append(build(DATA / "mmtests" / ("logs-legacy" if i % 2 else "logs-head"), d / f"m{i}.{kind}",
                         f"machine{i}/work/log"))
    # lkp: each box's commits in one archive (the baseline of each head is in its own input)
    for i, kind in enumerate(("tar", "zip", "tar.xz", "tgz", "tar.gz", "zip")):
        out.append(build(LKP, d / f"box{i}.{kind}", f"result/box{i}/gcc-7"))
    return out


def test_workers_are_spawned_processes(client):
    methods = client.run(lambda: __import__("multiprocessing").get_start_method(allow_none=True))
    assert len(methods) == 2
    assert set(methods.values()) <= {"spawn", None}
    pids = client.run(lambda: __import__("os").getpid())
    assert len(set(pids.values())) == 2 and __import__("os").getpid() not in pids.values()


@pytest.mark.parametrize("baseline", ["6.8-vanilla", BASE_A])
def test_same_result_as_the_local_run(client, inputs, baseline):
    local = batch.run(inputs, baseline)
    with distributed.get_task_stream(client) as stream:
        remote = sd.compare_archives(inputs, baseline, client=client)
    assert remote == local
    assert remote.rows == local.rows and remote.data.keys() == local.data.keys()
    assert remote.summary["worse"] > 0 and remote.exit_code == 1
    # the archives were scanned on both workers
    assert len({t["worker"] for t in stream.data}) == 2


def test_options_reach_the_reduce(client, inputs):
    kw = dict(test="mann-whitney", alpha=0.01, min_change=5.0, fail_on="any-change")
    assert sd.compare_archives(inputs, "6.8-vanilla", client=client, **kw) == batch.run(inputs, "6.8-vanilla", **kw)


def test_errors_come_back_as_the_local_run_raises_them(client, inputs, tmp_path):
    bomb = gzip_bomb(tmp_path / "bomb.tar.gz")
    bad = inputs[:3] + [bomb, tmp_path / "missing.zip"]
    with pytest.raises(schedlab.ParseError) as local:
        batch.run(bad, "6.8-vanilla")
    with pytest.raises(schedlab.ParseError) as remote:
        sd.compare_archives(bad, "6.8-vanilla", client=client)
    assert (str(remote.value), remote.value.path) == (str(local.value), local.value.path)
    assert "bomb.tar.gz" in str(remote.value) and "big.log" in str(remote.value)
    kept = sd.compare_archives(bad, "6.8-vanilla", client=client, keep_going=True)
    assert kept == batch.run(bad, "6.8-vanilla", keep_going=True)
    assert kept.exit_code == 2 and [e["input"] for e in kept.errors] == [str(bomb), str(tmp_path / "missing.zip")]


def _schedlab_threads() -> int:
    import os

    n = 0
    for t in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{t}/comm") as f:
                n += f.read().startswith("schedlab-")
        except OSError:
            pass
    return n


def test_rayon_uses_at_most_the_threads_a_task_is_given(client, inputs):
    # (runs before any test submits a whole batch.run to the workers)
    sd.compare_archives(inputs, "6.8-vanilla", client=client)  # threads=1 per task (the default)
    assert set(client.run(_schedlab_threads).values()) == {1}
    # the local run bounds its pool the same way
    batch.run(inputs, "6.8-vanilla", jobs=1)
    fut = client.submit(lambda: (batch.run([str(p) for p in inputs], "6.8-vanilla", jobs=2), _schedlab_threads())[1])
    assert fut.result() <= 1 + 2


def test_results_and_errors_pickle(client, inputs):
    r = sd.compare_archives(inputs[:2], "6.8-vanilla", client=client)
    assert pickle.loads(pickle.dumps(r)) == r
    # a result computed on a worker and sent back whole
    fut = client.submit(batch.run, [str(inputs[0])], "6.8-vanilla", pure=False)
    assert fut.result() == batch.run([inputs[0]], "6.8-vanilla")
    fut = client.submit(batch.scan, "/nonexistent/x.tgz")
    s = fut.result()
    assert s.data is None and isinstance(s.error, schedlab.FileNotFoundError) and s.error.path == "/nonexistent/x.tgz"


def test_local_scheduler_without_a_client(inputs):
    assert sd.compare_archives(inputs[:4], "6.8-vanilla", npartitions=2) == batch.run(inputs[:4], "6.8-vanilla")
    with pytest.raises(schedlab.DomainError):
        sd.compare_archives([], "6.8-vanilla")


def test_worker_killed_mid_run_gives_the_local_result(client, tmp_path):
    """A worker process killed (SIGKILL) while the scans run, after it finished some:
    Dask runs its tasks again elsewhere (the nanny restarts it) and the result equals
    the local run's, nothing counted twice. benchmarks/dask_worker_loss.py does the same
    with 1,000 archives. (The last test of the module: it kills one of the fixture's
    workers.)"""
    import os
    import signal
    import time

    from .batch_archives import tiny_mmtests

    paths = [tiny_mmtests(tmp_path / f"a{i:03d}.tar", i) for i in range(120)]
    local = batch.run(paths, "base")
    c = client
    pids = c.run(os.getpid)
    bag = c.persist(sd.scan_bag(paths, npartitions=60, client=c))
    futures = distributed.futures_of(bag)
    victim = None
    while victim is None:  # the first worker holding a finished scan
        held = c.who_has([f for f in futures if f.status == "finished"])
        victim = next((ws[0] for ws in held.values() if ws), None)
        time.sleep(0.005)
    done_at_kill = sum(f.status == "finished" for f in futures)
    os.kill(pids[victim], signal.SIGKILL)
    # the persisted scans, some of them lost with the worker, reduced on the cluster
    got = c.compute(dask.delayed(batch.reduce, pure=True)(bag, "base")).result(timeout=120)
    # and the lazy API from scratch on what is left of the cluster
    assert c.compute(sd.compare_archives(paths, "base", client=c, compute=False)).result(timeout=120) == local
    assert done_at_kill < len(futures)  # killed mid-run
    assert got == local and got.summary["rows"] == len(paths) == local.summary["comparisons"]

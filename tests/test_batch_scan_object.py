"""The batch scan as the core's own object (``schedlab.batch.Scan``): what it holds,
read through typed accessors; its pickle form (JSON, what a Dask worker sends); the
reduce taking the objects; the bindings' keyword-only arguments; the defaults
(thread count, archive limits) served by the core. Expected values are the trees
written here by hand: which kernels ran which benchmark, which run failed."""

from __future__ import annotations

import inspect
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
import schedlab
from schedlab import _core, batch

TIMES = {"base": [0.081, 0.083, 0.080, 0.082, 0.081], "patched": [0.090, 0.091, 0.089, 0.092, 0.090]}


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """A work/log tree: hackbench-process-pipes run by base and patched, and a
    netperf-udp run by patched that failed (MMTests kept only mmtests.log)."""
    log = tmp_path / "work" / "log"
    for kernel, values in TIMES.items():
        logs = log / kernel / "iter-0" / "hackbench-process-pipes" / "logs"
        logs.mkdir(parents=True)
        for i, v in enumerate(values, 1):
            (logs / f"hackbench-4-{i}").write_text(f"Total time: {v} [sec]\n")
    failed = log / "patched" / "iter-0" / "netperf-udp" / "logs"
    failed.mkdir(parents=True)
    (failed / "mmtests.log").write_text("FATAL: netserver did not start\n")
    return tmp_path


def test_a_scan_is_the_cores_frozen_object(tree: Path) -> None:
    s = batch.scan(tree)
    assert type(s) is _core.Scan and s.ok and s.error is None
    assert s.input == os.fspath(tree) and s.kind == "dir"
    # three run directories: two hackbench runs read, the netperf-udp run failed
    assert s.mmtests_runs == 3 and s.lkp_roots == 0
    assert sorted((r["benchmark"], r["kernel"]) for r in s.runs) == [("hackbench-process-pipes", "base"),
                                                                       ("hackbench-process-pipes", "patched")]
    assert [(f["benchmark"], f["kernel"]) for f in s.failed] == [("netperf-udp", "patched")]
    assert s.skipped == []
    # the hackbench samples as written above (metric "4": 4 groups)
    patched = next(r for r in s.runs if r["kernel"] == "patched")
    assert patched["metrics"][0]["samples"] == TIMES["patched"]
    with pytest.raises(AttributeError):
        s.input = "x"  # type: ignore[misc]


def test_the_benchmarks_of_a_scan_are_the_cores(tree: Path) -> None:
    got = batch.scan(tree).mmtests_benchmarks()
    assert set(got) == {"hackbench-process-pipes", "netperf-udp"}
    assert got["hackbench-process-pipes"] == (["base", "patched"], {}, None)
    read, failed, skipped = got["netperf-udp"]
    assert read == [] and list(failed) == ["patched"] and skipped is None
    # a setup no run is in holds nothing
    assert batch.scan(tree).mmtests_benchmarks("elsewhere/work/log") == {}


def test_scans_pickle_as_their_json_and_compare_equal(tree: Path) -> None:
    s = batch.scan(tree)
    again = pickle.loads(pickle.dumps(s))
    assert type(again) is _core.Scan and again == s and again.runs == s.runs
    assert _core.Scan.from_json(s.to_json() or "") == s
    bad = batch.scan(tree / "nonexistent")
    back = pickle.loads(pickle.dumps(bad))
    assert not back.ok and back.data is None and back.to_json() is None
    assert isinstance(back.error, schedlab.FileNotFoundError) and back.error.path == os.fspath(tree / "nonexistent")
    assert back == bad and back != s


def test_reduce_takes_the_scan_objects(tree: Path) -> None:
    scans = [batch.scan(tree)]
    r = batch.reduce(scans, "base")
    assert r == batch.run([tree], "base")
    # 0.0814 s -> 0.0904 s mean time: 100 - 100 * 0.0904 / 0.0814 = -11.06 %
    assert [(x["kernel"], x["verdict"], round(x["change_pct"], 2)) for x in r.rows] == [("patched", "worse", -11.06)]
    missing = batch.scan(tree / "nonexistent")
    with pytest.raises(schedlab.FileNotFoundError):
        batch.reduce([missing, *scans], "base")
    kept = batch.reduce([missing, *scans], "base", keep_going=True)
    assert [e["input"] for e in kept.errors] == [os.fspath(tree / "nonexistent")] and kept.exit_code == 2
    with pytest.raises(schedlab.DomainError, match="at least one"):
        batch.reduce([], "base")


def test_a_failed_download_is_a_scan_holding_its_error() -> None:
    err = schedlab.ReadError("s3://b/x.tgz: cannot read: denied", "s3://b/x.tgz")
    s = _core.Scan.from_error("s3://b/x.tgz", err)
    assert not s.ok and s.error is err and s.runs == [] and s.mmtests_runs == 0
    with pytest.raises(schedlab.DomainError, match="exception"):
        _core.Scan.from_error("x", "not an exception")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["batch_run", "batch_scan", "batch_scan_bytes", "batch_reduce",
                                  "mmtests_report_tables"])
def test_bindings_take_at_most_two_positional_arguments(name: str) -> None:
    params = inspect.signature(getattr(_core, name)).parameters.values()
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert len(positional) <= 2, positional


def test_the_limits_defaults_are_the_cores() -> None:
    # src/batch/options.rs batch_limits: 64 MiB per entry, 256 MiB per archive, 100,000 entries
    assert batch.LIMIT_DEFAULTS == batch.Limits(64 << 20, 256 << 20, 100_000)
    assert batch.MARKDOWN_BUDGET == 60_000


def _run(code: str, threads: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SCHEDLAB_NUM_THREADS=threads)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("value", ["abc", "0", "-3", "1.5"])
def test_an_invalid_thread_count_is_a_domain_error_naming_the_variable(tree: Path, value: str) -> None:
    code = ("import schedlab\nfrom schedlab import batch\n"
            "try:\n"
            f"    batch.run([{os.fspath(tree)!r}], 'base', progress=lambda n: None)\n"
            "except schedlab.DomainError as e:\n"
            "    print('DomainError:', e)\n")
    out = _run(code, value)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"DomainError: SCHEDLAB_NUM_THREADS must be a positive integer, got '{value}'"
    cli = subprocess.run([sys.executable, "-m", "schedlab", "batch", os.fspath(tree), "--baseline", "base"],
                         env=dict(os.environ, SCHEDLAB_NUM_THREADS=value), capture_output=True, text=True,
                         timeout=120)
    assert cli.returncode == 2 and "SCHEDLAB_NUM_THREADS must be a positive integer" in cli.stderr
    assert "Traceback" not in cli.stderr


def test_a_valid_thread_count_is_capped_by_the_core() -> None:
    # src/parallel.rs MAX_THREADS: 1024
    assert _run("from schedlab import _core; print(_core.default_threads())", "5000").stdout.strip() == "1024"
    assert _run("from schedlab import _core; print(_core.default_threads())", " 3 ").stdout.strip() == "3"

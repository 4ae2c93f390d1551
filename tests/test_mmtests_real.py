"""`schedlab report` and `schedlab batch` through the command line on a real, published
MMTests tree (tests/data/mmtests/real/: two roots `work/log.<host>.<date>` of config-named
runs, benchmarks that failed while installing, aborted or that schedlab has no extractor
for; source and licence in its README). Every benchmark of every root is summarised or
listed with its reason, nothing aborts the rest, and the exit code fails closed: 2 for the
failed benchmarks, with --allow-missing 1 when a verdict is worse, else 0.

The report draws a figure per benchmark (seconds each on a loaded machine), so the report
test reads the runs of one root that cover every case; SCHEDLAB_REAL_FULL=1 also runs it on
the whole tree (both roots, every run)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REAL = Path(__file__).parent / "data" / "mmtests" / "real" / "mmtests_CI"
ROOTS = sorted((REAL / "work").iterdir())

#: The benchmarks of the tree that failed in a run, as MMTests left them (README), each with
#: words its reason must hold (the exit code, MMTests' own FATAL line, or what is empty).
FAILED = {
    ("forkintensive", "hackbench-process-pipes"): ("holds only mmtests.log", "no 'test begin' line",
                                                   "FATAL hackbench-bench: perfbuild install script returned error"),
    ("hackbench-process-pipes", "hackbench-process-pipes"): ("holds only mmtests.log",
                                                              "FATAL hackbench-bench: perfbuild"),
    ("perfsyscall", "perfsyscall"): ("holds only mmtests.log", "FATAL perfsyscall-bench"),
    ("sysbench-postgres-oltp-rw-small", "sysbench"): ("holds no sysbench result file",
                                                      "FATAL sysbench-bench: sysbench install script returned"),
    ("iperf-s14-r10000-tcp-unbound", "iperf3"): ("exit code 255", "FATAL iperf3-bench: Failed to start iperf3"),
    ("sockperf-unbound", "sockperf-tcp-under-load"): ("aborted", "none of the 15 result files"),
    ("sockperf-unbound", "sockperf-udp-under-load"): ("aborted", "none of the 15 result files"),
}

#: The runs the quick report test reads: every failed benchmark, blogbench (one run, read
#: since schedlab has its extractor), sockperf in two runs (compared) and in one (summarised alone).
QUICK = ("forkintensive", "hackbench-process-pipes", "perfsyscall", "sysbench-postgres-oltp-rw-small",
         "iperf-s14-r10000-tcp-unbound", "sockperf-unbound", "sockperf-tcp-throughput", "blogbench")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "schedlab", *args], capture_output=True, text=True, timeout=900)


def _benchmarks(root: Path) -> set[tuple[str, str]]:
    """(run, benchmark) of every logs/ directory of the root."""
    return {(p.parts[-4], p.parts[-2]) for p in root.glob("*/iter-0/*/logs")}


def test_the_tree_is_what_the_readme_says():
    assert [r.name for r in ROOTS] == ["log.ltccip8.2020-06-12_1807", "log.ltccip8.2020-06-14_0656"]
    for root in ROOTS:
        assert set(FAILED) <= _benchmarks(root)
        assert len(_benchmarks(root)) == 18


def _check_report(tree: Path, roots: list[Path], tmp: Path) -> None:
    r = _cli("report", str(tree), "-o", str(tmp / "report.html"))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    for root in roots:
        assert f"MMTests {tree.name}/work/{root.name}: kernels " in r.stdout, r.stdout
        errors = [x for x in r.stderr.splitlines() if x.startswith(f"schedlab report: error: missing data: MMTests "
                                                                    f"{tree.name}/work/{root.name}: ")]
        listed = set()
        for run, bench in sorted(_benchmarks(root)):
            if (run, bench) in FAILED:
                line = next((x for x in errors if f": {bench} of {run}: " in x), None)
                assert line is not None, (run, bench, r.stderr)
                for words in FAILED[(run, bench)]:
                    assert words in line, (words, line)
                listed.add((run, bench))
            elif bench == "blogbench":
                assert "blogbench (Higher is better): one run with results (blogbench), nothing to compare" \
                       in r.stdout, r.stdout
            else:
                assert f"\n{bench} (" in r.stdout, (bench, r.stdout)
        assert len(errors) == len(listed), errors  # nothing else is missing
    # one run: its statistics, nothing compared; two runs of one root: compared
    assert "sockperf-udp-throughput (Higher is better): one run with results (sockperf-unbound), nothing to " \
           "compare" in r.stdout
    assert "sockperf-tcp-throughput (vs sockperf-tcp-throughput) (Higher is better): sockperf-unbound " in r.stdout
    # the era of 2020's logs, told from tests-timestamp (docs/mmtests.md §0.1)
    assert ": sockperf-tcp-throughput: era 2024: " in r.stderr and "7cc7bac7" in r.stderr, r.stderr
    a = _cli("report", str(tree), "--allow-missing", "-o", str(tmp / "report.html"))
    changed = r.stdout.split("\nWhat changed\n")[1].split("\nDetails\n")[0]
    worse = any(" worse " in line for line in changed.splitlines())
    assert a.returncode == (1 if worse else 0), a.stderr
    assert a.stderr.count("warning: missing data: ") == r.stderr.count("error: missing data: ")


@pytest.mark.slow
def test_report_summarises_every_benchmark_and_lists_the_failed_ones(tmp_path):
    tree = tmp_path / "mmtests_CI"
    root = tree / "work" / ROOTS[0].name
    for run in QUICK:
        shutil.copytree(ROOTS[0] / run, root / run)
    _check_report(tree, [root], tmp_path)


@pytest.mark.skipif(not os.environ.get("SCHEDLAB_REAL_FULL"), reason="the whole tree takes a minute: "
                    "SCHEDLAB_REAL_FULL=1")
def test_report_on_the_whole_tree(tmp_path):
    _check_report(REAL, ROOTS, tmp_path)


@pytest.mark.parametrize("root", ROOTS, ids=lambda p: p.name)
def test_batch_lists_every_benchmark_and_fails_closed(root, tmp_path):
    out = tmp_path / "r.json"
    r = _cli("batch", str(root), "--baseline", "sockperf-unbound", "--format", "json", "-o", str(out))
    assert r.returncode == 2, r.stderr
    res = json.loads(out.read_text())
    assert res["exit_code"] == 2
    missing = [m["message"] for m in res["missing"]]
    for (run, bench), words in FAILED.items():
        line = next((m for m in missing if f"/{run}: skipped: benchmark '{bench}' " in m), None)
        assert line is not None, (run, bench, missing)
        for w in words:
            assert w in line, (w, line)
    assert len(missing) == len(FAILED), missing
    rows = res["rows"]
    compared = {(x["kernel"], x["benchmark"]) for x in rows} | {(x["baseline"], x["benchmark"]) for x in rows}
    unmatched = {(x["kernel"], x["benchmark"]) for x in res["unmatched"]}
    for run, bench in _benchmarks(root):
        if (run, bench) in FAILED:
            continue
        assert (run, bench) in compared | unmatched, (run, bench)
    assert ("sockperf-tcp-throughput", "sockperf-tcp-throughput") in compared
    assert res["notes"] and all(": MMTests 2024: " in n for n in res["notes"]), res["notes"]
    r = _cli("batch", str(root), "--baseline", "sockperf-unbound", "--allow-missing", "--format", "json")
    res = json.loads(r.stdout)
    assert r.returncode == res["exit_code"] == (1 if res["summary"]["worse"] else 0), r.stderr


@pytest.mark.slow
def test_report_on_an_archive_reads_every_log_directory_in_it(tmp_path):
    """A lab keeps its results as one archive of several ``work/log.<host>.<date>``
    directories: the report reads each of them, as it reads the unpacked tree, and says
    which one each line is about (``ARCHIVE/<dir>``)."""
    import tarfile

    tree = tmp_path / "mmtests_CI"
    runs = ("sockperf-unbound", "sockperf-tcp-throughput", "perfsyscall")
    for root in ROOTS:
        for run in runs:
            shutil.copytree(root / run, tree / "work" / root.name / run)
    with tarfile.open(tmp_path / "lab.tar.gz", "w:gz") as t:
        t.add(tree, arcname="mmtests_CI")
    on_dir = _cli("report", str(tree), "-o", str(tmp_path / "dir.html"))
    on_archive = _cli("report", str(tmp_path / "lab.tar.gz"), "-o", str(tmp_path / "archive.html"))
    assert on_dir.returncode == on_archive.returncode == 2, on_archive.stderr
    for root in ROOTS:
        assert f"MMTests lab.tar.gz/mmtests_CI/work/{root.name}: kernels " in on_archive.stdout, on_archive.stdout
        assert f"MMTests mmtests_CI/work/{root.name}: kernels " in on_dir.stdout, on_dir.stdout

    def same(text: str) -> list[str]:
        return [x.replace("lab.tar.gz/", "") for x in text.splitlines() if not x.startswith(("Inputs: ", "wrote "))]

    assert same(on_archive.stdout) == same(on_dir.stdout)
    assert same(on_archive.stderr) == same(on_dir.stderr)
    failed_here = [k for k in FAILED if k[0] in runs]  # perfsyscall, sockperf's two under-load
    for root in ROOTS:
        for run, bench in failed_here:
            assert f"missing data: MMTests lab.tar.gz/mmtests_CI/work/{root.name}: {bench} of {run}: " \
                in on_archive.stderr, (root, run, bench)
    assert on_archive.stderr.count("error: missing data: ") == len(ROOTS) * len(failed_here) == 6

    # one directory of the archive, named inside it, reads as the unpacked directory;
    # the archive alone is ambiguous here and the error names the directories
    args = ["-b", "sockperf-tcp-throughput", "-n", "sockperf-tcp-throughput,sockperf-unbound"]
    inner = _cli("mmtests", "compare", "-d", f"{tmp_path}/lab.tar.gz/mmtests_CI/work/{ROOTS[1].name}", *args)
    unpacked = _cli("mmtests", "compare", "-d", str(tree / "work" / ROOTS[1].name), *args)
    assert inner.returncode == unpacked.returncode == 0, inner.stderr
    assert inner.stdout == unpacked.stdout and "tcp-throughput" in inner.stdout
    both = _cli("mmtests", "compare", "-d", str(tmp_path / "lab.tar.gz"), *args)
    assert both.returncode == 2 and "several MMTests log directories" in both.stderr, both.stderr
    assert all(f"mmtests_CI/work/{r.name}" in both.stderr for r in ROOTS), both.stderr

    # batch over the archive: the same benchmark and runs in each directory, each line
    # saying which directory it is about
    b = _cli("batch", str(tmp_path / "lab.tar.gz"), "--baseline", "sockperf-unbound", "--allow-missing",
             "--format", "text")
    lines = [x for x in b.stdout.splitlines() if x.split(" ", 1)[0] in ("WORSE", "BETTER", "CHANGED", "INCONCLUSIVE")
             or x.startswith("not compared: ")]
    assert lines, b.stdout
    assert all(sum(f" [mmtests_CI/work/{r.name}] " in x for r in ROOTS) == 1 for x in lines), lines
    assert len(set(lines)) == len(lines), lines

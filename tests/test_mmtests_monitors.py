"""`--print-monitor` from the command line and the Python API, against the goldens that
MMTests' own compare-mmtests.pl printed (tests/data/mmtests/monitors, made by
tools/oracles/mmtests/monitors.sh); and `schedlab report` on a tree where one run's
benchmark failed (tests/data/mmtests/failed, made by tools/oracles/mmtests/failed.sh)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import schedlab.mmtests as mm

from . import goldens

DATA = Path(__file__).parent / "data" / "mmtests"
MON = DATA / "monitors"
NAMES = "6.8-vanilla,6.9-teo,6.9-menu"
BENCH = "hackbench-process-pipes"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "schedlab", *args], capture_output=True, text=True, timeout=300)


def _golden(era: str, monitor: str, sub_heading: str = "", tree: str = "tree") -> str:
    """The Perl's table of tests/data/mmtests/monitors/goldens.csv with these parameters."""
    g = goldens.find("mmtests/monitors", tree=tree, era=era, monitor=monitor, sub_heading=sub_heading)
    return (MON / g["golden"]).read_text()


def test_cli_print_monitor_is_the_perls_table():
    # a few (tests/it/mmtests_monitors.rs checks every golden of goldens.csv)
    for era, mon, sub in [("head", "vmstat", ""), ("2024", "iostat", "vda-await"), ("2025", "proc-interrupts", "")]:
        extra = ["--sub-heading", sub] if sub else []
        r = _cli("mmtests", "compare", "-d", str(MON / "tree"), "-b", BENCH, "-n", NAMES, "--compat", era,
                 "--print-monitor", mon, *extra)
        assert r.returncode == 0, r.stderr
        assert r.stdout == _golden(era, mon, sub)


def test_print_monitor_reads_an_archive_and_a_directory_inside_one(tmp_path):
    import tarfile

    with tarfile.open(tmp_path / "lab.tar.gz", "w:gz") as t:
        t.add(MON / "tree", arcname="m1/work/log")
    want = _golden("head", "vmstat")
    for d in (tmp_path / "lab.tar.gz", tmp_path / "lab.tar.gz" / "m1" / "work" / "log"):
        r = _cli("mmtests", "compare", "-d", str(d), "-b", BENCH, "-n", NAMES, "--compat", "head",
                 "--print-monitor", "vmstat")
        assert r.returncode == 0, r.stderr
        assert r.stdout == want
    c = mm.monitor(tmp_path / "lab.tar.gz", BENCH, NAMES, "mpstat", "2024", sub_heading="node-0")
    assert c.to_text() == _golden("2024", "mpstat", "node-0")


def test_api_monitor_and_mmtests_quirk_warning():
    c = mm.monitor(MON / "tree", BENCH, NAMES, "mpstat", "2024", sub_heading="node-0")
    assert c.to_text() == _golden("2024", "mpstat", "node-0")
    assert [r.group for r in c.rows] == ["Amean", "Max"]
    # MMTests reports only the first iteration of the first run's own data: said, not hidden
    assert any("first iteration" in w for w in c.warnings)
    r = _cli("mmtests", "compare", "-d", str(MON / "tree"), "-b", BENCH, "-n", NAMES, "--print-monitor", "mpstat")
    assert r.returncode == 2 and "node-N" in r.stderr


def test_report_lists_a_failed_benchmark_and_reports_the_rest(tmp_path):
    good = DATA / "logs-legacy" / "6.8-vanilla" / "iter-0"
    failed = DATA / "failed" / "head" / "failed" / "iter-0"
    log = tmp_path / "work" / "log"
    for k in ("base", "new", "third"):
        it = log / k / "iter-0"
        shutil.copytree(good / BENCH, it / BENCH)
        shutil.copy(good / "tests-timestamp", it / "tests-timestamp")
    # new's hackbench failed: MMTests kept only mmtests.log, tests-timestamp has exit code 1
    shutil.rmtree(log / "new" / "iter-0" / BENCH / "logs")
    shutil.copytree(failed / BENCH / "logs", log / "new" / "iter-0" / BENCH / "logs")
    shutil.copy(failed / "tests-timestamp", log / "new" / "iter-0" / "tests-timestamp")
    r = _cli("report", str(tmp_path), "--baseline", "base", "-o", "-")
    assert r.returncode == 2, r.stderr
    assert f"{BENCH} of new" in r.stderr and "exit code 1" in r.stderr
    assert f"{BENCH}: new failed, not compared" in r.stdout
    assert f"{BENCH} (Lower is better): third" in r.stdout
    r = _cli("report", str(tmp_path), "--baseline", "base", "-o", "-", "--allow-missing")
    assert r.returncode == 0 and "warning: missing data" in r.stderr

"""`schedlab report` and `schedlab batch` on an MMTests tree where one benchmark failed in
one run (its logs/ holds only mmtests.log, as tests/data/mmtests/failed/ has it from
tools/oracles/mmtests/failed.sh): exit code 2 naming it, unless --allow-missing; then
the exit code follows the verdicts (1 for the regression the other benchmark has, 0 when it
improved instead). And the era note: the MMTests era each benchmark's files tell, printed on
stderr by report and kept in batch's result (`notes`)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data" / "mmtests"
FAILED = DATA / "failed" / "legacy" / "failed" / "iter-0" / "netperf-udp"
GOOD = DATA / "logs-legacy" / "6.8-vanilla" / "iter-0" / "netperf-udp"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "schedlab", *args], capture_output=True, text=True, timeout=300)


def _tree(root: Path, regressed: bool = True) -> Path:
    """work/log with runs base and new: hackbench-process-pipes in both (new takes 0.9 s
    where base takes 0.1 s: a regression however it is tested; the other way round with
    `regressed` false: an improvement), netperf-udp good in base and failed in new."""
    log = root / "work" / "log"
    times = ("0.1", "0.9") if regressed else ("0.9", "0.1")
    for kernel, secs in zip(("base", "new"), times):
        logs = log / kernel / "iter-0" / "hackbench-process-pipes" / "logs"
        logs.mkdir(parents=True)
        for i in range(1, 6):
            (logs / f"hackbench-4-{i}").write_text(f"     Total time: {secs}{i} [sec]\n")
    shutil.copytree(GOOD, log / "base" / "iter-0" / "netperf-udp")
    shutil.copytree(FAILED, log / "new" / "iter-0" / "netperf-udp")
    return root


def test_batch_fails_closed_then_follows_the_verdicts(tmp_path):
    root = _tree(tmp_path)
    r = _cli("batch", str(root), "--baseline", "base")
    assert r.returncode == 2, r.stderr
    assert "error: missing data:" in r.stderr and "netperf-udp" in r.stderr and "failed" in r.stderr
    r = _cli("batch", str(root), "--baseline", "base", "--allow-missing")
    assert r.returncode == 1, r.stderr  # hackbench regressed
    assert "warning: missing data:" in r.stderr and "netperf-udp" in r.stderr
    r = _cli("batch", str(root), "--baseline", "base", "--allow-missing", "--fail-on", "never")
    assert r.returncode == 0, r.stderr


def test_batch_allowing_missing_data_exits_0_without_a_regression(tmp_path):
    root = _tree(tmp_path, regressed=False)
    r = _cli("batch", str(root), "--baseline", "base")
    assert r.returncode == 2, r.stderr
    r = _cli("batch", str(root), "--baseline", "base", "--allow-missing", "--format", "json")
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["exit_code"] == 0 and res["summary"]["better"] > 0 and res["summary"]["worse"] == 0


def test_batch_keeps_the_era_note(tmp_path):
    root = _tree(tmp_path)
    r = _cli("batch", str(root), "--baseline", "base", "--allow-missing", "--format", "json")
    notes = json.loads(r.stdout)["notes"]
    # one note per benchmark and era (the first run's), as report and mmtests compare say it
    hb = [n for n in notes if ": hackbench-process-pipes: MMTests 2025: " in n]
    assert len(hb) == 1 and "hackbench-4-1: MMTests before head" in hb[0], notes
    assert "cannot tell MMTests 2025, 2024 apart" in hb[0] and hb[0].startswith(str(root)), hb
    # netperf-udp was read for base only (new failed): its note names base's logs
    nu = [n for n in notes if ": netperf-udp: MMTests " in n]
    assert len(nu) == 1 and "/base: netperf-udp: " in nu[0], notes
    r = _cli("batch", str(root), "--baseline", "base", "--allow-missing", "--format", "junit")
    assert "note: " in r.stdout and ": hackbench-process-pipes: MMTests 2025: " in r.stdout, r.stdout


def test_report_fails_closed_and_notes_the_era(tmp_path):
    root = _tree(tmp_path)
    r = _cli("report", str(root), "--baseline", "base", "-o", "-")
    assert r.returncode == 2, r.stderr
    assert "error: missing data:" in r.stderr and "netperf-udp of new" in r.stderr
    assert "hackbench-process-pipes (Lower is better): new" in r.stdout
    # one file per iteration: head is ruled out, 2024 and 2025 write these files alike
    assert "schedlab report: note: MMTests " in r.stderr and ": hackbench-process-pipes: era 2025: " in r.stderr
    assert "hackbench-4-1: MMTests before head" in r.stderr and "cannot tell MMTests 2025, 2024" in r.stderr
    r = _cli("report", str(root), "--baseline", "base", "-o", "-", "--allow-missing")
    assert r.returncode == 1 and "warning: missing data:" in r.stderr, r.stderr  # hackbench regressed


def test_report_allowing_missing_data_exits_0_without_a_regression(tmp_path):
    root = _tree(tmp_path, regressed=False)
    r = _cli("report", str(root), "--baseline", "base", "-o", "-")
    assert r.returncode == 2, r.stderr
    r = _cli("report", str(root), "--baseline", "base", "-o", "-", "--allow-missing")
    assert r.returncode == 0 and "warning: missing data:" in r.stderr, r.stderr
    assert "hackbench-process-pipes (Lower is better): new" in r.stdout and "better" in r.stdout


def test_mmtests_compare_notes_the_era_unless_compat_is_given():
    tree = DATA / "era" / "schbench-old"
    args = ("mmtests", "compare", "-d", str(tree), "-b", "schbench", "-n", "4.18.0-vanilla,4.18.0-teo")
    r = _cli(*args)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (DATA / "era" / "out" / "2024-schbench.oracle").read_text()
    assert "schedlab mmtests: note: MMTests 2024: " in r.stderr and "schbench-1.log line 1" in r.stderr
    r = _cli(*args, "--compat", "2024")
    assert r.returncode == 0 and "note:" not in r.stderr

"""`schedlab batch` fails closed (docs/batch.md): missing data is exit code 2, named on
stderr, unless --allow-missing; a result document without its fields is a ParseError."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import schedlab
from schedlab.batch import BatchResult


def tree(root: Path, crashed: bool) -> Path:
    """work/log with a baseline of three hackbench runs of 4 and 8 groups and a kernel
    whose 8-group logs hold no result line (that benchmark crashed) or, if not
    ``crashed``, good ones."""
    for kernel in ("base", "new"):
        logs = root / "work/log" / kernel / "iter-0/hackbench-process-pipes/logs"
        logs.mkdir(parents=True)
        for group in (4, 8):
            for i in range(1, 4):
                bad = crashed and kernel == "new" and group == 8
                text = "Segmentation fault\n" if bad else f"Total time: 0.{group}{i} [sec]\n"
                (logs / f"hackbench-{group}-{i}").write_text(text)
    return root


def batch_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "schedlab", "batch", *args], capture_output=True, text=True,
                          timeout=120)


def test_a_crashed_benchmark_is_exit_2_unless_allowed(tmp_path):
    root = tree(tmp_path, crashed=True)
    r = batch_cli(str(root), "--baseline", "base", "--format", "json")
    assert r.returncode == 2, r.stderr
    assert "schedlab batch: error: missing data:" in r.stderr and "work/log/new" in r.stderr
    doc = json.loads(r.stdout)
    assert doc["exit_code"] == 2 and len(doc["missing"]) == 1 and doc["options"]["allow_missing"] is False
    assert doc["summary"]["not_enough_data"] == 1
    r = batch_cli(str(root), "--baseline", "base", "--allow-missing")
    assert r.returncode == 0 and "warning: missing data:" in r.stderr, r.stderr
    assert "missing: " in r.stdout


def test_complete_data_is_not_missing(tmp_path):
    r = batch_cli(str(tree(tmp_path, crashed=False)), "--baseline", "base", "--format", "json")
    assert r.returncode in (0, 1) and json.loads(r.stdout)["missing"] == []


def test_markdown_names_missing_data_and_escapes_kernel_names(tmp_path):
    root = tree(tmp_path, crashed=True)
    (root / "work/log/new").rename(root / "work/log/<em>new")
    r = batch_cli(str(root), "--baseline", "base", "--format", "markdown")
    assert "**Missing data**" in r.stdout
    assert "<em>" not in r.stdout and "&lt;em&gt;new" in r.stdout


@pytest.mark.parametrize("drop", ["rows", "summary", "exit_code", "options"])
def test_a_result_document_without_a_field_is_a_parse_error(tmp_path, drop):
    r = schedlab.batch.run([tree(tmp_path, crashed=False)], "base")
    doc = dict(r.data)
    del doc[drop]
    with pytest.raises(schedlab.ParseError, match=f"no {drop}"):
        BatchResult.from_json(json.dumps(doc))


def test_mmtests_compare_fails_closed_on_a_log_mmtests_counts_as_0(tmp_path):
    src = Path(__file__).parent / "data/mmtests/logs-legacy"
    for k in ("6.8-vanilla", "6.9-patched"):
        logs = tmp_path / "work/log" / k / "iter-0/netperf-udp-rr/logs"
        logs.mkdir(parents=True)
        for f in (src / k / "iter-0/netperf-udp-rr/logs").iterdir():
            (logs / f.name).write_bytes(f.read_bytes())
    broken = tmp_path / "work/log/6.9-patched/iter-0/netperf-udp-rr/logs/UDP_RR-1.3"
    broken.write_text("netperf: send_data: data send error: Connection refused\n")
    argv = [sys.executable, "-m", "schedlab", "mmtests", "compare", "-d", str(tmp_path / "work/log"),
            "-b", "netperf-udp-rr", "-n", "6.8-vanilla,6.9-patched"]
    for fmt in ("text", "json"):
        r = subprocess.run([*argv, "--format", fmt], capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and "error: missing data:" in r.stderr and "UDP_RR-1.3" in r.stderr, r.stderr
        assert r.stdout  # the table is still printed
    r = subprocess.run([*argv, "--allow-missing"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "warning: missing data:" in r.stderr, r.stderr

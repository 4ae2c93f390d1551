"""The `schedlab` command: exit codes, messages naming the file, the example job."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import scipy.stats as ss
from schedlab import examples
from schedlab.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "schedlab", *args], capture_output=True, text=True, timeout=120)


def test_stats_example_prints_summary_and_verdict():
    r = run("stats", "--example")
    assert r.returncode == 0, r.stderr
    assert "generated samples" in r.stdout
    assert "unixbench-execl-base" in r.stdout and "unixbench-execl-head" in r.stdout
    # the head row, against scipy on the bundled samples: the change of the harmonic
    # means, Welch's p and the Mann-Whitney p (normal approximation with continuity, as
    # scipy's method="asymptotic"), at the printed precision; a 9.6% drop at p 1e-15
    # on a higher-is-better metric is "worse"
    base = np.loadtxt(examples.path("unixbench-execl-base.txt"))
    head = np.loadtxt(examples.path("unixbench-execl-head.txt"))
    row = next(ln for ln in r.stdout.splitlines() if ln.startswith("unixbench-execl-head") and "[" in ln).split()
    change, welch, mwu = float(row[1]), float(row[2]), float(row[4])
    assert change == round((ss.hmean(head) - ss.hmean(base)) / ss.hmean(base) * 100, 2)
    assert welch == float(f"{ss.ttest_ind(head, base, equal_var=False).pvalue:.1e}")
    assert mwu == float(f"{ss.mannwhitneyu(head, base, alternative='two-sided', method='asymptotic').pvalue:.1e}")
    assert row[-1] == "worse"


def test_stats_compares_files_and_names_bad_ones(tmp_path):
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text("10 11 12 10.5 11.5\n")
    b.write_text("10.2 11.1 11.9 10.4 11.6\n")
    r = run("stats", "--lower-is-better", str(a), str(b))
    assert r.returncode == 0, r.stderr
    # 5 noisy runs (CV ~7%) cannot show a 0.4% change either way: inconclusive, with the runs needed
    assert "inconclusive" in r.stdout and "runs a side detect ±2% at power 0.8" in r.stdout
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"1 2\n3 four\n")
    r = run("stats", str(a), str(bad))
    assert r.returncode == 2
    assert f"{bad}:2: expected a number, got 'four'" in r.stderr
    r = run("stats", str(tmp_path / "nope.txt"))
    assert r.returncode == 2 and "nope.txt" in r.stderr


def test_no_command_is_a_usage_error(capsys):
    assert main([]) == 2


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("schedlab ")

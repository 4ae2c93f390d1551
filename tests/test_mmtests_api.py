"""schedlab.mmtests API: views, named tests, bootstrap, overview, plots, CLI formats, errors."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import schedlab
from schedlab import mmtests

DATA = Path(__file__).parent / "data" / "mmtests"
LEGACY = DATA / "logs-legacy"
NAMES = ["6.8-vanilla", "6.9-patched"]


def test_views_and_model() -> None:
    c = mmtests.compare(LEGACY, "netperf-udp", NAMES, "2025")
    df = c.to_pandas()
    row = df[(df.group == "Hmean") & (df.name == "send-1024") & (df.kernel == "6.9-patched")].iloc[0]
    # golden 2025-netperf-udp: "Hmean send-1024 6160.61 ... 5878.01 *  -4.59%*"
    assert round(row.value, 2) == 5878.01 and round(row.change, 2) == -4.59
    assert bool(row.significant) and row.verdict == "worse" and row.test == "mmtests-ci"
    assert "<table" in c._repr_html_() and "| Hmean send-64 |" in c.to_markdown()
    back = mmtests.MMTestsComparison.from_json(c.to_json())
    assert back.to_text() == c.to_text()
    hm = [r for r in c.rows if r.group == "Hmean"]
    assert all(len(r.cells[0].samples) == 5 for r in hm)


def test_gmean_ratio_is_print_ratios_gmean() -> None:
    c = mmtests.compare(LEGACY, "netperf-udp", NAMES, "2025")
    g = c.gmean_ratio()
    assert g["6.8-vanilla"] == 1.0
    # golden 2025-netperf-udp--print-ratio: "Gmean Higher 1.00 0.96"
    assert f"{g['6.9-patched']:.2f}" == "0.96"
    h = mmtests.compare(LEGACY, "hackbench-process-pipes", NAMES, "2025")
    # golden 2025-hackbench --print-ratio: Gmean Lower 1.0319 (lower is better) -> aligned 1/1.0319
    assert f"{1 / h.gmean_ratio()['6.9-patched']:.4f}" == "1.0319"
    assert mmtests.overview_label(h.gmean_ratio()["6.9-patched"]) == "3% worse"


def test_named_tests_with_fdr_and_bootstrap() -> None:
    c = mmtests.compare(LEGACY, "netperf-udp", NAMES, "2025").with_test("welch")
    cells = [r.cells[1] for r in c.rows if r.group == "Hmean"]
    assert all(x.test == "welch" and 0 <= x.p <= 1 and x.q >= x.p for x in cells)
    assert c.meta["schedlab.verdict_test"] == "welch"
    m = mmtests.compare(LEGACY, "netperf-udp", NAMES, "2025", test="mann-whitney")
    assert {r.cells[1].test for r in m.rows if r.group == "Hmean"} == {"mann-whitney"}
    est, lo, hi = c.gmean_ratio_ci("6.9-patched", n_resamples=500, seed=3)
    assert lo <= est <= hi and est == pytest.approx(c.gmean_ratio()["6.9-patched"])
    assert c.gmean_ratio_ci("6.9-patched", n_resamples=500, seed=3) == (est, lo, hi)
    with pytest.raises(schedlab.DomainError):
        c.with_test("student")


def test_overview_dataframe() -> None:
    seeds = DATA / "seeds"
    tables = {
        "8x-SKYLAKE-UMA": mmtests.parse_compare((seeds / "mmtests-sockperf-udp-throughput.txt").read_text()),
    }
    df = mmtests.overview(tables)
    assert list(df.loc["8x-SKYLAKE-UMA"]) == ["1% worse", "1% worse", "1% worse", "1% worse", "10% better"]
    num = mmtests.overview(tables, labels=False)
    assert num.loc["8x-SKYLAKE-UMA"].iloc[-1] == pytest.approx(1.0956, abs=5e-5)


def test_plot_returns_a_figure(tmp_path: Path) -> None:
    import matplotlib  # noqa: F401
    c = mmtests.compare(LEGACY, "sockperf-udp-throughput", NAMES, "2025")
    fig = c.plot()
    fig.savefig(tmp_path / "p.png")
    assert (tmp_path / "p.png").stat().st_size > 1000


def test_errors_name_the_file_or_run(tmp_path: Path) -> None:
    with pytest.raises(schedlab.FileNotFoundError):
        mmtests.compare(tmp_path / "nope", "netperf-udp", NAMES)
    with pytest.raises(schedlab.FileNotFoundError, match="no-such-kernel"):
        mmtests.compare(LEGACY, "netperf-udp", ["6.8-vanilla", "no-such-kernel"], "2025")
    with pytest.raises(schedlab.DomainError, match="compat"):
        mmtests.compare(LEGACY, "netperf-udp", NAMES, "2019")
    with pytest.raises(schedlab.ParseError) as e:
        mmtests.parse_compare("a b\nHmean 1 1.00 ( 0.00%) 2.00 ( 100.00%)\nHmean 2 1.00 ( 0.00%)\n", "mail.txt")
    assert e.value.path == "mail.txt" and e.value.line == 3
    bad = tmp_path / "log" / "a" / "iter-0" / "dbench4" / "logs"
    bad.mkdir(parents=True)
    (bad / "dbench-loadfile-1.log.xz").write_bytes(b"\xfd7zXZ\x00 truncated")
    with pytest.raises(schedlab.ParseError, match="dbench-loadfile-1.log.xz"):
        mmtests.compare(tmp_path / "log", "dbench4", ["a"], "2025")


def test_cli_formats_and_errors(tmp_path: Path) -> None:
    base = [sys.executable, "-m", "schedlab", "mmtests", "compare", "-d", str(LEGACY), "-b", "sockperf-udp-throughput",
            "-n", ",".join(NAMES)]
    out = subprocess.run(base + ["--format", "json"], capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    assert d["schema"] == 1 and d["tool"] == "mmtests" and d["kernels"] == NAMES
    csv = subprocess.run(base + ["--format", "csv"], capture_output=True, text=True, check=True).stdout
    assert csv.startswith("group,name,kernel")
    md = subprocess.run(base + ["--format", "markdown", "--test", "welch"], capture_output=True, text=True, check=True).stdout
    assert md.startswith("| | 6.8-vanilla | 6.9-patched |")
    html = subprocess.run(base + ["--format", "html"], capture_output=True, text=True, check=True).stdout
    assert "<table" in html
    r = subprocess.run(base[:-1] + ["6.8-vanilla,missing"], capture_output=True, text=True)
    assert r.returncode == 2 and "missing" in r.stderr
    pasted = tmp_path / "mail.txt"
    pasted.write_text((DATA / "seeds" / "mmtests-tbench4.txt").read_text())
    ov = subprocess.run([sys.executable, "-m", "schedlab", "mmtests", "parse", str(pasted), "--format", "overview"],
                        capture_output=True, text=True, check=True).stdout
    assert ov.splitlines()[-1].endswith("7% better")


def test_overview_label_rounding() -> None:
    assert mmtests.overview_label(1.0) == "no change"
    assert mmtests.overview_label(0.995) == "1% worse"  # -0.5% rounds away from zero
    assert mmtests.overview_label(1.0049) == "no change"
    assert mmtests.overview_label(math.nan) == "n/a"


def test_docstring_examples_run() -> None:
    import doctest

    r = doctest.testmod(mmtests, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert r.failed == 0 and r.attempted > 5

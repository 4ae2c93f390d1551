"""compare-mmtests.pl's partial tables (docs/mmtests.md §12): a run whose harmonic mean
divides by zero is lost by MMTests 2025 and head, which print the table without it. The
command line prints the Perl's table (tests/data/mmtests/partial/, made by
tools/oracles/mmtests/partial.sh), names each lost run on stderr as missing data and exits
2 unless --allow-missing; the report and batch mode say the same."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import schedlab
from schedlab import mmtests

from . import goldens

PARTIAL = goldens.DATA / "mmtests" / "partial"
GOLDENS = goldens.read("mmtests/partial")
CASES = {r["case"]: ",".join(r["names"].split()) for r in GOLDENS}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "schedlab", *args], capture_output=True, text=True, timeout=300)


def _golden(era: str, bench: str, case: str, ratio: bool) -> dict[str, str]:
    return goldens.find("mmtests/partial", era=era, benchmark=bench, case=case, print_ratio=str(int(ratio)))


def _perl_of(r: dict[str, str]) -> tuple[str, list[str], int]:
    """The Perl's stdout, the runs its stderr says it lost, and its exit code."""
    err = (PARTIAL / r["stderr"]).read_text()
    lost = [ln.rsplit(": ", 1)[1] for ln in err.splitlines() if ln.startswith("WARNING: Failed to load module")]
    return (PARTIAL / r["golden"]).read_text(), lost, int((PARTIAL / r["rc"]).read_text())


def _perl(era: str, bench: str, case: str, ratio: bool) -> tuple[str, list[str], int]:
    return _perl_of(_golden(era, bench, case, ratio))


# the tables the Perl printed while losing runs (tests/it/mmtests_partial.rs checks every
# golden): the command line runs one per era, benchmark and --print-ratio, the cases rotating
LOSING = [r for r in GOLDENS if _perl_of(r)[2] == 0 and _perl_of(r)[1]]
CLI_PICKS = goldens.spread(LOSING, ("era", "benchmark", "print_ratio"), "case")


def test_the_picks_cover_every_losing_era_and_benchmark() -> None:
    assert {(r["era"], r["benchmark"]) for r in CLI_PICKS} == {
        ("2025", "netperf-udp-rr"), ("2025", "sockperf-udp-throughput"), ("head", "netperf-ipv4-udp-rr")}
    assert len({r["case"] for r in CLI_PICKS}) >= 5


@pytest.mark.parametrize("g", CLI_PICKS, ids=goldens.ids(CLI_PICKS))
def test_the_perls_table_and_the_lost_runs_named(g: dict[str, str]) -> None:
    table, lost, rc = _perl_of(g)
    assert rc == 0 and lost
    args = ["mmtests", "compare", "-d", str(PARTIAL / g["tree"]), "-b", g["benchmark"], "-n",
            ",".join(g["names"].split()), "--compat", g["era"]]
    args += ["--print-ratio"] if g["print_ratio"] == "1" else []
    r = _cli(*args)
    assert r.stdout == table
    assert r.returncode == 2, r.stderr
    errors = r.stderr.splitlines()
    assert len(errors) == len(lost), r.stderr
    for run, line in zip(lost, errors):
        assert line.startswith(f"schedlab mmtests: error: missing data: run '{run}' is not in the table: "), line
        assert "divides by zero" in line and "compare-mmtests.pl drops the run" in line
    r = _cli(*args, "--allow-missing")
    assert r.returncode == 0 and r.stdout == table
    assert all(ln.startswith("schedlab mmtests: warning: missing data: run '") for ln in r.stderr.splitlines())


def test_a_lost_baseline_is_an_error_naming_it() -> None:
    table, lost, rc = _perl("2025", "netperf-udp-rr", "two-base", False)
    assert (table, lost[0], rc != 0) == ("", "6.9-zero", True)
    r = _cli("mmtests", "compare", "-d", str(PARTIAL / "legacy"), "-b", "netperf-udp-rr", "-n", CASES["two-base"],
             "--compat", "2025")
    assert r.returncode == 2 and r.stdout == ""
    assert "baseline '6.9-zero'" in r.stderr and "Illegal division by zero" in r.stderr, r.stderr
    with pytest.raises(schedlab.DomainError, match="baseline '6.9-zero'"):
        mmtests.compare(PARTIAL / "legacy", "netperf-udp-rr", CASES["two-base"], compat="2025")


def test_the_comparison_keeps_the_lost_runs_name_and_no_value() -> None:
    names = CASES["four-second-last"].split(",")
    c = mmtests.compare(PARTIAL / "legacy", "netperf-udp-rr", names, compat="2025")
    # the fourth run is gone, the second kept as an empty column under its name
    assert c.kernels == names[:3]
    lost = c.meta["mmtests.lost_runs"]
    assert [(x["run"], x["column_kept"]) for x in lost] == [("6.9-zero", True), ("6.11-zero", False)]
    assert all("divides by zero" in x["reason"] for x in lost)
    assert len([w for w in c.warnings if "is not in the table" in w]) == 2
    for row in c.rows:
        assert row.cells[1].value is None and row.cells[1].verdict is None
    g = c.gmean_ratio()
    assert math.isnan(g["6.9-zero"]) and g["6.9-good"] > 1
    assert "6.9-zero" not in mmtests.overview({"m": c}).dropna(axis=1).columns
    # every view names it; the text prints it without a name, as the Perl does
    assert "6.9-zero" in c.to_csv() and "6.9-zero" in c.to_markdown()
    back = schedlab.table.Comparison.from_json(c.to_json())
    assert back.to_text() == c.to_text() == _perl("2025", "netperf-udp-rr", "four-second-last", False)[0]
    r = _cli("mmtests", "compare", "-d", str(PARTIAL / "legacy"), "-b", "netperf-udp-rr", "-n", ",".join(names),
             "--compat", "2025", "--format", "json", "--test", "welch")
    assert r.returncode == 2
    assert [x["run"] for x in json.loads(r.stdout)["meta"]["mmtests.lost_runs"]] == ["6.9-zero", "6.11-zero"]


def test_2018_and_2024_lose_no_run() -> None:
    for era, layout in (("2018", "2018"), ("2024", "legacy")):
        table, lost, rc = _perl(era, "netperf-udp-rr", "four-middle-two", False)
        assert rc == 0 and lost == []
        r = _cli("mmtests", "compare", "-d", str(PARTIAL / layout), "-b", "netperf-udp-rr", "-n",
                 CASES["four-middle-two"], "--compat", era)
        assert r.stdout == table and "is not in the table" not in r.stderr


def _tree(root: Path) -> Path:
    """work/log with the runs 6.8-vanilla, 6.9-zero (every netperf sample 0: lost by
    MMTests 2025) and 6.9-good."""
    log = root / "work" / "log"
    for k in ("6.8-vanilla", "6.9-zero", "6.9-good"):
        (log / k / "iter-0").mkdir(parents=True)
        shutil.copytree(PARTIAL / "legacy" / k / "iter-0" / "netperf-udp-rr", log / k / "iter-0" / "netperf-udp-rr")
        shutil.copy(PARTIAL / "legacy" / k / "iter-0" / "tests-timestamp", log / k / "iter-0")
    return root


def test_report_and_batch_fail_closed_on_a_lost_run(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    r = _cli("report", str(root), "--baseline", "6.8-vanilla", "-o", "-")
    assert r.returncode == 2, r.stderr
    missing = [ln for ln in r.stderr.splitlines() if "error: missing data:" in ln]
    assert len(missing) == 1 and "netperf-udp-rr of 6.9-zero" in missing[0], r.stderr
    assert "compare-mmtests.pl loses this run" in missing[0] and "divides by zero" in missing[0]
    assert "6.9-zero lost by compare-mmtests.pl, not compared" in r.stdout
    r = _cli("report", str(root), "--baseline", "6.8-vanilla", "-o", "-", "--allow-missing")
    assert r.returncode in (0, 1) and "warning: missing data:" in r.stderr, r.stderr
    r = _cli("batch", str(root), "--baseline", "6.8-vanilla")
    assert r.returncode == 2, r.stderr
    missing = [ln for ln in r.stderr.splitlines() if "error: missing data:" in ln]
    assert len(missing) == 2, r.stderr  # operations 1 and 64 of 6.9-zero
    assert all("6.9-zero" in ln and "compare-mmtests.pl loses this run" in ln for ln in missing), r.stderr
    r = _cli("batch", str(root), "--baseline", "6.8-vanilla", "--allow-missing")
    assert r.returncode in (0, 1) and "warning: missing data:" in r.stderr, r.stderr

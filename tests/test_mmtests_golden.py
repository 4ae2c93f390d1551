"""schedlab.mmtests.compare(...).to_text() and `schedlab mmtests compare` reproduce
compare-mmtests.pl's goldens (tests/data/mmtests: MMTests' own Perl output, see its README.md).
tests/it/mmtests_golden.rs checks every golden of tests/data/mmtests/goldens.csv; here the
API and the CLI each run a few, chosen from the manifest."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys

import pytest
import schedlab
from schedlab import cli, mmtests

from . import goldens

DATA = goldens.DATA / "mmtests"
GOLDENS = goldens.read("mmtests")
UNREPRODUCIBLE = ("debug", "random")
# the goldens a table can be checked against: one per set, era, --print-ratio and outcome
# (a table or the Perl's death), the benchmarks rotating, and one per era and
# --print-ratio of those with a --sub-heading; the CLI runs other tables
CHECKABLE = [r for r in GOLDENS if r["expect"] != "random"]
SUB_HEADED = [r for r in CHECKABLE if r["sub_heading"]]
TABLES = [r for r in CHECKABLE if r["expect"] == "table"]
API_PICKS = (goldens.spread(CHECKABLE, ("set", "era", "print_ratio", "expect"), "benchmark", offset=0)
             + goldens.spread(SUB_HEADED, ("era", "print_ratio"), "golden", offset=0))
CLI_PICKS = (goldens.spread(TABLES, ("set", "era", "print_ratio"), "benchmark", offset=1)
             + goldens.spread(SUB_HEADED, ("era", "print_ratio"), "golden", offset=1))


def test_the_picks_cover_every_set_era_and_outcome() -> None:
    for col in ("set", "era", "print_ratio", "expect"):
        assert {r[col] for r in API_PICKS} == {r[col] for r in CHECKABLE}, col
    for picks in (API_PICKS, CLI_PICKS):
        assert {(r["era"], r["print_ratio"]) for r in picks if r["sub_heading"]} == \
            {(r["era"], r["print_ratio"]) for r in SUB_HEADED}
    assert {(r["set"], r["era"]) for r in CLI_PICKS} == {(r["set"], r["era"]) for r in CHECKABLE}


def _same_table(have: str, want: str) -> None:
    """The golden's lines, without those unreproducible-lines.csv lists; the whole text when
    the golden has none of them."""
    kept = goldens.kept_lines(want, *UNREPRODUCIBLE)
    if kept == want.splitlines():
        assert have == want
    else:
        assert goldens.kept_lines(have, *UNREPRODUCIBLE) == kept


@pytest.mark.parametrize("r", API_PICKS, ids=goldens.ids(API_PICKS))
def test_golden_text(r: dict[str, str]) -> None:
    tree, names = DATA / r["tree"], r["names"].split()
    opts = {"print_ratio": r["print_ratio"] == "1", "sub_heading": r["sub_heading"]}
    want = (DATA / r["golden"]).read_text()
    if r["expect"] == "error":
        assert want == ""
        # compare-mmtests.pl died on this tree: schedlab refuses with a clear error (no data
        # where MMTests' module dies with "No data")
        with pytest.raises((schedlab.DomainError, schedlab.InsufficientDataError), match="MMTests"):
            mmtests.compare(tree, r["benchmark"], names, r["era"], **opts)
        return
    _same_table(mmtests.compare(tree, r["benchmark"], names, r["era"], **opts).to_text(), want)


@pytest.mark.parametrize("r", CLI_PICKS, ids=goldens.ids(CLI_PICKS))
def test_cli_prints_the_golden(r: dict[str, str]) -> None:
    argv = ["mmtests", "compare", "-d", str(DATA / r["tree"]), "-b", r["benchmark"], "-n", ",".join(r["names"].split()),
            "--compat", r["era"]]
    if r["print_ratio"] == "1":
        argv.append("--print-ratio")
    if r["sub_heading"]:
        argv += ["--sub-heading", r["sub_heading"]]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(argv) == 0
    _same_table(out.getvalue(), (DATA / r["golden"]).read_text())


def test_cli_is_byte_identical_and_equals_to_text() -> None:
    golden = DATA / "out" / "2025-netperf-udp--print-ratio.oracle"
    out = subprocess.run(
        [sys.executable, "-m", "schedlab", "mmtests", "compare", "-d", str(DATA / "logs-legacy"),
         "-b", "netperf-udp", "-n", "6.8-vanilla,6.9-patched", "--print-ratio"],
        capture_output=True, text=True, check=True)
    assert out.stdout == golden.read_text()
    c = mmtests.compare(DATA / "logs-legacy", "netperf-udp", "6.8-vanilla,6.9-patched", print_ratio=True)
    assert c.to_text() == out.stdout
    assert c.meta["mmtests.era"] == "2025"


@pytest.mark.parametrize("directory,bench,first,era", [
    ("logs-2018", "netperf-udp", "4.18.0-vanilla", "2018"),
    ("logs-legacy", "netperf-udp", "6.8-vanilla", "2025"),
    ("logs-legacy", "tbench4", "6.8-vanilla", "2025"),
    ("logs-head", "tbench", "6.8-vanilla", "head"),
    ("logs-head", "netperf-ipv4-udp", "6.8-vanilla", "head"),
])
def test_default_era_is_the_newest_that_knows_the_benchmark_and_layout(directory, bench, first, era) -> None:
    c = mmtests.compare(DATA / directory, bench, [first])
    assert c.meta["mmtests.era"] == era


def test_subamean_ratio_tables_have_the_golden_shape() -> None:
    # SubAmean is random upstream (unseeded numpy/R): only labels and layout can match
    for f in ("out/2025-tbench4--print-ratio.oracle", "out/2018-dbench4--print-ratio.oracle"):
        r = goldens.row("mmtests", f)
        assert r["expect"] == "random"
        have = mmtests.compare(DATA / r["tree"], r["benchmark"], r["names"].split(), r["era"],
                               print_ratio=True).to_text().splitlines()
        want = goldens.kept_lines((DATA / f).read_text(), "debug")
        assert [re.split(r"\s+", l.strip())[:2] for l in have] == [re.split(r"\s+", l.strip())[:2] for l in want]
        assert have[:2] == want[:2]

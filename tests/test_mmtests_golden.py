"""schedlab.mmtests.compare(...).to_text() and `schedlab mmtests compare` reproduce
compare-mmtests.pl's goldens (tests/data/mmtests: MMTests' own Perl output, see its README.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import schedlab
from schedlab import mmtests

DATA = Path(__file__).parent / "data" / "mmtests"
NAMES = {"2018": ["4.18.0-vanilla", "4.18.0-teo", "4.18.0-teo-v6+backport"]}
DIRS = {"2018": "logs-2018", "2024": "logs-legacy", "2025": "logs-legacy", "head": "logs-head"}


def _keep(line: str) -> bool:
    # not reproducible (golden README): E0's debug lines, the random SubAmean rows
    return not (line.startswith("Comparing (") or line.startswith("SubAmean ") or line.startswith("SubAmeanCI "))


def _cases():
    for f in sorted((DATA / "out").glob("*.oracle")):
        stem = f.name[: -len(".oracle")]
        compat, rest = stem.split("-", 1)
        sub = ""
        if "--sub-heading_" in rest:
            rest, sub = rest.split("--sub-heading_")
            rest = rest.rstrip("_")
        ratio = rest.endswith("--print-ratio")
        bench = rest[: -len("--print-ratio")] if ratio else rest
        if ratio and bench.endswith("bench4"):
            continue  # every number is a ratio of the random SubAmean
        yield pytest.param(f, compat, bench, ratio, sub, id=f.name)


@pytest.mark.parametrize("path,compat,bench,ratio,sub", list(_cases()))
def test_golden_text(path: Path, compat: str, bench: str, ratio: bool, sub: str) -> None:
    names = NAMES.get(compat, ["6.8-vanilla", "6.9-patched"])
    c = mmtests.compare(DATA / DIRS[compat], bench, names, compat, print_ratio=ratio, sub_heading=sub)
    want = [l for l in path.read_text().splitlines() if _keep(l)]
    have = [l for l in c.to_text().splitlines() if _keep(l)]
    assert have == want


def _fuzz():
    for line in (DATA / "fuzz" / "cases").read_text().splitlines():
        case, bench, names = line.split()
        for compat in ("2024", "2025", "head"):
            for ratio in (False, True):
                f = DATA / "fuzz" / "out" / f"{case}-{compat}{'--print-ratio' if ratio else ''}.oracle"
                if f.exists():
                    yield pytest.param(case, bench, names.split(","), compat, ratio, f, id=f.name)


@pytest.mark.parametrize("case,bench,names,compat,ratio,path", list(_fuzz()))
def test_fuzz_corpus(case: str, bench: str, names: list[str], compat: str, ratio: bool, path: Path) -> None:
    root = DATA / "fuzz" / ("logshead" if compat == "head" else "logs") / case
    if compat == "head":
        bench = bench.replace("netperf-udp-rr", "netperf-ipv4-udp-rr")
    expected = path.read_text()
    if not expected:
        # compare-mmtests.pl died on this tree: schedlab refuses with a clear error
        with pytest.raises(schedlab.DomainError, match="MMTests"):
            mmtests.compare(root, bench, names, compat, print_ratio=ratio)
        return
    text = mmtests.compare(root, bench, names, compat, print_ratio=ratio).to_text()
    assert text == expected


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
    for f, compat in (("2025-tbench4--print-ratio.oracle", "2025"), ("2018-dbench4--print-ratio.oracle", "2018")):
        bench = f.split("-", 1)[1].split("--")[0]
        names = NAMES.get(compat, ["6.8-vanilla", "6.9-patched"])
        have = mmtests.compare(DATA / DIRS[compat], bench, names, compat, print_ratio=True).to_text().splitlines()
        want = [l for l in (DATA / "out" / f).read_text().splitlines() if not l.startswith("Comparing (")]
        assert [re.split(r"\s+", l.strip())[:2] for l in have] == [re.split(r"\s+", l.strip())[:2] for l in want]
        assert have[:2] == want[:2]

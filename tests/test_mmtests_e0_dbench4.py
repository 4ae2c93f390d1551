"""MMTests 2018's dbench4 tables through the Python API and the command line (docs/mmtests.md
§4.8, §7.6), against what compare-mmtests.pl 2018 printed for fuzzed trees without spread
(tests/data/mmtests/e0-dbench4/flat, made by tools/oracles/mmtests/e0_dbench4.sh): the
normal table and the `--print-ratio` table, whose seconds are Stat.pm's `cidiff` of the
pairs 2018's R script printed and whose D rows and Gmean follow from them. Only the Perl's
`Comparing (cidiff) ...` debug lines are not printed (tests/data/mmtests/README.md)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from schedlab import mmtests

from . import goldens

E0 = goldens.DATA / "mmtests" / "e0-dbench4"
# the trees without spread (tests/data/mmtests/e0-dbench4/goldens.csv): tests/it/mmtests_e0_dbench4.rs
# checks every one; here the API runs one per set of run names and --print-ratio, the cases rotating
FLAT = [r for r in goldens.read("mmtests/e0-dbench4") if r["expect"] == "whole"]
API_PICKS = goldens.spread(FLAT, ("names", "print_ratio"), "tree")


def _perl(r: dict[str, str]) -> str:
    return "".join(ln + "\n" for ln in goldens.kept_lines((E0 / r["golden"]).read_text(), "debug"))


def test_the_corpus_covers_the_rule() -> None:
    ratios = [(E0 / r["golden"]).read_text() for r in FLAT if r["print_ratio"] == "1"]
    assert len(ratios) >= 20
    # baselines with zero spread, for which the Perl prints its cidiff debug lines, zero and NA baselines
    assert all("Comparing (cidiff)" in r for r in ratios)
    assert any("(-99.00%)" in r for r in ratios) and any(" NA " in r for r in ratios)


@pytest.mark.parametrize("r", API_PICKS, ids=goldens.ids(API_PICKS))
def test_flat_trees_print_the_perls_table(r: dict[str, str]) -> None:
    c = mmtests.compare(E0 / r["tree"], r["benchmark"], r["names"].split(), compat=r["era"],
                        print_ratio=r["print_ratio"] == "1")
    assert c.to_text() == _perl(r)


CLI = [goldens.find("mmtests/e0-dbench4", tree=tree, print_ratio="1") for tree in ("flat/case1", "flat/case12")]


@pytest.mark.parametrize("g", CLI, ids=goldens.ids(CLI))
def test_the_command_line_prints_the_ratio_table(g: dict[str, str]) -> None:
    r = subprocess.run([sys.executable, "-m", "schedlab", "mmtests", "compare", "-d", str(E0 / g["tree"]), "-b",
                        g["benchmark"], "-n", ",".join(g["names"].split()), "--compat", g["era"], "--print-ratio"],
                       capture_output=True, text=True, timeout=300)
    assert (r.returncode, r.stdout) == (0, _perl(g)), r.stderr

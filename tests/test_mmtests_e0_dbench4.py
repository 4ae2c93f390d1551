"""MMTests 2018's dbench4 tables through the Python API and the command line (docs/mmtests.md
§4.8, §7.6), against what compare-mmtests.pl 2018 printed for fuzzed trees without spread
(tests/data/mmtests/e0-dbench4/flat, made by tools/oracles/mmtests/e0_dbench4.sh): the
normal table and the `--print-ratio` table, whose seconds are Stat.pm's `cidiff` of the
pairs 2018's R script printed and whose D rows and Gmean follow from them. Only the Perl's
`Comparing (cidiff) ...` debug lines are not printed (tests/data/mmtests/README.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from schedlab import mmtests

E0 = Path(__file__).parent / "data" / "mmtests" / "e0-dbench4"
CASES = [line.split(" ", 1) for line in (E0 / "flat" / "cases").read_text().splitlines()]


def _perl(case: str, ratio: bool) -> str:
    text = (E0 / "out" / f"flat-{case}{'--print-ratio' if ratio else ''}.oracle").read_text()
    return "".join(ln + "\n" for ln in text.splitlines() if not ln.startswith("Comparing ("))


def test_the_corpus_covers_the_rule() -> None:
    ratios = [(E0 / "out" / f"flat-{c}--print-ratio.oracle").read_text() for c, _ in CASES]
    assert len(CASES) >= 20
    # baselines with zero spread, for which the Perl prints its cidiff debug lines, zero and NA baselines
    assert all("Comparing (cidiff)" in r for r in ratios)
    assert any("(-99.00%)" in r for r in ratios) and any(" NA " in r for r in ratios)


@pytest.mark.parametrize("ratio", [False, True])
@pytest.mark.parametrize(("case", "names"), CASES, ids=[c for c, _ in CASES])
def test_flat_trees_print_the_perls_table(case: str, names: str, ratio: bool) -> None:
    c = mmtests.compare(E0 / "flat" / case, "dbench4", names.split(","), compat="2018", print_ratio=ratio)
    assert c.to_text() == _perl(case, ratio)


@pytest.mark.parametrize("case", ["case1", "case12"])
def test_the_command_line_prints_the_ratio_table(case: str) -> None:
    names = dict(CASES)[case]
    r = subprocess.run([sys.executable, "-m", "schedlab", "mmtests", "compare", "-d", str(E0 / "flat" / case), "-b",
                        "dbench4", "-n", names, "--compat", "2018", "--print-ratio"],
                       capture_output=True, text=True, timeout=300)
    assert (r.returncode, r.stdout) == (0, _perl(case, True)), r.stderr

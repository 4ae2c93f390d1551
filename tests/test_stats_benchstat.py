"""``schedlab stats --view benchstat``: the benchstat view of sample files and of result
files. The data line for the two hyperfine commands of tests/data/readers/hyperfine.json
is the one Go's benchstat prints for the same samples
(tests/data/table/benchstat/hyperfine.benchstat.txt, tools/oracles/table/benchstat.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from schedlab import cli

DATA = Path(__file__).parent / "data"
WANT = DATA / "table" / "benchstat" / "hyperfine.benchstat.txt"


def _data_lines(text: str) -> list[str]:
    # the rows after the two header lines, without the row's name (benchstat's is 'wall')
    return [line.split(None, 1)[1] for line in text.splitlines()[2:] if line and not line.startswith("median ± ")]


def test_sample_files_print_benchstats_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = json.loads((DATA / "readers" / "hyperfine.json").read_text())
    files = []
    for name, r in zip(("ls", "ls-l"), d["results"]):
        f = tmp_path / f"{name}.txt"
        f.write_text("\n".join(repr(t) for t in r["times"]) + "\n")
        files.append(str(f))
    rc = cli.main(["stats", *files, "--lower-is-better", "--test", "mann-whitney", "--view", "benchstat"])
    out = capsys.readouterr().out
    assert rc == 0
    assert _data_lines(out) == _data_lines(WANT.read_text())
    assert out.splitlines()[0].split() == ["│", "ls", "│", "ls-l", "│"]


def test_result_files_one_row_per_metric(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    sides = []
    for side in ("base", "head"):  # the run files, without base/README (stats reads every file)
        src = DATA / "batch" / "results" / "dirs" / side
        shutil.copytree(src, tmp_path / side, ignore=shutil.ignore_patterns("README"))
        sides.append(str(tmp_path / side))
    rc = cli.main(["stats", "--format", "auto", *sides, "--view", "benchstat"])
    out = capsys.readouterr().out
    assert rc == 0
    names = {line.split()[0] for line in out.splitlines() if line and line[0] not in " │"}
    # perf stat's events and fio's metrics, and the geomean row of each unit's table
    assert {"task-clock", "page-faults", "randread.read.bw", "randread.read.clat_p50", "geomean"} <= names
    # task-clock: head lists /usr/bin long, its CPU time more than doubles (a change, not '~')
    line = next(x for x in out.splitlines() if x.startswith("task-clock "))
    assert "~" not in line and "+" in line and "n=5" in line

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
    return [line.split(None, 1)[1] for line in text.splitlines()[2:] if line]


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


GO = DATA / "table" / "benchstat" / "go"


def test_go_files_print_benchstats_goldens(capsys: pytest.CaptureFixture[str]) -> None:
    # benchstat -col note units.txt (benchstat's own test golden): the note that changes
    # within the file names the groups, byte for byte
    assert cli.main(["stats", "--format", "go-bench", str(GO / "units.txt"), "--view", "benchstat"]) == 0
    assert capsys.readouterr().out == (GO / "units.stdout").read_text()
    # benchstat -ignore note crc-old.txt crc-new.txt: the same but for the column names,
    # which schedlab gives without the extension
    assert cli.main(["stats", "--format", "auto", str(GO / "crc-old.txt"), str(GO / "crc-new.txt"),
                     "--view", "benchstat"]) == 0
    got, want = capsys.readouterr().out.splitlines(), (GO / "crcIgnore.stdout").read_text().splitlines()
    heads = [line.split() for line in got if "crc-old" in line]
    assert heads == [["│", "crc-old", "│", "crc-new", "│"]] * 2  # one per unit's table
    assert [x for x in got if "crc-old" not in x] == [x for x in want if "crc-old" not in x]


def test_units_converted_or_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the same perf stat event in msec and in usec (perf stat -x lines written by hand):
    # compared in msec; in bytes: refused, naming both files
    (tmp_path / "base.csv").write_text("1.5,msec,task-clock,1,100.00,,\n2.5,msec,task-clock,1,100.00,,\n")
    (tmp_path / "head.csv").write_text("3000,usec,task-clock,1,100.00,,\n4000,usec,task-clock,1,100.00,,\n")
    (tmp_path / "bytes.csv").write_text("7,B,task-clock,1,100.00,,\n8,B,task-clock,1,100.00,,\n")
    files = [str(tmp_path / f) for f in ("base.csv", "head.csv")]
    assert cli.main(["stats", "--format", "perf-stat-csv", *files]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("task-clock"))
    assert row.split()[2:6] == ["msec", "2/2", "2", "3.5"]
    rc = cli.main(["stats", "--format", "perf-stat-csv", files[0], str(tmp_path / "bytes.csv"), "--view", "benchstat"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "'B' (" + str(tmp_path / "bytes.csv") + ")" in err and "'msec' (" + files[0] + ")" in err

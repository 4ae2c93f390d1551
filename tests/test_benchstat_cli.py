"""``schedlab benchstat``: benchstat's command line. Each golden of benchstat's own test
(golang/perf cmd/benchstat/main_test.go, copied to tests/data/table/benchstat/go/ by
tools/oracles/table/benchstat_testdata.sh) with the arguments that test gives benchstat,
run from that directory as the test runs (the column names are the paths as given)."""

from __future__ import annotations

from pathlib import Path

import pytest
from schedlab.cli import main

GO = Path(__file__).parent / "data" / "table" / "benchstat" / "go"

CASES = {
    "csvOldNew": ["-format", "csv", "old.txt", "new.txt"],
    "csvErrors": ["-format", "csv", "-row", ".name", "new.txt"],
    "crcOldNew": ["crc-old.txt", "crc-new.txt"],
    "crcIgnore": ["-ignore", "note", "crc-old.txt", "crc-new.txt"],
    "crcSizeVsPoly": ["-filter", "/align:0", "-row", "/size", "-col", "/poly", "crc-new.txt"],
    "units": ["-col", "note", "units.txt"],
    "zero": ["-col", "note", "zero.txt"],
    "smallSample": ["-col", "note", "smallSample.txt"],
    "issue19565": ["-col", "note", "issue19565.txt"],
    "issue19634": ["-col", "note", "issue19634.txt"],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_benchstats_own_goldens(name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(GO)
    assert main(["benchstat", *CASES[name]]) == 0
    out, err = capsys.readouterr()
    assert out == (GO / f"{name}.stdout").read_text()
    want_err = GO / f"{name}.stderr"  # benchstat's test takes a missing file as empty
    assert err == (want_err.read_text() if want_err.exists() else "")


def test_double_dash_flags_and_labels(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(GO)
    assert main(["benchstat", "--format", "csv", "--row", ".name", "new.txt"]) == 0
    assert capsys.readouterr().out == (GO / "csvErrors.stdout").read_text()
    # LABEL=PATH names the column: the golden with its file names replaced
    assert main(["benchstat", "-format", "csv", "before=old.txt", "after=new.txt"]) == 0
    want = (GO / "csvOldNew.stdout").read_text().replace(",old.txt,,new.txt,", ",before,,after,")
    assert capsys.readouterr().out == want


@pytest.mark.parametrize(("argv", "message"), [
    (["-filter", "/align", "new.txt"], "parsing -filter: syntax error"),
    (["-row", ".unit", "new.txt"], ".unit is only allowed in filters"),
    (["-alpha", "2", "new.txt"], "-alpha must be in range [0, 1]"),
    (["missing.txt"], "missing.txt"),
])
def test_bad_arguments_are_named(argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(GO)
    assert main(["benchstat", *argv]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err, err

"""Bad lkp input is a schedlab.ParseError naming the file (and line), never a wrong number."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
import schedlab
from schedlab import lkp


def _root(tmp_path: Path, text: str, name: str = "matrix.json") -> Path:
    d = tmp_path / "c"
    d.mkdir(exist_ok=True)
    (d / name).write_text(text)
    return d


def test_truncated_json(tmp_path):
    d = _root(tmp_path, '{\n"a.b": [1,\n2')
    with pytest.raises(schedlab.ParseError) as e:
        lkp.load(d)
    assert e.value.path.endswith("matrix.json") and e.value.line == 3
    assert "truncated" in str(e.value)


def test_invalid_json(tmp_path):
    d = _root(tmp_path, '{"a.b": [1, 2]]}')
    with pytest.raises(schedlab.ParseError) as e:
        lkp.compare(d, d)
    assert e.value.line == 1 and "matrix.json" in str(e.value)


def test_arrays_of_different_lengths(tmp_path):
    d = _root(tmp_path, json.dumps({"a.b": [1, 2], "c.d": [1, 2, 3]}))
    with pytest.raises(schedlab.ParseError, match="different lengths"):
        lkp.load(d)
    d = _root(tmp_path, json.dumps({"a.b": [1, 2, 3], "stats_source": ["x"]}))
    with pytest.raises(schedlab.ParseError, match="3 values but stats_source lists 1 runs"):
        lkp.load(d)


def test_non_numeric_values(tmp_path):
    d = _root(tmp_path, '{\n"a.b": [1,\n"N/A"],\n"stats_source": ["x", "y"]}')
    with pytest.raises(schedlab.ParseError) as e:
        lkp.load(d)
    assert e.value.line == 3 and "metric 'a.b'" in str(e.value)


def test_missing_matrix(tmp_path):
    (tmp_path / "c").mkdir()
    with pytest.raises(schedlab.ParseError) as e:
        lkp.load(tmp_path / "c")
    assert e.value.path.endswith("matrix.json")
    with pytest.raises(schedlab.ParseError):
        lkp.load(tmp_path / "nope")


def test_corrupt_gzip(tmp_path):
    d = tmp_path / "c"
    d.mkdir()
    (d / "matrix.json.gz").write_bytes(b"not gzip at all")
    with pytest.raises(schedlab.ParseError, match="gzip") as e:
        lkp.load(d)
    assert e.value.path.endswith("matrix.json.gz")
    (d / "matrix.json.gz").write_bytes(gzip.compress(b'{"a.b": [1, 2, 3]}'))
    assert lkp.load(d).matrix["a.b"] == [1.0, 2.0, 3.0]


def test_unreadable_raw_output(tmp_path):
    run = tmp_path / "0"
    run.mkdir()
    (run / "vmstat").write_bytes(b"procs\n 2 0 0 1 1 1 0 0 0 4 7 2 6 2 1 0 0\n\xff\xfe bad\n")
    with pytest.raises(schedlab.ParseError) as e:
        lkp.run_stats(run)
    assert e.value.path.endswith("vmstat") and e.value.line == 3


def test_cli_reports_the_file(tmp_path, capsys):
    from schedlab import cli

    d = _root(tmp_path, '{"a.b": [1, "x"]}')
    assert cli.main(["lkp", "compare", str(d), str(d)]) == 2
    assert "matrix.json" in capsys.readouterr().err

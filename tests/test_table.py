"""The Comparison model: JSON round trip, generic renderings, AMD's normalised tables."""

from __future__ import annotations

import json
import math

import pytest
from schedlab.errors import ParseError
from schedlab.table import Cell, Comparison, Row, parse_amd

AMD = "seeds/amd-normalized.txt"


def test_amd_seed_parses_every_block(data_dir):
    tables = parse_amd((data_dir / AMD).read_text())
    assert [t.benchmark for t in tables] == ["hackbench", "tbench", "stream-10", "stream-100", "netperf"]
    assert all(t.kernels == ["tip", "vanilla", "DELAYED", "DEFUALT", "BOTH"] for t in tables)
    assert [len(t.rows) for t in tables] == [5, 11, 4, 4, 10]
    hb = tables[0]
    assert hb.rows[0].direction == "lower" and hb.meta["statistic"] == "AMean"
    c = hb.rows[0].cells[1]  # "1-groups ... 0.92 [ 7.68]( 6.04)"
    assert (c.value, c.change, c.spread) == (0.92, 7.68, 6.04)
    assert tables[2].rows[3].name == "Triad" and tables[2].meta["statistic"] == "HMean"
    assert tables[4].rows[-1].cells[0].spread == 54.39


def test_amd_round_trip_gives_the_same_numbers(data_dir):
    tables = parse_amd((data_dir / AMD).read_text())
    text = "\n".join(t.to_amd() for t in tables)
    again = parse_amd(text)
    assert again == tables


def test_amd_percent_agrees_with_normalised_value(data_dir):
    # pct imp is computed from the unrounded normalised value v, printed as %.2f:
    # |pct - (1 - v)*100| <= 0.5 (v rounded to 0.01) + 0.005 (pct rounding)
    for t in parse_amd((data_dir / AMD).read_text()):
        for r in t.rows:
            for c in r.cells:
                implied = (1 - c.value) * 100 if r.direction == "lower" else (c.value - 1) * 100
                assert abs(c.change - implied) <= 0.505 + 1e-9, (t.benchmark, r.name, c)


def test_amd_normalise_raw_values_by_hand():
    c = Comparison(tool="schedlab", benchmark="hackbench", kernels=["a", "b"], rows=[
        Row(name="4-groups", direction="lower", cells=[Cell(value=2.0, spread=0.2), Cell(value=1.5, spread=0.3)])],
        meta={"units": "seconds"})
    text = c.to_amd(normalise=True)
    # 1.5/2 = 0.75 -> 25% better; CVs 0.2*100/2 = 10 and 0.3*100/1.5 = 20
    assert "    4-groups 1.00 [ -0.00](10.00) 0.75 [ 25.00](20.00)" in text
    assert "Interpretation: Lower is better" in text


def test_amd_bad_input_names_the_line():
    bad = "Test          : x\nInterpretation: Higher is better\n===\nCase: a[pct imp](CV)\n  r 1.00 [ 0.00](oops)\n"
    with pytest.raises(ParseError) as ei:
        parse_amd(bad)
    assert ei.value.line == 5
    with pytest.raises(ParseError, match="Interpretation"):
        parse_amd("Test          : x\n===\nCase: a[pct imp](CV)\n")
    assert parse_amd("") == []


def test_json_round_trip_and_views():
    c = Comparison(tool="schedlab", benchmark="b", kernels=["base", "head"], rows=[
        Row(name="lps", group="Hmean", direction="higher", change_kind="improvement",
            cells=[Cell(value=4626.0, change=0.0, verdict="baseline"),
                   Cell(value=4167.0, change=-9.92, verdict="worse", p=1e-9, test="welch", n=12)])])
    d = json.loads(c.to_json())
    assert d["schema"] == 1 and d["rows"][0]["cells"][1]["test"] == "welch"
    assert Comparison.from_json(c.to_json()) == c
    df = c.to_pandas()
    assert df.loc[1, "verdict"] == "worse" and df.loc[1, "value"] == 4167.0
    md = c.to_markdown()
    assert "| Hmean lps | 4626.00 | 4167.00 (-9.92%)* worse welch p=1e-09 |" in md  # verdict, test and p in the cell
    assert "background" in c._repr_html_()
    assert c.to_csv().splitlines()[0].startswith("group,name,kernel")


def test_json_errors():
    with pytest.raises(ParseError):
        Comparison.from_json("{")
    with pytest.raises(ParseError, match="schema"):
        Comparison.from_json('{"schema": 99, "tool": "x", "kernels": ["a"], "rows": []}')
    with pytest.raises(ParseError, match="cells"):
        Comparison.from_json('{"schema": 1, "tool": "x", "kernels": ["a", "b"], "rows": [{"name": "r", "cells": [{}]}]}')
    nan = Comparison(tool="x", kernels=["a"], rows=[Row(name="r", cells=[Cell(value=math.nan)])])
    assert json.loads(nan.to_json())["rows"][0]["cells"][0]["value"] is None


SCHEMA = None


def schema():
    import json as _json
    from pathlib import Path

    global SCHEMA
    if SCHEMA is None:
        SCHEMA = _json.loads((Path(__file__).parent.parent / "schemas" / "comparison.schema.json").read_text())
    return SCHEMA


def _validate(c):
    import jsonschema
    jsonschema.validate(json.loads(c.to_json()), schema())


def test_every_tool_writes_schema_valid_json(data_dir):
    from schedlab import examples, lkp, mmtests

    log = examples.path("mmtests", "work", "log")
    _validate(mmtests.compare(log, "netperf-udp", ["4.18.0-menu", "4.18.0-teo-v6"], compat="2025", test="welch"))
    _validate(mmtests.compare(log, "hackbench-process-pipes", ["4.18.0-menu", "4.18.0-teo-v1"], compat="2025",
                              print_ratio=True))
    roots = sorted(p for p in examples.path("lkp").iterdir() if p.is_dir())
    _validate(lkp.compare(*roots))
    for t in parse_amd((data_dir / AMD).read_text()):
        _validate(t)


@pytest.mark.parametrize("seed,tool", [
    ("amd-normalized.txt", "amd"),
    ("lkp-report-unixbench-execl.txt", "lkp"),
    ("mmtests-sockperf-udp-throughput.txt", "mmtests"),
    ("mmtests-netperf-udp.txt", "mmtests"),
    ("mmtests-tbench4.txt", "mmtests"),
    ("mmtests-dbench4.txt", "mmtests"),
])
def test_every_posted_table_parses_renders_and_parses_back(data_dir, seed, tool):
    from schedlab.table import parse

    def numbers(cs):
        return [[(r.group, r.name, [(c.value, c.spread, c.change) for c in r.cells]) for r in t.rows] for t in cs]

    tables = parse((data_dir / "seeds" / seed).read_text())
    assert tables and all(t.tool == tool for t in tables)
    assert sum(len(t.rows) for t in tables) > 3
    again = parse("\n".join(t.to_text() for t in tables))
    assert numbers(again) == numbers(tables)
    for t in tables:
        _validate(t)
        assert Comparison.from_json(t.to_json()).to_text() == t.to_text()


POSTED = """\
                              4.18.0                 4.18.0
                             vanilla                    teo
Hmean     14        70.34 (   0.00%)       69.80 *  -0.76%*
Hmean     100      499.24 (   0.00%)      494.26 *  -1.00%*
"""


def test_to_text_does_not_depend_on_which_modules_are_imported(tmp_path) -> None:
    """A table loaded with only schedlab.table imported prints its tool's layout (it
    printed markdown until schedlab.mmtests had been imported): the posted table back."""
    import json
    import subprocess
    import sys

    (tmp_path / "posted.txt").write_text(POSTED)
    script = (
        "import sys, json\n"
        "from schedlab import table\n"
        "c, = table.parse(open(sys.argv[1]).read())\n"
        "again = table.Comparison.from_json(c.to_json())\n"
        "print(json.dumps([c.to_text(), again.to_text(), 'schedlab.mmtests' in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "posted.txt")],
                         capture_output=True, text=True, check=True).stdout
    text, again, mmtests_loaded = json.loads(out)
    assert not mmtests_loaded
    assert text == POSTED and again == POSTED


def test_repr_is_short_and_html_is_styled_for_any_theme() -> None:
    c = Comparison.from_dict({
        "schema": 1, "tool": "schedlab", "benchmark": "execl", "kernels": ["base", "head"],
        "rows": [{"group": "Hmean", "name": f"lps-{i}", "direction": "higher", "change_kind": "improvement",
                  "cells": [{"value": 4626.0, "change": 0.0, "verdict": "baseline"},
                            {"value": 4167.0, "change": -9.92, "verdict": "worse", "p": 1e-9, "q": 2e-9,
                             "test": "welch", "samples": [4167.0] * 50}]} for i in range(200)]})
    assert len(repr(c)) < 200 and "200 rows x 2 kernels" in repr(c)
    h = c._repr_html_()
    assert "text-align:right" in h                      # numbers right-aligned
    assert "background:#f8d0d0;color:#5c0a0a" in h      # a verdict colour sets its text colour too
    assert "welch p=1e-09 q=2e-09" in h                 # p and q visible, not only in a tooltip


def test_markdown_names_cannot_break_the_table_or_inject_html() -> None:
    c = Comparison.from_dict({
        "schema": 1, "tool": "schedlab", "benchmark": "x", "kernels": ["6.8\r\nrc1", "<b>head</b>|x\tz"],
        "rows": [{"group": "", "name": "a|b", "cells": [{"value": 1.0}, {"value": 2.0}]}]})
    lines = c.to_markdown().splitlines()
    assert len(lines) == 3                       # header, separator, one row: no line break got through
    assert lines[0] == "| | 6.8  rc1 | &lt;b&gt;head&lt;/b&gt;\\|x z |"
    assert lines[2].startswith("| a\\|b | ")


def _varied() -> Comparison:
    """A table with every kind of cell field: floats needing repr's exponent form,
    missing values, booleans, names that need CSV quoting."""
    return Comparison(tool="schedlab", benchmark="b", kernels=["base", 'new "x", y'], rows=[
        Row(name="lat,ency", group="Amean", direction="lower", change_kind="improvement", cells=[
            Cell(value=4626.0, change=0.0, verdict="baseline", n=5),
            Cell(value=1e-9, change=-9.92, significant=True, p=1.5e-17, q=0.3, test="welch",
                 verdict="worse", n=5)]),
        Row(name="line\nbreak", direction="unknown", change_kind="absolute", unit="ms", cells=[
            Cell(value=None), Cell(value=123456789012345678.0, spread=0.1 + 0.2, significant=False)]),
    ])


def test_csv_is_what_pandas_writes() -> None:
    # the reference is pandas itself: the tidy frame written by DataFrame.to_csv
    c = _varied()
    assert c.to_csv() == c.to_pandas().to_csv(index=False)
    whole_n = Comparison(tool="t", kernels=["a"], rows=[Row(name="x", cells=[Cell(value=1.0, n=3)])])
    assert whole_n.to_csv() == whole_n.to_pandas().to_csv(index=False)


def test_the_table_is_immutable_and_copies_are_views() -> None:
    import pickle

    from schedlab.mmtests import MMTestsComparison

    c = _varied()
    with pytest.raises(AttributeError):
        c.tool = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        c.rows[0].cells[1].value = 0.0  # type: ignore[misc]
    c.kernels.append("ignored")  # a new list each time: the table is unchanged
    assert c.kernels == ["base", 'new "x", y']
    m = MMTestsComparison(c)
    assert type(m) is MMTestsComparison and m == c and m.to_json() == c.to_json()
    for obj in (c, m):
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj) and back == obj
    assert type(MMTestsComparison.from_json(c.to_json())) is MMTestsComparison
    with pytest.raises(TypeError):
        Comparison(c, ["x"])  # type: ignore[call-overload]


def test_constructor_refuses_wrong_shapes_and_names() -> None:
    from schedlab.errors import DomainError

    with pytest.raises(DomainError, match="1 cells for 2 kernels"):
        Comparison(tool="t", kernels=["a", "b"], rows=[Row(name="x", cells=[Cell(value=1.0)])])
    with pytest.raises(DomainError, match="verdict must be one of"):
        Cell(verdict="great")
    with pytest.raises(DomainError, match="direction must be"):
        Row(name="x", cells=[], direction="up")


@pytest.mark.parametrize("seed", ["amd-normalized.txt", "lkp-report-unixbench-execl.txt",
                                  "mmtests-netperf-udp.txt", "mmtests-dbench4.txt"])
def test_a_table_quoted_in_a_reply_parses_as_the_original(data_dir, seed):
    from schedlab import lkp, mmtests, table

    text = (data_dir / "seeds" / seed).read_text()
    once = "".join("> " + line if line.strip() else ">\n" for line in text.splitlines(keepends=True))
    twice = "".join(">" + line for line in once.splitlines(keepends=True))
    for quoted in (once, twice):
        assert table.parse(quoted) == table.parse(text)
    if seed.startswith("mmtests"):
        assert mmtests.parse_compare(once) == mmtests.parse_compare(text)
    if seed.startswith("lkp"):
        assert lkp.parse_comparison(once) == lkp.parse_comparison(text)


def test_from_dict_reads_the_dict_itself_round_trip_nan_and_errors() -> None:
    c = _varied()
    assert Comparison.from_dict(c.to_dict()) == c          # None for a missing value, as the JSON's null
    nan = Comparison.from_dict({"schema": 1, "tool": "schedlab", "benchmark": "b", "kernels": ["a", "b"],
                                "rows": [{"name": "x", "cells": [{"value": float("nan")}, {"value": 2.0}]}]})
    assert nan.rows[0].cells[0].value is None              # missing; json.dumps would have written NaN (not JSON)
    with pytest.raises(ParseError, match=r"<dict>.*not a valid comparison"):
        Comparison.from_dict({"schema": 1, "tool": "schedlab", "benchmark": "b", "kernels": ["a", "b"],
                              "rows": [{"name": "x", "cells": [{"value": 1.0}]}]})  # one cell for two kernels
    with pytest.raises(ParseError, match=r"<dict>.*invalid comparison"):
        Comparison.from_dict({"schema": 1, "tool": "schedlab", "kernels": "ab", "rows": 3})

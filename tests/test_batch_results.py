"""`schedlab batch` and `schedlab series` over result files of benchmark tools captured
on this machine (tools/oracles/batch/capture_results.sh,
tools/oracles/series/capture_results.sh; docs/batch.md "Result files of benchmark
tools", docs/change-points.md §5). p-values against scipy's Welch test and q-values
against statsmodels' Benjamini-Hochberg on the samples the files print."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from schedlab import batch, series

from .cli_run import run_cli

DATA = Path(__file__).parent / "data"
RES = DATA / "batch" / "results"
XSD = DATA / "batch" / "junit-10.xsd"



def perf_values(path: Path, event: str) -> list[float]:
    """The values of `event` in a perf stat -x, file, read with the csv module."""
    with open(path, newline="") as f:
        return [float(r[0]) for r in csv.reader(f) if len(r) > 2 and not r[0].startswith("#") and r[2] == event]


def test_hyperfine_pair_against_scipy_and_hyperfine():
    import scipy.stats as scipy_stats
    base, head = (json.loads((RES / "files/hyperfine" / f"{s}.json").read_text())["results"][0] for s in ("base", "head"))
    code, out, err = run_cli("batch", str(RES / "files/hyperfine/base.json"), str(RES / "files/hyperfine/head.json"),
                             "--baseline", "base", "--format", "json")
    doc = json.loads(out)
    [row] = doc["rows"]
    assert (row["tool"], row["benchmark"], row["kernel"], row["baseline"]) == ("results", "hyperfine", "head", "base")
    assert row["metric"] == base["command"] == head["command"]
    assert (row["n_base"], row["n_new"]) == (len(base["times"]), len(head["times"])) == (10, 10)
    assert row["mean_base"] == pytest.approx(base["mean"], rel=1e-12)  # hyperfine's own mean
    assert row["mean_new"] == pytest.approx(head["mean"], rel=1e-12)
    p = scipy_stats.ttest_ind(base["times"], head["times"], equal_var=False).pvalue
    assert row["p"] == pytest.approx(p, rel=1e-9)
    assert row["q"] == pytest.approx(p, rel=1e-9)  # one row: BH leaves it
    assert doc["inputs"][0]["kind"] == "file" and doc["inputs"][0]["result_files"] == 1
    # head lists /usr/bin long: slower, a regression, exit code 1
    assert row["verdict"] == "worse" and code == 1 == doc["exit_code"], err
    import jsonschema
    jsonschema.Draft202012Validator(batch.schema()).validate(doc)


def test_directories_of_runs_against_scipy_and_statsmodels():
    import scipy.stats as scipy_stats
    import statsmodels.stats.multitest as multitest
    r = batch.run([RES / "dirs/base", RES / "dirs/head"], "base")
    rows = r.rows
    tc = next(x for x in rows if x["metric"] == "task-clock")
    b = [v for i in range(1, 6) for v in perf_values(RES / f"dirs/base/perf-{i}.csv", "task-clock")]
    h = [v for i in range(1, 6) for v in perf_values(RES / f"dirs/head/perf-{i}.csv", "task-clock")]
    assert (tc["n_base"], tc["n_new"]) == (5, 5)
    assert tc["p"] == pytest.approx(scipy_stats.ttest_ind(b, h, equal_var=False).pvalue, rel=1e-9)
    # fio: one sample a file, every job's bandwidth in the JSON
    bw = next(x for x in rows if x["metric"] == "randread.read.bw")
    fb = [json.loads((RES / f"dirs/base/fio-{i}.json").read_text())["jobs"][0]["read"]["bw"] for i in (1, 2, 3)]
    fh = [json.loads((RES / f"dirs/head/fio-{i}.json").read_text())["jobs"][0]["read"]["bw"] for i in (1, 2, 3)]
    assert bw["p"] == pytest.approx(scipy_stats.ttest_ind(fb, fh, equal_var=False).pvalue, rel=1e-9)
    assert bw["mean_base"] == pytest.approx(sum(fb) / 3, rel=1e-12)
    # BH across every row of the run
    ps = [x["p"] for x in rows if x["p"] is not None]
    qs = multitest.multipletests(ps, method="fdr_bh")[1]
    assert [x["q"] for x in rows if x["p"] is not None] == pytest.approx(list(qs), rel=1e-9)
    # perf stat names no direction for its events: a significant change is "changed"
    assert tc["direction"] == "unknown" and tc["verdict"] == "changed"
    assert any("README: not a result file" in w for w in r.warnings)


def test_junit_of_result_files_is_valid(tmp_path):
    import xmlschema
    out = tmp_path / "junit.xml"
    code, stdout, err = run_cli("batch", str(RES / "dirs/base"), str(RES / "dirs/head"), "--baseline", "base",
                                "--format", "junit", "-o", str(out))
    xmlschema.XMLSchema(str(XSD)).validate(str(out))
    r = batch.run([RES / "dirs/base", RES / "dirs/head"], "base")
    root = ET.parse(out).getroot()
    failed = [c for c in root.iter("testcase") if c.find("failure") is not None]
    assert len(failed) == r.summary["worse"] == int(root.get("failures")) > 0
    assert {c.get("classname") for c in failed} == {"results.fio"}
    assert code == 1 == r.exit_code, err


def test_series_prints_what_ordered_the_runs(tmp_path):
    code, out, err = run_cli("series", str(DATA / "series/results/fio"), "--format", "csv")
    assert code == 0
    assert "order: the runs' start dates (fio's 'timestamp')" in err
    h = series.history(DATA / "series/results/fio")
    # fio's "timestamp": c3 1796176715, a1 1796176717, b2 1796176719
    assert list(h["commit"].unique()) == ["c3", "a1", "b2"]
    assert h.attrs["order"] == "the runs' start dates (fio's 'timestamp')"
    hf = [str(DATA / f"series/results/hyperfine/{c}.json") for c in ("c3", "a1", "b2")]
    code, out, err = run_cli("series", *hf)
    assert "order: the natural order of the names: 3 of the 3 runs have no start date" in err
    code, out, err = run_cli("series", *hf, "--order", "c3,a1,b2")
    assert "order: the order given (--order)" in err
    h = series.history(DATA / "series/mmtests-starts")
    assert list(h["commit"].unique()) == ["6.9-patched", "6.8-vanilla"]  # the edited start lines

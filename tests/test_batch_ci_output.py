"""The CI views of a batch result: JUnit valid against the Jenkins xunit plugin's
schema (tests/data/batch/junit-10.xsd, tools/oracles/batch/fetch_junit_xsd.sh) with
measured times, markdown within its size budget, GitHub annotations, JSON lines,
progress (a tqdm-compatible callback, lines with rate and ETA), the HTML view,
archive limits and fsspec URLs, and the public scan/reduce halves."""

from __future__ import annotations

import collections
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import schedlab
from schedlab import batch

from .batch_archives import build
from .test_batch import HEAD, LEGACY, run_cli

XSD = Path(__file__).parent / "data" / "batch" / "junit-10.xsd"


@pytest.fixture(scope="module")
def paths(tmp_path_factory) -> list[Path]:
    d = tmp_path_factory.mktemp("ci")
    return [build(LEGACY, d / "legacy.tar.gz", "m1/work/log"), build(HEAD, d / "head.zip", "m2/work/log")]


@pytest.fixture(scope="module")
def result(paths) -> batch.BatchResult:
    return batch.run(paths, "6.8-vanilla")


def test_junit_is_valid_against_the_jenkins_xunit_schema_with_measured_times(paths, tmp_path):
    import xmlschema
    schema = xmlschema.XMLSchema(str(XSD))
    # every element kind: failures, an input error, missing data, warnings
    empty = tmp_path / "empty.log"
    empty.write_text("")
    r = batch.run(paths + [tmp_path / "missing.tgz"], "6.8-vanilla", keep_going=True)
    x = r.to_junit()
    schema.validate(x)  # raises with the element at fault
    root = ET.fromstring(x)
    assert root.get("skipped") is None  # not an attribute of <testsuites> in the schema
    assert any(c.find("error") is not None for c in root.iter("testcase"))
    cases = {c.get("name"): float(c.get("time")) for c in root.iter("testcase")}
    # the scan of each readable input took time, and the run at least as long as the longest
    assert cases[str(paths[0])] > 0 and cases[str(paths[1])] > 0
    assert float(root.get("time")) >= max(cases[str(p)] for p in paths)
    assert cases[str(paths[0])] == pytest.approx(r.timings["inputs"][0], abs=1e-6)
    # a suite's time is the sum of its testcases' (3 decimals)
    for s in root.iter("testsuite"):
        total = sum(float(c.get("time")) for c in s.iter("testcase"))
        assert float(s.get("time")) == pytest.approx(total, abs=1e-3 + 1e-6 * len(s))
    assert len(r.timings["rows"]) == len(r.rows)
    # the schema refuses what the old output had: a skipped count on <testsuites>
    assert not schema.is_valid(x.replace('<testsuites name="schedlab batch"',
                                         '<testsuites name="schedlab batch" skipped="0"', 1))


def _many(result: batch.BatchResult, n: int, gaps: int) -> batch.BatchResult:
    """``n`` rows cut from the real rows of ``result`` (kernel names made unique, the
    verdicts cycled: 1 in 7 worse, 2 in 7 inconclusive, the rest equivalent), with
    ``gaps`` missing-data messages: the size of a large lkp run."""
    base = result.rows
    cycle = ["worse", "inconclusive", "equivalent", "equivalent", "inconclusive", "equivalent", "better"]
    rows = []
    for i in range(n):
        row = dict(base[i % len(base)])
        row["kernel"] = f"kernel-{i // 50:04d}"
        row["verdict"] = cycle[i % len(cycle)]
        rows.append(row)
    data = json.loads(result.to_json())
    data["rows"] = rows
    data["missing"] = [{"input": "in", "message": f"work/log/k{i}/iter-0/netperf-udp/logs: no result line"}
                       for i in range(gaps)]
    counts = collections.Counter(r["verdict"] for r in rows)
    data["summary"].update(rows=n, comparisons=len({r["kernel"] for r in rows}), **counts)
    data["exit_code"] = 2
    data["timings"] = {"total": 0.0, "inputs": [], "rows": []}
    return batch.BatchResult(data)


def test_markdown_of_10000_rows_fits_a_pull_request_comment_and_counts_what_it_cut(result):
    big = _many(result, 10_000, 3_000)
    md = big.to_markdown()
    assert len(md.encode()) <= batch.MARKDOWN_BUDGET < 65_536
    lines = md.splitlines()
    assert lines[0].startswith("### schedlab batch: MISSING DATA:")
    # summary first: the comparisons table comes before the rows table
    assert md.index("**Comparisons with a row to look at**") < md.index("**Rows that are not equivalent**")
    shown = [ln for ln in lines if re.match(r"\| (\*\*worse\*\*|better|inconclusive) \|", ln)]
    worse = sum(1 for ln in shown if ln.startswith("| **worse**"))
    assert shown and all(ln.startswith("| **worse**") for ln in shown[:worse])  # regressions first
    m = re.search(r"^(\d+) more rows not shown \(([^)]*)\)", md, re.M)
    assert m, md[-2000:]
    counted = {v: int(c) for c, v in (p.split(" ", 1) for p in m.group(2).split(", "))}
    flagged = sum(big.summary[v] for v in ("worse", "better", "inconclusive"))
    assert len(shown) + int(m.group(1)) == flagged == len(shown) + sum(counted.values())
    assert f"{big.summary['equivalent']} rows judged equivalent are not shown" in md
    m = re.search(r"^- … and (\d+) more, not shown", md, re.M)
    assert m and int(m.group(1)) + md.count("no result line") == 3_000
    # a larger budget (a step summary's 1 MiB) holds more rows; an unbounded one every row
    assert len(big.to_markdown(1_000_000).encode()) <= 1_000_000
    assert sum(ln.startswith("| **worse**") for ln in big.to_markdown(10**9).splitlines()) == big.summary["worse"]


def test_markdown_of_a_small_run_shows_every_row(result):
    md = result.to_markdown()
    flagged = [r for r in result.rows if r["verdict"] != "equivalent"]
    assert sum(1 for ln in md.splitlines() if re.match(r"\| (\*\*worse\*\*|better|inconclusive|not_enough_data) \|", ln)) == len(flagged)
    assert "more rows not shown" not in md


def test_github_annotations(result, monkeypatch, tmp_path, paths):
    big = _many(result, 200, 3)
    out = big.to_github().splitlines()
    errors = [ln for ln in out if ln.startswith("::error ")]
    warnings = [ln for ln in out if ln.startswith("::warning ")]
    assert len(errors) == 10 and len(warnings) == 10  # what GitHub shows of one step
    assert errors[0].startswith("::error file=in,title=missing data::work/log/k0/")
    assert all(",title=" in ln and "::" in ln[2:] for ln in errors + warnings)
    worse = sum(r["verdict"] == "worse" for r in big.rows)
    inconclusive = sum(r["verdict"] == "inconclusive" for r in big.rows)
    notice = out[-1]
    assert notice.startswith("::notice title=schedlab batch::schedlab batch: MISSING DATA")
    assert f"{3 + worse - 10} more errors and {inconclusive - 10} more warnings" in notice
    # workflow-command escaping: % CR LF in the message, also : and , in properties
    data = json.loads(result.to_json())
    row = next(r for r in data["rows"] if r["verdict"] == "worse")
    row["kernel"], row["input"] = "k,1:\n2%", "a:b,c.tgz"
    line = batch.BatchResult(data).to_github().splitlines()[0]
    assert line.startswith("::error file=a%3Ab%2Cc.tgz,title=worse mmtests ")
    assert "k%2C1%3A%0A2%25" in line.split("::")[1] and "k,1:%0A2%25 vs" in line
    # the step summary: markdown appended to $GITHUB_STEP_SUMMARY
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, stdout, err = run_cli("batch", *map(str, paths), "--baseline", "6.8-vanilla", "--format", "github",
                                "--step-summary")
    assert code == 1, err
    assert stdout.startswith("::error file=") and stdout.splitlines()[-1].startswith("::notice ")
    text = summary.read_text()
    assert text.startswith("earlier step\n### schedlab batch: FAILED")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY")
    code, _, err = run_cli("batch", str(paths[0]), "--baseline", "6.8-vanilla", "--step-summary")
    assert code == 2 and "GITHUB_STEP_SUMMARY is not set" in err


def test_json_lines_round_trip_and_refuse_a_cut_stream(result):
    text = result.to_jsonl()
    lines = [json.loads(ln) for ln in text.splitlines()]
    assert [ln["record"] for ln in lines] == (["header"] + ["input"] * len(result.data["inputs"])
                                             + ["row"] * len(result.rows) + ["end"])
    back = batch.BatchResult.from_jsonl(text)
    assert back == result and back.timings == result.timings
    with pytest.raises(schedlab.ParseError, match="no end record"):
        batch.BatchResult.from_jsonl("".join(text.splitlines(keepends=True)[:-1]))
    with pytest.raises(schedlab.ParseError, match="header record first"):
        batch.BatchResult.from_jsonl(text.split("\n", 1)[1])


def test_progress_callback_works_with_tqdm(paths):
    import tqdm
    sink = io.StringIO()
    with tqdm.tqdm(total=len(paths), file=sink) as bar:
        r = batch.run(paths, "6.8-vanilla", progress=bar.update)
        assert bar.n == len(paths)
    assert "2/2" in sink.getvalue()
    assert r == batch.run(paths, "6.8-vanilla")
    calls = []
    batch.run(paths, "6.8-vanilla", progress=calls.append, jobs=1)
    assert calls == [1, 1]
    with pytest.raises(schedlab.DomainError, match="progress must be"):
        batch.run(paths, "6.8-vanilla", progress="sometimes")


def test_progress_lines_state_rate_and_eta(paths):
    env = dict(os.environ, PYTHONPATH=str(Path(schedlab.__file__).parent.parent))
    p = subprocess.run([sys.executable, "-m", "schedlab", "batch", *map(str, paths), "--baseline", "6.8-vanilla",
                        "--progress", "lines", "--format", "json"], capture_output=True, text=True, env=env)
    assert p.returncode == 1, p.stderr
    last = [ln for ln in p.stderr.splitlines() if ln.startswith("schedlab batch: [")][-1]
    assert re.fullmatch(r"schedlab batch: \[#{30}\] 2/2 inputs, [0-9.]+/s, done in \d+s", last), last


def test_html_view_is_styled_and_escaped(result):
    data = json.loads(result.to_json())
    row = next(r for r in data["rows"] if r["verdict"] == "worse")
    row["kernel"] = "<script>alert(1)</script>"
    h = batch.BatchResult(data)._repr_html_()
    assert "<script>" not in h and "&lt;script&gt;" in h
    assert "text-align:right" in h and "border:1px solid" in h
    assert "background:#f8d0d0;color:#5c0a0a" in h  # worse: its own text colour (dark themes)
    assert ">q</th>" in h and ">equivalence p</th>" in h
    assert f"{result.summary['equivalent']} equivalent rows are not shown" in h


def test_limits_are_configurable(paths):
    with pytest.raises(schedlab.ParseError, match="limit"):
        batch.run(paths, "6.8-vanilla", limits=batch.Limits(entry_bytes=100))
    assert batch.run(paths, "6.8-vanilla", limits=batch.Limits(entry_bytes=1 << 30)) == batch.run(paths, "6.8-vanilla")
    code, _, err = run_cli("batch", *map(str, paths), "--baseline", "6.8-vanilla", "--max-entry-bytes", "100")
    assert code == 2 and "legacy.tar.gz" in err
    code, _, err = run_cli("batch", str(paths[0]), "--baseline", "6.8-vanilla", "--max-entries", "0")
    assert code == 2 and "--max-entries" in err
    with pytest.raises(schedlab.DomainError, match="Limits.entries"):
        batch.run(paths, "6.8-vanilla", limits=batch.Limits(entries=0))


def test_public_scan_and_reduce_and_fsspec_urls(paths, result):
    import pickle

    scans = [pickle.loads(pickle.dumps(batch.scan(p))) for p in paths]
    assert batch.reduce(scans, "6.8-vanilla") == result
    import fsspec
    mem = fsspec.filesystem("memory")
    urls = []
    for p in paths:
        mem.pipe(f"/ci/{p.name}", p.read_bytes())
        urls.append(f"memory://ci/{p.name}")
    r = batch.run(urls, "6.8-vanilla")
    strip = [{k: v for k, v in x.items() if k not in ("input", "base_input")} for x in r.rows]
    assert strip == [{k: v for k, v in x.items() if k not in ("input", "base_input")} for x in result.rows]
    assert {x["input"] for x in r.rows} <= set(urls)
    with pytest.raises(schedlab.ParseError, match="larger than the limit of 100 bytes"):
        batch.run(urls, "6.8-vanilla", limits=batch.Limits(archive_bytes=100))
    with pytest.raises(schedlab.ReadError, match="memory://ci/none.tgz"):
        batch.run(["memory://ci/none.tgz"], "6.8-vanilla")

"""`schedlab batch` on archives of every kind built from the MMTests and lkp test data:
verdicts (p and q against scipy, changes by hand), exit codes, schema-valid JSON,
JUnit parsed back with xml.etree, markdown/text, the Python API."""

from __future__ import annotations

import json
import os
import pickle
import pty
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import schedlab
from schedlab import batch

from .batch_archives import KINDS, build
from .cli_run import run_cli

DATA = Path(__file__).parent / "data"
LEGACY = DATA / "mmtests" / "logs-legacy"
HEAD = DATA / "mmtests" / "logs-head"
E2018 = DATA / "mmtests" / "logs-2018"
A = DATA / "lkp/golden/scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7"
BASE_A = "a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01"
HEAD_A = "d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a"



@pytest.fixture(scope="module")
def archives(tmp_path_factory) -> dict[str, dict[str, Path]]:
    """Per kind: the MMTests legacy and head trees in one archive each (as work/log),
    and the two lkp commits of scenario A in one archive each (as lkp result paths)."""
    d = tmp_path_factory.mktemp("archives")
    out: dict[str, dict[str, Path]] = {}
    for kind in KINDS:
        out[kind] = {
            "legacy": build(LEGACY, d / f"legacy.{kind}", "machine/work/log"),
            "head": build(HEAD, d / f"head.{kind}", "machine/work/log"),
            "lkp_base": build(A / BASE_A, d / f"base.{kind}", f"result/unixbench/gcc-7/{BASE_A}"),
            "lkp_head": build(A / HEAD_A, d / f"head-commit.{kind}", f"result/unixbench/gcc-7/{HEAD_A}"),
        }
    return out


def sans_input(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in ("input", "base_input")} for r in rows]


def validate(doc: dict) -> None:
    import jsonschema
    jsonschema.Draft202012Validator.check_schema(batch.schema())
    jsonschema.Draft202012Validator(batch.schema()).validate(doc)


@pytest.mark.parametrize("kind", KINDS)
def test_mmtests_archives_give_the_directory_verdicts(archives, kind, tmp_path):
    a = archives[kind]
    code, out, err = run_cli("batch", str(a["legacy"]), str(a["head"]), "--baseline", "6.8-vanilla", "--format", "json")
    assert code == 1, err
    doc = json.loads(out)
    validate(doc)
    # the same trees as directories, at the same path inside the input
    for name, src in (("legacy", LEGACY), ("head", HEAD)):
        (tmp_path / name / "machine" / "work").mkdir(parents=True)
        os.symlink(src, tmp_path / name / "machine" / "work" / "log")
    want = batch.run([tmp_path / "legacy", tmp_path / "head"], "6.8-vanilla")
    assert sans_input(doc["rows"]) == sans_input(want.rows)
    assert doc["summary"] == want.summary
    assert [i["kind"] for i in doc["inputs"]] == [{"tgz": "tar.gz"}.get(kind, kind)] * 2
    eras = {r["era"] for r in doc["rows"]}
    assert eras == {"2025", "head"}  # legacy logs read by 2025's extractors, head's by head's
    # every MMTests benchmark of both trees was found and compared
    benchmarks = {r["benchmark"] for r in doc["rows"]}
    assert {"netperf-udp", "hackbench-process-pipes", "dbench4", "sockperf-udp-throughput", "netperf-ipv4-udp",
            "dbench", "tbench", "schbench"} <= benchmarks


@pytest.mark.parametrize("kind", KINDS)
def test_lkp_commit_archives_meet_their_baseline(archives, kind):
    a = archives[kind]
    code, out, err = run_cli("batch", str(a["lkp_base"]), str(a["lkp_head"]), "--baseline", BASE_A[:8],
                             "--format", "json")
    assert code == 1, err
    doc = json.loads(out)
    validate(doc)
    score = next(r for r in doc["rows"] if r["metric"] == "unixbench.score")
    assert (score["kernel"], score["baseline"], score["verdict"]) == (HEAD_A, BASE_A, "worse")
    assert score["input"] == str(a["lkp_head"]) and score["base_input"] == str(a["lkp_base"])
    want = batch.run([A.parent.parent], BASE_A)
    assert sans_input(doc["rows"]) == sans_input(want.rows)


def _matrix(commit: str) -> dict[str, list[float]]:
    m = json.loads((A / commit / "matrix.json").read_text())
    n = len(m.pop("stats_source"))
    return {k: [float(x) for x in v] + [0.0] * (n - len(v)) for k, v in m.items()}


@pytest.mark.filterwarnings("ignore:Precision loss occurred")
@pytest.mark.parametrize("test", ["welch", "mann-whitney"])
def test_lkp_rows_against_scipy(test):
    import scipy.stats as stats
    r = batch.run([A], BASE_A, test=test)
    base, head = _matrix(BASE_A), _matrix(HEAD_A)
    ps = []
    for row in r.rows:
        b, h = base[row["metric"]], head[row["metric"]]
        assert (row["n_base"], row["n_new"]) == (len(b), len(h))
        if test == "welch":
            p = stats.ttest_ind(b, h, equal_var=False).pvalue
        else:
            p = stats.mannwhitneyu(b, h, alternative="two-sided", method="auto").pvalue
        if p != p:  # both constant and equal: no difference
            p = 1.0
        assert row["p"] == pytest.approx(p, rel=1e-9, abs=1e-300), row["metric"]
        ps.append(p)
        mb, mh = sum(b) / len(b), sum(h) / len(h)
        assert row["mean_base"] == pytest.approx(mb, rel=1e-15) and row["mean_new"] == pytest.approx(mh, rel=1e-15)
        by_hand = mh * 100 / mb - 100 if row["direction"] == "higher" else 100 - mh * 100 / mb
        assert row["change_pct"] == pytest.approx(by_hand, rel=1e-12, abs=1e-12)
    qs = stats.false_discovery_control(ps, method="bh")
    for row, q in zip(r.rows, qs):
        assert row["q"] == pytest.approx(q, rel=1e-9)
        b, h = base[row["metric"]], head[row["metric"]]
        p_eq = _tost_p(b, h, 0.02 * abs(sum(b) / len(b)))
        if p_eq is None:
            assert row["p_equivalent"] is None
        else:
            assert row["p_equivalent"] == pytest.approx(p_eq, rel=1e-9, abs=1e-300), row["metric"]
        significant = q < 0.05 and row["change_pct"] != 0
        if p_eq is not None and p_eq < 0.05:
            want = "equivalent"
        elif significant:
            want = "better" if row["change_pct"] > 0 else "worse"
        else:
            want = "inconclusive"
        assert row["verdict"] == want, row
    score = next(row for row in r.rows if row["metric"] == "unixbench.score")
    assert round(score["change_pct"], 1) == -9.9  # the 0-day report of seed 003: 4626 -> 4167, -9.9%


def _tost_p(base: list[float], new: list[float], m: float) -> float | None:
    """TOST (two one-sided Welch t-tests) p that mean(new) - mean(base) is within +-m, by scipy's t."""
    import scipy.stats as stats
    if m == 0:
        return None
    nb, nn = len(base), len(new)
    mb, mn = sum(base) / nb, sum(new) / nn
    vb = sum((x - mb) ** 2 for x in base) / (nb - 1) / nb
    vn = sum((x - mn) ** 2 for x in new) / (nn - 1) / nn
    d = mn - mb
    if vb + vn == 0:
        return 0.0 if -m < d < m else 1.0
    se = (vb + vn) ** 0.5
    df = (vb + vn) ** 2 / (vb**2 / (nb - 1) + vn**2 / (nn - 1))
    return max(stats.t.sf((d + m) / se, df), stats.t.cdf((d - m) / se, df))


def _hackbench(root: Path, kernel: str, groups: dict[str, list[float]]) -> None:
    for g, values in groups.items():
        logs = root / kernel / "iter-0" / "hackbench-process-pipes" / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        for i, v in enumerate(values, 1):
            (logs / f"hackbench-{g}-{i}").write_text(f"Running in process mode with {g} groups\nTotal time: {v} [sec]\n")


def test_fdr_runs_across_every_row_of_the_run(tmp_path):
    import scipy.stats as stats
    one, two = tmp_path / "one" / "work" / "log", tmp_path / "two" / "work" / "log"
    _hackbench(one, "v1", {"1": [1.00, 1.02, 0.99, 1.01], "4": [2.0, 2.1, 1.9, 2.05]})
    _hackbench(one, "v2", {"1": [1.06, 1.08, 1.05, 1.07], "4": [2.0, 2.0, 2.1, 1.95]})
    _hackbench(two, "v1", {"8": [4.0, 4.1, 3.9, 4.05]})
    _hackbench(two, "v3", {"8": [3.6, 3.7, 3.5, 3.65]})
    r = batch.run([tmp_path / "one", tmp_path / "two"], "v1")
    samples = {("v2", "1"): ([1.00, 1.02, 0.99, 1.01], [1.06, 1.08, 1.05, 1.07]),
               ("v2", "4"): ([2.0, 2.1, 1.9, 2.05], [2.0, 2.0, 2.1, 1.95]),
               ("v3", "8"): ([4.0, 4.1, 3.9, 4.05], [3.6, 3.7, 3.5, 3.65])}
    assert [(x["kernel"], x["metric"]) for x in r.rows] == list(samples)
    ps = [stats.ttest_ind(b, n, equal_var=False).pvalue for b, n in samples.values()]
    qs = stats.false_discovery_control(ps, method="bh")  # one family: both inputs' rows
    assert [x["q"] for x in r.rows] == pytest.approx(list(qs), rel=1e-9)
    # hand: v3 is 10% faster on 8 groups (amean 4.0125 -> 3.6125), lower is better
    v3 = r.rows[2]
    assert v3["change_pct"] == pytest.approx(100 - 3.6125 * 100 / 4.0125, rel=1e-12)
    # v2 on 4 groups: equal means, but 4 runs cannot show them within +-2% (was "noise")
    assert v3["verdict"] == "better" and r.rows[0]["verdict"] == "worse" and r.rows[1]["verdict"] == "inconclusive"
    mwu = batch.run([tmp_path / "one", tmp_path / "two"], "v1", test="mann-whitney")
    ps = [stats.mannwhitneyu(b, n, alternative="two-sided").pvalue for b, n in samples.values()]
    assert [x["p"] for x in mwu.rows] == pytest.approx(ps, rel=1e-9)


def test_exit_codes_follow_fail_on_alpha_and_min_change(archives):
    a = archives["tar.gz"]
    args = ("batch", str(a["lkp_base"]), str(a["lkp_head"]))
    assert run_cli(*args, "--baseline", BASE_A)[0] == 1
    assert run_cli(*args, "--baseline", BASE_A, "--fail-on", "never")[0] == 0
    assert run_cli(*args, "--baseline", BASE_A, "--min-change", "10")[0] == 0  # -9.92% < 10%
    assert run_cli(*args, "--baseline", BASE_A, "--alpha", "1e-12")[0] == 0
    # from the head's point of view the base is 9.9% better: no regression, but a change
    assert run_cli(*args, "--baseline", HEAD_A)[0] == 0
    assert run_cli(*args, "--baseline", HEAD_A, "--fail-on", "any-change")[0] == 1
    code, _, err = run_cli(*args, "--baseline", "nosuchcommit")
    assert code == 2 and "baseline 'nosuchcommit'" in err and BASE_A in err
    code, _, err = run_cli(*args, "--baseline", BASE_A, "--alpha", "2")
    assert code == 2 and "alpha" in err
    code, _, err = run_cli(*args, "--baseline", BASE_A, "-o", "/nonexistent/dir/r.json")
    assert code == 2 and "cannot write /nonexistent/dir/r.json" in err


def test_junit_parses_back_with_one_testcase_per_metric(archives, tmp_path):
    a = archives["zip"]
    out = tmp_path / "junit.xml"
    code, stdout, err = run_cli("batch", str(a["legacy"]), str(a["lkp_base"]), str(a["lkp_head"]),
                                "--baseline", "6.8-vanilla", "--format", "junit", "-o", str(out))
    assert code == 1 and stdout == "", err
    root = ET.parse(out).getroot()
    r = batch.run([a["legacy"], a["lkp_base"], a["lkp_head"]], "6.8-vanilla")
    assert root.tag == "testsuites"
    cases = [c for s in root.iter("testsuite") if s.get("name") != "inputs" for c in s.iter("testcase")]
    assert len(cases) == len(r.rows) == int(root.get("tests")) - len(r.data["inputs"])
    failed = [c for c in cases if c.find("failure") is not None]
    assert len(failed) == r.summary["worse"] == int(root.get("failures"))
    assert all(c.find("failure").get("type") == "regression" for c in failed)
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert len(skipped) == r.summary["not_enough_data"] == sum(int(s.get("skipped")) for s in root.iter("testsuite"))
    names = {(c.get("classname"), c.get("name")) for c in failed}
    assert ("mmtests.netperf-udp", "send-1024 [6.9-patched vs 6.8-vanilla]") in names
    row = next(x for x in r.rows if x["metric"] == "send-1024")
    msg = next(c.find("failure").get("message") for c in failed if c.get("name").startswith("send-1024 "))
    assert msg.startswith("worse: hmean 6160.61 -> 5878.01 (-4.59%)")  # the golden's Hmean send-1024 row
    assert row["change_pct"] == pytest.approx(5878.01 * 100 / 6160.61 - 100, abs=5e-4)
    inputs = next(s for s in root.iter("testsuite") if s.get("name") == "inputs")
    assert [c.get("name") for c in inputs.iter("testcase")] == [str(a["legacy"]), str(a["lkp_base"]), str(a["lkp_head"])]
    # the lkp commits have no 6.8-vanilla: listed, not compared
    assert "not compared" in inputs.find("system-out").text
    assert len(r.unmatched) == 2
    # with --fail-on any-change, better rows fail too
    code, stdout, _ = run_cli("batch", str(a["head"]), "--baseline", "6.8-vanilla", "--format", "junit",
                              "--fail-on", "any-change")
    h = batch.run([a["head"]], "6.8-vanilla")
    root = ET.fromstring(stdout)
    kinds = [f.get("type") for f in root.iter("failure")]
    assert h.summary["better"] > 0 and kinds.count("change") == h.summary["better"]
    assert kinds.count("regression") == h.summary["worse"] and code == 1


def test_markdown_and_text(archives):
    a = archives["tar"]
    code, md, _ = run_cli("batch", str(a["lkp_base"]), str(a["lkp_head"]), "--baseline", BASE_A, "--format", "markdown")
    assert code == 1
    lines = md.splitlines()
    assert lines[0].startswith("### schedlab batch: FAILED: 3 worse, 0 better")
    table = [x for x in lines if x.startswith("| **worse** | lkp | unixbench |")]
    assert len(table) == 3 and any("| unixbench.score |" in x and "| -9.92% |" in x for x in table)
    code, text, _ = run_cli("batch", str(a["lkp_base"]), str(a["lkp_head"]), "--baseline", BASE_A)
    assert code == 1 and "WORSE" in text and "unixbench.score" in text


def test_progress_bar_only_on_a_terminal(archives):
    a = archives["tgz"]
    args = [sys.executable, "-m", "schedlab", "batch", str(a["legacy"]), "--baseline", "6.8-vanilla", "--format", "json"]
    plain = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert plain.returncode == 1 and plain.stderr == ""
    json.loads(plain.stdout)
    leader, follower = pty.openpty()
    try:
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=follower, timeout=120)
        os.close(follower)
        follower = -1
        chunks = []
        while True:
            try:
                b = os.read(leader, 65536)
            except OSError:
                break
            if not b:
                break
            chunks.append(b)
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    assert p.returncode == 1
    bar = b"".join(chunks).decode()
    assert "[" + "#" * 30 + "] 1/1 inputs" in bar
    json.loads(p.stdout)  # stdout stays clean


def test_python_api_result_is_picklable_and_round_trips(archives):
    a = archives["tar.xz"]
    r = batch.run([a["lkp_base"], a["lkp_head"]], BASE_A, jobs=2)
    again = pickle.loads(pickle.dumps(r))
    assert again == r and again.exit_code == 1
    assert batch.BatchResult.from_json(r.to_json(indent=1)) == r
    df = r.to_pandas()
    assert len(df) == len(r.rows) and df.loc[df.metric == "unixbench.score", "verdict"].item() == "worse"
    assert [x["metric"] for x in r.regressions] == ["unixbench.score", "unixbench.throughput", "unixbench.workload"]
    assert repr(r).startswith("BatchResult(baseline='a07630b8")
    with pytest.raises(schedlab.DomainError):
        batch.BatchResult({"schema": "other"})
    with pytest.raises(schedlab.DomainError, match="fail_on"):
        batch.run([a["lkp_base"]], BASE_A, fail_on="sometimes")


def test_errors_name_the_file_and_keep_going(archives, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\n")
    a = archives["tar.gz"]
    with pytest.raises(schedlab.ParseError) as e:
        batch.run([a["lkp_base"], bad, tmp_path / "missing.tgz"], BASE_A)
    assert e.value.path == str(bad)  # the first bad input in the order given
    e2 = pickle.loads(pickle.dumps(e.value))
    assert (type(e2), e2.path, str(e2)) == (type(e.value), e.value.path, str(e.value))
    r = batch.run([a["lkp_base"], a["lkp_head"], bad], BASE_A, keep_going=True)
    assert r.exit_code == 2 and [x["input"] for x in r.errors] == [str(bad)]
    assert r.summary["worse"] == 3  # the readable inputs were still compared
    validate(r.data)
    code, out, err = run_cli("batch", str(a["lkp_base"]), str(a["lkp_head"]), str(bad), "--baseline", BASE_A,
                             "--keep-going", "--format", "json")
    assert code == 2 and str(bad) in err and json.loads(out)["errors"][0]["input"] == str(bad)


def test_mmtests_and_lkp_compare_read_archives(archives):
    golden = (DATA / "mmtests/out/2025-netperf-udp.oracle").read_text()
    a = archives["tgz"]
    code, out, err = run_cli("mmtests", "compare", "-d", str(a["legacy"]), "-b", "netperf-udp",
                             "-n", "6.8-vanilla,6.9-patched", "--compat", "2025")
    assert (code, out) == (0, golden), err
    code, out, err = run_cli("mmtests", "compare", "-d", str(a["legacy"]), "-b", "netperf-udp", "-n", "nope,x")
    assert code == 2 and "legacy.tgz" in err and "'nope'" in err
    golden = (DATA / "lkp/golden/out_A_default.txt").read_text()
    code, out, err = run_cli("lkp", "compare", str(a["lkp_base"]), str(a["lkp_head"]))
    assert (code, out) == (0, golden), err
    c = schedlab.lkp.compare(a["lkp_base"], a["lkp_head"])
    assert c.to_text() == golden


def test_schema_documents_every_field(archives):
    s = batch.schema()
    # the package ships the repository's schema unchanged
    repo = Path(__file__).parent.parent / "schemas" / "batch-result.schema.json"
    assert Path(batch.SCHEMA_PATH).read_bytes() == repo.read_bytes()
    r = batch.run([archives["tar"]["legacy"]], "6.8-vanilla")
    # every field is described; timings and notes (added in version 1) are optional for older documents
    assert set(s["required"]) | {"timings", "notes"} == set(r.data) == set(s["properties"])
    assert set(s["$defs"]["row"]["required"]) == set(r.rows[0])
    assert s["properties"]["version"]["const"] == batch.SCHEMA_VERSION
    doc = (Path(__file__).parent.parent / "docs" / "batch.md").read_text()
    for field in s["$defs"]["row"]["required"]:
        assert f"`{field}`" in doc, field

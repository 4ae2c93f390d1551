"""Change points from Python and the command line, checked against Apache Otava: the
series of Otava's own tests and Otava's results on seeded series
(tests/data/series/, made by tools/oracles/stats/otava_goldens.py), as one tidy
frame, a wide frame, a numpy array and a CSV file."""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import schedlab

from .cli_run import run_cli

DATA = Path(__file__).parent / "data" / "series"



def _cases(name: str) -> list[dict]:
    return json.loads((DATA / name).read_text())["cases"]


def _picks(name: str) -> list[dict]:
    """A few of the file's cases: the first of each window and of each way of holding gaps
    (tests/it/series_golden.rs checks every case)."""
    picked: dict[tuple, dict] = {}
    for case in _cases(name):
        picked.setdefault((case["window"], None in case["values"]), case)
    return list(picked.values())


@pytest.mark.parametrize("name", ["otava_tests.json", "otava_goldens.json"])
def test_cases_as_otava(name):
    picks = _picks(name)
    assert 2 <= len(picks) < len(_cases(name))
    for case in picks:
        x = np.array([np.nan if v is None else v for v in case["values"]])
        r = schedlab.change_points(x, window=case["window"], max_p=case["max_p"],
                                   min_change=case["min_magnitude"] * 100)
        want = case["otava"]
        assert r["index"].tolist() == [c["index"] for c in want], case["name"]
        for col in ("mean_before", "mean_after", "std_before", "std_after"):
            assert np.allclose(r[col], [c[col] for c in want], rtol=1e-13, atol=0), (case["name"], col)
        assert np.allclose(r["p"], [c["p"] for c in want], rtol=1e-9, atol=1e-300), case["name"]


def _tigerbeetle() -> tuple[list[float], list[int]]:
    case = next(c for c in _cases("otava_tests.json") if c["name"].endswith("test_tb_old_defaults"))
    return case["values"], case["expected"]


def test_tidy_wide_and_directions():
    tb, want = _tigerbeetle()  # Otava's test: window 30, max p 0.01, min magnitude 0.05 -> [15, 71]
    n = len(tb)
    commits = [f"{i:04x}" for i in range(n)]
    tidy = pd.DataFrame({"commit": commits * 2, "bench": ["tb.throughput"] * n + ["tb.latency"] * n,
                         "value": tb + tb})
    r = schedlab.change_points(tidy, commit="commit", metric="bench", value="value", window=30, max_p=0.01,
                               min_change=5, directions={"tb.throughput": "higher", "tb.latency": "lower"})
    assert r["index"].tolist() == want * 2
    assert r["commit"].tolist() == [commits[i] for i in want] * 2
    # at 15 the level drops (26,7xx to 23,6xx), at 71 it rises: worse then better for a throughput
    assert r["verdict"].tolist() == ["worse", "better", "better", "worse"]
    before, after = r["mean_before"].iloc[0], r["mean_after"].iloc[0]
    assert r["change"].iloc[0] == pytest.approx((after / before - 1) * 100, rel=1e-12)
    assert r["change"].iloc[2] == pytest.approx((1 - after / before) * 100, rel=1e-12)
    wide = pd.DataFrame({"commit": commits, "a": tb, "b": tb[::-1]})
    w = schedlab.change_points(wide, commit="commit", window=30, max_p=0.01, min_change=5)
    assert w.loc[w["metric"] == "a", "index"].tolist() == want
    assert set(w.columns) == set(schedlab.series.COLUMNS)
    # repeated runs of a commit count as their mean
    twice = pd.concat([tidy, tidy]).sort_values("commit", kind="stable")
    r2 = schedlab.change_points(twice, commit="commit", metric="bench", value="value", window=30, max_p=0.01,
                                min_change=5)
    assert r2["index"].tolist() == want * 2


def test_bad_input_is_named():
    with pytest.raises(schedlab.DomainError, match="no column 'nope'"):
        schedlab.change_points(pd.DataFrame({"a": [1.0]}), commit="nope")
    with pytest.raises(schedlab.DomainError, match="infinite value at commit 1"):
        schedlab.change_points([1.0, np.inf, 2.0])
    with pytest.raises(schedlab.DomainError, match="at least 2 values"):
        schedlab.change_points([1.0, 2.0], window=1)
    assert schedlab.change_points([np.nan, np.nan]).empty


def test_permutation_test_finds_otavas_sequence():
    # Otava's tests/change_point_divisive_test.py: the permutation test at 0.01 finds 5 and 8
    seq = [0.3, 2.4, 1.5, -0.9, -0.5, 99.7, 98.3, 99.1, 149.0, 149.7, 149.5, 149.1, 148.8, 150.0]
    r = schedlab.change_points(seq, max_p=0.01, permutations=100, seed=1)
    assert r["index"].tolist() == [5, 8]
    assert (r["test"] == "permutation").all()


def test_cli_on_a_csv(tmp_path):
    tb, want = _tigerbeetle()
    f = tmp_path / "history.csv"
    pd.DataFrame({"commit": [f"c{i}" for i in range(len(tb))], "tigerbeetle.tps": tb}).to_csv(f, index=False)
    code, out, err = run_cli("series", str(f), "--window", "30", "--max-p", "0.01", "--min-change", "5",
                             "--higher-is-better", "--format", "csv")
    assert code == 0, err
    r = pd.read_csv(io.StringIO(out))
    assert r["commit"].tolist() == [f"c{i}" for i in want]
    code, out, err = run_cli("series", str(f), "--window", "30", "--max-p", "0.01", "--min-change", "5",
                             "--higher-is-better", "--fail-on-worse")
    assert code == 1, err  # a worse change with --fail-on-worse
    # the text table: one row per change point of Otava's answer, each verdict by the
    # hand rule for a higher-is-better metric (lower after = worse), the change its
    # printed means' relative difference
    rows = [ln.split() for ln in out.splitlines() if ln.startswith("tigerbeetle.tps ")]
    assert [r[1] for r in rows] == [f"c{i}" for i in want]
    for r in rows:
        before, after, change = float(r[2]), float(r[3]), float(r[4])
        assert r[-1] == ("worse" if after < before else "better"), r
        assert abs(change - (after - before) / before * 100) < 0.01, r
    assert [r[-1] for r in rows] == ["worse", "better"]
    if importlib.util.find_spec("matplotlib") is not None:
        png = tmp_path / "series.png"
        code, _, err = run_cli("series", str(f), "--window", "30", "--max-p", "0.01", "--min-change", "5",
                               "--plot", str(png))
        assert code == 0, err
        assert png.read_bytes().startswith(b"\x89PNG")
    bad = tmp_path / "bad.csv"
    bad.write_text("commit,x\nc0,1\n")
    code, _, err = run_cli("series", str(bad), "--metric", "m", "--value", "x")
    assert code == 2 and "no column 'm'" in err

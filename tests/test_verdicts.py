"""Four-outcome verdicts from Python and the command line: schedlab.compare on a tidy
DataFrame (p and q against scipy, TOST against statsmodels), schedlab.direction, the
small-sample warning of `schedlab stats`, and batch's default margin and exit code 3."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import schedlab
from schedlab import batch

from .cli_run import run_cli


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    rows = []
    for metric, centre, sd, shift in (("netperf-udp", 1000.0, 5.0, {"a": -0.05, "b": 0.0}),
                                      ("hackbench-process-pipes", 2.0, 0.1, {"a": 0.0, "b": 0.2})):
        for kernel, n in (("base", 6), ("a", 6), ("b", 5)):
            mean = centre * (1 + shift.get(kernel, 0.0))
            rows += [(kernel, metric, v) for v in np.round(mean + rng.normal(0, sd, n), 4)]
    return pd.DataFrame(rows, columns=["kernel", "bench", "value"])


def test_compare_many_metrics_mixed_directions_against_scipy_and_statsmodels():
    import scipy.stats as stats
    import statsmodels.stats.weightstats as weightstats
    df = _frame()
    r = schedlab.compare(df, value="value", group="kernel", baseline="base", metric="bench")
    assert "pct_change" not in r.columns
    assert list(r[["metric", "group"]].itertuples(index=False, name=None)) == [
        ("netperf-udp", "a"), ("netperf-udp", "b"), ("hackbench-process-pipes", "a"), ("hackbench-process-pipes", "b")]
    assert list(r.direction) == ["higher", "higher", "lower", "lower"]
    ps = []
    for row in r.itertuples():
        sub = df[df.bench == row.metric]
        b = sub[sub.kernel == "base"].value.to_numpy()
        n = sub[sub.kernel == row.group].value.to_numpy()
        p = stats.ttest_ind(b, n, equal_var=False).pvalue
        assert row.p == pytest.approx(p, rel=1e-9)
        ps.append(p)
        m = 0.02 * b.mean()
        p_eq = weightstats.ttost_ind(n, b, -m, m, usevar="unequal")[0]
        assert row.p_equivalent == pytest.approx(p_eq, rel=1e-9)
        sign = 1 if row.direction == "higher" else -1
        assert row.change == pytest.approx(sign * (n.mean() * 100 / b.mean() - 100), rel=1e-12)
    qs = stats.false_discovery_control(ps, method="bh")
    assert list(r.q) == pytest.approx(list(qs), rel=1e-9)
    for row in r.itertuples():
        want = ("equivalent" if row.p_equivalent < 0.05 else
                ("better" if row.change > 0 else "worse") if row.q < 0.05 else "inconclusive")
        assert row.verdict == want
    # netperf a is 5% slower (worse), hackbench b 10% slower (worse); the rule is in every row
    assert r.verdict[0] == "worse" and r.verdict[3] == "worse"
    assert set(r.test) == {"welch"} and set(r.alpha) == {0.05} and set(r.margin) == {2.0}
    assert set(r.target_power) == {0.8}
    # one direction for all, or a table per metric
    flipped = schedlab.compare(df, value="value", group="kernel", baseline="base", metric="bench",
                               directions={"netperf-udp": "lower"})
    assert flipped.verdict[0] == "better" and list(flipped.direction) == ["lower"] * 4
    with pytest.raises(schedlab.DomainError, match="direction"):
        schedlab.compare(df, value="value", group="kernel", baseline="base", metric="bench", direction="up")
    with pytest.raises(schedlab.DomainError, match="baseline"):
        schedlab.compare(df, value="value", group="kernel", baseline="nope", metric="bench")


def test_inconclusive_says_how_many_runs_and_they_are_statsmodels_numbers():
    import statsmodels.stats.power as power
    # equal standard deviations (1.0 each side, mean 100): the margin 2 is effect size 2
    base = [99.0, 101.0, 100.0, 99.0, 101.0, 100.0]
    new = [99.5, 101.5, 100.5, 99.5, 101.5, 100.5]
    df = pd.DataFrame({"k": ["b"] * 6 + ["n"] * 6, "v": base + new})
    r = schedlab.compare(df, value="v", group="k", baseline="b", direction="higher", margin=1.0)
    row = r.iloc[0]
    sd = float(np.std(base, ddof=1))
    d = 1.0 / sd  # margin 1% of 100, in standard deviations
    assert row.power == pytest.approx(power.TTestIndPower().power(d, 6, 0.05, ratio=1.0), rel=1e-9)
    need = power.TTestIndPower().solve_power(d, alpha=0.05, power=0.8, ratio=1.0)
    assert row.runs_needed == math.ceil(need) and row.more_runs == math.ceil(need) - 6
    assert row.verdict == "inconclusive"


def test_direction_lookup():
    assert schedlab.direction("unixbench.score") == "higher"
    assert schedlab.direction("netperf-udp") == "higher"
    assert schedlab.direction("hackbench-process-pipes") == "lower"
    assert schedlab.direction("schbench:Wakeup-99.0th-4") == "lower"
    assert schedlab.direction("vmstat.system.cs") == "unknown"


def test_stats_warns_when_mann_whitney_cannot_reach_alpha(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("100 101 100.5\n")
    b.write_text("103 104 103.5\n")
    code, out, err = run_cli("stats", str(a), str(b))
    assert code == 0, err
    assert "Verdicts: welch test, alpha 0.05; equivalence: TOST (Welch t) within ±2%" in out
    assert "Mann-Whitney U cannot reach p < 0.05 with 3 and 3 runs (the smallest possible p is 0.100)" in out
    assert "at least 4 runs a side" in out


def _hackbench(root: Path, kernel: str, values: list[float]) -> None:
    logs = root / kernel / "iter-0" / "hackbench-process-pipes" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    for i, v in enumerate(values, 1):
        (logs / f"hackbench-4-{i}").write_text(f"Running in process mode with 4 groups\nTotal time: {v} [sec]\n")


def test_batch_default_margin_does_not_fail_a_small_significant_change(tmp_path):
    work = tmp_path / "work" / "log"
    base = [1.000, 1.002, 0.998, 1.001, 0.999]
    _hackbench(work, "v1", base)
    _hackbench(work, "v2", [round(x * 1.0084, 6) for x in base])  # 0.84% slower, very tight runs
    r = batch.run([tmp_path], "v1")
    row = r.rows[0]
    assert row["change_pct"] == pytest.approx(-0.84, abs=1e-3) and row["p"] < 1e-4
    assert (row["verdict"], r.exit_code) == ("equivalent", 0)
    # with a margin below the change it is a regression again
    tight = batch.run([tmp_path], "v1", margin=0.5)
    assert (tight.rows[0]["verdict"], tight.exit_code) == ("worse", 1)
    assert tight.options["margin"] == 0.5 and tight.options["power"] == 0.8
    code, out, _ = run_cli("batch", str(tmp_path), "--baseline", "v1", "--format", "text")
    assert code == 0 and "equivalence: TOST (Welch t) within ±2%" in out and "1 equivalent" in out


def test_batch_exit_code_3_for_inconclusive_only_when_asked(tmp_path):
    work = tmp_path / "work" / "log"
    _hackbench(work, "v1", [1.0, 1.2, 0.9, 1.1])
    _hackbench(work, "v2", [1.05, 0.95, 1.2, 1.0])
    r = batch.run([tmp_path], "v1")
    assert (r.rows[0]["verdict"], r.exit_code) == ("inconclusive", 0)
    assert r.rows[0]["runs_needed"] > 4 and r.rows[0]["more_runs"] == r.rows[0]["runs_needed"] - 4
    code, out, _ = run_cli("batch", str(tmp_path), "--baseline", "v1", "--fail-on", "inconclusive")
    assert code == 3 and "INCONCLUSIVE" in out and "runs needed" in out

"""The peers' own test expectations, reproduced by schedlab's readers and statistics to
the precision the peers print (their inputs copied to tests/data/readers/peers/ by
tools/oracles/readers/peers.sh; google-benchmark's are tests/it/peer_expectations.rs,
benchstat's tests/it/benchstat_golden.rs):

- pyperf (pyperf/tests/test_perf_cli.py at ab7fd04): ``pyperf stats telco.json`` and
  ``pyperf compare_to mult_list_py36.json mult_list_py37.json [mult_list_py38.json]``;
- pytest-benchmark (tests/test_stats.py and tests/test_storage.py at 47d66c8): its
  ``Stats`` of small samples, and the Mean column its ``--benchmark-compare`` prints for
  its stored runs.
"""

from __future__ import annotations

import math
from pathlib import Path

from schedlab import readers, stats

PEERS = Path(__file__).parent / "data" / "readers" / "peers"


def _pyperf_timedeltas(values: list[float]) -> tuple[str, ...]:
    """pyperf's ``format_timedeltas`` (pyperf/_formatter.py): the unit and decimals
    that print the first value with three significant digits, applied to all."""
    ref = abs(values[0])
    i = next((i for i in range(2, -9, -1) if ref >= 10.0 ** i), -9)
    precision, k = 2 - i % 3, (-(i // 3) if i < 0 else 0)
    unit = ("sec", "ms", "us", "ns")[k]
    return tuple(f"{v * 10 ** (k * 3):.{precision}f} {unit}" for v in values)


def test_pyperf_stats_of_telco() -> None:
    # test_stats: 40 runs of 3 values (warmups and the calibration run left out)
    df = readers.read(PEERS / "pyperf" / "telco.json")
    assert (df["metric"].unique().tolist(), df["unit"].unique().tolist()) == (["telco"], ["second"])
    v = df["value"].to_numpy()
    assert len(v) == 120  # "Total number of values: 120"
    med = stats.median(v)
    mad = stats.median(abs(v - med))
    mean = stats.amean(v)
    assert _pyperf_timedeltas([stats.min(v)]) == ("22.1 ms",)  # Minimum
    assert _pyperf_timedeltas([med, mad]) == ("22.5 ms", "0.1 ms")  # Median +- MAD
    assert _pyperf_timedeltas([mean, stats.stddev(v)]) == ("22.5 ms", "0.2 ms")  # Mean +- std dev
    assert _pyperf_timedeltas([stats.max(v)]) == ("22.9 ms",)  # Maximum
    # its percentiles, linear between order statistics as numpy's, and their % of the mean
    want = [("22.1 ms", "-2%"), ("22.3 ms", "-1%"), ("22.4 ms", "-1%"), ("22.5 ms", "-0%"),
            ("22.7 ms", "+1%"), ("22.9 ms", "+2%"), ("22.9 ms", "+2%")]
    got = [(_pyperf_timedeltas([p])[0], f"{(p - mean) * 100 / mean:+.0f}%")
           for p in stats.percentile(v, [0, 5, 25, 50, 75, 95, 100])]
    assert got == want
    # "Number of outlier (out of 22.0 ms..23.0 ms): 0"
    q1, q3 = stats.percentile(v, [25, 75])
    lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    assert _pyperf_timedeltas([lo, hi]) == ("22.0 ms", "23.0 ms")
    assert int(((v < lo) | (v > hi)).sum()) == 0


def _pyperf_ratio(norm_mean: float) -> str:
    """pyperf's ``format_normalized_mean`` (pyperf/_compare.py)."""
    return "no change" if norm_mean == 1.0 else (
        f"{1.0 / norm_mean:.2f}x faster" if norm_mean < 1.0 else f"{norm_mean:.2f}x slower")


def test_pyperf_compare_to_mult_list() -> None:
    # test_compare_to_cli: "Mean +- std dev: [py36] 2.13 us +- 0.06 us -> [py37] 2.09 us
    # +- 0.04 us: 1.02x faster", "Not significant!" for [1]*1000 against py38, and the
    # geometric means of the ratios
    want = {
        "mult_list_py37": [("2.13 us", "0.06 us", "2.09 us", "0.04 us", "1.02x faster", True),
                           ("3.70 us", "0.05 us", "5.28 us", "0.09 us", "1.42x slower", True),
                           ("4.61 us", "0.13 us", "6.05 us", "0.11 us", "1.31x slower", True)],
        "mult_list_py38": [("2.13 us", "0.06 us", "2.13 us", "0.03 us", "1.00x slower", False),
                           ("3.70 us", "0.05 us", "3.18 us", "0.08 us", "1.16x faster", True),
                           ("4.61 us", "0.13 us", "4.17 us", "0.11 us", "1.11x faster", True)],
    }
    geo = {"mult_list_py37": "1.22x slower", "mult_list_py38": "1.09x faster"}
    names = ["[1]*1000", "[1,2]*1000", "[1,2,3]*1000"]
    for new, rows in want.items():
        df = readers.read_groups([PEERS / "pyperf" / "mult_list_py36.json", PEERS / "pyperf" / f"{new}.json"])
        assert df["group"].unique().tolist() == ["mult_list_py36", new]
        ratios = []
        for name, (m0, s0, m1, s1, ratio, significant) in zip(names, rows, strict=True):
            a = df.loc[(df["metric"] == name) & (df["group"] == "mult_list_py36"), "value"].to_numpy()
            b = df.loc[(df["metric"] == name) & (df["group"] == new), "value"].to_numpy()
            assert _pyperf_timedeltas([stats.amean(a), stats.stddev(a)]) == (m0, s0)
            assert _pyperf_timedeltas([stats.amean(b), stats.stddev(b)]) == (m1, s1)
            r = stats.ratio(stats.amean(a), stats.amean(b))
            ratios.append(r)
            assert _pyperf_ratio(r) == ratio
            # pyperf's two-sample t-test at 95%; schedlab's Welch test decides the same
            assert (stats.welch_ttest(a, b).p < 0.05) == significant, name
        assert _pyperf_ratio(stats.gmean(ratios)) == geo[new]


def test_pytest_benchmark_stats() -> None:
    # tests/test_stats.py: test_1, test_2 (exact values, as its assertions)
    for values, mean, stddev, ops in (([4.0, 36.0, 45.0, 50.0, 75.0], 42.0, 25.700194551792794, 0.023809523809523808),
                                      ([17.0, 19.0, 24.0], 20.0, 3.605551275463989, 0.05)):
        assert stats.amean(values) == mean
        assert stats.stddev(values) == stddev
        assert 1 / stats.amean(values) == ops
        assert (stats.min(values), stats.max(values)) == (min(values), max(values))
    # test_single_item: mean and median 1 of a single round
    assert stats.amean([1]) == 1 and stats.median([1]) == 1


def test_pytest_benchmark_stored_runs() -> None:
    # tests/test_storage.py test_compare_1/2: the Mean column (time in ns) of the stored
    # runs 0001 and 0002, which keep no per-round data: the reader's one sample, the mean
    for run, mean in (("0001", "262.2408"), ("0002", "254.0585")):
        df = readers.read(PEERS / "pytest-benchmark" / f"{run}.json")
        assert df["unit"].unique().tolist() == ["s"]
        assert f"{df['value'].iloc[0] * 1e9:.4f}" == mean
        assert math.isclose(1 / df["value"].iloc[0] / 1e6, {"0001": 3.8133, "0002": 3.9361}[run], abs_tol=5e-5)

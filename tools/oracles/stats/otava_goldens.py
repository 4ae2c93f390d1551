"""Run Apache Otava's change point detection to make schedlab's series goldens.

Writes tests/data/series/otava_tests.json (the series and expected change points of
Otava's own tests, checked here against Otava) and tests/data/series/otava_goldens.json
(Otava's full results, index, segment means, deviations and p-value, on further
seeded series: steps of 1-10 %, heavy tails, ties, flat stretches, gaps).

Otava is not installed: its source tree is put on sys.path (only otava.analysis is
used, which needs numpy and scipy). Make the tree from the fetched mirror:

    mkdir -p /work/oracles/otava
    git --git-dir=/work/.mirror/apache+otava/repo archive 1ceb1537a49d516cf6cef9a79bea6926002082f8 \
        | tar -x -C /work/oracles/otava
    python tools/oracles/stats/otava_goldens.py /work/oracles/otava
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

OTAVA_COMMIT = "1ceb1537a49d516cf6cef9a79bea6926002082f8"
OUT = Path(__file__).resolve().parents[3] / "tests" / "data" / "series"


def otava_tests(tree: Path) -> list[dict]:
    """Otava's test series with the change point indexes its tests assert."""
    sys.path.insert(0, str(tree / "tests"))
    import tigerbeetle_test  # noqa: E402  (Otava's tests/tigerbeetle_test.py)

    tb = [float(v) for v in tigerbeetle_test._get_series()]
    single = [1.02, 0.95, 0.99, 1.00, 1.12, 1.00, 1.01, 0.98, 1.01, 0.96,
              0.50, 0.51, 0.48, 0.48, 0.55, 0.50, 0.49, 0.51, 0.50, 0.49]
    s1 = [1.02, 0.95, 0.99, 1.00, 1.12, 0.90, 0.50, 0.51, 0.48, 0.48, 0.55]
    s2 = [2.02, 2.03, 2.01, 2.04, 1.82, 1.85, 1.79, 1.81, 1.80, 1.76, 1.78]
    div0 = [0.0, 0.0, 0.0, 1.00, 1.12, 0.90, 0.50, 0.51, 0.48, 0.48, 0.55]
    # (test, values, window_len, max_pvalue, min_magnitude, asserted indexes)
    cases = [
        ("analysis_test.py::test_single_series", single, 10, 0.0001, 0.0, [10]),
        ("series_test.py::test_change_point_detection series1", s1, 50, 0.001, 0.0, [6]),
        ("series_test.py::test_change_point_detection series2", s2, 50, 0.001, 0.0, [4]),
        ("series_test.py::test_change_point_min_magnitude series1", s1, 50, 0.001, 0.2, [6]),
        ("series_test.py::test_change_point_min_magnitude series2", s2, 50, 0.001, 0.2, []),
        ("series_test.py::test_div_by_zero (2 change points, the first at 3)", div0, 50, 0.001, 0.0, None),
        ("tigerbeetle_test.py::test_tb_old_defaults", tb, 30, 0.01, 0.05, [15, 71]),
        ("tigerbeetle_test.py::test_tb_old_defaults_p05", tb, 30, 0.05, 0.05, [15, 71]),
        ("tigerbeetle_test.py::test_tb_old_defaults_p1", tb, 30, 0.1, 0.05, [10, 11, 15, 71, 363]),
        ("tigerbeetle_test.py::test_tb_old_defaults_p2", tb, 30, 0.2, 0.05, [10, 11, 15, 71]),
        ("tigerbeetle_test.py::test_tb_magnitude0_p2", tb, 30, 0.2, 0.0, [
            3, 6, 7, 10, 11, 13, 15, 16, 28, 29, 35, 37, 39, 41, 44, 48, 49, 56, 58, 61, 65, 66, 69, 71, 74, 76, 82,
            95, 108, 117, 125, 126, 129, 131, 136, 137, 142, 148, 165, 169, 187, 190, 192, 197, 200, 212, 220, 241,
            243, 246, 247, 249, 250, 260, 265, 266, 268, 278, 282, 288, 305, 306, 325, 330, 337, 338, 340, 347, 349,
            363]),
        ("tigerbeetle_test.py::test_tb_magnitude0_p1", tb, 30, 0.1, 0.0, [
            3, 6, 10, 11, 15, 16, 28, 29, 35, 37, 39, 41, 44, 48, 49, 61, 71, 95, 117, 131, 142, 148, 165, 169, 192,
            206, 212, 260, 265, 268, 278, 282, 288, 305, 363]),
        ("tigerbeetle_test.py::test_tb_magnitude0_p01", tb, 30, 0.01, 0.0,
         [15, 26, 61, 71, 95, 117, 131, 142, 148, 165, 169, 192, 212, 260]),
        ("tigerbeetle_test.py::test_tb_magnitude0_p001", tb, 30, 0.001, 0.0,
         [15, 61, 71, 95, 117, 131, 142, 148, 192, 212, 260]),
        ("tigerbeetle_test.py::test_tb_magnitude0_p0001", tb, 30, 0.0001, 0.0, [71, 95, 117, 131, 142, 148, 192, 212]),
        ("tigerbeetle_test.py::test_tb_magnitude0_p00001", tb, 30, 0.00001, 0.0, [71, 95, 131, 192, 212]),
    ]
    return [{"name": n, "values": v, "window": w, "max_p": p, "min_magnitude": m, "expected": e}
            for n, v, w, p, m, e in cases]


def seeded_series() -> list[dict]:
    """Further series, from numpy's default_rng(seed): name, values (None = gap), options."""
    out = []
    rng = np.random.default_rng(20)

    def add(name, x, window=50, max_p=0.001, min_magnitude=0.0):
        vals = [None if (isinstance(v, float) and np.isnan(v)) else float(v) for v in x]
        out.append({"name": name, "values": vals, "window": window, "max_p": max_p, "min_magnitude": min_magnitude})

    for pct in (1, 2, 5, 10):
        x = 1000 * (1 + rng.normal(0, 0.01, 300))
        x[150:] *= 1 + pct / 100
        add(f"step +{pct}% at 150, 1% normal noise", x)
        add(f"step +{pct}% at 150, window 30, p 0.01", x, window=30, max_p=0.01)
    x = 500 * (1 + 0.02 * rng.standard_t(3, 400))
    x[100:] *= 0.95
    x[250:] *= 1.08
    add("steps -5% at 100, +8% at 250, t(3) noise", x)
    add("the same, min magnitude 0.05", x, min_magnitude=0.05)
    x = np.round(rng.normal(20, 1.5, 240))
    x[120:] += 2
    add("integer values (many ties), +2 at 120", x, window=40, max_p=0.01)
    x = np.concatenate([np.full(30, 7.0), np.full(30, 9.0), rng.normal(9, 0.1, 40)])
    add("flat stretches (zero variance)", x)
    x = 100 + np.cumsum(rng.normal(0, 0.3, 500))
    add("random walk", x, max_p=0.01)
    x = 3e6 * (1 + rng.normal(0, 0.005, 1000))
    x[400:] *= 0.97
    x[401:420] *= 1.1
    add("1000 points: -3% at 400, a 19-point excursion", x)
    x = 10 * (1 + rng.normal(0, 0.02, 120))
    x[60:] *= 1.06
    x[[0, 1, 17, 59, 60, 118, 119]] = np.nan
    add("gaps filled as Otava fills them", x)
    return out


def run_otava(case: dict) -> list[dict]:
    from otava.analysis import compute_change_points, fill_missing

    values = list(case["values"])
    fill_missing(values)
    cps, _ = compute_change_points(values, window_len=case["window"], max_pvalue=case["max_p"],
                                   min_magnitude=case["min_magnitude"])
    return [{"index": int(c.index), "mean_before": float(c.stats.mean_1), "mean_after": float(c.stats.mean_2),
             "std_before": float(c.stats.std_1), "std_after": float(c.stats.std_2), "p": float(c.stats.pvalue)}
            for c in cps]


def main() -> None:
    tree = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/oracles/otava").resolve()
    sys.path.insert(0, str(tree))
    import scipy

    head = subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    source = f"apache/otava {head or OTAVA_COMMIT}, otava/analysis.py compute_change_points " \
             f"(numpy {np.__version__}, scipy {scipy.__version__})"
    tests = otava_tests(tree)
    for t in tests:
        got = [c["index"] for c in run_otava(t)]
        if t["expected"] is not None and got != t["expected"]:
            raise SystemExit(f"Otava does not reproduce its own test {t['name']}: {got}")
        t["otava"] = run_otava(t)
    OUT.mkdir(parents=True, exist_ok=True)
    note = ("Series and asserted change point indexes of Apache Otava's tests (tests/analysis_test.py, "
            f"series_test.py, tigerbeetle_test.py at {OTAVA_COMMIT}; expected null where the test asserts "
            "less than the list), with Otava's full results in 'otava'; made by "
            "tools/oracles/stats/otava_goldens.py")
    (OUT / "otava_tests.json").write_text(json.dumps({"source": source, "note": note, "cases": tests}, indent=1) + "\n")
    gold = seeded_series()
    for g in gold:
        g["otava"] = run_otava(g)
    note = "Otava's results on seeded series; made by tools/oracles/stats/otava_goldens.py"
    (OUT / "otava_goldens.json").write_text(json.dumps({"source": source, "note": note, "cases": gold}, indent=1) + "\n")
    for g in tests + gold:
        print(f"{g['name']}: {[c['index'] for c in g['otava']]}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Speed of change point detection against Apache Otava, measured in the same run (by hand).

1,000 metrics x 1,000 commits (1 % normal noise, a 5 % step at commit 600 in every
tenth metric) go through schedlab.change_points (Rust, rayon across metrics, GIL
released) with Otava's defaults (window 50, max p 0.001). Otava's own
otava.analysis.compute_change_points runs on the first --otava-metrics of them (its
source tree on sys.path, see tools/oracles/stats/otava_goldens.py); the script
checks that both find the same change points there, then prints the times and the
ratio per metric. Target: the whole matrix in a few seconds on a 2-core machine.

    python benchmarks/bench_series.py [--metrics 1000] [--commits 1000] [--threads N]
        [--otava /work/oracles/otava] [--otava-metrics 20]
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd
import schedlab
from timing import best_of


def make(metrics: int, commits: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = 1000.0 * (1 + rng.normal(0, 0.01, (commits, metrics)))
    x[600:, ::10] *= 1.05
    return pd.DataFrame(x, columns=[f"m{i}" for i in range(metrics)])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--metrics", type=int, default=1000)
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--otava", default="/work/oracles/otava")
    ap.add_argument("--otava-metrics", type=int, default=20)
    a = ap.parse_args()
    df = make(a.metrics, a.commits)
    t, r = best_of(a.repeat, lambda: schedlab.change_points(df, direction="higher", threads=a.threads))
    print(f"schedlab: {a.metrics} metrics x {a.commits} commits in {t:.3f} s "
          f"({t / a.metrics * 1e3:.3f} ms a metric), {len(r)} change points")
    sys.path.insert(0, a.otava)
    try:
        from otava.analysis import compute_change_points
    except ImportError:
        print(f"Otava not found under {a.otava}: no comparison")
        return
    cols = list(df.columns[: a.otava_metrics])

    def otava():
        return {c: [int(cp.index) for cp in compute_change_points(list(df[c]), window_len=50, max_pvalue=0.001)[0]]
                for c in cols}

    to, found = best_of(1, otava)
    mine = {c: [int(i) for i in r.loc[r["metric"] == c, "index"]] for c in cols}
    assert found == mine, "schedlab and Otava disagree"
    per_otava = to / len(cols)
    print(f"otava:    {len(cols)} metrics in {to:.3f} s ({per_otava * 1e3:.1f} ms a metric); same change points")
    print(f"ratio:    {per_otava / (t / a.metrics):.0f}x faster a metric")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Speed of the statistics batch against scipy, measured in the same run (by hand).

100,000 (base, new) pairs of series, each n uniform in 5..30, go through a summary of
every series (n, min, max, amean, hmean, gmean, median, stddev, coeff_var) plus Welch's
t-test and the Mann-Whitney U test (method 'auto') of every pair:

- schedlab: stats.summarize_many + stats.compare_many (Rust, rayon, GIL released);
- scipy: the same statistics vectorised as far as scipy allows: pairs grouped by
  (n_base, n_new) and each group run as 2-D arrays along axis 1.

Both start from the same Python list of numpy arrays, so the conversion cost is
counted on both sides. The script checks that both produce the same p-values, then
prints the times and the ratio. Target: schedlab >= 5x faster on a 2-core machine.

    python benchmarks/bench_stats.py [--pairs 100000] [--threads N] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
from collections import defaultdict

import numpy as np
import scipy.stats as ss
from schedlab import stats
from timing import best_of


def make_pairs(count: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(5, 31, size=(count, 2))
    pairs = []
    for n1, n2 in sizes:
        base = rng.normal(100.0, 5.0, n1)
        new = rng.normal(101.0, 5.0, n2)
        pairs.append((base, new))
    return pairs


def run_schedlab(pairs, threads):
    series = [s for pair in pairs for s in pair]
    summary = stats.summarize_many(series, threads=threads)
    comp = stats.compare_many(pairs, higher_is_better=True, method="auto", threads=threads)
    return summary, comp


def _summary_2d(x: np.ndarray) -> dict[str, np.ndarray]:
    mean = x.mean(axis=1)
    sd = x.std(axis=1, ddof=1)
    return {
        "min": x.min(axis=1), "max": x.max(axis=1), "amean": mean,
        "hmean": ss.hmean(x, axis=1), "gmean": ss.gmean(x, axis=1),
        "median": np.median(x, axis=1), "stddev": sd, "coeff_var": 100 * sd / mean,
    }


def run_scipy(pairs):
    groups = defaultdict(list)
    for i, (a, b) in enumerate(pairs):
        groups[(len(a), len(b))].append(i)
    welch_p = np.empty(len(pairs))
    mwu_p = np.empty(len(pairs))
    for idx in groups.values():
        a = np.stack([pairs[i][0] for i in idx])
        b = np.stack([pairs[i][1] for i in idx])
        _summary_2d(a)
        _summary_2d(b)
        welch_p[idx] = ss.ttest_ind(a, b, axis=1, equal_var=False).pvalue
        mwu_p[idx] = ss.mannwhitneyu(a, b, axis=1, method="auto").pvalue
    return welch_p, mwu_p



def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--threads", type=int, default=None, help="schedlab threads (default: all CPUs)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    pairs = make_pairs(args.pairs)
    t_scipy, (wp, up) = best_of(args.repeat, run_scipy, pairs)
    t_ours, (summary, comp) = best_of(args.repeat, run_schedlab, pairs, args.threads)
    t_one, _ = best_of(args.repeat, run_schedlab, pairs, 1)

    # same work, same answers
    assert np.allclose(comp["welch_p"].to_numpy(), wp, rtol=1e-11, atol=0)
    assert np.allclose(comp["mwu_p"].to_numpy(), up, rtol=1e-9, atol=0)
    assert len(summary) == 2 * len(pairs)

    threads = args.threads or os.cpu_count()
    print(f"{args.pairs} pairs, n in 5..30, summary + Welch + Mann-Whitney (best of {args.repeat})")
    print(f"  scipy (vectorised per size group): {t_scipy:8.3f} s")
    print(f"  schedlab, {threads} threads:          {t_ours:8.3f} s   ratio {t_scipy / t_ours:6.1f}x")
    print(f"  schedlab, 1 thread:            {t_one:8.3f} s   ratio {t_scipy / t_one:6.1f}x")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Precision and recall of schedlab.change_points on series with injected changes (by hand).

Each series has 10,000 points and 30 step changes at random positions (at least
150 points apart), each of 1-10 % (uniform, random sign) of the current level. The
noise is what benchmark results look like: normal with a coefficient of variation
of --cv (default 1 %), a heavy tail (a tenth of the points drawn from Student's t
with 3 degrees of freedom instead) and 1 % outliers 5-20 % above the level (a noisy
neighbour, a slow run). A detection within --tolerance points (default 5) of an
injected change counts for it (each change matched at most once); recall is also
given per change size.

    python benchmarks/series_accuracy.py [--series 20] [--cv 0.01] [--tolerance 5] [--outliers 0.01]
"""

from __future__ import annotations

import argparse

import numpy as np
import schedlab

N, CHANGES, GAP = 10_000, 30, 150
BUCKETS = ((1, 2), (2, 3), (3, 5), (5, 10))


def make(rng: np.random.Generator, cv: float, outliers: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # CHANGES + 1 segments of at least GAP points, the rest of the length spread at random
    spare = N - (CHANGES + 1) * GAP
    cuts = np.sort(rng.integers(0, spare + 1, CHANGES))
    pos = GAP * np.arange(1, CHANGES + 1) + cuts
    size = rng.uniform(1, 10, CHANGES)
    sign = rng.choice([-1.0, 1.0], CHANGES)
    level = np.full(N, 1000.0)
    for p, s, g in zip(pos, size, sign):
        level[p:] *= 1 + g * s / 100
    noise = rng.normal(0, cv, N)
    tail = rng.random(N) < 0.1
    noise[tail] = cv * rng.standard_t(3, tail.sum())
    out = rng.random(N) < outliers
    noise[out] += rng.uniform(0.05, 0.20, out.sum())
    return level * (1 + noise), pos, size


def score(found: np.ndarray, pos: np.ndarray, tol: int) -> np.ndarray:
    """For each injected change, whether a detection within tol matched it (greedy, nearest first)."""
    hit = np.zeros(len(pos), dtype=bool)
    used = np.zeros(len(found), dtype=bool)
    pairs = sorted((abs(int(f) - int(p)), i, j) for i, p in enumerate(pos) for j, f in enumerate(found)
                   if abs(int(f) - int(p)) <= tol)
    for _, i, j in pairs:
        if not hit[i] and not used[j]:
            hit[i] = used[j] = True
    return hit


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--series", type=int, default=20)
    ap.add_argument("--cv", type=float, default=0.01)
    ap.add_argument("--tolerance", type=int, default=5)
    ap.add_argument("--outliers", type=float, default=0.01, help="share of points 5-20 %% high (default 0.01)")
    ap.add_argument("--seed", type=int, default=20)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    data = [make(rng, a.cv, a.outliers) for _ in range(a.series)]
    print(f"{a.series} series of {N} points, {CHANGES} changes of 1-10 % each, noise cv {a.cv:g} "
          f"(10 % t(3), {a.outliers:.0%} outliers +5-20 %), tolerance +-{a.tolerance}")
    for opts in ({}, {"max_p": 0.0001}, {"min_change": 1.0}, {"max_p": 0.0001, "min_change": 1.0},
                 {"window": 100, "max_p": 0.0001, "min_change": 1.0}):
        tp = fp = 0
        hits, sizes = [], []
        for x, pos, size in data:
            r = schedlab.change_points(x, direction="higher", **opts)
            found = r["index"].to_numpy()
            hit = score(found, pos, a.tolerance)
            tp += hit.sum()
            fp += len(found) - hit.sum()
            hits.append(hit)
            sizes.append(size)
        hit, size = np.concatenate(hits), np.concatenate(sizes)
        total = len(hit)
        by = ", ".join(f"{lo}-{hi}%: {hit[(size >= lo) & (size < hi)].mean():.2f}" for lo, hi in BUCKETS)
        name = ", ".join(f"{k} {v:g}" for k, v in opts.items()) or "Otava's defaults (window 50, max_p 0.001)"
        print(f"{name}: precision {tp / max(tp + fp, 1):.3f}, recall {tp / total:.3f} "
              f"({tp} of {total}; {fp} false); recall by size {by}")


if __name__ == "__main__":
    main()

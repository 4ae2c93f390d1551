#!/usr/bin/env python3
"""Accuracy and cost of bisections under real noise: schedlab against a fixed-N
bisection, LISA's vote rule and lkp's stable rule (by hand; docs/bisect.md §9).

The noise is the runs of real data the project holds, resampled as relative
residuals (tests/bisect_sim.py says which). Every strategy gets the same ranges: 100
and 1,000 commits with one culprit of 1-10 % at a random position, with two, and
with none. The peers run at N = 1, 3, 5, 10 and 20 runs a commit, and at the N
whose cost is schedlab's ("equal cost": the same mean runs per range, N rounded
up). Printed per strategy: the fraction of ranges where the right commit was
named (a culprit's position; "no change" for the range without one) and the fraction given a wrong answer (a commit that is not a
culprit, a set of candidates without one, "no change" where there is one, a culprit
where there is none), each with its Monte-Carlo standard error; the ranges whose
bisection started (the endpoints told apart; the others are abstentions), the
fraction named right among them, and the mean runs.

    python benchmarks/bisect_accuracy.py [--bisections 200] [--alpha 0.05] [--margin 0.5] [--seed 1]
        [--sizes 100 1000] [--culprits 1 2 0]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import bisect_sim as sim  # noqa: E402


def line(name: str, s: sim.Score) -> str:
    return (f"  {name:<50} correct {s.accuracy:6.3f} +- {s.mc_error:5.3f}   wrong {s.error_rate:6.3f} +- "
            f"{sim.binomial_se(s.error_rate, s.total):5.3f}   started {s.started:4d}/{s.total:<4d} correct when started "
            f"{s.accuracy_started:6.3f}   mean runs {s.mean_runs:8.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bisections", type=int, default=200, help="ranges per case (default 200)")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--margin", type=float, default=0.5, help="schedlab's --margin in percent (default 0.5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1000], help="range sizes (default 100 1000)")
    ap.add_argument("--culprits", type=int, nargs="+", default=[1, 2, 0], choices=[0, 1, 2],
                    help="cases by number of culprits (default 1 2 0)")
    args = ap.parse_args()
    pools = sim.noise_pools()
    print("noise sources (relative residuals):")
    for k, v in sorted(pools.items()):
        print(f"  {k:<22} {len(v):5d} residuals, sd {v.std() * 100:5.2f} %   {sim.SOURCES[k]}")
    settings = {"alpha": args.alpha, "margin": args.margin}
    for n in args.sizes:
        for culprits in args.culprits:
            what = {1: "one culprit of 1-10 %", 2: "two culprits of 1-10 %", 0: "no change"}[culprits]
            # no change: the default margin, as a user who does not know of a change sets none
            # (at --margin 0.5 the endpoints rarely show equivalence within 100 runs)
            st = settings if culprits else {"alpha": args.alpha}
            print(f"\n{n} commits, {what}, {args.bisections} ranges{'' if culprits else ', the default margin'}:")
            ours = sim.simulate({"schedlab (git bisect run)": lambda r, st=st: sim.schedlab_git(r, **st),
                                 "schedlab (probabilistic bisection)": lambda r, st=st: sim.schedlab_pba(r, **st)},
                                pools=pools, n=n, bisections=args.bisections, seed=args.seed, culprits=culprits)
            for k, s in ours.items():
                print(line(k, s))
            cost = ours["schedlab (git bisect run)"].mean_runs
            # equal cost: the same mean runs per range; a peer takes N at each endpoint and
            # at each of the ~log2(n) steps, N rounded up so that it gets at least schedlab's
            equal = max(1, math.ceil(cost / (math.ceil(math.log2(n)) + 2)))
            for n_runs in sorted({1, 3, 5, 10, 20, equal}):
                peers = sim.simulate(sim.peers(n_runs), pools=pools, n=n, bisections=args.bisections,
                                     seed=args.seed, culprits=culprits)
                for k, s in peers.items():
                    print(line(k + (" = equal cost" if n_runs == equal else ""), s))


if __name__ == "__main__":
    main()

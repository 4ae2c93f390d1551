"""Expected values for the verdict statistics (tests/data/stats/verdict-oracles.json).

The reference implementations, run here:
- scipy.stats.nct.cdf (Boost's noncentral t) for the noncentral t CDF;
- statsmodels.stats.power.TTestIndPower for the power of the two-sample t-test
  (equal n, equal variances: df = 2n - 2, noncentrality d*sqrt(n/2)) and, through
  solve_power, the runs needed (the smallest whole n at or above its real solution);
- statsmodels.stats.weightstats.ttost_ind(new, base, low, upp, usevar="unequal") for TOST.

Run: /work/venv/bin/python tools/oracles/stats/verdicts.py > tests/data/stats/verdict-oracles.json
"""

from __future__ import annotations

import json
import math
import sys

import numpy as np
import scipy
import statsmodels
from scipy import stats
from statsmodels.stats.power import TTestIndPower
from statsmodels.stats.weightstats import ttost_ind


def nct_cases() -> list[dict]:
    out = []
    for df in (2.0, 3.5, 8.0, 18.0, 57.3, 200.0):
        for nc in (-3.0, -0.5, 0.0, 0.7, 2.8, 6.0, 15.0, 40.0):
            for t in (-4.0, -1.2, 0.0, 0.3, 1.9, 2.4, 5.5, 12.0, 45.0):
                cdf = float(stats.nct.cdf(t, df, nc))
                if math.isfinite(cdf):  # scipy gives NaN far in the lower tail of a large nc
                    out.append({"t": t, "df": df, "nc": nc, "cdf": cdf})
    return out


def power_cases() -> list[dict]:
    pw = TTestIndPower()
    out = []
    for alpha in (0.01, 0.05, 0.1):
        for d in (0.3, 0.8, 1.5, 3.0):
            for n in (2, 3, 5, 10, 25, 60):
                p = pw.power(effect_size=d, nobs1=n, alpha=alpha, ratio=1.0, alternative="two-sided")
                if not math.isfinite(p):  # statsmodels gives NaN where the power is all but 1
                    continue
                out.append({"effect_size": d, "n": n, "alpha": alpha, "power": float(p)})
    return out


def runs_cases() -> list[dict]:
    pw = TTestIndPower()
    out = []
    for alpha in (0.01, 0.05):
        for power in (0.8, 0.9):
            for d in (0.5, 1.0, 2.0, 4.0):
                n = pw.solve_power(effect_size=d, alpha=alpha, power=power, ratio=1.0, alternative="two-sided")
                n = float(np.asarray(n).item())
                out.append({"effect_size": d, "alpha": alpha, "power": power, "nobs1": n,
                            "runs": max(2, math.ceil(n - 1e-9))})
    return out


def tost_cases() -> list[dict]:
    rng = np.random.default_rng(20)
    out = []
    for n_base, n_new, shift, sd_new, margin in ((5, 5, -0.84, 0.3, 2.0), (5, 5, -0.84, 1.5, 2.0), (3, 4, 0.5, 0.4, 2.0),
                                                   (10, 8, 1.9, 0.6, 2.0), (20, 20, 0.0, 1.0, 1.0), (4, 6, -3.0, 2.0, 5.0)):
        base = np.round(100 + rng.normal(0, 0.5, n_base), 4)
        new = np.round(100 + shift + rng.normal(0, sd_new, n_new), 4)
        delta = margin / 100 * base.mean()
        p, (t1, p1, df1), (t2, p2, df2) = ttost_ind(new, base, -delta, delta, usevar="unequal")
        out.append({"base": base.tolist(), "new": new.tolist(), "low": -delta, "upp": delta, "p": float(p),
                    "t_low": float(t1), "p_low": float(p1), "t_upp": float(t2), "p_upp": float(p2), "df": float(df1)})
    return out


def main() -> None:
    doc = {
        "generator": "tools/oracles/stats/verdicts.py",
        "versions": {"scipy": scipy.__version__, "statsmodels": statsmodels.__version__, "numpy": np.__version__},
        "nct_cdf": nct_cases(),
        "power": power_cases(),
        "runs_needed": runs_cases(),
        "tost": tost_cases(),
    }
    json.dump(doc, sys.stdout, indent=1, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

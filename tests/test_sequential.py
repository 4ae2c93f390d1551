"""The sequential comparison (docs/sequential.md): its e-value and interval against an
independent computation with scipy, and `stats --sequential` / `batch --sequential`.

The independent computation is the definition itself: the Bayes factor of the
pooled two-sample t statistic with δ ~ N(0, g) is the integral over δ of scipy's
noncentral t density `nct.pdf(t, ν, δ√n_eff)` against the normal density of δ, over
the central t density `t.pdf(t, ν)` (scipy.integrate.quad); schedlab computes it in
closed form. The interval's ends are where that integral equals 1/alpha.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import scipy.integrate as integrate
import scipy.stats as scipy_stats
from schedlab import _core, batch, stats

from .cli_run import run_cli

DATA = Path(__file__).parent / "data"
G = 1.0  # the mixture's prior variance of the standardized difference (MIXTURE_G)


def scipy_e_value(base: np.ndarray, new: np.ndarray, delta0: float) -> float:
    nb, nn = len(base), len(new)
    nu = nb + nn - 2
    n_eff = nb * nn / (nb + nn)
    sp = math.sqrt((((base - base.mean()) ** 2).sum() + ((new - new.mean()) ** 2).sum()) / nu)
    t = (new.mean() - base.mean() - delta0) / (sp / math.sqrt(n_eff))
    num, _ = integrate.quad(lambda d: scipy_stats.nct.pdf(t, nu, d * math.sqrt(n_eff)) * scipy_stats.norm.pdf(d, 0, math.sqrt(G)),
                            -np.inf, np.inf, epsabs=0, epsrel=1e-11, limit=400)
    return num / scipy_stats.t.pdf(t, nu)


CASES = [(3, 3, 0.0), (4, 6, 0.5), (8, 8, 1.2), (10, 25, -0.3), (30, 30, 0.8), (31, 20, 0.0), (5, 5, 3.0)]


@pytest.mark.parametrize(("nb", "nn", "shift"), CASES)
def test_e_value_is_the_mixture_bayes_factor(nb: int, nn: int, shift: float) -> None:
    rng = np.random.default_rng(nb * 100 + nn)
    base = rng.normal(10.0, 1.0, nb)
    new = rng.normal(10.0 + shift, 1.0, nn)
    for delta0 in (0.0, 0.7, -1.5):
        e, _, _ = _core.sequential_look(base, new, delta0=delta0)
        assert e == pytest.approx(scipy_e_value(base, new, delta0), rel=1e-8)


@pytest.mark.parametrize(("nb", "nn", "shift"), [c for c in CASES if c[0] + c[1] >= 10])
def test_interval_ends_where_the_e_value_is_one_over_alpha(nb: int, nn: int, shift: float) -> None:
    rng = np.random.default_rng(7 + nb)
    base = rng.normal(10.0, 1.0, nb)
    new = rng.normal(10.0 + shift, 1.0, nn)
    for alpha in (0.05, 0.01):
        _, low, high = _core.sequential_look(base, new, alpha=alpha)
        diff = new.mean() - base.mean()
        assert low < diff < high
        # scipy's E(delta0) = 1/alpha has one root on each side of the estimate (E grows
        # with |t|): log(E * alpha) changes sign within rel 1e-7 (abs 1e-9) of each end,
        # i.e. scipy's root is within that of schedlab's (a bracket, as brentq's, at two
        # integrations an end)
        f = lambda d0, alpha=alpha: math.log(scipy_e_value(base, new, d0) * alpha)
        for end, outward in ((low, -1.0), (high, 1.0)):
            eps = max(1e-7 * abs(end), 1e-9)
            assert f(end + outward * eps) > 0 > f(end - outward * eps), (alpha, end)


def test_two_runs_a_side_never_decide() -> None:
    e, low, high = _core.sequential_look(np.array([1.0, 1.1]), np.array([5.0, 5.1]))
    assert math.isinf(low) and math.isinf(high)
    # 2 runs a side: n_eff = 1, ν = 2, so E < (1 + n_eff g)^(ν/2) = 2 (its limit for an infinite t) < 1/alpha
    assert 1.99 < e < 2.0


def test_decided_at_matches_the_prefixes() -> None:
    rng = np.random.default_rng(5)
    base = rng.normal(100, 2, 30)
    new = rng.normal(104, 2, 30)
    s = stats.sequential(base, new, direction="lower")
    assert s.verdict == "worse" and s.decided
    k = s.decided_at
    assert stats.sequential(base[:k], new[:k], direction="lower").decided_at == k
    before = stats.sequential(base[: k - 1], new[: k - 1], direction="lower")
    assert not before.decided and before.verdict == "inconclusive" and before.more_runs >= 1
    assert s.interval[0] > 0  # mean(new) - mean(base): slower



def test_stats_sequential_says_when_each_comparison_is_decided(tmp_path: Path) -> None:
    rng = np.random.default_rng(9)
    files = []
    for name, level, n in (("base", 100.0, 12), ("slower", 110.0, 12), ("same", 100.0, 4), ("close", 101.0, 12)):
        p = tmp_path / f"{name}.txt"
        p.write_text("\n".join(f"{v:.4f}" for v in rng.normal(level, 1.0, n)) + "\n")
        files.append(str(p))
    code, out, err = run_cli("stats", "--lower-is-better", "--sequential", *files)
    assert code == 0, err
    assert "Sequential (one look per added run" in out
    seq = out.split("Sequential (one look per added run", 1)[1]
    line = next(x for x in seq.splitlines() if x.startswith("slower: "))
    assert "decided at run" in line and ": worse;" in line, out
    # a side with fewer runs: the later looks add the other side's runs
    line = next(x for x in seq.splitlines() if x.startswith("same: "))
    assert "decided at look 10 (10 runs of the base, 4 of the new): equivalent" in line, out
    # a 1 % change at 1 % noise: 12 runs a side leave its interval across both 0 and the margin
    line = next(x for x in seq.splitlines() if x.startswith("close: "))
    assert "not decided after 12 runs a side (inconclusive)" in line and "more runs a side" in line, out


def test_batch_sequential_rows_have_their_evidence_and_the_schema_holds() -> None:
    res = DATA / "batch" / "results"
    code, out, err = run_cli("batch", str(res / "dirs/base"), str(res / "dirs/head"), "--baseline", "base",
                             "--format", "json", "--sequential")
    doc = json.loads(out)
    assert doc["options"]["sequential"] is True
    assert all("sequential" in r for r in doc["rows"])
    for r in doc["rows"]:
        s = r["sequential"]
        decided = r["verdict"] in ("better", "worse", "changed", "equivalent")
        assert (s["decided_at"] is not None) == decided, r
    import jsonschema
    jsonschema.Draft202012Validator(batch.schema()).validate(doc)
    # the fixed-sample document has neither field
    plain = json.loads(run_cli("batch", str(res / "dirs/base"), str(res / "dirs/head"), "--baseline", "base",
                               "--format", "json")[1])
    assert "sequential" not in plain["options"] and all("sequential" not in r for r in plain["rows"])
    code, out, err = run_cli("batch", str(res / "dirs/base"), str(res / "dirs/head"), "--baseline", "base",
                             "--sequential")
    assert "sequential: confidence sequences at alpha 0.05" in out, out

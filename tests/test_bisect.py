"""The bisection's API and its posterior (docs/bisect.md): the culprit posterior against
a numerical integration with scipy, the step decisions, the endpoints, the status'
notes (failures, undecidable commits, more than one change, doubtful answers), the
state's JSON and the errors. The simulations with real noise are in
test_bisect_simulation.py, `git bisect run` in test_bisect_git.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import schedlab
import scipy.integrate as integrate
from schedlab.bisect import DEFAULTS, Bisection


def scipy_posterior(positions: list[int], runs: list[np.ndarray], last: int) -> list[float]:
    """The posterior mass of each gap between neighbouring tested commits: the normal
    likelihood of every run integrated over both levels (flat priors) by hand — the
    Gaussian integral over a level m of exp(-Σ(x - m)²/2σ²) is exp(-S/2σ²)·√(2πσ²/n),
    S the sum of squares about the mean — and over log σ (the 1/σ prior is flat in
    log σ) with scipy's quad, times the gap's width."""
    allx = np.concatenate(runs)
    n, spread = len(allx), allx.std() + 1e-12
    masses = []
    for cut in range(1, len(positions)):
        a, b = np.concatenate(runs[:cut]), np.concatenate(runs[cut:])
        rss = ((a - a.mean()) ** 2).sum() + ((b - b.mean()) ** 2).sum()

        norm = 2 * math.pi / math.sqrt(len(a) * len(b))

        def like(ls: float, rss: float = rss, norm: float = norm) -> float:
            s2 = math.exp(2 * ls)
            return math.exp(-0.5 * rss / s2 - n * (ls - math.log(spread))) * norm * s2

        val, _ = integrate.quad(like, math.log(spread) - 12, math.log(spread) + 6, epsabs=0, epsrel=1e-12,
                                limit=200)
        masses.append(val * (positions[cut] - positions[cut - 1]))
    total = sum(masses)
    return [m / total for m in masses]


def test_the_posterior_is_the_integrated_normal_likelihood() -> None:
    rng = np.random.default_rng(4)
    positions = [0, 3, 7, 10]
    levels = [10.0, 10.0, 10.6, 10.6]
    # 20 runs of noise 0.2 at each endpoint, so that they show the change at the step's
    # error rate (with fewer the endpoints ask for more runs and no posterior is given);
    # every deviation stays within the Huber clip (5 robust SDs), so the plain normal
    # likelihood is the reference
    runs = [rng.normal(lv, 0.2, n) for lv, n in zip(levels, (20, 3, 3, 20))]
    expected = scipy_posterior(positions, runs, 10)
    b = Bisection([f"c{i}" for i in range(11)], margin=0.5)
    for p, x in zip(positions, runs):
        b.add(f"c{p}", x)
    commits = {c["position"]: c for c in b.status().commits}
    # P(bad) at a tested commit is the mass of the gaps before it
    assert commits[3]["p_bad"] == pytest.approx(expected[0], rel=1e-5)
    assert commits[7]["p_bad"] == pytest.approx(expected[0] + expected[1], rel=1e-5)
    st = b.status()
    assert st.culprit is not None and st.culprit["positions"] == [4, 5, 6, 7]
    assert st.culprit["probability"] == pytest.approx(expected[1], rel=1e-5)


def test_defaults_come_from_the_core() -> None:
    # max_runs None: from the endpoints' runs (docs/bisect.md §2.5)
    assert DEFAULTS == {"alpha": 0.05, "margin": 2.0, "min_runs": 3, "max_runs": None, "endpoint_runs": 5,
                        "max_endpoint_runs": 200}


def _bisection(n: int = 9, **kw: object) -> Bisection:
    b = Bisection([f"commit{i:02d}x" for i in range(n)], direction="lower", **kw)  # type: ignore[arg-type]
    b.add("commit00x", [10.0, 10.1, 9.9, 10.05, 9.95, 10.0, 10.02, 9.98])
    b.add(f"commit{n - 1:02d}x", [11.0, 11.1, 10.9, 11.05, 10.95, 11.0, 11.02, 10.98])
    return b


def test_steps_decide_good_bad_more_and_skip_with_their_evidence() -> None:
    b = _bisection(max_runs=4)
    assert b.endpoints().decision == "ready" and b.endpoints().verdict == "worse"
    b.add("commit04x", [11.01, 10.98])
    s = b.step("commit04x")
    assert (s.decision, s.exit_code) == ("more", None)  # min_runs 3
    b.add("commit04x", 11.02)
    s = b.step("commit04x")
    assert (s.decision, s.exit_code) == ("bad", 1)
    assert s.p_bad >= 1 - s.alpha and s.runs == 3 and 0.9 < s.fraction < 1.1
    assert "P(bad) = " in s.line() and s.line().endswith(": bad")
    b.add("commit02x", [10.02, 9.97, 10.01])
    assert b.step("commit02x").decision == "good"
    # a level between the endpoints', to the maximum of runs: changed from the good
    # level, answered bad, saying why (docs/bisect.md §2.5)
    b.add("commit03x", [10.49, 10.51, 10.5, 10.52])
    s = b.step("commit03x")
    assert (s.decision, s.exit_code, s.max_runs) == ("bad", 1, 4)
    assert s.reason is not None and "more than one change" in s.reason
    # undecided at the maximum and not shown between the levels: skip, saying why
    b = _bisection(max_runs=4)
    b.add("commit04x", [10.0, 11.0, 10.5, 10.45])
    s = b.step("commit04x")
    assert (s.decision, s.exit_code) == ("skip", 125), s.line()
    assert s.reason is not None and "noise is too large" in s.reason, s.line()


def test_endpoints_without_a_change_say_so() -> None:
    b = Bisection(["g", "m", "b"])
    b.add("g", [10.0, 10.1, 9.9, 10.05, 9.95, 10.02])
    b.add("b", [10.01, 10.08, 9.92, 10.03, 9.97, 10.0])
    e = b.endpoints()
    assert (e.decision, e.ready, e.verdict) == ("no-change", False, "equivalent")
    assert "nothing to bisect" in e.line()
    assert b.status().phase == "no-change" and b.status().next is None


def test_before_the_endpoints_decide_no_commit_has_a_p_bad_yet() -> None:
    """Two runs an endpoint do not yet show a change the steps can decide: the status has
    no posterior, so a tested commit's P(bad) is None ("-" in the text) and its verdict
    "not yet", never NaN or "undecided"."""
    b = Bisection(["g", "m", "b"], direction="lower")
    b.add("g", [10.0, 10.1])
    b.add("m", [10.0, 10.1])
    b.add("b", [12.0, 12.1])
    st = b.status()
    assert st.phase == "endpoints" and st.next is not None and st.next["commits"] == ["g", "b"]
    assert [(c["commit"], c["p_bad"], c["verdict"]) for c in st.commits] == [
        ("g", None, "not yet"), ("m", None, "not yet"), ("b", None, "not yet")]
    lines = [ln for ln in st.text().splitlines() if ln.startswith("  m ")]
    assert len(lines) == 1 and "P(bad) -" in lines[0] and lines[0].endswith("not yet"), st.text()
    assert "nan" not in st.text().lower()
    assert json.loads(json.dumps(st.to_dict()))["commits"][1]["p_bad"] is None


def test_status_notes_failures_undecided_commits_and_more_than_one_change() -> None:
    b = _bisection(17, max_runs=6)
    b.fail("commit05x", "exit code 125")
    b.add("commit08x", [10.5, 10.52, 10.49, 10.51, 10.5, 10.48])  # a level between: more than one change
    st = b.status()
    text = "\n".join(st.notes)
    assert "commit05x: 1 failed run (exit code 125): a commit that cannot be tested counts as skipped" in text
    assert "commit08x: undecided after 6 runs" in text
    assert "differ from both endpoints'" in text
    assert [c["verdict"] for c in st.commits] == ["good", "failed", "undecided", "bad"]
    # the next commit is never the failed one nor the exhausted one
    assert st.next is not None and st.next["commits"][0] not in ("commit05x", "commit08x")


def test_more_than_one_change_is_found_by_series_over_the_tested_commits() -> None:
    rng = np.random.default_rng(2)
    b = Bisection([f"c{i}" for i in range(21)], direction="lower", margin=1)
    for c, level in ((0, 10.0), (5, 10.0), (10, 11.0), (15, 12.0), (20, 12.0)):
        b.add(f"c{c}", rng.normal(level, 0.05, 12))
    notes = "\n".join(b.status().notes)
    assert "more than one change: schedlab series finds levels changing at c10 and c15" in notes


def test_a_doubtful_answer_is_named_and_re_tested() -> None:
    # c8 answered good on three runs that looked good; every later run says otherwise
    b = Bisection([f"c{i}" for i in range(17)], direction="lower", margin=1)
    rng = np.random.default_rng(8)
    b.add("c0", rng.normal(10.0, 0.3, 8))
    b.add("c16", rng.normal(10.6, 0.3, 8))
    b.add("c8", [10.1, 10.0, 10.05])
    s = b.step("c8")
    b.answer(s)
    assert s.decision == "good", s.line()
    b.add("c8", rng.normal(10.6, 0.3, 10))  # what c8 really measures
    st = b.status()
    assert any("c8: answered good, but every run now gives P(bad)" in n for n in st.notes), st.notes
    assert st.next is not None


def test_state_round_trip_and_errors(tmp_path: Path) -> None:
    b = _bisection()
    b.add("commit04x", [11.01, 10.98, 11.02])
    b.answer(b.step("commit04x"))
    path = tmp_path / "s.json"
    b.save(path)
    doc = json.loads(path.read_text())
    assert (doc["schema"], doc["version"]) == ("schedlab-bisect", 1)
    assert doc["answers"] == [{"commit": "commit04x", "answer": "bad", "runs": 3, "p_bad": b.step("commit04x").p_bad}]
    again = Bisection.load(path)
    assert again.state.to_json() == b.state.to_json()
    with pytest.raises(schedlab.DomainError, match="names no commit"):
        b.add("commit99x", [1.0])
    with pytest.raises(schedlab.DomainError, match="not a finite number"):
        b.add("commit03x", [math.nan])
    with pytest.raises(schedlab.DomainError, match="at least 2"):
        Bisection(["a", "b"], endpoint_runs=1)
    path.write_text(json.dumps({**doc, "version": 7}))
    with pytest.raises(schedlab.ParseError, match="s.json: schedlab-bisect version Some\\(7\\)"):
        Bisection.load(path)
    path.write_text(json.dumps({**doc, "runs": [{"commit": "nope", "values": [1.0]}]}))
    with pytest.raises(schedlab.ParseError, match="runs: 'nope' names no commit"):
        Bisection.load(path)


def test_a_whole_search_by_probabilistic_bisection() -> None:
    rng = np.random.default_rng(11)
    commits = [f"c{i}" for i in range(65)]
    calls: list[str] = []

    def measure(c: str) -> float:
        calls.append(c)
        return (10.5 if int(c[1:]) >= 41 else 10.0) * (1 + 0.01 * rng.standard_normal())

    b = Bisection(commits, direction="lower", margin=1)
    st = b.run(measure)
    assert st.phase == "found" and st.culprit is not None
    assert st.culprit["commits"] == ["c41"] and st.culprit["probability"] >= 0.95
    # one commit singled out needs both sides of its gap tested; a binary search takes
    # about log2(64) = 6 steps beyond the endpoints (fewer when the medians fall luckily)
    assert {"c40", "c41"} <= set(calls)
    assert len(set(calls)) - 2 <= 12

"""Bisections simulated with real noise (docs/bisect.md §9), for the tests and for
``benchmarks/bisect_accuracy.py``.

The noise is resampled from runs of real data the project holds: each source's
runs of one metric become relative residuals x/mean - 1, pooled per source, and a
simulated run of a commit is ``BASE * level * (1 + r)`` with r drawn from the pool.
A range has its culprit(s) at given positions, each making the metric worse by its
effect from there on (a time growing: the bad side is higher).

The search strategies compared, all over the same ranges and noise:

- ``schedlab`` (``git``): what ``git bisect run schedlab bisect run`` does: the
  endpoints measured until they decide, then git's binary search with each step
  decided by :meth:`schedlab.bisect.Bisection.test` (skip when undecided after
  ``max_runs``, git then trying a neighbour); the commit git names, unless the
  notes schedlab prints at the last answer say it is not singled out (an
  abstention);
- ``schedlab-pba``: :meth:`schedlab.bisect.Bisection.run`, probabilistic bisection
  (the next commit is the posterior median; a doubtful answer is re-tested);
- ``fixed-N``: N runs at every commit, endpoints included; a step is bad when its
  mean is nearer the bad endpoint's mean than the good one's;
- ``lisa-vote``: LISA's bisector (tools/bisector, ``BasicStatTest``): N iterations,
  each a pass/fail test (a run beyond the midpoint of the endpoints' means, measured
  with N runs each, fails), the step bad when the failed percentage exceeds
  ``--allowed-bad`` (0 by default; 50 is a majority vote);
- ``lkp-stable``: lkp's public rule (lib/bisect_kpi.rb ``PerfStat#statistics`` and
  ``#change``): N runs, the values rounded to integers; a metric that is not stable
  at the commit (min-max gap or relative population standard deviation above 20 %)
  cannot decide the step (skip); otherwise its change against the good endpoint
  (``((mean - base_mean)/base_mean * 100).round(1)``) is bad when it reaches half the
  endpoints' change.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data"

#: The level of a simulated metric (a throughput-sized number, so that lkp's rounding
#: to integers changes nothing that matters).
BASE = 100_000.0

#: The real sources resampled, each with where it comes from.
SOURCES = {
    "mmtests-netperf-udp": "the real MMTests tree (tests/data/mmtests/real): netperf-udp send/recv, 2 roots x 27 sizes x 5 runs",
    "mmtests-netperf-tcp": "the real MMTests tree: netperf-tcp, 2 roots x 9 sizes x 5 runs",
    "mmtests-sockperf-tcp": "the real MMTests tree: sockperf-tcp-throughput (heavy-tailed), 4 configs x 5 sizes x 10 runs",
    "mmtests-sockperf-udp": "the real MMTests tree: sockperf-udp-throughput, 2 roots x 5 sizes x 10 runs",
    "lkp-hackbench": "lkp-tests' own hackbench fixtures (tests/data/lkp/spec/hackbench): Time of each iteration",
    "captures": "result files captured on this machine (tests/data/readers): pytest-benchmark rounds, "
                "google-benchmark repetitions, perf stat runs",
}


def _residuals(x: Sequence[float]) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    return a / a.mean() - 1.0


def noise_pools() -> dict[str, np.ndarray]:
    """The relative residuals of every source of :data:`SOURCES`."""
    from schedlab import batch, readers

    pools: dict[str, list[np.ndarray]] = {k: [] for k in SOURCES}
    names = {"netperf-udp": "mmtests-netperf-udp", "netperf-tcp": "mmtests-netperf-tcp",
             "sockperf-tcp-throughput": "mmtests-sockperf-tcp", "sockperf-udp-throughput": "mmtests-sockperf-udp"}
    scan = batch.scan(DATA / "mmtests" / "real" / "mmtests_CI").data
    for run in scan["runs"]:
        pool = names.get(run["benchmark"])
        for m in run["metrics"] if pool else ():
            x = np.asarray(m["samples"], dtype=float)
            if len(x) >= 5 and x.mean() > 0 and x.std() > 0:
                pools[pool].append(_residuals(x))
    for f in sorted((DATA / "lkp" / "spec" / "hackbench").iterdir()):
        if f.suffix != ".yaml":  # one pool entry per instance of the run
            for part in re.split(r"^Instance: \d+$", f.read_text(), flags=re.M):
                times = [float(t) for t in re.findall(r"^Time: ([0-9.]+)$", part, re.M)]
                if len(times) >= 3:
                    pools["lkp-hackbench"].append(_residuals(times))
    rd = DATA / "readers"
    for name in ("pytest-benchmark.json", "google-benchmark.json"):
        df = readers.read(rd / name)
        for metric, x in df.groupby("metric")["value"]:
            if "real_time" not in str(metric) and len(x) >= 5:
                pools["captures"].append(_residuals(x.to_numpy()))
    runs = [readers.read(rd / f"perf-stat-run{i}.csv") for i in (1, 2, 3)]
    for metric in runs[0]["metric"].unique():
        x = [float(r.loc[r["metric"] == metric, "value"].iloc[0]) for r in runs]
        if min(x) > 0 and np.std(x) > 0:
            pools["captures"].append(_residuals(x))
    return {k: np.concatenate(v) for k, v in pools.items() if v}


@dataclass
class Range:
    """A range of commits 0..n (0 good, n bad) with culprits at ``culprits``
    (position, effect as a fraction): every commit at or after a culprit is slower by
    its effect."""

    n: int
    culprits: list[tuple[int, float]]
    pool: np.ndarray
    rng: np.random.Generator
    runs: int = 0
    per_commit: dict[int, int] = field(default_factory=dict)

    def level(self, c: int) -> float:
        return 1.0 + sum(e for p, e in self.culprits if c >= p)

    def draw(self, c: int, k: int = 1) -> np.ndarray:
        self.runs += k
        self.per_commit[c] = self.per_commit.get(c, 0) + k
        return BASE * self.level(c) * (1.0 + self.rng.choice(self.pool, k))


def make_range(n: int, pool: np.ndarray, rng: np.random.Generator, *, culprits: int = 1,
               effect: tuple[float, float] = (0.01, 0.10)) -> Range:
    """A range of ``n`` commits after the good one with ``culprits`` culprits at random
    positions (distinct), each of a random effect in ``effect``."""
    pos = sorted(rng.choice(np.arange(1, n + 1), culprits, replace=False).tolist()) if culprits else []
    return Range(n, [(int(p), float(rng.uniform(*effect))) for p in pos], pool, rng)


@dataclass
class Outcome:
    """What a search named: the candidate positions (one when singled out), or
    ``no-change``, or "more than one change" (``more_than_one``), or nothing
    (``started`` False: the endpoints could not be told apart, an abstention); and
    the runs it took."""

    candidates: list[int]
    runs: int
    no_change: bool = False
    started: bool = True
    #: schedlab's notes said the commit git names is not singled out: more than one
    #: change (no commit named)
    more_than_one: bool = False

    def correct(self, r: Range) -> bool:
        if not r.culprits:
            return self.no_change
        return len(self.candidates) == 1 and self.candidates[0] in {p for p, _ in r.culprits}

    def wrong(self, r: Range) -> bool:
        """A wrong answer (not an abstention): a commit named that is not a culprit, a
        set of candidates without one, or "no change" where there is one."""
        if not r.culprits:
            return bool(self.candidates)
        if self.no_change:
            return True
        return bool(self.candidates) and not set(self.candidates) & {p for p, _ in r.culprits}


def git_search(n: int, step: Callable[[int], str]) -> list[int]:
    """git bisect's search over 0..n (0 good, n bad): the commit nearest the middle of
    the remaining range, a skipped one's nearest untested neighbour instead; returns the
    candidates left (one: the first bad commit)."""
    lo, hi, skipped = 0, n, set()
    while True:
        inside = [c for c in range(lo + 1, hi) if c not in skipped]
        if not inside:
            return list(range(lo + 1, hi + 1)) if any(lo < s < hi for s in skipped) else [hi]
        mid = (lo + hi) // 2
        c = min(inside, key=lambda x: (abs(x - mid), x))
        answer = step(c)
        if answer == "good":
            lo = c
        elif answer == "bad":
            hi = c
        else:
            skipped.add(c)


def schedlab_git(r: Range, **settings: object) -> Outcome:
    """``git bisect run schedlab bisect run``."""
    from schedlab.bisect import Bisection

    names = [f"c{i}" for i in range(r.n + 1)]
    b = Bisection(names, direction="lower", **settings)  # type: ignore[arg-type]
    measure = lambda name: r.draw(int(name[1:]))[0]
    e = b.measure_endpoints(measure)
    if e.decision != "ready":
        return Outcome([], r.runs, no_change=e.decision == "no-change", started=False)

    def step(c: int) -> str:
        s = b.test(names[c], measure)
        b.answer(s)
        return s.decision

    cand = git_search(r.n, step)
    # the commit git names, unless schedlab's notes at that last answer say it is not
    # singled out (an answer at it or before it that later runs contradict,
    # docs/bisect.md §6): an abstention, "more than one change", not a commit
    if len(cand) == 1 and any(n.startswith("not singled out") for n in b.status().notes):
        return Outcome([], r.runs, more_than_one=True)
    return Outcome(cand, r.runs)


def schedlab_pba(r: Range, **settings: object) -> Outcome:
    """:meth:`Bisection.run`: probabilistic bisection."""
    from schedlab.bisect import Bisection

    names = [f"c{i}" for i in range(r.n + 1)]
    b = Bisection(names, direction="lower", **settings)  # type: ignore[arg-type]
    st = b.run(lambda name: r.draw(int(name[1:]))[0])
    if st.phase in ("no-change", "undecided", "endpoints"):
        return Outcome([], r.runs, no_change=st.phase == "no-change", started=False)
    c = st.culprit
    return Outcome([] if c is None else list(c["positions"]), r.runs)


def fixed_n(r: Range, n_runs: int) -> Outcome:
    """N runs everywhere; a step is bad when its mean is nearer the bad endpoint's."""
    g, b = r.draw(0, n_runs).mean(), r.draw(r.n, n_runs).mean()
    mid = (g + b) / 2
    return Outcome(git_search(r.n, lambda c: "bad" if (r.draw(c, n_runs).mean() - mid) * (b - g) > 0 else "good"),
                   r.runs)


def lisa_vote(r: Range, n_runs: int, allowed_bad: float = 0.0) -> Outcome:
    """LISA's bisector: N pass/fail iterations (fail: beyond the endpoints' midpoint),
    bad when the failed percentage exceeds ``allowed_bad``."""
    g, b = r.draw(0, n_runs).mean(), r.draw(r.n, n_runs).mean()
    mid = (g + b) / 2

    def step(c: int) -> str:
        fails = ((r.draw(c, n_runs) - mid) * (b - g) > 0).sum()
        return "good" if 100.0 * fails / n_runs <= allowed_bad else "bad"

    return Outcome(git_search(r.n, step), r.runs)


def lkp_stable(r: Range, n_runs: int) -> Outcome:
    """lkp's stable rule and change percentage (lib/bisect_kpi.rb)."""
    def stats(x: np.ndarray) -> tuple[float, bool]:
        v = np.round(x)  # values.map(&:round)
        mean = v.mean()
        gap = (v.max() - v.min()) / v.min() * 100
        rstd = v.std() * 100 / mean  # population standard deviation (lib/statistics.rb)
        return mean, gap <= 20 and rstd <= 20

    base, _ = stats(r.draw(0, n_runs))
    bad, _ = stats(r.draw(r.n, n_runs))
    sign = 1.0 if bad > base else -1.0
    full = round((bad - base) / base * 100, 1) * sign

    def step(c: int) -> str:
        mean, stable = stats(r.draw(c, n_runs))
        if not stable:
            return "skip"
        pct = round((mean - base) / base * 100, 1) * sign
        return "bad" if pct >= full / 2 else "good"

    return Outcome(git_search(r.n, step), r.runs)


def peers(n_runs: int) -> dict[str, Callable[[Range], Outcome]]:
    """The peers' rules at N runs a commit."""
    return {
        f"fixed-N (N={n_runs})": lambda r: fixed_n(r, n_runs),
        f"LISA vote, --allowed-bad 0 (N={n_runs})": lambda r: lisa_vote(r, n_runs, 0.0),
        f"LISA vote, --allowed-bad 50 (N={n_runs})": lambda r: lisa_vote(r, n_runs, 50.0),
        f"lkp stable rule (N={n_runs})": lambda r: lkp_stable(r, n_runs),
    }


def binomial_se(p: float, n: int) -> float:
    """The Monte-Carlo standard error of a rate ``p`` estimated from ``n`` draws."""
    return math.sqrt(max(p * (1 - p), 1e-12) / n) if n else math.nan


@dataclass
class Score:
    """Accuracy and mean runs of one strategy over many ranges."""

    correct: int = 0
    total: int = 0
    wrong: int = 0
    started: int = 0
    correct_started: int = 0
    more_than_one: int = 0
    runs: list[int] = field(default_factory=list)

    def add(self, out: Outcome, r: Range) -> None:
        ok = out.correct(r)
        self.correct += ok
        self.total += 1
        self.wrong += out.wrong(r)
        self.started += out.started
        self.correct_started += ok and out.started
        self.more_than_one += out.more_than_one
        self.runs.append(out.runs)

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else math.nan

    @property
    def error_rate(self) -> float:
        """The fraction of ranges given a wrong answer (abstentions are not)."""
        return self.wrong / self.total if self.total else math.nan

    @property
    def accuracy_started(self) -> float:
        """The fraction named right among the ranges whose bisection started (the
        endpoints told apart)."""
        return self.correct_started / self.started if self.started else math.nan

    @property
    def mc_error(self) -> float:
        """The Monte-Carlo standard error of the accuracy."""
        return binomial_se(self.accuracy, self.total)

    @property
    def mean_runs(self) -> float:
        return float(np.mean(self.runs)) if self.runs else math.nan


def simulate(strategies: dict[str, Callable[[Range], Outcome]], *, pools: dict[str, np.ndarray], n: int,
             bisections: int, seed: int, culprits: int = 1,
             effect: tuple[float, float] = (0.01, 0.10)) -> dict[str, Score]:
    """Run every strategy over the same ``bisections`` ranges (the pools taken in turn):
    each strategy gets the same range and a generator seeded alike."""
    scores = {k: Score() for k in strategies}
    names = sorted(pools)
    for i in range(bisections):
        pool = pools[names[i % len(names)]]
        layout = make_range(n, pool, np.random.default_rng([seed, i]), culprits=culprits, effect=effect)
        for k, f in strategies.items():
            r = Range(layout.n, layout.culprits, pool, np.random.default_rng([seed, i, 1]))
            scores[k].add(f(r), r)
    return scores

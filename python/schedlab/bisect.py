"""Which commit: a bisection that decides each step under noise (docs/bisect.md).

A :class:`Bisection` holds the runs of every commit it measured. The endpoints are
measured once, in batches, until the sequential comparison of the bad one with the
good one shows a change the steps can decide (or shows none: nothing to bisect). At
each step runs are added until the posterior over the culprit's position, given
every run so far, makes the commit bad or good at the step's error rate
(alpha/steps), or the step gives up after ``max_runs`` (skip; by default four times
the runs the endpoints say a step takes). :meth:`Bisection.run`
drives a whole search by probabilistic bisection (the next commit is the posterior
median, so one doubtful answer is re-tested rather than followed);
``schedlab bisect run`` does the same inside ``git bisect run``.

>>> import random
>>> rng = random.Random(7)
>>> commits = [f"c{i}" for i in range(33)]          # c0 good ... c32 bad
>>> def measure(commit):                            # 4 % slower from c20 on, 1 % noise
...     slow = 1.04 if int(commit[1:]) >= 20 else 1.0
...     return slow * rng.gauss(1.0, 0.01)
>>> b = Bisection(commits, direction="lower")
>>> st = b.run(measure)
>>> st.phase, st.culprit["commits"], st.culprit["probability"] > 0.95
('found', ['c20'], True)
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from . import _core
from ._core import BisectEndpoints, BisectState, BisectStatus, BisectStep
from .errors import DomainError, SchedlabError

__all__ = ["Bisection", "rev_list", "read_results", "BisectState", "BisectStep", "BisectEndpoints", "BisectStatus",
           "DEFAULTS"]

#: The default settings of a bisection (the core's: ``alpha``, ``margin``, ``min_runs``,
#: ``max_runs``, ``endpoint_runs``, ``max_endpoint_runs``).
DEFAULTS: dict[str, Any] = dict(_core.bisect_defaults())

Measure = Callable[[str], "float | Sequence[float]"]
"""A benchmark: run once at a commit, return its value (or the values of that run)."""


def _values(v: float | Iterable[float]) -> list[float]:
    if isinstance(v, (int, float)):
        return [float(v)]
    return [float(x) for x in v]


class Bisection:
    """A noise-aware bisection over ``commits`` (the good endpoint first, the bad one
    last, in history order: :func:`rev_list` gives them).

    ``direction`` (``higher``, ``lower`` or ``unknown``) says which way the metric is
    better; the decisions do not depend on it, the endpoints' verdict words do. The
    settings default to :data:`DEFAULTS`: ``alpha`` the chance, at most, of naming a
    wrong commit; ``margin`` the percent change below which the endpoints count as
    unchanged; ``min_runs``/``max_runs`` per step (``max_runs`` None: four times the runs
    a step is expected to take at the endpoints' change and noise, at least 50);
    ``endpoint_runs`` per batch and
    ``max_endpoint_runs`` at each endpoint.

    >>> b = Bisection(["good", "mid", "bad"], direction="lower")
    >>> b.add("good", [10.0, 10.1, 9.9, 10.0, 10.05])
    >>> b.add("bad", [11.0, 11.1, 10.9, 11.0, 11.05])
    >>> b.endpoints().decision
    'ready'
    >>> b.add("mid", [10.98, 11.02, 11.01])
    >>> b.step("mid").decision
    'bad'
    """

    def __init__(self, commits: Sequence[str], *, metric: str | None = None, direction: str = "unknown",
                 alpha: float | None = None, margin: float | None = None, min_runs: int | None = None,
                 max_runs: int | None = None, endpoint_runs: int | None = None,
                 max_endpoint_runs: int | None = None) -> None:
        self._state = BisectState(commits=[str(c) for c in commits], metric=metric, direction=direction, alpha=alpha,
                                  margin=margin, min_runs=min_runs, max_runs=max_runs, endpoint_runs=endpoint_runs,
                                  max_endpoint_runs=max_endpoint_runs)

    @classmethod
    def of_state(cls, state: BisectState) -> Bisection:
        """The bisection holding ``state`` (from :meth:`load`, :func:`read_results` or
        ``schedlab bisect run``'s file)."""
        b = cls.__new__(cls)
        b._state = state
        return b

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Bisection:
        """The bisection saved at ``path`` (by :meth:`save` or ``schedlab bisect run``)."""
        from ._input import read_bounded

        p = os.fspath(path)
        return cls.of_state(BisectState.from_json(read_bounded(p).decode("utf-8", "surrogateescape"), p))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state to ``path`` (a temporary file renamed over it)."""
        from ._output import write

        write(os.fspath(path), self._state.to_json() + "\n", [])

    @property
    def state(self) -> BisectState:
        """The state: settings, range, runs and answers (immutable)."""
        return self._state

    @property
    def good(self) -> str:
        """The good endpoint."""
        return self._state.commits[0]

    @property
    def bad(self) -> str:
        """The bad endpoint."""
        return self._state.commits[-1]

    def set_metric(self, metric: str | None, direction: str) -> None:
        """Name the metric and say which way it is better (once a result file told)."""
        self._state = self._state.with_metric(metric=metric, direction=direction)

    def add(self, commit: str, values: float | Iterable[float]) -> None:
        """Add the value(s) of runs of ``commit`` (a unique prefix of 7+ characters works)."""
        self._state = self._state.with_runs(commit=commit, values=_values(values))

    def fail(self, commit: str, reason: str) -> None:
        """Record that a run of ``commit`` failed (a build or boot failure), and why."""
        self._state = self._state.with_failure(commit=commit, reason=reason)

    def endpoints(self) -> BisectEndpoints:
        """What the endpoints' runs show: ``decision`` is ``ready``, ``more``,
        ``no-change`` or ``undecided``."""
        return self._state.endpoints()

    def step(self, commit: str) -> BisectStep:
        """The step at ``commit`` with its runs so far: ``decision`` is ``good``,
        ``bad``, ``more`` or ``skip``."""
        return self._state.step(commit=commit)

    def status(self) -> BisectStatus:
        """Where the bisection stands: phase, commits, culprit, next, notes."""
        return self._state.status()

    def answer(self, step: BisectStep) -> None:
        """Record the answer ``step`` gave (for the status' doubtful-answer notes)."""
        self._state = self._state.with_answer(commit=step.commit, step=step)

    def measure_endpoints(self, measure: Measure, *,
                          on_run: Callable[[str, list[float]], None] | None = None) -> BisectEndpoints:
        """Run ``measure`` at both endpoints, ``endpoint_runs`` at a time each, until
        their comparison decides (``ready``, ``no-change`` or ``undecided``)."""
        batch = int(self._state.options["endpoint_runs"])
        e = self.endpoints()
        while e.decision == "more":
            for commit in (self.good, self.bad):
                for _ in range(batch):
                    v = _values(measure(commit))
                    self.add(commit, v)
                    if on_run is not None:
                        on_run(commit, v)
            e = self.endpoints()
        return e

    def test(self, commit: str, measure: Measure, *,
             on_run: Callable[[str, list[float]], None] | None = None) -> BisectStep:
        """Run ``measure`` at ``commit`` until its step decides (``good``, ``bad`` or
        ``skip`` after its maximum of runs, ``BisectStep.max_runs``)."""
        s = self.step(commit)
        while s.decision == "more":
            v = _values(measure(s.commit))
            self.add(s.commit, v)
            if on_run is not None:
                on_run(s.commit, v)
            s = self.step(s.commit)
        return s

    def run(self, measure: Measure, *, on_step: Callable[[BisectStep], None] | None = None,
            max_steps: int = 1000) -> BisectStatus:
        """Bisect with ``measure``: the endpoints, then one step at a time at the
        commit :meth:`status` names next (the posterior median), until the culprit is
        found, the range shows no change, or nothing is left to test. Returns the
        final status."""
        self.measure_endpoints(measure)
        st = self.status()
        for _ in range(max_steps):
            if st.phase != "bisecting" or st.next is None:
                return st
            nxt = st.next["commits"][0]
            if self.step(nxt).decision != "more":
                # its step is decided, but the culprit is not yet sure: the status asks
                # for more runs there (docs/bisect.md §2.4), at least one
                self.add(nxt, _values(measure(nxt)))
            s = self.test(nxt, measure)
            self.answer(s)
            if on_step is not None:
                on_step(s)
            st = self.status()
        return st


def rev_list(good: str, bad: str, *, repo: str | os.PathLike[str] = ".") -> list[str]:
    """The commits of ``good..bad`` in history order as full hashes, the good one first and
    the bad one last (``git rev-list --reverse --topo-order BAD ^GOOD`` in ``repo``). A
    merge's side branches are placed in git's topological order: the search treats
    the range as one line (docs/bisect.md §4)."""
    def git(*args: str) -> str:
        try:
            out = subprocess.run(["git", "-C", os.fspath(repo), *args], capture_output=True, text=True, check=False)
        except OSError as e:
            raise SchedlabError(f"cannot run git: {e}") from None
        if out.returncode != 0:
            raise DomainError(f"git {' '.join(args)}: {out.stderr.strip() or f'exit code {out.returncode}'}")
        return out.stdout

    g = git("rev-parse", "--verify", "--end-of-options", f"{good}^{{commit}}").strip()
    b = git("rev-parse", "--verify", "--end-of-options", f"{bad}^{{commit}}").strip()
    between = git("rev-list", "--reverse", "--topo-order", b, f"^{g}").split()
    if not between:
        raise DomainError(f"no commit between {good} and {bad}: is {good} an ancestor of {bad}?")
    if between[-1] != b:
        raise DomainError(f"{bad} is not the last commit of {good}..{bad} in topological order")
    return [g, *between]


def read_results(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *, commits: Sequence[str],
                 metric: str | None = None, direction: str | None = None, **settings: Any) -> tuple[Bisection, list[str]]:
    """The bisection over ``commits`` made of results that already exist, named by
    commit (MMTests runs, lkp result roots, result files; directories or archives),
    and the warnings of reading them. ``metric`` as ``schedlab series`` names it
    (``benchmark operation`` for MMTests, the lkp key, the reader's metric); the one
    there is when not given. ``settings`` are :class:`Bisection`'s.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> files = []
    >>> for commit, level in [("a" * 40, 10.0), ("b" * 40, 11.0)]:  # perf stat -x, files, one per commit
    ...     files.append(os.path.join(d, commit + ".csv"))
    ...     with open(files[-1], "w") as f:
    ...         _ = f.write("".join(f"{level * (1 + e)},msec,task-clock,1,100.00,,\\n" for e in (0, .01, -.01, .005, -.005)))
    >>> b, warnings = read_results(files, commits=["a" * 40, "c" * 40, "b" * 40], direction="lower")
    >>> b.state.metric, b.status().phase, b.status().next["commits"]
    ('task-clock', 'bisecting', ['cccccccccccccccccccccccccccccccccccccccc'])
    """
    many = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    state, warnings = _core.bisect_read_results([os.fspath(p) for p in many], commits=[str(c) for c in commits],
                                                metric=metric, direction=direction, **settings)
    return Bisection.of_state(state), list(warnings)

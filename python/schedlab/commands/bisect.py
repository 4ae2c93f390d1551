"""``schedlab bisect``: which commit, deciding each step under noise (docs/bisect.md).

``git bisect start BAD GOOD && git bisect run schedlab bisect run -- CMD...``: CMD runs
the benchmark once and prints its number (or writes a result file, ``--result``).
The first step measures both endpoints (checking each out and back) until they show a
change the steps can decide; every step then runs CMD until the commit is bad or good
at the step's error rate, or answers skip after its maximum of runs (``--max-runs``, by
default four times the runs the endpoints say a step takes), printing its evidence
after every run. ``status`` and ``next`` say where a bisection stands and what to run
next, over that state or over results that already exist, named by commit.

Exit codes of ``run`` (git bisect run's): 0 good, 1 bad, 125 skip (the commit cannot be
tested, or is undecided after its maximum of runs), 128 abort (bad input or state, no change in
the range, endpoints that cannot be told apart; named on stderr), 130 interrupted.
``status``/``next``: 0, or 2 on bad input.
"""

from __future__ import annotations

import argparse
import os
import sys

from .. import _core, _flags

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from argparse import Namespace
    from argparse import _SubParsersAction as SubparsersSpec
    from collections.abc import Sequence
    from typing import Any

    from ..bisect import Bisection

#: git bisect run's codes, as the core defines them (src/bisect/step.rs).
GOOD, BAD, SKIP, ABORT = _core.BISECT_EXIT_CODES


def _abort_on_usage_error(parser: argparse.ArgumentParser) -> None:
    """Make a usage error of ``parser`` (``bisect run``) exit 128, which aborts ``git
    bisect run``: argparse's 2 would mark the commit bad."""

    def error(self: argparse.ArgumentParser, message: str) -> Any:
        self.print_usage(sys.stderr)
        self.exit(ABORT, f"{self.prog}: error: {message}\n")

    parser.__class__ = type("_AbortParser", (type(parser),), {"error": error})


def _settings(p: argparse.ArgumentParser) -> None:
    from .._core import bisect_defaults

    d = bisect_defaults()
    p.add_argument("--alpha", type=_flags.probability, default=None,
                   help=f"the chance, at most, of naming a wrong commit, split over the steps (default {d['alpha']})")
    p.add_argument("--margin", type=_flags.percentage, default=None, metavar="PCT",
                   help="endpoints within +-PCT percent of each other are no change: nothing to bisect "
                        f"(default {d['margin']})")
    p.add_argument("--min-runs", type=_flags.int_in(1, 1 << 20), default=None, metavar="N",
                   help=f"runs at a step before it may decide (default {d['min_runs']})")
    p.add_argument("--max-runs", type=_flags.int_in(1, 1 << 20), default=None, metavar="N",
                   help="runs after which an undecided step answers skip (default: four times the runs a step is "
                        "expected to take at the endpoints' change and noise, at least 50; docs/bisect.md)")
    p.add_argument("--endpoint-runs", type=_flags.int_in(2, 1 << 20), default=None, metavar="N",
                   help=f"runs at each endpoint at a time (default {d['endpoint_runs']})")
    p.add_argument("--max-endpoint-runs", type=_flags.int_in(2, 1 << 20), default=None, metavar="N",
                   help=f"runs an endpoint may take before giving up (default {d['max_endpoint_runs']})")
    direction = p.add_mutually_exclusive_group()
    direction.add_argument("--higher-is-better", dest="direction", action="store_const", const="higher",
                           help="the metric is a throughput (default: the result file's or the metric's own)")
    direction.add_argument("--lower-is-better", dest="direction", action="store_const", const="lower",
                           help="the metric is a time or latency")
    p.add_argument("--metric", metavar="NAME",
                   help="the metric to bisect: a result file's metric, 'benchmark operation' of MMTests, an lkp "
                        "key (default: the only one there is)")


def _setting_values(args: Namespace) -> dict[str, Any]:
    return {k: getattr(args, k) for k in ("alpha", "margin", "min_runs", "max_runs", "endpoint_runs",
                                          "max_endpoint_runs")}


def register(sub: SubparsersSpec) -> None:
    p = sub.add_parser("bisect", help="which commit: git bisect run with statistics, and where a bisection stands",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    subs = p.add_subparsers(dest="bisect_command", metavar="SUBCOMMAND")
    p.set_defaults(func=lambda args: _usage(p))

    r = subs.add_parser("run", help="one step of git bisect run: run CMD until the commit is decided",
                        description="The command of 'git bisect run': run CMD at the checked-out commit until it is "
                                    "bad or good at the step's error rate. " + __doc__.split("\n\n")[2],
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    _abort_on_usage_error(r)
    r.add_argument("cmd", nargs=argparse.REMAINDER, metavar="-- CMD",
                   help="the benchmark, run once per run: prints its value as the last number of its output, or "
                        "writes --result")
    r.add_argument("--result", metavar="PATH",
                   help="the file or directory CMD writes each run (perf stat, hyperfine, fio, pyperf, ... JSON or "
                        "text, an MMTests tree, an lkp result root; docs/readers.md), read after each run")
    r.add_argument("--good", metavar="REV", help="the good endpoint (default: git bisect's good commit)")
    r.add_argument("--state", metavar="FILE",
                   help="the state file (default: schedlab-bisect/state.json in the git directory)")
    _settings(r)
    r.set_defaults(func=run_step)

    for name, what in (("status", "where a bisection stands: good and bad commits, the likely culprit, notes"),
                       ("next", "the commit to run next and how many runs it needs")):
        s = subs.add_parser(name, help=what, description=f"{what[0].upper()}{what[1:]}, from the state of "
                            "'schedlab bisect run' or from results that already exist, named by commit (MMTests "
                            "runs, lkp result roots, result files), in the commit order of git rev-list.")
        s.add_argument("paths", nargs="*", metavar="PATH",
                       help="result directories, archives or files named by commit (default: the run's state)")
        s.add_argument("--good", metavar="REV", help="the good endpoint (with PATHs)")
        s.add_argument("--bad", metavar="REV", help="the bad endpoint (with PATHs)")
        s.add_argument("--repo", metavar="DIR", default=".", help="the git repository (default: the current directory)")
        s.add_argument("--state", metavar="FILE", help="the state of 'schedlab bisect run' (default: in the git directory)")
        s.add_argument("--format", choices=("text", "json"), default="text", help="output (default: text)")
        _settings(s)
        s.set_defaults(func=show_status if name == "status" else show_next)

    x = subs.add_parser("reset", help="forget the state of 'schedlab bisect run' (git bisect reset keeps it)")
    x.add_argument("--state", metavar="FILE", help="the state file (default: in the git directory)")
    x.set_defaults(func=reset)


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


class _Abort(Exception):
    """A condition that aborts git bisect run (exit 128), with what to do."""


def _git(*args: str, check: bool = True, cwd: str | None = None) -> str:
    import subprocess

    try:
        out = subprocess.run(["git", *args], capture_output=True, text=True, check=False, cwd=cwd)
    except OSError as e:
        raise _Abort(f"cannot run git: {e}") from None
    if check and out.returncode != 0:
        raise _Abort(f"git {' '.join(args)}: {out.stderr.strip() or f'exit code {out.returncode}'}")
    return out.stdout.strip() if out.returncode == 0 else ""


def _state_path(given: str | None, cwd: str | None = None) -> str:
    if given:
        return given
    return os.path.join(_git("rev-parse", "--git-path", "schedlab-bisect", cwd=cwd), "state.json")


def _save(b: Bisection, path: str) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    b.save(path)


def _bisect_refs() -> tuple[str, list[str], str]:
    """The bad commit, the good commits and git's log start of the current git bisect session."""
    if not os.path.exists(_git("rev-parse", "--git-path", "BISECT_START")):
        raise _Abort("not bisecting: start with 'git bisect start BAD GOOD', then 'git bisect run schedlab bisect "
                     "run -- CMD...'")
    if os.path.exists(_git("rev-parse", "--git-path", "BISECT_HEAD")):
        raise _Abort("git bisect --no-checkout is not supported: schedlab checks out the endpoints to measure them")
    terms = ("bad", "good")
    tf = _git("rev-parse", "--git-path", "BISECT_TERMS")
    if os.path.exists(tf):
        with open(tf, encoding="utf-8") as f:
            lines = f.read().split()
        if len(lines) >= 2:
            terms = (lines[0], lines[1])
    refs = _git("for-each-ref", "--format=%(objectname) %(refname)", "refs/bisect/").splitlines()
    bad = [o for o, n in (r.split(" ", 1) for r in refs) if n == f"refs/bisect/{terms[0]}"]
    good = [o for o, n in (r.split(" ", 1) for r in refs) if n.startswith(f"refs/bisect/{terms[1]}-")]
    if not bad or not good:
        raise _Abort(f"git bisect has no {terms[0]} and {terms[1]} commit yet: give both to 'git bisect start'")
    log = _git("rev-parse", "--git-path", "BISECT_LOG")
    with open(log, encoding="utf-8", errors="surrogateescape") as f:
        first = f.readline().strip()
    return bad[0], good, first


class _Runner:
    """Runs CMD once and reads its value(s)."""

    def __init__(self, cmd: Sequence[str], result: str | None, metric: str | None) -> None:
        self.cmd, self.result, self.metric = list(cmd), result, metric
        self.found_metric: str | None = metric
        self.found_direction = "unknown"
        self._last: tuple[int, int, bytes] | None = None

    def _signature(self) -> tuple[int, int, bytes] | None:
        import hashlib

        if self.result is None or not os.path.exists(self.result):
            return None
        h = hashlib.sha256()
        newest, count = 0, 0
        paths = [self.result]
        if os.path.isdir(self.result):
            paths = [os.path.join(d, f) for d, _, fs in os.walk(self.result) for f in fs]
        for p in sorted(paths):
            st = os.stat(p)
            newest, count = max(newest, st.st_mtime_ns), count + 1
            h.update(f"{p}\0{st.st_size}\0{st.st_mtime_ns}\0".encode("utf-8", "surrogateescape"))
        return newest, count, h.digest()

    def once(self) -> tuple[list[float] | None, str | None]:
        """(values, None), or (None, why the run failed)."""
        import subprocess

        before = self._signature()
        try:
            out = subprocess.run(self.cmd, stdout=subprocess.PIPE, check=False)
        except OSError as e:
            raise _Abort(f"cannot run {self.cmd[0]}: {e.strerror or e}") from None
        text = out.stdout.decode("utf-8", "replace")
        if out.returncode != 0:
            tail = [line for line in text.splitlines() if line.strip()][-1:]
            what = f"exit code {out.returncode}" + (f" (last output: {tail[0].strip()[:200]})" if tail else "")
            if out.returncode < 0:
                what = f"killed by signal {-out.returncode}"
            return None, what
        if self.result is None:
            return [_last_number(text)], None
        after = self._signature()
        if after is None:
            raise _Abort(f"{self.cmd[0]} did not write {self.result} (--result)")
        if after == before:
            raise _Abort(f"{self.result} is unchanged since the run before: {self.cmd[0]} must write a fresh result "
                         "each run (--result)")
        from .._core import bisect_values_at

        values, metric, direction = bisect_values_at(self.result, metric=self.metric)
        self.found_metric, self.found_direction = metric, direction
        return values, None


def _last_number(text: str) -> float:
    import math
    import re

    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise _Abort("CMD printed nothing: it must print its measured value (the last number of its output), or "
                     "write a result file (--result)")
    numbers = re.findall(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", lines[-1])
    if not numbers:
        raise _Abort(f"CMD's last line holds no number: '{lines[-1].strip()[:200]}'; print the measured value last, "
                     "or give --result")
    v = float(numbers[-1])
    if not math.isfinite(v):
        raise _Abort(f"CMD printed {numbers[-1]}, not a finite number")
    return v


def run_step(args: Namespace) -> int:
    try:
        return _run_step(args)
    except _Abort as e:
        print(f"schedlab bisect run: abort: {e}", file=sys.stderr)
        return ABORT
    except KeyboardInterrupt:
        print("schedlab bisect run: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # every other failure aborts the bisection: exit 2 would mark the commit bad
        from ..errors import SchedlabError

        if not isinstance(e, (SchedlabError, OSError)):
            raise
        print(f"schedlab bisect run: abort: {e}", file=sys.stderr)
        return ABORT


def _checkout(commit: str) -> None:
    _git("checkout", "-q", "--detach", commit)


def _run_step(args: Namespace) -> int:
    from ..bisect import Bisection, rev_list

    cmd = list(args.cmd)
    if cmd[:1] == ["--"]:
        cmd = cmd[1:]
    if not cmd:
        raise _Abort("give the benchmark command after '--': schedlab bisect run [options] -- CMD...")
    bad, goods, session = _bisect_refs()
    if args.good:
        good = _git("rev-parse", "--verify", "--end-of-options", f"{args.good}^{{commit}}")
    elif len(goods) == 1:
        good = goods[0]
    else:
        good = ""
    head = _git("rev-parse", "HEAD")
    path = _state_path(args.state)
    runner = _Runner(cmd, args.result, args.metric)
    b: Bisection | None = None
    if os.path.exists(path):
        b = Bisection.load(path)
        if b.state.session != session:
            print(f"schedlab bisect: {path} is of another git bisect session: starting afresh", file=sys.stderr)
            b = None
    if b is None:
        if not good:
            raise _Abort(f"git bisect has {len(goods)} good commits: give the one to measure with --good REV")
        commits = rev_list(good, bad)
        direction = args.direction or "unknown"
        if direction == "unknown" and args.metric:
            from ..verdicts import direction as direction_of

            direction = direction_of(args.metric)
        from .._core import BisectState

        b = Bisection.of_state(BisectState(commits=commits, metric=args.metric, direction=direction, session=session,
                                           **_setting_values(args)))
    try:
        b.state.commit(head)
    except Exception:
        raise _Abort(f"HEAD {head[:12]} is not in the range of {path} ({b.good[:12]}..{b.bad[:12]}): "
                     "'schedlab bisect reset' to start afresh") from None
    steps_alpha = b.status().step_alpha
    try:
        e = b.endpoints()
        if e.decision == "more":
            e = _measure_endpoints(b, runner, path, head)
        print(f"schedlab bisect: {e.line()}")
        if e.decision == "no-change":
            raise _Abort("the endpoints show no change beyond the margin: nothing to bisect (git bisect reset)")
        if e.decision == "undecided":
            raise _Abort("the endpoints' change cannot be bisected at this noise within --max-endpoint-runs (the "
                         "line above says why): nothing to bisect")
        if head in (b.good, b.bad):
            raise _Abort(f"git checked out an endpoint ({head[:12]}): not a step")
        position = b.state.commits.index(head)
        print(f"schedlab bisect: step at {head[:12]} (position {position} of {len(b.state.commits) - 1}); each step "
              f"decided at an error rate of {steps_alpha:.4g} by the posterior over the culprit (Bayes-factor SPRT, "
              "docs/bisect.md)")
        s = b.step(head)
        while s.decision == "more":
            values, failure = runner.once()
            if failure is not None:
                b.fail(head, failure)
                _save(b, path)
                print(f"schedlab bisect: {head[:12]}: the benchmark failed: {failure}: skip", file=sys.stderr)
                return SKIP
            b.add(head, values or [])
            s = b.step(head)
            _save(b, path)
            print(f"schedlab bisect: {s.line()}", flush=True)
        b.answer(s)
        _save(b, path)
        st = b.status()
        if st.culprit is not None:
            c = st.culprit
            where = c["commits"][0][:12] if len(c["commits"]) == 1 else f"{len(c['commits'])} commits"
            print(f"schedlab bisect: culprit so far: {where} with probability {c['probability']:.4f}")
        for n in st.notes:
            print(f"schedlab bisect: note: {n}")
        return SKIP if s.exit_code is None else s.exit_code  # the loop ends on a decision
    finally:
        if _git("rev-parse", "HEAD", check=False) != head:
            _checkout(head)


def _measure_endpoints(b: Bisection, runner: _Runner, path: str, head: str) -> Any:
    """Run CMD at both endpoints, a batch at a time, until they decide; back at ``head`` after."""
    batch = int(b.state.options["endpoint_runs"])
    e = b.endpoints()
    try:
        while e.decision == "more":
            for commit in (b.good, b.bad):
                _checkout(commit)
                for _ in range(batch):
                    values, failure = runner.once()
                    if failure is not None:
                        raise _Abort(f"the benchmark failed at the endpoint {commit[:12]}: {failure}")
                    b.add(commit, values or [])
                _save(b, path)
            e = b.endpoints()
            print(f"schedlab bisect: {e.line()}", flush=True)
    finally:
        _checkout(head)
    if (b.state.metric is None and runner.found_metric) or (b.state.direction == "unknown"
                                                             and runner.found_direction != "unknown"):
        direction = runner.found_direction if b.state.direction == "unknown" else b.state.direction
        b.set_metric(b.state.metric or runner.found_metric, direction)
        _save(b, path)
        e = b.endpoints()
    return e


def _load_status(args: Namespace) -> Any:
    from ..bisect import Bisection, read_results, rev_list

    if not args.paths:
        path = _state_path(args.state, cwd=args.repo)
        if not os.path.exists(path):
            from ..errors import FileNotFoundError

            raise FileNotFoundError(f"{path}: no 'schedlab bisect run' state here; give result PATHs with --good "
                                    "and --bad", path)
        return Bisection.load(path).status()
    if not (args.good and args.bad):
        from ..errors import DomainError

        raise DomainError("with result PATHs, give the range with --good REV and --bad REV")
    commits = rev_list(args.good, args.bad, repo=args.repo)
    b, warnings = read_results(args.paths, commits=commits, metric=args.metric, direction=args.direction,
                               **_setting_values(args))
    for w in warnings:
        print(f"schedlab bisect: warning: {w}", file=sys.stderr)
    return b.status()


def show_status(args: Namespace) -> int:
    try:
        st = _load_status(args)
    except _Abort as e:
        from ..errors import DomainError

        raise DomainError(str(e)) from None
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(st.to_dict(), indent=2, default=str) + "\n")
    else:
        sys.stdout.write(st.text())
    return 0


def show_next(args: Namespace) -> int:
    try:
        st = _load_status(args)
    except _Abort as e:
        from ..errors import DomainError

        raise DomainError(str(e)) from None
    n = st.next
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps({"phase": st.phase, "next": n}, indent=2) + "\n")
    elif n is None:
        print(f"none: {st.phase}")
    else:
        for c in n["commits"]:
            print(f"{c} {n['runs']}")
        print(f"# {n['why']}", file=sys.stderr)
    return 0


def reset(args: Namespace) -> int:
    try:
        path = _state_path(args.state)
    except _Abort as e:
        from ..errors import DomainError

        raise DomainError(str(e)) from None
    if os.path.exists(path):
        os.remove(path)
        print(f"schedlab bisect: removed {path}")
    else:
        print(f"schedlab bisect: no state at {path}")
    return 0

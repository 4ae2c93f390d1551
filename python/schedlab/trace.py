"""Why did it change: sets of kernel traces compared with verdicts (docs/trace-compare.md).

Each trace (a trace.dat of version 6 or 7, ``trace-cmd report`` or tracefs text, or
``perf script`` output) is one run: the Rust core streams its events once and measures
idle states (entries, residency, the kernel's above/below, idle-period lengths, the
tick), scheduling (wakeup latency, run-queue wait after preemption, run time,
voluntary and involuntary switches, migrations, CPU busy share), frequency residency
and the kernel's own PELT signals, machine-wide, per CPU and per task group; with
``governors`` it also replays the trace's idle periods through those governors.
:func:`compare` turns groups of traces (kernels, settings) into one
:class:`~schedlab.table.Comparison`: every metric of every group against the baseline
with the project's verdicts (Welch or Mann-Whitney, Benjamini-Hochberg across every
metric, equivalence, runs needed), the biggest changes first.

>>> from schedlab import examples
>>> runs = examples.path("trace")   # a periodic task: 3 runs on a menu kernel, 3 on a teo one
>>> c = compare({"menu": sorted(runs.glob("menu-*.txt")), "teo": sorted(runs.glob("teo-*.txt"))},
...             states=examples.path("idle", "states_x86.csv"))
>>> for r in c.rows[:4]:   # the biggest changes first: C6 (never entered on menu), then a latency
...     print(r.group, "|", r.name, "|", r.cells[1].verdict)
machine | C6 residency % | changed
machine | C6 entries/s | changed
cpu1 | C6 residency % | changed
all | wakeup latency p90 (µs) | worse
>>> exit_code(c)
1
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Union

from . import _core
from ._core import TraceMetrics, TraceOptions

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from .table import Comparison

__all__ = ["TraceMetrics", "TraceOptions", "compare", "compare_metrics", "exit_code", "metrics", "perf_latency",
           "task_states", "timehist"]

PathLike = Union[str, "os.PathLike[str]"]
#: A group's traces: one path, or several.
Paths = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]
#: ``{name: paths}``, or ``(name, paths)`` pairs.
GroupsLike = Mapping[str, Paths] | Sequence[tuple[str, Paths]]


def _paths(v: Paths) -> list[str]:
    if isinstance(v, (str, os.PathLike)):
        return [os.fspath(v)]
    return [os.fspath(p) for p in v]


def _groups(groups: GroupsLike, baseline: str | None) -> list[tuple[str, list[str]]]:
    items = list(groups.items()) if isinstance(groups, Mapping) else list(groups)
    out = [(str(name), _paths(p)) for name, p in items]
    if baseline is not None:
        names = [n for n, _ in out]
        if baseline not in names:
            raise KeyError(f"baseline {baseline!r} is not one of the groups {names}")
        out.sort(key=lambda g: g[0] != baseline)
    return out


def _options(states: PathLike | None, comm: Iterable[str], pid: Iterable[str | Iterable[int]],
             governors: Iterable[str], hz: int | None, strict: bool,
             util_tasks: Iterable[str | int] = ()) -> TraceOptions:
    pids = [p if isinstance(p, str) else ",".join(str(x) for x in p) for p in pid]
    return TraceOptions(states=None if states is None else os.fspath(states), comm=list(comm), pid=pids,
                        governors=list(governors), hz=hz, strict=strict, util_task=[str(t) for t in util_tasks])


def metrics(path: PathLike, *, states: PathLike | None = None, comm: Iterable[str] = (),
            pid: Iterable[str | Iterable[int]] = (), governors: Iterable[str] = (), hz: int | None = None,
            strict: bool = False, threads: int | None = None,
            util_tasks: Iterable[str | int] = ()) -> list[TraceMetrics]:
    """The metrics of every trace at ``path`` (a trace, or a directory or archive of
    them: its ``*.dat`` files, else its ``*.txt``/``*.trace`` files).

    ``states``: the idle-state table (a sysfs ``cpuidle`` directory, a ``grep .`` dump,
    a CSV or a preset name): state names, and the kernel's above/below rule.
    ``comm``: task groups by name (``*`` patterns); ``pid``: task groups by pid list.
    ``governors``: replay each trace's idle periods through these (``menu``,
    ``teo@6.12``; needs ``states``). ``hz``: the traced kernel's CONFIG_HZ.
    ``util_tasks``: tasks (names, or pids) whose util_avg and util_est are replayed
    from their scheduling events with the kernel's PELT (scope ``pelt comm=NAME`` or
    ``pelt pid=N``; docs/trace-compare.md §3.4).

    >>> from schedlab import examples
    >>> [m] = metrics(examples.path("trace", "menu-1.txt"))
    >>> df = m.to_pandas()
    >>> sorted(set(df["scope"]))
    ['all', 'cpu1', 'machine']
    >>> df.set_index(["scope", "name"]).loc[("all", "wakeups/s"), "unit"]
    '/s'
    >>> [m] = metrics(examples.path("trace", "menu-1.txt"), util_tasks=["app"])
    >>> sorted(m.to_pandas().query("scope == 'pelt comm=app'")["name"])[:3]
    ['util_avg max', 'util_avg mean', 'util_avg p90']
    """
    opts = _options(states, comm, pid, governors, hz, strict, util_tasks)
    return _core.trace_metrics(os.fspath(path), opts, threads=threads)


def compare(groups: GroupsLike, *, baseline: str | None = None, states: PathLike | None = None,
            comm: Iterable[str] = (), pid: Iterable[str | Iterable[int]] = (), governors: Iterable[str] = (),
            group_governors: Mapping[str, str] | None = None, test: str = "welch", alpha: float | None = None,
            margin: float | None = None, power: float | None = None, hz: int | None = None,
            strict: bool = False, threads: int | None = None, util_tasks: Iterable[str | int] = ()) -> Comparison:
    """Groups of traces compared, the first (or ``baseline``) the baseline.

    ``groups``: ``{name: paths}`` (or ``(name, paths)`` pairs); each path a trace, a
    directory or an archive of them. ``group_governors``: the governor each group's
    kernel ran (``{"base": "menu", "head": "teo"}``): its replays split the change in
    the idle-state mix into what the governor chose and what the workload did (needs
    ``states``). ``test``, ``alpha``, ``margin``, ``power``: the verdict rule
    (docs/verdicts.md). The other arguments are those of :func:`metrics`.

    >>> from schedlab import examples
    >>> t = examples.path("trace", "menu-1.txt")
    >>> c = compare([("a", [t, t]), ("b", [t, t])], comm=["app"])
    >>> sorted({r.group for r in c.rows})
    ['all', 'comm=app', 'cpu1', 'machine']
    """
    g = _groups(groups, baseline)
    own = dict(group_governors or {})
    unknown = set(own) - {n for n, _ in g}
    if unknown:
        raise KeyError(f"group_governors names groups that are not given: {sorted(unknown)}")
    opts = _options(states, comm, pid, governors, hz, strict, util_tasks)
    c = _core.trace_compare([(n, p, own.get(n)) for n, p in g], opts, test=test, alpha=alpha, margin=margin,
                            power=power, threads=threads)
    return c


def compare_metrics(groups: Mapping[str, Sequence[TraceMetrics]] | Sequence[tuple[str, Sequence[TraceMetrics]]], *,
                    baseline: str | None = None, group_governors: Mapping[str, str] | None = None,
                    test: str = "welch", alpha: float | None = None, margin: float | None = None,
                    power: float | None = None, threads: int | None = None) -> Comparison:
    """:func:`compare` of traces already measured (:func:`metrics`; what
    :func:`schedlab.distributed.trace_compare` reduces).

    >>> from schedlab import examples
    >>> ms = metrics(examples.path("trace", "menu-1.txt"))
    >>> compare_metrics({"a": ms * 2, "b": ms * 2}).kernels
    ['a', 'b']
    """
    items = list(groups.items()) if isinstance(groups, Mapping) else list(groups)
    if baseline is not None:
        items.sort(key=lambda x: x[0] != baseline)
    own = dict(group_governors or {})
    return _core.trace_compare_metrics([(str(n), list(ms), own.get(str(n))) for n, ms in items], test=test,
                                       alpha=alpha, margin=margin, power=power, threads=threads)


def exit_code(comparison: Comparison, fail_on: str = "regression") -> int:
    """The exit code ``schedlab trace compare`` gives for ``comparison``, as batch
    mode does (docs/batch.md): 1 for a row that fails under ``fail_on``, 3 for an
    inconclusive one with ``fail_on="inconclusive"``, else 0.

    >>> from schedlab import examples
    >>> t = examples.path("trace", "menu-1.txt")
    >>> exit_code(compare({"a": [t, t], "b": [t, t]}))
    0
    """
    return _core.trace_exit_code(comparison, fail_on)


def timehist(path: PathLike, *, strict: bool = False) -> pd.DataFrame:
    """Every ``sched_switch`` of the trace at ``path`` as ``perf sched timehist``
    computes it: the task switched out, its wait off the CPU before the switch-in
    (``wait_ns``), the wakeup-to-switch-in delay (``delay_ns``) and its run time
    (``run_ns``), ns (docs/trace-compare.md §3.2).

    >>> from schedlab import examples
    >>> df = timehist(examples.path("trace", "menu-1.txt"))
    >>> # app woken at 100.000815 s, in at .000819, out at .001109: 4 µs delay, 290 µs run
    >>> df.loc[df.comm == "app", ["delay_ns", "run_ns"]].iloc[0].tolist()
    [4000, 290000]
    """
    import pandas as pd

    return pd.DataFrame(_core.trace_timehist(os.fspath(path), _options(None, (), (), (), None, strict)))


def perf_latency(path: PathLike, *, strict: bool = False) -> pd.DataFrame:
    """``perf sched latency -p``'s per-task table of the trace at ``path``, as perf
    6.1 computes it (docs/trace-compare.md §3.2): a delay runs from a ``sched_wakeup`` /
    ``sched_wakeup_new`` or a switch-out in state ``R`` to the next switch-in;
    ``avg`` = ``total_delay_ns // switches``.

    >>> from schedlab import examples
    >>> df = perf_latency(examples.path("trace", "menu-1.txt"))
    >>> # the kworker is woken 16 times (grep -c 'comm=kworker' in the file), each then switched in
    >>> int(df.set_index("comm").loc["kworker/1:1", "switches"])
    16
    """
    import pandas as pd

    return pd.DataFrame(_core.trace_perf_latency(os.fspath(path), strict=strict))


def task_states(path: PathLike, *, wakeup_new: bool = True, strict: bool = False) -> pd.DataFrame:
    """The time each task spent in each state of the trace at ``path``, as LISA's tasks
    analysis counts it (docs/trace-compare.md §3.2): per pid, task name and state (the
    kernel's ``prev_state`` number, 512 waking, 8192 running), the summed ``time_ns`` and
    the ``count`` of updates.

    >>> from schedlab import examples
    >>> df = task_states(examples.path("trace", "menu-1.txt"))
    >>> # 80 wakeups and 16 preemptions of app, each followed by a switch to it
    >>> df[(df.comm == "app") & (df.state == 8192)]["count"].tolist()
    [96]
    """
    import pandas as pd

    return pd.DataFrame(_core.trace_task_states(os.fspath(path), wakeup_new=wakeup_new, strict=strict))

"""cpuidle governor simulation: the kernel's ``menu`` and ``teo`` replayed exactly.

Give an idle trace (one row per idle period of one CPU) and an idle-state table, and
get, per period, the state each governor version picks, whether it stops the tick, how
the period ends, and the governor's internal state — equal to the integer to what the
kernel's own C code computes (menu of 4.18, 4.19, 4.20, 6.1, 6.6, 6.12 and 6.18; teo of
5.1, 6.1, 6.6, 6.12 and 6.18). The replay runs in Rust with the GIL released.

Inputs
------
*States*: a :class:`StateTable`, loaded once by the core from a CSV path
(``name,exit_latency_us,target_residency_us,flags`` with ``P`` for the polling state,
optional ``disable`` and ``power_mw`` columns), a sysfs ``cpuidle`` directory or a
``grep . .../cpuidle/state*/*`` dump, a preset name (see :func:`presets`), or a
DataFrame/mapping with those columns. Every function taking states takes any of these;
a :class:`StateTable` is handed to the core as it is.

*Trace*: a :class:`Trace` (one row per idle period of one CPU), made once from a CSV
path, a DataFrame/mapping or arrays with the columns ``sleep_length_ns``,
``next_tick_ns``, ``wake_ns`` (-1 = no wakeup before the timer), ``tick_stopped`` (0/1),
``latency_req_ns`` (-1 = no limit), and optionally ``nr_iowait`` and ``cpu_load``
(:func:`trace`); read from ftrace text with :func:`read_ftrace`, or synthesized with
:func:`periodic`, :func:`poisson`, :func:`bimodal` and :func:`tick_stopped`. Both are
frozen objects holding the core's values; ``to_pandas()`` gives a DataFrame view.

Bad input raises :class:`schedlab.ParseError` naming the file, line and column.

>>> from schedlab import idle
>>> trace = idle.poisson(2000, mean_ns=300_000, seed=1)
>>> df = idle.simulate("teo", trace, "intel-skx", kernel="6.12")
>>> list(df.columns[:12])  # doctest: +NORMALIZE_WHITESPACE
['step', 'sleep_length_ns', 'next_tick_ns', 'wake_ns', 'tick_stopped', 'latency_req_ns',
 'nr_iowait', 'idx', 'stop_tick', 'residency_ns', 'got_tick', 'poll_time_limit']
>>> idle.summarize(df, "intel-skx")[["usage", "above", "below"]]  # doctest: +SKIP

The inputs are loaded once and handed back as they are (no copy, no second check):

>>> import pickle
>>> table = idle.StateTable("intel-skx")
>>> table
StateTable(POLL 0/0 µs polling; C1 2/2 µs; C1E 10/20 µs; C6 133/600 µs)
>>> table.to_pandas().target_residency_us.tolist()
[0, 2, 20, 600]
>>> trace = idle.periodic(3, 2_000_000, seed=1)
>>> trace, trace.wake_ns.flags.writeable
(Trace(periods=3), False)
>>> pickle.loads(pickle.dumps(trace)) == trace, pickle.loads(pickle.dumps(table)) == table
(True, True)
>>> idle.simulate("menu", trace, table).idx.tolist()
[3, 3, 3]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union

import numpy as np
import numpy.typing as npt

from . import _core, _text
from ._int64 import check_int64
from .errors import DomainError, ParseError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "StateTable",
    "Trace",
    "trace",
    "GOVERNORS",
    "TRACE_COLUMNS",
    "simulate",
    "simulate_csv",
    "simulate_many",
    "summarize",
    "compare",
    "compare_summary",
    "states",
    "read_states",
    "parse_sysfs",
    "preset",
    "presets",
    "read_trace",
    "parse_trace",
    "read_ftrace",
    "parse_ftrace",
    "periodic",
    "poisson",
    "bimodal",
    "tick_stopped",
]

#: Every implemented ``(governor, kernel)`` pair.
GOVERNORS: tuple[tuple[str, str], ...] = tuple(_core.idle_governors())

#: Trace columns in their golden-file order (``nr_iowait`` and ``cpu_load`` are optional).
TRACE_COLUMNS: tuple[str, ...] = tuple(_core.IDLE_TRACE_COLUMNS)
_REQUIRED_TRACE = TRACE_COLUMNS[:5]
# the defaults are the core's (idle::trace::DEFAULT_HZ, idle::governor::Kernel::DEFAULT)
_HZ: int = _core.IDLE_DEFAULT_HZ
_KERNEL: str = _core.IDLE_DEFAULT_KERNEL

#: An idle-state table as the core validated it: ``StateTable(source)`` with a path, a
#: preset name or columns; ``.to_pandas()``, ``.name``, ``.exit_latency_us``, ... to look.
StateTable = _core.IdleStateTable

#: An idle trace holding its columns as read-only int64 arrays: see :func:`trace`.
Trace = _core.IdleTrace

StatesLike = Union[StateTable, str, "os.PathLike[str]", "pd.DataFrame", Mapping[str, Any]]
TraceLike = Union[Trace, str, "os.PathLike[str]", "pd.DataFrame", Mapping[str, Any]]


# --- inputs -----------------------------------------------------------------------


def states(source: StatesLike) -> StateTable:
    """An idle-state table (validated by the core: 1–10 states ordered shallow to deep).

    ``source`` is a CSV path, a sysfs ``cpuidle`` directory or dump, a preset name, a
    DataFrame/mapping with ``name``, ``exit_latency_us``, ``target_residency_us`` and
    ``flags`` (or ``polling``/``disabled``) columns, or a table (returned as it is).

    >>> from schedlab import idle
    >>> idle.states("intel-skx").to_pandas()[["name", "exit_latency_us", "target_residency_us", "polling"]]
       name  exit_latency_us  target_residency_us  polling
    0  POLL                0                    0     True
    1    C1                2                    2    False
    2   C1E               10                   20    False
    3    C6              133                  600    False
    """
    if isinstance(source, StateTable):
        return source
    if isinstance(source, (str, os.PathLike)):
        return StateTable(os.fspath(source))
    return StateTable(source)


def read_states(path: str | os.PathLike[str]) -> StateTable:
    """Read a state table: CSV file, sysfs ``cpuidle`` directory or ``grep .`` dump.

    >>> import tempfile, os
    >>> from schedlab import idle
    >>> p = os.path.join(tempfile.mkdtemp(), "s.csv")
    >>> _ = open(p, "w").write("name,exit_latency_us,target_residency_us,flags\\nWFI,1,1,-\\nOFF,150,1500,-\\n")
    >>> idle.read_states(p).name
    ['WFI', 'OFF']
    """
    return StateTable(os.fspath(path))


def parse_sysfs(text: str | bytes, path: str | None = None) -> StateTable:
    """A state table from the text of ``grep . /sys/devices/system/cpu/cpu0/cpuidle/state*/*``.

    sysfs has no flags; a state named ``POLL`` is taken as the polling state.

    >>> from schedlab import idle
    >>> dump = "/sys/x/cpuidle/state0/name:POLL\\n/sys/x/cpuidle/state0/latency:0\\n" \\
    ...        "/sys/x/cpuidle/state0/residency:0\\n/sys/x/cpuidle/state1/name:C1\\n" \\
    ...        "/sys/x/cpuidle/state1/latency:2\\n/sys/x/cpuidle/state1/residency:2\\n"
    >>> idle.parse_sysfs(dump).polling
    [True, False]
    """
    return StateTable.parse_sysfs(_text.data(text, path), path)


def preset(name: str) -> StateTable:
    """A named state table copied from the kernel (see :func:`presets`).

    >>> from schedlab import idle
    >>> idle.preset("arm-rk3399").name
    ['WFI', 'CPU_SLEEP', 'CLUSTER_SLEEP']
    """
    return StateTable.preset(name)


def presets() -> pd.DataFrame:
    """The preset state tables and where they come from.

    >>> from schedlab import idle
    >>> "intel-skx" in idle.presets().name.tolist()
    True
    """
    import pandas as pd

    rows = _core.idle_presets()
    return pd.DataFrame({"name": [r[0] for r in rows], "description": [r[1] for r in rows]})


def read_trace(path: str | os.PathLike[str]) -> Trace:
    """Read an idle trace CSV (header with at least the five required columns).

    >>> import tempfile, os
    >>> from schedlab import idle
    >>> p = os.path.join(tempfile.mkdtemp(), "t.csv")
    >>> _ = open(p, "w").write("sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns\\n2000000,750000,-1,0,-1\\n")
    >>> idle.read_trace(p).sleep_length_ns.tolist()
    [2000000]
    """
    return Trace.read_csv(os.fspath(path))


def parse_trace(text: str | bytes, path: str | None = None) -> Trace:
    """An idle trace from CSV text (``path`` names it in errors).

    >>> from schedlab import idle
    >>> idle.parse_trace("sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns\\n10,20,-1,0,-1\\n").wake_ns.tolist()
    [-1]
    """
    return Trace.parse_csv(_text.data(text, path), path)


def _column_array(d: Any, name: str, n: int | None) -> npt.NDArray[np.int64]:
    """A user's column as int64 (int64 arrays as they are; the trace copies them once)."""
    a = np.asarray(d[name])
    if a.ndim != 1:
        raise DomainError(f"trace column '{name}' must be 1-D")
    check_int64(a, f"trace column '{name}'")
    if a.dtype.kind == "b":
        a = a.astype(np.int64)
    elif a.dtype.kind == "f":
        if not np.all(np.isfinite(a)) or not np.all(a == np.round(a)):
            raise ParseError(f"trace column '{name}': expected integers (ns)", None, None, name)
        a = a.astype(np.int64)
    elif a.dtype.kind in "iu":
        a = a.astype(np.int64, copy=False)
    else:
        raise ParseError(f"trace column '{name}': expected integers, got {a.dtype}", None, None, name)
    if n is not None and len(a) != n:
        raise DomainError(f"trace column '{name}' has {len(a)} values, expected {n}")
    return a


def trace(source: TraceLike) -> Trace:
    """An idle trace, checked once by the core: from a CSV path, a DataFrame, a mapping
    of arrays, or a trace (returned as it is). Integer, boolean or whole-valued float
    columns are taken as int64 and copied once, so the trace owns what was checked: a
    later write to the given arrays does not reach it.

    >>> import numpy as np
    >>> from schedlab import idle
    >>> t = idle.trace({"sleep_length_ns": np.array([2_000_000]), "next_tick_ns": [750_000],
    ...                 "wake_ns": [-1], "tick_stopped": [0], "latency_req_ns": [-1]})
    >>> len(t), t.nr_iowait.tolist()
    (1, [0])
    """
    if isinstance(source, Trace):
        return source
    if isinstance(source, (str, os.PathLike)):
        return Trace.read_csv(os.fspath(source))
    cols = set(source.keys()) if isinstance(source, Mapping) else set(getattr(source, "columns", ()))
    for c in _REQUIRED_TRACE:
        if c not in cols:
            raise ParseError(
                f"trace: missing column '{c}' (expected {','.join(_REQUIRED_TRACE)})", None, None, c
            )
    first = _column_array(source, _REQUIRED_TRACE[0], None)
    n = len(first)
    kw = {c: _column_array(source, c, n) for c in TRACE_COLUMNS if c in cols}
    return Trace(**kw)


# the functions below take parameters named like these two
_states_of = states
_trace_of = trace


def read_ftrace(
    path: str | os.PathLike[str], hz: int = _HZ, strict: bool = False, sort: bool = False
) -> dict[int, Trace]:
    """Idle traces per CPU from ftrace text (``trace-cmd report`` or tracefs ``trace``)
    or a trace.dat.

    Needs the events ``power:cpu_idle``, and for timer information
    ``timer:hrtimer_start``, ``timer:hrtimer_cancel``, ``timer:hrtimer_expire_entry`` and
    ``timer:tick_stop``. Each :class:`Trace` has the trace columns plus ``cpu``,
    ``timestamp_ns`` (idle entry) and ``actual_state`` (what the traced kernel chose);
    ``.stats`` counts the approximations made (see the Rust docs of ``idle::ftrace``) and
    ``.notes`` says in words what was assumed, where the ring buffers lost events (an
    idle period a loss cuts is dropped, counted as ``stats["lost_periods"]``:
    docs/tracing.md §3.1) and which lines were skipped
    (a malformed line is skipped and counted, an error with ``strict``; events out of
    time order are an error unless ``sort``). ``hz`` is the traced kernel's CONFIG_HZ.

    >>> import tempfile, os
    >>> from schedlab import idle
    >>> p = os.path.join(tempfile.mkdtemp(), "trace.txt")
    >>> _ = open(p, "w").write(
    ...     "  <idle>-0 [002] d..1. 10.000000: cpu_idle: state=1 cpu_id=2\\n"
    ...     "  <idle>-0 [002] d..1. 10.000250: cpu_idle: state=4294967295 cpu_id=2\\n")
    >>> t = idle.read_ftrace(p)
    >>> t[2].wake_ns.tolist(), t[2].actual_state.tolist()
    ([250000], [1])
    """
    return _by_cpu(_core.idle_read_ftrace(os.fspath(path), int(hz), bool(strict), bool(sort)))


def parse_ftrace(
    text: str | bytes, hz: int = _HZ, path: str | None = None, strict: bool = False, sort: bool = False
) -> dict[int, Trace]:
    """Like :func:`read_ftrace` on text already in memory.

    >>> from schedlab import idle
    >>> t = idle.parse_ftrace("  <idle>-0 [000] 1.0: cpu_idle: state=2 cpu_id=0\\n"
    ...                       "  <idle>-0 [000] 1.001: cpu_idle: state=4294967295 cpu_id=0\\n")
    >>> int(t[0].wake_ns[0])
    1000000
    """
    data = _text.data(text, path)
    return _by_cpu(_core.idle_parse_ftrace(data, int(hz), path, bool(strict), bool(sort)))


def _by_cpu(traces: list[Trace]) -> dict[int, Trace]:
    return {int(t.cpu or 0): t for t in traces}


# --- synthetic traces ---------------------------------------------------------------


def periodic(n: int, period_ns: int, *, jitter_ns: int = 0, hz: int = _HZ, seed: int = 0) -> Trace:
    """``n`` idle periods each ended by a periodic timer ``period_ns`` ± ``jitter_ns`` away.

    >>> from schedlab import idle
    >>> idle.periodic(3, 2_000_000, seed=1).sleep_length_ns.tolist()
    [2000000, 2000000, 2000000]
    """
    return (_core.idle_synth("periodic", int(n), int(hz), int(seed), a=int(period_ns), b=int(jitter_ns)))


def poisson(n: int, mean_ns: int, *, timer_ns: int = 50_000_000, hz: int = _HZ, seed: int = 0) -> Trace:
    """Device interrupts as a Poisson process (mean interval ``mean_ns``), timer ``timer_ns`` away.

    >>> from schedlab import idle
    >>> t = idle.poisson(10_000, 300_000, seed=2)
    >>> 280_000 < t.wake_ns.mean() < 320_000
    np.True_
    """
    return (_core.idle_synth("poisson", int(n), int(hz), int(seed), a=int(mean_ns), b=int(timer_ns)))


def bimodal(
    n: int,
    short_ns: int,
    long_ns: int,
    *,
    p_short: float = 0.5,
    jitter: float = 0.05,
    timer_ns: int = 30_000_000,
    hz: int = _HZ,
    seed: int = 0,
) -> Trace:
    """Wakeups after ``short_ns`` (probability ``p_short``) or ``long_ns``, ± relative ``jitter``.

    >>> from schedlab import idle
    >>> t = idle.bimodal(1000, 100_000, 5_000_000, p_short=0.8, seed=3)
    >>> round(float((t.wake_ns < 1_000_000).mean()), 1)
    0.8
    """
    return (
        _core.idle_synth("bimodal", int(n), int(hz), int(seed), a=int(short_ns), b=int(long_ns), c=int(timer_ns),
                         p=float(p_short), jitter=float(jitter))
    )


def tick_stopped(n: int, mean_sleep_ns: int, *, p_wake: float = 0.3, hz: int = _HZ, seed: int = 0) -> Trace:
    """Idle periods with the tick already stopped: sleep lengths of one tick plus an
    exponential of mean ``mean_sleep_ns``; an interrupt before the timer with probability ``p_wake``.

    >>> from schedlab import idle
    >>> idle.tick_stopped(5, 50_000_000, seed=4).tick_stopped.tolist()
    [1, 1, 1, 1, 1]
    """
    return (_core.idle_synth("tick_stopped", int(n), int(hz), int(seed), a=int(mean_sleep_ns), p=float(p_wake)))


# --- simulation ---------------------------------------------------------------------


def _result_frame(t: Trace, r: Mapping[str, Any]) -> pd.DataFrame:
    import pandas as pd

    n = len(t)
    cols: dict[str, Any] = {
        "step": np.arange(n, dtype=np.int64),
        "sleep_length_ns": t.sleep_length_ns,
        "next_tick_ns": r["next_tick_ns"],
        "wake_ns": t.wake_ns,
        "tick_stopped": t.tick_stopped,
        "latency_req_ns": r["latency_req_ns"],
        "nr_iowait": t.nr_iowait,
        # int64 already: widened by the core, which polls Ctrl-C while it does (docs/cancel.md)
        "idx": r["idx"],
        "stop_tick": r["stop_tick"],
        "residency_ns": r["residency_ns"],
        "got_tick": r["got_tick"],
        "poll_time_limit": r["poll_time_limit"],
    }
    state = np.asarray(r["state"])
    for j, name in enumerate(r["state_columns"]):
        cols[name] = state[:, j]
    return pd.DataFrame(cols, copy=False)  # the core's columns as they are: no second copy


def simulate(governor: str, trace: TraceLike, states: StatesLike, kernel: str = _KERNEL, hz: int = _HZ) -> pd.DataFrame:
    """Replay ``trace`` through ``governor`` (``"menu"`` or ``"teo"``) of ``kernel``.

    Returns one row per idle period with the columns of the kernel-oracle golden files:
    the inputs (``next_tick_ns`` reduced into one tick period, ``latency_req_ns`` of -1
    shown as 2000 s), the decision (``idx``, ``stop_tick``), how the period ended
    (``residency_ns``, ``got_tick``, ``poll_time_limit``) and the governor's state after it
    (menu: bucket, next timer, correction factors, intervals; teo: sleep length, total and
    per-bin hits/intercepts, then ``tick_hits`` (6.12), ``recent`` (6.1), ``recent`` and
    ``tick_hits`` (6.6), or ``tick_intercepts`` and ``short_idles`` (6.18); 5.1:
    early_hits/hits/misses and intervals).

    ``kernel`` is one of ``6.18``, ``6.12``, ``6.6``, ``6.1``, ``5.1`` (teo), ``4.20``,
    ``4.19``, ``4.18`` (menu).

    >>> from schedlab import idle
    >>> trace = idle.periodic(500, 2_000_000, jitter_ns=10_000, seed=1)
    >>> df = idle.simulate("menu", trace, "intel-skx", kernel="6.12", hz=250)
    >>> int(df.idx.iloc[-1]), int(df.stop_tick.iloc[-1])
    (3, 0)
    """
    t = _trace_of(trace)
    r = _core.idle_simulate(str(governor), str(kernel), int(hz), _states_of(states), t)
    return _result_frame(t, r)


def simulate_csv(
    governor: str,
    trace: str | os.PathLike[str],
    states: str | os.PathLike[str],
    *,
    kernel: str = _KERNEL,
    hz: int = _HZ,
    out: str | os.PathLike[str] | None = None,
    write: Callable[[bytes], object] | None = None,
) -> bytes | None:
    """Replay the trace CSV file ``trace`` and render the golden-file CSV, streamed.

    The trace is read, replayed and written as it goes (memory does not grow with its
    length; a FIFO is read to its end). ``states`` is a state-table file, sysfs
    directory or dump, or preset name. With ``out`` the CSV replaces that file, with
    ``write`` (e.g. ``sys.stdout.buffer.write``) it is handed over in chunks, and None
    is returned; otherwise the bytes are.

    >>> import tempfile, os
    >>> from schedlab import idle
    >>> p = os.path.join(tempfile.mkdtemp(), "t.csv")
    >>> _ = open(p, "w").write("sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns\\n2000000,750000,-1,0,-1\\n")
    >>> idle.simulate_csv("menu", p, "intel-skx").splitlines()[1].decode()[:40]
    '0,2000000,750000,-1,0,2000000000000,0,3,'
    """
    kw: dict[str, Any] = dict(governor=str(governor), kernel=str(kernel), hz=int(hz), states=os.fspath(states),
                              trace=os.fspath(trace))
    if out is not None:
        from ._output import replacing

        with replacing(out, [trace]) as f:
            _core.idle_simulate_csv(**kw, write=f.write)
        return None
    return _core.idle_simulate_csv(**kw, write=write)


def simulate_many(
    governor: str,
    traces: Sequence[TraceLike] | Mapping[int, TraceLike],
    states: StatesLike,
    kernel: str = _KERNEL,
    hz: int = _HZ,
    threads: int | None = None,
) -> pd.DataFrame:
    """Replay one trace per CPU in parallel (Rust threads, GIL released).

    ``traces`` is a list (CPU = position) or a mapping CPU → trace (e.g. the result of
    :func:`read_ftrace`). Returns the :func:`simulate` columns with a leading ``cpu`` column.

    >>> from schedlab import idle
    >>> traces = {cpu: idle.poisson(100, 200_000, seed=cpu) for cpu in range(4)}
    >>> df = idle.simulate_many("teo", traces, "intel-skx", threads=2)
    >>> df.groupby("cpu").size().tolist()
    [100, 100, 100, 100]
    """
    import pandas as pd

    items = list(traces.items()) if isinstance(traces, Mapping) else list(enumerate(traces))
    ts = [_trace_of(t) for _, t in items]
    results = _core.idle_simulate_many(str(governor), str(kernel), int(hz), _states_of(states), ts, threads=threads)
    frames = []
    for (cpu, _), t, r in zip(items, ts, results):
        df = _result_frame(t, r)
        df.insert(0, "cpu", int(cpu))
        frames.append(df)
    if not frames:
        raise DomainError("simulate_many needs at least one trace")
    return pd.concat(frames, ignore_index=True)


def summarize(result: pd.DataFrame | Mapping[str, Any], states: StatesLike, power_mw: Sequence[float] | None = None) -> pd.DataFrame:
    """Per-state counters of a replay, like the kernel's sysfs ``cpuidle/stateN/*``.

    Columns: ``usage`` (entries), ``time_ns`` (residency), ``above`` (woke before the
    target residency while a shallower state was enabled: too deep), ``below`` (a deeper
    state would have fit: too shallow), ``exit_latency_ns`` (wakeup latency paid), and
    ``energy_uj`` (residency × ``power_mw`` per state, from the argument or the table's
    ``power_mw`` column; NaN without power numbers; transitions not counted).

    >>> from schedlab import idle
    >>> df = idle.simulate("teo", idle.poisson(1000, 300_000, seed=5), "intel-skx")
    >>> s = idle.summarize(df, "intel-skx", power_mw=[1500, 1200, 900, 200])
    >>> int(s.usage.sum())
    1000
    """
    idx = np.ascontiguousarray(np.asarray(result["idx"]), dtype=np.uint8)
    res = np.ascontiguousarray(np.asarray(result["residency_ns"]), dtype=np.int64)
    p = None if power_mw is None else [float(x) for x in power_mw]
    return _summary_frame(_core.idle_summarize(_states_of(states), idx, res, p))


def _summary_frame(d: Mapping[str, Any]) -> pd.DataFrame:
    """The DataFrame of the core's per-state counters (one row per state)."""
    import pandas as pd

    return pd.DataFrame(
        {
            "usage": np.asarray(d["usage"], dtype=np.int64),
            "time_ns": np.asarray(d["time_ns"], dtype=np.int64),
            "above": np.asarray(d["above"], dtype=np.int64),
            "below": np.asarray(d["below"], dtype=np.int64),
            "exit_latency_ns": np.asarray(d["exit_latency_ns"], dtype=np.int64),
            "energy_uj": np.asarray([np.nan if e is None else e for e in d["energy_uj"]], dtype=np.float64),
        },
        index=pd.Index(list(d["state"]), name="state"),
    )


def compare(
    governors: Iterable[str | tuple[str, str]],
    trace: TraceLike,
    states: StatesLike,
    hz: int = _HZ,
    kernel: str = _KERNEL,
) -> pd.DataFrame:
    """Several governors/versions on one trace, side by side, one row per idle period.

    ``governors`` are names (``"menu"``, ``"teo"``: version ``kernel``), ``"teo@5.1"`` /
    ``"menu:4.18"`` strings, or ``(governor, kernel)`` tuples. Columns are a two-level
    index: ``("trace", ...)`` for the inputs, then per governor (``"teo 6.12"``...) the
    chosen ``state`` name, ``idx``, ``stop_tick``, ``residency_ns``, ``got_tick``, and
    ``above``/``below`` (the entry was too deep / too shallow, as the kernel counts them).

    >>> from schedlab import idle
    >>> t = idle.bimodal(2000, 50_000, 3_000_000, p_short=0.7, seed=1)
    >>> df = idle.compare(["menu", "teo", "teo@5.1"], t, "intel-skx")
    >>> df.columns.get_level_values(0).unique().tolist()
    ['trace', 'menu 6.12', 'teo 6.12', 'teo 5.1']
    >>> df.xs("above", axis=1, level=1).sum().index.tolist()
    ['menu 6.12', 'teo 6.12', 'teo 5.1']
    """
    import pandas as pd

    t = _trace_of(trace)
    st = _states_of(states)
    names = np.asarray(st.name, dtype=object)
    frames: dict[tuple[str, str], Any] = {("trace", c): getattr(t, c) for c in TRACE_COLUMNS[:5]}
    # the core splits the specs, replays each distinct one and classifies every period
    for label, r in _core.idle_compare(list(governors), kernel, int(hz), st, t):
        frames[(label, "state")] = names[r["idx"]] if len(r["idx"]) else np.zeros(0, dtype=object)
        for k in ("idx", "stop_tick", "residency_ns", "got_tick", "above", "below"):
            frames[(label, k)] = r[k]
    df = pd.DataFrame(frames)
    df.columns = pd.MultiIndex.from_tuples(list(frames.keys()))
    df.index.name = "step"
    return df


def compare_summary(
    governors: Iterable[str | tuple[str, str]],
    trace: TraceLike,
    states: StatesLike,
    hz: int = _HZ,
    kernel: str = _KERNEL,
    power_mw: Sequence[float] | None = None,
) -> pd.DataFrame:
    """:func:`summarize` of several governors on one trace, side by side (rows = states,
    two-level columns = governor × counter).

    >>> from schedlab import idle
    >>> t = idle.poisson(3000, 400_000, seed=9)
    >>> s = idle.compare_summary(["menu", "teo"], t, "intel-skx")
    >>> s.xs("usage", axis=1, level=1).sum().tolist()
    [3000, 3000]
    """
    import pandas as pd

    p = None if power_mw is None else [float(x) for x in power_mw]
    if isinstance(trace, (str, os.PathLike)):
        # a trace file is read as it is replayed: memory does not grow with it
        parts = _core.idle_compare_summary_file(governors=list(governors), kernel=kernel, hz=int(hz),
                                                states=_states_of(states), trace=os.fspath(trace), power_mw=p)
    else:
        parts = _core.idle_compare_summary(list(governors), kernel, int(hz), _states_of(states), _trace_of(trace),
                                           power_mw=p)
    return pd.concat({label: _summary_frame(d) for label, d in parts}, axis=1)

"""PELT and util_est replayed bit-exactly: the scheduler's utilization signals.

The computing is Linux 6.12's integer math (``kernel/sched/pelt.c``, ``fair.c``,
``cpufreq_schedutil.c``) reimplemented in Rust and checked value for value against
the kernel's own code compiled in userspace. :func:`simulate` replays one task on one
CPU from a trace of segments — ``R`` running, ``W`` runnable but preempted by a non-CFS
task, ``S`` sleeping — each with the CPU and frequency capacity in effect, and returns
one row per kernel-visible event (fork, wakeup, pick, tick, preemption, sleep).

>>> import pandas as pd
>>> from schedlab import pelt
>>> trace = pd.DataFrame({"dur_ns": [3_000_000, 500_000, 3_000_000, 500_000],
...                       "state": ["R", "S", "R", "S"]})
>>> df = pelt.simulate(trace)
>>> df[["event", "p_util_avg", "p_util_est", "cpu_util_cfs"]].tail(3).values.tolist()
[['run', 537, 512, 537], ['sleep', 566, 537, 566], ['end', 566, 537, 566]]

Older util_est rules (``rule="4.17"``, ``"d519329f72"``) and the execl fix of
``cpu_util_wake`` (``execl_fix=True/False``) replay the history of the signal; see
:data:`RULES`. Low-level pieces for notebooks: :func:`decay_load`, :func:`accumulate`,
:func:`util_est_update`, :func:`cpu_util`, :func:`schedutil`, and :func:`ftrace_task`
to build a trace from ``sched_switch``/``sched_wakeup`` text.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple, Union

import numpy as np
import numpy.typing as npt

from . import _core, _text
from ._int64 import check_int64
from .errors import DomainError, ParseError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "simulate",
    "simulate_csv",
    "read_trace",
    "parse_trace",
    "ftrace_task",
    "ftrace_csv",
    "decay_load",
    "accumulate",
    "util_est_update",
    "cpu_util",
    "schedutil",
    "map_util_perf",
    "tick_ns_for_hz",
    "COLUMNS",
    "EVENTS",
    "STATES",
    "RULES",
    "KERNELS",
    "UTIL_COLUMNS",
    "DEFAULT_START_NS",
    "DEFAULT_HZ",
    "CAPACITY_SCALE",
    "SCHEDUTIL_VERSIONS",
    "PeltInit",
    "PeltOptions",
    "UtilEstResult",
    "Schedutil",
]

PeltInit = _core.PeltInit
"""A replay's start as one core object: ``PeltInit("kernel")``, ``PeltInit("zero")``, a
known state (``PeltInit({"util_avg": 300, "load_avg": 1000})``), or what
:func:`ftrace_task` found in the trace (``attrs["init"]``). It compares equal to its
``to_dict()``."""

PeltOptions = _core.PeltOptions
"""A replay's options as one core object (keyword-only, checked when made): ``init``,
``util_est``, ``rule``, ``execl_fix``, ``hz``, ``start_ns``, ``kernel``; unset ones are taken
from the trace CSV's directives (docs/pelt.md §8.1), else the core's defaults."""

COLUMNS: tuple[str, ...] = tuple(_core.PELT_COLUMNS)
"""Columns of :func:`simulate`, as in the kernel oracle's golden files (the pre-6.8 rules
add ``p_ue_enqueued``, the raw ``util_est.enqueued``)."""

EVENTS: tuple[str, ...] = tuple(_core.PELT_EVENTS)
"""Event names: ``wake_pre`` is the wakeup as ``select_task_rq`` sees it, before the rq
clock update (the view of ``cpu_util_without`` at wakeup)."""

STATES: tuple[str, ...] = tuple(_core.PELT_STATES)
"""Trace states: running, runnable but preempted, sleeping."""

RULES: tuple[str, ...] = tuple(_core.PELT_RULES)
"""util_est rules: ``"6.18"`` (6.12 without the capacity skip), ``"6.12"`` (v6.8+), ``"6.6"``
(v5.13–v6.7: ``enqueued``/``ewma`` with the MSB flag, fast up), ``"d519329f72"`` (v4.17, update only after
util_avg changed, LSB flag), ``"4.17"`` (7f65ea42eb00, the original rule)."""

KERNELS: tuple[str, ...] = tuple(_core.PELT_KERNELS)
"""Kernel versions for ``kernel=`` (the default first): ``"6.12"``, ``"6.18"``, ``"6.6"``
share the PELT clock (23127296889f); ``"4.19"`` scales each contribution by the frequency
and CPU capacity instead, on the unscaled clock, with its util_est rule (``d519329f72``)
and runnable load (docs/pelt.md §9)."""

UTIL_COLUMNS: tuple[str, ...] = tuple(_core.PELT_UTIL_COLUMNS)
"""The columns that depend only on the task's util_avg side (times, clocks, the task's
``util_avg``/``util_sum``/``period_contrib``/``last_update_time``). When
:func:`simulate` is asked for these columns only, it replays just that part of the
scheduler — the same values, a third of the work — and splits long full-capacity traces
across threads (``SCHEDLAB_NUM_THREADS``), verifying each split exactly."""

DEFAULT_START_NS: int = _core.PELT_DEFAULT_START_NS
"""Time of the fork when neither the call nor the trace says: 1000 PELT periods, as in
the golden files."""

DEFAULT_HZ: int = _core.PELT_DEFAULT_HZ
"""``CONFIG_HZ`` when none is given (250)."""

CAPACITY_SCALE: int = _core.PELT_CAPACITY_SCALE
"""``SCHED_CAPACITY_SCALE``: the capacity of the biggest CPU at its highest frequency."""

SCHEDUTIL_VERSIONS: tuple[str, ...] = tuple(_core.PELT_SCHEDUTIL_VERSIONS)
"""The schedutil rules of :func:`schedutil`: 6.8+'s (``"6.12"``) and v4.7–v6.7's (``"legacy"``)."""

_STATE_NAMES = np.empty(256, dtype=object)
_STATE_NAMES[[ord(c) for c in STATES]] = list(STATES)

TraceLike = Union[str, "os.PathLike[str]", "pd.DataFrame", dict, Sequence[Any]]


def tick_ns_for_hz(hz: int) -> int:
    """``TICK_NSEC`` for ``CONFIG_HZ=hz``: ``(10**9 + hz // 2) // hz``.

    >>> tick_ns_for_hz(250), tick_ns_for_hz(300)
    (4000000, 3333333)
    """
    return _core.pelt_tick_ns_for_hz(operator.index(hz))


def _ints(x: Any, name: str, dtype: Any = np.int64) -> np.ndarray:
    """A 1-D integer array (refusing fractional or non-numeric values)."""
    a = np.asarray(x)
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1:
        raise ParseError(f"{name} must be one-dimensional", column=name)
    if a.dtype.kind == "b":
        a = a.astype(np.int64)
    if a.dtype.kind == "f":
        if not np.all(np.isfinite(a)) or not np.all(a == np.floor(a)):
            raise ParseError(f"{name} must hold whole numbers", column=name)
    elif a.dtype.kind not in "iu":
        raise ParseError(f"{name} must hold integers, got {a.dtype}", column=name)
    if np.dtype(dtype).kind == "u" and a.size and a.min() < 0:
        raise DomainError(f"{name} must not be negative")
    if np.dtype(dtype) == np.int64:
        check_int64(a, name)
    return np.ascontiguousarray(a, dtype=dtype)


def _state_codes(states: Any) -> np.ndarray:
    """The state letters as ASCII codes (the core refuses letters other than R, W, S)."""
    if hasattr(states, "cat"):  # a categorical column: convert its few categories only
        cats = _state_codes(np.asarray(states.cat.categories, dtype=object))
        codes = states.cat.codes.to_numpy()
        if (codes < 0).any():
            i = int(np.argmax(codes < 0))
            raise ParseError(f"segment {i}: missing state", column="state")
        return np.ascontiguousarray(cats[codes])
    a = np.asarray(states)
    if a.dtype.kind == "u" and a.dtype.itemsize == 1:
        return np.ascontiguousarray(a)
    if a.dtype.kind == "S":
        a = a.astype("U")
    try:
        u = a.astype("U")
    except (TypeError, ValueError):  # pragma: no cover - exotic objects
        u = np.array([str(x) for x in a.tolist()], dtype="U")
    if u.dtype.itemsize != 4 or (u.size and (u.view(np.uint32) > 127).any()) or (u == "").any():
        for i, x in enumerate(u.tolist()):  # the error path only
            if len(x) != 1 or not x.isascii():
                raise ParseError(f"segment {i}: unknown state {x[:40]!r}: expected R (running), W (runnable, "
                                 "preempted) or S (sleeping)", column="state")
    return np.ascontiguousarray(u.view(np.uint32).astype(np.uint8))


def _trace_columns(trace: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """(dur_ns, state codes, cpu_cap, freq_cap, tick or None) of a DataFrame, a dict of
    columns or a sequence of ``(dur_ns, state[, cpu_cap, freq_cap])`` tuples."""
    tick = None
    if hasattr(trace, "columns") or isinstance(trace, dict):
        cols = trace
        names = list(trace.columns) if hasattr(trace, "columns") else list(trace)
        for need in ("dur_ns", "state"):
            if need not in names:
                raise ParseError(f"the trace has no '{need}' column (columns: {', '.join(map(str, names))})",
                                 column=need)
        dur = cols["dur_ns"]
        state = cols["state"]
        cpu = cols["cpu_cap"] if "cpu_cap" in names else np.full(len(dur), CAPACITY_SCALE)
        freq = cols["freq_cap"] if "freq_cap" in names else np.full(len(dur), CAPACITY_SCALE)
        if "tick" in names:
            tick = _ints(cols["tick"], "tick", np.uint8)
        if "cpu" in names and len(np.unique(np.asarray(cols["cpu"]))) > 1:
            raise DomainError("the trace's 'cpu' column migrates the task: replay it from its CSV file "
                              "(simulate(path)); columns in memory replay one runqueue")
    else:
        rows = list(trace)
        if rows and not all(isinstance(r, (tuple, list)) and len(r) in (2, 4) for r in rows):
            raise ParseError("a trace sequence holds (dur_ns, state) or (dur_ns, state, cpu_cap, freq_cap) tuples")
        dur = [r[0] for r in rows]
        state = [r[1] for r in rows]
        cpu = [r[2] if len(r) == 4 else CAPACITY_SCALE for r in rows]
        freq = [r[3] if len(r) == 4 else CAPACITY_SCALE for r in rows]
    ints = []
    for name, col in (("dur_ns", dur), ("cpu_cap", cpu), ("freq_cap", freq)):
        try:
            ints.append(_ints(col, name))
        except (TypeError, ValueError) as e:
            if isinstance(e, ParseError):
                raise
            raise ParseError(f"{name}: {e}", column=name) from None
    return ints[0], _state_codes(state), ints[1], ints[2], tick


InitLike = Union[str, Mapping[str, Any], "_core.PeltInit", None]


def _options(init: InitLike, util_est: bool, rule: str | None, execl_fix: bool | None, hz: int | None,
             start_ns: int | None, kernel: str | None) -> _core.PeltOptions:
    """The options as the core's object (every value checked there)."""
    return _core.PeltOptions(init=init, util_est=bool(util_est), rule=rule, execl_fix=execl_fix, hz=hz,
                             start_ns=start_ns, kernel=kernel)


def _frame(cols: dict) -> pd.DataFrame:
    import pandas as pd

    if "event" in cols:
        cols["event"] = pd.Categorical.from_codes(cols["event"], categories=list(EVENTS))
    if "state" in cols:
        cols["state"] = pd.Categorical.from_codes(cols["state"], categories=list(STATES))
    order = [c for c in COLUMNS + ("p_ue_enqueued",) if c in cols]
    return pd.DataFrame({k: cols[k] for k in order}, copy=False)


def _names(x: Sequence[str] | str | None, what: str) -> list[str] | None:
    if x is None:
        return None
    if isinstance(x, str):
        x = [x]
    out = [str(v) for v in x]
    if not out:
        raise DomainError(f"{what} must name at least one")
    return out


def simulate(
    trace: TraceLike,
    init: InitLike = None,
    util_est: bool = True,
    rule: str | None = None,
    *,
    execl_fix: bool | None = None,
    hz: int | None = None,
    start_ns: int | None = None,
    columns: Sequence[str] | None = None,
    events: Sequence[str] | None = None,
    kernel: str | None = None,
) -> pd.DataFrame:
    """Replay one task's trace through the 6.12 scheduler's PELT and util_est code.

    ``trace`` is a CSV file path (``dur_ns,state,cpu_cap,freq_cap``), a DataFrame or dict
    with those columns (``cpu_cap``/``freq_cap`` default to 1024), or a sequence of
    ``(dur_ns, state[, cpu_cap, freq_cap])`` tuples; a ``tick`` column (0/1) gives the
    trace's own ticks (docs/pelt.md §5.3). ``init="zero"`` starts util at 0 instead of
    the kernel's new-task value (``"kernel"``, the default); a mapping or a
    :class:`PeltInit` starts from a known state (the ``attrs["init"]`` of
    :func:`ftrace_task`); ``util_est=False`` turns the UTIL_EST feature off; ``kernel``
    picks the PELT model (:data:`KERNELS`, default 6.12) and with it the util_est rule and
    execl fix of that kernel; ``rule`` overrides the util_est version (:data:`RULES`);
    ``execl_fix`` forces ``cpu_util_without`` with/without the fix of c469933e7721
    (default: as the kernel, or the rule's kernel, had it); ``hz`` sets the tick period
    (:data:`DEFAULT_HZ`); ``start_ns`` the fork's time (:data:`DEFAULT_START_NS`). A CSV
    file's directives (``# pelt:`` lines that ``pelt ftrace`` writes: start time, kernel,
    start state) stand for what is not given.

    Returns one row per event with the :data:`COLUMNS` (``event`` and ``state`` are
    categoricals). ``columns`` and ``events`` keep only those columns and those events'
    rows (a 1 M-segment trace gives ~2.8 M rows of ~130 bytes, so selecting saves memory
    and time); columns within :data:`UTIL_COLUMNS` only (e.g. ``["t_ns",
    "p_util_avg"]``, what LISA's ``simulate_pelt`` returns) take the faster util-only
    replay, with identical values. Bad traces raise
    :class:`~schedlab.ParseError` naming the file, line (or segment) and column.

    >>> df = simulate([(8_000_000, "R"), (8_000_000, "S")], init="zero")
    >>> df[["t_ns", "event", "p_util_avg"]].values.tolist()  # doctest: +NORMALIZE_WHITESPACE
    [[1048576000, 'fork', 0], [1048576000, 'run', 0], [1052000000, 'tick', 69],
     [1056000000, 'tick', 145], [1056576000, 'sleep', 145], [1064576000, 'end', 145]]
    """
    opts = _options(init, util_est, rule, execl_fix, hz, start_ns, kernel)
    cols_sel, ev_sel = _names(columns, "columns"), _names(events, "events")
    if isinstance(trace, (str, os.PathLike)):
        cols = _core.pelt_simulate_file(os.fspath(trace), options=opts, columns=cols_sel, events=ev_sel)
    else:
        d, s, c, f, t = _trace_columns(trace)
        cols = _core.pelt_simulate_arrays(d, s, c, f, options=opts, tick=t, columns=cols_sel, events=ev_sel)
    return _frame(cols)


def simulate_csv(
    trace: str | os.PathLike[str] | bytes | BinaryIO,
    out: str | os.PathLike[str] | None = None,
    init: InitLike = None,
    util_est: bool = True,
    rule: str | None = None,
    *,
    execl_fix: bool | None = None,
    hz: int | None = None,
    start_ns: int | None = None,
    name: str | None = None,
    write: Callable[[bytes], object] | None = None,
    kernel: str | None = None,
) -> bytes | None:
    """Like :func:`simulate` but renders CSV exactly as the golden files are written.

    ``trace`` is a path, the CSV bytes themselves, or a binary file object read a chunk at
    a time (``name`` labels the last two in errors).
    With ``out`` the CSV goes to that file, with ``write`` (e.g. ``sys.stdout.buffer.write``)
    it is streamed to that callable in chunks, and None is returned; otherwise the bytes are.
    The trace is read, replayed and written a chunk at a time: memory does not grow with it.

    >>> csv = simulate_csv(b"dur_ns,state\\n1000000,R\\n9000000,S\\n")
    >>> csv.splitlines()[3].decode()
    '1049576000,sleep,1,S,1024,1024,1049576000,1049576000,0,512,24919040,976,512,1024,1049575424,512,1,512,24919040,512,1024,0,512,512,0,512,640,1'
    """
    opts = _options(init, util_est, rule, execl_fix, hz, start_ns, kernel)
    out_s = os.fspath(out) if out is not None else None
    if isinstance(trace, (bytes, bytearray, memoryview)):
        source: Any = bytes(trace)
    elif hasattr(trace, "read"):
        source = trace
    else:
        source = os.fspath(trace)
    return _core.pelt_simulate_csv(source, options=opts, name=name, out=out_s, write=write)


def _trace_frame(cols: dict) -> pd.DataFrame:
    import pandas as pd

    cols["state"] = _STATE_NAMES[cols["state"]]  # one lookup per segment, no Python loop
    return pd.DataFrame(cols, copy=False)


def read_trace(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a trace CSV (``dur_ns,state[,cpu_cap,freq_cap]``) into a DataFrame.

    Errors (unknown state letters, W directly to S, durations ≤ 0, capacities outside
    1..1024, missing columns, truncated lines, non-UTF-8) raise :class:`~schedlab.ParseError`
    with ``path``, ``line`` and ``column``.

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "task.csv"
    >>> _ = p.write_text("dur_ns,state,cpu_cap,freq_cap\\n4000000,R,446,512\\n4000000,S,446,512\\n")
    >>> read_trace(p).values.tolist()
    [[4000000, 'R', 446, 512], [4000000, 'S', 446, 512]]
    >>> _ = p.write_text("dur_ns,state\\n4000000,R\\n4000000,W\\n4000000,S\\n")
    >>> try:
    ...     read_trace(p)
    ... except ParseError as e:
    ...     print(e.line, e.column)
    4 state
    """
    return _trace_frame(_core.pelt_read_trace(os.fspath(path)))


def parse_trace(text: str | bytes, name: str | None = None) -> pd.DataFrame:
    """Parse trace CSV text (see :func:`read_trace`).

    >>> parse_trace("dur_ns,state\\n5000,R\\n7000,S\\n").to_dict("list")
    {'dur_ns': [5000, 7000], 'state': ['R', 'S'], 'cpu_cap': [1024, 1024], 'freq_cap': [1024, 1024]}
    """
    data = _text.data(text, name)
    return _trace_frame(_core.pelt_parse_trace(data, path=name))


def _cpu_values(x: str | Mapping[int, int] | Sequence[int] | None) -> str | None:
    """Per-CPU values as the core reads them: ``"0=446,1=1024"`` (text as given)."""
    if x is None or isinstance(x, str):
        return x
    items = x.items() if isinstance(x, Mapping) else enumerate(x)
    return ",".join(f"{int(cpu)}={int(v)}" for cpu, v in items)


def ftrace_task(
    source: str | os.PathLike[str] | bytes,
    pid: int,
    cpu_cap: int | None = None,
    freq_cap: int | None = None,
    strict: bool = False,
    sort: bool = False,
    *,
    cpu_capacity: str | Mapping[int, int] | Sequence[int] | None = None,
    max_freq: str | Mapping[int, int] | Sequence[int] | None = None,
    plat_info: str | os.PathLike[str] | None = None,
    sysfs: str | os.PathLike[str] | None = None,
    traced_start: bool = False,
) -> pd.DataFrame:
    """The trace of ``pid`` from ftrace text or a trace.dat (a file path, or the bytes).

    Reads ``sched_switch``/``sched_wakeup(_new)`` lines in the kernel's format or
    ``trace-cmd report``'s: switched in → R, switched out runnable (``R``/``R+``) → W,
    otherwise → S, woken while S → W. Each segment gets the capacities of the CPU the
    task is on (switched in on, woken onto, migrated to): ``arch_scale_cpu_capacity``
    from ``cpu_capacity`` (``"0=446,1=1024"``, a dict or a list by CPU), else
    ``cpu_cap`` (every CPU), else a LISA ``plat_info`` YAML, else a ``sysfs`` CPU
    directory (``/sys/devices/system/cpu``), else 1024; the frequency capacity from the
    trace's ``cpu_frequency`` events (and LISA's ``cpu_frequency_devlib`` markers) over
    each CPU's maximum frequency (``max_freq`` in kHz, plat-info ``freqs``, sysfs
    ``cpuinfo_max_freq``), unless ``freq_cap`` fixes it for every CPU. The result feeds
    :func:`simulate`; its ``attrs["start_ns"]`` is the trace time of the first segment. A
    line that cannot be read is skipped and counted (an error with ``strict``); events
    out of time order are an error unless ``sort``. ``attrs["notes"]`` lists the skipped
    lines (``file:line: message``) and every assumption made (each CPU's capacity and
    where it came from, the frequency before a CPU's first event, the bit layout of a
    numeric ``prev_state``). ``attrs["init"]`` is what the trace says of the task's start
    (docs/pelt.md §10), for :func:`simulate`'s ``init``: ``{"kernel": True}`` when it was
    forked in the trace; with ``traced_start`` and a traced PELT event of the task
    (``sched_load_se``, ``sched_pelt_se``, ``sched_util_est_se``), its averages, the
    segments then starting there (``attrs["start_ns"]``); else None.

    >>> txt = (b"  foo-42 [001] d..2. 10.000000: sched_switch: prev_comm=a prev_pid=0 prev_prio=120 "
    ...        b"prev_state=R ==> next_comm=foo next_pid=42 next_prio=120\\n"
    ...        b"  foo-42 [001] d..2. 10.004000: sched_switch: prev_comm=foo prev_pid=42 prev_prio=120 "
    ...        b"prev_state=S ==> next_comm=a next_pid=0 next_prio=120\\n"
    ...        b"  <idle>-0 [001] d..2. 10.010000: sched_wakeup: comm=foo pid=42 prio=120 target_cpu=001\\n")
    >>> ftrace_task(txt, 42, cpu_capacity="0=1024,1=446").to_dict("list")
    {'dur_ns': [4000000, 6000000], 'state': ['R', 'S'], 'cpu_cap': [446, 446], 'freq_cap': [1024, 1024]}
    """
    imp = _core.pelt_ftrace(_source(source), pid=int(pid), traced_start=bool(traced_start),
                            **_capacities(cpu_cap, freq_cap, strict, sort, cpu_capacity, max_freq, plat_info, sysfs))
    df = _trace_frame(imp.columns())
    df.attrs["start_ns"] = imp.start_ns
    df.attrs["events"] = imp.events
    df.attrs["notes"] = imp.notes
    df.attrs["pid"] = imp.pid
    df.attrs["init"] = imp.init
    df.attrs["kernel"] = imp.kernel
    return df


def _source(source: str | os.PathLike[str] | bytes) -> str | bytes:
    """A trace as the core takes it: its bytes, or its path."""
    return bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else os.fspath(source)


def _capacities(cpu_cap: int | None, freq_cap: int | None, strict: bool, sort: bool,
                cpu_capacity: str | Mapping[int, int] | Sequence[int] | None,
                max_freq: str | Mapping[int, int] | Sequence[int] | None,
                plat_info: str | os.PathLike[str] | None, sysfs: str | os.PathLike[str] | None) -> dict[str, Any]:
    """The import's keyword arguments for the core (the capacities and how strictly to read)."""
    return {"cpu_cap": None if cpu_cap is None else int(cpu_cap),
            "freq_cap": None if freq_cap is None else int(freq_cap), "strict": bool(strict), "sort": bool(sort),
            "cpu_capacity": _cpu_values(cpu_capacity), "max_freq": _cpu_values(max_freq),
            "plat_info": None if plat_info is None else os.fspath(plat_info),
            "sysfs": None if sysfs is None else os.fspath(sysfs)}


def ftrace_csv(
    source: str | os.PathLike[str] | bytes,
    pid: int,
    out: str | os.PathLike[str] | None = None,
    *,
    write: Callable[[bytes], object] | None = None,
    cpu_cap: int | None = None,
    freq_cap: int | None = None,
    strict: bool = False,
    sort: bool = False,
    cpu_capacity: str | Mapping[int, int] | Sequence[int] | None = None,
    max_freq: str | Mapping[int, int] | Sequence[int] | None = None,
    plat_info: str | os.PathLike[str] | None = None,
    sysfs: str | os.PathLike[str] | None = None,
) -> _core.PeltTraceWritten:
    """Write the trace CSV of ``pid`` (what :func:`ftrace_task` imports) to the file
    ``out`` or in chunks to the callable ``write``, with its directives: the ``# pelt:``
    lines that make a plain :func:`simulate_csv` of the file replay it as imported (the
    kernel its trace.dat header names; where it starts and its exact start state when it
    was placed on its PELT clock: docs/pelt.md §8.1).
    The segments are written as the trace is read (memory does not grow with it), unless
    the trace has the task's ``sched_stat_runtime`` events, which place it on its PELT
    clock (docs/pelt.md §12). Returns what was written (``segments``, ``events``,
    ``start_ns``, ``kernel``, ``init``, ``notes``).

    >>> import io
    >>> txt = (b"  foo-42 [001] d..2. 10.000000: sched_switch: prev_comm=a prev_pid=0 prev_prio=120 "
    ...        b"prev_state=R ==> next_comm=foo next_pid=42 next_prio=120\\n"
    ...        b"  foo-42 [001] d..2. 10.004000: sched_switch: prev_comm=foo prev_pid=42 prev_prio=120 "
    ...        b"prev_state=S ==> next_comm=a next_pid=0 next_prio=120\\n")
    >>> buf = io.BytesIO()
    >>> ftrace_csv(txt, 42, write=buf.write).segments
    1
    >>> print(buf.getvalue().decode(), end="")  # plain text: nothing the defaults get wrong
    dur_ns,state,cpu_cap,freq_cap
    4000000,R,1024,1024
    """
    if out is None and write is None:
        raise DomainError("give out= (a file) or write= (a callable taking bytes)")
    return _core.pelt_ftrace_csv(_source(source), pid=int(pid), out=None if out is None else os.fspath(out),
                                 write=write, **_capacities(cpu_cap, freq_cap, strict, sort, cpu_capacity,
                                                            max_freq, plat_info, sysfs))


def _u64(x: Any, name: str) -> np.ndarray:
    return _ints(x, name, np.uint64)


def decay_load(val: npt.ArrayLike, n: npt.ArrayLike) -> Any:
    """``decay_load(val, n)`` of pelt.c: ``val·y^n`` in the kernel's fixed point.

    Scalars give an int, arrays an array (broadcast).

    >>> decay_load(1024, 32), decay_load(47742, 1)
    (511, 46718)
    """
    scalar = np.ndim(val) == 0 and np.ndim(n) == 0
    v, k = np.broadcast_arrays(_u64(val, "val"), _u64(n, "n"))
    out = _core.pelt_decay_load(np.ascontiguousarray(v), np.ascontiguousarray(k))
    return int(out[0]) if scalar else out


def accumulate(
    delta_ns: npt.ArrayLike,
    load: npt.ArrayLike = 1,
    runnable: npt.ArrayLike = 1,
    running: npt.ArrayLike = 1,
    *,
    start_ns: int = DEFAULT_START_NS,
    weight: int = _core.PELT_NICE_0_WEIGHT,
) -> pd.DataFrame:
    """Step one ``sched_avg`` (zeroed, clock at ``start_ns``) through
    ``___update_load_sum``/``___update_load_avg``; ``now`` advances by each ``delta_ns``
    and ``load``/``runnable``/``running`` are the flags of each step (broadcast).

    Returns ``ret`` (a period boundary was crossed: averages recomputed) and the state
    after each step, as the golden ``pelt_accumulate.csv``.

    >>> accumulate([7408701, 1000], weight=1024)[["ret", "util_sum", "period_contrib", "util_avg"]].to_dict("list")
    {'ret': [1, 0], 'util_sum': [6798336, 6799360], 'period_contrib': [67, 68], 'util_avg': [145, 145]}
    """
    import pandas as pd

    d = _u64(delta_ns, "delta_ns")
    lo, ru, rn = (np.ascontiguousarray(np.broadcast_to(_u64(x, nm), d.shape))
                  for x, nm in ((load, "load"), (runnable, "runnable"), (running, "running")))
    cols = _core.pelt_accumulate(d, lo, ru, rn, start_ns=int(start_ns), weight=int(weight))
    return pd.DataFrame(cols)


class UtilEstResult(NamedTuple):
    """A task's util_est after one update: EWMA, ``UTIL_AVG_UNCHANGED`` flag, and the
    raw ``util_est.enqueued`` of the pre-6.8 rules (0 for 6.12)."""

    ewma: int
    unchanged: bool
    enqueued: int


def util_est_update(
    ewma: npt.ArrayLike,
    util_avg: npt.ArrayLike,
    runnable_avg: npt.ArrayLike = 0,
    cpu_cap: npt.ArrayLike = 1024,
    *,
    unchanged: npt.ArrayLike = False,
    task_sleep: npt.ArrayLike = True,
    enqueued: npt.ArrayLike = 0,
    rule: str = _core.PELT_DEFAULT_RULE,
) -> Any:
    """One util_est update at a task's sleep, as ``rule``'s kernel does it.

    ``ewma`` is the estimate before (without flag), ``unchanged`` its
    ``UTIL_AVG_UNCHANGED`` flag, ``util_avg``/``runnable_avg`` the task's PELT values
    and ``cpu_cap`` the CPU capacity. Scalars give a :class:`UtilEstResult`; arrays a
    DataFrame with ``ewma``, ``unchanged``, ``enqueued`` columns.

    >>> util_est_update(300, 100)          # ewma - (300-100)/4
    UtilEstResult(ewma=250, unchanged=True, enqueued=0)
    >>> util_est_update(300, 100, runnable_avg=200)   # starved: keep the EWMA
    UtilEstResult(ewma=300, unchanged=True, enqueued=0)
    >>> util_est_update(100, 400, rule="d519329f72")   # enqueued = 400|1, (100*4 + 301) >> 2
    UtilEstResult(ewma=175, unchanged=True, enqueued=401)
    """
    args = [ewma, unchanged, enqueued, util_avg, runnable_avg, cpu_cap, task_sleep]
    scalar = all(np.ndim(a) == 0 for a in args)
    names = ["ewma", "unchanged", "enqueued", "util_avg", "runnable_avg", "cpu_cap", "task_sleep"]
    arrs = np.broadcast_arrays(*(_u64(a, n) for a, n in zip(args, names)))
    cols = _core.pelt_util_est_update(rule=str(rule), **{n: np.ascontiguousarray(a) for n, a in zip(names, arrs)})
    if scalar:
        return UtilEstResult(int(cols["ewma"][0]), bool(cols["unchanged"][0]), int(cols["enqueued"][0]))
    import pandas as pd

    df = pd.DataFrame(cols)
    df["unchanged"] = df["unchanged"].astype(bool)
    return df


def cpu_util(
    cfs_util_avg: int,
    cfs_util_est: int = 0,
    capacity: int = CAPACITY_SCALE,
    *,
    cfs_runnable_avg: int = 0,
    boost: bool = False,
    util_est: bool = True,
    task: dict[str, Any] | None = None,
    dst: str = "none",
    execl_fix: bool = True,
) -> int:
    """``cpu_util(cpu, p, dst_cpu, boost)`` of 6.12 for one CPU.

    ``task`` (optional) describes p: ``util_avg``, ``util_est`` (``_task_util_est``),
    ``queued_or_current`` (bool), ``on_this_cpu`` (default True), ``is_new`` (default
    False) and ``fix_amount`` (what the execl fix subtracts; default ``util_est``).
    ``dst`` is ``"none"`` (dst_cpu = -1: the ``cpu_util_without`` view), ``"this"`` or
    ``"other"``.

    >>> cpu_util(877, 881, task={"util_avg": 877, "util_est": 881, "queued_or_current": True})
    0
    >>> cpu_util(877, 881, task={"util_avg": 877, "util_est": 881, "queued_or_current": True},
    ...          execl_fix=False)
    881
    """
    t = None
    if task is not None:
        est = int(task.get("util_est", 0))
        t = (int(task.get("util_avg", 0)), est, int(task.get("fix_amount", est)),
             bool(task.get("queued_or_current", False)), bool(task.get("on_this_cpu", True)),
             bool(task.get("is_new", False)))
    return int(_core.pelt_cpu_util(util_avg=int(cfs_util_avg), runnable_avg=int(cfs_runnable_avg),
                                   util_est=int(cfs_util_est), capacity=int(capacity), util_est_enabled=bool(util_est),
                                   task=t, dst=str(dst), boost=bool(boost), execl_fix=bool(execl_fix)))


def map_util_perf(util: int) -> int:
    """``map_util_perf(util)`` = ``util + util/4``, schedutil's 25 % headroom.

    >>> map_util_perf(512)
    640
    """
    return _core.pelt_map_util_perf(int(util))


class Schedutil(NamedTuple):
    """schedutil's request for a utilization: performance level and frequency (kHz)."""

    perf: int
    freq: int


def schedutil(
    util: int,
    capacity: int = CAPACITY_SCALE,
    max_freq: int = 1_000_000,
    opps: Sequence[int] = (),
    *,
    min_perf: int = 0,
    policy_min: int = 0,
    policy_max: int | None = None,
    version: str = SCHEDUTIL_VERSIONS[0],
) -> Schedutil:
    """Utilization (``cpu_util_cfs_boost``) → performance level → frequency.

    6.12: ``perf = max(min_perf, min(util + util/4, capacity))`` then
    ``freq = max_freq * perf / capacity`` rounded up to the next of ``opps`` (clamped to
    the policy limits). ``version="legacy"`` (v4.7–v6.7):
    ``freq = 1.25 * max_freq * util / capacity``.

    >>> schedutil(512, 1024, 2_000_000, opps=[800_000, 1_400_000, 2_000_000])
    Schedutil(perf=640, freq=1400000)
    >>> schedutil(512, 1024, 2_000_000, version="legacy").freq
    1250000
    """
    pmax = int(max_freq) if policy_max is None else int(policy_max)
    perf, freq = _core.pelt_schedutil(util=int(util), capacity=int(capacity), ref_freq=int(max_freq),
                                      opps=[int(f) for f in opps], policy_min=int(policy_min), policy_max=pmax,
                                      min_perf=int(min_perf), version=str(version))
    return Schedutil(int(perf), int(freq))

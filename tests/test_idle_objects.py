"""The idle replay's inputs as frozen objects holding the core's values (DEVELOPING.md,
"Idle inputs"): loaded once, handed back to every replay as they are, viewed as
DataFrames, pickled. Expected values come from pandas reading the same files and from
numpy's own memory bookkeeping, never from schedlab."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import schedlab
from schedlab import idle

DATA = Path(__file__).parent / "data" / "idle"
X86 = DATA / "inputs" / "states_x86.csv"
TRACE = DATA / "inputs" / "gov_bimodal.csv"


def test_a_trace_file_is_the_csv_pandas_reads() -> None:
    t = idle.read_trace(TRACE)
    want = pd.read_csv(TRACE)
    assert len(t) == len(want)
    for c in want.columns:
        assert getattr(t, c).tolist() == want[c].tolist(), c
    # the view is a DataFrame of every trace column, the optional ones read as 0
    df = t.to_pandas()
    assert list(df.columns) == list(idle.TRACE_COLUMNS)
    for c in set(idle.TRACE_COLUMNS) - set(want.columns):
        assert (df[c] == 0).all(), c


def test_a_state_table_file_is_the_csv_pandas_reads() -> None:
    s = idle.read_states(X86)
    want = pd.read_csv(X86)
    assert s.name == want["name"].tolist()
    assert s.exit_latency_us == want["exit_latency_us"].tolist()
    assert s.target_residency_us == want["target_residency_us"].tolist()
    assert s.polling == [f == "P" for f in want["flags"]]
    df = s.to_pandas()
    assert df.dtypes.astype(str).tolist()[1:] == ["int64", "int64", "bool", "bool", "float64"]
    assert df.power_mw.isna().all()
    # a table made of the view is the same table
    assert idle.StateTable(df) == s
    assert idle.states(s) is s


def test_inputs_are_frozen_and_own_what_was_checked() -> None:
    want = pd.read_csv(TRACE)
    cols = {c: np.array(want[c].to_numpy(), dtype=np.int64) for c in want.columns}  # the caller's own arrays
    t = idle.trace(cols)
    assert idle.trace(t) is t
    for c, a in cols.items():
        got = getattr(t, c)
        assert not np.shares_memory(got, a), c  # numpy says: a copy, made once
        assert not got.flags.writeable and a.flags.writeable  # read-only; the caller's array untouched
        with pytest.raises(ValueError):
            got[0] = 1
    # the caller writing to its arrays afterwards (a negative sleep length, which the
    # check refuses) does not reach the checked trace
    cols["sleep_length_ns"][0] = -5
    assert t.sleep_length_ns[0] == want["sleep_length_ns"][0]
    cols["sleep_length_ns"][0] = want["sleep_length_ns"][0]
    with pytest.raises(AttributeError):
        t.wake_ns = cols["wake_ns"]  # type: ignore[misc]
    # a strided column is copied once, contiguous
    strided = {c: np.repeat(a, 2)[::2] for c, a in cols.items()}
    s = idle.trace(strided)
    assert not np.shares_memory(s.sleep_length_ns, strided["sleep_length_ns"])
    assert s == t
    # the same replay from the file, the arrays and the DataFrame
    by_path = idle.simulate("teo", TRACE, X86)
    pd.testing.assert_frame_equal(idle.simulate("teo", t, idle.read_states(X86)), by_path)
    pd.testing.assert_frame_equal(idle.simulate("teo", want, pd.read_csv(X86)), by_path)


def test_values_are_checked_once_when_the_trace_is_made() -> None:
    want = pd.read_csv(TRACE)
    bad = want.copy()
    bad.loc[7, "wake_ns"] = -5
    with pytest.raises(schedlab.DomainError, match=r"trace column 'wake_ns', row 7: negative duration -5 ns"):
        idle.trace(bad)
    with pytest.raises(schedlab.DomainError, match="'next_tick_ns' has 3 values"):
        idle.Trace(**{c: want[c].to_numpy()[: 3 if c == "next_tick_ns" else None] for c in want.columns})


def test_pickles_carry_the_values_and_an_imports_extras(tmp_path: Path) -> None:
    table = idle.read_states(X86)
    assert pickle.loads(pickle.dumps(table)) == table
    trace = idle.read_trace(TRACE)
    back = pickle.loads(pickle.dumps(trace))
    assert back == trace and len(back) == len(trace) and not back.wake_ns.flags.writeable
    lines = ["cpus=4"]
    t = 100_000_000  # µs
    for k in range(5):
        lines.append(f"  <idle>-0 [003] d..1. {t // 1_000_000}.{t % 1_000_000:06d}: cpu_idle: state=1 cpu_id=3")
        t += 300 + k
        lines.append(f"  <idle>-0 [003] d..1. {t // 1_000_000}.{t % 1_000_000:06d}: cpu_idle: state=4294967295 cpu_id=3")
        t += 40
    p = tmp_path / "report.txt"
    p.write_text("\n".join(lines) + "\n")
    cpu3 = idle.read_ftrace(p)[3]
    again = pickle.loads(pickle.dumps(cpu3))
    assert again == cpu3
    assert (again.cpu, again.stats, again.notes) == (cpu3.cpu, cpu3.stats, cpu3.notes)
    # the entries written above, 340 µs apart plus k
    assert again.timestamp_ns.tolist() == [100_000_000_000 + 340_000 * k + 1000 * (k * (k - 1) // 2) for k in range(5)]
    assert again.wake_ns.tolist() == [(300 + k) * 1000 for k in range(5)]
    df = again.to_pandas()
    assert df.attrs["cpu"] == 3 and df.actual_state.tolist() == [1] * 5

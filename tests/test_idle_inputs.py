"""Bad idle inputs are refused with a ParseError naming file, line and column."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import schedlab
from schedlab import cli, idle

DATA = Path(__file__).parent / "data" / "idle"
STATES_HEADER = "name,exit_latency_us,target_residency_us,flags\n"
TRACE_HEADER = "sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns,nr_iowait\n"
GOOD_TRACE = TRACE_HEADER + "2000000,750000,-1,0,-1,0\n1000000,500000,300000,0,-1,0\n"
GOOD_STATES = STATES_HEADER + "POLL,0,0,P\nC1,2,2,-\nC6,133,600,-\n"


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(data.encode() if isinstance(data, str) else data)
    return p


def parse_error(tmp_path: Path, states: str | bytes = GOOD_STATES, trace: str | bytes = GOOD_TRACE) -> schedlab.ParseError:
    s = write(tmp_path, "states.csv", states)
    t = write(tmp_path, "trace.csv", trace)
    with pytest.raises(schedlab.ParseError) as e:
        idle.simulate("menu", t, s)
    return e.value


@pytest.mark.parametrize(
    ("body", "line", "column", "words"),
    [
        ("C1,2,20,-\nC1E,10,2,-\n", 3, "target_residency_us", "not sorted"),  # residency goes down
        ("C1,20,2,-\nC1E,10,20,-\n", 3, "exit_latency_us", "not sorted"),  # latency goes down
        ("C1,2,2,-\nC1,10,20,-\n", 3, "name", "duplicate state 'C1'"),
        ("C1,-2,2,-\n", 2, "exit_latency_us", "negative duration"),
        ("C1,2,x,-\n", 2, "target_residency_us", "expected an integer"),
        ("C1,2,2,Q\n", 2, "flags", "unknown flag"),
        ("C1,2,2,-\nC6,133\n", 3, "target_residency_us", "missing value"),  # truncated row
    ],
)
def test_bad_state_tables(tmp_path: Path, body: str, line: int, column: str, words: str) -> None:
    e = parse_error(tmp_path, states=STATES_HEADER + body)
    assert e.path is not None and e.path.endswith("states.csv")
    assert (e.line, e.column) == (line, column)
    assert words in str(e)
    assert str(e).startswith(f"{e.path}:{line}: column '{column}': ")


def test_state_table_without_states(tmp_path: Path) -> None:
    e = parse_error(tmp_path, states=STATES_HEADER)
    assert e.path.endswith("states.csv") and "no states" in str(e)


def test_duplicate_parameters_are_a_duplicate_state(tmp_path: Path) -> None:
    e = parse_error(tmp_path, states=STATES_HEADER + "C1,2,2,-\nC1X,2,2,-\n")
    assert e.line == 3 and "duplicate state" in str(e)


def test_state_table_missing_a_column(tmp_path: Path) -> None:
    e = parse_error(tmp_path, states="name,exit_latency_us,flags\nC1,2,-\n")
    assert (e.line, e.column) == (1, "target_residency_us")


@pytest.mark.parametrize(
    ("body", "line", "column", "words"),
    [
        ("-5,750000,-1,0,-1,0\n", 2, "sleep_length_ns", "negative duration"),
        ("5,-750000,-1,0,-1,0\n", 2, "next_tick_ns", "negative duration"),
        ("5000,750000,-7,0,-1,0\n", 2, "wake_ns", "negative duration"),
        ("5000,750000,-1,0,-9,0\n", 2, "latency_req_ns", "negative latency"),
        ("5000,750000,-1,2,-1,0\n", 2, "tick_stopped", "expected 0 or 1"),
        ("5000,750000,1e3,0,-1,0\n", 2, "wake_ns", "expected an integer"),
        ("5000,750000,-1,0,-1,0\n5000,750000,-1\n", 3, "tick_stopped", "missing value"),  # truncated
    ],
)
def test_bad_traces(tmp_path: Path, body: str, line: int, column: str, words: str) -> None:
    e = parse_error(tmp_path, trace=TRACE_HEADER + body)
    assert e.path.endswith("trace.csv")
    assert (e.line, e.column) == (line, column)
    assert words in str(e)


def test_trace_missing_a_column(tmp_path: Path) -> None:
    e = parse_error(tmp_path, trace="sleep_length_ns,next_tick_ns,tick_stopped,latency_req_ns\n5,5,0,-1\n")
    assert (e.path.endswith("trace.csv"), e.line, e.column) == (True, 1, "wake_ns")


def test_truncated_file_cut_mid_number(tmp_path: Path) -> None:
    full = GOOD_TRACE.encode()
    e = parse_error(tmp_path, trace=full[: len(full) - 12])  # the last row loses its last fields
    assert e.line == 3 and e.column is not None


@pytest.mark.parametrize("which", ["states", "trace"])
def test_non_utf8_input(tmp_path: Path, which: str) -> None:
    if which == "states":
        e = parse_error(tmp_path, states=STATES_HEADER.encode() + b"C\xff1,2,2,-\n")
        assert e.path.endswith("states.csv")
    else:
        e = parse_error(tmp_path, trace=TRACE_HEADER.encode() + b"5,5,\xfe,0,-1,0\n")
        assert e.path.endswith("trace.csv")
    assert e.line == 2 and "not UTF-8" in str(e)


def test_dataframe_trace_missing_a_column() -> None:
    t = idle.parse_trace(GOOD_TRACE).to_pandas().drop(columns="tick_stopped")
    with pytest.raises(schedlab.ParseError) as e:
        idle.simulate("teo", t, "intel-skx")
    assert e.value.column == "tick_stopped"


def test_dataframe_values_are_checked() -> None:
    t = idle.parse_trace(GOOD_TRACE).to_pandas().copy()
    t.loc[1, "sleep_length_ns"] = -1
    with pytest.raises(schedlab.DomainError, match="'sleep_length_ns', row 1: negative duration"):
        idle.simulate("teo", t, "intel-skx")
    s = idle.preset("intel-skx").to_pandas()
    s.loc[2, "target_residency_us"] = 1
    with pytest.raises(schedlab.ParseError, match="not sorted") as e:
        idle.simulate("teo", idle.parse_trace(GOOD_TRACE), s)
    assert e.value.column == "target_residency_us"
    t = idle.parse_trace(GOOD_TRACE).to_pandas()
    t["wake_ns"] = t["wake_ns"].astype(float) + 0.5
    with pytest.raises(schedlab.ParseError) as e:
        idle.simulate("teo", t, "intel-skx")
    assert e.value.column == "wake_ns"


def test_unknown_governor_version_and_hz() -> None:
    t = idle.parse_trace(GOOD_TRACE)
    with pytest.raises(schedlab.DomainError, match=r"teo is not available for kernel 4\.18"):
        idle.simulate("teo", t, "intel-skx", kernel="4.18")
    with pytest.raises(schedlab.DomainError, match="governor must be one of menu, teo, got .ladder."):
        idle.simulate("ladder", t, "intel-skx")
    with pytest.raises(schedlab.DomainError, match="HZ"):
        idle.simulate("menu", t, "intel-skx", hz=251)
    with pytest.raises(schedlab.DomainError, match="unknown state-table preset"):
        idle.preset("nope")


def test_cli_reports_bad_input_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = write(tmp_path, "states.csv", STATES_HEADER + "C1,2,20,-\nC1E,10,2,-\n")
    t = write(tmp_path, "trace.csv", GOOD_TRACE)
    assert cli.main(["idle", "simulate", "--governor", "menu", "--states", str(s), str(t)]) == 2
    err = capsys.readouterr().err
    assert f"{s}:3: column 'target_residency_us'" in err
    assert cli.main(["idle", "simulate", "--governor", "menu", "--states", str(s), str(tmp_path / "missing.csv")]) == 2
    assert cli.main(["idle", "simulate", "--governor", "menu", "--kernel", "5.1", "--states", "intel-skx", str(t)]) == 2
    assert "menu is not available for kernel 5.1" in capsys.readouterr().err


def test_ftrace_event_with_a_bad_field(tmp_path: Path) -> None:
    p = write(tmp_path, "trace.txt", "  <idle>-0 [000] d..1. 1.000000: cpu_idle: state=1 cpu_id=0\n"
              "  <idle>-0 [000] d..1. 1.000100: cpu_idle: state=oops cpu_id=0\n")
    with pytest.raises(schedlab.ParseError) as e:
        idle.read_ftrace(p, strict=True)
    assert (e.value.line, e.value.column) == (2, "state")
    assert np.isscalar(e.value.line)
    # without strict the line is skipped, counted and named; the entry is left unterminated
    notes = idle.read_ftrace(p)[0].notes
    assert notes[:2] == ["1 malformed line(s) skipped", f"{p}:2: column 'state': expected an integer, got 'oops'"]


def test_a_dataframe_state_table_takes_flag_letters_and_refuses_unknown_ones():
    import pandas as pd

    # as pandas reads a CSV whose flags cell is empty: NaN, meaning no flag
    df = pd.DataFrame({"name": ["POLL", "C1", "C6"], "exit_latency_us": [0, 2.0, 133],
                       "target_residency_us": [0, 2, 600], "flags": ["P", float("nan"), "d"]})
    t = idle.states(df).to_pandas()
    assert t["polling"].tolist() == [True, False, False] and t["disabled"].tolist() == [False, False, True]
    with pytest.raises(schedlab.ParseError, match="state 1: unknown flag 'X'") as e:
        idle.states(df.assign(flags=["P", "X", "-"]))
    assert e.value.column == "flags"
    with pytest.raises(schedlab.ParseError, match="state 1: expected a whole number of µs, got 2.5"):
        idle.states(df.assign(exit_latency_us=[0, 2.5, 133]))
    with pytest.raises(schedlab.ParseError, match="missing column 'target_residency_us'"):
        idle.states(df.drop(columns="target_residency_us"))

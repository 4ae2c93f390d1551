"""Bad traces are refused with a ParseError that says where (file, line, column)."""

from __future__ import annotations

import pandas as pd
import pytest
import schedlab
from schedlab import pelt
from schedlab.cli import main

HEADER = "dur_ns,state,cpu_cap,freq_cap\n"

BAD_FILES = [
    # (body after the header, line, column, words in the message)
    ("10,R,1024,1024\n10,X,1024,1024\n", 3, "state", "unknown state 'X'"),
    ("10,R,1024,1024\n10,r,1024,1024\n", 3, "state", "unknown state 'r'"),
    ("10,R,1024,1024\n10,W,1024,1024\n10,S,1024,1024\n", 4, "state", "impossible transition W -> S"),
    ("10,S,1024,1024\n", 2, "state", "first segment must be R or W"),
    ("0,R,1024,1024\n", 2, "dur_ns", "must be > 0"),
    ("10,R,1024,1024\n-5,S,1024,1024\n", 3, "dur_ns", "must be > 0"),
    ("1.5,R,1024,1024\n", 2, "dur_ns", "whole number"),
    ("10,R,0,1024\n", 2, "cpu_cap", "outside 1..1024"),
    ("10,R,1024,1025\n", 2, "freq_cap", "outside 1..1024"),
    ("10,R,big,1024\n", 2, "cpu_cap", "expected an integer"),
    ("10,R,1024,1024\n10,S,1024\n", 3, "freq_cap", "truncated"),  # the first column the row lacks
    ("10,R,1024,1024\n10,S,1024,1024,7\n", 3, None, "expected 4"),
]


@pytest.mark.parametrize("body,line,column,words", BAD_FILES)
def test_bad_trace_files(tmp_path, body, line, column, words):
    path = tmp_path / "trace.csv"
    path.write_text(HEADER + body)
    with pytest.raises(schedlab.ParseError) as e:
        pelt.simulate(path)
    assert e.value.path == str(path)
    assert e.value.line == line
    assert e.value.column == column
    assert words in str(e.value)
    assert isinstance(e.value, ValueError)


def test_missing_column(tmp_path):
    path = tmp_path / "trace.csv"
    path.write_text("dur_ns,cpu_cap\n10,1024\n")
    with pytest.raises(schedlab.ParseError) as e:
        pelt.read_trace(path)
    assert (e.value.path, e.value.line, e.value.column) == (str(path), 1, "state")


def test_non_utf8_and_empty(tmp_path):
    path = tmp_path / "trace.csv"
    path.write_bytes(HEADER.encode() + b"10,R,1024,1024\n10,\xff,1024,1024\n")
    with pytest.raises(schedlab.ParseError) as e:
        pelt.simulate(path)
    assert (e.value.line, "not UTF-8" in str(e.value)) == (3, True)
    path.write_bytes(b"")
    with pytest.raises(schedlab.ParseError, match="empty trace"):
        pelt.simulate(path)
    path.write_bytes(HEADER.encode())
    with pytest.raises(schedlab.ParseError, match="no segments"):
        pelt.simulate(path)


def test_missing_file(tmp_path):
    with pytest.raises(schedlab.FileNotFoundError):
        pelt.simulate(tmp_path / "nope.csv")


@pytest.mark.parametrize(
    "trace,column,words",
    [
        ({"dur_ns": [10, 10], "state": ["R", "Q"]}, "state", "segment 1: unknown state 'Q'"),
        ({"dur_ns": [10, 10, 10], "state": ["R", "W", "S"]}, "state", "segment 2: impossible transition W -> S"),
        ({"dur_ns": [10, 0], "state": ["R", "S"]}, "dur_ns", "segment 1: duration must be > 0"),
        ({"dur_ns": [10, -3], "state": ["R", "S"]}, "dur_ns", "segment 1: duration must be > 0"),
        ({"dur_ns": [10], "state": ["R"], "cpu_cap": [2000]}, "cpu_cap", "segment 0: capacity 2000"),
        ({"dur_ns": [10], "state": ["R"], "freq_cap": [0]}, "freq_cap", "segment 0: capacity 0"),
        ({"dur_ns": [10.5], "state": ["R"]}, "dur_ns", "whole numbers"),
        ({"state": ["R"]}, "dur_ns", "no 'dur_ns' column"),
        ({"dur_ns": [10]}, "state", "no 'state' column"),
    ],
)
def test_bad_in_memory_traces(trace, column, words):
    with pytest.raises(schedlab.ParseError) as e:
        pelt.simulate(pd.DataFrame(trace))
    assert e.value.column == column
    assert words in str(e.value)


def test_bad_options():
    trace = [(1_000_000, "R"), (1_000_000, "S")]
    with pytest.raises(schedlab.DomainError, match="unknown util_est rule"):
        pelt.simulate(trace, rule="5.0")
    with pytest.raises(schedlab.DomainError, match="init"):
        pelt.simulate(trace, init="half")
    with pytest.raises(schedlab.DomainError, match="HZ"):
        pelt.simulate(trace, hz=0)


def test_cli_reports_the_location(tmp_path, capsys):
    path = tmp_path / "trace.csv"
    path.write_text(HEADER + "10,R,1024,1024\n10,W,1024,1024\n10,S,1024,1024\n")
    assert main(["pelt", "simulate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:4: column 'state': impossible transition W -> S" in err


def test_a_trace_too_long_for_memory_is_an_error_not_a_crash():
    # 2^61 ns of running at HZ=100000: ~2.3e14 tick rows
    with pytest.raises(schedlab.DomainError, match="ticks"):
        pelt.simulate([(2**61, "R")], hz=100_000)


def test_absurd_running_time_is_refused_before_replaying(tmp_path, capsys):
    """Every tick is replayed even when its row is not wanted: 2^32 ticks is the limit
    (2^32 * 4 ms = 199 days of running at HZ=250), so a duration given in the wrong unit
    fails at once instead of running for hours or writing terabytes of CSV."""
    limit = 2**32 * 4_000_000  # one more tick than allowed: (limit / 4 ms) + 1
    for kwargs in ({}, {"columns": ["t_ns", "p_util_avg"], "events": ["sleep"]}, {"events": ["sleep"]}):
        with pytest.raises(schedlab.DomainError, match="4294967297 ticks of 4000000 ns"):
            pelt.simulate([(limit, "R"), (10, "S")], **kwargs)
    path = tmp_path / "trace.csv"
    path.write_text(HEADER + f"{limit},R,1024,1024\n")
    with pytest.raises(schedlab.DomainError, match="ticks"):
        pelt.simulate_csv(path)
    assert main(["pelt", "simulate", str(path)]) == 2
    assert "are the durations in ns?" in capsys.readouterr().err

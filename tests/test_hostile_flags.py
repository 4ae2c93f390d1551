"""Numeric flags and integer columns out of range: refused with the value as given
(exit code 2 from the command line, DomainError from the API), never an overflow
traceback, a wrapped value or a silently different meaning."""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np
import pandas as pd
import pytest
import schedlab
from schedlab import idle, pelt
from schedlab.cli import main

BAD_FLAGS = [
    (["stats", "--example", "--alpha", "2"], "argument --alpha: must be in (0, 1), got 2"),
    (["stats", "--example", "--alpha", "-1"], "argument --alpha: must be in (0, 1), got -1"),
    (["stats", "--example", "--alpha", "nan"], "argument --alpha: must be in (0, 1), got nan"),
    (["stats", "--example", "--alpha", "inf"], "argument --alpha: must be in (0, 1), got inf"),
    (["stats", "--example", "--seed", "-1"], "argument --seed: must be an integer in 0..18446744073709551615, got -1"),
    (["mmtests", "compare", "-d", ".", "-b", "x", "-n", "a,b", "--alpha", "1"], "argument --alpha: must be in (0, 1), got 1"),
    (["batch", ".", "--baseline", "x", "--alpha", "0"], "argument --alpha: must be in (0, 1), got 0"),
    (["batch", ".", "--baseline", "x", "--min-change", "nan"], "argument --min-change: must be a finite number >= 0, got nan"),
    (["batch", ".", "--baseline", "x", "--jobs", "99999999999999999999"],
     "argument --jobs: must be an integer in 1..1024, got 99999999999999999999"),
    (["batch", ".", "--baseline", "x", "--jobs", "0"], "argument --jobs: must be an integer in 1..1024, got 0"),
    (["pelt", "simulate", "t.csv", "--start-ns", str(2**64)],
     f"argument --start-ns: must be an integer in 0..18446744073709551615, got {2**64}"),
    (["pelt", "simulate", "t.csv", "--hz", "0"], "argument --hz: must be an integer in 1..100000, got 0"),
    (["pelt", "ftrace", "t.txt", "--pid", "-1"], "argument --pid: must be an integer in 0..2147483647, got -1"),
    (["pelt", "ftrace", "t.txt", "--pid", "42", "--cpu-cap", "-5"],
     "argument --cpu-cap: must be an integer in 1..1024, got -5"),
    (["pelt", "ftrace", "t.txt", "--pid", "42", "--freq-cap", "1025"],
     "argument --freq-cap: must be an integer in 1..1024, got 1025"),
    (["idle", "simulate", "t.csv", "--governor", "menu", "--states", "intel-skx", "--ftrace", "--cpu", "-3"],
     "argument --cpu: must be an integer in 0..2147483647, got -3"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_FLAGS, ids=[" ".join(a[-2:]) for a, _ in BAD_FLAGS])
def test_a_flag_out_of_range_is_exit_2_stating_the_value(argv, message):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert message in err.getvalue(), err.getvalue()


def test_an_alpha_in_range_still_works():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["stats", "--example", "--alpha", "0.01"]) == 0
    assert "change%" in out.getvalue()


IDLE = {"next_tick_ns": [4_000_000], "wake_ns": [500_000], "tick_stopped": [0], "latency_req_ns": [-1]}


@pytest.mark.parametrize(("value", "shown"), [(np.array([2**63 + 5], dtype=np.uint64), "9223372036854775813"),
                                              (np.array([1e19]), "1e+19")])
def test_a_column_value_past_int64_is_refused_as_given(value, shown):
    with pytest.raises(schedlab.DomainError, match=re.escape(f"sleep_length_ns', row 0: {shown} is outside")):
        idle.simulate("menu", pd.DataFrame({"sleep_length_ns": value, **IDLE}), "intel-skx")
    with pytest.raises(schedlab.SchedlabError, match=re.escape(f"dur_ns, row 0: {shown} is outside")):
        pelt.simulate(pd.DataFrame({"dur_ns": value, "state": ["R"]}))

"""What the command line says when it is given something wrong or asked for help: an
unknown run names the runs there are, a misspelled state preset lists the presets,
``--help`` is plain text (no reStructuredText markup from the docstrings), and
``idle summary`` shows the energy the state table's power gives."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from schedlab import cli

from .cli_run import run_cli

DATA = Path(__file__).parent / "data"



def test_an_unknown_run_name_lists_the_runs():
    d = DATA / "mmtests" / "logs-legacy"
    code, _, err = run_cli("mmtests", "compare", "-d", str(d), "-b", "netperf-udp", "-n", "6.8-vanilla,6.9-patchd")
    assert code == 2
    assert "no run '6.9-patchd' of netperf-udp" in err and "6.8-vanilla, 6.9-patched" in err, err
    assert "os error" not in err


def test_a_misspelled_state_preset_lists_the_presets():
    trace = DATA / "idle" / "inputs" / "gov_mixed.csv"
    code, _, err = run_cli("idle", "summary", str(trace), "--governor", "menu", "--states", "arm-rk3398")
    assert code == 2 and "'arm-rk3398' is not a file, a directory or a state-table preset" in err, err
    assert "arm-rk3399" in err  # the preset meant, among those listed


def _parsers(p: argparse.ArgumentParser):
    yield p
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for child in dict.fromkeys(a.choices.values()):
                yield from _parsers(child)


def test_help_is_plain_text():
    parsers = list(_parsers(cli.build_parser()))
    assert len(parsers) > 10
    for p in parsers:
        text = p.format_help()
        assert "``" not in text and ":func:`" not in text and ":class:`" not in text, p.prog


def test_idle_summary_shows_energy_when_the_state_table_has_power(tmp_path):
    states = tmp_path / "states.csv"
    rows = (DATA / "idle" / "inputs" / "states_x86.csv").read_text().splitlines()
    states.write_text("\n".join([rows[0] + ",power_mw"] + [r + f",{p}" for r, p in zip(rows[1:], (900, 500, 300, 50))])
                      + "\n")
    trace = DATA / "idle" / "inputs" / "gov_mixed.csv"
    code, out, err = run_cli("idle", "summary", str(trace), "--governor", "menu", "--states", str(states))
    assert code == 0 and "energy_uj" in out, err
    code, out, err = run_cli("idle", "summary", str(trace), "--governor", "menu",
                             "--states", str(DATA / "idle" / "inputs" / "states_x86.csv"))
    assert code == 0 and "energy_uj" not in out, err


@pytest.mark.parametrize("argv", [["batch", "--help"], ["mmtests", "compare", "--help"]])
def test_help_of_a_command_exits_0(argv):
    code, out, _ = run_cli(*argv)
    assert code == 0 and "usage: schedlab" in out and "``" not in out

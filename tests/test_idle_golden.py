"""The menu/teo goldens of the kernel oracle through the Python API and byte for byte
through the CLI (data copied to tests/data/idle; the reference tree is never read).
tests/it/idle_golden.rs checks every golden of tests/data/idle/goldens.csv; here each
binding runs one golden per governor, kernel and state table, the traces rotating, the
API and the CLI different ones."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from schedlab import cli, idle

from . import goldens

DATA = goldens.DATA / "idle"
GOLDENS = goldens.read("idle")
BY_VERSION_AND_ARCH = ("governor", "kernel", "arch")
API_PICKS = goldens.spread(GOLDENS, BY_VERSION_AND_ARCH, "trace", offset=0)
CLI_PICKS = goldens.spread(GOLDENS, BY_VERSION_AND_ARCH, "trace", offset=2)


def inputs_of(name: str) -> tuple[str, str, Path, int, Path]:
    """The golden ``name``'s governor, kernel, state table, HZ and trace (its manifest row)."""
    r = goldens.row("idle", name)
    return r["governor"], r["kernel"], DATA / r["states"], int(r["hz"]), DATA / r["trace"]


def test_all_goldens_are_listed() -> None:
    assert len(GOLDENS) == 110
    versions = {(r["governor"], r["kernel"]) for r in GOLDENS}
    assert versions == {("menu", k) for k in ("6.12", "6.1", "6.6", "6.18", "4.18", "4.19", "4.20")} | {
        ("teo", k) for k in ("6.12", "6.1", "6.6", "6.18", "5.1")}
    # each binding covers every governor version on each state table it was replayed on
    assert len(API_PICKS) == len(CLI_PICKS) == len({tuple(r[c] for c in BY_VERSION_AND_ARCH) for r in GOLDENS}) == 22
    assert not set(goldens.ids(API_PICKS)) & set(goldens.ids(CLI_PICKS))


@pytest.mark.parametrize("name", goldens.ids(API_PICKS))
def test_simulate_matches_golden(name: str) -> None:
    gov, kernel, states, hz, trace = inputs_of(name)
    got = idle.simulate(gov, trace, states, kernel=kernel, hz=hz)
    want = pd.read_csv(DATA / name)
    assert list(got.columns) == list(want.columns)
    pd.testing.assert_frame_equal(got, want, check_dtype=True)


@pytest.mark.parametrize("name", goldens.ids(CLI_PICKS))
def test_cli_output_is_byte_identical(name: str, tmp_path: Path) -> None:
    gov, kernel, states, hz, trace = inputs_of(name)
    out = tmp_path / "out.csv"
    argv = ["idle", "simulate", "--governor", gov, "--kernel", kernel, "--hz", str(hz),
            "--states", str(states), str(trace), "-o", str(out)]
    assert cli.main(argv) == 0
    assert out.read_bytes() == (DATA / name).read_bytes()


def test_cli_writes_to_stdout(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    name = "teo61_x86_hz250_mixed.golden.csv"
    gov, kernel, states, hz, trace = inputs_of(name)
    argv = ["idle", "simulate", "--governor", gov, "--kernel", kernel, "--hz", str(hz), "--states", str(states), str(trace)]
    assert cli.main(argv) == 0
    assert capsysbinary.readouterr().out == (DATA / name).read_bytes()


def test_dataframe_and_dict_inputs_give_the_same_replay() -> None:
    gov, kernel, states, hz, trace = inputs_of("menu418_x86_hz250_mixed.golden.csv")
    t = idle.read_trace(trace).to_pandas()
    s = idle.read_states(states).to_pandas()
    by_frame = idle.simulate(gov, t, s, kernel=kernel, hz=hz)
    by_dict = idle.simulate(gov, {c: t[c].to_numpy() for c in t.columns}, s.to_dict("list"), kernel=kernel, hz=hz)
    pd.testing.assert_frame_equal(by_frame, pd.read_csv(DATA / "menu418_x86_hz250_mixed.golden.csv"))
    pd.testing.assert_frame_equal(by_dict, by_frame)


def test_many_cpus_in_parallel_equal_one_by_one() -> None:
    names = ["teo_x86_hz250_mixed.golden.csv", "teo_x86_hz250_bimodal.golden.csv", "teo_x86_hz250_irq300us.golden.csv"]
    traces = {cpu: inputs_of(n)[4] for cpu, n in enumerate(names)}
    got = idle.simulate_many("teo", traces, DATA / "inputs" / "states_x86.csv", kernel="6.12", hz=250, threads=2)
    for cpu, n in enumerate(names):
        part = got[got.cpu == cpu].drop(columns="cpu").reset_index(drop=True)
        pd.testing.assert_frame_equal(part, pd.read_csv(DATA / n))

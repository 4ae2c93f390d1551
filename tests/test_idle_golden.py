"""Every menu/teo golden of the kernel oracle, reproduced through the Python API and
byte for byte through the CLI (data copied to tests/data/idle; the reference tree is never read)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from schedlab import cli, idle

DATA = Path(__file__).parent / "data" / "idle"
GOLDENS = sorted(p.name for p in DATA.glob("*.golden.csv") if p.name.startswith(("menu", "teo")))
VERSIONS = {"": "6.12", "61": "6.1", "66": "6.6", "618": "6.18", "418": "4.18", "419": "4.19", "420": "4.20",
            "51": "5.1"}


def inputs_of(name: str) -> tuple[str, str, Path, int, Path]:
    """``<gov><ver>_<states>_hz<HZ>_<trace>.golden.csv`` → governor, kernel, states, hz, trace."""
    stem = name[: -len(".golden.csv")]
    head, states, hz, trace = stem.split("_", 3)
    gov = head.rstrip("0123456789")
    return (
        gov,
        VERSIONS[head[len(gov):]],
        DATA / "inputs" / f"states_{states}.csv",
        int(hz[2:]),
        DATA / "inputs" / f"gov_{trace}.csv",
    )


def test_all_goldens_are_present() -> None:
    assert len(GOLDENS) == 110
    prefixes = {n.split("_")[0] for n in GOLDENS}
    assert prefixes == {"menu", "menu61", "menu66", "menu618", "menu418", "menu419", "menu420",
                        "teo", "teo61", "teo66", "teo618", "teo51"}


@pytest.mark.parametrize("name", GOLDENS)
def test_simulate_matches_golden(name: str) -> None:
    gov, kernel, states, hz, trace = inputs_of(name)
    got = idle.simulate(gov, trace, states, kernel=kernel, hz=hz)
    want = pd.read_csv(DATA / name)
    assert list(got.columns) == list(want.columns)
    pd.testing.assert_frame_equal(got, want, check_dtype=True)


@pytest.mark.parametrize("name", GOLDENS)
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

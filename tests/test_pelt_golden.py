"""The PELT/util_est goldens of the kernel oracle (tests/data/pelt: the kernel's own
pelt.c/fair.c compiled unmodified in userspace; MANIFEST.txt names the sources) reproduced
exactly through the Python API and the CLI. tests/it/pelt_golden.rs replays every golden of
tests/data/pelt/goldens.csv; here each binding runs one replay golden per kernel, start
state and util_est setting, the traces rotating."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from schedlab import pelt
from schedlab.cli import main
from schedlab.errors import DomainError

from . import goldens

PELT = goldens.DATA / "pelt"
REPLAYS = [r for r in goldens.read("pelt") if r["kind"] == "replay"]
# 6.12's replays (the top-level goldens)
REPLAYS_612 = [r for r in REPLAYS if r["kernels"].split()[0] == "6.12"]
BY_OPTIONS = ("kernels", "init", "util_est")
API_PICKS = goldens.spread(REPLAYS, BY_OPTIONS, "trace", offset=0)
CLI_PICKS = goldens.spread(REPLAYS, BY_OPTIONS, "trace", offset=1)


def options(r: dict[str, str]) -> dict:
    """simulate()'s options for the golden ``r``: its (first) kernel, start state, util_est."""
    opts: dict = {"kernel": r["kernels"].split()[0]}
    if r["init"] != "kernel":
        opts["init"] = r["init"]
    if r["util_est"] == "0":
        opts["util_est"] = False
    return opts


def flags(r: dict[str, str]) -> list[str]:
    """`pelt simulate`'s flags for the golden ``r``."""
    out = ["--kernel", r["kernels"].split()[0]]
    if r["init"] != "kernel":
        out += ["--init", r["init"]]
    if r["util_est"] == "0":
        out.append("--no-util-est")
    return out


@pytest.fixture
def pelt_dir(data_dir):
    return data_dir / "pelt"


def test_the_picks_cover_every_kernel_and_option():
    for picks in (API_PICKS, CLI_PICKS):
        for col in BY_OPTIONS:
            assert {r[col] for r in picks} == {r[col] for r in REPLAYS}, col
    kernels = {k for r in REPLAYS for k in r["kernels"].split()}
    assert {r["kernels"].split()[0] for r in REPLAYS} <= kernels <= set(pelt.KERNELS)


@pytest.mark.parametrize("r", API_PICKS, ids=goldens.ids(API_PICKS))
def test_simulate_dataframe_equals_golden(pelt_dir, r):
    want = pd.read_csv(pelt_dir / r["golden"])
    got = pelt.simulate(pelt_dir / r["trace"], **options(r))
    assert list(got.columns) == list(want.columns)
    got = got.astype({"event": str, "state": str})
    pd.testing.assert_frame_equal(got, want, check_dtype=False)


def migrates(r: dict[str, str]) -> bool:
    """Whether the golden's trace moves the task between runqueues (its `cpu` column)."""
    cpus = pd.read_csv(PELT / r["trace"]).get("cpu")
    return cpus is not None and cpus.nunique() > 1


# 6.12's replays whose trace stays on one CPU (in-memory columns refuse a migration)
IN_MEMORY = [r for r in REPLAYS_612 if not migrates(r)]


@pytest.mark.parametrize("r", IN_MEMORY, ids=goldens.ids(IN_MEMORY))
def test_simulate_from_dataframe_input(pelt_dir, r):
    """The same result when the trace arrives as a DataFrame instead of a path."""
    want = pd.read_csv(pelt_dir / r["golden"])
    df = pd.read_csv(pelt_dir / r["trace"])
    got = pelt.simulate(df, **options(r))
    np.testing.assert_array_equal(got["p_util_avg"].to_numpy(), want["p_util_avg"].to_numpy())
    np.testing.assert_array_equal(got["cpu_util_without_p"].to_numpy(), want["cpu_util_without_p"].to_numpy())
    assert (got["event"].astype(str) == want["event"]).all()


def test_columns_in_memory_refuse_a_migration(pelt_dir):
    df = pd.read_csv(pelt_dir / "inputs" / "pelt_migrate.csv")
    with pytest.raises(DomainError, match="migrates the task"):
        pelt.simulate(df)


def test_kernels():
    assert pelt.KERNELS[0] == "6.12" and "4.19" in pelt.KERNELS
    with pytest.raises(DomainError, match="unknown kernel '5.4'"):
        pelt.simulate([(1_000_000, "R")], kernel="5.4")


@pytest.mark.parametrize("r", CLI_PICKS, ids=goldens.ids(CLI_PICKS))
def test_cli_writes_the_golden_bytes(pelt_dir, tmp_path, r):
    out = tmp_path / "out.csv"
    rc = main(["pelt", "simulate", str(pelt_dir / r["trace"]), *flags(r), "-o", str(out)])
    assert rc == 0
    assert out.read_bytes() == (pelt_dir / r["golden"]).read_bytes()


EXECL = [goldens.row("pelt", g) for g in ("pelt_execl_like.golden.csv", "pelt_execl_like.noue.golden.csv")]


@pytest.mark.parametrize("r", EXECL, ids=goldens.ids(EXECL))
def test_cli_stdout_is_byte_identical(pelt_dir, r):
    cmd = [sys.executable, "-m", "schedlab", "pelt", "simulate", str(pelt_dir / r["trace"]), *flags(r)]
    res = subprocess.run(cmd, capture_output=True, check=True)
    assert res.stdout == (pelt_dir / r["golden"]).read_bytes()


def test_cli_reads_stdin(pelt_dir):
    src = (pelt_dir / "inputs" / "pelt_periodic25.csv").read_bytes()
    res = subprocess.run([sys.executable, "-m", "schedlab", "pelt", "simulate", "-"], input=src,
                         capture_output=True, check=True)
    assert res.stdout == (pelt_dir / "pelt_periodic25.golden.csv").read_bytes()


def test_simulate_csv_bytes(pelt_dir):
    got = pelt.simulate_csv((pelt_dir / "inputs" / "pelt_step10to80.csv").read_bytes())
    assert got == (pelt_dir / "pelt_step10to80.golden.csv").read_bytes()


def test_decay_load_golden(pelt_dir):
    g = pd.read_csv(pelt_dir / "pelt_decay_load.csv", dtype=np.uint64)
    got = pelt.decay_load(g["val"].to_numpy(), g["n"].to_numpy())
    np.testing.assert_array_equal(got, g["decay_load"].to_numpy())
    assert len(g) > 3000


def test_accumulate_golden(pelt_dir):
    g = pd.read_csv(pelt_dir / "pelt_accumulate.csv", dtype=np.uint64)
    got = pelt.accumulate(g["delta_ns"], g["load"], g["runnable"], g["running"], weight=1024)
    for col in ("last_update_time", "load_sum", "runnable_sum", "util_sum", "period_contrib", "load_avg",
                "runnable_avg", "util_avg"):
        np.testing.assert_array_equal(got[col].to_numpy(), g[col].to_numpy(), err_msg=col)
    np.testing.assert_array_equal(got["ret"].to_numpy(), g["ret_sum"].to_numpy())
    np.testing.assert_array_equal(got["ret"].to_numpy(), g["ret_avg"].to_numpy())


def test_util_est_update_golden(pelt_dir):
    g = pd.read_csv(pelt_dir / "util_est_update.csv")
    got = pelt.util_est_update(g["ewma_in"], g["util_avg"], g["runnable_avg"], g["cpu_cap"],
                               unchanged=g["flag_in"], task_sleep=g["task_sleep"])
    np.testing.assert_array_equal(got["ewma"].to_numpy(), g["ewma_out"].to_numpy())
    np.testing.assert_array_equal(got["unchanged"].to_numpy(), g["flag_out"].to_numpy().astype(bool))
    assert len(g) == 20000


def test_simulate_csv_streams_to_a_callable(pelt_dir):
    chunks: list[bytes] = []
    assert pelt.simulate_csv(pelt_dir / "inputs" / "pelt_invariance.csv", write=chunks.append) is None
    assert b"".join(chunks) == (pelt_dir / "pelt_invariance.golden.csv").read_bytes()

    def broken(_data):
        raise BrokenPipeError("reader went away")

    with pytest.raises(BrokenPipeError, match="reader went away"):
        pelt.simulate_csv(pelt_dir / "inputs" / "pelt_invariance.csv", write=broken)


def test_cli_survives_a_closed_pipe(pelt_dir):
    cmd = f"'{sys.executable}' -m schedlab pelt simulate '{pelt_dir / 'inputs' / 'pelt_execl_like.csv'}' | head -2"
    res = subprocess.run(cmd, shell=True, capture_output=True, check=True)
    assert res.stdout.splitlines()[1].startswith(b"1048576000,fork,0,S,")
    assert b"Traceback" not in res.stderr

"""Every PELT/util_est golden of the kernel oracle (tests/data/pelt: the kernel's own
pelt.c/fair.c compiled unmodified in userspace; MANIFEST.txt names the sources) reproduced
exactly through the Python API and the CLI."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from schedlab import pelt
from schedlab.cli import main
from schedlab.errors import DomainError

# (input trace, golden file, simulate() options, CLI flags)
SCENARIOS = [
    ("periodic25", "pelt_periodic25.golden.csv", {}, []),
    ("periodic50", "pelt_periodic50.golden.csv", {}, []),
    ("periodic50", "pelt_periodic50.init0.golden.csv", {"init": "zero"}, ["--init", "zero"]),
    ("step10to80", "pelt_step10to80.golden.csv", {}, []),
    ("execl_like", "pelt_execl_like.golden.csv", {}, []),
    ("execl_like", "pelt_execl_like.noue.golden.csv", {"util_est": False}, ["--no-util-est"]),
    ("invariance", "pelt_invariance.golden.csv", {}, []),
    ("migrate", "pelt_migrate.golden.csv", {}, []),
]
IDS = [g.replace(".golden.csv", "") for _, g, _, _ in SCENARIOS]
# 4.19.72's goldens (tests/data/pelt/4.19): the same scenarios with --kernel 4.19
SCENARIOS_419 = [(t, "4.19/" + g, {**o, "kernel": "4.19"}, [*f, "--kernel", "4.19"]) for t, g, o, f in SCENARIOS]


@pytest.fixture
def pelt_dir(data_dir):
    return data_dir / "pelt"


def test_every_pelt_golden_is_covered(pelt_dir):
    goldens = {p.name for p in pelt_dir.glob("pelt_*.golden.csv")}
    assert goldens == {g for _, g, _, _ in SCENARIOS}


@pytest.mark.parametrize("trace,golden,opts,flags", SCENARIOS + SCENARIOS_419, ids=IDS + [f"4.19-{i}" for i in IDS])
def test_simulate_dataframe_equals_golden(pelt_dir, trace, golden, opts, flags):
    want = pd.read_csv(pelt_dir / golden)
    got = pelt.simulate(pelt_dir / "inputs" / f"pelt_{trace}.csv", **opts)
    assert list(got.columns) == list(want.columns)
    got = got.astype({"event": str, "state": str})
    pd.testing.assert_frame_equal(got, want, check_dtype=False)


@pytest.mark.parametrize("trace,golden,opts,flags", SCENARIOS[:-1], ids=IDS[:-1])
def test_simulate_from_dataframe_input(pelt_dir, trace, golden, opts, flags):
    """The same result when the trace arrives as a DataFrame instead of a path."""
    want = pd.read_csv(pelt_dir / golden)
    df = pd.read_csv(pelt_dir / "inputs" / f"pelt_{trace}.csv")
    got = pelt.simulate(df, **opts)
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


@pytest.mark.parametrize("trace,golden,opts,flags", SCENARIOS + SCENARIOS_419, ids=IDS + [f"4.19-{i}" for i in IDS])
def test_cli_writes_the_golden_bytes(pelt_dir, tmp_path, trace, golden, opts, flags):
    out = tmp_path / "out.csv"
    rc = main(["pelt", "simulate", str(pelt_dir / "inputs" / f"pelt_{trace}.csv"), *flags, "-o", str(out)])
    assert rc == 0
    assert out.read_bytes() == (pelt_dir / golden).read_bytes()


@pytest.mark.parametrize("trace,golden,opts,flags", SCENARIOS[4:6], ids=IDS[4:6])
def test_cli_stdout_is_byte_identical(pelt_dir, trace, golden, opts, flags):
    cmd = [sys.executable, "-m", "schedlab", "pelt", "simulate", str(pelt_dir / "inputs" / f"pelt_{trace}.csv"), *flags]
    res = subprocess.run(cmd, capture_output=True, check=True)
    assert res.stdout == (pelt_dir / golden).read_bytes()


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

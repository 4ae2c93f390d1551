"""schedlab.idle beyond the goldens: summaries (checked against counts made in the test
from golden rows and the kernel's rules), compare, readers, generators, CLI."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from schedlab import cli, idle

from . import goldens

DATA = Path(__file__).parent / "data" / "idle"
X86 = DATA / "inputs" / "states_x86.csv"


def x86_table() -> list[tuple[str, int, int]]:
    """(name, exit_latency_ns, target_residency_ns) straight from the CSV, without schedlab."""
    with open(X86) as f:
        return [(r["name"], int(r["exit_latency_us"]) * 1000, int(r["target_residency_us"]) * 1000) for r in csv.DictReader(f)]


def kernel_counters(rows: pd.DataFrame, table: list[tuple[str, int, int]]) -> dict[str, list[int]]:
    """usage/time/above/below per state, by cpuidle_enter_state()'s rules (all states enabled):
    above when d < target residency and a shallower state exists; below when d > exit latency
    and d - exit latency >= the next state's target residency."""
    n = len(table)
    out = {k: [0] * n for k in ("usage", "time_ns", "above", "below", "exit_latency_ns")}
    for k, d in zip(rows["idx"], rows["residency_ns"]):
        _, el, tr = table[k]
        out["usage"][k] += 1
        out["time_ns"][k] += d
        out["exit_latency_ns"][k] += el
        if d < tr:
            out["above"][k] += 1 if k > 0 else 0
        elif d > el and k + 1 < n and d - el >= table[k + 1][2]:
            out["below"][k] += 1
    return out


@pytest.mark.parametrize("name", ["teo_x86_hz250_bimodal.golden.csv", "menu61_x86_hz250_mixed.golden.csv", "menu418_x86_hz250_irq300us.golden.csv"])
def test_summary_counts_match_the_kernel_rules_on_golden_rows(name: str) -> None:
    golden = pd.read_csv(DATA / name)
    table = x86_table()
    want = kernel_counters(golden, table)
    got = idle.summarize(golden, X86)
    assert got.index.tolist() == [t[0] for t in table]
    for col, values in want.items():
        assert got[col].tolist() == values, col
    assert got.energy_uj.isna().all()


def test_energy_is_power_times_residency() -> None:
    golden = pd.read_csv(DATA / "teo_x86_hz250_irq300us.golden.csv")
    power = [1500.0, 1200.0, 900.0, 150.0]
    got = idle.summarize(golden, X86, power_mw=power)
    time_ns = golden.groupby("idx").residency_ns.sum().reindex(range(4), fill_value=0)
    want = [p * t / 1e6 for p, t in zip(power, time_ns)]  # mW × ns = pJ → µJ
    assert got.energy_uj.tolist() == pytest.approx(want, rel=1e-12)
    # power numbers can also come with the state table
    table = idle.read_states(X86).to_pandas()
    table["power_mw"] = power
    assert idle.summarize(golden, table).energy_uj.tolist() == pytest.approx(want, rel=1e-12)


def test_compare_reads_every_governor_spec_form() -> None:
    # the core splits the spec (src/idle/governor.rs split_spec): '@', ':', space, '-'
    trace = DATA / "inputs" / "gov_bimodal.csv"
    df = idle.compare(["teo 6.1", "menu:4.18", "teo-5.1", (" menu", 6.6), "menu@ 6.12 "], trace, X86, hz=250)
    labels = df.columns.get_level_values(0).unique().tolist()
    assert labels == ["trace", "teo 6.1", "menu 4.18", "teo 5.1", " menu 6.6", "menu 6.12"]


def test_compare_puts_governors_side_by_side() -> None:
    trace = DATA / "inputs" / "gov_bimodal.csv"
    df = idle.compare(["menu", "teo", ("menu", "4.18"), "teo@5.1"], trace, X86, hz=250)
    labels = df.columns.get_level_values(0).unique().tolist()
    assert labels == ["trace", "menu 6.12", "teo 6.12", "menu 4.18", "teo 5.1"]
    for label in ("menu 6.12", "teo 6.12", "menu 4.18", "teo 5.1"):
        governor, kernel = label.split()
        golden = goldens.find("idle", governor=governor, kernel=kernel, arch="x86", trace="inputs/gov_bimodal.csv")
        g = pd.read_csv(DATA / golden["golden"])
        assert df[label]["idx"].tolist() == g.idx.tolist()
        assert df[label]["residency_ns"].tolist() == g.residency_ns.tolist()
        names = [t[0] for t in x86_table()]
        assert df[label]["state"].tolist() == [names[i] for i in g.idx]
        counts = kernel_counters(g, x86_table())
        assert int(df[label]["above"].sum()) == sum(counts["above"])
        assert int(df[label]["below"].sum()) == sum(counts["below"])
    summ = idle.compare_summary(["menu", "teo"], trace, X86)
    assert summ.xs("usage", axis=1, level=1).sum().tolist() == [300, 300]


def test_presets_and_sysfs_readers(tmp_path: Path) -> None:
    x86 = idle.read_states(X86).to_pandas()
    pd.testing.assert_frame_equal(idle.preset("intel-skx").to_pandas(), x86)
    root = tmp_path / "cpu0" / "cpuidle"
    for i, (name, el, tr) in enumerate(x86_table()):
        d = root / f"state{i}"
        d.mkdir(parents=True)
        (d / "name").write_text(name + "\n")
        (d / "latency").write_text(f"{el // 1000}\n")
        (d / "residency").write_text(f"{tr // 1000}\n")
        (d / "disable").write_text("1\n" if name == "C1E" else "0\n")
    got = idle.read_states(tmp_path / "cpu0").to_pandas()
    assert got.name.tolist() == x86.name.tolist()
    assert got.polling.tolist() == [True, False, False, False]
    assert got.disabled.tolist() == [False, False, True, False]
    assert idle.states(root).to_pandas().equals(got)


def test_disabled_state_is_never_chosen() -> None:
    table = idle.read_states(X86).to_pandas()
    table.loc[2, "disabled"] = True
    df = idle.simulate("teo", DATA / "inputs" / "gov_irq300us.csv", table)
    assert 2 not in set(df.idx)


def test_generators_are_seeded() -> None:
    a = idle.poisson(1000, 250_000, seed=11).to_pandas()
    pd.testing.assert_frame_equal(a, idle.poisson(1000, 250_000, seed=11).to_pandas())
    assert not a.equals(idle.poisson(1000, 250_000, seed=12).to_pandas())
    assert list(a.columns) == list(idle.TRACE_COLUMNS)
    p = idle.periodic(100, 2_000_000, jitter_ns=5_000, hz=1000, seed=3).to_pandas()
    assert p.next_tick_ns.between(1, 1_000_000).all() and (p.wake_ns == -1).all()
    b = idle.bimodal(100, 100_000, 5_000_000, seed=1)
    assert (b.sleep_length_ns == 30_000_000).all()
    t = idle.tick_stopped(100, 20_000_000, p_wake=0.0, seed=2)
    assert (t.wake_ns == -1).all() and (t.tick_stopped == 1).all()


def test_ftrace_traces_replay(tmp_path: Path) -> None:
    lines = []
    t = 100_000_000  # µs
    for k in range(50):
        lines.append(f"  <idle>-0 [003] d..1. {t // 1_000_000}.{t % 1_000_000:06d}: cpu_idle: state=2 cpu_id=3")
        t += 300 + (k % 5) * 20
        lines.append(f"  <idle>-0 [003] d..1. {t // 1_000_000}.{t % 1_000_000:06d}: cpu_idle: state=4294967295 cpu_id=3")
        t += 40
    p = tmp_path / "report.txt"
    p.write_text("cpus=4\n" + "\n".join(lines) + "\n")
    traces = idle.read_ftrace(p, hz=250)
    tr = traces[3]
    assert tr.wake_ns.tolist()[:5] == [300_000, 320_000, 340_000, 360_000, 380_000]
    assert (tr.actual_state == 2).all()
    assert tr.stats["sleep_length_unknown"] == 50
    df = idle.simulate("menu", tr, "intel-skx")
    assert len(df) == 50
    out = tmp_path / "o.csv"
    assert cli.main(["idle", "simulate", "--ftrace", "--governor", "teo", "--states", "intel-skx", str(p), "-o", str(out)]) == 0
    assert len(pd.read_csv(out)) == 50


def test_cli_summary_and_presets(capsys: pytest.CaptureFixture[str]) -> None:
    trace = DATA / "inputs" / "gov_irq300us.csv"
    assert cli.main(["idle", "summary", "--governor", "menu", "--governor", "teo@5.1", "--states", str(X86), str(trace)]) == 0
    out = capsys.readouterr().out
    assert "menu 6.12" in out and "teo 5.1" in out and "C1E" in out
    assert cli.main(["idle", "presets"]) == 0
    assert "intel-skx" in capsys.readouterr().out


def test_governor_list() -> None:
    assert set(idle.GOVERNORS) == {
        ("menu", "6.18"), ("menu", "6.12"), ("menu", "6.6"), ("menu", "6.1"), ("menu", "4.20"),
        ("menu", "4.19"), ("menu", "4.18"),
        ("teo", "6.18"), ("teo", "6.12"), ("teo", "6.6"), ("teo", "6.1"), ("teo", "5.1"),
    }
    assert np.issubdtype(idle.simulate("menu", idle.periodic(3, 1_000_000), "intel-skx").idx.dtype, np.integer)


def test_bundled_example_traces_replay() -> None:
    from schedlab import examples

    states = examples.path("idle", "states_x86.csv")
    for name in ("trace-network.csv", "trace-timer.csv"):
        trace = examples.path("idle", name)
        n = len(idle.read_trace(trace))
        s = idle.compare_summary(["menu", "teo", "menu@4.18", "teo@5.1"], trace, states)
        assert s.xs("usage", axis=1, level=1).sum().tolist() == [n] * 4

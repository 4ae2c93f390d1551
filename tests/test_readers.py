"""Result files from Python and `schedlab stats --format`: the files captured on this
machine with the real tools (tests/data/readers/, tools/oracles/readers/capture.sh),
read as tidy frames and compared metric by metric."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import schedlab
from schedlab import readers

from .cli_run import run_cli

DATA = Path(__file__).parent / "data" / "readers"



def test_hyperfine_frame_matches_its_own_means():
    df = readers.read(DATA / "hyperfine.json")
    assert list(df.columns) == ["metric", "value", "unit", "direction", "group"]
    doc = json.loads((DATA / "hyperfine.json").read_text())
    for r in doc["results"]:
        v = df.loc[df["metric"] == r["command"], "value"]
        assert len(v) == len(r["times"]) and v.mean() == pytest.approx(r["mean"], rel=1e-12)
    assert set(df["direction"]) == {"lower"}


def test_every_format_reads(tmp_path):
    for name, fmt in (("perf-stat-r5.txt", "perf-stat"), ("perf-stat-r5.csv", "perf-stat-csv"),
                      ("perf-stat-r5.json", "perf-stat-json"), ("fio.json", "fio"),
                      ("pytest-benchmark.json", "pytest-benchmark"), ("pyperf.json", "pyperf"),
                      ("google-benchmark.json", "google-benchmark"), ("pts-composite.xml", "pts"),
                      ("mmtests-compare-netperf-ipv4-udp-rr.json.zst", "mmtests-json")):
        assert readers.read(DATA / name).equals(readers.read(DATA / name, fmt)), name
    with pytest.raises(schedlab.DomainError, match="unknown result format"):
        readers.read(DATA / "fio.json", "xml")
    bad = tmp_path / "bad.json"
    bad.write_text('{"results": [{"command": "a", "times": [1, "x"]}]}')
    with pytest.raises(schedlab.ParseError, match=r"results\[0\]\.times\[1\]: expected a number"):
        readers.read(bad)


def test_stats_compares_directories_of_perf_runs(tmp_path):
    for group, runs in (("base", (1, 2)), ("new", (3, 1))):
        (tmp_path / group).mkdir()
        for i in runs:
            shutil.copy(DATA / f"perf-stat-run{i}.csv", tmp_path / group / f"run{i}.csv")
    code, out, err = run_cli("stats", "--format", "perf-stat-csv", str(tmp_path / "base"), str(tmp_path / "new"))
    assert code == 0, err
    df = readers.read_groups([tmp_path / "base", tmp_path / "new"])
    r = schedlab.compare(df, value="value", group="group", baseline="base", metric="metric")
    for row in r.itertuples():
        assert f"{row.mean_base:.6g}" in out and row.verdict in out
    tc = df[df["metric"] == "task-clock"]
    assert r.loc[r["metric"] == "task-clock", "mean_base"].iloc[0] == pytest.approx(
        tc.loc[tc["group"] == "base", "value"].mean())


def test_one_file_of_several_systems_is_several_groups():
    # a PTS result holds both systems: stats compares kernel-b with kernel-a; the
    # means are the Values PTS wrote (its mean of the runs, 2 decimals)
    code, out, _ = run_cli("stats", "--format", "auto", str(DATA / "pts-composite.xml"))
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("Sysbench System: Test: CPU"))
    cells = row.split()
    assert "kernel-b" in cells and "3/3" in cells
    assert float(cells[cells.index("3/3") + 1]) == pytest.approx(728.50, abs=0.005)
    assert float(cells[cells.index("3/3") + 2]) == pytest.approx(538.61, abs=0.005)
    # MMTests' compressed comparison export: the kernels are the groups
    df = readers.read_groups([DATA / "mmtests-compare-netperf-ipv4-udp-rr.json.zst"])
    assert list(dict.fromkeys(df["group"])) == ["6.8-vanilla", "6.9-patched"]
    assert df.columns[0] == "group" and (df["direction"] == "higher").all()

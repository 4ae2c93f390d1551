"""Change points over result trees: an MMTests work/log tree (as a directory and as a
.tar.gz) and lkp result roots written here, with a step of x1.2 in one metric from
the 5th run on; the change must be found at that run (index 4, written by hand) and
nowhere in the metric left unchanged."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pandas as pd
import pytest
import schedlab

from .cli_run import run_cli

#: Small noise around 1 (at most 0.5 %), one factor a run.
NOISE = [1.000, 1.004, 0.997, 1.002, 0.995, 1.003, 0.998, 1.005, 0.996, 1.001]
KERNELS = [f"6.{k}" for k in range(1, 11)]  # natural order: 6.10 last



def mmtests_tree(root: Path) -> Path:
    """work/log with hackbench-process-pipes at 1 and 4 groups, three samples a
    kernel; the 4-group times are 1.2 times longer from 6.5 (the 5th kernel) on."""
    log = root / "work" / "log"
    for k, (kernel, noise) in enumerate(zip(KERNELS, NOISE)):
        it = log / kernel / "iter-0"
        (it / "hackbench-process-pipes" / "logs").mkdir(parents=True)
        (it / "tests-timestamp").write_text("start 1700000000\n")
        for groups, base in ((1, 0.020), (4, 0.080)):
            step = 1.2 if groups == 4 and k >= 4 else 1.0
            text = "".join(f"# Running 'sched/messaging' benchmark:\n\n     Total time: {base * noise * step * s:.6f} [sec]\n"
                           for s in (0.999, 1.0, 1.001))
            (it / "hackbench-process-pipes" / "logs" / f"hackbench-{groups}").write_text(text)
    return root


def lkp_tree(root: Path) -> tuple[Path, list[str]]:
    """Ten commits (hashes that sort against history order), unixbench.score 1.2
    times higher from the 5th commit on, hackbench.throughput unchanged."""
    commits = [f"{0xc0ffee + 7 * (9 - i):040x}" for i in range(10)]
    for i, (c, noise) in enumerate(zip(commits, NOISE)):
        step = 1.2 if i >= 4 else 1.0
        d = root / "unixbench" / c
        d.mkdir(parents=True)
        (d / "matrix.json").write_text(json.dumps({
            "unixbench.score": [1000.0 * noise * step, 1001.0 * noise * step],
            "hackbench.throughput": [500.0 * noise, 501.0 * noise],
        }))
    return root, commits


def test_mmtests_directory_and_archive(tmp_path):
    tree = mmtests_tree(tmp_path / "t")
    archive = tmp_path / "t.tar.gz"
    with tarfile.open(archive, "w:gz") as tf:
        tf.add(tree / "work", arcname="work")
    for path in (tree, archive):
        code, out, err = run_cli("series", str(path), "--format", "csv")
        assert code == 0, err
        r = pd.read_csv(io.StringIO(out), dtype={"commit": str})
        assert r[["metric", "commit", "index", "direction", "verdict"]].values.tolist() == [
            ["hackbench-process-pipes time-4", "6.5", 4, "lower", "worse"]]
        # the means of the kernels' three samples: 0.08 x noise before, x 1.2 after
        assert r["mean_before"][0] == pytest.approx(0.080 * sum(NOISE[:4]) / 4, rel=1e-5)
        assert r["mean_after"][0] == pytest.approx(0.096 * sum(NOISE[4:]) / 6, rel=1e-5)


def test_explicit_order_and_its_errors(tmp_path):
    tree = mmtests_tree(tmp_path / "t")
    code, out, err = run_cli("series", str(tree), "--format", "csv", "--order", ",".join(reversed(KERNELS)))
    assert code == 0, err
    r = pd.read_csv(io.StringIO(out), dtype={"commit": str})
    # reversed, 6.10 .. 6.5 are the slow ones: the change is at 6.4, index 6
    assert r[["commit", "index", "verdict"]].values.tolist() == [["6.4", 6, "better"]]
    code, _, err = run_cli("series", str(tree), "--order", ",".join(KERNELS[:-1]))
    assert code == 2 and "run '6.10' is not in the order" in err
    code, _, err = run_cli("series", str(tree), "--order", ",".join([*KERNELS, "7.0"]))
    assert code == 2 and "'7.0' of the order has no results" in err


def test_lkp_roots_through_the_api(tmp_path):
    root, commits = lkp_tree(tmp_path / "lkp")
    h = schedlab.series.history(root, order=commits)
    assert list(h["commit"].unique()) == commits
    r = schedlab.change_points(str(root), order=commits)
    assert r[["metric", "commit", "index", "direction", "verdict"]].values.tolist() == [
        ["unixbench.score", commits[4], 4, "higher", "better"]]
    assert r["mean_before"][0] == pytest.approx(1000.5 * sum(NOISE[:4]) / 4, rel=1e-12)
    with pytest.raises(schedlab.errors.DomainError, match="order= is for result trees"):
        schedlab.change_points([1.0, 2.0], order=["a", "b"])


def test_go_benchmark_history(tmp_path: Path) -> None:
    """A directory of `go test -bench` output per kernel (written here): the time per
    op 1.2 times longer from the 5th kernel on, the allocations unchanged."""
    for k, (kernel, noise) in enumerate(zip(KERNELS, NOISE)):
        (tmp_path / kernel).mkdir()
        ns = 1000 * noise * (1.2 if k >= 4 else 1.0)
        lines = "".join(f"BenchmarkEncode-8 1000 {ns * s!r} ns/op 48 B/op\n" for s in (0.999, 1.0, 1.001))
        (tmp_path / kernel / "bench.txt").write_text(f"goos: linux\npkg: example.com/x\n{lines}PASS\n")
    code, out, err = run_cli("series", *(str(tmp_path / k) for k in KERNELS), "--format", "csv")
    assert code == 0, err
    found = pd.read_csv(io.StringIO(out), dtype={"commit": str})
    # ns/op read as sec/op (Go's tidy), lower is better: worse at 6.5; nothing in B/op
    assert [(r.metric, r.commit, r.verdict) for r in found.itertuples()] == [("Encode-8 sec/op", "6.5", "worse")]

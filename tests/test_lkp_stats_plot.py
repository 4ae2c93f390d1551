"""schedlab lkp stats / unite / plot against the goldens written by lkp-tests."""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from schedlab import cli, lkp

from .cli_run import run_cli

GOLDEN = Path(__file__).parent / "data" / "lkp" / "golden"
A = GOLDEN / "scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7"
BASE = A / "a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01"
HEAD = A / "d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a"




def test_stats_cli_prints_the_runs_stats_json():
    for run in sorted(BASE.glob("[0-9]")):
        rc, out, _ = run_cli("lkp", "stats", str(run))
        assert rc == 0
        assert out == (run / "stats.json").read_text() + "\n"
    s = lkp.run_stats(BASE / "0")
    assert s["unixbench.score"] == 4626.1 and s["time.elapsed_time.max"] == 36.1


def test_unite_writes_lkps_files(tmp_path):
    root = tmp_path / "c"
    shutil.copytree(BASE, root)
    for n in ("matrix.json", "avg.json", "stddev.json"):
        (root / n).unlink()
    for run in root.glob("[0-9]"):
        (run / "stats.json").unlink()  # recomputed from the raw outputs
    label = "result/" + str(A.relative_to(GOLDEN / "scenario_a_raw")) + "/" + BASE.name
    lkp.unite(root, label=label)
    for n in ("matrix.json", "avg.json", "stddev.json"):
        assert (root / n).read_text() == (BASE / n).read_text(), n


def _tree_bytes(root):
    return {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_unite_on_a_read_only_root_is_exit_2_and_changes_nothing(tmp_path):
    root = tmp_path / "c"
    shutil.copytree(BASE, root)
    before = _tree_bytes(root)
    root.chmod(0o555)
    try:
        if os.access(root, os.W_OK):
            pytest.skip("running as a user that may write anywhere (root)")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = cli.main(["lkp", "unite", str(root)])
        assert rc == 2 and f"in {root}" in err.getvalue() and "not writable" in err.getvalue(), err.getvalue()
        assert "Traceback" not in err.getvalue()
    finally:
        root.chmod(0o755)
    assert _tree_bytes(root) == before


def test_unite_whose_writes_fail_is_exit_2_and_changes_nothing(tmp_path):
    """A file-size limit makes every write fail (EFBIG), as a read-only or full
    filesystem does, also for root: a clear error, exit 2, the old files as they were."""
    root = tmp_path / "c"
    shutil.copytree(BASE, root)
    before = _tree_bytes(root)

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    r = subprocess.run([sys.executable, "-m", "schedlab", "lkp", "unite", str(root)], capture_output=True,
                       timeout=120, preexec_fn=limit)
    err = r.stderr.decode()
    assert r.returncode == 2 and f"cannot write {root / 'matrix.json'}" in err and "Traceback" not in err, err
    assert _tree_bytes(root) == before


def test_text_plot_cli_and_api():
    want = (GOLDEN / "out_C_plot_unixbench.txt").read_text()
    rc, out, _ = run_cli("lkp", "plot", "unixbench.score", str(BASE), str(HEAD))
    assert rc == 0 and out == want + "\n"
    good = json.loads((GOLDEN / "plot_input/good.json").read_text())["will-it-scale.per_thread_ops"]
    bad = json.loads((GOLDEN / "plot_input/bad.json").read_text())["will-it-scale.per_thread_ops"]
    assert lkp.text_plot("will-it-scale.per_thread_ops", bad, good) == (GOLDEN / "out_C_plot.txt").read_text()
    assert lkp.gnuplot_script("will-it-scale.per_thread_ops", bad, good) == (GOLDEN / "out_C_plot.gp").read_text()
    c = lkp.compare(BASE, HEAD)
    assert c.text_plot("unixbench.score") == want


def test_matplotlib_plot():

    import matplotlib

    matplotlib.use("Agg")
    ax = lkp.compare(BASE, HEAD).plot("unixbench.score")
    assert "unixbench.score" in ax.get_title()
    assert len(ax.lines) == 2

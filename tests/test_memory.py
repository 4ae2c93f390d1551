"""Huge inputs: a 2 GiB MMTests log, a 1 GiB lkp matrix.json, a 2 GiB idle trace, a
2 GiB samples file and a gzip log that inflates past the per-file limit are refused
with a ParseError naming the file and the limit, and the peak RSS of the process that
tried (measured with ``getrusage`` in a fresh child) stays within a stated bound.

The big files are sparse (``truncate``): they cost no disk and no time to create, and
any reader that tried to load one would show it in its RSS. The bounds are measured
against the same child's RSS after importing schedlab, numpy and pandas, so that they
hold on any machine.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
LEGACY = DATA / "mmtests" / "logs-legacy"
LKP_CASE = DATA / "lkp" / "golden" / "random" / "case0"
GiB = 1 << 30
MiB = 1 << 20
#: what a refused file may cost beyond the imports (buffers, error formatting); a reader
#: that loaded a 1 GiB or 2 GiB file would be 16 to 32 times over it
SMALL_BOUND = 64 * MiB
#: the per-file limit schedlab decompresses up to before refusing (256 MiB, as an
#: archive entry), plus the same slack
PER_FILE_LIMIT = 256 * MiB

CHILD = r"""
import json, resource, sys
import schedlab
from schedlab import idle, lkp, mmtests  # noqa: F401  (the imports the baseline counts)
import pandas, numpy  # noqa: F401
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
out = {"base": base}
try:
    exec(sys.argv[1])
    out["result"] = "returned"
except schedlab.SchedlabError as e:
    out["error"] = type(e).__name__
    out["message"] = str(e)
out["peak"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps(out))
"""


def run_child(code: str) -> dict:
    r = subprocess.run([sys.executable, "-c", CHILD, code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def sparse(path: Path, size: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def refused(out: dict, *needles: str, bound: int = SMALL_BOUND) -> None:
    assert out.get("error") == "ParseError", out
    for n in needles:
        assert n in out["message"], (n, out["message"])
    grew = out["peak"] - out["base"]
    print(f"peak RSS {out['peak'] / MiB:.0f} MiB, {grew / MiB:.1f} MiB over the imports")
    assert grew < bound, f"refusing cost {grew / MiB:.0f} MiB (bound {bound / MiB:.0f} MiB)"


@pytest.fixture
def work_log(tmp_path: Path) -> Path:
    root = tmp_path / "work" / "log"
    shutil.copytree(LEGACY, root, symlinks=True)
    return root


def test_a_2gib_mmtests_log_is_refused_by_its_size(work_log: Path) -> None:
    log = work_log / "6.9-patched" / "iter-0" / "netperf-udp" / "logs" / "UDP_STREAM-64.2"
    assert log.exists()
    log.unlink()
    sparse(log, 2 * GiB)
    out = run_child(f"mmtests.compare({str(work_log)!r}, 'netperf-udp', ['6.8-vanilla', '6.9-patched'])")
    refused(out, "UDP_STREAM-64.2", f"{2 * GiB} bytes", "larger than the limit")


def test_a_gzip_log_inflating_past_the_limit_is_refused(work_log: Path) -> None:
    """A 300 MiB log of zeros, compressed to about 300 KiB: decompression stops at the
    per-file limit (256 MiB), which bounds what refusing it costs."""
    log = work_log / "6.9-patched" / "iter-0" / "netperf-udp" / "logs" / "UDP_STREAM-64.2"
    log.unlink()
    chunk = bytes(MiB)
    with gzip.open(log.with_name(log.name + ".gz"), "wb", compresslevel=1) as f:
        for _ in range(300):
            f.write(chunk)
    out = run_child(f"mmtests.compare({str(work_log)!r}, 'netperf-udp', ['6.8-vanilla', '6.9-patched'])")
    refused(out, "UDP_STREAM-64.2.gz", f"larger than the limit of {PER_FILE_LIMIT} bytes once decompressed",
            bound=PER_FILE_LIMIT + SMALL_BOUND)


def test_a_1gib_matrix_json_is_refused_by_its_size(tmp_path: Path) -> None:
    base = next((LKP_CASE / "base").iterdir())
    head = tmp_path / "head" / ("0" * 40)
    sparse(head / "matrix.json", GiB + 1)
    out = run_child(f"lkp.compare({str(base)!r}, {str(head)!r})")
    refused(out, "matrix.json", f"{GiB + 1} bytes", "larger than the limit")


def test_a_2gib_idle_trace_is_refused_by_its_size(tmp_path: Path) -> None:
    trace = sparse(tmp_path / "trace.csv", 2 * GiB)
    out = run_child(f"idle.read_trace({str(trace)!r})")
    refused(out, "trace.csv", f"{2 * GiB} bytes", "larger than the limit")


def test_a_2gib_samples_file_is_streamed_and_refused_at_its_first_overlong_line(tmp_path: Path) -> None:
    """``schedlab stats`` reads samples line by line: 2 GiB of NUL bytes is one line,
    refused once it passes 64 MiB, at line 1."""
    samples = sparse(tmp_path / "samples.txt", 2 * GiB)
    good = tmp_path / "good.txt"
    good.write_text("1\n2\n3\n")
    env = dict(os.environ)
    code = ("import resource, sys\nfrom schedlab.cli import main\n"
            "try:\n    rc = main(['stats', sys.argv[1], sys.argv[2]])\n"
            "except SystemExit as e:\n    rc = e.code\n"
            "print(rc, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code, str(good), str(samples)], capture_output=True, text=True,
                       timeout=300, env=env)
    *msg, last = r.stderr.strip().splitlines()
    rc, peak = last.split()
    assert rc != "0", r.stderr
    text = "\n".join(msg)
    assert "samples.txt:1: line longer than 67108864 bytes" in text, text
    base = run_child("pass")["peak"]
    grew = int(peak) - base
    print(f"peak RSS {int(peak) / MiB:.0f} MiB, {grew / MiB:.1f} MiB over the imports")
    # the line limit (64 MiB) plus the same slack; reading the file whole would be 2 GiB
    assert grew < 64 * MiB + SMALL_BOUND


def test_more_than_2_24_samples_are_refused_at_the_line_that_passes_the_limit(tmp_path: Path) -> None:
    """``schedlab stats`` keeps at most 2^24 samples of one input (128 MiB of f64): 2^24
    zeros on lines of 1024 fill it, and line 2^14 + 1 passes it. (That exactly the limit
    is read is checked at a small limit in src/stats/sample_text.rs.)"""
    line = b" ".join([b"0"] * 1024) + b"\n"
    samples = tmp_path / "samples.txt"
    good = tmp_path / "good.txt"
    good.write_text("1\n2\n3\n")
    with samples.open("wb") as f:
        for _ in range(16):
            f.write(line * 1024)
        f.write(b"0\n")
    over = subprocess.run([sys.executable, "-m", "schedlab", "stats", str(good), str(samples)],
                          capture_output=True, text=True, timeout=300)
    assert over.returncode == 2, over.stderr
    assert f"samples.txt:{2**14 + 1}: more than {2**24} samples, the most schedlab reads from one input" in over.stderr


def test_a_2gib_log_in_a_batch_is_an_input_error_not_a_crash(work_log: Path) -> None:
    log = work_log / "6.9-patched" / "iter-0" / "netperf-udp" / "logs" / "UDP_STREAM-64.2"
    log.unlink()
    sparse(log, 2 * GiB)
    out = run_child(f"r = schedlab.batch.run([{str(work_log)!r}], '6.8-vanilla', keep_going=True)\n"
                    "out['exit_code'] = r.exit_code\nout['problems'] = json.dumps(r.data)")
    assert out.get("result") == "returned", out
    assert "UDP_STREAM-64.2" in out["problems"] and "larger than the limit" in out["problems"]
    grew = out["peak"] - out["base"]
    print(f"peak RSS {out['peak'] / MiB:.0f} MiB, {grew / MiB:.1f} MiB over the imports")
    assert grew < SMALL_BOUND

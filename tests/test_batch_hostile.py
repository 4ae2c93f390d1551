"""Hostile archives: traversal paths, links out of the archive, 10 GiB decompression
bombs (gzip, xz, zip64, overlapping zip entries, a zip lying about its size), a
truncated gzip and a wrecked zip central directory. Each run of ``schedlab batch``
happens in a fresh process that reports its own peak memory: every one must exit 2
with a message naming the archive and the entry (or the zip's central directory), and
stay far below what the bombs would need."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from . import batch_archives as ba

DATA = Path(__file__).parent / "data"
LEGACY = DATA / "mmtests" / "logs-legacy"

# cli.main in a grandchild forked from a fresh interpreter; prints the exit code, stderr
# and the grandchild's peak RSS (getrusage RUSAGE_CHILDREN, KiB on Linux). A process
# spawned straight from pytest would report pytest's own peak too: Linux keeps
# ru_maxrss across execve, and subprocess starts children with vfork.
CHILD = """
import contextlib, io, json, os, resource, sys
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(r)
    from schedlab import cli
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(sys.argv[1:])
    with open("/proc/self/status") as f:
        hwm = next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))
    os.write(w, json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue(), "vmhwm_kb": hwm}).encode())
    os._exit(0)
os.close(w)
chunks = []
while True:
    b = os.read(r, 65536)
    if not b:
        break
    chunks.append(b)
os.waitpid(pid, 0)
out = json.loads(b"".join(chunks))
out["maxrss_kb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps(out))
"""

#: Peak RSS allowed: the interpreter and schedlab (~15 MiB), plus at most one 64 MiB
#: entry (the batch per-entry limit) and its buffer; a bomb inflated would need 10 GiB.
MAX_RSS_KB = 160 * 1024


def run_isolated(*argv: str) -> dict:
    p = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


CASES = {
    "traversal.tar.gz": (ba.traversal_tar_gz, "entry '../../etc/passwd': path escapes the archive root"),
    "traversal.zip": (ba.traversal_zip, "entry '../../etc/passwd': path escapes the archive root"),
    "link-out.tar": (ba.symlink_out_tar, "entry 'work/log/evil': link to '../../../etc' points outside the archive"),
    "bomb.tar.gz": (ba.gzip_bomb, "entry 'work/log/a/iter-0/hackbench-process-pipes/logs/big.log': 10737418240 bytes"),
    "bomb.tar.xz": (lambda p: ba.xz_bomb(p, chunk=64 << 20), "entry 'work/log/a/big.log': 10737418240 bytes"),
    "bomb.zip": (ba.zip_bomb, "entry 'work/log/a/big.log': the central directory declares 10737418240 bytes"),
    "overlap.zip": (ba.overlapping_zip_bomb, "entry 'work/log/a/big-16.log': the central directory declares"),
    "lying.zip": (lambda p: ba.zip_bomb(p, declared=1 << 20),
                  "entry 'work/log/a/big.log': cannot decompress: File is larger than its declared uncompressed size"),
    "truncated.tar.gz": (lambda p: ba.truncated_tar_gz(LEGACY, p), "entry '"),
    "bad-directory.zip": (lambda p: ba.corrupt_zip_directory(LEGACY, p), "central directory: corrupt zip archive"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_archive_is_refused_naming_archive_and_entry(name, tmp_path):
    make, expected = CASES[name]
    path = make(tmp_path / name)
    assert path.stat().st_size < 16 << 20  # cheap to build and to store
    r = run_isolated("batch", str(path), "--baseline", "x", "--format", "json")
    assert r["code"] == 2, r
    assert f"schedlab batch: error: {path}: " in r["err"], r["err"]
    assert expected in r["err"], r["err"]
    assert r["maxrss_kb"] < MAX_RSS_KB, r
    assert r["out"] == ""  # no result document for a bad input
    if name == "truncated.tar.gz":
        assert "truncated or corrupt" in r["err"], r["err"]


def test_a_normal_run_is_measured_the_same_way():
    r = run_isolated("batch", str(LEGACY), "--baseline", "6.8-vanilla", "--format", "json")
    assert r["code"] == 1 and json.loads(r["out"])["summary"]["worse"] > 0
    assert 0 < r["maxrss_kb"] < MAX_RSS_KB and 0 < r["vmhwm_kb"] < MAX_RSS_KB


def test_nothing_is_written_outside(tmp_path):
    """The traversal entry is refused, never extracted: no file appears anywhere near."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    path = ba.traversal_tar_gz(tmp_path / "a" / "b" / "evil.tar.gz")
    r = run_isolated("batch", str(path), "--baseline", "x")
    assert r["code"] == 2
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "evil.tar.gz"]


def test_keep_going_reports_every_hostile_input_and_still_compares_the_rest(tmp_path):
    good = ba.build(LEGACY, tmp_path / "good.tar.gz", "work/log")
    bad = [CASES[n][0](tmp_path / n) for n in ("bomb.tar.gz", "traversal.zip", "bad-directory.zip")]
    out = tmp_path / "r.json"
    r = run_isolated("batch", str(good), *map(str, bad), "--baseline", "6.8-vanilla", "--keep-going",
                     "--format", "json", "-o", str(out))
    assert r["code"] == 2 and r["maxrss_kb"] < MAX_RSS_KB
    doc = json.loads(out.read_text())
    assert [e["input"] for e in doc["errors"]] == list(map(str, bad))
    assert doc["summary"]["worse"] > 0 and doc["exit_code"] == 2
    for p in bad:
        assert str(p) in r["err"]

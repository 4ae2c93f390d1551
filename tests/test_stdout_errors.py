"""Every command that prints its result to standard output: standard output on a full
device (/dev/full) or closed (`>&-`) is exit status 2 with standard output named on
stderr, as an `-o` that cannot be written is (docs/batch.md, exit codes), never exit 0
with the result lost. Through `python -m schedlab` and the native launcher when built."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
LEGACY = DATA / "mmtests" / "logs-legacy"
LKP = DATA / "lkp/golden/scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7"
BASE_A = "a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01"
HEAD_A = "d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a"


def commands(tmp: Path) -> dict[str, list[str]]:
    return {
        "batch": ["batch", str(LEGACY), "--baseline", "6.8-vanilla"],
        "batch-json": ["batch", str(LEGACY), "--baseline", "6.8-vanilla", "--format", "json"],
        "report": ["report", str(LEGACY), "-o", str(tmp / "r.html")],
        "mmtests-compare": ["mmtests", "compare", "-d", str(LEGACY), "-b", "hackbench-process-pipes",
                            "-n", "6.8-vanilla,6.9-patched"],
        "lkp-compare": ["lkp", "compare", str(LKP / BASE_A), str(LKP / HEAD_A)],
    }


NAMES = ["batch", "batch-json", "report", "mmtests-compare", "lkp-compare"]


def _launchers() -> list[str]:
    """`python -m schedlab`, and the native launcher beside this Python when there is one."""
    out = ["python"]
    exe = shutil.which("schedlab", path=os.path.dirname(sys.executable))
    if exe and open(exe, "rb").read(4) == b"\x7fELF":
        out.append(exe)
    return out


def _argv(launcher: str, argv: list[str]) -> list[str]:
    return [sys.executable, "-m", "schedlab", *argv] if launcher == "python" else [launcher, *argv]


@pytest.mark.parametrize("launcher", _launchers())
@pytest.mark.parametrize("name", NAMES)
def test_standard_output_on_a_full_device_is_exit_2(tmp_path: Path, name: str, launcher: str) -> None:
    argv = _argv(launcher, commands(tmp_path)[name])
    env = dict(os.environ, SCHEDLAB_PYTHON=sys.executable)
    with open("/dev/full", "wb") as full:
        r = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, env=env, timeout=300)
    err = r.stderr.decode()
    assert r.returncode == 2, (r.returncode, err)
    assert "standard output" in err and "No space left on device" in err, err
    assert "Traceback" not in err and "Exception ignored" not in err, err


@pytest.mark.parametrize("launcher", _launchers())
@pytest.mark.parametrize("name", NAMES)
def test_a_closed_standard_output_is_exit_2(tmp_path: Path, name: str, launcher: str) -> None:
    argv = _argv(launcher, commands(tmp_path)[name])
    env = dict(os.environ, SCHEDLAB_PYTHON=sys.executable)
    r = subprocess.run(shlex.join(argv) + " >&-", shell=True, capture_output=True, env=env, timeout=300)
    err = r.stderr.decode()
    assert r.returncode == 2, (r.returncode, err)
    assert "standard output is closed" in err, err
    assert "Traceback" not in err and "Exception ignored" not in err, err


@pytest.mark.parametrize("launcher", _launchers())
def test_a_closed_standard_error_leaves_standard_output_as_it_is(tmp_path: Path, launcher: str) -> None:
    """With standard error closed (`2>&-`) the notes are dropped; they must not land in
    the result on standard output. Reference: the same command with standard error open,
    its standard output taken alone."""
    argv = _argv(launcher, commands(tmp_path)["mmtests-compare"])
    env = dict(os.environ, SCHEDLAB_PYTHON=sys.executable)
    full = subprocess.run(argv, capture_output=True, env=env, timeout=300)
    assert full.returncode == 0 and b"note:" in full.stderr  # there is a note to drop
    closed = subprocess.run(shlex.join(argv) + " 2>&-", shell=True, stdout=subprocess.PIPE, env=env, timeout=300)
    assert closed.returncode == 0
    assert closed.stdout == full.stdout

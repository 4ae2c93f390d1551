"""Whole-input reads of the command line in bounded memory (schedlab/_input.py), the
unreadable paths named with exit code 2, and inputs that used to give silent wrong
answers: a byte order mark in a pasted table, an empty sample file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from schedlab import mmtests

TABLE = Path(__file__).parent / "data/mmtests/out/2018-hackbench-process-pipes.oracle"


def run(*argv: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "schedlab", *argv], capture_output=True, timeout=120, **kw)


@pytest.mark.parametrize("argv", [["mmtests", "parse", "-"], ["pelt", "simulate", "-"]])
def test_stdin_from_dev_zero_is_refused_at_the_limit(argv):
    with open("/dev/zero", "rb") as zero:
        r = run(*argv, "--max-input-bytes", "1000000", stdin=zero)
    err = r.stderr.decode()
    assert r.returncode == 2 and "<stdin>: more than 1000000 bytes" in err and "--max-input-bytes" in err, err
    assert "MemoryError" not in err and "Traceback" not in err


def test_a_raised_limit_reads_the_whole_input():
    table = TABLE.read_bytes()
    r = run("mmtests", "parse", "-", "--max-input-bytes", str(len(table)), input=table)
    assert r.returncode == 0, r.stderr
    r = run("mmtests", "parse", "-", "--max-input-bytes", str(len(table) - 1), input=table)
    assert r.returncode == 2 and f"more than {len(table) - 1} bytes" in r.stderr.decode()


def unreadable_paths(tmp: Path) -> dict[str, tuple[Path, str]]:
    (tmp / "dangling").symlink_to(tmp / "nothing")
    (tmp / "loop-a").symlink_to(tmp / "loop-b")
    (tmp / "loop-b").symlink_to(tmp / "loop-a")
    return {
        "directory": (tmp, "Is a directory"),
        "missing": (tmp / "missing.txt", "No such file"),
        "dangling symlink": (tmp / "dangling", "No such file"),
        "symlink loop": (tmp / "loop-a", "symlink loop"),
    }


@pytest.mark.parametrize("case", ["directory", "missing", "dangling symlink", "symlink loop"])
def test_mmtests_parse_of_an_unreadable_path_is_exit_2_naming_it(tmp_path, case):
    path, why = unreadable_paths(tmp_path)[case]
    r = run("mmtests", "parse", str(path))
    err = r.stderr.decode()
    assert r.returncode == 2 and str(path) in err and why in err and "Traceback" not in err, err


def test_mmtests_parse_of_a_file_without_permission_is_exit_2(tmp_path):
    f = tmp_path / "secret.txt"
    f.write_bytes(TABLE.read_bytes())
    f.chmod(0)
    if os.access(f, os.R_OK):
        pytest.skip("running as a user that may read anything (root)")
    r = run("mmtests", "parse", str(f))
    assert r.returncode == 2 and "Permission denied" in r.stderr.decode()


def test_a_byte_order_mark_does_not_rename_the_first_kernel():
    text = TABLE.read_text()
    plain = mmtests.parse_compare(text)
    marked = mmtests.parse_compare("\ufeff" + text)
    assert marked.kernels == plain.kernels and marked.to_text() == plain.to_text()


def test_an_empty_sample_file_is_exit_2(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("10 11 12\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing measured\n")
    r = run("stats", str(a), str(empty))
    assert r.returncode == 2 and f"{empty}: no samples" in r.stderr.decode()


@pytest.mark.parametrize("special", ["/dev/null", "/dev/zero"])
def test_report_on_a_device_is_exit_2_naming_it(tmp_path, special):
    r = run("report", special, "-o", str(tmp_path / "r.html"))
    err = r.stderr.decode()
    assert r.returncode == 2 and special in err and "Traceback" not in err, err


def test_report_on_a_fifo_is_exit_2_naming_it(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = run("report", str(fifo), "-o", str(tmp_path / "r.html"))
    err = r.stderr.decode()
    assert r.returncode == 2 and str(fifo) in err and "Traceback" not in err, err


def test_thousands_separators_in_samples_are_an_error_not_extra_samples(tmp_path):
    base, new = tmp_path / "base.txt", tmp_path / "new.txt"
    base.write_text("1,234.5\n1,240.0\n1,236.5\n")
    new.write_text("1230 1231 1229\n")
    p = run("stats", str(base), str(new), text=True)
    assert p.returncode == 2 and f"{base}:1" in p.stderr and "thousands separators" in p.stderr, p.stderr
    base.write_text("1234.5, 1240.0\n1236.5\n")  # commas between samples still work
    assert run("stats", str(base), str(new)).returncode == 0

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


# CSV inputs as a spreadsheet saves them (one reader, src/csv_table.rs): a UTF-8 byte
# order mark, quoted header names, CRLF line ends, a quoted field holding a comma.
IDLE_TRACE = "sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns\n2000000,750000,-1,0,-1\n"
SPREADSHEET_IDLE_TRACE = ('\ufeff"sleep_length_ns","next_tick_ns","wake_ns","tick_stopped","latency_req_ns","note"\r\n'
                          '2000000,750000,-1,0,-1,"a, b"\r\n')


def test_a_spreadsheet_idle_trace_reads_as_the_plain_one(tmp_path):
    from schedlab import idle

    p = tmp_path / "t.csv"
    p.write_text(SPREADSHEET_IDLE_TRACE, encoding="utf-8", newline="")
    plain = idle.parse_trace(IDLE_TRACE)
    assert idle.read_trace(p) == plain
    assert idle.parse_trace(SPREADSHEET_IDLE_TRACE.encode()) == plain


def test_a_spreadsheet_state_table_and_pelt_trace_read_as_the_plain_ones(tmp_path):
    from schedlab import idle, pelt

    states = "name,exit_latency_us,target_residency_us,flags\nPOLL,0,0,P\nC1,2,2,-\n"
    quoted = '\ufeff"name","exit_latency_us","target_residency_us","flags"\r\n"POLL",0,0,P\r\nC1,2,2,-\r\n'
    p = tmp_path / "s.csv"
    p.write_text(quoted, encoding="utf-8", newline="")
    (tmp_path / "plain.csv").write_text(states)
    assert idle.read_states(p) == idle.read_states(tmp_path / "plain.csv")
    task = "dur_ns,state\n3000000,R\n500000,S\n"
    q = tmp_path / "task.csv"
    q.write_text('\ufeff"dur_ns","state"\r\n3000000,R\r\n500000,S\r\n', encoding="utf-8", newline="")
    assert pelt.read_trace(q).equals(pelt.parse_trace(task))


@pytest.mark.parametrize("text, where, what", [
    (IDLE_TRACE + "1,2,3\n", "t.csv:3: column 'tick_stopped'", "missing value"),
    (IDLE_TRACE + "1,2,3,0,-1,9\n", "t.csv:3", "expected 5 comma-separated fields as in the header, got 6"),
    (IDLE_TRACE + '1,2,"3\n', "t.csv:3", "missing value"),
    (IDLE_TRACE.replace("wake_ns", "wake"), "t.csv:1: column 'wake_ns'", "missing column 'wake_ns' in the header"),
    (IDLE_TRACE + "1,2,x,0,-1\n", "t.csv:3: column 'wake_ns'", "expected an integer, got 'x'"),
    ("\ufeff# only a comment\n", "t.csv", "empty input: expected a header line"),
])
def test_malformed_idle_trace_csv_names_file_line_and_column(tmp_path, text, where, what):
    import schedlab
    from schedlab import idle

    p = tmp_path / "t.csv"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(schedlab.ParseError) as e:
        idle.read_trace(p)
    assert str(e.value).startswith(f"{tmp_path}/{where}") and what in str(e.value), str(e.value)


def test_an_idle_trace_read_streams_the_file(tmp_path):
    """The file is not held in memory: a trace much larger than the columns it yields
    (long comment lines) reads in a fresh process within half its size."""
    p = tmp_path / "big.csv"
    with p.open("w") as f:
        f.write(IDLE_TRACE.splitlines()[0] + "\n")
        row = "2000000,750000,-1,0,-1\n" + "#" * 200 + "\n"
        f.write(row * 200_000)  # 45 MB of text for 200,000 periods (11 MB of columns)
    code = ("import resource, sys\nfrom schedlab import idle\n"
            "b = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "assert len(idle.read_trace(sys.argv[1])) == 200_000\n"
            "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - b) * 1024)\n")
    r = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) < p.stat().st_size / 2, (r.stdout, p.stat().st_size)

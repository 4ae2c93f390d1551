"""Every command's ``-o``: never over an input (also through a symlink or hard link),
never half a file, every OS error an exit code 2 naming the path; standard output on
/dev/full or closed is an error too (schedlab/_output.py, cli.main)."""

from __future__ import annotations

import contextlib
import io
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schedlab.cli import main

from .batch_archives import build

DATA = Path(__file__).parent / "data"
FTRACE = """# tracer: nop
            bash-10    [001] d..2.   100.000000: sched_wakeup_new: comm=foo pid=42 prio=120 target_cpu=001
          <idle>-0     [001] d..2.   100.000100: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=foo next_pid=42 next_prio=120
             foo-42    [001] d..2.   100.005100: sched_switch: prev_comm=foo prev_pid=42 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120
"""


def cli(*argv: str) -> tuple[int, str]:
    """``schedlab ARGV`` in this process: (exit code, stderr)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(list(argv))
        except SystemExit as e:  # argparse
            code = int(e.code or 0)
    return code, err.getvalue()


def run(*argv: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "schedlab", *argv], capture_output=True, timeout=120, **kw)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("inputs")
    files = {
        "idle_trace": DATA / "idle/inputs/gov_bimodal.csv",
        "idle_states": DATA / "idle/inputs/states_x86.csv",
        "pelt_trace": DATA / "pelt/inputs/pelt_periodic25.csv",
    }
    out = {k: d / v.name for k, v in files.items()}
    for k, v in files.items():
        out[k].write_bytes(v.read_bytes())
    out["ftrace"] = d / "trace.txt"
    out["ftrace"].write_text(FTRACE)
    out["archive"] = build(DATA / "mmtests/logs-legacy", d / "results.tar.gz", "results")
    return out


# each command with -o, and the inputs it reads
COMMANDS = {
    "idle simulate": (lambda i, o: ["idle", "simulate", str(i["idle_trace"]), "--governor", "menu", "--states",
                                    str(i["idle_states"]), "-o", o], ("idle_trace", "idle_states")),
    "pelt simulate": (lambda i, o: ["pelt", "simulate", str(i["pelt_trace"]), "-o", o], ("pelt_trace",)),
    "pelt ftrace": (lambda i, o: ["pelt", "ftrace", str(i["ftrace"]), "--pid", "42", "-o", o], ("ftrace",)),
    "report": (lambda i, o: ["report", str(i["pelt_trace"]), "-o", o], ("pelt_trace",)),
    "batch": (lambda i, o: ["batch", str(i["archive"]), "--baseline", "6.8-vanilla", "-o", o], ("archive",)),
    "trace compare": (lambda i, o: ["trace", "compare", "--group", "a", str(i["ftrace"]), "--group", "b",
                                    str(i["ftrace"]), "-o", o], ("ftrace",)),
}


def alias(kind: str, target: Path, where: Path) -> str:
    """Another name for ``target``: itself, a roundabout path, a symlink, a hard link."""
    if kind == "same":
        return str(target)
    if kind == "roundabout":
        return str(target.parent / ".." / target.parent.name / "." / target.name)
    link = where / f"{kind}-{target.name}"
    if link.exists() or link.is_symlink():
        link.unlink()
    if kind == "symlink":
        link.symlink_to(target)
    else:
        os.link(target, link)
    return str(link)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(sorted(COMMANDS)), kind=st.sampled_from(["same", "roundabout", "symlink", "hardlink"]),
       which=st.integers(0, 1))
def test_output_never_changes_an_input_byte(inputs, tmp_path, command, kind, which):
    argv, reads = COMMANDS[command]
    name = reads[which % len(reads)]
    before = {k: inputs[k].read_bytes() for k in inputs}
    code, err = cli(*argv(inputs, alias(kind, inputs[name], tmp_path)))
    assert code == 2, err
    assert "refusing to write" in err and f"the input {inputs[name]}" in err, err
    assert {k: inputs[k].read_bytes() for k in inputs} == before
    assert not [p for p in inputs[name].parent.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_fresh_output_is_written_whole_and_inputs_stay(inputs, tmp_path, command):
    argv, _ = COMMANDS[command]
    before = {k: inputs[k].read_bytes() for k in inputs}
    out = tmp_path / "out.file"
    code, err = cli(*argv(inputs, str(out)))
    assert code in (0, 1), err  # batch: 1 is its regression verdict on these logs
    assert out.stat().st_size > 0 and out.stat().st_mode & 0o777 == 0o666 & ~_umask()
    assert {k: inputs[k].read_bytes() for k in inputs} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.file"]  # no temporary left


def _umask() -> int:
    m = os.umask(0)
    os.umask(m)
    return m


def test_a_replaced_output_keeps_its_permissions_and_a_symlink_stays_a_link(inputs, tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    code, err = cli("pelt", "simulate", str(inputs["pelt_trace"]), "-o", str(link))
    assert code == 0, err
    assert link.is_symlink() and real.read_bytes().startswith(b"t_ns,event")
    assert real.stat().st_mode & 0o777 == 0o640


def test_output_in_a_missing_directory_is_exit_2_naming_it(inputs, tmp_path):
    out = tmp_path / "no" / "such" / "dir" / "x.csv"
    code, err = cli("pelt", "ftrace", str(inputs["ftrace"]), "--pid", "42", "-o", str(out))
    assert code == 2 and f"cannot write {out}" in err and "directory does not exist" in err, err
    assert "Traceback" not in err


def test_output_that_is_a_directory_is_exit_2(inputs, tmp_path):
    code, err = cli("idle", "simulate", str(inputs["idle_trace"]), "--governor", "teo", "--states", "intel-skx",
                    "-o", str(tmp_path))
    assert code == 2 and f"cannot write {tmp_path}" in err and "it is a directory" in err, err


def test_output_in_a_read_only_directory_is_exit_2(inputs, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as a user that may write anywhere (root)")
        code, err = cli("report", str(inputs["pelt_trace"]), "-o", str(ro / "r.html"))
        assert code == 2 and f"cannot write {ro / 'r.html'}" in err and "no permission" in err, err
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(0o755)


def test_a_write_failing_midway_leaves_the_old_output_and_no_temporary(inputs, tmp_path):
    """A file-size limit (RLIMIT_FSIZE, what a full disk looks like to the writer:
    the write fails after part of the output) instead of filling a disk."""
    out = tmp_path / "sim.csv"
    out.write_bytes(b"previous content\n")

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of the signal
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    r = run("pelt", "simulate", str(inputs["pelt_trace"]), "-o", str(out), preexec_fn=limit)
    err = r.stderr.decode()
    assert r.returncode == 2 and f"cannot write {out}" in err and "Traceback" not in err, err
    assert out.read_bytes() == b"previous content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sim.csv"]


def test_output_to_dev_full_is_exit_2(inputs):
    code, err = cli("pelt", "ftrace", str(inputs["ftrace"]), "--pid", "42", "-o", "/dev/full")
    assert code == 2 and "cannot write /dev/full: No space left on device" in err, err


def test_stdout_on_dev_full_is_exit_2(inputs):
    with open("/dev/full", "wb") as full:
        r = subprocess.run([sys.executable, "-m", "schedlab", "pelt", "simulate", str(inputs["pelt_trace"])],
                           stdout=full, stderr=subprocess.PIPE, timeout=120)
    err = r.stderr.decode()
    assert r.returncode == 2 and "standard output" in err and "No space left" in err, err
    assert "Traceback" not in err and "Exception ignored" not in err


def test_a_closed_stdout_is_exit_2_not_lost_output(inputs):
    r = subprocess.run(f'"{sys.executable}" -m schedlab idle simulate "{inputs["idle_trace"]}" --governor menu '
                       f'--states intel-skx >&-', shell=True, capture_output=True, timeout=60)
    err = r.stderr.decode()
    assert r.returncode == 2 and "standard output is closed" in err, err

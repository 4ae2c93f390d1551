"""The native ``schedlab`` launcher (src/bin/schedlab.rs, docs/cli.md): for every command
line it prints exactly what the Python command line prints (standard output, standard
error, exit code), whether it ran the command itself or handed it to Python; and its
own tables are compare-mmtests.pl's (the Perl's goldens under tests/data/mmtests).

The launcher tested is ``$SCHEDLAB_NATIVE``, else the ``schedlab`` installed beside this
Python or on PATH when it is the native one (a source install puts it there:
tools/build_backend/schedlab_build.py), else the one cargo built in target/. CI installs
it, so there it must be found.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from . import goldens

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "mmtests"
FAMILIES = DATA / "families"
THREE = "6.8-vanilla,6.9-patched,6.10-rc1"


def _native() -> str | None:
    given = os.environ.get("SCHEDLAB_NATIVE")
    if given:
        return given
    for installed in (str(Path(sys.executable).parent / "schedlab"), shutil.which("schedlab")):
        if installed and os.path.isfile(installed):
            with open(installed, "rb") as f:
                if f.read(4) == b"\x7fELF":
                    return installed
    for p in (REPO / "target" / "release" / "schedlab", REPO / "target" / "debug" / "schedlab"):
        if p.exists():
            return str(p)
    return None


NATIVE = _native()
if NATIVE is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI: no native schedlab launcher (tools/build_backend/schedlab_build.py puts it in the wheel)")
    pytest.skip("no native schedlab launcher built (cargo build --bin schedlab)", allow_module_level=True)


def _run(argv: list[str], *, native: bool) -> tuple[int, bytes, bytes]:
    env = dict(os.environ, SCHEDLAB_PYTHON=sys.executable, COLUMNS="100")
    cmd = [NATIVE, *argv] if native else [sys.executable, "-m", "schedlab", *argv]
    p = subprocess.run(cmd, capture_output=True, env=env, cwd=REPO, timeout=120)
    return p.returncode, p.stdout, p.stderr


def _same(argv: list[str]) -> tuple[int, bytes, bytes]:
    """Run ``argv`` through both; assert they agree; return the native result."""
    n = _run(argv, native=True)
    p = _run(argv, native=False)
    assert n == p, f"{argv}: native {n[0]} {n[2][:300]!r} != python {p[0]} {p[2][:300]!r}"
    return n


def _kept(table: bytes) -> list[bytes]:
    """The lines of a table the goldens fix: not those tests/data/mmtests/unreproducible-lines.csv
    lists (the SubAmean rows upstream draws at random, a `Comparing (` line), as
    tests/it/mmtests_golden.rs drops them."""
    return goldens.kept_lines_bytes(table, "debug", "random")


def _goldens(era: str) -> list[dict[str, str]]:
    """Every Perl golden of the era's family tree without a sub-heading (goldens.csv rows)."""
    return [r for r in goldens.read("mmtests") if r["set"] == "families" and r["era"] == era and not r["sub_heading"]]


# A spread of the family goldens (one per era and --print-ratio, the benchmark rotating,
# two offsets): every one of them goes through the launcher's own code path in Rust
# (tests/it/mmtests_golden.rs `the_launchers_path_prints_every_family_golden`); here the
# built binary prints the Perl's table and all it prints equals the Python command line's.
SPREAD = [r for off in (0, 20) for r in goldens.spread(
    [r for r in goldens.read("mmtests") if r["set"] == "families" and not r["sub_heading"] and r["expect"] == "table"],
    ["era", "print_ratio"], "benchmark", offset=off)]


@pytest.mark.parametrize("r", SPREAD, ids=goldens.ids(SPREAD))
def test_the_launchers_tables_are_the_perls(r: dict[str, str]) -> None:
    """The launcher's standard output is the Perl's own table (its golden), and all it
    prints equals the Python command line's."""
    argv = ["mmtests", "compare", "-d", str(DATA / r["tree"]), "-b", r["benchmark"], "-n", ",".join(r["names"].split()),
            "--compat", r["era"]]
    if r["print_ratio"] == "1":
        argv.append("--print-ratio")
    code, out, _err = _same(argv)
    assert code == 0
    assert _kept(out) == _kept((DATA / r["golden"]).read_bytes()), f"{r['era']} {r['benchmark']} ratio={r['print_ratio']}"


def test_era_notes_and_missing_data_as_python_prints_them() -> None:
    """No --compat: the era note; a run without the benchmark: Python's error; the
    fail-closed exit code and --allow-missing."""
    tree = str(FAMILIES / "2025")
    for r in _goldens("2025")[:12]:
        _same(["mmtests", "compare", "-d", tree, "-b", r["benchmark"], "-n", THREE])
        _same(["mmtests", "compare", "-d", tree, "-b", r["benchmark"], "-n", THREE, "--allow-missing"])
    code, _, err = _same(["mmtests", "compare", "-d", tree, "-b", "tbench4", "-n", THREE])
    assert code == 2 and b"no logs of benchmark" in err
    # the failed benchmarks of a real tree (missing data: exit 2 unless allowed)
    real = DATA / "real"
    if real.exists():
        for d in sorted(p for p in real.rglob("tests-timestamp"))[:2]:
            runs = d.parent.parent.name
            _same(["mmtests", "compare", "-d", str(d.parent.parent.parent), "-b", "hackbench-process-pipes", "-n", runs])


def test_partial_tables_as_python_prints_them() -> None:
    """Runs compare-mmtests.pl loses (docs/mmtests.md §12): the launcher prints the Perl's
    partial table, names the lost runs on stderr and exits as Python does (2, or 0 with
    --allow-missing); a lost baseline is Python's error."""
    partial = DATA / "partial"
    cases = {r["case"]: ",".join(r["names"].split()) for r in goldens.read("mmtests/partial")}
    for case in ("two-last", "three-middle", "four-second-last", "four-middle-two"):
        for ratio in (False, True):
            r = goldens.find("mmtests/partial", era="2025", benchmark="netperf-udp-rr", case=case,
                             print_ratio=str(int(ratio)))
            golden = (partial / r["golden"]).read_bytes()
            for allow in (False, True):
                argv = ["mmtests", "compare", "-d", str(partial / r["tree"]), "-b", r["benchmark"], "-n", cases[case],
                        "--compat", "2025"] + (["--print-ratio"] if ratio else []) + (["--allow-missing"] if allow else [])
                code, out, err = _same(argv)
                assert out == golden and code == (0 if allow else 2) and b"is not in the table" in err
    code, out, err = _same(["mmtests", "compare", "-d", str(partial / "legacy"), "-b", "netperf-udp-rr", "-n",
                            cases["two-base"], "--compat", "2025"])
    assert code == 2 and out == b"" and b"baseline '6.9-zero'" in err


@pytest.mark.parametrize(
    "extra",
    [
        ["--print-ratio"],
        ["--sub-heading", "x"],
        ["--sub-heading=x"],
        ["--compat", "2024"],
        ["--compat=2025"],
        ["--compat", "1999"],
        ["--test", "welch", "--alpha", "0.1"],
        ["--test", "mann-whitney", "--alpha=1e-2"],
        ["--test", "nope"],
        ["--alpha", "2"],
        ["--alpha", "0_05"],
        ["--alpha", "nan"],
        ["--format", "text"],
        ["--format", "csv"],
        ["--format", "markdown"],
        ["--print-monitor", "vmstat"],
        ["--allow-missing"],
        ["--dir", "x"],
        ["--help"],
        ["-h"],
        ["--print-ratio=1"],
        ["--", "x"],
        ["stray"],
        ["-n"],
    ],
)
def test_every_flag_form_prints_what_python_prints(extra: list[str]) -> None:
    """Each flag of ``mmtests compare`` in each spelling, and spellings the launcher
    leaves to Python (help, abbreviations, bad values): the same bytes and exit code."""
    argv = ["mmtests", "compare", "-d", str(FAMILIES / "2025"), "-b", "stream", "-n", "6.8-vanilla,6.9-patched"]
    _same(argv + extra)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--version"],
        ["--help"],
        ["mmtests"],
        ["mmtests", "compare"],
        ["mmtests", "compare", "-d", "/nonexistent", "-b", "stream", "-n", "a,b"],
        ["mmtests", "compare", "-dtests/data/mmtests/families/2025", "-bstream", "-n6.8-vanilla,6.9-patched"],
        ["mmtests", "compare", "-d", "tests/data/mmtests/families/2025", "-b", "stream", "-n", ","],
        ["stats", "--example"],
        ["nosuchcommand"],
    ],
)
def test_other_command_lines_go_to_python(argv: list[str]) -> None:
    """Anything but a compare: the Python command line's own output and exit code."""
    _same(argv)


LKP = REPO / "tests" / "data" / "lkp" / "golden"
LKP_FLAGS = LKP / "flags"


@pytest.mark.parametrize(
    ("golden", "spelled"),
    [
        # lkp's own ncompare outputs (tests/data/lkp/golden/goldens.csv: their options and roots)
        ("out_A_default.txt", None),
        ("out_A_more.txt", None),
        ("flags/out_p0.5_more.txt", None),
        ("flags/out_k_all.txt", ["--kpi", "--all"]),  # -k -a, spelled long
    ],
)
def test_the_launchers_lkp_tables_are_lkps(golden: str, spelled: list[str] | None) -> None:
    """``lkp compare`` (text), which the launcher runs itself: lkp's own ncompare output,
    and what the Python command line prints."""
    r = goldens.row("lkp/golden", golden)
    flags = r["options"].split() if spelled is None else spelled
    roots = [LKP / p for p in r["roots"].split()]
    argv = ["lkp", "compare", *flags, *map(str, roots)]
    code, out, err = _same(argv)
    assert (code, err) == (0, b"")
    assert out == (LKP / golden).read_bytes()
    # run by the launcher itself, not handed to Python: no interpreter is needed
    n = subprocess.run([NATIVE, *argv], capture_output=True, timeout=120, cwd=REPO,
                       env=dict(os.environ, SCHEDLAB_PYTHON="/nonexistent/python", LC_ALL="C.UTF-8"))
    assert (n.returncode, n.stdout) == (0, out)


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "latin-1"}, {"PYTHONIOENCODING": "ascii:replace"},
                                 {"LC_ALL": "C"}, {"LC_ALL": "C.UTF-8"}, {"PYTHONUTF8": "1"}])
def test_lkps_table_is_encoded_as_python_encodes_it(env: dict[str, str]) -> None:
    """lkp's table has '±': where Python would not write UTF-8, the launcher leaves the
    command line to Python; either way the bytes are Python's."""
    argv = ["lkp", "compare", str(LKP_FLAGS / ("c" * 40)), str(LKP_FLAGS / ("d" * 40))]
    n, p = (subprocess.run(cmd + argv, capture_output=True, timeout=120, cwd=REPO,
                           env=dict(os.environ, SCHEDLAB_PYTHON=sys.executable, **env))
            for cmd in ([NATIVE], [sys.executable, "-m", "schedlab"]))
    assert (n.returncode, n.stdout, n.stderr) == (p.returncode, p.stdout, p.stderr)


@pytest.mark.parametrize(
    "extra",
    [
        ["--root", "tests/data/lkp/golden/flags", "cccc", "dddd"],  # commit prefixes
        ["--root", "tests/data/lkp/golden/flags", "cccc", "ffff"],  # no such commit: Python's error
        ["--format", "markdown"],
        ["--test", "mann-whitney"],
        ["--test", "bogus"],
        ["-am"],
        ["-p", "inf"],
        ["-p", "-1"],
        ["--al"],
        ["-s", "commit=cccc"],
        ["--help"],
        ["/nonexistent"],
    ],
)
def test_every_lkp_compare_form_prints_what_python_prints(extra: list[str]) -> None:
    """``lkp compare`` in forms the launcher runs and forms it leaves to Python."""
    base = ["lkp", "compare", str(LKP_FLAGS / ("c" * 40)), str(LKP_FLAGS / ("d" * 40))]
    if extra and extra[0] == "--root":
        _same(["lkp", "compare", *extra])
    else:
        _same(base + extra)
    _same(["lkp", "compare", str(LKP_FLAGS / ("c" * 40)), *extra, str(LKP_FLAGS / ("d" * 40))])


def test_a_closed_or_full_standard_output_is_pythons_error() -> None:
    """Standard output that cannot be written: the launcher gives way to Python,
    which names it (exit 2), rather than losing the table."""
    argv = [NATIVE, "mmtests", "compare", "-d", str(FAMILIES / "2025"), "-b", "stream", "-n", THREE, "--compat", "2025"]
    env = dict(os.environ, SCHEDLAB_PYTHON=sys.executable)
    with open("/dev/full", "wb") as full:
        p = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, env=env, cwd=REPO, timeout=120)
    q = subprocess.run(
        [sys.executable, "-m", "schedlab", *argv[1:]], stdout=open("/dev/full", "wb"), stderr=subprocess.PIPE, env=env, cwd=REPO
    )
    assert (p.returncode, p.stderr) == (q.returncode, q.stderr)
    assert p.returncode == 2 and b"standard output" in p.stderr


def test_no_interpreter_found_is_a_clear_error(tmp_path: Path) -> None:
    """A launcher with no Python beside it nor on PATH says so (exit 2), for any
    command it does not run itself."""
    exe = tmp_path / "schedlab"
    shutil.copy(NATIVE, exe)
    env = {"PATH": str(tmp_path)}
    p = subprocess.run([str(exe), "stats", "--example"], capture_output=True, env=env, timeout=60)
    assert p.returncode == 2
    assert b"no Python interpreter found" in p.stderr and b"SCHEDLAB_PYTHON" in p.stderr


def test_ctrl_c_stops_the_launchers_compare(tmp_path: Path) -> None:
    """A long compare (two dbench4 loadfile logs of 2.4 million completions each, as
    tests/test_hostile_interrupt.py builds them) stops on a real SIGINT with Python's
    line and exit code 130 (how soon: benchmarks/bench_interrupt.py)."""
    import gzip
    import signal
    import time

    member = gzip.compress(b"   1 completed in 317 ms at time 317 ms\n   0 completed in 300 ms at time 600 ms\n"
                           * 20_000, 1)
    root = tmp_path / "work" / "log"
    for k in ("6.8-vanilla", "6.9-patched"):
        logs = root / k / "iter-0" / "dbench4" / "logs"
        logs.mkdir(parents=True)
        shutil.copy(DATA / "logs-legacy" / k / "iter-0" / "tests-timestamp", root / k / "iter-0")
        (logs / "dbench-loadfile-1.log.gz").write_bytes(member * 60)
    argv = ["mmtests", "compare", "-d", str(root), "-b", "dbench4", "-n", "6.8-vanilla,6.9-patched"]
    # SIGINT as in a terminal (a background job of a shell starts with it ignored)
    p = subprocess.Popen([NATIVE, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.0)
    assert p.poll() is None, "the compare ended before the signal: make the logs longer"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)  # a hang guard, not a latency bound
    assert (p.returncode, out, err) == (130, b"", b"schedlab mmtests: interrupted\n")

"""What a `schedlab` process imports on the way to its answer (a 2-kernel
`mmtests compare` table as a whole process in < 50 ms, most of which is Python starting).

No timing here (timed unit tests are not allowed; benchmarks/bench_cli_startup.py measures):
the tests read the modules a run imported from `python -X importtime` and hold the heavy or
needless ones out. What a plain argparse command line imports in this same Python (which
changes between Python versions) is subtracted first, so only schedlab's own imports count.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest
from schedlab import cli

DATA = Path(__file__).parent / "data" / "mmtests"

# Heavy (numpy, pandas, matplotlib: tens of ms each) or needless on the way to a table:
# typing (annotations only), shutil (argparse's help width; loads zlib, bz2 and lzma),
# json/dataclasses/importlib.metadata (the version, the Python-side Comparison), the
# pure-Python layer of the package (the text path goes straight to the core).
NOT_FOR_A_TABLE = {"numpy", "pandas", "matplotlib", "scipy", "typing", "shutil", "json", "dataclasses",
                   "importlib.metadata", "inspect", "schedlab.mmtests", "schedlab.table", "schedlab.stats"}
# schedlab --help imports every command module: still nothing heavy
NOT_FOR_HELP = {"numpy", "pandas", "matplotlib", "scipy", "typing", "shutil"}

# a plain argparse command line of the same shape, for what this Python's argparse imports
# itself; given a help width, as schedlab's parsers are (else argparse imports shutil)
PLAIN = """
import argparse, functools
f = functools.partial(argparse.HelpFormatter, width=78)
p = argparse.ArgumentParser(prog="x", description="d", formatter_class=f)
s = p.add_subparsers(dest="c").add_parser("c", help="h", formatter_class=f)
s = s.add_subparsers(dest="d").add_parser("e", help="h", formatter_class=f)
s.add_argument("-d", required=True, help="h")
s.add_argument("--f", choices=["a", "b"], default="a", help="h")
p.parse_known_args(["c", "e", "-d", "x"])
p.format_help()
"""


def imported(*args: str) -> tuple[set[str], subprocess.CompletedProcess]:
    """The modules a `python -X importtime ARGS...` run imported (its own list on stderr)."""
    r = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True, text=True, timeout=120)
    names = {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    names.discard("imported package")
    return names, r


@pytest.fixture(scope="module")
def plain_argparse() -> set[str]:
    names, r = imported("-c", PLAIN)
    assert r.returncode == 0, r.stderr
    assert "argparse" in names  # the listing works
    # (a site .pth of the environment may import more at start-up, e.g. certifi with
    # shutil: what it imports is in this set, so the tests below subtract it)
    return names


def test_a_2_kernel_table_imports_nothing_it_does_not_need(plain_argparse: set[str]) -> None:
    names, r = imported("-m", "schedlab", "mmtests", "compare", "-d", str(DATA / "logs-legacy"), "-b",
                        "netperf-udp", "-n", "6.8-vanilla,6.9-patched", "--compat", "2025")
    assert r.returncode == 0, r.stderr
    assert r.stdout == (DATA / "out" / "2025-netperf-udp.oracle").read_text()  # compare-mmtests.pl's table
    assert {"schedlab.cli", "schedlab.commands.mmtests", "schedlab._core"} <= names
    # only the command named is imported
    assert not {n for n in names if n.startswith("schedlab.commands.")} - {"schedlab.commands.mmtests"}
    extra = (names - plain_argparse) & NOT_FOR_A_TABLE
    assert not extra, f"a 2-kernel table imported {sorted(extra)}"


def test_help_lists_every_command_without_heavy_imports(plain_argparse: set[str]) -> None:
    names, r = imported("-m", "schedlab", "--help")
    assert r.returncode == 0, r.stderr
    for name in cli.COMMANDS:
        # a name longer than argparse's column has its help on the next line
        assert f"\n    {name} " in r.stdout or f"\n    {name}\n" in r.stdout
        assert f"schedlab.commands.{name}" in names
    extra = (names - plain_argparse) & NOT_FOR_HELP
    assert not extra, f"schedlab --help imported {sorted(extra)}"


def _help_texts(parser_class: type[argparse.ArgumentParser]) -> list[str]:
    p = parser_class(prog="x", description="a description long enough to be wrapped at a narrow width " * 3)
    p.add_argument("--flag", choices=["one", "two", "three"], help="help text long enough to wrap " * 4)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    q = sub.add_parser("sub", help="a subcommand's one-line help, long enough to wrap " * 2,
                       formatter_class=argparse.RawDescriptionHelpFormatter, description="keep\n  this layout")
    q.add_argument("-d", "--directory", required=True, help="a required flag " * 6)
    return [p.format_help(), p.format_usage(), q.format_help()]


@pytest.mark.parametrize("columns", ["50", "120", None, "junk"])
def test_help_is_wrapped_as_argparse_wraps_it(monkeypatch: pytest.MonkeyPatch, columns: str | None) -> None:
    # the reference is argparse's own parser, which asks shutil for the width
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert _help_texts(cli._Parser) == _help_texts(argparse.ArgumentParser)

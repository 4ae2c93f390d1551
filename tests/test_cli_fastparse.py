"""The `schedlab` command line without argparse: schedlab._fastparse against argparse.

The fast parser must give argparse's namespace (same values, the same ``func`` object)
or decline (None); wherever argparse rejects a line it must decline. Checked on the
usual command lines, on lines it must leave to argparse, and on random lines over every
command's tokens (hypothesis). The whole process of a usual `mmtests compare` must not
import argparse, gettext or locale, and help and usage errors must still be argparse's.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from schedlab._fastparse import parse as fast_parse
from schedlab.cli import build_parser, command_spec, main
from schedlab.commands import COMMANDS

MMTESTS = Path(__file__).parent / "data" / "mmtests"
LEGACY = MMTESTS / "logs-legacy"

_SPECS: dict = {}


def spec_for(argv: list[str]):
    """The spec main() uses for ``argv`` (just the named command, else all), built once."""
    only = argv[0] if argv and argv[0] in COMMANDS else None
    if only not in _SPECS:
        _SPECS[only] = command_spec(only)
    return _SPECS[only]


def argparse_result(spec, argv: list[str]):
    """argparse's namespace for ``argv``, or None where it exits (help, usage error) or raises."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            return spec.build().parse_args(argv)
        except SystemExit:
            return None
        except Exception:  # e.g. a type function raising something argparse does not catch
            return None


def same(a, b) -> bool:
    """Equal values, NaN equal to NaN (``--alpha nan``), functions the same object."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if callable(a) or callable(b):
        return a is b
    return type(a) is type(b) and a == b


def check(argv: list[str]):
    """Assert the fast parser agrees with argparse on ``argv``; return its result."""
    spec = spec_for(argv)
    fast = fast_parse(spec, argv)
    expected = argparse_result(spec, argv)
    if expected is None:
        assert fast is None, f"argparse rejects {argv!r}, the fast parser gave {fast}"
    elif fast is not None:
        got, want = vars(fast), vars(expected)
        assert got.keys() == want.keys(), (argv, got, want)
        for key in want:
            assert same(got[key], want[key]), (argv, key, got[key], want[key])
    return fast


USUAL = [
    ["mmtests", "compare", "-d", "/tmp/x", "-b", "netperf-udp", "-n", "6.8,6.9", "--compat", "2025"],
    ["mmtests", "compare", "--directory=/tmp/x", "--benchmark", "tbench4", "-n", "a,b", "--print-ratio",
     "--format", "json", "--test", "welch", "--alpha", "0.01", "--sub-heading", ""],
    ["mmtests", "parse", "table.txt", "--format", "overview"],
    ["mmtests"],
    ["lkp", "compare", "base", "head1", "head2", "-a", "-m", "--format", "csv"],
    ["lkp", "compare", "base", "--format", "csv", "head1"],
    ["lkp", "stats", "run"],
    ["lkp", "unite", "root", "--dry-run", "--label", "x"],
    ["lkp", "plot", "metric", "base", "head", "--gnuplot"],
    ["stats", "--example"],
    ["stats", "a.txt", "b.txt", "--lower-is-better", "--seed", "3", "--alpha=0.1"],
    ["stats", "--higher-is-better", "--higher-is-better", "a.txt"],
    ["pelt", "simulate", "t.csv", "--no-util-est", "--no-execl-fix", "--hz", "1000", "-o", "out.csv",
     "--init", "zero", "--rule", "4.17", "--start-ns", "5"],
    ["pelt", "ftrace", "t.txt", "--pid", "42", "--cpu-cap", "512"],
    ["idle", "simulate", "trace.csv", "--governor", "menu", "--states", "intel-skx", "--kernel", "4.18",
     "--hz", "1000", "--ftrace", "--cpu", "3"],
    ["idle", "summary", "trace.csv", "--governor", "menu", "--governor", "teo@5.1", "--states", "x",
     "--power", "1,2"],
    ["idle", "presets"],
    ["idle"],
    ["batch", "a", "b", "--baseline", "6.8", "--jobs", "2", "--keep-going", "--format", "junit"],
    ["report", "--example", "-o", "r.html"],
    ["report", "a", "b", "--baseline", "x"],
    ["--version"],
    ["--version", "stats"],
    [],
]


@pytest.mark.parametrize("argv", USUAL, ids=" ".join)
def test_usual_lines_are_parsed_fast_as_argparse_does(argv):
    assert check(argv) is not None


DECLINED = [
    ["-h"],
    ["mmtests", "compare", "--help"],
    ["mmtests", "compare", "-d", "x", "-b", "y", "-n", "a,b", "--comp", "2025"],  # abbreviation
    ["mmtests", "compare", "-d", "x", "-b", "y"],  # -n missing
    ["mmtests", "compare", "-d", "x", "-b", "y", "-n", "a", "--compat", "2026"],  # not a choice
    ["mmtests", "compare", "-d", "x", "-b", "y", "-n", "a", "--alpha", "five"],  # not a float
    ["mmtests", "compare", "-dx", "-b", "y", "-n", "a"],
    ["mmtests", "compare", "-d=x", "-b", "y", "-n", "a"],
    ["mmtests", "compare", "-d", "x", "-b", "y", "-n", "a", "--print-ratio=yes"],
    ["mmtests", "compare", "-d", "x", "-b", "y", "-n", "a", "extra"],
    ["mmtests", "nope"],
    ["nope"],
    ["stats", "--", "a.txt"],
    ["stats", "-"],
    ["stats", "--higher-is-better", "--lower-is-better"],  # exclusive
    ["stats", "a.txt", "--example", "b.txt"],  # argparse: b.txt unrecognized
    ["stats", "--alpha", "-1"],
    ["lkp", "compare", "-am", "base", "head"],
    ["lkp", "compare", "base"],
    ["batch", "a", "--baseline", "x", "--jobs", "0"],
    ["idle", "summary", "t.csv", "--states", "x"],
]


@pytest.mark.parametrize("argv", DECLINED, ids=" ".join)
def test_help_errors_and_unusual_lines_are_left_to_argparse(argv):
    assert fast_parse(spec_for(argv), argv) is None
    check(argv)


def _walk(spec, path=()):
    yield path, spec
    if spec.subparsers is not None:
        for name, sub in spec.subparsers.parsers.items():
            yield from _walk(sub, (*path, name))


def _arguments(spec) -> list[tuple[tuple[str, ...], dict]]:
    """The (flags, keywords) of every add_argument of one parser, with -h/--help."""
    return [(("-h", "--help"), {"action": "help"})] + [
        (call.args, call.kwargs) for call in spec.calls if call.method == "add_argument"]


PARSERS = [(list(path), _arguments(spec)) for path, spec in _walk(command_spec())]
ALL_FLAGS = sorted({f for _, args in PARSERS for flags, _ in args for f in flags if f.startswith("-")})
ALL_NAMES = sorted({name for path, _ in PARSERS for name in path})
NOISE = ["--", "-", "-1", "-0.5", "-x", "-am", "-dx", "-d=x", "--=x", "--x", "---", "", " ", "a b", "-a b",
         "0", "1", "250", "1e-3", "nan", "inf", "-inf", "\u0661\u0662", "\u00fc", "x=y", "menu", "teo@5.1",
         "6.8,6.9", "2025"]
WORDS = st.one_of(st.sampled_from(NOISE + ALL_NAMES), st.text(max_size=6))
PLAIN = st.one_of(st.sampled_from(["a.txt", "6.8-vanilla", "menu", "x", "", "\u00fc"]),
                  st.text(max_size=6).filter(lambda w: not w.startswith("-")))


def _values(kwargs: dict):
    """Strings an argument usually takes (its choices, numbers for int and float), now and then any word."""
    if kwargs.get("choices"):
        good = st.sampled_from([str(c) for c in kwargs["choices"]])
    elif kwargs.get("type") is float:
        good = st.sampled_from(["0.05", "1", "1e-3", "0", "nan", "2.5", "1_0"])
    elif kwargs.get("type") is not None:  # int and int-like checks
        good = st.integers(0, 5000).map(str)
    else:
        good = PLAIN
    return st.integers(0, 19).flatmap(lambda k: WORDS if k == 0 else good)


@st.composite
def usual_lines(draw) -> list[str]:
    """A (sub)command path with its required options, some optional ones and positionals of
    the right counts, in random order (argparse does not take every order), then and
    again damaged (a token dropped, or noise, another parser's flag, an abbreviation put in)."""
    path, arguments = draw(st.sampled_from(PARSERS))
    items: list[list[str]] = []
    for flags, kwargs in arguments:
        action = kwargs.get("action", "store")
        if not flags[0].startswith("-"):
            low, high = {None: (1, 1), "?": (0, 1), "*": (0, 3), "+": (1, 3)}[kwargs.get("nargs")]
            items.extend([w] for w in draw(st.lists(_values(kwargs), min_size=low, max_size=high)))
            continue
        if action == "help" and draw(st.integers(0, 20)):
            continue
        for _ in range(1 if kwargs.get("required") else draw(st.sampled_from([0, 0, 1, 1, 2]))):
            flag = draw(st.sampled_from(flags))
            if action in ("store_true", "store_false", "help"):
                items.append([flag])
            elif flag.startswith("--") and draw(st.booleans()):
                items.append([f"{flag}={draw(_values(kwargs))}"])
            else:
                items.append([flag, draw(_values(kwargs))])
    items = draw(st.permutations(items)) if draw(st.booleans()) else items
    argv = list(path) + [token for item in items for token in item]
    for _ in range(draw(st.sampled_from([0, 0, 0, 0, 0, 1, 2]))):
        at = draw(st.integers(0, len(argv)))
        damage = draw(st.sampled_from(["drop", "noise", "flag", "abbreviate"]))
        if damage == "drop" and at < len(argv):
            del argv[at]
        elif damage == "noise":
            argv.insert(at, draw(WORDS))
        elif damage == "flag":
            argv.insert(at, draw(st.sampled_from(ALL_FLAGS)))
        elif damage == "abbreviate" and at < len(argv):
            argv[at] = argv[at][:draw(st.integers(1, 12))]
    return argv


@st.composite
def any_lines(draw) -> list[str]:
    """A (sub)command path, then any of its flags, other parsers' flags, words and noise."""
    path, arguments = draw(st.sampled_from(PARSERS))
    flags = [f for fl, _ in arguments for f in fl if f.startswith("-")]
    choices = [str(c) for _, kw in arguments for c in kw.get("choices") or ()]
    words = st.one_of(WORDS, st.sampled_from(choices or ["x"]))
    item = st.one_of(
        st.tuples(st.sampled_from(flags)),
        st.tuples(st.sampled_from(flags), words),
        st.builds(lambda f, w: (f"{f}={w}",), st.sampled_from(flags), words),
        st.tuples(st.sampled_from(ALL_FLAGS)),
        st.tuples(words),
    )
    return list(path) + [t for parts in draw(st.lists(item, max_size=8)) for t in parts]


@settings(max_examples=10 * settings.default.max_examples)
@given(st.one_of(usual_lines(), usual_lines(), any_lines()))
def test_random_lines_fast_parse_agrees_with_argparse(argv):
    event("parsed fast" if check(argv) is not None else "left to argparse")


WRAPPER = """\
import re, sys
from schedlab.cli import main
sys.argv[0] = "schedlab"
try:
    code = main()
finally:
    print("MODULES", *sorted(sys.modules), file=sys.stderr)
sys.exit(code)
"""


def run_wrapped(*argv: str, **env: str) -> subprocess.CompletedProcess:
    """``schedlab ARGV`` as the pip console script runs it, listing the imported modules last on stderr."""
    return subprocess.run([sys.executable, "-c", WRAPPER, *argv], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})


def imported(r: subprocess.CompletedProcess) -> set[str]:
    line = [x for x in r.stderr.splitlines() if x.startswith("MODULES ")][-1]
    return set(line.split()[1:])


def test_mmtests_compare_process_imports_no_argparse():
    r = run_wrapped("mmtests", "compare", "-d", str(LEGACY), "-b", "netperf-udp", "-n", "6.8-vanilla,6.9-patched",
                    "--compat", "2025")
    assert r.returncode == 0, r.stderr
    assert r.stdout == (MMTESTS / "out" / "2025-netperf-udp.oracle").read_text()
    assert not {"argparse", "gettext", "locale"} & imported(r)


def test_help_and_usage_errors_are_still_argparse_s():
    r = run_wrapped("mmtests", "compare", "--help", COLUMNS="100")
    assert r.returncode == 0, r.stderr
    compare = command_spec("mmtests").subparsers.parsers["mmtests"].subparsers.parsers["compare"]
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COLUMNS", "100")
        assert r.stdout == compare.build().format_help()
    assert r.stdout.startswith("usage: schedlab mmtests compare [-h] -d DIRECTORY")
    assert "argparse" in imported(r)
    r = run_wrapped("mmtests", "compare", "-d", str(LEGACY), "-b", "netperf-udp")
    assert r.returncode == 2
    assert "schedlab mmtests compare: error: the following arguments are required: -n/--names" in r.stderr
    r = run_wrapped("mmtests", "compare", "-d", str(LEGACY), "-b", "netperf-udp", "-n", "a", "--compat", "2026")
    assert r.returncode == 2
    assert "argument --compat: invalid choice: '2026'" in r.stderr


def test_build_parser_is_a_real_argparse_parser():
    import argparse

    parser = build_parser()
    assert isinstance(parser, argparse.ArgumentParser)
    ns = parser.parse_args(["mmtests", "compare", "-d", "x", "-b", "y", "-n", "a,b"])
    assert ns.command == "mmtests" and ns.mmtests_command == "compare" and ns.compat is None
    assert "mmtests" in parser.format_help() and "batch" in parser.format_help()


def test_a_command_without_its_subcommand_prints_its_help(capsys):
    assert main(["mmtests"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: schedlab mmtests [-h] SUBCOMMAND ...") and "compare" in err

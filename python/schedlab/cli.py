"""The ``schedlab`` command: one subcommand per job, flags after the tools users know.

Each subcommand lives in its own module under :mod:`schedlab.commands` and is
imported when the parser is built; those modules import nothing heavy (no
pandas) at import time, so ``schedlab`` starts fast.

Exit codes: 0 success, 1 the command's own "found a problem" result (e.g. a
regression in batch mode), 2 bad input or usage (the message names the file).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from .commands import COMMANDS
from .errors import SchedlabError


def _help_width() -> int:
    """The help text's width as argparse finds it (``COLUMNS``, else the terminal's,
    else 80, less 2), without importing shutil for it: start-up time is part of every
    ``schedlab`` run."""
    try:
        return int(os.environ["COLUMNS"]) - 2
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns - 2
    except (AttributeError, ValueError, OSError):
        return 78


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help formatter is given its width (see _help_width)."""

    def _get_formatter(self) -> argparse.HelpFormatter:
        return self.formatter_class(prog=self.prog, width=_help_width())


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered (or just ``only``:
    the command line names one command, so only its module is imported)."""
    parser = _Parser(
        prog="schedlab",
        description="Kernel performance results, statistics and scheduler/cpuidle simulation.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f".commands.{name}", __package__).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    >>> main(["stats", "--example"]) == 0  # doctest: +ELLIPSIS
    unixbench-execl...
    True
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args = parser.parse_args(argv)
    if args.version:
        from . import __version__

        print(f"schedlab {__version__}")
        return 0
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except SchedlabError as e:
        print(f"schedlab {args.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `schedlab ... | head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

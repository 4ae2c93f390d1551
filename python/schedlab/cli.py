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
import sys
from typing import Sequence

from .commands import COMMANDS
from .errors import SchedlabError


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered (or just ``only``:
    the command line names one command, so only its module is imported)."""
    parser = argparse.ArgumentParser(
        prog="schedlab",
        description="Kernel performance results, statistics and scheduler/cpuidle simulation.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
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

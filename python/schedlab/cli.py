"""The ``schedlab`` command: one subcommand per job, flags after the tools users know.

Each subcommand lives in its own module under :mod:`schedlab.commands`, imported when
the command line names it (all of them for help); those modules import nothing heavy
(no pandas) at import time. Their ``register(subparsers)`` adds the subcommand with
ordinary argparse calls.

Exit codes: 0 success, 1 the command's own "found a problem" result (e.g. a
regression in batch mode), 2 bad input or usage (the message names the file).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .commands import COMMANDS

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``schedlab`` parser with every subcommand registered, or just ``only`` (the
    command line names one command, so only its module is imported).

    >>> build_parser("stats").parse_args(["stats", "--example"]).example
    True
    """
    parser = argparse.ArgumentParser(
        prog="schedlab", description="Kernel performance results, statistics and scheduler/cpuidle simulation."
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        module = f"{__package__}.commands.{name}"
        __import__(module)
        sys.modules[module].register(sub)
    return parser


def _deepest(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The innermost subcommand parser the parsed ``args`` went through (so that an
    unknown flag is reported with that subcommand's usage, not the top level's)."""
    while True:
        actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not actions:
            return parser
        chosen = getattr(args, actions[0].dest, None)
        if chosen is None or chosen not in actions[0].choices:
            return parser
        parser = actions[0].choices[chosen]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    >>> main(["stats", "--example"]) == 0  # doctest: +ELLIPSIS
    unixbench-execl...
    True
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if extra:
        _deepest(parser, args).error("unrecognized arguments: " + " ".join(extra))
    if args.version:
        from . import __version__

        print(f"schedlab {__version__}")
        return 0
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # e.g. `schedlab ... | head`
        return 0
    except Exception as e:
        from .errors import SchedlabError

        if not isinstance(e, SchedlabError):
            raise
        print(f"schedlab {args.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

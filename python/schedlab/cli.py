"""The ``schedlab`` command: one subcommand per job, flags after the tools users know.

Each subcommand lives in its own module under :mod:`schedlab.commands`, imported when
the command line names it (all of them for help); those modules import nothing heavy
(no pandas, no argparse) at import time, so ``schedlab`` starts fast. Their
``register`` records the subcommand's flags on a :class:`~schedlab._argspec.ParserSpec`;
:mod:`schedlab._fastparse` reads the usual command lines from that record, and the real
argparse parser, built from the same record, reads the rest: help, usage errors and
unusual lines (argparse, gettext and locale cost about 6 ms, a sixth of a whole
``schedlab mmtests compare``).

Exit codes: 0 success, 1 the command's own "found a problem" result (e.g. a
regression in batch mode), 2 bad input or usage (the message names the file).
"""

from __future__ import annotations

import os
import sys

from ._argspec import ParserSpec
from ._fastparse import parse as fast_parse
from .commands import COMMANDS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (fast CLI start)
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from collections.abc import Sequence


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


_Parser: type[argparse.ArgumentParser] | None = None


def _parser_class() -> type[argparse.ArgumentParser]:
    """``_Parser``, the class of the real parsers: an ArgumentParser whose help formatter
    is given its width (see _help_width). Defined on first use, as argparse is imported
    only when a real parser is needed."""
    global _Parser
    if _Parser is None:
        import argparse

        class Parser(argparse.ArgumentParser):
            """An ArgumentParser whose help formatter is given its width (see _help_width)."""

            def _get_formatter(self) -> argparse.HelpFormatter:
                return self.formatter_class(prog=self.prog, width=_help_width())

        _Parser = Parser
    return _Parser


def command_spec(only: str | None = None) -> ParserSpec:
    """The recorded command line with every subcommand registered (or just ``only``:
    the command line names one command, so only its module is imported)."""
    spec = ParserSpec(
        build_class=_parser_class,
        prog="schedlab",
        description="Kernel performance results, statistics and scheduler/cpuidle simulation.",
    )
    spec.add_argument("--version", action="store_true", help="print the version and exit")
    sub = spec.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        module = f"{__package__}.commands.{name}"
        __import__(module)  # importlib.import_module, without importing importlib
        sys.modules[module].register(sub)
    return spec


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The real argparse parser of :func:`command_spec` (every subcommand, or just ``only``)."""
    return command_spec(only).build()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    >>> main(["stats", "--example"]) == 0  # doctest: +ELLIPSIS
    unixbench-execl...
    True
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    spec = command_spec(argv[0] if argv and argv[0] in COMMANDS else None)
    args = fast_parse(spec, argv)
    if args is None:  # help, a usage error or an unusual line: argparse's parse, messages, exit 2
        args = spec.build().parse_args(argv)
    if args.version:
        from . import __version__

        print(f"schedlab {__version__}")
        return 0
    if not args.command:
        spec.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # e.g. `schedlab ... | head`
        return 0
    except Exception as e:
        from .errors import SchedlabError  # only now: a run that succeeds does not import it

        if not isinstance(e, SchedlabError):
            raise
        print(f"schedlab {args.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

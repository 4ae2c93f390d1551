"""The ``schedlab`` command: one subcommand per job, flags after the tools users know.

Each subcommand lives in its own module under :mod:`schedlab.commands`, imported when
the command line names it (all of them for help); those modules import nothing heavy
(no pandas) at import time. Their ``register(subparsers)`` adds the subcommand with
ordinary argparse calls.

Exit codes: 0 success, 1 the command's own "found a problem" result (e.g. a
regression in batch mode), 2 bad input or usage, or an output that cannot be written
(the message names the file), 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import os
import sys

from .commands import COMMANDS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (2-4 ms a run)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence
    from typing import Any


class _Parser(argparse.ArgumentParser):
    """argparse's parser with the help width given to its formatter. Left to itself,
    argparse asks ``shutil.get_terminal_size`` at every ``add_argument`` (it formats
    the argument once to check it), and importing shutil loads zlib, bz2 and lzma: ~3 ms
    of CPU at load 11, a sixth of what a 2-kernel ``mmtests compare`` run spent beyond
    ``python -c pass``. The width is the one
    argparse would use (:func:`_help_width`). Subcommands are made of this class too
    (argparse makes them of the parent's class); parsing, help and errors are argparse's."""

    def __init__(self, **kwargs: Any) -> None:
        import functools

        formatter = kwargs.pop("formatter_class", argparse.HelpFormatter)
        super().__init__(formatter_class=functools.partial(formatter, width=_help_width()), **kwargs)


def _help_width() -> int:
    """The width argparse's ``HelpFormatter`` gives itself: the terminal's columns as
    ``shutil.get_terminal_size().columns`` finds them (``$COLUMNS``, else standard
    output's terminal, else 80), less 2."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns if columns > 0 else 80) - 2


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``schedlab`` parser with every subcommand registered, or just ``only`` (the
    command line names one command, so only its module is imported).

    >>> build_parser("stats").parse_args(["stats", "--example"]).example
    True
    """
    parser = _Parser(
        prog="schedlab", description="Kernel performance results, statistics and scheduler/cpuidle simulation."
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        module = f"{__package__}.commands.{name}"
        __import__(module)
        sys.modules[module].register(sub)
    _plain(parser)
    return parser


def _rst_free(text: str) -> str:
    """``text`` without the reStructuredText markup of the docstrings it comes from:
    ``x`` and :role:`x` become x."""
    import re

    return re.sub(r":[a-z]+:`([^`]*)`", r"\1", text).replace("``", "")


def _plain(parser: argparse.ArgumentParser) -> None:
    """Remove docstring markup from the descriptions and help of ``parser`` and all
    its subcommands, so ``--help`` prints plain text."""
    if parser.description:
        parser.description = _rst_free(parser.description)
    for action in parser._actions:
        if action.help and action.help is not argparse.SUPPRESS:
            action.help = _rst_free(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    choice.help = _rst_free(choice.help)
            for child in dict.fromkeys(action.choices.values()):
                _plain(child)


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
    if sys.stderr is None:
        # started with standard error closed (`2>&-`): print(file=None) would write its
        # lines on standard output, into the result. They go to /dev/null instead, which
        # also takes descriptor 2, so no file opened later lands there.
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
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
    if sys.stdout is None:  # started with standard output closed (`>&-`)
        sys.stdout = _ClosedStdout()
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a full device (/dev/full) fails here, not silently at exit
        return code
    except BrokenPipeError:  # e.g. `schedlab ... | head`
        _silence_stdout()
        return 0
    except KeyboardInterrupt:  # Ctrl-C: stopped within the native loops, no traceback
        _silence_stdout()
        from . import _core

        print(_core.cli_interrupted(args.command), file=sys.stderr)
        return _core.CLI_INTERRUPTED
    except Exception as e:
        from .errors import SchedlabError

        if isinstance(e, OSError) and not isinstance(e, SchedlabError):
            # an OS error with no file name is a write to standard output (files are
            # opened by name, and -o goes through schedlab._output, which names them)
            where = e.filename if e.filename is not None else "standard output"
            print(f"schedlab {args.command}: error: cannot use {where}: {e.strerror or e}", file=sys.stderr)
            _silence_stdout()
            return 2
        if not isinstance(e, SchedlabError):
            raise
        print(f"schedlab {args.command}: error: {e}", file=sys.stderr)
        return 2


class _ClosedStdout:
    """Stands for a closed standard output: any write is a clear error (exit 2), not
    output silently lost."""

    def write(self, data: object) -> int:
        from .errors import WriteError

        raise WriteError("standard output is closed: redirect it to a file (> FILE) or use -o FILE")

    def flush(self) -> None:
        pass

    @property
    def buffer(self) -> _ClosedStdout:
        return self


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so that the interpreter's own flush of
    what is still buffered at exit neither fails again nor overrides the exit code."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:
        pass

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

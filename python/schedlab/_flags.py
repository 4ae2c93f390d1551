"""argparse ``type=`` functions for the numeric flags: each refuses a value outside its
range with a message stating the value as given (argparse prints it as
``argument --alpha: must be in (0, 1), got 2``, exit code 2), so that no out-of-range
number reaches the core to overflow, wrap or mean something else."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable


def _int(s: str) -> int:
    try:
        return int(s, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got '{s}'") from None


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An integer flag within ``low..high`` (both included)."""

    def parse(s: str) -> int:
        n = _int(s)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"must be an integer in {low}..{high}, got {s}")
        return n

    parse.__name__ = "integer"  # argparse's "invalid integer value" wording for other errors
    return parse


def probability(s: str) -> float:
    """A significance level: a number strictly between 0 and 1 (not nan, not inf)."""
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got '{s}'") from None
    if not 0.0 < v < 1.0:  # false for nan too
        raise argparse.ArgumentTypeError(f"must be in (0, 1), got {s}")
    return v


def percentage(s: str) -> float:
    """A finite number >= 0 (a change in percent)."""
    import math  # here: most commands have no such flag, and math is a shared library to load

    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got '{s}'") from None
    if not (math.isfinite(v) and v >= 0):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {s}")
    return v


#: A uint64 (nanoseconds since boot, a seed).
uint64 = int_in(0, 2**64 - 1)
#: A pid or CPU number (the kernel's pid_t / CPU id: 0..2^31-1).
pid = int_in(0, 2**31 - 1)
#: A CPU number.
cpu = pid
#: A capacity (the scheduler's SCHED_CAPACITY_SCALE).
capacity = int_in(1, 1024)
#: A size in bytes (a limit a flag raises).
size = int_in(1, 2**62)
#: Worker threads (at most parallel::MAX_THREADS).
jobs = int_in(1, 1024)


def add_allow_missing(parser: argparse.ArgumentParser, what: str) -> None:
    """The one ``--allow-missing`` flag of the commands that fail closed (``batch``,
    ``report``, ``mmtests compare``): without it missing data (``what``: a failed
    or empty benchmark, a log without a result line, ...) makes the exit code 2;
    with it the data is still listed and the exit code follows the verdicts."""
    parser.add_argument("--allow-missing", action="store_true",
                        help=f"missing data ({what}) is still listed on stderr but no longer makes the exit "
                             "code 2; the exit code then follows the verdicts")

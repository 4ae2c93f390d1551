"""The exceptions schedlab raises.

Every error schedlab reports is a :class:`SchedlabError`. The subclasses also
derive from the builtin a caller would naturally catch (``ValueError`` for bad
values, ``OSError`` for unreadable files), and carry where the problem is.

>>> import schedlab
>>> try:
...     schedlab.stats.hmean([1.0, 0.0])
... except schedlab.DomainError as e:
...     print(e)
the harmonic mean is undefined for non-positive values: x[1] = 0
"""

from __future__ import annotations

__all__ = [
    "SchedlabError",
    "ParseError",
    "InsufficientDataError",
    "DomainError",
    "ReadError",
    "WriteError",
    "FileNotFoundError",
    "MissingDependencyError",
]

_builtin_FileNotFoundError = FileNotFoundError


class SchedlabError(Exception):
    """Base class of every schedlab error (also raised for internal errors)."""


class _Located(SchedlabError):
    """An error that may know the file, line and column it concerns."""

    def __init__(
        self,
        message: str,
        path: str | None = None,
        line: int | None = None,
        column: str | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.column = column

    def __reduce__(self) -> tuple[type, tuple[str, str | None, int | None, str | None]]:  # keep the fields through pickling (Dask, multiprocessing)
        return (type(self), (self.args[0], self.path, self.line, self.column))


class ParseError(_Located, ValueError):
    """Input does not have the expected format; ``path``, ``line`` and ``column`` say where."""


class InsufficientDataError(_Located, ValueError):
    """Too few samples for the statistic or test asked for (e.g. a t-test with one run)."""


class DomainError(_Located, ValueError):
    """The value is outside the domain of the statistic (hmean of 0, NaN input, a zero baseline)."""


class ReadError(_Located, OSError):
    """A file exists but could not be read; ``path`` names it."""


class WriteError(_Located, OSError):
    """An output file could not be written (or would overwrite an input); ``path`` names it."""


class FileNotFoundError(_Located, _builtin_FileNotFoundError):  # noqa: A001 - deliberate
    """A file schedlab was asked to read does not exist; also a builtin FileNotFoundError."""


class MissingDependencyError(SchedlabError, ImportError):
    """An optional package a feature needs is not installed (e.g. matplotlib for plots:
    ``pip install 'schedlab[plot]'``)."""

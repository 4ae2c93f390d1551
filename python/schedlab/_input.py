"""Reading a whole input the command line names (a file or ``-`` for standard input)
in bounded memory: at most ``limit`` bytes are held, a longer input is refused with a
message naming the flag that raises the limit (fed from /dev/zero: a clear error, not
a MemoryError), and every OS error (a directory, a missing file, a dangling symlink, a
symlink loop, no permission) is a :class:`~schedlab.errors.ReadError` or
:class:`~schedlab.errors.FileNotFoundError` naming the path."""

from __future__ import annotations

import errno
import sys

from .errors import FileNotFoundError, ParseError, ReadError

#: The default bound of :func:`read_bounded`: 256 MiB, as the core's per-file limit.
DEFAULT_LIMIT = 256 << 20

_CHUNK = 1 << 20


def read_bounded(path: str, limit: int = DEFAULT_LIMIT, flag: str = "--max-input-bytes") -> bytes:
    """The bytes of ``path`` (``-``: standard input), refusing more than ``limit``."""
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            return _read(sys.stdin.buffer, name, limit, flag)
        with open(path, "rb") as f:
            return _read(f, name, limit, flag)
    except OSError as e:
        if isinstance(e, (ReadError, FileNotFoundError)):
            raise
        reason = e.strerror or str(e)
        if e.errno == errno.ENOENT:
            raise FileNotFoundError(f"{name}: {reason} (or a symlink to nothing)", name) from None
        if e.errno == errno.ELOOP:
            reason += " (a symlink loop)"
        raise ReadError(f"{name}: cannot read: {reason}", name) from None


def _read(f, name: str, limit: int, flag: str) -> bytes:
    parts: list[bytes] = []
    held = 0
    while True:
        chunk = f.read(min(_CHUNK, limit + 1 - held))
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        held += len(chunk)
        if held > limit:
            raise ParseError(f"{name}: more than {limit} bytes; if the input really is this large, "
                             f"raise the limit with {flag} N", name)


class Bounded:
    """Standard input as a binary file read a chunk at a time by the core (a stream,
    nothing held), refusing more than ``limit`` bytes with :func:`read_bounded`'s error."""

    def __init__(self, limit: int = DEFAULT_LIMIT, flag: str = "--max-input-bytes") -> None:
        self._f = sys.stdin.buffer
        self._left = limit
        self._limit = limit
        self._flag = flag

    def read(self, n: int = -1) -> bytes:
        want = self._left + 1 if n < 0 else min(n, self._left + 1)
        chunk = self._f.read(want)
        self._left -= len(chunk)
        if self._left < 0:
            raise ParseError(f"<stdin>: more than {self._limit} bytes; if the input really is this large, "
                             f"raise the limit with {self._flag} N", "<stdin>")
        return chunk

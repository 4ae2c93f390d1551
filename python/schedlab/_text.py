"""Text arguments on their way to the native parsers.

A Python ``str`` may hold lone surrogates (``"\\ud800"``, e.g. from
``bytes.decode(errors="surrogateescape")``), which are not Unicode text and have no
UTF-8 form: they are reported as a :class:`~schedlab.ParseError` naming the position,
not as the ``UnicodeEncodeError`` the conversion would raise.
"""

from __future__ import annotations

from .errors import ParseError


def text(s: str, path: str | None = None) -> str:
    """``s`` if it encodes as UTF-8, else a ParseError at the line of the bad character."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as e:
        line = s.count("\n", 0, e.start) + 1
        raise ParseError(f"text is not valid Unicode: lone surrogate U+{ord(s[e.start]):04X} at character "
                         f"{e.start + 1}", path, line) from None
    return s


def data(s: str | bytes | bytearray | memoryview, path: str | None = None) -> bytes:
    """The bytes of ``s`` (UTF-8 for a ``str``, checked as :func:`text` does)."""
    if isinstance(s, str):
        return text(s, path).encode("utf-8")
    return bytes(s)

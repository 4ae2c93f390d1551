"""The range check every integer column passes before it becomes int64 (the kernel's
s64 nanoseconds): a value outside it is refused as given, never wrapped (a uint64
2**63 + 5 would otherwise reach the core as -9223372036854775803, and a float 1e19 as
-2**63, both reported as negative durations)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import DomainError

_LIMIT = 2**63


def check_int64(a: np.ndarray, name: str) -> None:
    """Raise :class:`DomainError` naming ``name``, the row and the value as given when an
    unsigned or float array holds a value outside int64; other arrays pass."""
    if a.size == 0 or a.dtype.kind not in "uf":
        return
    bad = a >= _LIMIT if a.dtype.kind == "u" else (a >= _LIMIT) | (a < -_LIMIT)
    if bad.any():
        i = int(np.argmax(bad))
        v: Any = int(a[i]) if a.dtype.kind == "u" else float(a[i])
        raise DomainError(f"{name}, row {i}: {v!r} is outside the range of a signed 64-bit integer "
                          f"(at most {_LIMIT - 1})")

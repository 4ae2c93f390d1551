"""What the property tests ask of every call on hostile input."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import schedlab


def honest(call: Callable[[], Any]) -> Any:
    """Run ``call``: its value, or None when it raised a :class:`schedlab.SchedlabError`
    that is not a Rust panic caught at the binding (an "internal error"). Anything else
    it raises propagates and fails the test."""
    try:
        return call()
    except schedlab.SchedlabError as e:
        assert "internal error" not in str(e), f"a panic reached the binding: {e}"
        return None

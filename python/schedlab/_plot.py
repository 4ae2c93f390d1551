"""matplotlib, which schedlab needs only to draw: the ``plot`` extra.

>>> callable(pyplot().subplots)
True
"""

from __future__ import annotations

import os
from types import ModuleType


def pyplot() -> ModuleType:
    """``matplotlib.pyplot`` (with the non-interactive Agg backend when there is no display
    and no backend was chosen), or a :class:`schedlab.MissingDependencyError` that says how
    to install it."""
    try:
        import matplotlib
    except ImportError:
        from .errors import MissingDependencyError

        raise MissingDependencyError(
            "drawing needs matplotlib, which is not installed: pip install 'schedlab[plot]'"
        ) from None
    if not os.environ.get("DISPLAY") and "MPLBACKEND" not in os.environ:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt

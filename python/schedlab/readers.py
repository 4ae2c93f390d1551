"""Result files of benchmark tools as one tidy frame: :func:`read` gives one row per
measured value (``metric, value, unit, direction``) from perf stat (text, ``-x``
CSV, ``-j`` JSON), fio JSON, hyperfine JSON, pytest-benchmark JSON, pyperf JSON,
google-benchmark JSON, the Phoronix Test Suite's result XML and MMTests' JSON
exports (docs/readers.md). :func:`read_groups` stacks several files (or
directories of runs) under a ``group`` column, ready for :func:`schedlab.compare`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import _core

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["read", "read_groups", "FORMATS"]

#: The format names :func:`read` takes.
FORMATS: tuple[str, ...] = tuple(_core.RESULT_FORMATS)


def read(path: str | os.PathLike[str], format: str | None = None) -> pd.DataFrame:
    """The samples of one result file: columns ``metric, value, unit, direction,
    group`` (``direction`` is what the tool's field implies: ``lower`` for times,
    ``higher`` for rates, else ``unknown``; ``group`` the system or kernel the file
    names the value for, as a PTS result or an MMTests comparison does, else "").
    ``format`` is one of :data:`FORMATS`, detected from the content when None."""
    import pandas as pd

    return pd.DataFrame(_core.read_results(path, format))


def read_groups(paths: Sequence[str | os.PathLike[str]], format: str | None = None) -> pd.DataFrame:
    """:func:`read` of every path, with a ``group`` column first: the group the
    file names (a PTS system, an MMTests kernel), else the file's name without its
    extension, or for a directory its name, each file in it (sorted) one run."""
    import pandas as pd

    frames = []
    for p in paths:
        files = [os.path.join(p, f) for f in sorted(os.listdir(p))] if os.path.isdir(p) else [p]
        name = os.path.basename(os.path.normpath(p)) if os.path.isdir(p) else os.path.splitext(os.path.basename(p))[0]
        for f in files:
            df = read(f, format)
            df.insert(0, "group", df.pop("group").where(lambda g: g != "", name))
            frames.append(df)
    return pd.concat(frames, ignore_index=True)

"""Result files of benchmark tools as one tidy frame: :func:`read` gives one row per
measured value (``metric, value, unit, direction``) from perf stat (text, ``-x``
CSV, ``-j`` JSON), fio JSON, hyperfine JSON, pytest-benchmark JSON, pyperf JSON,
google-benchmark JSON, the Phoronix Test Suite's result XML, MMTests' JSON
exports and Go's benchmark format (docs/readers.md). :func:`read_groups` stacks several files (or
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
    file names (a PTS system, an MMTests kernel, the configuration a Go benchmark
    file changes), else the file's name without its extension, or for a directory
    its name, each file in it (sorted) one run. A metric's samples are all in one
    unit: the first file's, others converted (``ms`` to ``s``, ``MB/s`` to ``B/s``)
    or, when their units measure different things, a :class:`~schedlab.DomainError`
    naming both files (docs/readers.md section 12).

    >>> import schedlab.readers, tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> for name, ns in (("old.txt", 1726), ("new.txt", 1423)):
    ...     with open(os.path.join(d, name), "w") as f:
    ...         _ = f.write(f"goos: linux\\nBenchmarkEncode-8 1000 {ns} ns/op 45 B/op\\n")
    >>> df = schedlab.readers.read_groups([os.path.join(d, "old.txt"), os.path.join(d, "new.txt")])
    >>> df[["group", "metric", "unit"]].values.tolist()  # doctest: +NORMALIZE_WHITESPACE
    [['old', 'Encode-8 sec/op', 'sec/op'], ['old', 'Encode-8 B/op', 'B/op'],
     ['new', 'Encode-8 sec/op', 'sec/op'], ['new', 'Encode-8 B/op', 'B/op']]
    >>> float(df["value"][0])  # ns/op tidied to sec/op, as Go's benchstat reads it
    1.726e-06
    """
    import pandas as pd

    df = pd.DataFrame(_core.read_result_groups([os.fspath(p) for p in paths], format))
    df.insert(0, "group", df.pop("group"))
    return df

"""MMTests results: compare-mmtests.pl's tables from a ``work/log`` tree, exactly,
and what they lack (named tests with BH-FDR, bootstrap intervals, overview tables).

:func:`compare` reads the logs of each run name and returns a
:class:`MMTestsComparison`; ``.to_text()`` prints it byte for byte as
compare-mmtests.pl of the chosen MMTests era (``compat``: ``"2018"``, ``"2024"``,
``"2025"`` or ``"head"``) does. :func:`parse_compare` reads a table pasted in mail
back into the same type. :func:`overview` builds the per-machine "10% better"
table of the teo postings from each machine's :meth:`MMTestsComparison.gmean_ratio`.

>>> text = '''
...                               4.18.0                 4.18.0
...                              vanilla                    teo
... Hmean     14        70.34 (   0.00%)       69.80 *  -0.76%*
... Hmean     100      499.24 (   0.00%)      494.26 *  -1.00%*
... '''
>>> c = parse_compare(text)
>>> c.kernels
['4.18.0-vanilla', '4.18.0-teo']
>>> {k: round(v, 4) for k, v in c.gmean_ratio().items()}
{'4.18.0-vanilla': 1.0, '4.18.0-teo': 0.9912}
>>> overview_label(c.gmean_ratio()["4.18.0-teo"])
'1% worse'
>>> print(c.to_text(), end="")
                              4.18.0                 4.18.0
                             vanilla                    teo
Hmean     14        70.34 (   0.00%)       69.80 *  -0.76%*
Hmean     100      499.24 (   0.00%)      494.26 *  -1.00%*
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import _core, _text
from .table import Comparison

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "COMPAT",
    "MMTestsComparison",
    "compare",
    "parse_compare",
    "overview_label",
    "overview",
]

#: The MMTests versions ``compat`` accepts, oldest first (from the core).
COMPAT = tuple(_core.MMTESTS_ERAS)


class MMTestsComparison(Comparison):
    """A :class:`~schedlab.table.Comparison` of MMTests results.

    ``MMTestsComparison(c)`` views any comparison ``c`` as one (no copy). ``meta``
    holds the layout facts (``mmtests.era``, ``mmtests.layout``,
    ``mmtests.field_length``, ``mmtests.precision``, ``mmtests.preferred``,
    ``mmtests.ratio_group``, ...). Cells of the mean rows carry the pooled samples.
    """

    @property
    def warnings(self) -> list[str]:
        """What MMTests does silently that matters here (defaulted values, missing operations)."""
        return list(self.meta.get("schedlab.warnings", []))

    @property
    def era_reason(self) -> str:
        """Why ``meta["mmtests.era"]`` was chosen: ``--compat``, the file and line that
        only that era writes, or that the files cannot tell and the default taken
        ("" for a table not made by :func:`compare`)."""
        return self.meta.get("mmtests.era_reason", "")

    def gmean_ratio(self) -> dict[str, float]:
        """Kernel → direction-aligned Gmean of the per-operation ratios of the ratio
        statistic (new/base as ``--print-ratio`` computes them, inverted when lower
        is better so that > 1 always means better); the baseline is 1.0.

        >>> c = parse_compare('''
        ... a b
        ... Amean 1 10.00 ( 0.00%) 5.00 ( 50.00%)
        ... Amean 2 10.00 ( 0.00%) 10.00 ( 0.00%)
        ... ''')
        >>> round(c.gmean_ratio()["b"], 6)  # times halve on one op of two: sqrt(2) better
        1.414214
        """
        values = _core.mmtests_gmean_ratio(self)
        return dict(zip(self.kernels, values))

    def gmean_ratio_ci(self, kernel: str, level: float = 0.95, n_resamples: int = 2000,
                       seed: int = 0) -> tuple[float, float, float]:
        """Bootstrap interval ``(estimate, low, high)`` of ``kernel``'s Gmean ratio,
        resampling every operation's samples (needs samples: not for parsed tables)."""
        k = self.kernels.index(kernel)
        return _core.mmtests_bootstrap_gmean(self, k, level=level, n_resamples=n_resamples, seed=seed)

    def with_test(self, test: str = "welch", alpha: float = 0.05) -> MMTestsComparison:
        """A copy whose mean-row verdicts come from ``test`` (``"welch"``,
        ``"mann-whitney"`` or ``"mmtests"``) with Benjamini-Hochberg q-values across
        rows; MMTests' own marker stays in ``significant``."""
        return MMTestsComparison(_core.mmtests_apply_test(self, test, alpha))

    def plot(self, ax: Any = None, kind: str = "samples") -> Any:
        """Per-sample strip plot of the mean rows (one panel per operation, one
        column of points per kernel, the mean as a bar); returns the matplotlib
        Figure. Needs matplotlib (the ``plot`` extra), imported only here."""
        from ._plot import pyplot

        plt = pyplot()

        rows = [r for r in self.rows if any(c.samples for c in r.cells)]
        if not rows:
            rows = [r for r in self.rows if r.group == self.meta.get("mmtests.ratio_group")]
        if not rows:
            raise ValueError("this comparison has no rows to plot")
        n = len(rows)
        cols = min(n, 4)
        nrows = math.ceil(n / cols)
        fig, axes = plt.subplots(nrows, cols, figsize=(3.2 * cols, 2.8 * nrows), squeeze=False)
        for i, r in enumerate(rows):
            a = axes[i // cols][i % cols]
            for j, c in enumerate(r.cells):
                ys = c.samples or ([c.value] if c.value is not None else [])
                if ys:
                    a.plot([j] * len(ys), ys, "o", alpha=0.6, markersize=3)
                if c.value is not None:
                    a.hlines(c.value, j - 0.3, j + 0.3, colors="k")
            a.set_title(f"{r.group} {r.name}", fontsize=9)
            a.set_xticks(range(len(self.kernels)))
            a.set_xticklabels(self.kernels, rotation=30, ha="right", fontsize=7)
        for i in range(n, nrows * cols):
            axes[i // cols][i % cols].axis("off")
        fig.suptitle(f"{self.benchmark} ({self.meta.get('mmtests.preferred', '?')} is better)")
        fig.tight_layout()
        return fig


def compare(directory: str | os.PathLike[str], benchmark: str, names: Sequence[str] | str,
            compat: str | None = None, *, print_ratio: bool = False, sub_heading: str = "",
            test: str = "mmtests", alpha: float = 0.05,
            threads: int | None = None) -> MMTestsComparison:
    """``compare-mmtests.pl -d DIRECTORY -b BENCHMARK -n NAMES`` as a comparison.

    ``directory``: the ``work/log`` directory, or a ``.tar``, ``.tar.gz``/``.tgz``,
    ``.tar.xz`` or ``.zip`` archive of results (read in memory, the ``work/log``
    directory holding the first run's logs found wherever it is inside), or one
    directory inside an archive (``"lab.tar.gz/work/log.b"``) when several hold it.
    ``names`` (a list or "a,b,c"): run names, the first is the baseline.
    ``compat``: the MMTests era to reproduce (None: the era the first run's files
    tell, by layout, file names and line formats only one era writes; the newest
    that knows the benchmark when they cannot tell; ``.era_reason`` says which). ``test``: what
    decides the verdicts of the mean rows (``"mmtests"``: MMTests' own marker;
    ``"welch"``/``"mann-whitney"``: that test with BH-FDR across rows).
    Raises FileNotFoundError (no such tree or run), ParseError (unreadable log)
    or DomainError (where compare-mmtests.pl itself dies).

    >>> import schedlab, pathlib
    >>> try:
    ...     compare("/nonexistent", "netperf-udp", ["a", "b"])
    ... except schedlab.FileNotFoundError as e:
    ...     print(type(e).__name__)
    FileNotFoundError
    """
    if isinstance(names, str):
        names = [n for n in names.split(",") if n]
    c, _text, _era, _warnings = _core.mmtests_compare(os.fspath(directory), benchmark, list(names), compat=compat,
                                                      print_ratio=print_ratio, subheading=sub_heading, test=test,
                                                      alpha=alpha, threads=threads)
    return MMTestsComparison(c)


def monitor(directory: str | os.PathLike[str], benchmark: str, names: Sequence[str] | str, monitor: str,
            compat: str | None = None, *, sub_heading: str = "") -> MMTestsComparison:
    """``compare-mmtests.pl -d DIRECTORY -b BENCHMARK -n NAMES --print-monitor MONITOR``
    as a comparison (values only: MMTests prints monitors without percentages).
    ``directory`` is read as :func:`compare` reads it (a directory, an archive, or a
    directory inside an archive).

    ``monitor``: one of ``_core.MMTESTS_MONITORS`` (duration, vmstat, mpstat,
    proc-vmstat, proc-interrupts, iostat, turbostat); ``sub_heading`` picks the column
    or field (mpstat needs ``node-N``). ``compat``: the era (2024, 2025, head; None:
    the era of the benchmark's own logs, else head). What MMTests does silently with
    the data is in ``.warnings``. Raises DomainError where compare-mmtests.pl dies
    (unknown sub-heading, no data), FileNotFoundError (no such run).

    >>> import schedlab
    >>> try:
    ...     monitor("/nonexistent", "hackbench-process-pipes", ["a"], "vmstat")
    ... except schedlab.FileNotFoundError as e:
    ...     print(type(e).__name__)
    FileNotFoundError
    """
    if isinstance(names, str):
        names = [n for n in names.split(",") if n]
    c, _text, _era, _warnings = _core.mmtests_monitor(os.fspath(directory), benchmark, list(names), monitor,
                                                      compat=compat, subheading=sub_heading)
    return MMTestsComparison(c)


def parse_compare(text: str, source: str = "<text>") -> MMTestsComparison:
    """Parse a compare-mmtests.pl table as pasted in mail (aligned or with
    whitespace collapsed, names on one or two header lines, any summary rows,
    ``( x%)`` and ``* x%*`` cells, ``--print-ratio`` tables).

    Raises ParseError naming ``source`` and the line when a table row is malformed.
    """
    text = _text.text(text, source)
    # a byte order mark (files saved by some editors, text pasted from them) is no part of the table
    text = text.replace("\ufeff", "")
    return MMTestsComparison(_core.mmtests_parse_compare(text, _text.text(source)))


def overview_label(ratio: float) -> str:
    """The overview tables' wording of a direction-aligned Gmean ratio:
    the change rounded to a whole percent, "no change" when that is 0 (src/mmtests/verdicts.rs).

    >>> overview_label(1.0956), overview_label(0.9912), overview_label(1.004)
    ('10% better', '1% worse', 'no change')
    """
    return _core.mmtests_overview_label(ratio)


def overview(comparisons: Mapping[str, Comparison], labels: bool = True) -> pd.DataFrame:
    """Machines × kernels table of each machine's Gmean ratio against its
    baseline (the teo postings' overview), as labels ("10% better") or, with
    ``labels=False``, the ratios. Kernels missing on a machine are NaN.

    >>> a = parse_compare("x y\\nHmean 1 10.00 ( 0.00%) 11.00 ( 10.00%)\\n")
    >>> overview({"8x-SKYLAKE-UMA": a}).to_dict()
    {'y': {'8x-SKYLAKE-UMA': '10% better'}}
    """
    import pandas as pd

    data: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    for machine, c in comparisons.items():
        ratios = MMTestsComparison(c).gmean_ratio()
        for k in c.kernels[1:]:
            if k not in order:
                order.append(k)
            data.setdefault(machine, {})[k] = overview_label(ratios[k]) if labels else ratios[k]
    df = pd.DataFrame.from_dict(data, orient="index")
    return df.reindex(columns=order)

"""The one comparison-table model shared by every tool (MMTests, lkp, AMD tables, ...).

A :class:`Comparison` is rows (operations or metrics) × kernels (the first is the
baseline); each :class:`Cell` holds the value, its spread, the change against the
baseline, the verdict and the test that decided it. The three classes are the Rust
core's own (``schedlab._core``), immutable; every view is rendered there: the tool's
text layout, markdown, CSV, JSON (schema version :data:`SCHEMA_VERSION`), HTML for
Jupyter, and the columns of ``to_pandas()``. Tool modules produce it
(``schedlab.mmtests.compare``, ``schedlab.lkp.compare``) and parse it back from
pasted text.

>>> c = Comparison.from_dict({
...     "schema": 1, "tool": "schedlab", "benchmark": "execl", "kernels": ["base", "head"],
...     "rows": [{"group": "Hmean", "name": "lps", "direction": "higher",
...               "change_kind": "improvement",
...               "cells": [{"value": 4626.0, "change": 0.0, "verdict": "baseline"},
...                         {"value": 4167.0, "change": -9.92, "verdict": "worse", "p": 1e-9}]}]})
>>> c.to_pandas()[["kernel", "value", "change", "verdict"]].values.tolist()
[['base', 4626.0, 0.0, 'baseline'], ['head', 4167.0, -9.92, 'worse']]
>>> Comparison.from_json(c.to_json()) == c
True
>>> print(c.to_markdown(), end="")
| | base | head |
|---|---:|---:|
| Hmean lps | 4626.00 | 4167.00 (-9.92%)* worse p=1e-09 |
"""

from __future__ import annotations

from . import _core, _text
from ._core import SCHEMA_VERSION, Cell, Comparison, Row

__all__ = ["SCHEMA_VERSION", "Cell", "Row", "Comparison", "parse_amd", "parse"]


def parse_amd(text: str) -> list[Comparison]:
    """Parse AMD's normalised comparison tables (aligned or whitespace-collapsed).

    One :class:`Comparison` per ``Test :`` block: cells hold the normalised value,
    the percent improvement (``change``, positive = better) and the CV (``spread``).

    >>> text = '''Test          : tbench
    ... Units         : Normalized throughput
    ... Interpretation: Higher is better
    ... Statistic     : AMean
    ... ====
    ... Clients: tip[pct imp](CV) vanilla[pct imp](CV)
    ...            1 1.00 [ 0.00]( 0.82) 1.04 [ 4.33]( 1.84)
    ... '''
    >>> c = parse_amd(text)[0]
    >>> c.kernels, c.rows[0].name, c.rows[0].cells[1].change
    (['tip', 'vanilla'], '1', 4.33)
    >>> print(c.to_text().splitlines()[-1])
               1 1.00 [  0.00]( 0.82) 1.04 [  4.33]( 1.84)
    """
    return _core.parse_amd(_text.text(text))


def parse(text: str, source: str = "<text>") -> list[Comparison]:
    """Parse any comparison table people paste into mail, by its look: AMD's
    normalised tables (``[pct imp](CV)``), an lkp ``%stddev %change`` report, or an
    MMTests compare table (aligned or whitespace-collapsed, with or without ``*``
    markers). Returns one :class:`Comparison` per table found; ``.to_text()`` prints
    each in its tool's layout. (``schedlab.mmtests.parse_compare`` and
    ``schedlab.lkp.parse_comparison`` give the tools' own subclasses.)

    >>> [c.tool for c in parse("a b\\nAmean 1 10.00 ( 0.00%) 9.00 ( 10.00%)\\n")]
    ['mmtests']
    """
    return _core.parse_tables(_text.text(text, source), _text.text(source))

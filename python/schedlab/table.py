"""The one comparison-table model shared by every tool (MMTests, lkp, AMD tables, ...).

A :class:`Comparison` is rows (operations or metrics) × kernels (the first is the
baseline); each :class:`Cell` holds the value, its spread, the change against the
baseline, the verdict and the test that decided it. Tool modules produce it
(``schedlab.mmtests.compare``, ``schedlab.lkp.compare``) and parse it back from
pasted text; this module renders the generic views: pandas, markdown, CSV, JSON
(schema version :data:`SCHEMA_VERSION`) and HTML for Jupyter.

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
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import _text
from .errors import ParseError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["SCHEMA_VERSION", "Cell", "Row", "Comparison", "parse_amd", "parse"]

#: Version of the JSON form (the same as the Rust core's ``table::SCHEMA_VERSION``).
SCHEMA_VERSION = 1

_CELL_FIELDS = ("value", "spread", "change", "significant", "p", "q", "test", "verdict", "n", "samples")


@dataclass
class Cell:
    """One kernel's entry of a row; ``None`` where unknown."""

    value: float | None = None
    spread: float | None = None
    change: float | None = None
    significant: bool | None = None
    p: float | None = None
    q: float | None = None
    test: str | None = None
    verdict: str | None = None
    n: int | None = None
    samples: list[float] | None = None


@dataclass
class Row:
    """One operation or metric across the kernels."""

    name: str
    cells: list[Cell]
    group: str = ""
    direction: str = "unknown"  # "higher" | "lower" | "unknown"
    change_kind: str = "percent"  # "improvement" | "percent" | "absolute"
    unit: str | None = None


def _fmt_value(v: float, meta: dict[str, str]) -> str:
    """A value for the generic views: the tool's own decimals where known
    (``meta['precision']`` or ``meta['mmtests.precision']``), else 2 decimals, with
    4 significant digits for small values and exponent form for huge ones."""
    prec = meta.get("precision") or meta.get("mmtests.precision")
    if prec is not None and prec.isdigit():
        return f"{v:.{int(prec)}f}"
    a = abs(v)
    if a >= 1e7:
        return f"{v:.4g}"
    if 0 < a < 1:
        return f"{v:.4g}"
    return f"{v:.2f}"


@dataclass
class Comparison:
    """A comparison table: ``kernels`` (index 0 = baseline) × ``rows``."""

    tool: str
    kernels: list[str]
    rows: list[Row] = field(default_factory=list)
    benchmark: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    schema: int = SCHEMA_VERSION

    # -- JSON ---------------------------------------------------------------
    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Comparison:
        """Build from the JSON-shaped dict; raises ParseError on a wrong shape."""
        try:
            if d.get("schema") != SCHEMA_VERSION:
                raise ParseError(f"comparison schema {d.get('schema')!r} is not supported (expected {SCHEMA_VERSION})")
            kernels = [str(k) for k in d["kernels"]]
            rows = []
            for r in d.get("rows", []):
                cells = [Cell(**{k: c.get(k) for k in _CELL_FIELDS}) for c in r["cells"]]
                if len(cells) != len(kernels):
                    raise ParseError(f"row {r.get('name')!r} has {len(cells)} cells for {len(kernels)} kernels")
                rows.append(Row(name=r["name"], cells=cells, group=r.get("group", ""),
                                direction=r.get("direction", "unknown"),
                                change_kind=r.get("change_kind", "percent"), unit=r.get("unit")))
            return cls(tool=d["tool"], kernels=kernels, rows=rows, benchmark=d.get("benchmark", ""),
                       meta=dict(d.get("meta", {})), schema=d["schema"])
        except (KeyError, TypeError, AttributeError) as e:
            raise ParseError(f"not a comparison: {type(e).__name__}: {e}") from None

    @classmethod
    def from_json(cls, text: str) -> Comparison:
        """Read the JSON form."""
        try:
            d = json.loads(_text.text(text, "<json>"))
            # a "\ud800" escape is valid JSON but no text: refuse it as the native reader does
            _text.text(json.dumps(d, ensure_ascii=False), "<json>")
        except json.JSONDecodeError as e:
            raise ParseError(f"invalid comparison JSON: {e.msg}", "<json>", e.lineno) from None
        except RecursionError:
            raise ParseError("invalid comparison JSON: nested too deeply", "<json>") from None
        if not isinstance(d, dict):
            raise ParseError(f"not a comparison: a JSON {type(d).__name__}, expected an object", "<json>")
        return cls.from_dict(d)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-shaped dict (None fields of cells left out; NaN becomes None)."""
        def clean(v: Any) -> Any:
            return None if isinstance(v, float) and not math.isfinite(v) else v

        rows = []
        for r in self.rows:
            d = dataclasses.asdict(r)
            d["cells"] = [{k: clean(v) for k, v in dataclasses.asdict(c).items()
                           if v is not None or k == "value"} for c in r.cells]
            if d["unit"] is None:
                del d["unit"]
            rows.append(d)
        return {"schema": self.schema, "tool": self.tool, "benchmark": self.benchmark,
                "kernels": list(self.kernels), "rows": rows, "meta": dict(self.meta)}

    def to_json(self, indent: int | None = None) -> str:
        """The JSON form (see ``schemas/comparison.schema.json``)."""
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    # -- views -------------------------------------------------------------------
    def to_pandas(self) -> pd.DataFrame:
        """Tidy DataFrame: one row per (row, kernel) with every cell field."""
        import pandas as pd

        records = []
        for r in self.rows:
            for k, c in zip(self.kernels, r.cells):
                rec = {"group": r.group, "name": r.name, "kernel": k, "direction": r.direction,
                       "change_kind": r.change_kind}
                rec.update({f: getattr(c, f) for f in _CELL_FIELDS if f != "samples"})
                records.append(rec)
        cols = ["group", "name", "kernel", "direction", "change_kind"] + [f for f in _CELL_FIELDS if f != "samples"]
        df = pd.DataFrame.from_records(records, columns=cols)
        for f in ("value", "spread", "change", "p", "q"):
            df[f] = pd.to_numeric(df[f], errors="coerce").astype("float64")
        return df

    def _cell_text(self, r: Row, c: Cell, i: int) -> str:
        if c.value is None:
            return "-"
        s = _fmt_value(c.value, self.meta)
        if i > 0 and c.change is not None:
            unit = "" if r.change_kind == "absolute" else "%"
            mark = "*" if c.significant or c.verdict in ("better", "worse", "changed") else ""
            s += f" ({c.change:+.2f}{unit}){mark}"
        return s

    def to_markdown(self) -> str:
        """A GitHub-flavoured markdown table (change in brackets, * = significant).
        Names are escaped: a ``|``, a line break or a tab cannot break the table, and
        ``<``, ``>``, ``&`` print as text, never as HTML."""
        head = "| | " + " | ".join(_md(k) for k in self.kernels) + " |"
        sep = "|---|" + "---:|" * len(self.kernels)
        lines = [head, sep]
        for r in self.rows:
            label = _md(f"{r.group} {r.name}".strip())
            cells = [_md(self._cell_text(r, c, i)) for i, c in enumerate(r.cells)]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"

    def to_csv(self) -> str:
        """The tidy table of :meth:`to_pandas` as CSV."""
        return self.to_pandas().to_csv(index=False)

    def to_text(self) -> str:
        """The source tool's own text layout (MMTests, lkp, AMD tables: chosen by ``tool``
        in the core, whatever modules are loaded), else markdown."""
        from . import _core

        text = _core.render_tool_text(self.to_json())
        return self.to_markdown() if text is None else text

    def to_amd(self, normalise: bool = False, spread_is_stddev: bool = True) -> str:
        """AMD's normalised layout (``value [pct imp](CV)`` cells).

        With ``normalise=True`` raw values are divided by the baseline's first and
        the spread (a standard deviation unless ``spread_is_stddev=False``) becomes
        a coefficient of variation in percent.
        """
        from . import _core

        return _core.render_amd(self.to_json(), bool(normalise), bool(spread_is_stddev))

    def __repr__(self) -> str:
        """A one-line summary (the rows are in ``.rows``, the table in ``.to_text()``)."""
        bench = f" {self.benchmark}" if self.benchmark else ""
        return f"<Comparison {self.tool}{bench}: {len(self.rows)} rows x {len(self.kernels)} kernels {self.kernels!r}>"

    def _repr_html_(self) -> str:
        """The table for Jupyter: self-contained inline styles (right-aligned numbers,
        borders, verdict colours with their own text colour so they read in light and
        dark themes), with each changed cell's test, p and q printed under its value."""
        return _html_table(self)


def _md(text: str) -> str:
    """``text`` as one markdown table cell: each CR, LF or tab (which would end the row or
    the cell) becomes a space, and the characters markdown or HTML would interpret are escaped."""
    flat = text.replace("\r", " ").replace("\n", " ").replace("\t", " ")
    return html.escape(flat, quote=False).replace("|", "\\|")


# Verdict → (background, text) colours; text colours are set so the cells read on any theme.
_VERDICT_COLOURS = {
    "better": ("#d4f4d4", "#0b3d0b"),
    "worse": ("#f8d0d0", "#5c0a0a"),
    "changed": ("#fff2b3", "#4d3b00"),
    "equivalent": ("#e3ecf7", "#12304d"),
    "inconclusive": ("#eeeeee", "#333333"),
}
_TABLE_STYLE = "border-collapse:collapse;font-variant-numeric:tabular-nums;margin:0.5em 0"
_CELL_STYLE = "border:1px solid #999;padding:2px 6px;text-align:right;white-space:nowrap"
_HEAD_STYLE = "border:1px solid #999;padding:2px 6px;text-align:left;font-weight:normal"


def _html_table(c: Comparison) -> str:
    def stat_line(cell: Cell) -> str:
        parts = []
        if cell.test:
            parts.append(html.escape(cell.test))
        if cell.p is not None:
            parts.append(f"p={cell.p:.3g}")
        if cell.q is not None:
            parts.append(f"q={cell.q:.3g}")
        if not parts:
            return ""
        return f'<br><span style="font-size:80%;opacity:0.8">{" ".join(parts)}</span>'

    out = [f'<table class="schedlab-comparison" style="{_TABLE_STYLE}">',
           f'<caption style="text-align:left;font-weight:bold">{html.escape(c.tool)} {html.escape(c.benchmark)}</caption>',
           f'<thead><tr><th style="{_HEAD_STYLE}"></th>'
           + "".join(f'<th style="{_CELL_STYLE};font-weight:bold">{html.escape(k)}</th>' for k in c.kernels)
           + "</tr></thead><tbody>"]
    for r in c.rows:
        out.append(f'<tr><th style="{_HEAD_STYLE}">{html.escape((r.group + " " + r.name).strip())}</th>')
        for i, cell in enumerate(r.cells):
            style = _CELL_STYLE
            colours = _VERDICT_COLOURS.get(cell.verdict or "")
            if colours:
                style += f";background:{colours[0]};color:{colours[1]}"
            extra = stat_line(cell) if i > 0 else ""
            out.append(f'<td style="{style}">{html.escape(c._cell_text(r, cell, i))}{extra}</td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


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
    from . import _core

    return [Comparison.from_json(j) for j in _core.parse_amd(_text.text(text))]


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
    from . import _core

    return [Comparison.from_json(j) for j in _core.parse_tables(_text.text(text, source), _text.text(source))]

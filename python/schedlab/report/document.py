"""The report document model; the core renders it as HTML and text (src/report_page.rs)."""

from __future__ import annotations

import base64
import hashlib
import html
import io
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import _core

if TYPE_CHECKING:  # pragma: no cover
    from ..table import Comparison


def comparison_html(c: Comparison) -> str:
    """A comparison as the report's HTML table: the tool's values with the change in
    brackets, each cell coloured and marked by its verdict."""
    return _core.report_comparison_html(c)


@dataclass
class Grid:
    """A table of text: ``rows`` of cells, each a string or ``(text, verdict, sub)``."""

    headers: list[str]
    rows: list[list[Any]]
    caption: str = ""
    text_columns: int = 1

    def block(self) -> dict[str, Any]:
        """The grid as a block of the page document."""
        rows = [[(str(c[0]), c[1], str(c[2]) if len(c) > 2 else "") if isinstance(c, tuple) else str(c) for c in row]
                for row in self.rows]
        return {"kind": "grid", "headers": [str(h) for h in self.headers], "rows": rows, "caption": self.caption,
                "text_columns": self.text_columns}


def _figure_labels(fig: Any) -> list[str]:
    """The figure's title(s) and every drawn axes' x and y labels, as the SVG holds them."""
    labels = [fig._suptitle.get_text()] if getattr(fig, "_suptitle", None) is not None else []
    for ax in fig.axes:
        if not ax.axison:
            continue
        labels += [t for t in (ax.get_title(),) if t]
        labels += [ax.get_xlabel(), ax.get_ylabel()]
    return labels


def _unique_ids(svg: str) -> str:
    """Prefix every id of an SVG (and the references to them) with a digest of the
    SVG, so that several figures inline in one page have distinct, stable ids."""
    tag = "f" + hashlib.sha1(svg.encode("utf-8")).hexdigest()[:8] + "-"
    svg = re.sub(r'\bid="', f'id="{tag}', svg)
    svg = svg.replace("url(#", f"url(#{tag}")
    return re.sub(r'href="#', f'href="#{tag}', svg)


@dataclass
class Section:
    """One ``<h2>`` section of a report (or, made by :meth:`details`, a folded part of one)."""

    title: str
    blocks: list[dict[str, Any]] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    anchor: str = ""

    def heading(self, text: str) -> None:
        """A sub-heading."""
        self.blocks.append({"kind": "h3", "text": text})

    def paragraph(self, text: str, in_summary: bool = True) -> None:
        """A paragraph of plain text (also in the text summary)."""
        self.blocks.append({"kind": "p", "text": text})
        if in_summary:
            self.summary.append(text)

    def note(self, text: str) -> None:
        """A highlighted note (e.g. "this data is generated")."""
        self.blocks.append({"kind": "note", "text": text})
        self.summary.append(f"NOTE: {text}")

    def text(self, text: str, in_summary: bool = True, folded: str = "") -> None:
        """Preformatted text (a tool's own table layout); with ``folded`` it is
        shown collapsed under that label."""
        self.blocks.append({"kind": "pre", "text": text, "folded": folded})
        if in_summary:
            self.summary.append(text.rstrip("\n"))

    def table(self, comparison: Comparison, caption: str = "") -> None:
        """A comparison table, cells coloured and marked by verdict."""
        self.blocks.append({"kind": "table", "comparison": comparison, "caption": caption})

    def grid(self, grid: Grid) -> None:
        """A table of text cells (overview, changed rows)."""
        self.blocks.append(grid.block())

    def key(self) -> None:
        """The colour key of the verdicts."""
        self.blocks.append({"kind": "key"})

    def details(self, label: str) -> Section:
        """A part of this section folded under ``label`` (opened for printing)."""
        sub = Section(label)
        self.blocks.append({"kind": "details", "section": sub})
        return sub

    def figure(self, fig: Any, caption: str = "", fmt: str = "svg") -> None:
        """A matplotlib figure (or Axes), embedded inline as SVG (or a PNG data URI); the figure is closed.
        The SVG is reproducible: no date, ids from a fixed salt, text kept as text."""
        self.blocks.append({"kind": "figure", "caption": caption, **_figure_block(fig, caption, fmt)})

    def svg(self, markup: str, labels: list[str], caption: str = "") -> None:
        """A figure already drawn as SVG markup (an ``<svg>`` element without ids, as the
        core draws the report's strip plots: src/report_svg/), with the title and axis
        labels the page's self-check looks for in its text."""
        self.blocks.append({"kind": "figure", "caption": caption, "markup": markup, "labels": labels})

    def summary_line(self, text: str) -> None:
        """A line for the text summary only."""
        self.summary.append(text)

    def document(self) -> dict[str, Any]:
        """The section as the core's page document reads it (src/report_page.rs)."""
        blocks = []
        for b in self.blocks:
            if b["kind"] == "table":
                b = {"kind": "table", "html": comparison_html(b["comparison"]), "caption": b["caption"]}
            elif b["kind"] == "details":
                b = {"kind": "details", "section": b["section"].document()}
            blocks.append(b)
        return {"title": self.title, "blocks": blocks, "summary": self.summary, "anchor": self.anchor}



def _figure_block(fig: Any, caption: str, fmt: str = "svg") -> dict[str, Any]:
    """A figure's markup (inline SVG with ids unique to it, or a PNG data URI) and the
    labels the page's self-check looks for; the figure is closed."""
    import matplotlib

    from .._plot import pyplot

    plt = pyplot()

    if not hasattr(fig, "savefig"):  # an Axes: save its figure
        fig = fig.figure
    labels = _figure_labels(fig)
    with matplotlib.rc_context({"svg.hashsalt": "schedlab-report", "svg.fonttype": "none"}):
        if fmt == "png":
            png = io.BytesIO()
            fig.savefig(png, format=fmt, bbox_inches="tight", metadata={"Software": None})
            data = base64.b64encode(png.getvalue()).decode("ascii")
            markup = f'<img alt="{html.escape(caption)}" src="data:image/png;base64,{data}">'
        else:
            text = io.StringIO()
            fig.savefig(text, format=fmt, bbox_inches="tight", metadata={"Date": None})
            svg = text.getvalue()
            markup = _unique_ids(svg[svg.index("<svg"):])  # drop the XML prolog and doctype
    plt.close(fig)
    return {"markup": markup, "labels": labels}


@dataclass
class Report:
    """A report: a title, an introduction and sections."""

    title: str
    intro: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    #: what should have been there and is not (a benchmark that failed in a run), one line each
    missing: list[str] = field(default_factory=list)
    #: what was decided from the files and how (the MMTests era of each benchmark), one line each
    notes: list[str] = field(default_factory=list)
    #: the cells whose verdict is worse (a regression), one line each
    worse: list[str] = field(default_factory=list)

    def section(self, title: str, anchor: str = "") -> Section:
        """Add and return a new section."""
        s = Section(title, anchor=anchor)
        self.sections.append(s)
        return s

    def document(self) -> dict[str, Any]:
        """The report as the core's page document reads it (src/report_page.rs)."""
        return {"title": self.title, "intro": self.intro, "sections": [s.document() for s in self.sections]}

    def to_html(self) -> str:
        """The whole report as one self-contained HTML document."""
        return _core.report_html(self.document())

    def to_text(self) -> str:
        """The plain-text summary: intro, then each section's summary lines."""
        return _core.report_text(self.document())

"""The report document model and its HTML and text renderings."""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .._core import VERDICT_COLOURS as _VERDICT_COLOURS

if TYPE_CHECKING:  # pragma: no cover
    from ..table import Comparison

#: Verdict → (marker printed after the value, meaning). The marker carries the
#: meaning where colour does not (print, black and white, a paste); the colours are
#: the tables' own (:mod:`schedlab.table`). A verdict not listed here is shown as
#: its plain text, uncoloured.
_MARKS: dict[str, tuple[str, str]] = {
    "better": ("▲", "better: significant after BH-FDR, in the good direction"),
    "worse": ("▼", "worse: significant after BH-FDR, in the bad direction"),
    "changed": ("◆", "changed: significant, direction unknown (lkp metric without one)"),
    "equivalent": ("=", "equivalent: shown to lie within the equivalence margin"),
    "inconclusive": ("?", "inconclusive: neither a change nor equivalence shown"),
}

#: Verdict → (background, text colour, marker, meaning).
VERDICTS: dict[str, tuple[str, str, str, str]] = {
    v: (*_VERDICT_COLOURS[v], m, t) for v, (m, t) in _MARKS.items()
}

_CSS = """
body { font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; margin: 2em auto;
       max-width: 72em; padding: 0 1em; color: #222; background: #fff; line-height: 1.4; }
h1 { border-bottom: 2px solid #444; padding-bottom: .2em; }
h2 { margin-top: 2em; border-bottom: 1px solid #bbb; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: 90%; }
td, th { border: 1px solid #bbb; padding: .25em .6em; text-align: right; font-variant-numeric: tabular-nums;
         vertical-align: top; }
thead th { background: #eee; color: #222; text-align: center; }
tbody th, td.text { text-align: left; font-weight: normal; }
caption { text-align: left; font-weight: bold; padding: .3em 0; }
.sub { color: #555; font-size: 85%; }
pre { background: #f7f7f7; color: #222; border: 1px solid #ddd; padding: .8em; overflow-x: auto; font-size: 85%; }
.note { background: #fff8e1; color: #222; border-left: 4px solid #f0b400; padding: .5em 1em; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 85%; color: #444; }
details { margin: .5em 0; border: 1px solid #ddd; padding: .3em .8em; }
summary { cursor: pointer; font-weight: bold; }
ul.key { list-style: none; padding: 0; font-size: 90%; }
ul.key li { margin: .15em 0; }
ul.key span.swatch { display: inline-block; min-width: 2.2em; text-align: center; border: 1px solid #bbb;
                     margin-right: .5em; }
.mark { font-size: 85%; margin-left: .2em; }
""" + "".join(f"\n.v-{v} {{ background: {bg}; color: {fg}; }}" for v, (bg, fg, _m, _t) in VERDICTS.items()) + """
@media print {
  body { max-width: none; margin: 0; font-size: 10pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  details { border: none; padding: 0; }
  details > summary { list-style: none; }
  details::details-content { content-visibility: visible; height: auto; }
  h2, h3, h4 { break-after: avoid; }
  table, figure, pre { break-inside: avoid; }
  pre { white-space: pre-wrap; }
  nav.toc { display: none; }
}
"""

# Counts what rendered, checks that each figure shows its title and axis labels,
# records where the first table is and any script errors; a headless browser test
# reads it. Before printing, every folded <details> is opened so nothing is lost.
_SELFCHECK = """
<script>
(function () {
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message || e)); });
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  });
  window.addEventListener('load', function () {
    var figs = document.querySelectorAll('figure'), drawn = 0, unlabelled = [];
    figs.forEach(function (f, i) {
      var g = f.querySelector('svg, img');
      if (!g) return;
      var b = g.getBoundingClientRect();
      if ((g.tagName === 'IMG' ? g.complete && g.naturalWidth > 0 : true) && b.width > 0 && b.height > 0) drawn++;
      var want = JSON.parse(f.dataset.labels || '[]'), text = g.tagName === 'IMG' ? '' : g.textContent;
      if (want.length === 0) unlabelled.push(i + ': no labels');
      want.forEach(function (w) {
        if (!w || text.indexOf(w) < 0) unlabelled.push(i + ': ' + JSON.stringify(w));
      });
    });
    var first = document.querySelector('table');
    var sec = first ? first.closest('section') : null;
    var out = document.getElementById('schedlab-selfcheck');
    out.textContent = JSON.stringify({
      tables: document.querySelectorAll('table').length,
      figures: figs.length, drawn: drawn, unlabelled: unlabelled,
      first_section: (document.querySelector('section') || {}).id || null,
      first_table_section: sec ? sec.id : null, errors: errors });
  });
})();
</script>
"""


def verdict_cell(text: str, verdict: str | None, sub: str = "") -> str:
    """A ``<td>`` coloured and marked by ``verdict``; a verdict without a colour (other
    than the baseline's) is printed after the text as it is, uncoloured."""
    e = html.escape
    known = VERDICTS.get(verdict or "")
    cls = f' class="v-{verdict}"' if known else ""
    if known:
        mark = f'<span class="mark">{known[2]}</span>'
    elif verdict and verdict != "baseline" and verdict != text:
        mark = f' <span class="mark">{e(verdict)}</span>'
    else:
        mark = ""
    extra = f'<br><span class="sub">{e(sub)}</span>' if sub else ""
    return f"<td{cls}>{e(text)}{mark}{extra}</td>"


def colour_key() -> str:
    """The legend of the verdict colours and markers."""
    items = "".join(f'<li><span class="swatch v-{v}">{m}</span>{html.escape(t)}</li>'
                    for v, (_bg, _fg, m, t) in VERDICTS.items())
    return ('<ul class="key"><li><b>Key</b> (colour and marker mean the same; any other verdict is '
            "printed as a word, e.g. noise: tested, not significant; in the overview, the colour follows "
            f"the Gmean label, and the rows behind it are under What changed):</li>{items}</ul>")


def comparison_html(c: Comparison) -> str:
    """A comparison as an HTML table: the tool's values with the change in brackets,
    each cell coloured and marked by its verdict."""
    e = html.escape
    out = ["<table>", f"<caption>{e(c.tool)} {e(c.benchmark)}</caption>",
           "<thead><tr><th></th>" + "".join(f"<th>{e(k)}</th>" for k in c.kernels) + "</tr></thead><tbody>"]
    for r, texts in zip(c.rows, c.cell_texts()):
        out.append(f"<tr><th>{e((r.group + ' ' + r.name).strip())}</th>")
        out += [verdict_cell(t, cell.verdict if i else None) for i, (t, cell) in enumerate(zip(texts, r.cells))]
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


@dataclass
class Grid:
    """A table of text: ``rows`` of cells, each a string or ``(text, verdict, sub)``."""

    headers: list[str]
    rows: list[list[Any]]
    caption: str = ""
    text_columns: int = 1

    def to_html(self) -> str:
        e = html.escape
        out = ["<table>"]
        if self.caption:
            out.append(f"<caption>{e(self.caption)}</caption>")
        out.append("<thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in self.headers) + "</tr></thead><tbody>")
        for row in self.rows:
            cells = []
            for i, cell in enumerate(row):
                if isinstance(cell, tuple):
                    cells.append(verdict_cell(*cell))
                else:
                    cls = ' class="text"' if i < self.text_columns else ""
                    cells.append(f"<td{cls}>{e(str(cell))}</td>")
            out.append("<tr>" + "".join(cells) + "</tr>")
        out.append("</tbody></table>")
        return "".join(out)


@dataclass
class _Block:
    kind: str  # "h3" | "p" | "note" | "pre" | "table" | "grid" | "key" | "figure" | "details"
    content: Any
    caption: str = ""
    labels: list[str] = field(default_factory=list)


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
    blocks: list[_Block] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    anchor: str = ""

    def heading(self, text: str) -> None:
        """A sub-heading."""
        self.blocks.append(_Block("h3", text))

    def paragraph(self, text: str, in_summary: bool = True) -> None:
        """A paragraph of plain text (also in the text summary)."""
        self.blocks.append(_Block("p", text))
        if in_summary:
            self.summary.append(text)

    def note(self, text: str) -> None:
        """A highlighted note (e.g. "this data is generated")."""
        self.blocks.append(_Block("note", text))
        self.summary.append(f"NOTE: {text}")

    def text(self, text: str, in_summary: bool = True, folded: str = "") -> None:
        """Preformatted text (a tool's own table layout); with ``folded`` it is
        shown collapsed under that label."""
        self.blocks.append(_Block("pre", text, folded))
        if in_summary:
            self.summary.append(text.rstrip("\n"))

    def table(self, comparison: Comparison, caption: str = "") -> None:
        """A comparison table, cells coloured and marked by verdict."""
        self.blocks.append(_Block("table", comparison, caption))

    def grid(self, grid: Grid) -> None:
        """A table of text cells (overview, changed rows)."""
        self.blocks.append(_Block("grid", grid))

    def key(self) -> None:
        """The colour key of the verdicts."""
        self.blocks.append(_Block("key", None))

    def details(self, label: str) -> Section:
        """A part of this section folded under ``label`` (opened for printing)."""
        sub = Section(label)
        self.blocks.append(_Block("details", sub))
        return sub

    def figure(self, fig: Any, caption: str = "", fmt: str = "svg") -> None:
        """A matplotlib figure (or Axes), embedded inline as SVG (or a PNG data URI); the figure is closed.
        The SVG is reproducible: no date, ids from a fixed salt, text kept as text."""
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
        self.blocks.append(_Block("figure", markup, caption, labels))

    def summary_line(self, text: str) -> None:
        """A line for the text summary only."""
        self.summary.append(text)

    def to_html(self) -> list[str]:
        """This section's blocks as HTML fragments."""
        e = html.escape
        out = []
        for b in self.blocks:
            if b.kind == "h3":
                out.append(f"<h3>{e(b.content)}</h3>")
            elif b.kind == "p":
                out.append(f"<p>{e(b.content)}</p>")
            elif b.kind == "note":
                out.append(f'<p class="note">{e(b.content)}</p>')
            elif b.kind == "pre" and b.caption:
                out.append(f"<details><summary>{e(b.caption)}</summary><pre>{e(b.content)}</pre></details>")
            elif b.kind == "pre":
                out.append(f"<pre>{e(b.content)}</pre>")
            elif b.kind == "table":
                if b.caption:
                    out.append(f"<h4>{e(b.caption)}</h4>")
                out.append(comparison_html(b.content))
            elif b.kind == "grid":
                out.append(b.content.to_html())
            elif b.kind == "key":
                out.append(colour_key())
            elif b.kind == "details":
                out.append(f"<details><summary>{e(b.content.title)}</summary>")
                out += b.content.to_html()
                out.append("</details>")
            elif b.kind == "figure":
                cap = f"<figcaption>{e(b.caption)}</figcaption>" if b.caption else ""
                labels = e(json.dumps(b.labels))
                out.append(f'<figure data-labels="{labels}">{b.content}{cap}</figure>')
        return out

    def all_summary(self) -> list[str]:
        """The summary lines of this section and of its folded parts."""
        lines = list(self.summary)
        for b in self.blocks:
            if b.kind == "details":
                lines += b.content.all_summary()
        return lines


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

    def to_html(self) -> str:
        """The whole report as one self-contained HTML document."""
        e = html.escape
        out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
               f"<title>{e(self.title)}</title>", f"<style>{_CSS}</style></head><body>",
               f"<h1>{e(self.title)}</h1>"]
        out += [f"<p>{e(p)}</p>" for p in self.intro]
        ids = [s.anchor or f"s{i}" for i, s in enumerate(self.sections)]
        if len(self.sections) > 1:
            out.append('<nav class="toc"><ul>' + "".join(f'<li><a href="#{i}">{e(s.title)}</a></li>'
                                                         for i, s in zip(ids, self.sections)) + "</ul></nav>")
        for i, s in zip(ids, self.sections):
            out.append(f'<section id="{e(i)}"><h2>{e(s.title)}</h2>')
            out += s.to_html()
            out.append("</section>")
        out.append('<pre id="schedlab-selfcheck" hidden></pre>')
        out.append(_SELFCHECK)
        out.append("</body></html>")
        return "\n".join(out)

    def to_text(self) -> str:
        """The plain-text summary: intro, then each section's summary lines."""
        lines = [self.title, "=" * len(self.title)]
        lines += self.intro
        for s in self.sections:
            summary = s.all_summary()
            if summary:
                lines += ["", s.title, "-" * len(s.title)]
                lines += summary
        return "\n".join(lines) + "\n"

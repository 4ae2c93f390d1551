"""The report document model and its HTML and text renderings."""

from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..table import Comparison

_CSS = """
body { font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; margin: 2em auto;
       max-width: 72em; color: #222; line-height: 1.4; }
h1 { border-bottom: 2px solid #444; padding-bottom: .2em; }
h2 { margin-top: 2em; border-bottom: 1px solid #bbb; }
table.schedlab-comparison { border-collapse: collapse; margin: 1em 0; font-size: 90%; }
table.schedlab-comparison td, table.schedlab-comparison th { border: 1px solid #ccc;
       padding: .25em .6em; text-align: right; font-variant-numeric: tabular-nums; }
table.schedlab-comparison th { background: #f2f2f2; }
table.schedlab-comparison tbody th { text-align: left; font-weight: normal; }
table.schedlab-comparison caption { text-align: left; font-weight: bold; padding: .3em 0; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: .8em; overflow-x: auto; font-size: 85%; }
.note { background: #fff8e1; border-left: 4px solid #f0b400; padding: .5em 1em; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 85%; color: #555; }
.legend span { display: inline-block; padding: 0 .5em; margin-right: .5em; }
"""

# Counts what rendered and records script errors; a headless browser test reads it.
_SELFCHECK = """
<script>
(function () {
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message || e)); });
  window.addEventListener('load', function () {
    var svgs = document.querySelectorAll('figure svg'), imgs = document.querySelectorAll('figure img');
    var drawn = 0;
    svgs.forEach(function (s) { var b = s.getBoundingClientRect(); if (b.width > 0 && b.height > 0) drawn++; });
    imgs.forEach(function (i) { if (i.complete && i.naturalWidth > 0) drawn++; });
    var out = document.getElementById('schedlab-selfcheck');
    out.textContent = JSON.stringify({
      tables: document.querySelectorAll('table').length,
      figures: svgs.length + imgs.length, drawn: drawn, errors: errors });
  });
})();
</script>
"""


@dataclass
class _Block:
    kind: str  # "h3" | "p" | "note" | "pre" | "table" | "figure" | "html"
    content: Any
    caption: str = ""


@dataclass
class Section:
    """One ``<h2>`` section of a report."""

    title: str
    blocks: list[_Block] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)

    def heading(self, text: str) -> None:
        """A sub-heading."""
        self.blocks.append(_Block("h3", text))

    def paragraph(self, text: str) -> None:
        """A paragraph of plain text (also in the text summary)."""
        self.blocks.append(_Block("p", text))
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
        """A comparison table, cells coloured by verdict."""
        self.blocks.append(_Block("table", comparison, caption))

    def figure(self, fig: Any, caption: str = "", fmt: str = "svg") -> None:
        """A matplotlib figure (or Axes), embedded inline as SVG (or a PNG data URI); the figure is closed."""
        from .._plot import pyplot

        plt = pyplot()

        if not hasattr(fig, "savefig"):  # an Axes: save its figure
            fig = fig.figure

        if fmt == "png":
            png = io.BytesIO()
            fig.savefig(png, format=fmt, bbox_inches="tight")
            data = base64.b64encode(png.getvalue()).decode("ascii")
            markup = f'<img alt="{html.escape(caption)}" src="data:image/png;base64,{data}">'
        else:
            text = io.StringIO()
            fig.savefig(text, format=fmt, bbox_inches="tight")
            svg = text.getvalue()
            markup = svg[svg.index("<svg"):]  # drop the XML prolog and doctype
        plt.close(fig)
        self.blocks.append(_Block("figure", markup, caption))

    def summary_line(self, text: str) -> None:
        """A line for the text summary only."""
        self.summary.append(text)


@dataclass
class Report:
    """A report: a title, an introduction and sections."""

    title: str
    intro: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)

    def section(self, title: str) -> Section:
        """Add and return a new section."""
        s = Section(title)
        self.sections.append(s)
        return s

    def to_html(self) -> str:
        """The whole report as one self-contained HTML document."""
        e = html.escape
        out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
               f"<title>{e(self.title)}</title>", f"<style>{_CSS}</style></head><body>",
               f"<h1>{e(self.title)}</h1>"]
        out += [f"<p>{e(p)}</p>" for p in self.intro]
        if len(self.sections) > 1:
            out.append("<ul>" + "".join(f'<li><a href="#s{i}">{e(s.title)}</a></li>'
                                        for i, s in enumerate(self.sections)) + "</ul>")
        for i, s in enumerate(self.sections):
            out.append(f'<h2 id="s{i}">{e(s.title)}</h2>')
            for b in s.blocks:
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
                    out.append(b.content._repr_html_())
                elif b.kind == "figure":
                    cap = f"<figcaption>{e(b.caption)}</figcaption>" if b.caption else ""
                    out.append(f"<figure>{b.content}{cap}</figure>")
        out.append('<pre id="schedlab-selfcheck" hidden></pre>')
        out.append(_SELFCHECK)
        out.append("</body></html>")
        return "\n".join(out)

    def to_text(self) -> str:
        """The plain-text summary: intro, then each section's summary lines."""
        lines = [self.title, "=" * len(self.title)]
        lines += self.intro
        for s in self.sections:
            lines += ["", s.title, "-" * len(s.title)]
            lines += s.summary
        return "\n".join(lines) + "\n"

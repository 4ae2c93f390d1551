"""Self-contained HTML reports (and their plain-text summary).

A :class:`Report` is a list of sections; each section holds headings,
paragraphs, comparison tables and text grids (cells coloured and marked by
verdict), the verdict colour key, figures (matplotlib figures embedded as
reproducible inline SVG, or SVG the core drew: :meth:`Section.svg`), preformatted text and folded parts (``details``). :meth:`Report.to_html` writes one
HTML file with no network assets; :meth:`Report.to_text` is the summary printed
on the terminal.

>>> r = Report("Example")
>>> s = r.section("Statistics")
>>> s.paragraph("Generated data.")
>>> s.text("base  4626\\nhead  4167")
>>> "<h2" in r.to_html() and "Generated data." in r.to_text()
True
"""

from .document import Report, Section

__all__ = ["Report", "Section"]

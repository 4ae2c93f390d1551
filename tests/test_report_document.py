"""The HTML report document: self-contained, renders in a real browser."""

from __future__ import annotations

import re

import pytest
from schedlab.report import Report
from schedlab.table import Cell, Comparison, Row

from .browser import render


def small_report() -> Report:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    r = Report("schedlab test report", intro=["Generated data, not measured."])
    s = r.section("Statistics")
    s.paragraph("One table and two figures.")
    s.table(Comparison(tool="schedlab", benchmark="execl", kernels=["base", "head"], rows=[
        Row(name="lps", group="Hmean", direction="higher", change_kind="improvement",
            cells=[Cell(value=4626.0, change=0.0, verdict="baseline"),
                   Cell(value=4167.0, change=-9.92, verdict="worse", p=1e-9, test="welch")])]))
    fig, ax = plt.subplots(figsize=(4, 2))
    ax.plot([1, 2, 3], [3, 1, 2])
    s.figure(fig, "a line")
    fig, ax = plt.subplots(figsize=(4, 2))
    ax.bar(["a", "b"], [1, 2])
    s.figure(fig, "bars as PNG", fmt="png")
    s.text("base 4626\nhead 4167")
    return r


def test_html_has_no_network_assets_and_escapes_text():
    r = small_report()
    r.sections[0].paragraph("<script>alert(1)</script>")
    page = r.to_html()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    # no external resources: no src/href to http(s) (SVG namespaces are not fetched)
    assert not re.search(r'(src|href)\s*=\s*"https?://', page)
    assert "Generated data" in r.to_text() and "base 4626" in r.to_text()


def test_report_renders_in_chromium(tmp_path):
    path = tmp_path / "r.html"
    path.write_text(small_report().to_html())
    check = render(path)
    assert check["errors"] == []
    assert check["tables"] == 1
    assert check["figures"] == 2 and check["drawn"] == 2


def test_verdicts_are_marked_and_uncoloured_ones_are_plain_text():
    from schedlab.report.document import comparison_html

    c = Comparison(tool="schedlab", benchmark="b", kernels=["base", "x", "y", "z"], rows=[
        Row(name="ops", cells=[Cell(value=1.0, change=0.0, verdict="baseline"),
                               Cell(value=1.0, change=0.1, verdict="equivalent"),
                               Cell(value=1.0, change=0.2, verdict="noise"),
                               Cell(value=0.5, change=-50.0, verdict="worse")])])
    page = comparison_html(c)
    cells = re.findall(r"<td([^>]*)>(.*?)</td>", page)
    assert cells[0] == ("", "1.00")  # the baseline: uncoloured, unmarked
    assert cells[1][0] == ' class="v-equivalent"' and "=" in cells[1][1]
    assert cells[2] == ("", '1.00 (+0.20%) <span class="mark">noise</span>')  # no colour: plain text
    with pytest.raises(ValueError, match="verdict must be one of"):  # the model has no unknown verdicts
        Cell(verdict="something-new")
    assert cells[3][0] == ' class="v-worse"' and "▼" in cells[3][1]
    # the key explains every colour it uses
    r = Report("k")
    r.section("s").key()
    for v in ("better", "worse", "changed", "equivalent", "inconclusive"):
        assert f"v-{v}" in r.to_html()

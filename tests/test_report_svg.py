"""The report's strip plots drawn by the core as SVG (src/report_svg/): valid XML, an
accessible title and description, every point and bar one of the table's values, at
the height a hand computation of the axis gives; and the report of an MMTests tree
draws them without importing matplotlib."""

from __future__ import annotations

import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from schedlab import _core, mmtests
from schedlab.table import Cell, Comparison, Row

NS = "{http://www.w3.org/2000/svg}"
FAMILIES = Path(__file__).parent / "data" / "mmtests" / "families" / "2025"


def _panels(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "panel"]


def test_every_value_drawn_is_the_tables_at_its_height():
    c = mmtests.compare(FAMILIES, "stream", ["6.8-vanilla", "6.9-patched", "6.10-rc1"], test="welch")
    svg, labels = _core.report_strip_svg(c, y_label="MB/sec")
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag == f"{NS}svg" and root.get("role") == "img"
    title, desc = root[0], root[1]
    assert title.tag == f"{NS}title" and title.text == "stream (Higher is better)"
    assert desc.tag == f"{NS}desc" and "every sample as a point" in desc.text and "MB/sec" in desc.text
    rows = [r for r in c.rows if any(x.samples for x in r.cells)]
    panels = _panels(root)
    assert rows and len(panels) == len(rows)
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert labels == [title.text] + [s for r in rows for s in (f"{r.group} {r.name}", "kernel", "MB/sec")]
    assert all(label in texts for label in labels)
    for r, g in zip(rows, panels):
        assert g.find(f"{NS}title").text == f"{r.group} {r.name}"
        frame = g.find(f"{NS}rect")
        top = float(frame.get("y"))
        bottom = top + float(frame.get("height"))
        # the axis by hand: the smallest and largest value drawn (samples and means),
        # widened by 5% of their span on each side
        values = [v for x in r.cells for v in (x.samples or [])] + [x.value for x in r.cells if x.value is not None]
        lo, hi = min(values), max(values)
        lo, hi = lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo)
        kernels = [k for k in g.iter(f"{NS}g") if k.get("class") == "kernel"]
        assert len(kernels) == len(c.kernels)
        for cell, k in zip(r.cells, kernels):
            points = k.findall(f"{NS}circle")
            assert [float(p.get("data-value")) for p in points] == list(cell.samples)
            for p in points:
                v = float(p.get("data-value"))
                assert math.isclose(float(p.get("cy")), bottom - (v - lo) / (hi - lo) * (bottom - top), abs_tol=0.006)
            bar = k.find(f"{NS}line")
            assert bar.get("class") == "mean" and float(bar.get("data-value")) == cell.value
            assert math.isclose(float(bar.get("y1")), bottom - (cell.value - lo) / (hi - lo) * (bottom - top),
                                abs_tol=0.006)
    # the same bytes every time, and no ids to clash with another figure of the page
    assert _core.report_strip_svg(c, y_label="MB/sec") == (svg, labels)
    assert 'id="' not in svg


def test_kernel_colours_follow_matplotlibs_cycle():
    # the colours matplotlib gave the kernels' points (its default "tab10" cycle: C0, C1, C2)
    c = Comparison(tool="mmtests", benchmark="x", kernels=["a", "b", "c"], rows=[
        Row(name="op", group="Amean", cells=[Cell(value=1.0, samples=[1.0]), Cell(value=2.0, samples=[2.0]),
                                             Cell(value=3.0, samples=[2.5, 3.5])])])
    svg, _ = _core.report_strip_svg(c, y_label="value")
    kernels = [k for k in ET.fromstring(svg).iter(f"{NS}g") if k.get("class") == "kernel"]
    assert [k.get("fill") for k in kernels] == ["#1f77b4", "#ff7f0e", "#2ca02c"]
    # a table without samples and without mmtests meta has nothing to draw
    empty = Comparison(tool="mmtests", benchmark="x", kernels=["a"], rows=[Row(name="op", cells=[Cell(value=1.0)])])
    assert _core.report_strip_svg(empty, y_label="value") is None


def test_a_tree_is_reported_without_matplotlib():
    code = ("import sys\nfrom schedlab.report import build\n"
            f"r = build.build([{str(FAMILIES)!r}], baseline='6.8-vanilla')\n"
            "page = r.to_html()\n"
            "print(page.count('<figure'), 'matplotlib' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    figures, mpl = out.stdout.split()
    assert int(figures) > 50 and mpl == "False"

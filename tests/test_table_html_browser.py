"""Every ``_repr_html_`` the API has (a comparison, a batch result, a live check) in
headless Chromium, in a light and a dark page (as a Jupyter theme sets them): every
cell's text must stand out from its own background (WCAG contrast ratio >= 4.5),
verdict-coloured cells included, and numbers are right-aligned."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable

import pytest
from schedlab import batch, live
from schedlab.table import Comparison

from .browser import chromium
from .test_batch import HEAD, LEGACY

LIVE = os.path.join(os.path.dirname(__file__), "data", "live", "quiet-cpu0-short")

PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>
body { background: #ffffff; color: #111111; }
@media (prefers-color-scheme: dark) { body { background: #111111; color: #e8e8e8; } }
</style></head><body>TABLE<pre id="schedlab-selfcheck"></pre><script>
function rgb(s) { return s.match(/[0-9.]+/g).slice(0, 4).map(Number); }
function lum(c) { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); }
function bg(el) { while (el) { const c = rgb(getComputedStyle(el).backgroundColor);
  if (c.length < 4 || c[3] > 0) return c; el = el.parentElement; } return [255, 255, 255]; }
const out = [];
for (const td of document.querySelectorAll("td, th")) {
  const a = lum(rgb(getComputedStyle(td).color)), b = lum(bg(td));
  out.push({text: td.textContent, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
            align: getComputedStyle(td).textAlign, column: td.cellIndex, head: td.parentElement.parentElement.tagName});
}
document.getElementById("schedlab-selfcheck").textContent = JSON.stringify(out);
</script></body></html>"""


def comparison() -> Comparison:
    cells = [[{"value": 4626.0, "change": 0.0, "verdict": "baseline"},
              {"value": 4167.0, "change": -9.92, "verdict": v, "p": 1e-9, "q": 2e-9, "test": "welch"}]
             for v in ("worse", "better", "changed", "noise")]
    return Comparison.from_dict({
        "schema": 1, "tool": "schedlab", "benchmark": "execl", "kernels": ["base", "head"],
        "rows": [{"group": "Hmean", "name": f"lps-{i}", "direction": "higher", "change_kind": "improvement",
                  "cells": c} for i, c in enumerate(cells)]})


#: what: (its HTML, the number of cells it must have, the columns that hold numbers)
RENDERERS: dict[str, Callable[[], tuple[str, int, range]]] = {
    # the header row, then 4 rows of a label and 2 cells
    "comparison": lambda: (comparison()._repr_html_(), 3 + 4 * 3, range(1, 3)),
    # 13 headings, then the 50 rows shown (of 85 not equivalent); base .. runs needed
    "batch": lambda: (batch.run([LEGACY, HEAD], "6.8-vanilla")._repr_html_(), 13 + 50 * 13, range(6, 13)),
    # 5 headings, then PELT within ±1, exact, util_est, the idle state and the tick; agree, of, share
    "live": lambda: (live.check(LIVE)._repr_html_(), 5 + 5 * 5, range(1, 4)),
}


def cells_in_chromium(tmp_path, html: str, scheme: str) -> list[dict]:
    """Each ``td``/``th`` of ``html`` as Chromium lays it out in a light or dark page:
    its text, contrast ratio against its background, and alignment."""
    exe = chromium()
    page = tmp_path / "table.html"
    page.write_text(PAGE.replace("TABLE", html), encoding="utf-8")
    flag = "--blink-settings=preferredColorScheme=" + ("0" if scheme == "dark" else "1")
    out = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", flag,
                          "--virtual-time-budget=3000", "--dump-dom", page.resolve().as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    m = re.search(r'<pre id="schedlab-selfcheck"[^>]*>(.*?)</pre>', out.stdout, re.S)
    assert m, "the page's check did not run"
    return json.loads(m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
                      .replace("&amp;", "&"))


@pytest.mark.parametrize("what", sorted(RENDERERS))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_repr_html_reads_in_light_and_dark_themes(tmp_path, scheme: str, what: str) -> None:
    html, count, columns = RENDERERS[what]()
    cells = cells_in_chromium(tmp_path, html, scheme)
    assert len(cells) == count
    low = [(c["text"], round(c["ratio"], 2)) for c in cells if c["ratio"] < 4.5]
    assert not low, f"{what}, {scheme}: cells hard to read: {low}"
    numbers = [c for c in cells if c["head"] == "TBODY" and c["column"] in columns]
    assert numbers and all(re.match(r"[-+0-9n]", c["text"]) for c in numbers), [c["text"] for c in numbers]
    assert {c["align"] for c in numbers} == {"right"}, [(c["text"], c["align"]) for c in numbers]

"""Open an HTML file in headless Chromium and read the report's self-check."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest


def chromium() -> str:
    """Path of a Chromium binary, or skip the test with the reason."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("Chromium is not installed (Debian: apt-get install chromium); .ci/run installs it")


def render(html_file: Path) -> dict:
    """Load the page with scripts, wait for load, and return the self-check JSON
    (tables, figures, figures drawn, script errors)."""
    exe = chromium()
    out = subprocess.run(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--virtual-time-budget=5000", "--dump-dom", html_file.resolve().as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    m = re.search(r'<pre id="schedlab-selfcheck"[^>]*>(.*?)</pre>', out.stdout, re.S)
    assert m, "the report's self-check did not run"
    return json.loads(m.group(1))


def pdf_pages(html_file: Path, pdf_file: Path) -> int:
    """Print the page to PDF as Chromium's print does (print media, beforeprint) and
    count the PDF's pages."""
    exe = chromium()
    out = subprocess.run(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-pdf-header-footer",
         "--virtual-time-budget=5000", f"--print-to-pdf={pdf_file}", html_file.resolve().as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0 and pdf_file.is_file(), out.stderr[-2000:]
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf_file.read_bytes()))

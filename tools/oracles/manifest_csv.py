"""The golden manifests' file format, shared by the writers in tools/oracles/*/manifest.py:
one CSV per golden set (tests/data/<set>/goldens.csv), a header of the set's columns and
one row per golden, "\\n" line ends (DEVELOPING.md, "Tests")."""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path


def repo_root(script: str) -> Path:
    """The repository to write into: the first command-line argument, or the checkout
    holding ``script`` (a manifest writer at tools/oracles/<area>/manifest.py)."""
    return Path(sys.argv[1]) if len(sys.argv) > 1 else Path(script).resolve().parents[3]


def write(path: Path, columns: list[str], rows: Iterable[Mapping[str, object]]) -> None:
    """Write the manifest ``path`` with ``columns`` and ``rows``, and say how many goldens it lists."""
    rows = list(rows)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, columns, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print(f"{path}: {len(rows)} goldens")

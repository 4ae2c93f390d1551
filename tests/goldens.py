"""The golden sets' manifests (``tests/data/<area>/goldens.csv``) for the Python tests, read
with the standard library as tests/it/goldens.rs reads them for Rust.

Each manifest lists every golden of its directory with the parameters it was made with
(written by tools/oracles/{kernel,mmtests,lkp}/manifest.py, the one
place that reads the goldens' file names). The Rust tests check every golden; the Python
tests run a few through each binding, chosen here with :func:`spread`.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"


@cache
def _rows(area: str) -> tuple[dict[str, str], ...]:
    with open(DATA / area / "goldens.csv", newline="") as f:
        return tuple(csv.DictReader(f))


def read(area: str) -> list[dict[str, str]]:
    """Every row of ``tests/data/<area>/goldens.csv``, in the file's order (copies)."""
    return [dict(r) for r in _rows(area)]


def find(area: str, **columns: str) -> dict[str, str]:
    """The one golden of ``area`` whose columns have the given values."""
    hits = [r for r in read(area) if all(r[k] == v for k, v in columns.items())]
    if len(hits) != 1:
        raise LookupError(f"{area}/goldens.csv: {len(hits)} goldens with {columns}")
    return hits[0]


def row(area: str, golden: str) -> dict[str, str]:
    """The manifest row of the golden file ``golden`` (relative to the area's directory)."""
    return find(area, golden=golden)


def spread(rows: Iterable[dict[str, str]], group_by: Sequence[str], vary: str, offset: int = 0) -> list[dict[str, str]]:
    """One golden per distinct value of the ``group_by`` columns (groups in sorted order),
    the ``vary`` column rotating from group to group: the ``i``-th group gives its rows'
    ``(i + offset) % n``-th by ``vary``. Two bindings given different offsets check
    different goldens of each group."""
    groups: dict[tuple[str, ...], list[dict[str, str]]] = {}
    for r in rows:
        groups.setdefault(tuple(r[c] for c in group_by), []).append(r)
    picked = []
    for i, key in enumerate(sorted(groups)):
        members = sorted(groups[key], key=lambda r: (r[vary], r["golden"]))
        picked.append(members[(i + offset) % len(members)])
    return picked


def ids(rows: Iterable[dict[str, str]]) -> list[str]:
    """pytest ids: the golden files."""
    return [r["golden"] for r in rows]


@cache
def unreproducible_prefixes(*kinds: str) -> tuple[str, ...]:
    """The line prefixes of ``tests/data/mmtests/unreproducible-lines.csv`` whose ``kind``
    is one of ``kinds``: the lines of a compare-mmtests.pl table upstream prints from random
    draws (``random``) or in Perl hash order (``debug``), dropped on both sides."""
    with open(DATA / "mmtests" / "unreproducible-lines.csv", newline="") as f:
        prefixes = tuple(r["prefix"] for r in csv.DictReader(f) if r["kind"] in kinds)
    if not prefixes:
        raise LookupError(f"unreproducible-lines.csv: no line of kinds {kinds}")
    return prefixes


def kept_lines(text: str, *kinds: str) -> list[str]:
    """The lines of ``text`` starting with none of the unreproducible prefixes of ``kinds``."""
    drop = unreproducible_prefixes(*kinds)
    return [ln for ln in text.splitlines() if not ln.startswith(drop)]


def kept_lines_bytes(table: bytes, *kinds: str) -> list[bytes]:
    """:func:`kept_lines` of a table read as bytes."""
    drop = tuple(p.encode() for p in unreproducible_prefixes(*kinds))
    return [ln for ln in table.splitlines() if not ln.startswith(drop)]

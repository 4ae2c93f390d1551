"""Code comments cite the repository's own docs: no reference to spec files outside the
repository, and every ``docs/<file>.md §N`` names an existing file and section."""

import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SCANNED = ("src", "python", "tests", "benchmarks", "tools", "fuzz")
SKIPPED_DIRS = {"__pycache__", "target", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                "node_modules", "corpus", "artifacts", "coverage"}
SKIPPED_TREES = (ROOT / "tests" / "data",)

# Built from pieces so that this file does not match itself.
_OUTSIDE = re.compile(
    r"(?<!docs/)(?:" + "refer" + r"ence/" + "|" + "sha" + r"red/" + "|" + r"\.\./" + "sha" + r"red\b"
    + "|" + "kernel" + r"-sim\.md" + "|" + r"(?:lkp|mmtests)\.md\s*" + "\u00a7" + ")"
)
_SECTION = "\u00a7" + r"\s*(\d+(?:\.\d+)*)"
_SEP = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*[\u2013-]\s*)"
_CITATION = re.compile(
    r"docs/([A-Za-z0-9_.-]+?\.md)\b((?:\s*" + _SECTION + r")(?:" + _SEP + r"\u00a7?\s*\d+(?:\.\d+)*)*)?"
)
_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_HEADING = re.compile(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s", re.MULTILINE)


@functools.lru_cache(maxsize=1)
def _text_files():
    """(path, text) of every scanned text file, read once for all tests."""
    return tuple(_scan())


def _scan():
    for top in SCANNED:
        base = ROOT / top
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if not path.is_file() or path == Path(__file__).resolve():
                continue
            if any(part in SKIPPED_DIRS for part in path.relative_to(ROOT).parts):
                continue
            if any(tree in path.parents for tree in SKIPPED_TREES):
                continue
            data = path.read_bytes()
            if b"\0" in data:
                continue  # binary (extension modules, archives)
            try:
                yield path, data.decode("utf-8")
            except UnicodeDecodeError:
                continue


def _sections(name):
    return set(_HEADING.findall((DOCS / name).read_text(encoding="utf-8")))


def _citations(text):
    """(line, file, [section numbers]) of every docs/<file>.md citation in text."""
    for m in _CITATION.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        yield line, m.group(1), _NUMBER.findall(m.group(2) or "")


def _outside(text):
    for m in _OUTSIDE.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(0)


def test_no_citation_points_outside_the_repository():
    found = [f"{path.relative_to(ROOT)}:{line}: {what!r}"
             for path, text in _text_files() for line, what in _outside(text)]
    assert not found, "cite docs/<file>.md instead of files outside the repository:\n" + "\n".join(found)


def test_every_docs_citation_resolves():
    known = {p.name: _sections(p.name) for p in DOCS.glob("*.md")}
    bad = []
    cited = 0
    for path, text in _text_files():
        for line, name, numbers in _citations(text):
            cited += 1
            where = f"{path.relative_to(ROOT)}:{line}"
            if name not in known:
                bad.append(f"{where}: docs/{name} does not exist")
                continue
            bad.extend(f"{where}: docs/{name} has no section {n}" for n in numbers if n not in known[name])
    assert cited > 0
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("text, expected", [
    ("(docs/lkp.md \u00a73.2, \u00a73.5)", [("lkp.md", ["3.2", "3.5"])]),
    ("docs/idle-governors.md \u00a73.2\u20133.5):", [("idle-governors.md", ["3.2", "3.5"])]),
    ("docs/lkp.md \u00a71, \u00a72.3 and \u00a73.1.", [("lkp.md", ["1", "2.3", "3.1"])]),
    ("docs/pelt.md \u00a75.2: replays", [("pelt.md", ["5.2"])]),
    ("docs/lkp.md \u00a73.2 step 4)", [("lkp.md", ["3.2"])]),
    ("after docs/lkp.md.", [("lkp.md", [])]),
])
def test_citation_parsing(text, expected):
    assert [(name, numbers) for _, name, numbers in _citations(text)] == expected


@pytest.mark.parametrize("text, flagged", [
    ("see ../" + "shared/" + "golden", True),
    ("after " + "refer" + "ence/lkp.md", True),
    ("(kernel" + "-sim.md \u00a72.5)", True),
    ("(mmtests.md \u00a75.1)", True),
    ("(docs/mmtests.md \u00a75.1)", False),
    ("wasm-bindgen-shared", False),
])
def test_outside_pattern(text, flagged):
    assert bool(list(_outside(text))) == flagged

"""What each path given to ``schedlab report`` is: MMTests trees (directories or
archives), lkp commit roots, idle traces and state tables, task traces; and the
names the report shows for them (relative to the paths given, never absolute)."""

from __future__ import annotations

import os
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ParseError

#: Archive suffixes the MMTests reader of the core accepts.
ARCHIVE_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".zip")


@dataclass
class MMTestsTree:
    """An MMTests ``work/log`` directory (or an archive holding one): kernels (run
    names) × benchmarks; ``name`` is what the report calls it (the machine)."""

    log_dir: Path
    kernels: list[str]
    benchmarks: list[str]
    name: str = ""


@dataclass
class Inputs:
    """Everything found in the paths, by kind, and the roots the names are relative to."""

    mmtests: list[MMTestsTree] = field(default_factory=list)
    lkp_roots: list[Path] = field(default_factory=list)
    idle_traces: list[Path] = field(default_factory=list)
    idle_states: list[Path] = field(default_factory=list)
    task_traces: list[Path] = field(default_factory=list)
    roots: list[tuple[Path, str]] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.mmtests or self.lkp_roots or self.idle_traces or self.task_traces)

    def name(self, path: Path) -> str:
        """``path`` as the report shows it: below the given path it was found in,
        prefixed with that path's own name (nothing for the example data)."""
        p = path.resolve()
        for root, prefix in self.roots:
            if p == root or root in p.parents:
                rel = p.relative_to(root).as_posix()
                parts = [x for x in (prefix, "" if rel == "." else rel) if x]
                return "/".join(parts) or "."
        return path.name

    def scrub(self, text: str) -> str:
        """``text`` (an error message) with every given path's absolute form replaced by its name."""
        for root, prefix in sorted(self.roots, key=lambda rp: -len(str(rp[0]))):
            text = text.replace(str(root), prefix or ".")
        return text


def _csv_kind(path: Path) -> str | None:
    try:
        with open(path, "rb") as f:
            head = f.readline(4096).decode("utf-8", "replace").strip().lower()
    except OSError:
        return None
    if head.startswith("sleep_length_ns"):
        return "idle-trace"
    if head.startswith("name,exit_latency"):
        return "idle-states"
    if head.startswith("dur_ns,state"):
        return "task-trace"
    return None


def _mmtests_log_dir(path: Path) -> Path | None:
    """``path`` itself, or ``path/work/log``, if it holds ``<kernel>/iter-<k>/`` runs."""
    for cand in (path / "work" / "log", path / "log", path):
        if cand.is_dir() and any((k / "iter-0").is_dir() for k in cand.iterdir() if k.is_dir()):
            return cand
    return None


def _machine_dir(log: Path) -> Path:
    """The directory a ``work/log`` tree belongs to (the machine's result directory)."""
    if log.name == "log" and log.parent.name == "work":
        return log.parent.parent
    return log.parent if log.name == "log" else log


def _is_lkp_root(path: Path) -> bool:
    return (path / "matrix.json").is_file() or (path / "matrix.json.gz").is_file()


def _is_archive(path: Path) -> bool:
    return path.name.lower().endswith(ARCHIVE_SUFFIXES)


def _archive_tree(path: Path) -> MMTestsTree:
    """Kernels and benchmarks of the first ``<kernel>/iter-0/<benchmark>/logs/`` tree
    in an archive, from its member names alone (the core reads the logs)."""
    try:
        if path.name.lower().endswith(".zip"):
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
        else:
            with tarfile.open(path, "r:*") as t:
                names = t.getnames()
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError) as e:
        raise ParseError(f"{path}: not a readable archive: {e}", str(path)) from None
    trees: dict[str, tuple[set[str], set[str]]] = {}
    for n in names:
        parts = [x for x in n.split("/") if x not in ("", ".")]
        for i in range(1, len(parts) - 3):
            if parts[i + 1] == "iter-0" and parts[i + 3] == "logs":
                kernels, benches = trees.setdefault("/".join(parts[:i]), (set(), set()))
                kernels.add(parts[i])
                benches.add(parts[i + 2])
                break
    if not trees:
        raise ParseError(f"{path}: the archive holds no MMTests <kernel>/iter-0/<benchmark>/logs/ tree", str(path))
    kernels, benches = trees[sorted(trees)[0]]
    return MMTestsTree(path, sorted(kernels), sorted(benches))


def detect(paths: list[str | os.PathLike[str]], example: bool = False) -> Inputs:
    """Classify every path (recursing two levels into plain directories of results).
    With ``example``, names are relative to the example directory itself. Raises
    ParseError when nothing the report can use is found."""
    found = Inputs()
    for i, raw in enumerate(paths):
        p = Path(raw)
        if not p.exists():
            from ..errors import FileNotFoundError as SchedlabFileNotFound

            raise SchedlabFileNotFound(f"{p}: no such file or directory", str(p))
        found.roots.append((p.resolve(), "" if example and i == 0 else p.resolve().name))
        _classify(p, found, depth=0)
    for tree in found.mmtests:
        tree.name = found.name(tree.log_dir if _is_archive(tree.log_dir) else _machine_dir(tree.log_dir))
    if found.empty():
        given = ", ".join(str(p) for p in paths)
        raise ParseError(f"{given}: nothing to report: no MMTests work/log tree or archive, lkp result root "
                         "(a directory with matrix.json) or idle/task trace CSV found (searched two levels deep)",
                         given)
    return found


def _classify(p: Path, found: Inputs, depth: int) -> None:
    if p.is_file():
        kind = _csv_kind(p)
        if kind == "idle-trace":
            found.idle_traces.append(p)
        elif kind == "idle-states":
            found.idle_states.append(p)
        elif kind == "task-trace":
            found.task_traces.append(p)
        elif _is_archive(p) and depth == 0:
            found.mmtests.append(_archive_tree(p))
        elif depth == 0:
            raise ParseError(f"{p}: not a result tree or a trace schedlab recognises "
                             "(expected an MMTests work/log tree or archive of one, an lkp result root, "
                             "or an idle/task trace CSV)", str(p))
        return
    log = _mmtests_log_dir(p)
    if log is not None:
        kernels = sorted(k.name for k in log.iterdir() if (k / "iter-0").is_dir())
        benches = sorted({b.name for k in kernels for b in (log / k / "iter-0").iterdir() if (b / "logs").is_dir()})
        found.mmtests.append(MMTestsTree(log, kernels, benches))
        return
    if _is_lkp_root(p):
        found.lkp_roots.append(p)
        return
    if depth < 2:
        for child in sorted(p.iterdir()):
            _classify(child, found, depth + 1)

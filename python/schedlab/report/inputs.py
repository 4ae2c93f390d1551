"""What each path given to ``schedlab report`` is: MMTests trees, lkp commit roots,
idle traces and state tables, task traces."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ParseError


@dataclass
class MMTestsTree:
    """An MMTests ``work/log`` directory: kernels (run names) × benchmarks."""

    log_dir: Path
    kernels: list[str]
    benchmarks: list[str]


@dataclass
class Inputs:
    """Everything found in the paths, by kind."""

    mmtests: list[MMTestsTree] = field(default_factory=list)
    lkp_roots: list[Path] = field(default_factory=list)
    idle_traces: list[Path] = field(default_factory=list)
    idle_states: list[Path] = field(default_factory=list)
    task_traces: list[Path] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.mmtests or self.lkp_roots or self.idle_traces or self.task_traces)


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


def _is_lkp_root(path: Path) -> bool:
    return (path / "matrix.json").is_file() or (path / "matrix.json.gz").is_file()


def detect(paths: list[str | os.PathLike[str]]) -> Inputs:
    """Classify every path (recursing one level into plain directories of results)."""
    found = Inputs()
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            from ..errors import FileNotFoundError as SchedlabFileNotFound

            raise SchedlabFileNotFound(f"{p}: no such file or directory", str(p))
        _classify(p, found, depth=0)
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
        elif depth == 0:
            raise ParseError(f"{p}: not a result tree or a trace schedlab recognises "
                             "(expected an MMTests work/log tree, an lkp result root, or an idle/task trace CSV)",
                             str(p))
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
    elif depth == 0:
        raise ParseError(f"{p}: no MMTests tree, lkp result root or trace found inside", str(p))

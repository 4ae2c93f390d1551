"""What each path given to ``schedlab report`` is: MMTests trees (directories or
archives), lkp commit roots, idle traces and state tables, task traces; and the
names the report shows for them (relative to the paths given, never absolute)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .. import _core


@dataclass
class MMTestsTree:
    """An MMTests ``work/log`` directory (or an archive holding one): kernels (run
    names) × benchmarks; ``name`` is what the report calls it (the machine)."""

    log_dir: Path
    kernels: list[str]
    benchmarks: list[str]
    name: str = ""
    root: str = ""
    """In an archive, the log directory inside it (an archive may hold several)."""

    @property
    def path(self) -> Path:
        """What ``mmtests.compare`` reads: the directory, or ``ARCHIVE/ROOT``."""
        return self.log_dir / self.root if self.root else self.log_dir


@dataclass
class Inputs:
    """Everything found in the paths, by kind, and the roots the names are relative to."""

    mmtests: list[MMTestsTree] = field(default_factory=list)
    lkp_roots: list[Path] = field(default_factory=list)
    idle_traces: list[Path] = field(default_factory=list)
    idle_states: list[Path] = field(default_factory=list)
    task_traces: list[Path] = field(default_factory=list)
    roots: list[tuple[Path, str]] = field(default_factory=list)
    scans: dict[Path, _core.Scan] = field(default_factory=dict, repr=False)
    """The core's batch scan of each MMTests directory or archive, read once."""

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


def detect(paths: list[str | os.PathLike[str]], example: bool = False) -> Inputs:
    """Classify every path (the core searches two levels into plain directories of
    results: src/report_inputs.rs). With ``example``, names are relative to the example
    directory itself. Raises ParseError when nothing the report can use is found."""
    found = Inputs()
    for i, raw in enumerate(paths):
        p = Path(raw)
        if not p.exists():
            from ..errors import FileNotFoundError as SchedlabFileNotFound

            raise SchedlabFileNotFound(f"{p}: no such file or directory", str(p))
        found.roots.append((p.resolve(), "" if example and i == 0 else p.resolve().name))
    d = _core.report_inputs([os.fspath(p) for p in paths])
    found.mmtests = [MMTestsTree(Path(t["log_dir"]), t["kernels"], t["benchmarks"], found.name(Path(t["machine"])),
                                 t["root"]) for t in d["mmtests"]]
    for kind in ("lkp_roots", "idle_traces", "idle_states", "task_traces"):
        setattr(found, kind, [Path(x) for x in d[kind]])
    return found

"""A hackbench result line split across two lines (docs/mmtests.md §8.4): the Perl of every
era reads a wrong number from it silently (`Total time: ([0-9.]*)` on `Total time: 0.0`,
2018's `^Time: (.*)` on `Time: 0.4`); schedlab refuses the file with a parse error naming
the file and the line, from the API and the command line (exit 2, one line, no traceback).
The trees are MMTests' real logs under tests/data/mmtests with one line cut in two."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import schedlab
from schedlab import mmtests

from . import goldens

DATA = Path(__file__).parent / "data" / "mmtests"
LEGACY = ["6.8-vanilla", "6.9-patched"]
E2018 = ["4.18.0-vanilla", "4.18.0-teo", "4.18.0-teo-v6+backport"]


def _cut(path: Path, line: str, head: str) -> int:
    """Cut the first `line` of `path` after `head` (the rest on a line of its own); its 1-based number."""
    lines = path.read_text().split("\n")
    i = lines.index(line)
    assert line.startswith(head) and len(line) > len(head)
    lines[i: i + 1] = [head, line[len(head):]]
    path.write_text("\n".join(lines))
    return i + 1


def _tree(tmp_path: Path, era: str) -> tuple[Path, list[str], Path, int]:
    """A copy of the era's hackbench-process-pipes logs with one result line cut inside
    its number: (directory, runs, the damaged file, its line)."""
    if era == "2018":
        root = tmp_path / "logs"
        for k in E2018:
            shutil.copytree(DATA / "logs-2018" / f"hackbench-process-pipes-{k}", root / f"hackbench-process-pipes-{k}")
        damaged = root / "hackbench-process-pipes-4.18.0-teo" / "noprofile" / "hackbench-1-1"
        first = next(ln for ln in damaged.read_text().splitlines() if ln.startswith("Time: "))
        return root, E2018, damaged, _cut(damaged, first, first[:-2])
    layout = "logs-head" if era == "head" else "logs-legacy"
    root = tmp_path / "log"
    for k in LEGACY:
        src, dst = DATA / layout / k / "iter-0", root / k / "iter-0"
        shutil.copytree(src / "hackbench-process-pipes", dst / "hackbench-process-pipes")
        shutil.copy(src / "tests-timestamp", dst)
    logs = root / "6.9-patched" / "iter-0" / "hackbench-process-pipes" / "logs"
    damaged = logs / ("hackbench-4" if era == "head" else "hackbench-4-2")
    first = next(ln for ln in damaged.read_text().splitlines() if "Total time:" in ln)
    # `     Total time: 0.0` + `81 [sec]`: the Perl reads 0.0
    head = first[: first.index("Total time: ") + len("Total time: ") + 3]
    return root, LEGACY, damaged, _cut(damaged, first, head)


@pytest.mark.parametrize("era", ["2018", "2024", "2025", "head"])
def test_a_split_result_line_is_a_parse_error_naming_file_and_line(tmp_path: Path, era: str) -> None:
    root, runs, damaged, line = _tree(tmp_path, era)
    where = f"{damaged}:{line}: a hackbench result line split across two lines"
    with pytest.raises(schedlab.ParseError) as e:
        mmtests.compare(root, "hackbench-process-pipes", runs, compat=era)
    assert str(e.value).startswith(where), e.value
    r = subprocess.run([sys.executable, "-m", "schedlab", "mmtests", "compare", "-d", str(root), "-b",
                        "hackbench-process-pipes", "-n", ",".join(runs), "--compat", era],
                       capture_output=True, text=True, timeout=300)
    assert (r.returncode, r.stdout) == (2, ""), r.stderr
    assert len(r.stderr.splitlines()) == 1 and where in r.stderr and "Traceback" not in r.stderr, r.stderr


@pytest.mark.parametrize("era", ["2018", "2025", "head"])
def test_the_same_logs_whole_compare(tmp_path: Path, era: str) -> None:
    """The undamaged copies compare as the goldens say (tests/data/mmtests/out)."""
    root, runs, damaged, _ = _tree(tmp_path, era)
    src = {"2018": DATA / "logs-2018" / "hackbench-process-pipes-4.18.0-teo" / "noprofile" / "hackbench-1-1",
           "2025": DATA / "logs-legacy" / "6.9-patched" / "iter-0" / "hackbench-process-pipes" / "logs" / "hackbench-4-2",
           "head": DATA / "logs-head" / "6.9-patched" / "iter-0" / "hackbench-process-pipes" / "logs" / "hackbench-4"}
    shutil.copy(src[era], damaged)
    text = mmtests.compare(root, "hackbench-process-pipes", runs, compat=era).to_text()
    golden = goldens.find("mmtests", set="out", era=era, benchmark="hackbench-process-pipes", print_ratio="0",
                          sub_heading="")
    want = (DATA / golden["golden"]).read_text()
    # E0's `Comparing (...)` debug lines are not reproducible (tests/data/mmtests/unreproducible-lines.csv)
    assert goldens.kept_lines(text, "debug") == goldens.kept_lines(want, "debug")

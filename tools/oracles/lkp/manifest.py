#!/usr/bin/env python3
"""Write tests/data/lkp/golden/goldens.csv: every lkp ncompare golden of
tests/data/lkp/golden with the command line compare_dirs.rb printed it for.

The command lines are those of the scripts that made the goldens: README.md's table
(scenarios A and B), gen_flags.py (`RUNS_OF`, flags/), gen_issue18.py (issue18/),
gen_query.py (`CASES`, query/, run with `--root query`) and random/pairs.txt (one line per
block of random/expected.txt, `#### N` before block N). The Rust and Python tests read
the manifest; none spells a command line or a file name again. Run after regenerating:

    python3 tools/oracles/lkp/manifest.py [REPO]

Columns:
    golden   the output, relative to tests/data/lkp/golden
    block    for random/expected.txt: the block N (`#### N`); else empty
    options  ncompare's options (-a, -m, -k, -p VALUE), space-separated
    roots    the BASE and HEAD result roots, relative to tests/data/lkp/golden
    root     with queries: the --root directory the queries search
    queries  ncompare's -s/-o queries and -c axes (with their own -m/-k), space-separated
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from manifest_csv import repo_root, write  # noqa: E402  (tools/oracles/manifest_csv.py)

COLUMNS = ["golden", "block", "options", "roots", "root", "queries"]
A = "scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7"
A_BASE, A_HEAD = f"{A}/a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01", f"{A}/d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a"
B1, H1 = "scenario_b_edge/" + "1" * 40, "scenario_b_edge/" + "2" * 40
B2, H2 = "scenario_b_edge2/" + "1" * 40, "scenario_b_edge2/" + "2" * 40
# README.md's table
SCENARIOS = [("out_A_default.txt", [], [A_BASE, A_HEAD]), ("out_A_more.txt", ["-m"], [A_BASE, A_HEAD]),
             ("out_B_4v4.txt", [], [B1, H1]), ("out_B_2v2.txt", [], [B2, H2]), ("out_B_4v2.txt", [], [B1, H2]),
             ("out_B_all_2v2.txt", ["-a"], [B2, H2])]
# gen_flags.py's RUNS_OF, on flags/cccc… and flags/dddd…
FLAGS = {"default": [], "p5": ["-p", "5"], "p0.5_more": ["-p", "0.5", "-m"], "k": ["-k"], "k_all": ["-k", "-a"]}
# gen_issue18.py's scenarios, each on <scenario>/aaaa… and <scenario>/bbbb…
ISSUE18 = {"patterns": ["-m"], "axes": []}
# gen_query.py's CASES, on query/ with lkp's grouping
QA, QB = "a1" * 20, "b2" * 20
QUERIES = {
    "two_commits": ["-s", f"commit={QA[:8]}", "-s", f"commit={QB[:8]}"],
    "override": ["-s", f"kconfig=k1/commit={QA}", "-o", f"commit={QB}"],
    "compare_kconfigs": ["-c", "kconfig", "-s", f"commit={QA[:8]}"],
    "different_roots": ["-s", f"commit={QA}/kconfig=k1", "-o", f"commit={QB}/kconfig=k2"],
    "more_kpi": ["-m", "-k", "-s", f"commit={QB}", "-s", f"commit={QA}"],
}


def rows(golden: Path) -> list[dict[str, str]]:
    out = []

    def add(file: str, options: list[str], roots: list[str], block: str = "") -> None:
        for p in (file, *roots):
            if not (golden / p).exists():
                sys.exit(f"{golden / p} is missing")
        out.append({"golden": file, "block": block, "options": " ".join(options), "roots": " ".join(roots),
                    "root": "", "queries": ""})

    for file, options, roots in SCENARIOS:
        add(file, options, roots)
    for name, options in FLAGS.items():
        add(f"flags/out_{name}.txt", options, ["flags/" + "c" * 40, "flags/" + "d" * 40])
    for name, options in ISSUE18.items():
        add(f"issue18/out_{name}.txt", options, [f"issue18/{name}/" + "a" * 40, f"issue18/{name}/" + "b" * 40])
    for name, queries in QUERIES.items():
        file = f"query/out_{name}.txt"
        if not (golden / file).exists():
            sys.exit(f"{golden / file} is missing")
        out.append({"golden": file, "block": "", "options": "", "roots": "", "root": "query",
                    "queries": " ".join(queries)})
    # random/pairs.txt: "[-a|-m] BASE HEAD", block N of random/expected.txt
    for n, line in enumerate((golden / "random" / "pairs.txt").read_text().splitlines()):
        args = line.split()
        add("random/expected.txt", [a for a in args if a.startswith("-")],
            [a for a in args if not a.startswith("-")], str(n))
    return out


def main() -> None:
    golden = repo_root(__file__) / "tests" / "data" / "lkp" / "golden"
    write(golden / "goldens.csv", COLUMNS, rows(golden))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Write tests/data/mmtests/goldens.csv: every compare-mmtests.pl golden of the sets
`out/`, `wide/`, `time/`, `families/` and `fuzz/` (tests/data/mmtests/README.md) with
the command line that printed it.

This is the one place that reads those goldens' file names and knows which tree and run
names each set's oracle script compared (oracle.sh, wide.sh, time.sh, families.sh and the
fuzz cases); the Rust and Python tests read the manifest. Run it after regenerating a set:

    python3 tools/oracles/mmtests/manifest.py [REPO]

Columns:
    golden       the Perl's stdout, relative to tests/data/mmtests
    set          out | wide | time | families | fuzz: the oracle script's set
    tree         the `-d` directory, relative to tests/data/mmtests
    benchmark    `-b`
    names        `-n`, space-separated
    era          the MMTests version that printed it (schedlab's --compat)
    print_ratio  1 with --print-ratio
    sub_heading  --sub-heading, or empty
    expect       table:  the table, to be reproduced line for line without the lines
                         unreproducible-lines.csv lists;
                 random: a ratio table of a Subselection family (dbench4/tbench4, and
                         perffutexwake before head), every number a ratio of the SubAmean
                         that upstream draws at random: no number can be compared;
                 error:  the file is empty, the Perl died: schedlab must refuse.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

COLUMNS = ["golden", "set", "tree", "benchmark", "names", "era", "print_ratio", "sub_heading", "expect"]
TWO = ["6.8-vanilla", "6.9-patched"]
THREE = ["6.8-vanilla", "6.9-patched", "6.10-rc1"]
NAMES_2018 = ["4.18.0-vanilla", "4.18.0-teo", "4.18.0-teo-v6+backport"]
RATIO = "--print-ratio"
SUB = "--sub-heading_"


def split_name(stem: str) -> tuple[str, str, bool, str]:
    """`<era>-<benchmark>[--print-ratio][_]--sub-heading_<X>[--print-ratio]` (a `/` of X
    written %2F) → era, benchmark, print_ratio, sub_heading."""
    era, rest = stem.split("-", 1)
    sub = ""
    if SUB in rest:
        rest, sub = rest.split(SUB, 1)
        rest = rest.removesuffix("_")
        if sub.endswith(RATIO):
            rest, sub = rest + RATIO, sub.removesuffix(RATIO)
        sub = sub.replace("%2F", "/")
    ratio = rest.endswith(RATIO)
    return era, rest.removesuffix(RATIO), ratio, sub


def expect(path: Path, benchmark: str, era: str, ratio: bool) -> str:
    if ratio and (benchmark.endswith("bench4") or (benchmark == "perffutexwake" and era != "head")):
        return "random"
    return "error" if path.stat().st_size == 0 else "table"


def row(data: Path, path: Path, tree: str, bench: str, names: list[str], era: str, ratio: bool, sub: str) -> dict:
    if not (data / tree).is_dir():
        sys.exit(f"{path}: its tree {data / tree} is missing")
    golden = path.relative_to(data).as_posix()
    return {"golden": golden, "set": golden.split("/")[0], "tree": tree, "benchmark": bench, "names": " ".join(names),
            "era": era, "print_ratio": str(int(ratio)), "sub_heading": sub,
            "expect": expect(path, bench, era, ratio)}


def rows(data: Path) -> list[dict]:
    out = []
    # oracle.sh: the three log trees, one per layout
    trees = {"2018": "logs-2018", "2024": "logs-legacy", "2025": "logs-legacy", "head": "logs-head"}
    for f in sorted((data / "out").glob("*.oracle")):
        era, bench, ratio, sub = split_name(f.name.removesuffix(".oracle"))
        out.append(row(data, f, trees[era], bench, NAMES_2018 if era == "2018" else TWO, era, ratio, sub))
    # wide.sh: 21 kernels
    wide = (data / "wide" / "names").read_text().strip().split(",")
    for f in sorted((data / "wide" / "out").glob("*.oracle")):
        era, bench, ratio, sub = split_name(f.name.removesuffix(".oracle"))
        tree = "head" if era == "head" else "2024" if era == "2024" and bench.endswith("bench4") else "legacy"
        out.append(row(data, f, f"wide/{tree}", bench, wide, era, ratio, sub))
    # time.sh: the GNU-time families
    for f in sorted((data / "time" / "out").glob("*.oracle")):
        era, bench, ratio, sub = split_name(f.name.removesuffix(".oracle"))
        out.append(row(data, f, "time/head" if era == "head" else "time/legacy", bench, TWO, era, ratio, sub))
    # families.sh: one tree per era
    for f in sorted((data / "families" / "out").glob("*.oracle")):
        era, bench, ratio, sub = split_name(f.name.removesuffix(".oracle"))
        out.append(row(data, f, f"families/{era}", bench, THREE, era, ratio, sub))
    # the fuzz cases: `caseN BENCHMARK NAME1,NAME2,...`, outputs caseN-<era>[--print-ratio]
    for line in (data / "fuzz" / "cases").read_text().splitlines():
        case, bench, names = line.split()
        for era in ("2024", "2025", "head"):
            for ratio in (False, True):
                f = data / "fuzz" / "out" / f"{case}-{era}{RATIO if ratio else ''}.oracle"
                if not f.exists():
                    continue
                if era == "head":  # netperf-udp-rr is called netperf-ipv4-udp-rr in head's layout
                    tree, b = f"fuzz/logshead/{case}", bench.replace("netperf-udp-rr", "netperf-ipv4-udp-rr")
                else:
                    tree, b = f"fuzz/logs/{case}", bench
                out.append(row(data, f, tree, b, names.split(","), era, ratio, ""))
    return out


def main() -> None:
    repo = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3]
    data = repo / "tests" / "data" / "mmtests"
    got = rows(data)
    with open(data / "goldens.csv", "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(got)
    print(f"{data / 'goldens.csv'}: {len(got)} goldens")


if __name__ == "__main__":
    main()

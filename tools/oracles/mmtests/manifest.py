#!/usr/bin/env python3
"""Write tests/data/mmtests/goldens.csv: every compare-mmtests.pl golden of the sets
`out/`, `wide/`, `time/`, `families/` and `fuzz/` (tests/data/mmtests/README.md) with
the command line that printed it; and tests/data/mmtests/e0-dbench4/goldens.csv, the same
for e0_dbench4.sh's goldens (paths relative to e0-dbench4/; `expect` there is `whole`: the
table without its `Comparing (` debug lines, SubAmean rows included, since R's draws
cannot vary on a tree without spread; or `r-pairs`: a spread tree's ratio table, which
follows from the pairs R printed, the file of its column `r_pairs`); and
tests/data/mmtests/monitors/goldens.csv, monitors.sh's `--print-monitor` tables (`expect`
`table`, or `error` where the Perl printed nothing); and tests/data/mmtests/partial/goldens.csv,
partial.sh's tables with the Perl's stderr and exit code beside each; and
tests/data/mmtests/failed/goldens.csv, failed.sh's (a failed or aborted run beside a good one);
and tests/data/mmtests/real/goldens.csv, real.sh's on the published tree.

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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from manifest_csv import repo_root, write  # noqa: E402  (tools/oracles/manifest_csv.py)

COLUMNS = ["golden", "set", "tree", "benchmark", "names", "era", "print_ratio", "sub_heading", "expect"]
E0_COLUMNS = ["golden", "set", "tree", "benchmark", "names", "era", "print_ratio", "expect", "r_pairs"]
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


def e0_rows(e0: Path) -> list[dict]:
    """e0_dbench4.sh: `<set>/cases` lines `<case> <names>`, out/<set>-<case>[--print-ratio]
    (spread trees only --print-ratio)."""
    out = []
    for tree_set, expect in (("flat", "whole"), ("spread", "r-pairs")):
        for line in (e0 / tree_set / "cases").read_text().splitlines():
            case, names = line.split(" ", 1)
            for ratio in (False, True) if tree_set == "flat" else (True,):
                golden = f"out/{tree_set}-{case}{RATIO if ratio else ''}.oracle"
                r_pairs = f"spread/r/{case}" if tree_set == "spread" else ""
                if not all((e0 / f).exists() for f in (golden, f"{tree_set}/{case}", r_pairs)):
                    sys.exit(f"{e0 / golden}: the golden, its tree or R's pairs are missing")
                out.append({"golden": golden, "set": tree_set, "tree": f"{tree_set}/{case}", "benchmark": "dbench4",
                            "names": " ".join(names.split(",")), "era": "2018", "print_ratio": str(int(ratio)),
                            "expect": expect, "r_pairs": r_pairs})
    return out


MONITOR_COLUMNS = ["golden", "tree", "benchmark", "names", "monitor", "sub_heading", "era", "expect"]


def monitor_rows(mon: Path) -> list[dict]:
    """monitors.sh: for each "monitor [sub-heading]" line of `cases` (tree `tree`) and
    `cases-old` (tree `tree-old`, goldens prefixed `old-`), each era's
    out/[old-]<era>-<monitor>[_<sub-heading>].oracle (empty: the Perl printed no table)."""
    out = []
    for tree, cases, prefix in (("tree", "cases", ""), ("tree-old", "cases-old", "old-")):
        for line in (mon / cases).read_text().splitlines():
            if not line.strip():
                continue
            monitor, *sub = line.split()
            sub_heading = sub[0] if sub else ""
            for era in ("head", "2025", "2024"):
                golden = f"out/{prefix}{era}-{monitor}{'_' + sub_heading if sub_heading else ''}.oracle"
                if not (mon / golden).is_file():
                    sys.exit(f"{mon / golden} is missing")
                out.append({"golden": golden, "tree": tree, "benchmark": "hackbench-process-pipes",
                            "names": "6.8-vanilla 6.9-teo 6.9-menu", "monitor": monitor, "sub_heading": sub_heading,
                            "era": era, "expect": "error" if (mon / golden).stat().st_size == 0 else "table"})
    return out


PARTIAL_COLUMNS = ["golden", "stderr", "rc", "case", "tree", "benchmark", "names", "era", "print_ratio"]
# partial.sh: the eras, each with its tree (layout) and benchmarks
PARTIAL_RUNS = [("2018", "2018", "netperf-udp-rr"), ("2024", "legacy", "netperf-udp-rr"),
                ("2025", "legacy", "netperf-udp-rr"), ("2025", "legacy", "sockperf-udp-throughput"),
                ("head", "head", "netperf-ipv4-udp-rr")]


def partial_rows(partial: Path) -> list[dict]:
    """partial.sh: for each `<case> <names>` line of `cases`, each era's benchmark,
    out/<era>-<benchmark>-<case>[--print-ratio].{oracle,err,rc}: the Perl's stdout, stderr
    (the tree's path written MMTESTS) and exit code, where the oracle ran it."""
    out = []
    for line in (partial / "cases").read_text().splitlines():
        case, names = line.split(" ", 1)
        for era, tree, bench in PARTIAL_RUNS:
            for ratio in (False, True):
                stem = f"out/{era}-{bench}-{case}{RATIO if ratio else ''}"
                if not (partial / f"{stem}.rc").exists():
                    continue
                for ext in ("oracle", "err"):
                    if not (partial / f"{stem}.{ext}").is_file():
                        sys.exit(f"{partial / stem}.{ext} is missing")
                out.append({"golden": f"{stem}.oracle", "stderr": f"{stem}.err", "rc": f"{stem}.rc", "case": case,
                            "tree": tree, "benchmark": bench, "names": " ".join(names.split(",")), "era": era,
                            "print_ratio": str(int(ratio))})
    return out


FAILED_COLUMNS = ["golden", "rc", "tree", "benchmark", "names", "era", "run"]


def failed_rows(failed: Path) -> list[dict]:
    """failed.sh: out/<era>-<bench>-<run>[-first].{oracle,rc}, the Perl's stdout and exit
    code with the failed or aborted run `run` beside 6.8-vanilla (`-first`: as baseline)."""
    out = []
    for rc in sorted((failed / "out").glob("*.rc")):
        stem = rc.name.removesuffix(".rc")
        era, rest = stem.split("-", 1)
        first = rest.endswith("-first")
        bench, run = rest.removesuffix("-first").rsplit("-", 1)
        tree = "head" if era == "head" else "legacy"
        if run not in ("failed", "aborted") or not (failed / tree / run).is_dir():
            sys.exit(f"{rc}: not <era>-<bench>-<failed|aborted>[-first].rc of a tree")
        golden = f"out/{stem}.oracle"
        if not (failed / golden).is_file():
            sys.exit(f"{failed / golden} is missing")
        names = [run, "6.8-vanilla"] if first else ["6.8-vanilla", run]
        out.append({"golden": golden, "rc": f"out/{rc.name}", "tree": tree, "benchmark": bench,
                    "names": " ".join(names), "era": era, "run": run})
    return out


REAL_COLUMNS = ["golden", "rc", "tree", "benchmark", "print_ratio"]


def real_rows(real: Path) -> list[dict]:
    """real.sh: out/<root>/<bench>[--print-ratio].{oracle,rc}, the Perl's stdout and exit
    code on the tree mmtests_CI/work/<root> (the runs holding the benchmark's logs, sorted)."""
    out = []
    for rc in sorted((real / "out").glob("*/*.rc")):
        stem = rc.name.removesuffix(".rc")
        tree = f"mmtests_CI/work/{rc.parent.name}"
        golden = f"out/{rc.parent.name}/{stem}.oracle"
        if not (real / tree).is_dir() or not (real / golden).is_file():
            sys.exit(f"{rc}: its tree {real / tree} or {real / golden} is missing")
        out.append({"golden": golden, "rc": f"out/{rc.parent.name}/{rc.name}", "tree": tree,
                    "benchmark": stem.removesuffix(RATIO), "print_ratio": str(int(stem.endswith(RATIO)))})
    return out


def main() -> None:
    repo = repo_root(__file__)
    data = repo / "tests" / "data" / "mmtests"
    write(data / "goldens.csv", COLUMNS, rows(data))
    write(data / "e0-dbench4" / "goldens.csv", E0_COLUMNS, e0_rows(data / "e0-dbench4"))
    write(data / "monitors" / "goldens.csv", MONITOR_COLUMNS, monitor_rows(data / "monitors"))
    write(data / "partial" / "goldens.csv", PARTIAL_COLUMNS, partial_rows(data / "partial"))
    write(data / "failed" / "goldens.csv", FAILED_COLUMNS, failed_rows(data / "failed"))
    write(data / "real" / "goldens.csv", REAL_COLUMNS, real_rows(data / "real"))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Write the machine-readable manifests of the kernel-oracle goldens:
tests/data/idle/goldens.csv and tests/data/pelt/goldens.csv.

This is the one place that reads the goldens' file names (the names run_golden.sh and the
earlier harness of tests/data/idle/MANIFEST-old.txt give them); the Rust and Python tests
read the manifests and never parse a name. Run it after adding or regenerating goldens:

    python3 tools/oracles/kernel/manifest.py [REPO]

Idle (tests/data/idle/goldens.csv), one row per `<gov><tag>_<arch>_hz<HZ>_<trace>.golden.csv`:
    golden    the file, relative to tests/data/idle
    governor  menu | teo
    kernel    the kernel whose governor wrote it (the tag: "" 6.12, 61 6.1, 66 6.6, ...)
    arch      x86 | arm: the state table the oracle replayed
    hz        CONFIG_HZ of the oracle build
    states    the state table, relative to tests/data/idle
    trace     the idle trace, relative to tests/data/idle

PELT (tests/data/pelt/goldens.csv), one row per golden CSV (inputs/ excepted):
    golden    the file, relative to tests/data/pelt
    kind      replay (pelt_oracle trace) | decay_load | accumulate | util_est_update
    kernels   the kernels whose oracle wrote these bytes, space-separated, the one whose
              tree wrote the file first (tests/data/pelt/MANIFEST.txt: 6.18's replays,
              decay and accumulate equal 6.12's, 6.6's and 4.19's decay equal 6.12's,
              6.6's accumulate equals 6.12's; the migrations were run on 6.12 only)
    trace     replay: the input trace, relative to tests/data/pelt
    init      replay: the start state (kernel: post_init_entity_util_avg; zero: -i zero)
    util_est  replay: 1 with util_est, 0 for --no-util-est
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from manifest_csv import repo_root, write  # noqa: E402  (tools/oracles/manifest_csv.py)

GOLDEN = ".golden.csv"
# run_golden.sh's TAG (VERSION and PATCHLEVEL run together; "" for 6.12, whose files sit at
# the top) and the earlier harness's tags (MANIFEST-old.txt)
IDLE_TAGS = {"": "6.12", "61": "6.1", "66": "6.6", "618": "6.18", "418": "4.18", "419": "4.19",
             "420": "4.20", "51": "5.1"}
IDLE_COLUMNS = ["golden", "governor", "kernel", "arch", "hz", "states", "trace"]

PELT_COLUMNS = ["golden", "kind", "kernels", "trace", "init", "util_est"]
# run_golden.sh's PELT directories: 6.12 at the top, the others under VERSION.PATCHLEVEL/
PELT_TOP = "6.12"
# what each directory's files equal byte for byte (tests/data/pelt/MANIFEST.txt)
PELT_SAME = {
    (PELT_TOP, "replay"): ["6.18"],
    (PELT_TOP, "decay_load"): ["6.18", "6.6", "4.19"],
    (PELT_TOP, "accumulate"): ["6.18", "6.6"],
}
PELT_ONLY_ON_TOP = {"pelt_migrate"}  # the two-runqueue harness ran on 6.12 (and 4.19) only
PELT_KINDS = {"pelt_decay_load.csv": "decay_load", "pelt_accumulate.csv": "accumulate",
              "util_est_update.csv": "util_est_update"}


def idle_rows(idle: Path) -> list[dict[str, str]]:
    rows = []
    for path in sorted(idle.glob("*" + GOLDEN)):
        head, arch, hz, trace = path.name[: -len(GOLDEN)].split("_", 3)
        governor = head.rstrip("0123456789")
        if governor not in ("menu", "teo") or not hz.startswith("hz"):
            sys.exit(f"{path}: not <gov><tag>_<arch>_hz<HZ>_<trace>{GOLDEN}")
        states, trace_file = f"inputs/states_{arch}.csv", f"inputs/gov_{trace}.csv"
        for f in (states, trace_file):
            if not (idle / f).is_file():
                sys.exit(f"{path}: its input {idle / f} is missing")
        rows.append({"golden": path.name, "governor": governor, "kernel": IDLE_TAGS[head[len(governor):]],
                     "arch": arch, "hz": str(int(hz[2:])), "states": states, "trace": trace_file})
    return rows


def pelt_rows(pelt: Path) -> list[dict[str, str]]:
    rows = []
    for path in sorted(pelt.rglob("*.csv")):
        rel = path.relative_to(pelt)
        if rel.parts[0] == "inputs" or rel.name == "goldens.csv":
            continue
        kernel = rel.parts[0] if len(rel.parts) > 1 else PELT_TOP
        row = dict.fromkeys(PELT_COLUMNS, "")
        row["golden"] = rel.as_posix()
        if rel.name.endswith(GOLDEN):
            # pelt_<trace>[.init0|.noue].golden.csv: run_golden.sh's replays
            stem, *variant = rel.name[: -len(GOLDEN)].split(".")
            base = stem
            row.update(kind="replay", trace=f"inputs/{stem}.csv", init="kernel", util_est="1")
            if variant == ["init0"]:
                row["init"] = "zero"
            elif variant == ["noue"]:
                row["util_est"] = "0"
            elif variant:
                sys.exit(f"{path}: unknown variant {variant}")
            if not (pelt / row["trace"]).is_file():
                sys.exit(f"{path}: its input {pelt / row['trace']} is missing")
        else:
            base = ""
            if rel.name not in PELT_KINDS:
                sys.exit(f"{path}: not a golden run_golden.sh writes")
            row["kind"] = PELT_KINDS[rel.name]
        same = [] if base in PELT_ONLY_ON_TOP else PELT_SAME.get((kernel, row["kind"]), [])
        row["kernels"] = " ".join([kernel, *same])
        rows.append(row)
    return rows


def main() -> None:
    repo = repo_root(__file__)
    data = repo / "tests" / "data"
    write(data / "idle" / "goldens.csv", IDLE_COLUMNS, idle_rows(data / "idle"))
    write(data / "pelt" / "goldens.csv", PELT_COLUMNS, pelt_rows(data / "pelt"))


if __name__ == "__main__":
    main()

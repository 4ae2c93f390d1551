#!/bin/bash
# Goldens of MMTests 2018's dbench4 subselection rows and --print-ratio table
# (tests/data/mmtests/e0-dbench4/, docs/mmtests.md §4.8, §7.6): fuzzed trees from
# fuzz_dbench4_2018.py and what compare-mmtests.pl 2018 prints for them.
#   e0_dbench4.sh [OUT [N_FLAT N_SPREAD]]   (default tests/data/mmtests/e0-dbench4, 24 and 12 cases)
# flat/   trees without spread: the Perl's output does not depend on R's draws
# spread/ trees with spread: R draws (seeded by rseed/, as every oracle run); r/<case> holds
#         what R printed for each run and operation (`<run> <op> [1] <mean> <half>`), from
#         the same script, seed and samples; the script checks that every `Comparing
#         (cidiff)` line of the Perl's output shows one of them
# out/<set>-<case>[--print-ratio].oracle  the Perl's stdout (its `Comparing` lines included;
#         spread/ trees only --print-ratio: their tables' SubAmean rows are R's draws)
# <set>/cases  `<case> <run names>`
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../../../tests/data/mmtests/e0-dbench4}
NFLAT=${2:-24}
NSPREAD=${3:-12}
TREES=${MMTESTS_TREES:-/work/oracles/mmtests}
rm -rf "$OUT"
mkdir -p "$OUT/out" "$OUT/spread/r"
python3 "$HERE/fuzz_dbench4_2018.py" "$OUT/flat" 2018 "$NFLAT" flat > "$OUT/flat.cases"
python3 "$HERE/fuzz_dbench4_2018.py" "$OUT/spread" 1218 "$NSPREAD" spread > "$OUT/spread.cases"
mv "$OUT/flat.cases" "$OUT/flat/cases"
mv "$OUT/spread.cases" "$OUT/spread/cases"
for set in flat spread; do
	while read -r c names; do
		for r in table --print-ratio; do
			[ $set = spread ] && [ $r = table ] && continue
			[ $r = table ] && r=""
			"$HERE/oracle.sh" 2018 -d "$OUT/$set/$c" -b dbench4 -n "$names" $r > "$OUT/out/$set-$c$r.oracle"
		done
	done < "$OUT/$set/cases"
done
# R's own output for each run and operation of the spread trees, as compare-mmtests.pl
# 2018 asks for it (Stat.pm calc_submean_ci: the samples in time order as JSON on stdin)
export R_PROFILE_USER=$HERE/rseed/Rprofile MMTESTS_ORACLE_SEED=${MMTESTS_ORACLE_SEED:-12345}
python3 - "$OUT" "$TREES/2018/bin/lib/R/subselection-confidence-interval.R" <<'EOF'
import glob, json, os, re, subprocess, sys
out, script = sys.argv[1], sys.argv[2]
for line in open(f"{out}/spread/cases"):
    case, names = line.split()
    printed = {}
    with open(f"{out}/spread/r/{case}", "w") as rec:
        for name in names.split(","):
            logs = glob.glob(f"{out}/spread/{case}/dbench4-{name}/noprofile/dbench-*.log")
            for op in sorted(int(re.search(r"dbench-(\d+)\.log$", f).group(1)) for f in logs):
                rows = []
                for l in open(f"{out}/spread/{case}/dbench4-{name}/noprofile/dbench-{op}.log"):
                    e = l.split()
                    if "completed in" in l and int(e[3]) <= 1 << 31:
                        rows.append((int(e[7]), int(e[3])))
                # ExtractDbench4's sort_time: by time, passes of equal time in log order (Perl's sort is stable)
                units = [v for _, v in sorted(rows, key=lambda r: r[0])]
                r = subprocess.run(["/usr/bin/Rscript", script, "Amean"], input=json.dumps(units), text=True,
                                   capture_output=True, check=True).stdout.strip()
                rec.write(f"{name} {op} {r}\n")
                printed.setdefault(name, set()).add(tuple(r.split()[1:3]))
    # every Comparing line shows a pair R printed for one of the runs, against one it
    # printed for the baseline
    names = names.split(",")
    anyrun = set().union(*printed.values())
    lines = [l.split() for l in open(f"{out}/out/spread-{case}--print-ratio.oracle") if l.startswith("Comparing")]
    for l in lines:
        a, base = (l[2], l[3]), (l[4], l[5].rstrip(":"))
        if a not in anyrun or base not in printed[names[0]]:
            sys.exit(f"{case}: {' '.join(l)}: not a pair R printed for these samples")
    print(f"{case}: {len(lines)} Comparing lines match R's output")
EOF

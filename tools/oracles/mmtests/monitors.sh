#!/bin/bash
# Goldens of MMTests' monitors: the tree from gen_monitor_logs.py, and the tables of
# `compare-mmtests.pl --print-monitor MONITOR [--sub-heading S]` of each era (head, 2025, 2024).
# Writes tests/data/mmtests/monitors/{tree,out}/; out/<era>-<monitor>[_<sub-heading>].oracle
# (an empty file: the Perl printed no table). cases lists "monitor sub-heading" pairs.
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../../../tests/data/mmtests/monitors}
rm -rf "$OUT/tree" "$OUT/out"
mkdir -p "$OUT/out"
python3 "$HERE/gen_monitor_logs.py" "$OUT/tree"
N=6.8-vanilla,6.9-teo,6.9-menu
B=hackbench-process-pipes
while read -r mon sub; do
	[ -z "$mon" ] && continue
	for era in head 2025 2024; do
		f="$OUT/out/$era-$mon${sub:+_$sub}.oracle"
		"$HERE/oracle.sh" $era -d "$OUT/tree" -b $B -n $N --print-monitor "$mon" ${sub:+--sub-heading "$sub"} \
			> "$f" 2>/dev/null || true
	done
done < "$OUT/cases"

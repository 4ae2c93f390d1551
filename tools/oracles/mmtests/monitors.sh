#!/bin/bash
# Goldens of MMTests' monitors: trees from gen_monitor_logs.py (tree: procps/sysstat 12.6
# layouts as captured on the build machine; tree-old, --old: sysstat 10/11 iostat and
# turbostat 4.x), and the tables of `compare-mmtests.pl --print-monitor MONITOR
# [--sub-heading S]` of each era (head, 2025, 2024). Writes tests/data/mmtests/monitors/
# {tree,tree-old,out}/; out/[old-]<era>-<monitor>[_<sub-heading>].oracle (an empty file: the
# Perl printed no table). cases and cases-old list the "monitor [sub-heading]" pairs.
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../../../tests/data/mmtests/monitors}
rm -rf "$OUT/tree" "$OUT/tree-old" "$OUT/out"
mkdir -p "$OUT/out"
python3 "$HERE/gen_monitor_logs.py" "$OUT/tree"
python3 "$HERE/gen_monitor_logs.py" "$OUT/tree-old" --old
N=6.8-vanilla,6.9-teo,6.9-menu
B=hackbench-process-pipes
goldens() { # tree cases prefix
	while read -r mon sub; do
		[ -z "$mon" ] && continue
		for era in head 2025 2024; do
			f="$OUT/out/$3$era-$mon${sub:+_$sub}.oracle"
			"$HERE/oracle.sh" $era -d "$OUT/$1" -b $B -n $N --print-monitor "$mon" ${sub:+--sub-heading "$sub"} \
				> "$f" 2>/dev/null || true
		done
	done < "$OUT/$2"
}
goldens tree cases ""
goldens tree-old cases-old old-

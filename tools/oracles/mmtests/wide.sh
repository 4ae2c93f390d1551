#!/bin/bash
# Goldens of tables with 21 kernels (compare-mmtests.pl builds one cell format per kernel
# from 2019 on; 2018 builds (statistics + 2)). Writes tests/data/mmtests/wide/{legacy,head}
# (wide/2024: the dbench4/tbench4 logs MMTests 2024 writes)
# and wide/out/<era>-<benchmark>[--print-ratio].oracle. Needs setup_trees.sh's trees.
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../../../tests/data/mmtests/wide}
rm -rf "$OUT/legacy" "$OUT/head" "$OUT/2024"
python3 "$HERE/gen_logs.py" "$OUT" --kernels 21 --only netperf-udp,tbench,dbench --layout-2024 >/dev/null
mkdir -p "$OUT/out"
NAMES=$(ls "$OUT/legacy" | sort -V | paste -sd,)
echo "$NAMES" > "$OUT/names"
run() { # era tree bench
	for r in "" --print-ratio; do
		"$HERE/oracle.sh" "$1" -d "$OUT/$2" -b "$3" -n "$NAMES" $r > "$OUT/out/$1-$3$r.oracle" 2>/dev/null || true
	done
}
run 2024 legacy netperf-udp
for b in tbench4 dbench4; do run 2024 2024 $b; run 2025 legacy $b; done
run 2025 legacy netperf-udp
for b in netperf-ipv4-udp tbench dbench; do run head head $b; done

#!/bin/bash
# Goldens of the GNU-time families (declarative specs): trees from gen_time_logs.py, tables
# from compare-mmtests.pl of each era that has the family. Writes tests/data/mmtests/time/
# {head,legacy}/ and time/out/<era>-<benchmark>[--print-ratio].oracle.
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../../../tests/data/mmtests/time}
rm -rf "$OUT/head" "$OUT/legacy" "$OUT/out"
python3 "$HERE/gen_time_logs.py" "$OUT" >/dev/null
mkdir -p "$OUT/out"
N=6.8-vanilla,6.9-patched
run() { # era tree bench
	for r in "" --print-ratio; do
		"$HERE/oracle.sh" "$1" -d "$OUT/$2" -b "$3" -n $N $r > "$OUT/out/$1-$3$r.oracle" 2>/dev/null || true
	done
}
for b in $(ls "$OUT/head/6.8-vanilla/iter-0"); do run head head $b; done
for e in 2024 2025; do run $e legacy kernbench; run $e legacy usemem; done

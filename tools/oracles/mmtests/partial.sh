#!/bin/bash
# Goldens of compare-mmtests.pl's partial tables (tests/data/mmtests/partial/, docs/mmtests.md §12):
# runs whose harmonic mean divides by zero (every sample 0), beside good runs, in every
# position, with 1 to 4 runs, normal and --print-ratio, in every era (2025 and head lose
# the run; 2018 and 2024 print MMTests' -1 "missing" instead).
#   partial.sh [OUT]   (default tests/data/mmtests/partial; trees from gen_partial_logs.py)
# out/<era>-<benchmark>-<case>[--print-ratio].oracle  the Perl's stdout
#                                              .err     its stderr (the trees' path written MMTESTS)
#                                              .rc      its exit code
# `cases` lists `<case> <run names>`.
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../../../tests/data/mmtests/partial}
TREES=${MMTESTS_TREES:-/work/oracles/mmtests}
rm -rf "$OUT"
mkdir -p "$OUT/out"
python3 "$HERE/gen_partial_logs.py" "$OUT"
cat > "$OUT/cases" <<'EOF'
two-last 6.8-vanilla,6.9-zero
two-base 6.9-zero,6.8-vanilla
one-base 6.9-zero
three-middle 6.8-vanilla,6.9-zero,6.9-good
three-last 6.8-vanilla,6.9-good,6.9-zero
three-both 6.8-vanilla,6.9-zero,6.11-zero
four-second 6.8-vanilla,6.9-zero,6.9-good,6.10-rc1-good
four-last-two 6.8-vanilla,6.9-good,6.9-zero,6.11-zero
four-middle-two 6.8-vanilla,6.9-zero,6.11-zero,6.10-rc1-good
four-second-last 6.8-vanilla,6.9-zero,6.9-good,6.11-zero
later-op 6.8-vanilla,6.12-zero64,6.9-good
mixed 6.8-vanilla,6.13-mixed,6.9-zero,6.9-good
EOF
while read -r c names; do
	for eb in 2018:2018:netperf-udp-rr 2024:legacy:netperf-udp-rr 2025:legacy:netperf-udp-rr \
			2025:legacy:sockperf-udp-throughput head:head:netperf-ipv4-udp-rr; do
		IFS=: read -r era layout b <<< "$eb"
		[ $era = 2018 ] && [ $c != four-middle-two ] && [ $c != two-last ] && continue
		[ $era = 2024 ] && [ $c != four-middle-two ] && [ $c != two-last ] && continue
		for r in "" --print-ratio; do
			f=$OUT/out/$era-$b-$c$r
			set +e
			"$HERE/oracle.sh" $era -d "$OUT/$layout" -b $b -n "$names" $r > "$f.oracle" 2> "$f.err"
			echo $? > "$f.rc"
			set -e
			sed -i "s|$TREES/$era/|MMTESTS/|g; s|$(cd "$TREES" && pwd -P)/$era/|MMTESTS/|g" "$f.err"
		done
	done
done < "$OUT/cases"

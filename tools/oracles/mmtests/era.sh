#!/bin/bash
# Goldens of era detection (tests/data/mmtests/era/): a tree whose files only one
# MMTests era reads, and what each era's compare-mmtests.pl prints for it.
#
# schbench-old/: schbench before 2023 ("Latency percentiles (usec)" blocks, the logs of
# logs-2018/) in the iter-N layout of MMTests 2024. out/<era>-schbench.oracle is each
# era's stdout (empty: it printed nothing or died; .rc holds the exit code).
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=$HERE/../../../tests/data/mmtests
OUT=$DATA/era
rm -rf "$OUT/schbench-old" "$OUT/out"
mkdir -p "$OUT/out"
for k in 4.18.0-vanilla 4.18.0-teo; do
	d=$OUT/schbench-old/$k/iter-0/schbench/logs
	mkdir -p "$d"
	cp "$DATA/logs-2018/schbench-$k/noprofile/"schbench-*.log "$d/"
	printf 'start :: 1545000000\ntest begin :: schbench 1545000001\ntest end :: schbench 1545000301\nstatus :: 0\n' \
		> "$OUT/schbench-old/$k/iter-0/tests-timestamp"
done
for era in 2024 2025 head; do
	set +e
	"$HERE/oracle.sh" $era -d "$OUT/schbench-old" -b schbench -n 4.18.0-vanilla,4.18.0-teo \
		> "$OUT/out/$era-schbench.oracle" 2>/dev/null
	echo $? > "$OUT/out/$era-schbench.rc"
	set -e
done

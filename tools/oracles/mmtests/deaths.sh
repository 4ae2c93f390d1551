#!/bin/bash
# Trees on which compare-mmtests.pl dies, one per class of Perl death that the
# families' trees do not already show (tests/data/mmtests/deaths/): each era's
# stdout, stderr and exit code in out/<class>-<era>.{oracle,stderr,rc}.
#
#   futex-unit: perffutexwake times in "us" (ExtractPerffutexwake: die "Units of time
#               us not recognised");
#   no-data:    xsbench without its xsbench-<T>-1.log.gz files (ExtractXsbench: die("No data"));
#   unknown:    a benchmark no era has an extractor for.
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=$HERE/../../../tests/data/mmtests
OUT=$DATA/deaths
FAM=$DATA/families/2025
rm -rf "$OUT"
mkdir -p "$OUT/out"
for k in 6.8-vanilla 6.9-patched; do
	d=$OUT/futex-unit/$k/iter-0/perffutexwake/logs
	mkdir -p "$d"
	for f in "$FAM/$k/iter-0/perffutexwake/logs/"*.log.gz; do
		zcat "$f" | sed 's/ ms$/ us/' | gzip -n > "$d/$(basename "$f")"
	done
	d=$OUT/no-data/$k/iter-0/xsbench/logs
	mkdir -p "$d"
	cp "$FAM/$k/iter-0/xsbench/logs/"*.time "$d/"
	d=$OUT/unknown/$k/iter-0/nosuchbench/logs
	mkdir -p "$d"
	echo "Total time: 1.0" > "$d/nosuchbench-1.log"
done
run() { # class benchmark era
	set +e
	"$HERE/oracle.sh" "$3" -d "$OUT/$1" -b "$2" -n 6.8-vanilla,6.9-patched \
		> "$OUT/out/$1-$3.oracle" 2> "$OUT/out/$1-$3.stderr"
	echo $? > "$OUT/out/$1-$3.rc"
	set -e
	sed -i -e "s|$OUT|DEATHS|g" -e "s|${MMTESTS_TREES:-/work/oracles/mmtests}|MMTESTS|g" "$OUT/out/$1-$3.stderr"
}
for era in 2024 2025; do
	run futex-unit perffutexwake $era
	run no-data xsbench $era
done
for era in 2025 head; do
	run unknown nosuchbench $era
done

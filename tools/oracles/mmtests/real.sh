#!/bin/bash
# A real, published MMTests result tree and what compare-mmtests.pl of the MMTests that
# wrote it prints on it. Writes tests/data/mmtests/real/ (README.md there: source,
# commit, licence):
#   mmtests_CI/work/log.<host>.<date>/<run>/iter-0/{tests-timestamp,kernel.version,<bench>/logs/}
#       the runs the tests need, monitors left out, every file as the tree had it
#   out/<root>/<bench>[--print-ratio].{oracle,rc}: stdout and exit code of MMTests 025ef72e's
#       (2020-05-13, the bin/ the tree's repository carries) compare-mmtests.pl -d <root>
#       -b <bench> -n <every run of bench, sorted>
# Usage: REAL_GIT=<git dir of github.com/prashantph/mmtests_CI> MMTESTS_GIT=<git dir of
#        github.com/gormanm/mmtests> real.sh [DATA (default tests/data/mmtests)]
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=${1:-$HERE/../../../tests/data/mmtests}
OUT=$DATA/real
REAL=${REAL_GIT:?set REAL_GIT to a git dir of prashantph/mmtests_CI}
COMMIT=51a0abcb240e9e56d5a5ecde4f55e3c3a4979177   # 2020-06-19 "adding recent file changes"
MMTESTS_2020=025ef72e8a3804982b1f4bdbe089e2d7e3a21b22
ROOTS="log.ltccip8.2020-06-12_1807 log.ltccip8.2020-06-14_0656"
RUNS="netperf-unbound sockperf-unbound sockperf-tcp-throughput hackbench-process-pipes forkintensive schbench
perfsyscall sysbench-postgres-oltp-rw-small sysbench-mariadb-oltp-ro-small iperf-s14-r10000-tcp-unbound
usemem-stress-numa-compact usemem-swap-ramdisk stream-omp-nodes blogbench"

# the 2020 MMTests tree (oracle.sh 2020; its Stat.pm imports List::BinarySearch: perl2020/ stands in)
TREE=${MMTESTS_TREES:-/work/oracles/mmtests}/2020
if [ ! -x "$TREE/bin/compare-mmtests.pl" ]; then
	mkdir -p "$TREE"
	git --git-dir="${MMTESTS_GIT:?set MMTESTS_GIT to a git dir of gormanm/mmtests}" archive $MMTESTS_2020 | tar -x -C "$TREE"
fi

rm -rf "$OUT/mmtests_CI" "$OUT/out"
mkdir -p "$OUT/mmtests_CI" "$OUT/out"
paths=()
for root in $ROOTS; do
	for run in $RUNS; do
		base=work/$root/$run/iter-0
		while IFS= read -r p; do
			case $p in
				$base/tests-timestamp|$base/kernel.version|$base/*/logs/*) paths+=("$p") ;;
			esac
		done < <(git --git-dir="$REAL" ls-tree -r --name-only $COMMIT -- "$base")
	done
done
git --git-dir="$REAL" archive $COMMIT -- "${paths[@]}" | tar -x -C "$OUT/mmtests_CI"

for root in $ROOTS; do
	dir=$OUT/mmtests_CI/work/$root
	mkdir -p "$OUT/out/$root"
	for bench in $(cd "$dir" && ls -d */iter-0/*/logs | cut -d/ -f3 | sort -u); do
		names=$(cd "$dir" && ls -d */iter-0/$bench/logs | cut -d/ -f1 | sort | paste -sd,)
		for opt in "" --print-ratio; do
			f=$OUT/out/$root/$bench$opt
			set +e
			"$HERE/oracle.sh" 2020 -d "$dir" -b "$bench" -n "$names" $opt > "$f.oracle" 2>/dev/null
			echo $? > "$f.rc"
			set -e
			echo "$root $bench $names $opt: rc $(cat "$f.rc")"
		done
	done
done

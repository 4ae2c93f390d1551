#!/bin/bash
# Trees of benchmarks that failed or aborted, as MMTests leaves them, and what
# compare-mmtests.pl of each era does on them. Writes tests/data/mmtests/failed/:
#   <layout>/6.8-vanilla   a good run (copied from logs-<layout>)
#   <layout>/failed        every benchmark's logs/ holds only mmtests.log (run-single-test.sh
#                          failed; tests-timestamp records exit code 1)
#   <layout>/aborted       every result file exists but is empty (netperf's protocols kept)
#   out/<era>-<bench>-<run>[-first].{oracle,rc}: the Perl's stdout and exit code with the run
#                          second (or first, the baseline) beside 6.8-vanilla
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=${1:-$HERE/../../../tests/data/mmtests}
OUT=$DATA/failed
rm -rf "$OUT"; mkdir -p "$OUT/out"
stamp() { # dir code bench... : tests-timestamp as run-mmtests.sh writes it
	local dir=$1 code=$2 t=1700000000; shift 2
	{ echo "start :: $t"
	  for b in "$@"; do
		echo "test begin :: $b $((t += 1))"; echo "test end :: $b $((t += 99)) $code"
		echo "time :: $b 0.01 user 0.05 system 99.00 elapsed"
	  done
	  echo "finish :: $((t + 1))"; } > "$dir/tests-timestamp"
}
for layout in legacy head; do
	case $layout in legacy) benches="hackbench-process-pipes netperf-udp" ;; head) benches="hackbench-process-pipes netperf-ipv4-udp" ;; esac
	for b in $benches; do
		mkdir -p "$OUT/$layout/6.8-vanilla/iter-0" "$OUT/$layout/failed/iter-0/$b/logs" "$OUT/$layout/aborted/iter-0"
		cp -r "$DATA/logs-$layout/6.8-vanilla/iter-0/$b" "$OUT/$layout/6.8-vanilla/iter-0/"
		echo "run-single-test.sh: $b failed" | gzip -n > "$OUT/$layout/failed/iter-0/$b/logs/mmtests.log.gz"
		cp -r "$DATA/logs-$layout/6.8-vanilla/iter-0/$b" "$OUT/$layout/aborted/iter-0/"
		find "$OUT/$layout/aborted/iter-0/$b" -type f ! -name protocols | while read -r f; do
			case $f in *.xz) printf '' | xz > "$f" ;; *.gz) printf '' | gzip -n > "$f" ;; *) : > "$f" ;; esac
		done
	done
	stamp "$OUT/$layout/6.8-vanilla/iter-0" 0 $benches
	stamp "$OUT/$layout/failed/iter-0" 1 $benches
	stamp "$OUT/$layout/aborted/iter-0" 0 $benches
done
for e in 2024 2025 head; do
	layout=legacy; [ $e = head ] && layout=head
	for b in $(ls "$OUT/$layout/6.8-vanilla/iter-0" | grep -v tests-timestamp); do
		for k in failed aborted; do
			for order in second first; do
				if [ $order = first ]; then n=$k,6.8-vanilla; f=$e-$b-$k-first; else n=6.8-vanilla,$k; f=$e-$b-$k; fi
				set +e
				"$HERE/oracle.sh" $e -d "$OUT/$layout" -b $b -n $n > "$OUT/out/$f.oracle" 2>/dev/null
				echo $? > "$OUT/out/$f.rc"
				set -e
			done
		done
	done
done

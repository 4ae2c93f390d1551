#!/bin/bash
# The benchmark families schedlab reproduces byte for byte, per era: a family counts when a
# non-empty golden of its normal table exists (tests/data/mmtests/{out,time/out,wide/out,
# families/out}; an empty golden is a Perl death, which schedlab refuses). Variants of one
# family count once: netperf-*, iperf3-*, hackbench-*, sockperf-*, futexbench-*, wis-*,
# dbench/tbench (and dbench4/tbench4), perfbench-*.
#   count_families.sh [-v]    -v also lists the families
D=${MMTESTS_GOLDENS:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../tests/data/mmtests" && pwd)}
for era in 2018 2024 2025 head; do
	fams=$(for f in "$D"/out/$era-*.oracle "$D"/time/out/$era-*.oracle "$D"/wide/out/$era-*.oracle \
			"$D"/families/out/$era-*.oracle; do
		[ -s "$f" ] || continue
		b=$(basename "$f" .oracle)
		case "$b" in *--print-ratio*|*--sub-heading*) continue ;; esac
		b=${b#$era-}
		case "$b" in
		netperf-*) b=netperf ;; iperf3-*) b=iperf3 ;; hackbench-*) b=hackbench ;;
		sockperf-*) b=sockperf ;; futexbench-*) b=futexbench ;; wis-*) b=wis ;;
		perfbench-*) b=perfbench ;; dbench*|tbench*) b=dbench/tbench ;;
		esac
		echo "$b"
	done | sort -u)
	echo "$era: $(echo "$fams" | grep -c .)"
	[ "$1" = -v ] && echo "$fams" | tr '\n' ' ' && echo
done

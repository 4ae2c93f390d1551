#!/bin/bash
# Goldens of the line-result families and the 2024/2025 GNU-time modules (declarative specs,
# tests/data/mmtests/families/): trees from gen_family_logs.py (one per era: head, 2025, 2024),
# tables from compare-mmtests.pl of each era that has the family, normal and --print-ratio, as
# out/<era>-<bench>[--print-ratio].oracle (an empty file: that era's Perl dies there).
# families.sh [DIR [BENCH...]] redoes only BENCH (the trees are rewritten: they are seeded).
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../../../tests/data/mmtests/families}
shift || true
N=6.8-vanilla,6.9-patched,6.10-rc1
SUBSELECTION="bonniepp"
rm -rf "$OUT/head" "$OUT/2025" "$OUT/2024"
[ $# -eq 0 ] && rm -rf "$OUT/out"
python3 "$HERE/gen_family_logs.py" "$OUT" >/dev/null
mkdir -p "$OUT/out"
BENCHES="$*"
[ -z "$BENCHES" ] && BENCHES=$(ls "$OUT"/*/6.8-vanilla/iter-0 | grep -v : | sort -u)
for b in $BENCHES; do
	for era in head 2025 2024; do
		[ -d "$OUT/$era/6.8-vanilla/iter-0/$b" ] || continue
		for r in "" --print-ratio; do
			"$HERE/oracle.sh" $era -d "$OUT/$era" -b $b -n $N $r > "$OUT/out/$era-$b$r.oracle" 2>/dev/null || true
		done
		# An era that cannot extract the benchmark at all (the normal table dies, e.g. head's
		# cyclictest/parse-results calls an undefined subroutine) still prints a lone
		# `Gmean NaN` row with --print-ratio, from no data; schedlab refuses both. (A normal
		# table that dies on its bands, as 2025's does for an operation without samples, can
		# still have a real ratio table: that one is kept.)
		[ -s "$OUT/out/$era-$b.oracle" ] || grep -q '^Ratio ' "$OUT/out/$era-$b--print-ratio.oracle" ||
			: > "$OUT/out/$era-$b--print-ratio.oracle"
		# A Subselection family's --print-ratio compares SubAmean, a random subselection upstream
		# (numpy; head's script also needs scipy, without which every SubAmean is 0): no golden
		case " $SUBSELECTION " in *" $b "*) rm -f "$OUT/out/$era-$b--print-ratio.oracle" ;; esac
	done
done
# --sub-heading goldens whose table differs from the plain one (head's shellpack.yaml entries
# for the sub-heading: redis-memtier's ops/sec says preferhigher), named
# <era>-<bench>--sub-heading_<X>[--print-ratio].oracle with a / of X written %2F
for spec in head:redis-memtier:ops/sec; do
	IFS=: read era b sub <<< "$spec"
	case " $BENCHES " in *" $b "*) ;; *) continue ;; esac
	for r in "" --print-ratio; do
		"$HERE/oracle.sh" $era -d "$OUT/$era" -b $b -n $N --sub-heading "$sub" $r \
			> "$OUT/out/$era-$b--sub-heading_${sub//\//%2F}$r.oracle" 2>/dev/null || true
	done
done

#!/bin/bash
# Build the userspace oracles from one kernel source tree and write its golden CSVs.
#
#   run_golden.sh KSRC OUT [TAG]
#
# KSRC: an unpacked kernel tree (only the files listed in README.md are read).
# OUT:  where the goldens go; OUT/idle and OUT/pelt mirror tests/data/idle and tests/data/pelt.
# TAG:  the version tag of the file names: governors as <gov><TAG>_<states>_hz<HZ>_<trace>,
#       PELT under OUT/pelt/<VERSION.PATCHLEVEL>/ ("" = 6.12, whose files sit at the top).
#       Default: VERSION and PATCHLEVEL run together (6.18 -> 618).
# GOV_ONLY=1: governors only (6.1: its fair.c predates the extracted PELT functions).
# PELT_ONLY=1: PELT only (4.19: its cpuidle.c has no poll limit, its governors are not replayed).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
KSRC=$(cd "$1" && pwd)
OUT=$2
mk() { awk -v k="$1" '$1==k && $2=="=" {print $3; exit}' "$KSRC/Makefile"; }
V=$(mk VERSION); P=$(mk PATCHLEVEL); S=$(mk SUBLEVEL)
KVER="$V.$P.$S"
KV=$((V * 100 + P))
TAG=${3-$V$P}
BUILD=$HERE/build/$KVER
echo "kernel source: $KSRC ($KVER), tag '$TAG'"
mkdir -p "$BUILD/ksrc" "$OUT/idle/inputs" "$OUT/pelt"

# pelt.h of 6.18 includes "sched.h" next to itself: compile copies of the three PELT
# files (unmodified) from a directory whose "sched.h" is an empty stub.
cp "$KSRC/kernel/sched/pelt.c" "$KSRC/kernel/sched/pelt.h" "$KSRC/kernel/sched/sched-pelt.h" "$BUILD/ksrc/"
: > "$BUILD/ksrc/sched.h"
GOV_ONLY=${GOV_ONLY:-}
PELT_ONLY=${PELT_ONLY:-}
python3 "$HERE/extract.py" "$KSRC" "$BUILD/gen" ${GOV_ONLY:+--gov-only} ${PELT_ONLY:+--pelt-only}
CFLAGS="-O2 -std=gnu11 -Wall -Wno-unused-function -Wno-unused-const-variable -Wno-format-truncation -Wno-maybe-uninitialized -DKV=$KV"
[ -n "$GOV_ONLY" ] || gcc $CFLAGS -iquote "$BUILD" -iquote "$HERE" -iquote "$BUILD/ksrc" -I "$HERE/stubinc" \
    -o "$BUILD/pelt_oracle" "$HERE/pelt_oracle.c"

GOVDIR=$KSRC/drivers/cpuidle/governors
TEOFLAGS=""
if [ -z "$PELT_ONLY" ]; then
for f in recent tick_hits tick_intercepts total_tick short_idles utilized; do
  grep -qE "cpu_data->$f\b|unsigned int $f;|bool $f;" "$GOVDIR/teo.c" && TEOFLAGS="$TEOFLAGS -DTEO_HAS_$f"
done
fi
IN=$BUILD/inputs
python3 "$HERE/gen_traces.py" "$IN"
[ -n "$PELT_ONLY" ] || for hz in 250 1000; do
  for g in menu teo; do
    G=$(echo $g | tr a-z A-Z)
    gcc $CFLAGS $TEOFLAGS -DHZ=$hz -DGOV_$G -iquote "$BUILD" -iquote "$HERE" -I "$HERE/stubinc" \
        -iquote "$GOVDIR" -o "$BUILD/gov_${g}_hz$hz" "$HERE/gov_oracle.c"
  done
done

[ -n "$PELT_ONLY" ] || cp "$IN"/gov_*.csv "$IN"/states_*.csv "$OUT/idle/inputs/"

# governors: x86 states at HZ=250, ARM states at HZ=1000
[ -n "$PELT_ONLY" ] || for g in menu teo; do
  for c in x86:250 arm:1000; do
    s=${c%:*}; hz=${c#*:}
    for t in "$IN"/gov_*.csv; do
      n=$(basename "$t" .csv)
      "$BUILD/gov_${g}_hz$hz" "$IN/states_$s.csv" "$t" > "$OUT/idle/${g}${TAG}_${s}_hz${hz}_${n#gov_}.golden.csv"
    done
  done
done

# PELT / util_est
if [ -z "$GOV_ONLY" ]; then
PD=$OUT/pelt/$V.$P
[ -z "$TAG" ] && PD=$OUT/pelt
mkdir -p "$PD/inputs"
cp "$IN"/pelt_*.csv "$PD/inputs/"
"$BUILD/pelt_oracle" decay      > "$PD/pelt_decay_load.csv"
"$BUILD/pelt_oracle" accumulate > "$PD/pelt_accumulate.csv"
"$BUILD/pelt_oracle" utilest    > "$PD/util_est_update.csv"
for t in "$IN"/pelt_*.csv; do
  n=$(basename "$t" .csv)
  "$BUILD/pelt_oracle" trace "$t" -i kernel > "$PD/${n}.golden.csv"
done
"$BUILD/pelt_oracle" trace "$IN/pelt_periodic50.csv" -i zero > "$PD/pelt_periodic50.init0.golden.csv"
"$BUILD/pelt_oracle" trace "$IN/pelt_execl_like.csv" -i kernel --no-util-est > "$PD/pelt_execl_like.noue.golden.csv"
rm -f "$PD/pelt_random.golden.csv"   # not kept in tests/data
fi

{
  echo "kernel $KVER (tag '$TAG'): goldens of tools/oracles/kernel/run_golden.sh"
  echo "generated: $(date -u +%Y-%m-%dT%H:%M:%SZ)  gcc: $(gcc --version | head -1)"
  echo "sha256 and git blob id of the kernel files compiled or extracted:"
  for f in Makefile kernel/sched/pelt.c kernel/sched/pelt.h kernel/sched/sched-pelt.h kernel/sched/fair.c \
           kernel/sched/sched.h include/linux/sched.h include/linux/sched/cpufreq.h \
           drivers/cpuidle/governors/menu.c drivers/cpuidle/governors/teo.c \
           drivers/cpuidle/governors/gov.h drivers/cpuidle/cpuidle.c; do
    [ -f "$KSRC/$f" ] || continue
    echo "  $(sha256sum < "$KSRC/$f" | cut -d' ' -f1)  blob $(git hash-object "$KSRC/$f")  $f"
  done
} > "$BUILD/MANIFEST.part"
cat "$BUILD/MANIFEST.part"

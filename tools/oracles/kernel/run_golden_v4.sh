#!/bin/bash
# Build the v4.18-v5.1 governor oracle (gov_oracle_v4.c) from the kernel files that
# fetch_v4.sh fetched and write the menu418/menu419/menu420/teo51 goldens.
#
#   run_golden_v4.sh SRC OUT
#
# SRC: fetch_v4.sh's DEST (SRC/<tag>/drivers/cpuidle/...); every file's git blob id is
#      checked against sources_v4.txt first.
# OUT: the goldens go to OUT/idle/<gov><ver>_<states>_hz<HZ>_<trace>.golden.csv:
#      x86 states at HZ=250 and ARM states at HZ=1000 (the ones tests/data/idle keeps);
#      ALL_HZ=1 adds x86 at HZ=1000 and ARM at HZ=250 (MANIFEST-old.txt keeps their sha256).
# INPUTS: the traces and states tables (default: tests/data/idle/inputs of this checkout;
#      gen_traces.py writes the same files).
# CHECK=DIR: compare each golden written with DIR/<name> (or, when DIR has no such file,
#      with the sha256 DIR/MANIFEST-old.txt lists for it) and print how many are identical;
#      exit 1 if any differs or is missing.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: $0 SRC OUT" >&2; exit 2; }
SRC=$(cd "$1" && pwd)
OUT=$2
IN=${INPUTS:-$HERE/../../../tests/data/idle/inputs}
BUILD=$HERE/build/v4
mkdir -p "$BUILD" "$OUT/idle"

# 1. the kernel files are the ones sources_v4.txt names
while read -r tag repo commit prefix kpath blob; do
  case $tag in ''|'#'*) continue ;; esac
  f=$SRC/$tag/$kpath
  [ -f "$f" ] || { echo "$f: missing (run fetch_v4.sh)" >&2; exit 1; }
  got=$(git hash-object "$f")
  [ "$got" = "$blob" ] || { echo "$f: git blob $got, expected $blob" >&2; exit 1; }
done < "$HERE/sources_v4.txt"

# 2. what gov_oracle_v4.c mirrors by hand from the support files still holds
need() {  # FILE EXTENDED-REGEX WHAT
  grep -qE "$2" "$SRC/$1" || { echo "$SRC/$1: no longer has $3; gov_oracle_v4.c must follow" >&2; exit 1; }
}
for t in v4.18 v4.19.1 v4.20 v5.1.9; do
  need $t/drivers/cpuidle/governor.c 'return device_req < global_req \? device_req : global_req;' "min(device, global) latency_req"
  need $t/drivers/cpuidle/governor.c 'int global_req = pm_qos_request\(PM_QOS_CPU_DMA_LATENCY\);' "the int (us) global PM QoS request"
  need $t/drivers/cpuidle/cpuidle.c 'diff = ktime_us_delta\(time_end, time_start\);' "last_residency in us"
  need $t/drivers/cpuidle/cpuidle.c 'dev->last_residency = \(int\) ?diff;' "last_residency as an int"
  need $t/drivers/cpuidle/cpuidle.c 'if \(diff > INT_MAX\)' "last_residency capped at INT_MAX"
done
for t in v4.18 v4.19.1; do
  need $t/drivers/cpuidle/poll_state.c '#define POLL_IDLE_TIME_LIMIT[[:space:]]+\(TICK_NSEC / 16\)' "the TICK_NSEC/16 poll limit"
  need $t/drivers/cpuidle/poll_state.c 'local_clock\(\) - time_start > POLL_IDLE_TIME_LIMIT' "the poll time-out test"
done
need v4.20/drivers/cpuidle/poll_state.c 'u64 limit = \(u64\)drv->states\[1\]\.target_residency \* NSEC_PER_USEC;' "the states[1] poll limit"
need v5.1.9/drivers/cpuidle/poll_state.c 'u64 limit = TICK_NSEC;' "the TICK_NSEC default poll limit"
need v5.1.9/drivers/cpuidle/poll_state.c 'limit = \(u64\)drv->states\[i\]\.target_residency \* NSEC_PER_USEC;' "the first-enabled-state poll limit"
for t in v4.20 v5.1.9; do
  need $t/drivers/cpuidle/poll_state.c 'dev->poll_time_limit = false;' "poll_time_limit cleared on entry"
  need $t/drivers/cpuidle/poll_state.c 'if \(local_clock\(\) - time_start > limit\) \{' "the poll time-out test"
  need $t/drivers/cpuidle/poll_state.c 'dev->poll_time_limit = true;' "poll_time_limit set on time-out"
done

# 3. build: one binary per version and HZ
CFLAGS="-O2 -std=gnu11 -Wall -Wno-unused-function -Wno-unused-const-variable -Wno-format-truncation -Wno-maybe-uninitialized"
VERSIONS="menu418:418:v4.18:menu.c menu419:419:v4.19.1:menu.c menu420:420:v4.20:menu.c teo51:501:v5.1.9:teo.c"
for v in $VERSIONS; do
  IFS=: read -r name kv tag file <<< "$v"
  G=$(echo "${file%.c}" | tr a-z A-Z)
  for hz in 250 1000; do
    gcc $CFLAGS -DKV=$kv -DHZ=$hz -DGOV_$G -iquote "$HERE" -I "$HERE/stubinc" \
        -iquote "$SRC/$tag/drivers/cpuidle/governors" -o "$BUILD/${name}_hz$hz" "$HERE/gov_oracle_v4.c"
  done
done

# 4. goldens
COMBOS="x86:250 arm:1000"
[ -n "${ALL_HZ:-}" ] && COMBOS="x86:250 x86:1000 arm:250 arm:1000"
written=()
for v in $VERSIONS; do
  name=${v%%:*}
  for c in $COMBOS; do
    s=${c%:*}; hz=${c#*:}
    for t in "$IN"/gov_*.csv; do
      n=$(basename "$t" .csv)
      g=${name}_${s}_hz${hz}_${n#gov_}.golden.csv
      "$BUILD/${name}_hz$hz" "$IN/states_$s.csv" "$t" > "$OUT/idle/$g"
      written+=("$g")
    done
  done
done

# 5. the facts MANIFEST-old.txt records
echo "goldens of tools/oracles/kernel/run_golden_v4.sh"
echo "generated: $(date -u +%Y-%m-%dT%H:%M:%SZ)  gcc: $(gcc --version | head -1)"
echo "flags: $CFLAGS -DKV={418,419,420,501} -DHZ={250,1000} -DGOV_{MENU,TEO}"
echo "kernel files (sha256, git blob):"
while read -r tag repo commit prefix kpath blob; do
  case $tag in ''|'#'*) continue ;; esac
  echo "  $(sha256sum < "$SRC/$tag/$kpath" | cut -d' ' -f1)  blob $blob  $tag/$kpath"
done < "$HERE/sources_v4.txt"
echo "golden files (sha256):"
for g in "${written[@]}"; do
  echo "  $(sha256sum < "$OUT/idle/$g" | cut -d' ' -f1)  $g"
done

# 6. optional comparison with the committed goldens
if [ -n "${CHECK:-}" ]; then
  same=0; bad=0
  for g in "${written[@]}"; do
    if [ -f "$CHECK/$g" ]; then
      if cmp -s "$OUT/idle/$g" "$CHECK/$g"; then same=$((same + 1)); else bad=$((bad + 1)); echo "differs: $g" >&2; fi
    else
      h=$(sha256sum < "$OUT/idle/$g" | cut -d' ' -f1)
      if grep -qE "^ +$h +$g( |\$)" "$CHECK/MANIFEST-old.txt" 2>/dev/null; then same=$((same + 1))
      else bad=$((bad + 1)); echo "differs from (or not in) $CHECK/MANIFEST-old.txt: $g" >&2; fi
    fi
  done
  echo "check against $CHECK: $same of ${#written[@]} identical"
  [ $bad -eq 0 ]
fi

#!/usr/bin/env bash
# Run schedlab's fuzz targets with libFuzzer (cargo-fuzz).
#
#   fuzz/run.sh                      # every target for 10 s (the CI smoke)
#   fuzz/run.sh -t 600 lkp_matrix    # one target for 10 minutes
#   fuzz/run.sh -n 1000000           # every target for a million executions
#   fuzz/run.sh -s none -n 1000000 mmtests_dbench   # without AddressSanitizer (faster;
#                                    # built in fuzz/target-nosan, beside the ASan build)
#   fuzz/run.sh -t 3 -S 1            # libFuzzer seed 1: the same inputs every run (CI)
#   fuzz/run.sh -b                   # only build the targets (CI builds them beside its
#                                    # other work, then runs them)
#
# Builds the targets once (optimised, with debug assertions and overflow checks: an
# integer overflow in a parser is a crash here, not a silently wrong number), seeds
# fuzz/corpus/<target>/ from the fixtures (fuzz/make_seeds.py --corpus) and runs each
# target with a per-input time limit (a hang is a crash) and memory limits (an
# allocation driven by a number in the input is a crash). Crashes land in
# fuzz/artifacts/<target>/; the exit status is non-zero if any target failed.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_EACH=10
RUNS=""
JOBS=1
SANITIZER=address
SEED=""
BUILD_ONLY=0
while getopts "t:n:j:s:S:b" opt; do
  case $opt in
    t) SECONDS_EACH=$OPTARG ;;
    n) RUNS=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    s) SANITIZER=$OPTARG ;;
    S) SEED=$OPTARG ;;
    b) BUILD_ONLY=1 ;;
    *) echo "usage: $0 [-t seconds] [-n runs] [-j jobs] [-s address|none] [-S seed] [-b] [target...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
export RUSTC_BOOTSTRAP=1  # libFuzzer's sanitizer flags on the stable toolchain
FLAGS=(-O -a --sanitizer "$SANITIZER")
[ "$SANITIZER" = address ] || FLAGS+=(--target-dir target-nosan)
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  mapfile -t TARGETS < <(cargo fuzz list)
fi
cargo fuzz build "${FLAGS[@]}"
[ "$BUILD_ONLY" = 1 ] && exit 0
python3 make_seeds.py --corpus >/dev/null

# inputs larger than this are cut: trees and archives need room, text parsers less
max_len() {
  case $1 in
    archive|mmtests_*|lkp_raw) echo 65536 ;;
    *) echo 16384 ;;
  esac
}

failed=()
for t in "${TARGETS[@]}"; do
  limit=(-max_total_time="$SECONDS_EACH")
  [ -n "$RUNS" ] && limit=(-runs="$RUNS")
  [ -n "$SEED" ] && limit+=(-seed="$SEED")
  log="artifacts/$t$([ "$SANITIZER" = address ] || echo ".$SANITIZER").log"
  mkdir -p "artifacts/$t"
  start=$(date +%s)
  if cargo fuzz run "${FLAGS[@]}" "$t" "corpus/$t" -- "${limit[@]}" -jobs="$JOBS" -workers="$JOBS" \
      -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len="$(max_len "$t")" \
      -print_final_stats=1 -close_fd_mask=1 >"$log" 2>&1; then
    status=ok
  else
    status=FAILED
    failed+=("$t")
  fi
  execs=$(grep -h "stat::number_of_executed_units" "$log" | awk '{s += $2} END {print s + 0}')
  echo "$t: $status, $execs executions in $(( $(date +%s) - start )) s (log: fuzz/$log)"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz targets failed: ${failed[*]} (inputs in fuzz/artifacts/<target>/)" >&2
  exit 1
fi

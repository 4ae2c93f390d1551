#!/bin/sh
# Capture the result files tests/it/batch_results.rs and tests/test_batch_results.py
# run `schedlab batch` on, with the real tools on this machine (docs/batch.md,
# "Result files"). Two sides, base (lists /) and head (lists /usr/bin long):
#   dirs/{base,head}/   one file per run: perf stat -x, -o (5 runs), fio JSON (3 runs)
#   files/perf/{base,head}.csv        5 runs appended to one file (perf stat --append)
#   files/hyperfine/{base,head}.json  10 runs in one file (hyperfine's "times")
# The commands read the listed directory from $D, so both sides' metrics (perf
# events, hyperfine's command line) have the same names.
#
#     sh tools/oracles/batch/capture_results.sh [OUT=tests/data/batch/results]
set -eu
OUT=${1:-tests/data/batch/results}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$OUT"
mkdir -p "$OUT/files/perf" "$OUT/files/hyperfine"
for side in base head; do
    if [ "$side" = base ]; then D=/; BS=4k; else D='-l /usr/bin'; BS=16k; fi
    export D
    mkdir -p "$OUT/dirs/$side"
    for i in 1 2 3 4 5; do
        perf stat -x, -o "$OUT/dirs/$side/perf-$i.csv" -e task-clock,page-faults,context-switches \
            -- sh -c 'ls $D >/dev/null'
        perf stat -x, --append -o "$OUT/files/perf/$side.csv" -e task-clock,page-faults \
            -- sh -c 'ls $D >/dev/null'
    done
    for i in 1 2 3; do
        fio --name=randread --rw=randread --bs=$BS --size=4M --filename="$work/fio.dat" \
            --output-format=json > "$OUT/dirs/$side/fio-$i.json"
    done
    hyperfine --runs 10 --warmup 1 --export-json "$OUT/files/hyperfine/$side.json" \
        'sh -c "ls $D >/dev/null"' > /dev/null
done
# a file no reader knows, which batch skips with a warning
echo "runs of ls, captured by tools/oracles/batch/capture_results.sh" > "$OUT/dirs/base/README"

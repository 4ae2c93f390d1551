#!/bin/sh
# Capture the result files tests/test_series_results.py orders a history by, with
# the real tools on this machine: three "commits" c3, a1, b2 run in that order, one
# second apart, so the dates the files record order them c3, a1, b2 while their
# names sort a1, b2, c3 (docs/change-points.md §5):
#   fio/<commit>/run.json   a directory of runs per commit (fio's "timestamp")
#   perf/<commit>.csv       a file per commit (perf stat -x, -o: "# started on")
#   hyperfine/<commit>.json a file per commit; hyperfine records no date
#
#     sh tools/oracles/series/capture_results.sh [OUT=tests/data/series/results]
set -eu
OUT=${1:-tests/data/series/results}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$OUT"
mkdir -p "$OUT/perf" "$OUT/hyperfine"
for c in c3 a1 b2; do
    mkdir -p "$OUT/fio/$c"
    fio --name=randread --rw=randread --bs=4k --size=2M --filename="$work/fio.dat" \
        --output-format=json > "$OUT/fio/$c/run.json"
    perf stat -x, -o "$OUT/perf/$c.csv" -e task-clock,page-faults -- sh -c 'ls / >/dev/null'
    hyperfine --runs 5 --export-json "$OUT/hyperfine/$c.json" 'sh -c "ls / >/dev/null"' > /dev/null 2>&1
    sleep 1.1
done

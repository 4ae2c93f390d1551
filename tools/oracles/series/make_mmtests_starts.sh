#!/bin/sh
# A copy of the MMTests tree tests/data/mmtests/logs-head (its tests-timestamp files
# and hackbench-process-pipes logs) whose tests-timestamp start lines, and nothing
# else, are edited: written as run-mmtests.sh writes them (`start :: T`; the
# fixture's say `start T`) with 6.9-patched started an hour before 6.8-vanilla, so
# the start dates order the runs 6.9-patched, 6.8-vanilla, against the names'
# natural order (6.8-vanilla, 6.9-patched).
#
#     sh tools/oracles/series/make_mmtests_starts.sh [OUT=tests/data/series/mmtests-starts]
set -eu
SRC=tests/data/mmtests/logs-head
OUT=${1:-tests/data/series/mmtests-starts}
rm -rf "$OUT"
for k in 6.8-vanilla 6.9-patched; do
    mkdir -p "$OUT/$k/iter-0"
    cp -r "$SRC/$k/iter-0/hackbench-process-pipes" "$OUT/$k/iter-0/"
done
sed 's/^start 1700000000$/start :: 1700003600/' "$SRC/6.8-vanilla/iter-0/tests-timestamp" > "$OUT/6.8-vanilla/iter-0/tests-timestamp"
sed 's/^start 1700000000$/start :: 1700000000/' "$SRC/6.9-patched/iter-0/tests-timestamp" > "$OUT/6.9-patched/iter-0/tests-timestamp"

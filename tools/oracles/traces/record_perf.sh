#!/bin/sh
# Record the sched workload of tools/traces/record.sh (a CPU hog and a periodic task
# sharing CPU 1) with `perf record` instead of tracefs, and write what perf prints of it:
# `perf script --ns` (perf-script.txt, the text the importers read) and
# `perf sched timehist` (timehist.txt: each
# switch-out with the task's sleep, runnable wait and run time before it, perf's own
# reckoning, the expected result of tests/it/perf_script_real.rs). perf.data is not kept.
# Run as root: tools/oracles/traces/record_perf.sh OUTDIR
set -eu
out=${1:?usage: record_perf.sh OUTDIR}
mkdir -p "$out"
data=$(mktemp)
trap 'rm -f "$data"' EXIT
perf record -q -o "$data" -C 1 -e sched:sched_switch -e sched:sched_wakeup -e sched:sched_wakeup_new -- sh -c '
    taskset -c 1 timeout 0.15 sh -c "while :; do :; done" &
    hog=$!
    taskset -c 1 sh -c "i=0; while [ \$i -lt 8 ]; do j=0; while [ \$j -lt 2000 ]; do j=\$((j+1)); done; sleep 0.005; i=\$((i+1)); done" &
    per=$!
    echo "hog=$hog periodic=$per" > '"$out"'/pids.txt
    wait $per; wait $hog || true' >/dev/null 2>&1
perf script -i "$data" --ns > "$out/perf-script.txt" 2>/dev/null
perf sched timehist -i "$data" > "$out/timehist.txt" 2>/dev/null

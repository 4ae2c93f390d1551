#!/bin/sh
# Record a large trace for the import benchmarks (benchmarks/bench_pelt.py --tracedat):
# a private tracefs instance (BUFFER_KB per CPU, default 512 MiB, clock mono, both CPUs,
# sched_switch/sched_wakeup/sched_wakeup_new/sched_migrate_task), two processes calling
# sched_yield() in a loop on each CPU (a switch per call: a C program built here with
# gcc) for SECONDS beside a periodic python3 task (busy 2 ms, sleep 3 ms: the task of the
# benchmark, in pids.txt), then `trace-cmd extract` (version 7) and
# `trace-cmd convert` to version 6 without compression (OUT/big-v6.dat). Not kept in the
# repository (hundreds of MB). Run as root:
#
#   [BUFFER_KB=524288] tools/traces/record_big.sh OUTDIR [SECONDS]
#
# Everything runs in a private mount namespace; the instance is removed on exit.
set -eu
if [ "${SCHEDLAB_RECORD_NS:-}" != 1 ]; then
    SCHEDLAB_RECORD_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
out=${1:?usage: record_big.sh OUTDIR [SECONDS]}
secs=${2:-40}
T=/sys/kernel/tracing
[ -e $T/instances ] || mount -t tracefs nodev $T
I=$T/instances/schedlab-big-$$
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
cleanup() {
    [ -d "$I" ] && { echo 0 > "$I/tracing_on"; rmdir "$I"; }
    rm -rf "$work"
    return 0
}
trap cleanup EXIT INT TERM
mkdir "$I"
echo 0 > "$I/tracing_on"
echo "${BUFFER_KB:-524288}" > "$I/buffer_size_kb"
echo mono > "$I/trace_clock"
for e in sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new sched/sched_migrate_task; do
    echo 1 > "$I/events/$e/enable"
done
echo 1 > "$I/tracing_on"
python3 -c "
import time
end = time.monotonic() + $secs
while time.monotonic() < end:
    t = time.perf_counter()
    while time.perf_counter() - t < 0.002: pass
    time.sleep(0.003)
" &
per=$!
printf '#include <sched.h>\nint main(void){for(;;)sched_yield();}\n' > "$work/yield.c"
gcc -O2 -o "$work/yield" "$work/yield.c"
for c in 0 1; do
    for k in 1 2; do taskset -c $c timeout "$secs" "$work/yield" & done
done
wait $per
wait
echo 0 > "$I/tracing_on"
echo "periodic=$per" > "$out/pids.txt"
mkdir "$work/events"
cp $T/events/header_page $T/events/header_event "$work/events/"
for e in $T/events/sched/*/; do
    [ -f "$e/format" ] || continue
    mkdir -p "$work/events/sched/$(basename "$e")"
    cp "$e/format" "$work/events/sched/$(basename "$e")/"
    [ -f "$e/id" ] && cp "$e/id" "$work/events/sched/$(basename "$e")/"
done
: > "$work/kallsyms"
mount --bind "$work/kallsyms" /proc/kallsyms
mount --bind "$work/events" $T/events
trace-cmd extract -B "$(basename "$I")" -o "$out/big.dat" > /dev/null
umount $T/events /proc/kallsyms
trace-cmd convert -i "$out/big.dat" --file-version 6 --compression none -o "$out/big-v6.dat" > /dev/null 2>&1
ls -la "$out"

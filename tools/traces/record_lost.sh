#!/bin/sh
# Record a trace whose ring buffer overflowed (docs/tracing.md §3.1): a private tracefs
# instance with a small buffer in the default overwrite mode, both CPUs traced, a busy
# workload (a fork loop on each CPU) beside a periodic task on CPU 1 that lives through
# the recording. `trace-cmd extract` then reads what is left: each CPU's oldest pages
# were overwritten, and the first page read after them carries the count of lost
# events. trace-cmd's own reports of the file are kept as the reference for where and
# how many. Run as root from the repository root:
#
#   tools/traces/record_lost.sh OUTDIR [BUFFER_KB] [SECONDS]
#
# Writes OUTDIR/trace.dat (version 7), trace-v6.dat (the same, `trace-cmd convert`ed to
# version 6 without compression), report.txt (`trace-cmd report`), report-t.txt (-t: ns
# timestamps), stat.txt (`trace-cmd report --stat`: the kernel's overrun counts) and
# pids.txt. Everything runs in a private mount namespace; the instance is removed on
# exit (also on error).
set -eu
if [ "${SCHEDLAB_RECORD_NS:-}" != 1 ]; then
    SCHEDLAB_RECORD_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
out=${1:?usage: record_lost.sh OUTDIR [BUFFER_KB] [SECONDS]}
kb=${2:-64}; secs=${3:-1}
T=/sys/kernel/tracing
[ -e $T/instances ] || mount -t tracefs nodev $T
I=$T/instances/schedlab-lost-$$
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
echo "$kb" > "$I/buffer_size_kb"
echo local > "$I/trace_clock"
for e in sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new sched/sched_migrate_task \
         sched/sched_stat_runtime; do
    echo 1 > "$I/events/$e/enable"
done
echo 1 > "$I/tracing_on"
# the periodic task: busy ~2 ms, sleep 3 ms, on CPU 1, for the whole recording
taskset -c 1 python3 -c "
import time
end = time.monotonic() + $secs
while time.monotonic() < end:
    t = time.perf_counter()
    while time.perf_counter() - t < 0.002: pass
    time.sleep(0.003)
" &
per=$!
for c in 0 1; do
    taskset -c $c timeout "$secs" sh -c 'while :; do /bin/true; done' &
done
wait $per
sleep 0.2
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
trace-cmd extract -B "$(basename "$I")" -o "$out/trace.dat" > /dev/null
umount $T/events /proc/kallsyms
trace-cmd report -i "$out/trace.dat" > "$out/report.txt" 2>/dev/null
trace-cmd report -t -i "$out/trace.dat" > "$out/report-t.txt" 2>/dev/null
trace-cmd report --stat -i "$out/trace.dat" > "$out/stat.txt" 2>/dev/null
trace-cmd convert -i "$out/trace.dat" --file-version 6 --compression none -o "$out/trace-v6.dat" > /dev/null 2>&1

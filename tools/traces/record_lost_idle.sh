#!/bin/sh
# Record idle events through a ring buffer that overflows in the middle of the recording
# (docs/tracing.md §3.1), for the idle importer's loss handling: a private tracefs
# instance with a small buffer in the default overwrite mode, trace clock `mono`, both
# CPUs, the events the idle importer reads (power:cpu_idle, timer:hrtimer_start,
# hrtimer_cancel, hrtimer_expire_entry, tick_stop). The instance's `trace_pipe` (a
# consuming read) is read by a reader that takes one 4 kB piece every 50 ms, slower than
# bursts of timer events fill the buffer: the writer overwrites pages not yet read, and
# the kernel prints `CPU:N [LOST M EVENTS]` where the reader finds the gap. The
# workload on CPU 1: a periodic task (busy ~1 ms, asleep 2 ms: idle periods), and every
# 400 ms a burst of 100 µs sleeps for 80 ms (hrtimer events at ~10 kHz). Run as root from
# the repository root:
#
#   tools/traces/record_lost_idle.sh OUTDIR [BUFFER_KB] [SECONDS] [pipe|extract]
#
# Writes OUTDIR/trace_pipe.txt (the kernel's own text, loss lines included) and
# OUTDIR/states.txt (`grep .` of CPU 1's cpuidle states). With `extract` there is no
# reader: `trace-cmd extract` reads what is left at the end (each CPU's oldest pages
# overwritten, the first page read after them flagged with the count), into
# OUTDIR/trace.dat (version 7; formats cut to the power and timer systems, kallsyms to
# the timer callbacks, as tools/traces/record_lost.sh does), with OUTDIR/report-t.txt =
# `trace-cmd report -t` (its `CPU:N [M EVENTS DROPPED]` lines). Everything runs in a
# private mount namespace; the instance is removed on exit (also on error).
set -eu
if [ "${SCHEDLAB_RECORD_NS:-}" != 1 ]; then
    SCHEDLAB_RECORD_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
out=${1:?usage: record_lost_idle.sh OUTDIR [BUFFER_KB] [SECONDS]}
kb=${2:-8}; secs=${3:-2}; mode=${4:-pipe}
T=/sys/kernel/tracing
[ -e $T/instances ] || mount -t tracefs nodev $T
I=$T/instances/schedlab-lost-idle-$$
mkdir -p "$out"
out=$(cd "$out" && pwd)
cleanup() {
    [ -d "$I" ] && { echo 0 > "$I/tracing_on"; rmdir "$I"; }
    return 0
}
trap cleanup EXIT INT TERM
mkdir "$I"
echo 0 > "$I/tracing_on"
echo "$kb" > "$I/buffer_size_kb"
echo mono > "$I/trace_clock"
for e in power/cpu_idle timer/hrtimer_start timer/hrtimer_cancel timer/hrtimer_expire_entry timer/tick_stop; do
    echo 1 > "$I/events/$e/enable"
done
echo 1 > "$I/tracing_on"
if [ "$mode" = pipe ]; then python3 -c "
import os, time
fd = os.open('$I/trace_pipe', os.O_RDONLY | os.O_NONBLOCK)
end = time.monotonic() + $secs + 0.5
with open('$out/trace_pipe.txt', 'wb') as out:
    while time.monotonic() < end:
        try:
            out.write(os.read(fd, 4096))
        except BlockingIOError:
            pass
        time.sleep(0.05)
" & else sleep 0.5 & fi
reader=$!
taskset -c 1 python3 -c "
import time
end = time.monotonic() + $secs
next_burst = time.monotonic() + 0.2
while time.monotonic() < end:
    if time.monotonic() >= next_burst:
        stop = time.monotonic() + 0.08
        while time.monotonic() < stop:
            time.sleep(0.0001)
        next_burst += 0.4
    t = time.perf_counter()
    while time.perf_counter() - t < 0.001:
        pass
    time.sleep(0.002)
"
wait $reader
echo 0 > "$I/tracing_on"
if [ "$mode" = extract ]; then
    work=$(mktemp -d)
    mkdir "$work/events"
    cp $T/events/header_page $T/events/header_event "$work/events/"
    for e in $T/events/power/*/ $T/events/timer/*/; do
        [ -f "$e/format" ] || continue
        d="$work/events/$(basename "$(dirname "$e")")/$(basename "$e")"
        mkdir -p "$d"
        cp "$e/format" "$d/"
        [ -f "$e/id" ] && cp "$e/id" "$d/"
    done
    grep -E ' (tick_|hrtimer_|[a-z_]*_timer|[a-z_]*wakeup)' /proc/kallsyms > "$work/kallsyms" || :
    mount --bind "$work/kallsyms" /proc/kallsyms
    mount --bind "$work/events" $T/events
    trace-cmd extract -B "$(basename "$I")" -o "$out/trace.dat" > /dev/null
    umount $T/events /proc/kallsyms
    rm -rf "$work"
    trace-cmd report -t -i "$out/trace.dat" > "$out/report-t.txt" 2>/dev/null
fi
grep . /sys/devices/system/cpu/cpu1/cpuidle/state*/name /sys/devices/system/cpu/cpu1/cpuidle/state*/latency \
    /sys/devices/system/cpu/cpu1/cpuidle/state*/residency > "$out/states.txt"

#!/bin/sh
# Record a task that logs its own /proc/self/sched into the trace (docs/pelt.md §12):
# the reference for `schedlab pelt ftrace` + `schedlab pelt simulate` against the
# kernel's own PELT and util_est. Run as root from the repository root:
#
#   tools/oracles/live/record_self.sh OUTDIR [SECONDS] [BUSY_MS] [SLEEP_MS] [CPU]
#
# A private tracefs instance (trace clock `local`, only CPU $CPU, 4 MiB per CPU) records
# sched_switch, sched_wakeup, sched_wakeup_new, sched_migrate_task, sched_stat_runtime
# (filtered to the task's pid), hrtimer_start/_expire_entry/_cancel, cpu_idle, tick_stop
# and the markers. The task is a python3 process pinned to CPU $CPU (no schedlab code):
# it spins BUSY_MS, sleeps SLEEP_MS, for SECONDS; at the start of each busy period and
# every 0.7 ms of it, it reads /proc/self/sched twice in a row and, when both reads are
# the same (no update fell inside the read), writes the reading
#   - into the trace, as one marker line `proc_sched: pid=N se.exec_start=... ...`
#     (the `se.*` fields of the dump as printed, `name=value`), and
#   - into OUTDIR/sched.txt, after a `# t_mono_ns=` line (the live check's format):
#     these readings are the expected values of the tests.
# `trace-cmd extract -B` writes OUTDIR/trace.dat (`trace-cmd record` cannot enable
# ftrace on this VM), with /proc/kallsyms cut to the timer functions and the formats cut
# to the systems recorded, as tools/traces/record.sh does; OUTDIR/report.txt is
# `trace-cmd report` of it. Everything runs in a private mount namespace, and the
# instance is removed on exit (also on error).
set -eu
if [ "${SCHEDLAB_RECORD_NS:-}" != 1 ]; then
    SCHEDLAB_RECORD_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
out=${1:?usage: record_self.sh OUTDIR [SECONDS] [BUSY_MS] [SLEEP_MS] [CPU]}
secs=${2:-1.5}; busy=${3:-3}; sleep_ms=${4:-5}; cpu=${5:-0}
T=/sys/kernel/tracing
[ -e $T/instances ] || mount -t tracefs nodev $T
I=$T/instances/schedlab-self-$$
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
echo 4096 > "$I/buffer_size_kb"
echo local > "$I/trace_clock"
printf '%x\n' $((1 << cpu)) > "$I/tracing_cpumask"
for e in sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new sched/sched_migrate_task \
         sched/sched_stat_runtime timer/hrtimer_start timer/hrtimer_expire_entry timer/hrtimer_cancel \
         power/cpu_idle timer/tick_stop ftrace/print; do
    [ -e "$I/events/$e/enable" ] && echo 1 > "$I/events/$e/enable"
done
mkfifo "$work/go"
cat > "$work/task.py" <<'EOF'
import os, sys, time
secs, busy, sleep, marker, log = float(sys.argv[1]), float(sys.argv[2]) / 1e3, float(sys.argv[3]) / 1e3, sys.argv[4], sys.argv[5]
open(sys.argv[6]).read(1)
m = os.open(marker, os.O_WRONLY)
out = open(log, "w")
pid = os.getpid()
def read():
    with open("/proc/self/sched") as f:
        return f.read()
def reading():
    for _ in range(4):
        a = read(); b = read()
        if a == b:
            break
    else:
        return
    t = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    fields = [l.split(":", 1) for l in a.splitlines() if l.startswith("se.")]
    os.write(m, ("proc_sched: pid=%d " % pid + " ".join("%s=%s" % (k.strip(), v.strip()) for k, v in fields)).encode())
    out.write("# t_mono_ns=%d\n%s" % (t, a))
end = time.monotonic() + secs
while time.monotonic() < end:
    t = time.perf_counter()
    reading()
    last = t
    while time.perf_counter() - t < busy:
        if time.perf_counter() - last >= 0.0007:
            reading()
            last = time.perf_counter()
    time.sleep(sleep)
out.close()
EOF
taskset -c "$cpu" python3 "$work/task.py" "$secs" "$busy" "$sleep_ms" "$I/trace_marker" "$out/sched.txt" "$work/go" &
task=$!
echo "prev_pid == $task || next_pid == $task" > "$I/events/sched/sched_switch/filter"
for e in sched_wakeup sched_wakeup_new sched_migrate_task sched_stat_runtime; do
    echo "pid == $task" > "$I/events/sched/$e/filter"
done
echo 1 > "$I/tracing_on"
echo go > "$work/go"
wait $task
echo 0 > "$I/tracing_on"
# trace.dat embeds /proc/kallsyms and every event format of the kernel; keep the timer
# callbacks' symbols and the recorded systems' formats only (bind mounts in this
# private namespace)
grep -E ' [tT] [^ ]*(tick|timer|wakeup|tracing_mark_write)' /proc/kallsyms > "$work/kallsyms"
mkdir "$work/events"
cp $T/events/header_page $T/events/header_event "$work/events/"
for s in sched power timer ftrace; do
    for e in $T/events/$s/*/; do
        [ -f "$e/format" ] || continue
        mkdir -p "$work/events/$s/$(basename "$e")"
        cp "$e/format" "$work/events/$s/$(basename "$e")/"
        [ -f "$e/id" ] && cp "$e/id" "$work/events/$s/$(basename "$e")/"
    done
done
mount --bind "$work/kallsyms" /proc/kallsyms
mount --bind "$work/events" $T/events
trace-cmd extract -B "$(basename "$I")" -o "$out/trace.dat" > /dev/null
umount $T/events /proc/kallsyms
trace-cmd report -i "$out/trace.dat" > "$out/report.txt" 2>/dev/null
printf '{"pid": %d, "cpu": %d, "seconds": %s, "busy_ms": %s, "sleep_ms": %s, "kernel": "%s", "readings": %d}\n' \
    "$task" "$cpu" "$secs" "$busy" "$sleep_ms" "$(uname -r)" "$(grep -c '^# t_mono_ns=' "$out/sched.txt")" > "$out/meta.json"

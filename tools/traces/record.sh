#!/bin/sh
# Record a small real trace of this machine into a private tracefs instance and write
# trace.dat plus the `trace-cmd report` renderings the importers are tested against.
# `trace-cmd record` cannot run on machines where /proc/sys/kernel/ftrace_enabled is not
# writable ("Can't enable ftrace"); an instance + `trace-cmd extract` needs only tracefs.
# Run as root: tools/traces/record.sh OUTDIR [SECONDS] [sched|idle]
# sched: a CPU hog and a periodic task share CPU 1 (preemptions, sleeps, wakeups);
# idle: only a periodic task that sleeps 5 ms after ~0.3 ms of work (CPU 1 idles).
# Everything it changes lives in the instance, which it removes on exit (also on error).
set -eu
out=${1:?usage: record.sh OUTDIR [SECONDS]}
secs=${2:-0.15}
mode=${3:-sched}
T=/sys/kernel/tracing
mounted=0
if [ ! -e $T/instances ]; then mount -t tracefs nodev $T; mounted=1; fi
I=$T/instances/schedlab
cleanup() {
    [ -d $I ] && { echo 0 > $I/tracing_on; rmdir $I; }
    [ -d "${out:-}/.events" ] && { umount "$out/.events" 2>/dev/null || true; rm -rf "$out/.events"; }
    [ $mounted = 1 ] && umount $T
    return 0
}
trap cleanup EXIT INT TERM
mkdir $I
echo 2048 > $I/buffer_size_kb
echo mono > $I/trace_clock
# Only CPU 1, where the workload runs: the machine is shared and its other CPU's
# tasks would fill the buffer.
echo 2 > $I/tracing_cpumask
for e in sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new sched/sched_migrate_task \
         sched/sched_stat_runtime power/cpu_idle power/cpu_frequency \
         timer/hrtimer_start timer/hrtimer_expire_entry timer/hrtimer_cancel \
         timer/timer_start timer/timer_expire_entry timer/timer_cancel timer/tick_stop \
         ftrace/print; do
    [ -e $I/events/$e/enable ] && echo 1 > $I/events/$e/enable
done
echo 1 > $I/tracing_on
# The workload, pinned to CPU 1: a CPU hog and a periodic task (busy ~5 ms, sleep 5 ms)
# share the CPU, so the periodic task is both preempted (prev_state R+) and sleeps (S);
# the periodic task outlives the hog, so CPU 1 then idles between its periods (cpu_idle).
if [ "$mode" = sched ]; then
    taskset -c 1 timeout "$secs" sh -c 'while :; do :; done' &
    hog=$!
    busy=2000
else
    hog=none
    busy=100
fi
taskset -c 1 sh -c "i=0; while [ \$i -lt 20 ]; do j=0; while [ \$j -lt $busy ]; do j=\$((j+1)); done; sleep 0.005; i=\$((i+1)); done" &
per=$!
taskset -c 1 sh -c "echo schedlab workload hog=$hog periodic=$per > $I/trace_marker"
wait $per
[ "$hog" = none ] || wait $hog || true
echo 0 > $I/tracing_on
mkdir -p "$out"
# trace.dat embeds /proc/kallsyms (5 MB here) and the format of every event of the kernel
# (2 MB); keep the file small by showing trace-cmd, in a private mount namespace, only
# the timer callback symbols (other addresses print as hex, as on a kernel without
# kallsyms) and the formats of the systems recorded.
grep -E ' [tT] [^ ]*(timer|tick|wake|_work|watchdog|rcu|timeout|_fn|random)' /proc/kallsyms > "$out/.kallsyms"
mkdir -p "$out/.events"
unshare -m sh -eu -c "
    mount --bind '$out/.kallsyms' /proc/kallsyms
    mount -t tmpfs none '$out/.events'
    cp $T/events/header_page $T/events/header_event '$out/.events/'
    for s in sched power timer ftrace; do
        for e in $T/events/\$s/*/; do
            [ -f \$e/format ] || continue
            mkdir -p '$out/.events/'\$s/\$(basename \$e)
            cp \$e/format '$out/.events/'\$s/\$(basename \$e)/
            if [ -f \$e/id ]; then cp \$e/id '$out/.events/'\$s/\$(basename \$e)/; fi
        done
    done
    mount --bind '$out/.events' $T/events
    trace-cmd extract -B schedlab -o '$out/trace.dat'" >/dev/null
rm -rf "$out/.kallsyms" "$out/.events"
# the same trace in file version 6 without compression (what older trace-cmd writes)
trace-cmd convert -i "$out/trace.dat" --file-version 6 --compression none -o "$out/trace-v6.dat" >/dev/null
cleanup
trap - EXIT
trace-cmd report -i "$out/trace.dat" > "$out/report.txt"
trace-cmd report -i "$out/trace.dat" -R > "$out/report-R.txt"
trace-cmd report -i "$out/trace.dat" -N > "$out/report-N.txt"
trace-cmd report -i "$out/trace.dat" -t > "$out/report-t.txt"
echo "hog=$hog periodic=$per" > "$out/pids.txt"

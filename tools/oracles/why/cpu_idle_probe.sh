#!/bin/sh
# Which CPUs trace their idle, over a long window on a busy machine (the recording of
# tests/data/traces/why/cpu-idle-probe/): a private tracefs instance records, on every
# CPU, power:cpu_idle, power:cpu_idle_miss and the idle task's sched_switch (filter
# prev_pid == 0 || next_pid == 0) for SECONDS, between two readings of every CPU's
# cpuidle usage counters; the instance's `trace` file (raw ftrace text) is kept.
# A CPU whose counters advanced with no cpu_idle record in the trace does not trace its
# idle (docs/live.md §8). Run as root:
#
#   tools/oracles/why/cpu_idle_probe.sh OUTDIR [SECONDS]
#
# tracefs is mounted in a private mount namespace (nothing outside it changes); the
# instance is removed on exit, also on SIGINT/SIGTERM.
set -eu
out=${1:?usage: cpu_idle_probe.sh OUTDIR [SECONDS]}
secs=${2:-900}
if [ -z "${WHY_PROBE_NS:-}" ]; then
  WHY_PROBE_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
T=$(mktemp -d)
mount -t tracefs nodev "$T"
I=$T/instances/why-probe-$$
mkdir "$I"
trap 'echo 0 > "$I/tracing_on"; rmdir "$I"; umount "$T"; rmdir "$T"' EXIT
trap 'exit 130' INT TERM
echo 512 > "$I/buffer_size_kb"
echo 1 > "$I/events/power/cpu_idle/enable"
[ -e "$I/events/power/cpu_idle_miss" ] && echo 1 > "$I/events/power/cpu_idle_miss/enable"
echo 'prev_pid == 0 || next_pid == 0' > "$I/events/sched/sched_switch/filter"
echo 1 > "$I/events/sched/sched_switch/enable"
mkdir -p "$out"
grep . /sys/devices/system/cpu/cpu*/cpuidle/state*/usage > "$out/usage-before.txt"
echo 1 > "$I/tracing_on"
sleep "$secs"
echo 0 > "$I/tracing_on"
grep . /sys/devices/system/cpu/cpu*/cpuidle/state*/usage > "$out/usage-after.txt"
cat "$I/trace" > "$out/trace.txt"

#!/bin/sh
# The end-to-end experiment on a machine that other work keeps busy (the one of
# tests/data/traces/why/experiment/): with both CPUs loaded a CPU idles only now and then,
# so each recording is a long window of the machine's own idle (`record_kernel.py
# --workload sleep --events idle`: cpu_idle, cpu_idle_miss, tick_stop and the idle
# task's switches, every CPU bracketed by its cpuidle counters) instead of
# `schedlab live sets`' second of a workload with every scheduler event (too many events
# to keep for minutes). Three groups taken in turn, RUNS recordings each:
#   base   the machine as it is (cpuidle governor haltpoll)
#   aa     the same again: the A/A control
#   lat0   a 0 µs request held on /dev/cpu_dma_latency: every governor polls (state 0)
# written in `schedlab live sets`' layout (docs/live.md §8): OUT/GROUP/run-NN.dat,
# run-NN.sysfs-before.txt, run-NN.sysfs-after.txt, run-NN.sysfs-delta.csv,
# run-NN.trace-counts.csv (trace_counts.py), run-NN.json, states-cpuN.txt; OUT/counters.csv
# gathers every recording's deltas. Every setting is restored after each recording.
#
#   sudo tools/oracles/why/experiment_busy.sh OUT [RUNS] [SECONDS]
set -eu
out=$1; runs=${2:-5}; secs=${3:-40}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
for i in $(seq 1 "$runs"); do
  stem=run-$(printf %02d "$i")
  for g in base aa lat0; do
    extra=""
    [ "$g" = lat0 ] && extra="--latency-us 0"
    mkdir -p "$out/$g"
    # shellcheck disable=SC2086
    python3 "$here/record_kernel.py" "$tmp/$g-$i" --workload sleep --events idle --seconds "$secs" \
        --buffer-kb 1024 $extra || rc=1
    for f in trace.dat:dat sysfs-before.txt:sysfs-before.txt sysfs-after.txt:sysfs-after.txt \
             sysfs-delta.csv:sysfs-delta.csv trace-counts.csv:trace-counts.csv meta.json:json; do
      mv "$tmp/$g-$i/${f%%:*}" "$out/$g/$stem.${f#*:}"
    done
    [ "$i" = 1 ] && for s in "$tmp/$g-$i"/states-cpu*.txt; do mv "$s" "$out/$g/"; done
    echo "$g/$stem $(awk -F, 'NR>1{u[$2]+=$4} END{printf "usage state0=%d state1=%d", u[0], u[1]}' "$out/$g/$stem.sysfs-delta.csv")"
  done
done
python3 - "$out" <<'PY'
import csv, sys
from pathlib import Path
out = Path(sys.argv[1])
rows = []
for f in sorted(out.glob("*/run-*.sysfs-delta.csv")):
    run = int(f.name.split(".")[0][4:])
    for r in csv.DictReader(open(f)):
        rows.append({"group": f.parent.name, "run": run, **r})
with open(out / "counters.csv", "w", newline="") as fh:
    w = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
PY
exit $rc

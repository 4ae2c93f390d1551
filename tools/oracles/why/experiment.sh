#!/bin/sh
# The end-to-end experiment of tests/data/traces/why/experiment/: `schedlab live sets`
# (docs/live.md §8) with four groups taken in turn, RUNS recordings each:
#   base   the machine as it is (cpuidle governor haltpoll here)
#   aa     the same again: the A/A control (no setting differs from base)
#   lat0   a 0 µs request held on /dev/cpu_dma_latency: every governor polls (state 0)
#   menu   the menu governor instead of haltpoll
# Every setting is restored after each recording. Then trace_counts.py checks each trace
# against its bracket and writes run-NN.trace-counts.csv (what trace-cmd shows), and
# counters.csv gathers every recording's sysfs deltas (group, run, cpu, state, ...).
#
#   sudo tools/oracles/why/experiment.sh OUT [RUNS] [SECONDS] [--wait-idle PCT]
#
# --wait-idle PCT waits (up to 60 min) until the CPUs were idle at least PCT % of a 2 s
# window: with both CPUs kept busy by other work no CPU idles and the counters do not move.
# Run from the repository root with the extension built (DEVELOPING.md).
set -eu
out=$1; runs=${2:-5}; secs=${3:-0.5}; want=0
[ "${4:-}" = "--wait-idle" ] && want=${5:-30}
if [ "$want" -gt 0 ]; then
  end=$(( $(date +%s) + 3600 ))
  while :; do
    set -- $(head -1 /proc/stat); a_idle=$5; a_tot=$(( $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 ))
    sleep 2
    set -- $(head -1 /proc/stat); b_idle=$5; b_tot=$(( $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 ))
    idle=$(( (b_idle - a_idle) * 100 / (b_tot - a_tot + 1) ))
    [ "$idle" -ge "$want" ] && break
    [ "$(date +%s)" -ge "$end" ] && { echo "no quiet moment in 60 min (idle ${idle}%)" >&2; exit 1; }
    sleep 5
  done
  echo "idle ${idle}% at $(date -u +%H:%M:%S)" >&2
fi
rm -rf "$out"
PYTHONPATH=$PWD/python "${PYTHON:-python3}" -m schedlab live sets "$out" --runs "$runs" --seconds "$secs" \
    --busy-ms 0.5 --sleep-ms 4 --buffer-kb 2048 \
    --group base --group aa --group lat0:latency-us=0 --group menu:governor=menu
here=$(dirname "$0")
rc=0
for dat in "$out"/*/run-*.dat; do
  python3 "$here/trace_counts.py" "$dat" || rc=1
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

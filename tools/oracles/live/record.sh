#!/bin/sh
# Record a live-check experiment on this machine into tests/data/live/NAME (root,
# tracefs, trace-cmd): `schedlab live run --keep` with its built-in pattern (busy 3 ms,
# sleep 5 ms, pinned to the last CPU). The kernel's own values are sched.txt, the
# /proc/PID/sched readings; trace.dat is the tracefs instance's buffer (docs/live.md §1).
#
#   tools/oracles/live/record.sh NAME [SECONDS] [--wait-idle PCT]
#
# --wait-idle PCT waits (up to 30 min) until the CPUs were idle at least PCT % of a
# 2 s window before recording: a governor's choices can only be compared when the
# task's CPU idles, which it does not while other work keeps both CPUs busy.
# Run from the repository root with the extension built (DEVELOPING.md).
set -eu
name=$1; secs=${2:-1.5}; want=0
[ "${3:-}" = "--wait-idle" ] && want=${4:-25}
out=tests/data/live/$name
if [ "$want" -gt 0 ]; then
  end=$(( $(date +%s) + 1800 ))
  while :; do
    set -- $(head -1 /proc/stat); a_idle=$5; a_tot=$(( $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 ))
    sleep 2
    set -- $(head -1 /proc/stat); b_idle=$5; b_tot=$(( $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 ))
    idle=$(( (b_idle - a_idle) * 100 / (b_tot - a_tot + 1) ))
    [ "$idle" -ge "$want" ] && break
    [ "$(date +%s)" -ge "$end" ] && { echo "no quiet moment in 30 min (idle ${idle}%)" >&2; exit 1; }
    sleep 10
  done
fi
rm -rf "$out"
PYTHONPATH=$PWD/python "${PYTHON:-python3}" -m schedlab live run --keep "$out" --seconds "$secs"

#!/bin/sh
# A real trace whose ring buffer overflowed: the sched workload of tools/traces/record.sh
# recorded into an 8 KiB buffer (the default overwrite mode drops the oldest pages), so
# trace.dat's first page of CPU 1 carries the kernel's missed-events flag and count, and
# `trace-cmd report` prints `CPU:1 [N EVENTS DROPPED]` (report.txt, report-t.txt): the
# expected loss of tests/trace_metrics.rs. Keeps trace.dat, trace-v6.dat, report.txt,
# report-t.txt and pids.txt. Run as root: tools/oracles/traces/record_overwrite.sh OUTDIR
set -eu
out=${1:?usage: record_overwrite.sh OUTDIR}
here=$(dirname "$0")
BUFFER_KB=8 sh "$here/../../traces/record.sh" "$out" 0.3 sched
rm -f "$out/report-R.txt" "$out/report-N.txt"
grep -q 'EVENTS DROPPED\]' "$out/report.txt" || { echo "no events were lost: record again" >&2; exit 1; }

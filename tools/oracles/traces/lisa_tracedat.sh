#!/bin/sh
# LISA's tests/assets/sched_load/trace.dat (a Juno r0, Linux 4.19, 6 CPUs; file version 6,
# 3.4 MB, most of it kallsyms) written again by trace-cmd itself as version 7 files, zstd
# and zlib compressed, and its `trace-cmd report -t` (ns timestamps): the trace.dat reader
# and the idle importer's binary path are tested against the report (tests/it/tracedat_real.rs).
# Usage: tools/oracles/traces/lisa_tracedat.sh LISA_TRACE_DAT OUTDIR [TRACE_CMD_WITH_ZLIB]
# (Debian's trace-cmd 3.1.6 has only zstd; a trace-cmd built from source with zlib1g-dev
# installed has both: `make trace-cmd` in a trace-cmd checkout.)
set -eu
in=${1:?usage: lisa_tracedat.sh LISA_TRACE_DAT OUTDIR [TRACE_CMD_WITH_ZLIB]}
out=${2:?usage: lisa_tracedat.sh LISA_TRACE_DAT OUTDIR [TRACE_CMD_WITH_ZLIB]}
zlib_tc=${3:-}
mkdir -p "$out"
trace-cmd convert -i "$in" --file-version 7 --compression zstd -o "$out/trace-zstd.dat" >/dev/null
if [ -n "$zlib_tc" ]; then
    "$zlib_tc" convert -i "$in" --file-version 7 --compression zlib -o "$out/trace-zlib.dat" >/dev/null
fi
trace-cmd report -t -i "$in" > "$out/report-t.txt"

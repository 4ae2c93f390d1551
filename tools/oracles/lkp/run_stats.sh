#!/bin/bash
# Write the stats.json lkp-tests makes of each run directory under tests/data/lkp/runs:
# a scratch copy of the run gets lkp's own bin/run-stats for each raw output, as a job
# runs it (`run-stats <program>` for a file named after an lkp program with a parser,
# `run-stats time <name>` for `<name>.time`), then bin/create-stats-matrix; its
# stats.json is written as tests/data/lkp/runs/<case>.stats.json.
# tests/it/lkp_stats_json.rs checks schedlab's run_stats of each run directory against it.
# Usage: LKP_SRC=/path/to/lkp-tests tools/oracles/lkp/run_stats.sh
# Needs ruby, ruby-activesupport and ruby-git; the goldens were made at bbbc29c49.
set -u
: "${LKP_SRC:?set LKP_SRC to an lkp-tests checkout}"
export LKP_SRC TZ=UTC
cd "$(dirname "$0")/../../../tests/data/lkp/runs" || exit 1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for run in */; do
	run=${run%/}
	rr=$scratch/result/$run/0
	rm -rf "$scratch/result" && mkdir -p "$rr"
	cp -a "$run"/. "$rr"/
	for f in "$run"/*; do
		name=${f##*/}
		if [ -f "$LKP_SRC/programs/$name/parse" ]; then
			RESULT_ROOT=$rr "$LKP_SRC/bin/run-stats" "$name" >/dev/null 2>&1
		elif [[ $name == ?*.time ]]; then
			RESULT_ROOT=$rr "$LKP_SRC/bin/run-stats" time "$name" >/dev/null 2>&1
		fi
	done
	"$LKP_SRC/bin/create-stats-matrix" "$rr" >/dev/null 2>&1 || { echo "failed: $run"; continue; }
	cp "$rr/stats.json" "$run.stats.json"
	echo "$run: $(ls "$rr" | tr '\n' ' ')"
done

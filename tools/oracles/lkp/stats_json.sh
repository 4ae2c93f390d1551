#!/bin/bash
# Write the stats.json lkp-tests makes of each parser fixture: the parser run as lkp's
# spec/unit/lib/stats_spec.rb runs it (as spec_check.sh does), its output given to lkp's
# own sbin/dump-stat (the monitor's series, <program>.json in a scratch RESULT_ROOT) and
# then to bin/create-stats-matrix (the run's stats.json), as bin/run-stats and
# post-run do. The result is <case>.stats.json beside <case>.yaml; tests/it/lkp_stats_json.rs
# checks schedlab's dump-stat and reduction against it.
# Usage: LKP_SRC=/path/to/lkp-tests tools/oracles/lkp/stats_json.sh [spec|captured] [PROGRAM...]
#   spec      tests/data/lkp/spec: lkp's own fixtures (the default)
#   captured  tests/data/lkp/captured: outputs captured on a Linux box
#   edge      tests/data/lkp/edge: edge cases (tools/oracles/lkp/edge_cases.py)
#   PROGRAM   only these programs' fixtures (default: every program of the set)
# Needs ruby, ruby-activesupport and ruby-git (lib/job.rb loads the git gem); lkp-tests
# from github.com/intel/lkp-tests (the goldens were made at bbbc29c49, Ruby 3.1).
set -u
: "${LKP_SRC:?set LKP_SRC to an lkp-tests checkout}"
export LKP_SRC TZ=UTC
set_dir=${1:-spec}
[ $# -gt 0 ] && shift
cd "$(dirname "$0")/../../../tests/data/lkp/$set_dir" || exit 1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=(*/)
written=0 failed=0
for program in "${programs[@]}"; do
	program=${program%/}
	for yaml in "$program"/*.yaml; do
		[ -e "$yaml" ] || continue
		case=${yaml%.yaml}
		parse=$LKP_SRC/programs/$program/parse
		if [ -d "$case" ]; then
			if [ -e "$case/$program" ]; then
				RESULT_ROOT=$case "$parse" "$case/$program" <"$case/$program" >"$scratch/out"
			else
				RESULT_ROOT=$case "$parse" </dev/null >"$scratch/out"
			fi
		else
			case $program in
			dmesg | mpstat | fio) "$parse" "$case" >"$scratch/out" ;;
			*) "$parse" <"$case" >"$scratch/out" ;;
			esac
		fi
		rc=$?
		rr=$scratch/rr
		rm -rf "$rr" && mkdir "$rr"
		printf 'suite: %s\ntestcase: %s\n' "$program" "$program" >"$rr/job.yaml"
		if [ $rc -ne 0 ] ||
			! RESULT_ROOT=$rr "$LKP_SRC/sbin/dump-stat" "$program" <"$scratch/out" >/dev/null ||
			! "$LKP_SRC/bin/create-stats-matrix" "$rr" >/dev/null; then
			failed=$((failed + 1))
			echo "failed: $case"
			continue
		fi
		cp "$rr/stats.json" "$case.stats.json"
		written=$((written + 1))
	done
done
echo "written=$written failed=$failed"

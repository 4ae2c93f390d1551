#!/bin/bash
# Write the stats.json of every parser fixture as lkp-tests' own pipeline makes it:
# the program's parser run as spec/unit/lib/stats_spec.rb runs it (its output checked
# against the fixture's yaml), then sbin/dump-stat <program> (the monitor's
# <program>.json) and bin/create-stats-matrix (stats.json) in a fresh RESULT_ROOT.
# The result is <case>.stats.json beside each fixture, read by tests/it/lkp_spec.rs.
#
# Usage: LKP_SRC=/path/to/lkp-tests tools/oracles/lkp/spec_stats.sh [--write-yaml] [spec|edge|captured] [program...]
#   --write-yaml  also (re)write each case's <case>.yaml from lkp's parser output: for sets
#                 whose expected text is lkp's own output (edge, captured), every file or
#                 directory of a program's directory is then a case
# Needs ruby, ruby-activesupport and ruby-tty-command; lkp-tests bbbc29c49.
# The parsers run on a copy of each fixture (dmesg's and kmsg's rewrite their input).
# A program's output that differs from its yaml is reported.
set -u
: "${LKP_SRC:?set LKP_SRC to an lkp-tests checkout}"
export LKP_SRC TZ=UTC
write_yaml=
if [ "${1:-}" = --write-yaml ]; then
	write_yaml=1
	shift
fi
set_dir=${1:-spec}
[ $# -gt 0 ] && shift
cd "$(dirname "$0")/../../../tests/data/lkp/$set_dir" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
programs=("$@")
[ ${#programs[@]} -gt 0 ] || mapfile -t programs < <(find . -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | LC_ALL=C sort)
written=0 differs=0 none=0
for program in "${programs[@]}"; do
	parse=$LKP_SRC/programs/$program/parse
	if [ -n "$write_yaml" ]; then
		mapfile -t cases < <(find "$program" -mindepth 1 -maxdepth 1 ! -name '*.yaml' ! -name '*.stats.json' ! -name 'README*' | LC_ALL=C sort)
	else
		mapfile -t cases < <(find "$program" -mindepth 1 -maxdepth 1 -name '*.yaml' | sed 's/\.yaml$//' | LC_ALL=C sort)
	fi
	for case in "${cases[@]}"; do
		yaml=$case.yaml
		# the copy is <program>/<case> as in lkp's tree (kmsg's parser greps a file whose
		# path has the word kmsg as /dev/kmsg's dump)
		rm -rf "$tmp/in" "$tmp/rr" && mkdir -p "$tmp/in/$program" "$tmp/rr"
		input=$tmp/in/$case
		cp -r "$case" "$input"
		(
			if [ -d "$input" ]; then
				if [ -e "$input/$program" ]; then
					RESULT_ROOT=$input "$parse" "$input/$program" <"$input/$program" >"$tmp/out"
				else
					RESULT_ROOT=$input "$parse" </dev/null >"$tmp/out"
				fi
			else
				case $program in
				kmsg) RESULT_ROOT=/boot/1/vm- "$parse" "$input" >"$tmp/out" ;;
				dmesg | mpstat | fio) "$parse" "$input" >"$tmp/out" ;;
				*) "$parse" <"$input" >"$tmp/out" ;;
				esac
			fi
		) || { echo "parser failed: $case"; continue; }
		[ -z "$write_yaml" ] || cp "$tmp/out" "$yaml"
		if [ "$(cat "$tmp/out")" != "$(cat "$yaml")" ]; then
			differs=$((differs + 1))
			echo "parser output differs from the yaml: $case"
		fi
		printf 'suite: %s\ntestcase: %s\n' "$program" "$program" >"$tmp/rr/job.yaml"
		RESULT_ROOT=$tmp/rr "$LKP_SRC/sbin/dump-stat" "$program" <"$tmp/out" >/dev/null 2>&1 || echo "dump-stat failed: $case"
		[ -e "$tmp/rr/$program.json" ] || none=$((none + 1))
		"$LKP_SRC/bin/create-stats-matrix" "$tmp/rr" >/dev/null 2>&1 || echo "create-stats-matrix failed: $case"
		cp "$tmp/rr/stats.json" "$case.stats.json" && written=$((written + 1))
	done
done
echo "written=$written (without a monitor json: $none) parser-differs=$differs"

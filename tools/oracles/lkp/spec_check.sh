#!/bin/bash
# Run lkp-tests' own parsers on the fixtures under tests/data/lkp/spec, the way lkp's
# spec/unit/lib/stats_spec.rb runs them, and report which outputs equal the yaml.
# Usage: LKP_SRC=/path/to/lkp-tests tools/oracles/lkp/spec_check.sh [--write]
#   --write  (re)write each <case>.yaml from lkp's output (for fixtures captured here)
# Needs ruby and ruby-activesupport; lkp-tests from github.com/intel/lkp-tests.
set -u
: "${LKP_SRC:?set LKP_SRC to an lkp-tests checkout}"
export LKP_SRC TZ=UTC
cd "$(dirname "$0")/../../../tests/data/lkp/spec" || exit 1
pass=0 fail=0
for yaml in */*.yaml; do
	case=${yaml%.yaml} program=${case%%/*}
	parse=$LKP_SRC/programs/$program/parse
	if [ -d "$case" ]; then
		if [ -e "$case/$program" ]; then
			out=$(RESULT_ROOT=$case "$parse" "$case/$program" <"$case/$program")
		else
			out=$(RESULT_ROOT=$case "$parse" </dev/null)
		fi
	else
		case $program in
		dmesg | mpstat | fio) out=$("$parse" "$case") ;;
		*) out=$("$parse" <"$case") ;;
		esac
	fi
	if [ "${1:-}" = --write ]; then
		printf '%s\n' "$out" >"$yaml"
	elif [ "$out" = "$(cat "$yaml")" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "differs: $case"
	fi
done
echo "pass=$pass fail=$fail"

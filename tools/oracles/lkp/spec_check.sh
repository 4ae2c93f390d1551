#!/bin/bash
# Run lkp-tests' own parsers on parser fixtures, the way lkp's spec/unit/lib/stats_spec.rb
# runs them, and report which outputs equal the yaml.
# Usage: LKP_SRC=/path/to/lkp-tests tools/oracles/lkp/spec_check.sh [spec|captured] [--write]
#   spec      tests/data/lkp/spec: lkp's own fixtures (the default)
#   captured  tests/data/lkp/captured: outputs captured on a Linux box (see its README)
#   --write   (re)write each <case>.yaml from lkp's output (for captured fixtures)
# Needs ruby, ruby-activesupport and ruby-tty-command; lkp-tests from github.com/intel/lkp-tests.
# Without --write the parsers run on a copy of the set (dmesg's and kmsg's rewrite their input).
set -u
: "${LKP_SRC:?set LKP_SRC to an lkp-tests checkout}"
export LKP_SRC TZ=UTC
set_dir=${1:-spec}
[ $# -gt 0 ] && shift
cd "$(dirname "$0")/../../../tests/data/lkp/$set_dir" || exit 1
pass=0 fail=0
if [ "${1:-}" != --write ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cp -r . "$tmp/" && cd "$tmp" || exit 1
fi
if [ "${1:-}" = --write ]; then
	for f in */*; do
		case $f in *.yaml | */README.md) ;; *) [ -f "$f" ] && touch "$f.yaml" ;; esac
	done
fi
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
		kmsg) out=$(RESULT_ROOT=/boot/1/vm- "$parse" "$case") ;;
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

#!/usr/bin/env bash
# Copy benchstat's own test inputs and goldens (golang/perf cmd/benchstat/testdata) to
# tests/data/table/benchstat/go/, the expected values of tests/it/benchstat_golden.rs and
# tests/test_benchstat_cli.py (each with the arguments of benchstat's main_test.go), and
# check them against benchstat built from the same repository.
#
# Usage: tools/oracles/table/benchstat_testdata.sh PERF_GIT_DIR [BENCHSTAT]
#   PERF_GIT_DIR  a clone of github.com/golang/perf (the goldens were copied at
#                 712aea8b47053b2e77c04820a5032254b347cf96)
#   BENCHSTAT     a benchstat binary (built as tools/oracles/table/benchstat.py says); when
#                 given, each text golden is regenerated with it and must be identical
#                 (the CSV goldens changed after 08c49f3, the last commit Debian's Go 1.19
#                 builds: csvOldNew/csvErrors are checked only against the committed files)
set -euo pipefail
perf=$1
bs=${2:-}
out=tests/data/table/benchstat/go
mkdir -p "$out"
files="crc-old.txt crc-new.txt crcOldNew.stdout crcIgnore.stdout crcSizeVsPoly.stdout units.txt units.stdout
zero.txt zero.stdout smallSample.txt smallSample.stdout issue19565.txt issue19565.stdout issue19634.txt
issue19634.stdout old.txt new.txt csvOldNew.stdout csvErrors.stdout csvErrors.stderr"
for f in $files; do
  git --git-dir="$perf" show "HEAD:cmd/benchstat/testdata/$f" > "$out/$f"
done
if [ -n "$bs" ]; then
  cd "$out"
  check() { name=$1; shift; "$bs" "$@" | cmp - "$name.stdout" && echo "$name: benchstat prints the golden"; }
  check crcOldNew crc-old.txt crc-new.txt
  check crcIgnore -ignore note crc-old.txt crc-new.txt
  check crcSizeVsPoly -filter /align:0 -row /size -col /poly crc-new.txt
  for c in units zero smallSample issue19565 issue19634; do check $c -col note $c.txt; done
fi

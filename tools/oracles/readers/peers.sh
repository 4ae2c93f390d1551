#!/usr/bin/env bash
# Copy the peers' own test inputs whose expectations tests/it/peer_expectations.rs and
# tests/test_peer_expectations.py reproduce (the expected values are written in those
# tests, from the peers' test files named there):
#   google/benchmark   tools/gbench/Inputs/test1_run{1,2}.json, test3_run{0,1}.json
#                      (tools/gbench/report.py's TestReportDifference*, at 267a111)
#   psf/pyperf         pyperf/tests/telco.json, mult_list_py3{6,7,8}.json
#                      (pyperf/tests/test_perf_cli.py, at ab7fd04)
#   ionelmc/pytest-benchmark  tests/test_storage/0001_*.json, 0002_*.json
#                      (tests/test_storage.py test_compare_1/2, at 47d66c8)
# Usage: tools/oracles/readers/peers.sh GBENCH_GIT_DIR PYPERF_GIT_DIR PYTEST_BENCHMARK_GIT_DIR
set -euo pipefail
out=tests/data/readers/peers
show() { git --git-dir="$1" show "HEAD:$2" > "$3"; }
for f in test1_run1 test1_run2 test3_run0 test3_run1; do
  show "$1" "tools/gbench/Inputs/$f.json" "$out/google-benchmark/$f.json"
done
for f in telco mult_list_py36 mult_list_py37 mult_list_py38; do
  show "$2" "pyperf/tests/$f.json" "$out/pyperf/$f.json"
done
for f in 0001_b87b9aae14ff14a7887a6bbaa9731b9a8760555d_20150814_190343_uncommitted-changes \
         0002_b87b9aae14ff14a7887a6bbaa9731b9a8760555d_20150814_190348_uncommitted-changes; do
  show "$3" "tests/test_storage/$f.json" "$out/pytest-benchmark/${f%%_*}.json"
done

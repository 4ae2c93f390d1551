#!/bin/sh
# Capture the result files the readers are tested on, with the real tools on this
# machine: perf stat (text, -x CSV, -j JSON), fio JSON, hyperfine JSON,
# pytest-benchmark JSON, pyperf JSON, google-benchmark JSON, and (capture_xml_mm.sh)
# the Phoronix Test Suite's composite.xml and MMTests' JSON exports. The Python
# tools come from a virtualenv of their own (VENV, made here when missing), so the
# project's environment does not get their pytest plugins.
#
#     sh tools/oracles/readers/capture.sh [OUT=tests/data/readers] [VENV=/work/oracles/readers-venv]
#         [PTS=/work/oracles/pts]
set -eu
OUT=${1:-tests/data/readers}
VENV=${2:-/work/oracles/readers-venv}
PTS=${3:-/work/oracles/pts}
mkdir -p "$OUT"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q pytest pytest-benchmark pyperf google-benchmark
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# perf stat: three layouts, with -r (mean and spread) and one run per file
perf stat -r 5 -- sh -c 'ls / >/dev/null' 2> "$OUT/perf-stat-r5.txt"
perf stat -x, -r 5 -- sh -c 'ls / >/dev/null' 2> "$OUT/perf-stat-r5.csv"
perf stat -j -r 5 -- sh -c 'ls / >/dev/null' 2> "$OUT/perf-stat-r5.json"
for i in 1 2 3; do
    perf stat -e task-clock,page-faults,context-switches -- sh -c 'ls / >/dev/null' 2> "$OUT/perf-stat-run$i.txt"
    perf stat -x, -e task-clock,page-faults,context-switches -- sh -c 'ls / >/dev/null' 2> "$OUT/perf-stat-run$i.csv"
done
perf stat -x';' -e task-clock -I 100 -- sleep 0.35 2> "$OUT/perf-stat-interval.csv"

# fio: two jobs (random reads, sequential writes) of a small file
fio --name=randread --rw=randread --bs=4k --size=8M --filename="$work/fio.dat" \
    --name=seqwrite --rw=write --bs=64k --size=8M --filename="$work/fio2.dat" \
    --output-format=json > "$OUT/fio.json"

# hyperfine: two commands, 10 runs each
hyperfine --runs 10 --warmup 1 --export-json "$OUT/hyperfine.json" \
    'sh -c "ls / >/dev/null"' 'sh -c "ls -l /usr/bin >/dev/null"' > /dev/null

# pytest-benchmark: two benchmarks, their timings kept (--benchmark-save-data)
cat > "$work/test_bench.py" <<'PY'
def test_sum(benchmark):
    benchmark(sum, range(1000))

def test_sorted(benchmark):
    benchmark(sorted, list(range(1000, 0, -1)))
PY
(cd "$work" && "$VENV/bin/python" -m pytest -q -p no:cacheprovider test_bench.py \
    --benchmark-json=bench.json --benchmark-save-data --benchmark-min-rounds=10 --benchmark-max-time=0.000001 --benchmark-warmup=off >/dev/null)
cp "$work/bench.json" "$OUT/pytest-benchmark.json"

# pyperf: one benchmark, 3 processes x 3 values
rm -f "$OUT/pyperf.json"
"$VENV/bin/python" -m pyperf timeit --processes 3 --values 3 --loops 1000 -q \
    -o "$OUT/pyperf.json" 'sorted(range(100))' > /dev/null

# google-benchmark (its Python bindings): 5 repetitions of two benchmarks
cat > "$work/gbench.py" <<'PY'
import google_benchmark as benchmark

@benchmark.register
def sum_1000(state):
    while state:
        sum(range(1000))

@benchmark.register
def sorted_1000(state):
    x = list(range(1000, 0, -1))
    while state:
        sorted(x)

if __name__ == "__main__":
    benchmark.main()
PY
"$VENV/bin/python" "$work/gbench.py" --benchmark_repetitions=5 --benchmark_min_time=0.02s \
    --benchmark_out="$OUT/google-benchmark.json" --benchmark_out_format=json > /dev/null

# pyperf's own summary of its file: the reference for the values read from it
"$VENV/bin/python" -m pyperf stats "$OUT/pyperf.json" > "$OUT/pyperf-stats.txt"

sh "$(dirname "$0")/capture_xml_mm.sh" "$OUT" "$PTS"

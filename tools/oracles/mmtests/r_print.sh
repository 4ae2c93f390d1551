#!/bin/bash
# R's print() of two-number vectors, as MMTests 2018's subselection script prints its
# (mean, half-width) pair (docs/mmtests.md §4.8): tests/data/mmtests/r-print/pairs, lines
# `<x> <y> | <what R printed>` (x, y with 17 significant digits or NA).
#   r_print.sh [OUT]   (needs r-base-core)
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../../../tests/data/mmtests/r-print/pairs}
python3 - > "$OUT.in" <<'PY'
import random
random.seed(2018)
def one():
    r = random.random()
    if r < 0.08:
        return "NA"
    if r < 0.14:
        return "0"
    if r < 0.3:
        return str(random.choice([1, 5, 88, 113, 1000, 123456, 1000000, 99999999]))
    v = 10 ** random.uniform(-9, 13)
    v = float(f"{v:.{random.randint(1, 12)}g}")
    if random.random() < 0.1:
        v = -v
    return f"{v:.17g}"
for _ in range(400):
    print(one(), one())
PY
/usr/bin/Rscript -e 'for (l in readLines(file("stdin"))) { f <- strsplit(l, " ")[[1]]; x <- suppressWarnings(as.numeric(f)); cat(l, "| "); cat(capture.output(print(x)), "\n", sep="") }' \
	< "$OUT.in" > "$OUT"
rm "$OUT.in"

"""Hand-run check of the memory bound of docs/readers.md §10: each reader's peak memory is at most 4x its
input (the peak RSS in a fresh child, over the same child's RSS after importing
schedlab, numpy and pandas, divided by the input's size on disk).

Inputs (about --mb MiB each, generated in a temporary directory): a samples file
(`schedlab stats`), an idle trace CSV (`idle.read_trace`), an idle ftrace text
(`idle.read_ftrace`), a PELT task trace CSV (`pelt.read_trace`), an lkp matrix.json pair
(`lkp.compare`, both sides counted as input) with few and with every metric changed, a
perf stat CSV (`readers.read`), an MMTests compare table (`mmtests.parse_compare`), a
trace.dat (`pelt.ftrace_task`; --tracedat, default the committed one), a `perf script`
text (the committed capture repeated, timestamps moved on per copy; `pelt.ftrace_task`),
a batch archive of MMTests netperf logs (`batch.scan`), then every other format of
`readers.read` (perf stat JSON and text, hyperfine, google-benchmark, pytest-benchmark,
pyperf, PTS XML, fio: the committed captures of tests/data/readers with their result
lists repeated), an MMTests work/log tree with a long hackbench log (`mmtests.compare`)
and an lkp run directory with a long vmstat log (`lkp.run_stats`). Prints one line per
reader with its ratio and whether it is within 4x; exits 1 when one is not. `--only
TEXT` runs the readers whose name contains TEXT.

    python benchmarks/reader_memory.py [--mb 32] [--only TEXT] [--tracedat FILE --tracedat-pid PID]

Recorded 2026-12-05 (`python benchmarks/reader_memory.py --mb 16 --only NAME`, each reader
alone, release build, this sandbox shared by other agents: memory does not depend on the
load). Before: the same command before the 4-byte columns of `table::Rows`, the compare's
keys by matrix position and the one-thread load of matrices over 4 MiB.

    reader                       input MiB  peak MiB over imports  ratio      before
    lkp pair, all changed              6.7                   25.2   3.75 ok    4.59
    google-benchmark (readers)        16.0                   18.6   1.16 ok
    pytest-benchmark (readers)        16.0                   19.8   1.24 ok
    pyperf JSON (readers)             16.0                   22.8   1.43 ok
    PTS XML (readers)                 16.0                   19.2   1.20 ok
    fio JSON (readers)                16.0                   19.4   1.21 ok
    hyperfine JSON (readers)          16.0                   31.0   1.94 ok
    mmtests work/log extract          18.0                   43.8   2.43 ok

Twelve runs of the lkp line gave 3.73-3.75. With the two matrices parsed on two threads
(before: parallel up to 64 MiB of matrix files) twelve runs gave 3.77-3.84 eight times
and 4.01-4.03 four times: how their growing columns landed in glibc's thread arenas
depended on which finished first (mallinfo2 after the compare: 2.9 or 6.3 MiB free but
resident). Loaded one after the other (`lkp::matrix::PARALLEL_LOAD_BYTES`, now 4 MiB)
they share one arena and the figure is steady. Counting the columns' sizes in a first
pass and allocating them once also steadied it (3.81-3.85) but moved trace.dat's figure
to 5.3 (a 0.45 MB input); not kept. The full run (`python benchmarks/reader_memory.py
--mb 16`, the same build): samples 1.18, idle CSV 1.94, idle ftrace 1.85, PELT CSV 3.37,
lkp matrix.json pair 2.43, lkp pair all changed 3.75, perf stat CSV 1.23, mmtests parse
(table) 2.56, trace.dat 3.67, perf script 1.07, batch archive 0.28, perf stat JSON 1.13
and text 1.18; the readers after them in one run (hyperfine, google-benchmark,
pytest-benchmark, pyperf, PTS, fio, mmtests work/log) read 0.00-0.65 there because the
run's import baseline has already peaked above them: their own figures are the ones
measured alone, above.

The readers hold their samples as columns (each series once, 12 bytes a value) and read
the JSON formats one element of their top-level array at a time and PTS as a stream of
XML events (docs/readers.md §10); lkp's matrix keeps its names in one text and its values
in 8 bytes each (docs/lkp.md §2.3), its raw outputs become series a piece at a time
(docs/lkp.md §4). A Comparison keeps its rows by column (`table::Rows`, docs/tables.md
§1), offsets, label ids and `n` in 4 bytes each and no per-row cell end while every row
has one cell per kernel: a pasted MMTests table's row of three cells costs under 90
bytes (it cost 696 as Row and Cell structs). The closest to the bound is lkp's compare
of 69,905 changed metrics: at its peak the two matrices (~8.6 MB, 1.2x the input), the
Comparison (~11.5 MB, ~165 bytes a row of two cells with three samples each: five 8-byte
columns, the samples and their 4-byte ends, n in 4 bytes and the names, which copy the
matrices'), the row plan (~0.9 MB: an 8-byte key reference and a 4-byte index a row) and
3-6 MiB that glibc keeps resident after the load and the key selection freed it are all
resident (malloc's bytes in use and free, glibc mallinfo2, in a fresh process; heaptrack
for the peak). The pages the load freed are handed back (malloc_trim) before comparing.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

MiB = 1 << 20
REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys
import schedlab
from schedlab import batch, idle, lkp, mmtests, pelt, readers, stats, _core  # noqa: F401
import pandas, numpy  # noqa: F401
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
exec(sys.argv[1])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"base": base, "peak": peak}))
"""


def lines(path: Path, line: bytes, size: int, header: bytes = b"") -> Path:
    with open(path, "wb") as f:
        f.write(header)
        block = line * max(1, (1 << 20) // len(line))
        while f.tell() < size:
            f.write(block)
    return path


def matrix(path: Path, size: int, shift: float, scale: float = 1.0) -> Path:
    path.mkdir(parents=True)
    keys = max(1, size // 120)
    doc = {f"unixbench.metric{i}": [(1000.0 + i % 7) * scale + shift, 1001.0 * scale + shift, 999.5 * scale + shift]
           for i in range(keys)}
    (path / "matrix.json").write_text(json.dumps(doc))
    return path


def perf_script(path: Path, size: int) -> Path:
    """tests/data/traces/perf-6.18/perf-script.txt (a real `perf script` of sched events)
    repeated to `size` bytes, each copy's timestamps moved past the previous copy's."""
    src = (REPO / "tests" / "data" / "traces" / "perf-6.18" / "perf-script.txt").read_text().splitlines(True)
    stamp = re.compile(r"(\] +)(\d+)\.(\d{9}):")
    ns = [int(m[2]) * 10**9 + int(m[3]) for m in map(stamp.search, src) if m]
    span = max(ns) - min(ns) + 1000
    with open(path, "w") as f:
        k = 0
        while f.tell() < size:
            shift = k * span
            for line in src:
                f.write(stamp.sub(lambda m, shift=shift: f"{m[1]}{(int(m[2]) * 10**9 + int(m[3]) + shift) // 10**9}."
                                            f"{(int(m[3]) + shift) % 10**9:09d}:", line, count=1))
            k += 1
    return path


def netperf_archive(path: Path, size: int) -> Path:
    with tempfile.TemporaryDirectory() as d:
        root = Path(d) / "work" / "log"
        n = 0
        total = 0
        while total < size:
            for kernel in ("base", "new"):
                logs = root / kernel / f"iter-{n}" / "netperf-udp" / "logs"
                logs.mkdir(parents=True)
                (logs / "protocols").write_text("UDP_STREAM\n")
                for i in range(1, 6):
                    text = ("MIGRATED UDP STREAM TEST\n\n212992      64   60.00     50547656      0   "
                            f"{431.4 + i:.2f}\n212992           60.00     50253515         {428.9 + i:.2f}\n")
                    (logs / f"UDP_STREAM-64.{i}").write_text(text)
                    total += len(text)
            n += 1
        with tarfile.open(path, "w") as t:
            t.add(Path(d) / "work", arcname="work")
    return path


def scaled_json(path: Path, src: str, key: str, size: int) -> Path:
    """tests/data/readers/SRC (a real capture) with its list `key` repeated until the
    file holds about `size` bytes (one JSON document, after what the tool prints before it)."""
    text = (REPO / "tests" / "data" / "readers" / src).read_text()
    start = text.index("{")  # fio prints its job lines before the document
    doc = json.loads(text[start:])
    one = len(json.dumps(doc[key]))
    doc[key] = doc[key] * max(1, size // max(1, one))
    path.write_text(text[:start] + json.dumps(doc))
    return path


def repeated_lines(path: Path, src: Path, size: int, keep: int = 0) -> Path:
    """The first `keep` lines of SRC (a real capture) once, then its other lines repeated
    to `size` bytes."""
    head, *body = [src.read_bytes().splitlines(True)[:keep], src.read_bytes().splitlines(True)[keep:]]
    return lines(path, b"".join(body[0]), size, b"".join(head))


def pts_xml(path: Path, size: int) -> Path:
    """tests/data/readers/pts-composite.xml (a real PTS result) with its <Result> blocks
    repeated to about `size` bytes."""
    text = (REPO / "tests" / "data" / "readers" / "pts-composite.xml").read_text()
    start, end = text.index("  <Result>"), text.rindex("</Result>") + len("</Result>\n")
    block = text[start:end]
    path.write_text(text[:start] + block * max(1, size // len(block)) + text[end:])
    return path


def hackbench_tree(path: Path, size: int) -> Path:
    """The MMTests work/log tree of tests/data/mmtests/logs-legacy (hackbench-process-pipes)
    with each kernel's second run of group 1 a `Total time` log of `size`/2 bytes
    (uncompressed): `mmtests.compare` extracts and summarises it."""
    for k in ("6.8-vanilla", "6.9-patched"):
        src = REPO / "tests" / "data" / "mmtests" / "logs-legacy" / k / "iter-0"
        dst = path / k / "iter-0"
        shutil.copytree(src / "hackbench-process-pipes", dst / "hackbench-process-pipes")
        shutil.copy(src / "tests-timestamp", dst)
        lines(dst / "hackbench-process-pipes" / "logs" / "hackbench-1-2", b"     Total time: 0.021 [sec]\n", size // 2)
    return path


def lkp_run(path: Path, size: int) -> Path:
    """An lkp run directory whose vmstat (the committed scenario A capture) is repeated to
    `size` bytes: `lkp.run_stats` turns it into stats."""
    src = REPO / "tests" / "data" / "lkp" / "golden" / "scenario_a_raw" / "unixbench" / "performance-30s-1-execl" / \
        "lkp-ivb-d04" / "debian-x86_64.cgz" / "x86_64-rhel" / "gcc-7" / "d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a" / "3"
    path.mkdir(parents=True)
    repeated_lines(path / "vmstat", src / "vmstat", size, keep=2)
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=32)
    ap.add_argument("--only", default="", help="run only the readers whose name contains this text")
    ap.add_argument("--tracedat", type=Path, default=REPO / "tests" / "data" / "traces" / "tracedat-6.18" / "trace-v6.dat",
                    help="the trace.dat to import (default: the committed 0.45 MB one; give a recording of "
                         "several MB, tools/traces/record.sh, for a steady figure)")
    ap.add_argument("--tracedat-pid", type=int, default=30984, help="the pid to import from it (default: the "
                    "committed file's hog)")
    args = ap.parse_args()
    size = args.mb * MiB
    worst = 0.0
    with tempfile.TemporaryDirectory() as d:
        t = Path(d)
        cases = [
            ("samples (stats)", lambda: [lines(t / "s.txt", b"4626.5\n", size)], "_core.read_samples({0!r})"),
            ("idle trace CSV", lambda: [lines(t / "i.csv", b"7829400,3998726,3176995,0,-1,0\n", size,
                                      b"sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns,nr_iowait\n")],
             "idle.read_trace({0!r})"),
            ("idle ftrace text", lambda: [lines(t / "f.txt", b"          <idle>-0       [000] d..1.   100.000001: cpu_idle: "
                                                    b"state=1 cpu_id=0\n          <idle>-0       [000] d..1.   "
                                                    b"100.000501: cpu_idle: state=4294967295 cpu_id=0\n", size)],
             "idle.read_ftrace({0!r}, sort=True)"),
            ("PELT trace CSV", lambda: [lines(t / "p.csv", b"3000000,R,1024,1024\n500000,S,1024,1024\n", size,
                                      b"dur_ns,state,cpu_cap,freq_cap\n")], "pelt.read_trace({0!r})"),
            ("lkp matrix.json pair", lambda: [matrix(t / "base" / ("a" * 40), size // 2, 0.0),
                                      matrix(t / "head" / ("b" * 40), size // 2, 5.0)], "lkp.compare({0!r}, {1!r})"),
            ("lkp pair, all changed", lambda: [matrix(t / "base2" / ("c" * 40), size // 2, 0.0),
                                       matrix(t / "head2" / ("d" * 40), size // 2, 0.0, 2.0)],
             "lkp.compare({0!r}, {1!r})"),
            ("perf stat CSV (readers)", lambda: [lines(t / "perf.csv", b"     0.127709479;1.74;msec;task-clock;1739069;100.00;"
                                                              b"0.017;CPUs utilized\n", size)],
             "schedlab.readers.read({0!r}, 'perf-stat-csv')"),
            ("mmtests parse (table)", lambda: [lines(t / "m.txt", b"Amean     1       0.1334 (   0.00%)      0.1388 *  -4.05%*"
                                                         b"      0.1312 (   1.65%)\n", size,
                                             b"                             4.18.0                 4.18.0       "
                                             b"          4.18.0\n                            vanilla          "
                                             b"          teo        teo-v6+backport\n")],
             "schedlab.mmtests.parse_compare(open({0!r}).read())"),
            ("trace.dat (PELT import)", lambda: [args.tracedat], f"pelt.ftrace_task({{0!r}}, {args.tracedat_pid}, sort=True)"),
            ("perf script (PELT import)", lambda: [perf_script(t / "perf-script.txt", size)],
             "pelt.ftrace_task({0!r}, 12116, sort=True)"),
            ("batch archive scan", lambda: [netperf_archive(t / "n.tar", size // 4)], "batch.scan({0!r})"),
            ("perf stat JSON (readers)", lambda: [repeated_lines(t / "perf.json", REPO / "tests" / "data" / "readers" /
                                                         "perf-stat-r5.json", size)],
             "schedlab.readers.read({0!r}, 'perf-stat-json')"),
            ("perf stat text (readers)", lambda: [repeated_lines(t / "perf.txt", REPO / "tests" / "data" / "readers" /
                                                         "perf-stat-r5.txt", size, keep=4)],
             "schedlab.readers.read({0!r}, 'perf-stat')"),
            ("hyperfine JSON (readers)", lambda: [scaled_json(t / "hf.json", "hyperfine.json", "results", size)],
             "schedlab.readers.read({0!r}, 'hyperfine')"),
            ("google-benchmark (readers)", lambda: [scaled_json(t / "gb.json", "google-benchmark.json", "benchmarks", size)],
             "schedlab.readers.read({0!r}, 'google-benchmark')"),
            ("pytest-benchmark (readers)", lambda: [scaled_json(t / "pb.json", "pytest-benchmark.json", "benchmarks", size)],
             "schedlab.readers.read({0!r}, 'pytest-benchmark')"),
            ("pyperf JSON (readers)", lambda: [scaled_json(t / "pp.json", "pyperf.json", "benchmarks", size)],
             "schedlab.readers.read({0!r}, 'pyperf')"),
            ("PTS XML (readers)", lambda: [pts_xml(t / "pts.xml", size)], "schedlab.readers.read({0!r}, 'pts')"),
            ("fio JSON (readers)", lambda: [scaled_json(t / "fio.json", "fio.json", "jobs", size)],
             "schedlab.readers.read({0!r}, 'fio')"),
            ("mmtests work/log extract", lambda: [hackbench_tree(t / "work" / "log", size)],
             "mmtests.compare({0!r}, 'hackbench-process-pipes', ['6.8-vanilla', '6.9-patched'])"),
            ("lkp run dir (run_stats)", lambda: [lkp_run(t / "lkp-run", size)], "lkp.run_stats({0!r})"),
        ]
        print(f"{'reader':27s} {'input MiB':>10s} {'peak MiB over imports':>22s} {'ratio':>6s}")
        for name, make, code in (c for c in cases if args.only in c[0]):
            inputs = make()
            nbytes = sum(f.stat().st_size for p in inputs for f in ([p] if p.is_file() else p.rglob("*"))
                         if f.is_file())
            r = subprocess.run([sys.executable, "-c", CHILD, code.format(*map(str, inputs))], capture_output=True,
                               text=True, timeout=600)
            if r.returncode != 0:
                print(f"{name:27s} failed: {r.stderr.strip().splitlines()[-1]}")
                worst = float("inf")
                continue
            out = json.loads(r.stdout.strip().splitlines()[-1])
            grew = out["peak"] - out["base"]
            ratio = grew / nbytes
            worst = max(worst, ratio)
            print(f"{name:27s} {nbytes / MiB:10.1f} {grew / MiB:22.1f} {ratio:6.2f} {'ok' if ratio <= 4 else 'OVER 4x'}", flush=True)
    return 0 if worst <= 4 else 1


if __name__ == "__main__":
    sys.exit(main())

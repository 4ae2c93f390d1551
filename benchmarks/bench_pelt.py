#!/usr/bin/env python3
"""Speed and memory of schedlab's PELT replay and import against the strongest peers,
measured in the same run (by hand, not part of the tests).

**The kernel's own C** (default): ``tools/oracles/kernel/pelt_oracle.c``, the kernel's
``pelt.c``/``pelt.h``/``sched-pelt.h`` and the PELT part of ``fair.c`` compiled in
userspace (docs/pelt.md §8, tools/oracles/kernel/README.md), replays the same trace CSV
file and prints the same rows; schedlab's command line does the same
(``schedlab pelt simulate FILE -o /dev/null``, a process started per run, as the C's).
At each size (``--sizes``, default 10k, 1M and 10M segments of random run/sleep
durations, full capacity) it prints the wall time and peak RSS of both (GNU time's
``%M``), the ratio, and the interpreter's own RSS (``python -c "import
schedlab.pelt"``), against the acceptance: time <= 0.5x the C's, peak RSS <= 2x the C's
plus the interpreter's, and the largest size within 10 % of the 1M run's RSS. The oracle
is built from a kernel tree (``--ksrc``: Debian's linux-source-6.12, unpacked) or given
(``--oracle``).

**A trace.dat** (``--tracedat FILE --pid N``): one task's import by the command line
(``schedlab pelt ftrace FILE --pid N -o /dev/null``) timed beside ``trace-cmd report -i
FILE > /dev/null``, MB/s of the file and peak RSS of each; then the import's own CPU
time, past the interpreter's start and timed inside one process (``pelt.ftrace_csv``).

Measured 2026-12-07 (release build; other builds running: load average 10-60, so the
figures move by a third between runs) on a version-6 trace.dat recorded on this
machine (80.5 MB, kernel 6.18, 2 CPUs, 31 s, nearly all sched_switch; the task, pid
18490, a periodic task forked in it), and that file stretched 13 times by
tools/traces/stretch_tracedat.py (1,020.5 MB):

    python benchmarks/bench_pelt.py --tracedat big-v6.dat --pid 18490 --repeat 3    (load 60)
    schedlab pelt ftrace --pid 18490   1.600 s  50.3 MB/s  10.71x  CPU 0.310 s  peak RSS 40.6 MiB
    trace-cmd report > /dev/null      17.140 s   4.7 MB/s   1.00x  CPU 3.380 s  peak RSS 86.9 MiB
    the import past the interpreter's start: 0.120 s CPU, 671 MB/s (acceptance: >= 800)
    the import in one process (pelt.ftrace_csv, best of 3): 0.102 s CPU, 786 MB/s
    (other runs: 575-1,006 MB/s past the interpreter's start, 742-857 MB/s in one process;
    before the frequency pass read the CPU buffers one at a time, the same in-process
    import took 0.139-0.216 s: 373-578 MB/s)

    python benchmarks/bench_pelt.py --tracedat huge.dat --pid 18490 --repeat 1     (load 14-33)
    schedlab pelt ftrace --pid 18490   3.558 s 286.8 MB/s  48.14x  CPU  1.470 s  peak RSS  40.6 MiB
    trace-cmd report > /dev/null     171.316 s   6.0 MB/s   1.00x  CPU 45.480 s  peak RSS 985.1 MiB
    the import past the interpreter's start: 1.290 s CPU, 791 MB/s (acceptance: >= 800)
    (in one process: 1.27 s CPU, 801 MB/s; before: 1.93 s, 528 MB/s)

Measured again 2026-12-07 on tests/data/traces/tracedat-6.18/trace-v6.dat stretched 540
times (``python tools/traces/stretch_tracedat.py .../trace-v6.dat big.dat 540``: 79.9 MB,
the periodic task pid 30985, forked in every copy; the file has a cpu_frequency format,
so the import reads it twice: the frequency pass, then the events), other builds running:

    python benchmarks/bench_pelt.py --tracedat big.dat --pid 30985 --repeat 3    (load 3.9)
    schedlab pelt ftrace --pid 30985   0.755 s  105.8 MB/s  10.11x  CPU 0.500 s  peak RSS 36.0 MiB
    trace-cmd report > /dev/null       7.632 s   10.5 MB/s   1.00x  CPU 4.370 s  peak RSS 79.7 MiB
    the import past the interpreter's start: 0.290 s CPU, 276 MB/s (acceptance: >= 800)
    the import in one process (pelt.ftrace_csv, best of 3): 0.122 s CPU, 653 MB/s

    the same after the hrtimer maps moved from SipHash to IntMap (load 6.0):
    schedlab pelt ftrace --pid 30985   0.567 s  140.9 MB/s  12.08x  CPU 0.370 s  peak RSS 35.9 MiB
    trace-cmd report > /dev/null       6.851 s   11.7 MB/s   1.00x  CPU 4.470 s  peak RSS 79.8 MiB
    the import past the interpreter's start: 0.130 s CPU, 615 MB/s (acceptance: >= 800)
    the import in one process (pelt.ftrace_csv, best of 3): 0.128 s CPU, 625 MB/s

Not met (>= 800 MB/s): the change is within the noise of a loaded machine. ``perf
record`` of ten in-process imports: record decoding 20 %, walking the pages 15 %, the
kernel's copy of the file into the page buffers 11 %, the merge by time 8 %, the
per-event match 12 %; SipHash was 5 % before (gone).

After the reading was made faster (docs/tracing.md §3.2), 2026-12-07 07:00 UTC, load
average 1.0, nothing else running; the same file stretched 4,000 times (590.1 MB), with
the previous build (a clean-clone install of 49d0f660) then this one, and a recording of
tools/traces/record_big.sh (526.7 MB, sched events only, its periodic task pid 445):

    python benchmarks/bench_pelt.py --tracedat stretched.dat --pid 30985 --repeat 3
    before: the import in one process (pelt.ftrace_csv, best of 3): 1.051 s CPU, 561 MB/s
    after:  the import in one process (pelt.ftrace_csv, best of 3): 0.795 s CPU, 742 MB/s
            schedlab pelt ftrace --pid 30985  1.147 s  CPU 1.240 s  peak RSS 36.1 MiB
            trace-cmd report > /dev/null     29.026 s  CPU 29.000 s peak RSS 567.2 MiB
    python benchmarks/bench_pelt.py --tracedat record_big.dat --pid 445 --repeat 3
    after:  the import in one process (pelt.ftrace_csv, best of 3): 0.459 s CPU, 1,148 MB/s
            schedlab pelt ftrace --pid 445    0.849 s  CPU 0.940 s  peak RSS 41.1 MiB
            trace-cmd report > /dev/null     18.437 s  CPU 18.370 s peak RSS 513.3 MiB

The command line, median CPU of 8 runs taken in turn with the previous build: 1.28 →
0.91 s on the stretched file, 0.94 → 0.72 s on the recording; the same command on
trace-v6.dat itself (0.45 MB) takes 0.23 s with either build (the interpreter, numpy,
the metadata). Past that start: 865 MB/s of the stretched file (561 before) and 1,081
of the recording (738 before). The lines above subtract ``import schedlab.pelt`` in
an interpreter (0.25 s) from the best of 3 runs: 596 MB/s for the stretched file and
742 for the recording there. The script now subtracts the command's own start, as here.

The script as it is now, 07:33 UTC, load average 0.9-1.0, nothing else running:

    python benchmarks/bench_pelt.py --tracedat stretched.dat --pid 30985 --repeat 3
    stretched.dat (590.1 MB); the command's start (on trace-v6.dat, 0.45 MB): 35.7 MiB, 0.210 s CPU
    schedlab pelt ftrace --pid 30985   0.739 s  798.9 MB/s  38.03x  CPU  0.840 s  peak RSS  35.9 MiB
    trace-cmd report > /dev/null      28.091 s   21.0 MB/s   1.00x  CPU 28.070 s  peak RSS 567.2 MiB
    the import past the command's start: 0.630 s CPU, 937 MB/s (acceptance: >= 800)
    the import in one process (pelt.ftrace_csv, best of 3): 0.602 s CPU, 981 MB/s (acceptance: >= 800)

    python benchmarks/bench_pelt.py --tracedat record_big.dat --pid 445 --repeat 2
    schedlab pelt ftrace --pid 445     0.622 s  847.2 MB/s  28.88x  CPU  0.720 s  peak RSS  41.0 MiB
    trace-cmd report > /dev/null      17.952 s   29.3 MB/s   1.00x  CPU 17.880 s  peak RSS 513.2 MiB
    the import past the command's start: 0.510 s CPU, 1,033 MB/s (acceptance: >= 800)
    the import in one process (pelt.ftrace_csv, best of 2): 0.402 s CPU, 1,309 MB/s (acceptance: >= 800)

The replay against the kernel's C, checked the same day (load 5.0, tests building beside it):

    python benchmarks/bench_pelt.py --ksrc /tmp/idle-ksrc/linux-source-6.12 --sizes 10000,1000000 --repeat 1
       segments      C s  schedlab s  ratio  C CPU s  schedlab CPU s  ratio   C MiB  schedlab MiB  over interp  <= 2xC+interp
         10,000    0.056       0.186   3.34    0.030           0.080   2.67     1.3          20.2        -10.7            yes
      1,000,000    6.303       2.463   0.39    3.740           1.460   0.39     1.3          20.3        -10.7            yes

    python benchmarks/bench_pelt.py --ksrc /path/linux-source-6.12 [--sizes 10000,1000000,10000000]
    python benchmarks/bench_pelt.py --oracle /path/pelt_oracle --tracedat big.dat --pid 1234
    python benchmarks/bench_pelt.py --lisa [--segments 1000000]      (LISA, below)

**LISA** (``--lisa``): ``simulate_pelt`` of lisa-linux on the same trace.
The trace: ``--segments`` (default 1,000,000) alternating run/sleep segments with
random, non-aligned durations (run 0.2–12 ms, sleep 0.2–25 ms, fixed seed), full
capacity. Each tool gets the same trace in its native input form, built outside the timing
(numpy columns for schedlab, LISA's 0/1 activation Series indexed by time):

- schedlab: ``pelt.simulate(trace)`` — the kernel's integer PELT, util_est, ticks,
  consumers, one DataFrame row per event (28 columns); the same simulation returning
  only what LISA returns (util_avg at each switch in/out: ``columns=["t_ns",
  "p_util_avg"], events=["run", "sleep"]``); and ``pelt.simulate_csv`` (the CSV bytes
  the CLI writes);
- LISA: ``lisa.pelt.simulate_pelt(activations)`` on the 0/1 activation Series of the
  same trace — LISA's own code from the ``lisa-linux`` package (3.1.0). Importing
  ``lisa`` whole needs its full stack, so when that fails the benchmark loads
  ``lisa/pelt.py`` by itself from the installed package (``pip install --no-deps
  lisa-linux``), with a stub for the one helper it imports but ``simulate_pelt`` does
  not use. Only if the package is absent does it fall back to a transcription of
  LISA's windowed float filter (reported as such).

LISA's float filter does far less work per activation (no ticks, no util_est, no
integer invariance clock), yet it runs a Python function per row. Reported: wall time,
segments/s and events (output rows)/s for each, the ratio LISA time / schedlab time
(target ≥ 1000×), and LISA's error against the kernel math at the sleep instants.

    python benchmarks/bench_pelt.py [--segments 1000000] [--repeat 3] [--lisa-segments N]

``--lisa-segments`` times LISA on a prefix and scales linearly (its cost is per row);
by default LISA runs on the whole trace.

Recorded 2026-11-30, second session (2-core AMD EPYC VM, pandas 3.1.1, lisa-linux 3.1.0
loaded standalone, OPENBLAS_NUM_THREADS=1; 1,000,000 segments -> 2,762,196 events). The
VM's speed drifts, and LISA's pandas code drifts more than ours. Three runs at the final
code (a5e9709), after six during the session's last changes:

    schedlab simulate -> DataFrame      0.48-0.60 s  (28 columns, every event)
    schedlab simulate, LISA's output    0.021 s      (util-only, 2 threads)
      the same on 1 thread              0.027-0.033 s
    schedlab simulate_csv -> bytes      2.2-2.6 s  (449 MB)
    LISA simulate_pelt                  25.2-27.3 s
    ratio, LISA's output, 2 threads: 1174x, 1229x, 1295x (1 thread: 921x, 819x, 814x)
      earlier six: 1063x, 1092x, 976x, 1364x, 1393x, 1420x (1 thread: 766-1166x)
    full DataFrame 39-61x
    LISA - kernel util_avg at 500,000 sleeps: mean +0.50, max |err| 18.2

The >= 1000x target is met on 2 threads in eight of the nine runs, with a thin margin
(LISA's time moves by a third with the VM's phase, ours by a tenth); not on 1 thread.

"LISA's output" (``columns=["t_ns", "p_util_avg"]``) takes the util-only replay
(src/pelt/util_only.rs: only the task's util signal and the rq clocks, the same values
as the full replay); a trace whose capacities are all 1024, like this one, uses the
full-capacity model of src/pelt/full_capacity.rs (the PELT clock is the task clock),
split across threads by speculation (src/pelt/speculate.rs). The Rust core alone
(``cargo run --release --example pelt_speed util``, rows not materialised) replays the
trace in 0.017-0.027 s on one thread with the full-capacity model and 0.041-0.048 s with
the general one; in pelt.simulate the rest is checking the columns (~1.5 ms) and writing
the output arrays. A second thread gains 1.1-1.5x here, not 2x: two busy threads each
run slower on this VM's vCPUs than one alone, in some phases.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
import types
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from schedlab import pelt
from timing import best_of, measured

T0 = pelt.DEFAULT_START_NS


def make_trace(n: int, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    run = rng.integers(200_000, 12_000_000, size=(n + 1) // 2)
    sleep = rng.integers(200_000, 25_000_000, size=n // 2)
    dur = np.empty(n, dtype=np.int64)
    dur[0::2] = run
    dur[1::2] = sleep
    state = np.where(np.arange(n) % 2 == 0, "R", "S")
    return pd.DataFrame({"dur_ns": dur, "state": state, "cpu_cap": 1024, "freq_cap": 1024})


def activations(trace: pd.DataFrame) -> pd.Series:
    """LISA's input: 1 when the task starts running, 0 when it sleeps, indexed by time (s)."""
    starts = T0 + np.concatenate(([0], np.cumsum(trace["dur_ns"].to_numpy())[:-1]))
    values = (trace["state"].to_numpy() == "R").astype(int)
    return pd.Series(values, index=pd.Index(starts / 1e9, name="time"))


def load_lisa():
    """(simulate_pelt, where it came from)."""
    try:
        from lisa.pelt import simulate_pelt  # the full LISA stack

        return simulate_pelt, "lisa-linux, imported"
    except Exception:
        pass
    spec = importlib.util.find_spec("lisa")
    if spec is not None and spec.submodule_search_locations:
        path = Path(list(spec.submodule_search_locations)[0]) / "pelt.py"
        if path.exists():
            pkg = types.ModuleType("lisa")
            pkg.__path__ = [str(path.parent)]
            datautils = types.ModuleType("lisa.datautils")

            def series_envelope_mean(series):  # imported by lisa/pelt.py, unused by simulate_pelt
                raise NotImplementedError

            datautils.series_envelope_mean = series_envelope_mean
            sys.modules.setdefault("lisa", pkg)
            sys.modules["lisa.datautils"] = datautils
            mod = types.ModuleType("lisa.pelt")
            mod.__file__ = str(path)
            exec(compile(path.read_text(), str(path), "exec"), mod.__dict__)
            version = "?"
            try:
                from importlib.metadata import version as dist_version

                version = dist_version("lisa-linux")
            except Exception:
                pass
            return mod.simulate_pelt, f"lisa-linux {version}, {path} loaded standalone"
    return _lisa_transcribed, "transcription of LISA's windowed filter (lisa-linux not installed)"


def _lisa_transcribed(act: pd.Series, init: float = 0, window: float = 1024 * 1024e-9,
                      half_life: int = 32, scale: float = 1024) -> pd.Series:
    """LISA's windowed ``simulate_pelt`` (no capacity, no clock), row by row as LISA does."""
    df = pd.DataFrame({"activations": act})
    df["clock"] = df.index
    df["delta"] = df["clock"].diff()
    df["crossed_windows"] = (df["clock"] // window).diff()
    df["activations"] = df["activations"].shift()
    df = df.dropna()
    alpha = 1 - (1 / 2) ** (1 / half_life)
    state = {"acc": 0.0, "signal": init / scale, "output": init / scale}

    def step(row):
        running, clock, delta = row["activations"], row["clock"], row["delta"]
        windows = int(row["crossed_windows"])
        if windows:
            state["acc"] += running * (window - ((clock - delta) % window)) / window
            state["signal"] = alpha * state["acc"] + (1 - alpha) * state["signal"]
            for _ in range(windows - 1):
                state["signal"] = alpha * running + (1 - alpha) * state["signal"]
            frac = (clock % window) / window
            extrapolated = running * alpha + (1 - alpha) * state["signal"]
            state["output"] = state["signal"] + frac * (extrapolated - state["signal"])
            state["signal"] += alpha * running * frac
            state["acc"] = 0.0
        else:
            state["acc"] += running * delta / window
        return state["output"] * scale

    return df.apply(step, axis=1).reindex(act.index, method="ffill")



ROOT = Path(__file__).resolve().parent.parent
ORACLES = ROOT / "tools" / "oracles" / "kernel"
#: A real trace.dat of 0.45 MB with the task pid 30985: the command's start is timed on it.
SMALL_TRACE = ROOT / "tests" / "data" / "traces" / "tracedat-6.18" / "trace-v6.dat"


def build_oracle(ksrc: Path, into: Path) -> Path:
    """pelt_oracle of the kernel tree ``ksrc``, built as tools/oracles/kernel/run_golden.sh does."""
    mk = {}
    for line in (ksrc / "Makefile").read_text().splitlines()[:10]:
        k, _, v = line.partition(" = ")
        mk[k.strip()] = v.strip()
    kv = int(mk["VERSION"]) * 100 + int(mk["PATCHLEVEL"])
    (into / "ksrc").mkdir(parents=True, exist_ok=True)
    for f in ("pelt.c", "pelt.h", "sched-pelt.h"):
        shutil.copy(ksrc / "kernel" / "sched" / f, into / "ksrc" / f)
    (into / "ksrc" / "sched.h").write_text("")
    subprocess.run([sys.executable, str(ORACLES / "extract.py"), str(ksrc), str(into / "gen"), "--pelt-only"],
                   check=True, capture_output=True)
    exe = into / "pelt_oracle"
    subprocess.run(["gcc", "-O2", "-std=gnu11", "-w", f"-DKV={kv}", "-iquote", str(into), "-iquote", str(ORACLES),
                    "-iquote", str(into / "ksrc"), "-I", str(ORACLES / "stubinc"), "-o", str(exe),
                    str(ORACLES / "pelt_oracle.c")], check=True)
    return exe


def write_trace_csv(n: int, path: Path) -> None:
    trace = make_trace(n)
    trace[["dur_ns", "state"]].assign(cpu_cap=1024, freq_cap=1024).to_csv(path, index=False, lineterminator="\n")


def kernel_c(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        oracle = Path(args.oracle) if args.oracle else build_oracle(Path(args.ksrc), work / "oracle")
        schedlab = [sys.executable, "-m", "schedlab"]
        _, interp, _ = measured([sys.executable, "-c", "import schedlab.pelt"])
        print(f"kernel C: {oracle}; schedlab: {' '.join(schedlab)}; interpreter alone: {interp / 2**20:.1f} MiB")
        print(f"{'segments':>11} {'C s':>8} {'schedlab s':>11} {'ratio':>6} {'C CPU s':>8} {'schedlab CPU s':>15}"
              f" {'ratio':>6} {'C MiB':>7} {'schedlab MiB':>13} {'over interp':>12} {'<= 2xC+interp':>14}")
        rss = {}
        for n in [int(x) for x in args.sizes.split(",")]:
            path = work / f"trace_{n}.csv"
            write_trace_csv(n, path)
            best = {}
            for name, argv in (("c", [str(oracle), "trace", str(path), "-i", "kernel"]),
                               ("s", [*schedlab, "pelt", "simulate", str(path), "-o", os.devnull])):
                runs = [measured(argv) for _ in range(args.repeat)]
                best[name] = (min(r[0] for r in runs), max(r[1] for r in runs), min(r[2] for r in runs))
            (tc, rc, cc), (ts, rs, cs) = best["c"], best["s"]
            rss[n] = rs
            ok = "yes" if rs <= 2 * rc + interp else "no"
            print(f"{n:>11,} {tc:8.3f} {ts:11.3f} {ts / tc:6.2f} {cc:8.3f} {cs:15.3f} {cs / cc:6.2f}"
                  f" {rc / 2**20:7.1f} {rs / 2**20:13.1f}"
                  f" {(rs - interp) / 2**20:12.1f} {ok:>14}")
            path.unlink()
        sizes = sorted(rss)
        if 1_000_000 in rss and sizes[-1] > 1_000_000:
            grow = rss[sizes[-1]] / rss[1_000_000] - 1
            print(f"peak RSS at {sizes[-1]:,} segments vs 1,000,000: {grow:+.1%} (acceptance: within 10 %)")
    return 0


def tracedat(args: argparse.Namespace) -> int:
    path = Path(args.tracedat)
    mb = path.stat().st_size / 1e6
    rows = []
    imp = [sys.executable, "-m", "schedlab", "pelt", "ftrace", str(path), "--pid", str(args.pid), "-o", os.devnull]
    runs = [measured(imp) for _ in range(args.repeat)]
    rows.append((f"schedlab pelt ftrace --pid {args.pid}", min(r[0] for r in runs), max(r[1] for r in runs),
                 min(r[2] for r in runs)))
    tc = shutil.which("trace-cmd")
    if tc:
        runs = [measured([tc, "report", "-i", str(path)]) for _ in range(args.repeat)]
        rows.append(("trace-cmd report > /dev/null", min(r[0] for r in runs), max(r[1] for r in runs),
                     min(r[2] for r in runs)))
    # the command's own start: the same command on a real trace of 0.45 MB (the
    # interpreter, numpy, the metadata), best of the same number of runs
    small = [sys.executable, "-m", "schedlab", "pelt", "ftrace", str(SMALL_TRACE), "--pid", "30985", "-o", os.devnull]
    _, interp, interp_cpu = min((measured(small) for _ in range(args.repeat)), key=lambda r: r[2])
    print(f"{path} ({mb:,.1f} MB); the command's start (on {SMALL_TRACE.name}, 0.45 MB):"
          f" {interp / 2**20:.1f} MiB, {interp_cpu:.3f} s CPU")
    ref = rows[-1][1]
    for name, t, rss, cpu in rows:
        print(f"{name:40s} {t:8.3f} s {mb / t:9.1f} MB/s {ref / t:7.2f}x  CPU {cpu:7.3f} s"
              f" {mb / cpu:8.1f} MB/s of CPU  peak RSS {rss / 2**20:7.1f} MiB")
    # the import alone: the CPU time past the command's start
    own = rows[0][3] - interp_cpu
    if own > 0:
        print(f"the import past the command's start: {own:.3f} s CPU, {mb / own:,.0f} MB/s (acceptance: >= 800)")
    # the same import timed inside one process (the CSV bytes dropped): the difference of
    # two process times above carries the noise of both on a loaded machine
    timed = subprocess.run([sys.executable, "-c", IN_PROCESS, str(path), str(args.pid), str(args.repeat)],
                           capture_output=True, text=True, check=True, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    cpu = float(timed.stdout.split()[0])
    print(f"the import in one process (pelt.ftrace_csv, best of {args.repeat}): {cpu:.3f} s CPU, {mb / cpu:,.0f} MB/s"
          f" (acceptance: >= 800); load {os.getloadavg()[0]:.1f}")
    return 0


#: One task's import timed in-process: the CPU time of ``pelt.ftrace_csv`` (every thread
#: of the process), best of N, after the interpreter and schedlab are loaded.
IN_PROCESS = """
import sys, time
from schedlab import pelt
best = float("inf")
for _ in range(int(sys.argv[3])):
    c = time.process_time()
    pelt.ftrace_csv(sys.argv[1], int(sys.argv[2]), write=lambda b: None)
    best = min(best, time.process_time() - c)
print(best)
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ksrc", help="a kernel tree to build the PELT oracle from")
    ap.add_argument("--oracle", help="a built pelt_oracle (instead of --ksrc)")
    ap.add_argument("--sizes", default="10000,1000000,10000000", help="segments per trace, comma-separated")
    ap.add_argument("--tracedat", help="time one task's import of this trace.dat beside trace-cmd report")
    ap.add_argument("--pid", type=int, help="the task of --tracedat")
    ap.add_argument("--lisa", action="store_true", help="compare with LISA's simulate_pelt instead")
    ap.add_argument("--segments", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--lisa-segments", type=int, default=None,
                    help="time LISA on this many segments and scale (default: the whole trace)")
    args = ap.parse_args()
    if args.tracedat:
        if args.pid is None:
            ap.error("--tracedat needs --pid")
        return tracedat(args)
    if not args.lisa:
        if not (args.ksrc or args.oracle):
            ap.error("give --ksrc (a kernel tree, e.g. Debian's linux-source-6.12) or --oracle")
        return kernel_c(args)
    return lisa(args)


def lisa(args: argparse.Namespace) -> int:
    threads_env = os.environ.get("SCHEDLAB_NUM_THREADS")
    trace = make_trace(args.segments)
    print(f"trace: {len(trace):,} run/sleep segments, {trace['dur_ns'].sum() / 1e9:,.1f} s of task time")

    # Each tool gets the trace in its native form, built outside the timing: numpy
    # columns (state as ASCII codes) here, the 0/1 activation Series for LISA below.
    arrays = {"dur_ns": trace["dur_ns"].to_numpy(), "state": trace["state"].to_numpy().astype("S1").view(np.uint8),
              "cpu_cap": trace["cpu_cap"].to_numpy(), "freq_cap": trace["freq_cap"].to_numpy()}
    t_df, df = best_of(args.repeat, lambda: pelt.simulate(arrays))
    lisa_like = dict(columns=["t_ns", "p_util_avg"], events=["run", "sleep"])
    t_sel, sel = best_of(max(args.repeat, 10), lambda: pelt.simulate(arrays, **lisa_like))
    os.environ["SCHEDLAB_NUM_THREADS"] = "1"  # read at each call
    t_sel1, sel1 = best_of(max(args.repeat, 10), lambda: pelt.simulate(arrays, **lisa_like))
    if threads_env is None:
        del os.environ["SCHEDLAB_NUM_THREADS"]
    else:
        os.environ["SCHEDLAB_NUM_THREADS"] = threads_env
    assert sel1.equals(sel)
    trace_csv = trace.to_csv(index=False, lineterminator="\n").encode()
    t_csv, csv = best_of(args.repeat, lambda: pelt.simulate_csv(trace_csv))
    rows = len(df)
    print(f"schedlab simulate -> DataFrame: {t_df:8.3f} s  {len(trace) / t_df:14,.0f} segments/s"
          f"  {rows / t_df:14,.0f} events/s  ({rows:,} rows)")
    print(f"schedlab simulate, LISA's output: {t_sel:6.3f} s  {len(trace) / t_sel:14,.0f} segments/s"
          f"  {rows / t_sel:14,.0f} events/s  (util_avg at the {len(sel):,} switches; util-only replay,"
          f" {threads_env or os.cpu_count()} threads)")
    print(f"  the same on 1 thread:         {t_sel1:8.3f} s  {len(trace) / t_sel1:14,.0f} segments/s"
          f"  {rows / t_sel1:14,.0f} events/s")
    print(f"schedlab simulate_csv -> bytes: {t_csv:8.3f} s  {len(trace) / t_csv:14,.0f} segments/s"
          f"  {rows / t_csv:14,.0f} events/s  ({len(csv) / 1e6:,.0f} MB; trace CSV parsed, output CSV rendered)")

    simulate_pelt, origin = load_lisa()
    n_lisa = min(args.lisa_segments or len(trace), len(trace))
    act = activations(trace.iloc[:n_lisa])
    with warnings.catch_warnings():
        # lisa/__init__ turns DeprecationWarnings raised on its behalf into errors, and
        # pandas 3 deprecates the inplace= its simulate_pelt uses: silence them here.
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        lisa = simulate_pelt(act, init=512)
        t_lisa = time.perf_counter() - t0
    scale = len(trace) / n_lisa
    t_lisa_full = t_lisa * scale
    note = "" if n_lisa == len(trace) else f" (measured on {n_lisa:,} segments, scaled x{scale:.1f})"
    print(f"LISA simulate_pelt [{origin}]:")
    print(f"                                {t_lisa_full:8.3f} s  {len(trace) / t_lisa_full:14,.0f} segments/s"
          f"{note}")
    print(f"ratio LISA / schedlab, full DataFrame:  {t_lisa_full / t_df:,.0f}x   (target >= 1000x)")
    print(f"ratio LISA / schedlab, LISA's output:   {t_lisa_full / t_sel:,.0f}x  ({t_lisa_full / t_sel1:,.0f}x on 1 thread)")
    print(f"ratio LISA / schedlab, CSV bytes:       {t_lisa_full / t_csv:,.0f}x")

    # How far the float filter is from the kernel's integers, at the sleep instants.
    sleeps = df[df["event"] == "sleep"]
    t_s = sleeps["t_ns"].to_numpy() / 1e9
    lisa_at = lisa.reindex(pd.Index(t_s), method="ffill").to_numpy()
    ok = ~np.isnan(lisa_at)
    err = lisa_at[ok] - sleeps["p_util_avg"].to_numpy()[: len(t_s)][ok]
    print(f"LISA - kernel util_avg at {ok.sum():,} sleeps: mean {err.mean():+.2f}, max |err| {np.abs(err).max():.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Hand-run benchmark: the stats of a run's kernel and test-suite logs, schedlab against lkp-tests.

Builds one run directory of large logs from lkp-tests' own parser fixtures (tests/data/lkp/spec:
every dmesg fixture one after the other as `dmesg`, the kmsg ones as `kmsg`, the kselftests
ones that can be repeated as `kselftests`, the stderr ones as `stderr`, each repeated until it
is about --mib MiB),
then:

- runs lkp-tests' pipeline as a job does: for each log `programs/<name>/parse <log> < <log>`
  with RESULT_ROOT set, `sbin/dump-stat <name>`, then `bin/create-stats-matrix`, timing the
  whole, on a copy of the run (lkp's dmesg and kmsg parsers rewrite their log);
- runs `python -m schedlab lkp stats RUN` `--repeat` times as a whole process and takes the best;
- checks that both stats.json are the same text, and prints the ratio.

    LKP_SRC=/path/to/lkp-tests python benchmarks/bench_lkp_logs.py [--mib 4] [--repeat 3]

Needs ruby, ruby-activesupport and ruby-tty-command, an lkp-tests checkout in LKP_SRC, and
schedlab installed in this interpreter (`python -m schedlab`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "..", "tests", "data", "lkp", "spec")
LOGS = ("dmesg", "kmsg", "kselftests", "stderr")
# kselftests fixtures whose staters add a case without overwriting it: repeated, lkp's
# parser raises "has already existed" (and schedlab returns that error)
NOT_REPEATABLE = ("dma-", "mount-", "mqueue-", "vmalloc-")


def fixture_text(program: str) -> bytes:
    d = os.path.join(SPEC, program)
    parts = []
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        if os.path.isfile(p) and not name.endswith((".yaml", ".json")) and not name.startswith(NOT_REPEATABLE):
            with open(p, "rb") as f:
                data = f.read()
            parts.append(data if data.endswith(b"\n") else data + b"\n")
    return b"".join(parts)


def make_run(run: str, mib: float) -> None:
    os.makedirs(run)
    with open(os.path.join(run, "job.yaml"), "w") as f:
        f.write("suite: kselftests\ntestcase: kselftests\n")
    for program in LOGS:
        one = fixture_text(program)
        times = max(1, int(mib * (1 << 20) / len(one)))
        with open(os.path.join(run, program), "wb") as f:
            f.write(one * times)


def lkp_stats(run: str, lkp: str, scratch: str) -> tuple[float, str]:
    copy = os.path.join(scratch, "result", "kselftests", "0")
    shutil.rmtree(os.path.join(scratch, "result"), ignore_errors=True)
    shutil.copytree(run, copy)
    env = dict(os.environ, LKP_SRC=lkp, RESULT_ROOT=copy, TZ="UTC")
    t = time.perf_counter()
    for program in LOGS:
        log = os.path.join(copy, program)
        with open(log, "rb") as stdin:
            out = subprocess.run([os.path.join(lkp, "programs", program, "parse"), log], stdin=stdin,
                                 capture_output=True, env=env, check=True).stdout
        subprocess.run([os.path.join(lkp, "sbin", "dump-stat"), program], input=out, capture_output=True, env=env,
                       check=True)
    subprocess.run([os.path.join(lkp, "bin", "create-stats-matrix"), copy], capture_output=True, env=env, check=True)
    elapsed = time.perf_counter() - t
    with open(os.path.join(copy, "stats.json")) as f:
        return elapsed, f.read()


def schedlab_stats(run: str, repeat: int) -> tuple[float, str]:
    best, out = float("inf"), ""
    for _ in range(repeat):
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "schedlab", "lkp", "stats", run], capture_output=True, text=True,
                             check=True).stdout
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=float, default=4.0, help="about how large each log is (MiB)")
    ap.add_argument("--repeat", type=int, default=3, help="schedlab runs (the best is taken)")
    args = ap.parse_args()
    lkp = os.environ.get("LKP_SRC")
    if not lkp:
        print("set LKP_SRC to an lkp-tests checkout", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        run = os.path.join(tmp, "run")
        make_run(run, args.mib)
        sizes = ", ".join(f"{p} {os.path.getsize(os.path.join(run, p)) / (1 << 20):.1f} MiB" for p in LOGS)
        print(f"run directory: {sizes}")
        t_lkp, want = lkp_stats(run, lkp, tmp)
        t_ours, got = schedlab_stats(run, args.repeat)
        same = got.rstrip("\n") == want.rstrip("\n")
        print(f"lkp-tests (parse, dump-stat, create-stats-matrix): {t_lkp:8.2f} s")
        print(f"schedlab lkp stats (best of {args.repeat}):            {t_ours:8.2f} s")
        print(f"ratio: {t_lkp / t_ours:.1f}x; same stats.json: {same}")
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

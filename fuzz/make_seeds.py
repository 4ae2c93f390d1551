#!/usr/bin/env python3
"""Seeds of the fuzz targets.

    python fuzz/make_seeds.py            # (re)write the generated seeds in fuzz/seeds/
    python fuzz/make_seeds.py --corpus   # fill fuzz/corpus/<target>/ for libFuzzer

Generated seeds (committed, small) are what no single fixture file is: one iteration
of an MMTests run or one lkp run directory in the tree container of
fuzz/src/checks/tree.rs, small archives of the fixtures (and hostile ones), sysfs
dumps, ftrace texts, and Comparison JSON documents (made with the installed
schedlab from the fixtures). --corpus copies, for every target, the fixture files
named in fuzz/seeds.txt, fuzz/seeds/<target>/ and tests/data/fuzz-regressions/<target>/
into fuzz/corpus/<target>/ (named by SHA-1 as libFuzzer names its inputs).
"""

from __future__ import annotations

import glob
import gzip
import hashlib
import io
import lzma
import os
import shutil
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "fuzz" / "seeds"
DATA = ROOT / "tests" / "data"
MAX_SEED = 48 << 10  # bytes: a seed larger than this is skipped


def container(header: str, files: list[tuple[str, bytes]]) -> bytes:
    """fuzz/src/checks/tree.rs's container: a header line, then `@@ path` + bytes per file."""
    out = header.encode()
    for name, data in files:
        out += b"\n@@ " + name.encode() + b"\n" + data
    return out


def write(target: str, name: str, data: bytes) -> None:
    if len(data) > MAX_SEED:
        return
    d = SEEDS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data)


def files_of(d: Path) -> list[tuple[str, bytes]]:
    return [(str(p.relative_to(d)), p.read_bytes()) for p in sorted(d.rglob("*")) if p.is_file()]


FAMILY = {
    "sockperf": "mmtests_sockperf",
    "netperf": "mmtests_netperf",
    "tbench": "mmtests_dbench",
    "dbench": "mmtests_dbench",
    "hackbench": "mmtests_hackbench",
    "schbench": "mmtests_schbench",
}


def family_of(bench: str) -> str | None:
    return next((t for k, t in FAMILY.items() if bench.startswith(k)), None)


def mmtests_seeds() -> None:
    # E1/E2/E3 layout: <name>/iter-N/<benchmark>/logs/<files>; one iteration of the first name
    trees = [(DATA / "mmtests" / "logs-legacy", ("2024", "2025")), (DATA / "mmtests" / "logs-head", ("head",))]
    trees += [(p, ("2025",)) for p in sorted((DATA / "mmtests" / "fuzz" / "logs").glob("case*"))[:6]]
    trees += [(p, ("head",)) for p in sorted((DATA / "mmtests" / "fuzz" / "logshead").glob("case*"))[:6]]
    for root, eras in trees:
        if not root.is_dir():
            continue
        names = sorted(p for p in root.iterdir() if p.is_dir())
        if not names:
            continue
        first = names[0]
        for iter0 in sorted(first.glob("iter-0")):
            for bench in sorted(p for p in iter0.iterdir() if p.is_dir()):
                target = family_of(bench.name)
                logs = bench / "logs"
                if target is None or not logs.is_dir():
                    continue
                files = files_of(logs)
                iter1 = first / "iter-1" / bench.name / "logs"
                if iter1.is_dir():
                    files += [("iter-1/" + n, b) for n, b in files_of(iter1)]
                for era in eras:
                    write(target, f"{root.name}-{bench.name}-{era}", container(f"{bench.name} {era}", files))
    # E0 layout: <benchmark>-<name>/noprofile/<files>
    for d in sorted((DATA / "mmtests" / "logs-2018").iterdir()):
        if not d.name.endswith("4.18.0-vanilla"):
            continue
        bench = d.name[: -len("-4.18.0-vanilla")]
        target = family_of(bench)
        if target and (d / "noprofile").is_dir():
            write(target, f"2018-{bench}", container(f"{bench} 2018", files_of(d / "noprofile")))


RAW = ("unixbench", "time", "interrupts", "cpuidle", "vmstat", "mpstat", "turbostat", "perf-stat", "unixbench.time")


def lkp_seeds() -> None:
    runs = [Path(p).parent for p in glob.glob(str(DATA / "lkp" / "**" / "unixbench"), recursive=True)]
    runs += [Path(p).parent for p in glob.glob(str(ROOT / "python/schedlab/data/example/lkp/*/0/unixbench"))]
    for i, run in enumerate(sorted(set(runs))[:4]):
        files = [(n, (run / n).read_bytes()) for n in RAW if (run / n).is_file()]
        write("lkp_raw", f"run{i}", container("lkp run", files))
        write("lkp_raw", f"run{i}-stats", container("lkp run with stats.json", files + [("stats.json", (run / "stats.json").read_bytes())] if (run / "stats.json").is_file() else files))
        for n, b in files if i == 0 else []:
            write("lkp_raw", f"run{i}-{n}", container("lkp run", [(n, b)]))
    # one raw output of each program with parser fixtures (lkp's own, then the edge
    # cases), as the run's file of that program's name
    for kind in ("spec", "edge"):
        for prog in sorted(p for p in (DATA / "lkp" / kind).iterdir() if p.is_dir()):
            cases = sorted(c for c in prog.iterdir() if c.is_file() and c.suffix not in (".yaml", ".json", ".error"))
            if cases:
                write("lkp_raw", f"{kind}-{prog.name}", container("lkp run", [(prog.name, cases[0].read_bytes())]))


def tar_bytes(files: list[tuple[str, bytes]], extra: list[tarfile.TarInfo] = ()) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
        for info in extra:
            t.addfile(info)
    return buf.getvalue()


def zip_bytes(files: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            z.writestr(name, data)
    return buf.getvalue()


def archive_seeds() -> None:
    legacy = DATA / "mmtests" / "logs-legacy"
    mm = [(f"work/log/{n}", b) for n, b in files_of(legacy) if "/iter-0/hackbench" in n or "/iter-1/hackbench" in n]
    lkp_root = DATA / "lkp" / "golden" / "scenario_b_edge"
    lk = [(f"results/{n}", b) for n, b in files_of(lkp_root) if n.endswith(("matrix.json", "job.yaml"))]
    for name, files in (("mmtests", mm), ("lkp", lk)):
        t = tar_bytes(files)
        write("archive", f"{name}.tar", t)
        write("archive", f"{name}.tar.gz", gzip.compress(t, 9))
        write("archive", f"{name}.tar.xz", lzma.compress(t))
        write("archive", f"{name}.zip", zip_bytes(files))
    link = tarfile.TarInfo("work/log/evil")
    link.type = tarfile.SYMTYPE
    link.linkname = "../../../etc"
    inside = tarfile.TarInfo("work/log/copy")
    inside.type = tarfile.SYMTYPE
    inside.linkname = "a/x"
    hard = tarfile.TarInfo("work/log/hard")
    hard.type = tarfile.LNKTYPE
    hard.linkname = "work/log/a/x"
    write("archive", "links.tar", tar_bytes([("work/log/a/x", b"1\n")], [inside, hard]))
    write("archive", "link-out.tar", tar_bytes([("work/log/a/x", b"1\n")], [link]))
    write("archive", "traversal.tar.gz", gzip.compress(tar_bytes([("work/log/a/x", b"1\n"), ("../../etc/passwd", b"x\n")])))
    write("archive", "traversal.zip", zip_bytes([("work/log/a/x", b"1\n"), ("../../etc/passwd", b"x\n")]))
    write("archive", "bomb.tar.gz", gzip.compress(tar_bytes([("work/log/a/big.log", bytes(2 << 20))]), 9))
    write("archive", "bomb.zip", zip_bytes([("a/big.log", bytes(2 << 20))]))


def idle_seeds() -> None:
    for csv in sorted((DATA / "idle" / "inputs").glob("states_*.csv")):
        lines = [l.split(",") for l in csv.read_text().splitlines() if l and not l.startswith("#")]
        head, rows = lines[0], lines[1:]
        col = {h.strip(): i for i, h in enumerate(head)}
        dump = []
        for k, r in enumerate(rows):
            base = f"/sys/devices/system/cpu/cpu0/cpuidle/state{k}"
            dump.append(f"{base}/name:{r[col['name']].strip()}")
            dump.append(f"{base}/latency:{r[col['exit_latency_us']].strip()}")
            dump.append(f"{base}/residency:{r[col['target_residency_us']].strip()}")
            dump.append(f"{base}/disable:{1 if 'D' in r[col['flags']] else 0}")
        write("idle_sysfs", csv.stem + ".dump", ("\n".join(dump) + "\n").encode())
    # the ftrace texts of the Rust and Python tests
    src = (ROOT / "src" / "idle" / "ftrace.rs").read_text()
    trace = "\n".join(l.strip() for l in src.splitlines() if ": cpu_idle:" in l or ": hrtimer_" in l or ": tick_stop:" in l)
    write("idle_ftrace", "module-test.txt", (trace + "\n").encode())
    for test in ("test_idle_inputs.py", "test_idle_api.py"):
        text = (ROOT / "tests" / test).read_text()
        lines = [l.strip().strip('"').replace("\\n", "") for l in text.splitlines() if "cpu_idle: state=" in l]
        if lines:
            write("idle_ftrace", test + ".txt", ("\n".join(lines) + "\n").encode())


def pelt_seeds() -> None:
    text = (ROOT / "tests" / "test_pelt_api.py").read_text()
    lines = [l.rstrip() for l in text.splitlines() if "sched_switch:" in l or "sched_wakeup" in l]
    write("pelt_ftrace", "kernel-format.txt", ("\n".join(lines) + "\n").encode())
    cmd = [
        "  foo-42 [001] 100.000100: sched_wakeup: foo:42 [120] CPU:001",
        "  <idle>-0 [001] 100.000200: sched_switch: swapper/1:0 [120] R ==> foo:42 [120]",
        "  foo-42 [001] 100.003200: sched_switch: foo:42 [120] S ==> swapper/1:0 [120]",
        "  bar-7 [000] 100.013200: sched_wakeup: foo:42 [120] CPU:001",
        "  <idle>-0 [001] 100.014200: sched_switch: swapper/1:0 [120] R ==> foo:42 [120]",
        "  foo-42 [001] 100.020000: sched_switch: foo:42 [120] X ==> swapper/1:0 [120]",
    ]
    write("pelt_ftrace", "trace-cmd-format.txt", ("\n".join(cmd) + "\n").encode())


def comparison_seeds() -> None:
    sys.path.insert(0, str(ROOT / "python"))
    try:
        from schedlab import lkp, mmtests, table
    except ImportError as e:  # the extension is not built: keep the committed seeds
        print(f"make_seeds: comparison_json seeds not regenerated ({e})", file=sys.stderr)
        return
    texts = sorted((DATA / "seeds").glob("*.txt"))
    for p in texts:
        try:
            for i, c in enumerate(table.parse(p.read_text())):
                write("comparison_json", f"{p.stem}-{i}.json", c.to_json().encode())
        except Exception:
            pass
    for bench, names in (("hackbench-process-pipes", ["6.8-vanilla", "6.9-patched"]),
                         ("netperf-udp", ["6.8-vanilla", "6.9-patched"])):
        for ratio in (False, True):
            c = mmtests.compare(DATA / "mmtests" / "logs-legacy", bench, names, compat="2025", print_ratio=ratio)
            write("comparison_json", f"mmtests-{bench}{'-ratio' if ratio else ''}.json", c.to_json().encode())
    b = DATA / "lkp" / "golden" / "scenario_b_edge"
    roots = sorted(p for p in b.iterdir() if p.is_dir())
    write("comparison_json", "lkp-scenario_b_edge.json", lkp.compare(*roots).to_json().encode())


def generate() -> None:
    if SEEDS.exists():
        shutil.rmtree(SEEDS)
    mmtests_seeds()
    lkp_seeds()
    archive_seeds()
    idle_seeds()
    pelt_seeds()
    comparison_seeds()
    for d in sorted(SEEDS.iterdir()):
        print(f"fuzz/seeds/{d.name}: {len(list(d.iterdir()))} seeds")


def corpus() -> None:
    targets = [l.split('"')[1] for l in (ROOT / "fuzz/src/checks/mod.rs").read_text().splitlines()
               if l.strip().startswith('("')]
    globs: dict[str, list[str]] = {}
    for line in (ROOT / "fuzz" / "seeds.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            t, pat = line.split()
            globs.setdefault(t, []).append(pat)
    for t in targets:
        paths = [p for pat in globs.get(t, []) for p in glob.glob(str(ROOT / pat), recursive=True)]
        for d in (SEEDS / t, DATA / "fuzz-regressions" / t):
            paths += [str(p) for p in d.glob("*")] if d.is_dir() else []
        out = ROOT / "fuzz" / "corpus" / t
        out.mkdir(parents=True, exist_ok=True)
        n = 0
        for p in paths:
            if os.path.isfile(p):
                data = Path(p).read_bytes()
                (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
                n += 1
        print(f"fuzz/corpus/{t}: {n} seeds added ({len(list(out.iterdir()))} inputs)")


if __name__ == "__main__":
    corpus() if "--corpus" in sys.argv[1:] else generate()
